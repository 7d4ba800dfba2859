"""The repository's ladder SQL: applying ratings, leaderboards, ranks, profiles, histories, forget-me.

A mixin of `bot.storage.sqlite.store.Store` (split off only to keep each file readable); together they are the one place
where SQL lives. Parameters are always bound. Must never import discord or puluc.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import cast

import aiosqlite

from bot.storage import ratings
from bot.storage.errors import PlayerInOpenGame
from bot.storage.ratings import PROVISIONAL_GAMES, SeatInfo, Skill
from bot.storage.sqlite.connection import run
from bot.storage.sqlite.schema import BUCKETS_PER_POINT
from bot.storage.types import (
    FORGOTTEN_NAME,
    GLOBAL_SCOPE,
    LADDERS,
    BestWin,
    FinishReport,
    ForgetReport,
    GameSummary,
    Ladder,
    LeaderboardPage,
    PersonalData,
    Profile,
    RatingChange,
    RatingPoint,
    Result,
    Standing,
    Streak,
)

PAGE_SIZE = 10

# Rank = listed players ahead in leaderboard order (conservative DESC, user_id ASC): whole buckets above
# from ladder_counts, then an exact count inside the player's own bucket, then equal ratings by user id.
_AHEAD = (
    "SELECT coalesce((SELECT sum(players) FROM ladder_counts WHERE ladder = :ladder AND scope = :scope "
    "AND day >= :day AND bucket > :bucket), 0) + "
    "(SELECT count(*) FROM ratings WHERE ladder = :ladder AND scope = :scope AND conservative > :c "
    "AND conservative < :upper AND games >= :min_games AND last_played >= :since) + "
    "(SELECT count(*) FROM ratings WHERE ladder = :ladder AND scope = :scope AND conservative = :c "
    "AND user_id < :user AND games >= :min_games AND last_played >= :since)"
)
_STANDING = (
    "SELECT r.user_id, p.display_name, r.mu, r.sigma, r.conservative, r.games, r.wins, r.draws, r.losses, "
    "r.last_played FROM ratings r JOIN players p ON p.user_id = r.user_id "
)


def _check_ladder(ladder: str) -> Ladder:
    if ladder not in LADDERS:
        raise ValueError(f"the ladder is 'duel' or 'team', not {ladder!r}")
    return cast(Ladder, ladder)


class LadderQueries:
    """Rating updates, ladder and player-data queries, and forget-me. Mixed into `Store`."""

    _clock: Callable[[], float]
    _read: Callable[[], AbstractAsyncContextManager[aiosqlite.Connection]]
    _write: Callable[[], AbstractAsyncContextManager[aiosqlite.Connection]]

    async def _rate(self, db: aiosqlite.Connection, game_id: int, winner: str | None, now: float) -> FinishReport:
        game_rows = list(await db.execute_fetchall("SELECT guild_id, ranked FROM games WHERE game_id = ?", (game_id,)))
        guild_id, ranked = game_rows[0]
        seats = [
            SeatInfo(r[0], r[1], r[2])
            for r in await db.execute_fetchall(
                "SELECT seat, user_id, ai_level FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
            )
        ]
        counts: dict[str, int] = {
            r[0]: r[1]
            for r in await db.execute_fetchall(
                "SELECT kind, count(*) FROM events WHERE game_id = ? AND kind IN ('move', 'ai_takeover') GROUP BY kind",
                (game_id,),
            )
        }
        ladder = ratings.ladder_for(len(seats))
        reason = ratings.unranked_reason(
            ranked=bool(ranked),
            cancelled=False,
            seats=seats,
            moves=counts.get("move", 0),
            ai_took_over=counts.get("ai_takeover", 0) > 0,
        )
        for seat in seats:
            if seat.user_id is not None:
                await run(db, "UPDATE players SET last_active = ? WHERE user_id = ?", (now, seat.user_id))
        if reason is not None:
            return FinishReport(game_id, ladder, reason, ())
        changes: list[RatingChange] = []
        for scope in (GLOBAL_SCOPE,) if guild_id is None else (GLOBAL_SCOPE, guild_id):
            changes += await self._rate_scope(db, game_id, ladder, scope, seats, winner, now)
        return FinishReport(game_id, ladder, None, tuple(changes))

    async def _rate_scope(
        self,
        db: aiosqlite.Connection,
        game_id: int,
        ladder: Ladder,
        scope: int,
        seats: Sequence[SeatInfo],
        winner: str | None,
        now: float,
    ) -> list[RatingChange]:
        users = [cast(int, s.user_id) for s in seats]
        marks = ",".join("?" * len(users))
        old = {
            r[0]: (Skill(r[1], r[2]), r[3], r[4])
            for r in await db.execute_fetchall(
                f"SELECT user_id, mu, sigma, games, last_played FROM ratings WHERE ladder = ? AND scope = ? "
                f"AND user_id IN ({marks})",
                (ladder, scope, *users),
            )
        }
        team = {t: [s for s in seats if s.seat[0] == t] for t in ("A", "B")}
        before = {s.seat: old[s.user_id][0] if s.user_id in old else ratings.NEWCOMER for s in seats}
        new_a, new_b = ratings.rate([before[s.seat] for s in team["A"]], [before[s.seat] for s in team["B"]], winner)
        after = dict(zip([s.seat for s in team["A"] + team["B"]], new_a + new_b, strict=True))
        changes = []
        for seat in seats:
            user = cast(int, seat.user_id)
            result = ratings.result_for(seat.seat[0], winner)
            opponents = [before[s.seat].display for s in team["B" if seat.seat[0] == "A" else "A"]]
            new = after[seat.seat]
            games = old[user][1] + 1 if user in old else 1
            if user in old:
                await _count(db, ladder, scope, old[user][1], old[user][0].conservative, old[user][2], -1)
            await _count(db, ladder, scope, games, new.conservative, now, +1)
            await run(
                db,
                "INSERT INTO ratings (ladder, scope, user_id, mu, sigma, conservative, games, wins, draws, "
                "losses, last_played) VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?) "
                "ON CONFLICT (ladder, scope, user_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
                "conservative = excluded.conservative, games = games + 1, wins = wins + excluded.wins, "
                "draws = draws + excluded.draws, losses = losses + excluded.losses, "
                "last_played = excluded.last_played",
                (
                    ladder,
                    scope,
                    user,
                    new.mu,
                    new.sigma,
                    new.conservative,
                    int(result == "win"),
                    int(result == "draw"),
                    int(result == "loss"),
                    now,
                ),
            )
            await run(
                db,
                "INSERT INTO rating_history (user_id, ladder, scope, game_id, played_at, result, mu_before, "
                "sigma_before, mu_after, sigma_after, rating_before, rating_after, opponent_rating) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    user,
                    ladder,
                    scope,
                    game_id,
                    now,
                    result,
                    before[seat.seat].mu,
                    before[seat.seat].sigma,
                    new.mu,
                    new.sigma,
                    before[seat.seat].display,
                    new.display,
                    round(sum(opponents) / len(opponents)),
                ),
            )
            changes.append(
                RatingChange(
                    user, ladder, scope, result, before[seat.seat].display, new.display, ratings.is_provisional(games)
                )
            )
        return changes

    def _standing(self, ladder: Ladder, scope: int, row: aiosqlite.Row, rank: int | None) -> Standing:
        now = self._clock()
        provisional = ratings.is_provisional(row[5])
        active = ratings.is_active(row[9], now)
        return Standing(
            ladder,
            scope,
            row[0],
            row[1],
            Skill(row[2], row[3]).display,
            row[5],
            row[6],
            row[7],
            row[8],
            provisional,
            active,
            rank if not provisional and active else None,
        )

    async def leaderboard(
        self, ladder: str, scope: int, page: int = 0, *, caller_id: int | None = None
    ) -> LeaderboardPage:
        """One page (PAGE_SIZE rows) of rated, non-provisional players active in the last 30 days."""
        lad = _check_ladder(ladder)
        if page < 0:
            raise ValueError(f"pages start at 0, not {page}")
        since = ratings.active_since(self._clock())
        async with self._read() as db:
            rows = list(
                await db.execute_fetchall(
                    _STANDING + "WHERE r.ladder = ? AND r.scope = ? AND r.games >= ? AND r.last_played >= ? "
                    "ORDER BY r.conservative DESC, r.user_id LIMIT ? OFFSET ?",
                    (lad, scope, PROVISIONAL_GAMES, since, PAGE_SIZE + 1, page * PAGE_SIZE),
                )
            )
        entries = tuple(
            self._standing(lad, scope, row, page * PAGE_SIZE + i + 1) for i, row in enumerate(rows[:PAGE_SIZE])
        )
        caller = None
        if caller_id is not None:
            caller = next((e for e in entries if e.user_id == caller_id), None)
            if caller is None:
                caller = await self.standing(caller_id, lad, scope)
        return LeaderboardPage(lad, scope, page, entries, page > 0, len(rows) > PAGE_SIZE, caller)

    async def standing(self, user_id: int, ladder: str, scope: int) -> Standing | None:
        """The player's rating and rank on one ladder, or None if they never played a ranked game on it."""
        lad = _check_ladder(ladder)
        async with self._read() as db:
            rows = list(
                await db.execute_fetchall(
                    _STANDING + "WHERE r.ladder = ? AND r.scope = ? AND r.user_id = ?", (lad, scope, user_id)
                )
            )
            if not rows:
                return None
            row = rows[0]
            since = ratings.active_since(self._clock())
            bucket = math.floor(row[4] * BUCKETS_PER_POINT)
            ahead = list(
                await db.execute_fetchall(
                    _AHEAD,
                    {
                        "ladder": lad,
                        "scope": scope,
                        "c": row[4],
                        "user": user_id,
                        "min_games": PROVISIONAL_GAMES,
                        "since": since,
                        "day": ratings.day_of(since),
                        "bucket": bucket,
                        "upper": (bucket + 1) / BUCKETS_PER_POINT,
                    },
                )
            )
        return self._standing(lad, scope, row, int(ahead[0][0]) + 1)

    async def skill(self, user_id: int, ladder: str, scope: int = GLOBAL_SCOPE) -> Skill | None:
        """The player's raw mu and sigma on one ladder (None before their first ranked game there)."""
        lad = _check_ladder(ladder)
        async with self._read() as db:
            rows = list(
                await db.execute_fetchall(
                    "SELECT mu, sigma FROM ratings WHERE ladder = ? AND scope = ? AND user_id = ?",
                    (lad, scope, user_id),
                )
            )
        return Skill(rows[0][0], rows[0][1]) if rows else None

    async def rating_history(
        self, user_id: int, ladder: str, scope: int = GLOBAL_SCOPE, limit: int = 200
    ) -> tuple[RatingPoint, ...]:
        """Displayed rating after each of the player's last `limit` ranked games, oldest first (the chart)."""
        lad = _check_ladder(ladder)
        async with self._read() as db:
            rows = await db.execute_fetchall(
                "SELECT game_id, played_at, rating_after FROM rating_history WHERE user_id = ? AND ladder = ? "
                "AND scope = ? ORDER BY played_at DESC, game_id DESC LIMIT ?",
                (user_id, lad, scope, limit),
            )
        return tuple(RatingPoint(r[0], r[1], r[2]) for r in reversed(list(rows)))

    async def profile(self, user_id: int, guild_id: int | None = None) -> Profile | None:
        """Everything the profile card shows; None for a user the bot has never seen."""
        scopes = (GLOBAL_SCOPE,) if guild_id is None else (guild_id, GLOBAL_SCOPE)
        standings = []
        for scope in scopes:
            for ladder in LADDERS:
                found = await self.standing(user_id, ladder, scope)
                if found is not None:
                    standings.append(found)
        async with self._read() as db:
            player = list(await db.execute_fetchall("SELECT display_name FROM players WHERE user_id = ?", (user_id,)))
            if not player:
                return None
            totals = next(
                iter(
                    await db.execute_fetchall(
                        "SELECT count(*), coalesce(sum(s.kills), 0) FROM seats s JOIN games g ON g.game_id = s.game_id "
                        "WHERE s.user_id = ? AND g.status = 'finished'",
                        (user_id,),
                    )
                )
            )
            favourite = list(
                await db.execute_fetchall(
                    "SELECT g.variant FROM seats s JOIN games g ON g.game_id = s.game_id "
                    "WHERE s.user_id = ? AND g.status = 'finished' GROUP BY g.variant "
                    "ORDER BY count(*) DESC, max(g.game_id) DESC LIMIT 1",
                    (user_id,),
                )
            )
            best: dict[str, BestWin] = {}
            for ladder in LADDERS:
                rows = list(
                    await db.execute_fetchall(
                        "SELECT game_id, opponent_rating, played_at FROM rating_history WHERE user_id = ? "
                        "AND ladder = ? AND scope = ? AND result = 'win' "
                        "ORDER BY opponent_rating DESC, played_at LIMIT 1",
                        (user_id, ladder, GLOBAL_SCOPE),
                    )
                )
                if rows:
                    best[ladder] = BestWin(rows[0][0], rows[0][1], rows[0][2])
            recent = [
                r[0]
                for r in await db.execute_fetchall(
                    "SELECT result FROM rating_history WHERE user_id = ? AND scope = ? "
                    "ORDER BY played_at DESC, game_id DESC",
                    (user_id, GLOBAL_SCOPE),
                )
            ]
        return Profile(
            user_id,
            player[0][0],
            tuple(standings),
            int(totals[0]),
            int(totals[1]),
            best,
            _streak(recent),
            favourite[0][0] if favourite else None,
        )

    async def game_history(
        self, user_id: int, limit: int = 10, *, before_game_id: int | None = None
    ) -> tuple[GameSummary, ...]:
        """The player's last finished or cancelled games, newest first, each seen from the player's seat."""
        async with self._read() as db:
            rows = list(
                await db.execute_fetchall(
                    "SELECT g.game_id, g.variant, g.guild_id, g.ranked, g.status, s.seat, g.winner, g.end_reason, "
                    "g.finished_at FROM seats s JOIN games g ON g.game_id = s.game_id WHERE s.user_id = ? "
                    "AND s.game_id < ? AND g.status IN ('finished', 'cancelled') ORDER BY s.game_id DESC LIMIT ?",
                    (user_id, before_game_id if before_game_id is not None else 2**63 - 1, limit),
                )
            )
            others: dict[int, list[tuple[str, str]]] = {}
            for r in rows:
                others[r[0]] = [
                    (o[0], o[1])
                    for o in await db.execute_fetchall(
                        "SELECT seat, display_name FROM seats WHERE game_id = ? AND seat != ?", (r[0], r[5])
                    )
                ]
        summaries = []
        for r in rows:
            team = r[5][0]
            result: Result | None = None if r[4] == "cancelled" else ratings.result_for(team, r[6])
            summaries.append(
                GameSummary(
                    r[0],
                    r[1],
                    r[2],
                    bool(r[3]),
                    r[4],
                    r[5],
                    tuple(name for seat, name in others[r[0]] if seat[0] == team),
                    tuple(name for seat, name in others[r[0]] if seat[0] != team),
                    result,
                    r[7],
                    r[8],
                )
            )
        return tuple(summaries)

    async def personal_data(self, user_id: int) -> PersonalData:
        """Counts of everything stored about a user (for the privacy command)."""
        async with self._read() as db:
            player = list(
                await db.execute_fetchall("SELECT display_name, last_active FROM players WHERE user_id = ?", (user_id,))
            )
            counts = next(
                iter(
                    await db.execute_fetchall(
                        "SELECT (SELECT count(*) FROM seats WHERE user_id = :u), "
                        "(SELECT count(*) FROM games WHERE host_id = :u), "
                        "(SELECT count(*) FROM ratings WHERE user_id = :u), "
                        "(SELECT count(*) FROM rating_history WHERE user_id = :u)",
                        {"u": user_id},
                    )
                )
            )
        name, last_active = (player[0][0], player[0][1]) if player else (None, None)
        return PersonalData(user_id, name, last_active, counts[0], counts[1], counts[2], counts[3])

    async def forget_me(self, user_id: int) -> ForgetReport:
        """Erase a user's ratings, history and profile; their past seats stay, anonymised, so every
        other player's games and ratings remain valid. Refused while they sit in an open game."""
        async with self._write() as db:
            open_seats = list(
                await db.execute_fetchall(
                    "SELECT g.game_id FROM seats s JOIN games g ON g.game_id = s.game_id "
                    "WHERE s.user_id = ? AND g.status IN ('lobby', 'running')",
                    (user_id,),
                )
            )
            if open_seats:
                ids = ", ".join(str(r[0]) for r in open_seats)
                raise PlayerInOpenGame(f"finish, resign or leave your open games first (game {ids})")
            seats = await run(
                db, "UPDATE seats SET user_id = NULL, display_name = ? WHERE user_id = ?", (FORGOTTEN_NAME, user_id)
            )
            hosted = await run(db, "UPDATE games SET host_id = NULL WHERE host_id = ?", (user_id,))
            for r in await db.execute_fetchall(
                "SELECT ladder, scope, games, conservative, last_played FROM ratings WHERE user_id = ?", (user_id,)
            ):
                await _count(db, r[0], r[1], r[2], r[3], r[4], -1)
            rated = await run(db, "DELETE FROM ratings WHERE user_id = ?", (user_id,))
            history = await run(db, "DELETE FROM rating_history WHERE user_id = ?", (user_id,))
            player = await run(db, "DELETE FROM players WHERE user_id = ?", (user_id,))
            return ForgetReport(seats.rowcount, hosted.rowcount, rated.rowcount, history.rowcount, player.rowcount > 0)


async def _count(
    db: aiosqlite.Connection,
    ladder: Ladder,
    scope: int,
    games: int,
    conservative: float,
    last_played: float,
    delta: int,
) -> None:
    """Add (+1) or remove (-1) one rating from `ladder_counts` (only listed, non-provisional ones count)."""
    if ratings.is_provisional(games):
        return
    key = (ladder, scope, ratings.day_of(last_played), math.floor(conservative * BUCKETS_PER_POINT))
    await run(
        db,
        "INSERT INTO ladder_counts (ladder, scope, day, bucket, players) VALUES (?, ?, ?, ?, ?) "
        "ON CONFLICT (ladder, scope, day, bucket) DO UPDATE SET players = players + excluded.players",
        (*key, delta),
    )
    if delta < 0:
        await run(
            db,
            "DELETE FROM ladder_counts WHERE ladder = ? AND scope = ? AND day = ? AND bucket = ? AND players = 0",
            key,
        )


def _streak(results_newest_first: list[Result]) -> Streak | None:
    if not results_newest_first:
        return None
    first = results_newest_first[0]
    length = 0
    for result in results_newest_first:
        if result != first:
            break
        length += 1
    return Streak(first, length)
