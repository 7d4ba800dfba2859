"""Ranked ladders: rating a finished game (`rate_game`), leaderboards, ranks, skills and rating charts.

The arithmetic is `bot.ratings`'. Ranks are counted, not scanned: `ladder_counts` holds how many listed
players fall on each UTC day of last ranked game and each quarter point of conservative rating.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import cast

from bot import ratings
from bot.ratings import BUCKETS_PER_POINT, PAGE_SIZE, PROVISIONAL_GAMES, SeatInfo, Skill, check_ladder
from bot.ratings.types import Ladder
from bot.storage.sql.port import Database, Dialect, Row, Transaction
from bot.storage.sql.server_settings import ensure_guild
from bot.storage.types import GLOBAL_SCOPE, FinishReport, LeaderboardPage, RatingChange, RatingPoint, Standing

CountKey = tuple[str, int, int, int]  # (ladder, scope, day, bucket) of ladder_counts
Fetch = Callable[..., Awaitable[Sequence[Row]]]

_STANDING_COLUMNS = (
    "r.ladder, r.scope, r.user_id, p.display_name, r.mu, r.sigma, r.conservative, r.games, r.wins, r.draws, "
    "r.losses, r.last_played"
)


def rebuild_counts_sql(dialect: Dialect) -> str:
    """ladder_counts recomputed from ratings (to rebuild it, or to check the maintained one against it)."""
    day = dialect.trunc.format("last_played / 86400")
    bucket = dialect.floor.format(f"conservative * {BUCKETS_PER_POINT}")
    return (
        f"SELECT ladder, scope, {day} AS day, {bucket} AS bucket, count(*) AS players FROM ratings "
        f"WHERE games >= {PROVISIONAL_GAMES:d} GROUP BY 1, 2, 3, 4"
    )


def _standings_sql(dialect: Dialect, where: str, extra: str = "") -> str:
    """Standing rows with the number of listed players ahead (leaderboard order: conservative DESC, user_id):
    whole buckets above from ladder_counts, then an exact count inside the row's own bucket, then equal
    ratings by user id. `extra` adds columns after `ahead`. Parameters: day, min_games, since, min_games, since,
    then those of `where`."""
    bucket = dialect.floor.format(f"r.conservative * {BUCKETS_PER_POINT}")
    return (
        f"SELECT {_STANDING_COLUMNS}, "
        "(SELECT coalesce(sum(c.players), 0) FROM ladder_counts c WHERE c.ladder = r.ladder AND c.scope = r.scope "
        f"AND c.day >= ? AND c.bucket > {bucket}) + "
        "(SELECT count(*) FROM ratings o WHERE o.ladder = r.ladder AND o.scope = r.scope "
        f"AND o.conservative > r.conservative AND o.conservative < CAST({bucket} + 1 AS DOUBLE PRECISION) / "
        f"{BUCKETS_PER_POINT} AND o.games >= ? AND o.last_played >= ?) + "
        "(SELECT count(*) FROM ratings o WHERE o.ladder = r.ladder AND o.scope = r.scope "
        "AND o.conservative = r.conservative AND o.user_id < r.user_id AND o.games >= ? AND o.last_played >= ?) "
        f"AS ahead{extra} FROM ratings r JOIN players p ON p.user_id = r.user_id WHERE {where}"
    )


async def rate_game(tx: Transaction, dialect: Dialect, game_id: int, winner: str | None, now: float) -> FinishReport:
    """Rate a finished game (if it counts) inside the transaction that finishes it. Raters of the same players
    lock their rows in user id order first, so none loses another's update and none deadlocks."""
    game = await tx.fetchrow("SELECT guild_id, ranked FROM games WHERE game_id = ?", game_id)
    assert game is not None  # finish_game locked it
    guild_id, ranked = game[0], bool(game[1])
    seats = [
        SeatInfo(r[0], r[1], r[2])
        for r in await tx.fetch(
            "SELECT seat, user_id, ai_level FROM seats WHERE game_id = ? ORDER BY seat", game_id
        )
    ]
    kinds = {
        r[0]: r[1]
        for r in await tx.fetch(
            "SELECT kind, count(*) FROM events WHERE game_id = ? AND kind IN ('move', 'ai_takeover') "
            "GROUP BY kind",
            game_id,
        )
    }
    ladder = ratings.ladder_for(len(seats))
    facts = {"ranked": ranked, "cancelled": False, "seats": seats, "moves": kinds.get("move", 0),
             "ai_took_over": kinds.get("ai_takeover", 0) > 0}
    reason = ratings.unranked_reason(**facts)
    if reason is None:  # only a game that would count looks for earlier ones between the same line-ups
        repeats = await _same_lineup_games(tx, seats, ladder, now)
        reason = ratings.unranked_reason(**facts, same_lineup_games=repeats)
    if reason is None and guild_id is not None:
        # The server's row first, shared: raters of one server pass each other, but a season start (which
        # locks it exclusively, first too) and this rating happen one after the other, never interleaved.
        await ensure_guild(tx, guild_id, now)
        await tx.fetch("SELECT guild_id FROM guilds WHERE guild_id = ?" + dialect.lock_shared, guild_id)
    users = sorted({s.user_id for s in seats if s.user_id is not None})
    if users:
        marks = _marks(users)
        # Lock the players first, in id order: a second rater of any of them waits here, then reads the
        # ratings this one wrote (each statement of a PostgreSQL READ COMMITTED transaction sees the latest
        # committed rows).
        await tx.fetch(
            f"SELECT user_id FROM players WHERE user_id IN ({marks}) ORDER BY user_id" + dialect.lock_rows,
            *users,
        )
        await tx.execute(f"UPDATE players SET last_active = ? WHERE user_id IN ({marks})", now, *users)
    if reason is not None:
        return FinishReport(game_id, ladder, reason, ())
    changes: list[RatingChange] = []
    deltas: dict[CountKey, int] = {}
    for scope in (GLOBAL_SCOPE,) if guild_id is None else (GLOBAL_SCOPE, guild_id):
        changes += await _rate_scope(tx, game_id, ladder, scope, seats, winner, now, deltas)
    await apply_count_deltas(tx, deltas)
    return FinishReport(game_id, ladder, None, tuple(changes))


async def _same_lineup_games(tx: Transaction, seats: Sequence[SeatInfo], ladder: Ladder, now: float) -> int:
    """Ranked games in the last REPEAT_WINDOW between the same line-ups (either side), found through one
    player's rating history on the all-servers ladder."""
    first = min(cast(int, s.user_id) for s in seats)
    rows = await tx.fetch(
        "SELECT s.game_id, s.seat, s.user_id FROM rating_history h JOIN seats s ON s.game_id = h.game_id "
        "WHERE h.user_id = ? AND h.ladder = ? AND h.scope = ? AND h.played_at > ?",
        first, ladder, GLOBAL_SCOPE, now - ratings.REPEAT_WINDOW,
    )
    games: dict[int, list[tuple[str, int | None]]] = {}
    for r in rows:
        games.setdefault(r[0], []).append((r[1], r[2]))
    wanted = ratings.lineup((s.seat, s.user_id) for s in seats)
    return sum(1 for found in games.values() if ratings.lineup(found) == wanted)


async def _rate_scope(
    tx: Transaction,
    game_id: int,
    ladder: Ladder,
    scope: int,
    seats: Sequence[SeatInfo],
    winner: str | None,
    now: float,
    deltas: dict[CountKey, int],
) -> list[RatingChange]:
    users = [cast(int, s.user_id) for s in seats]
    old = {
        r[0]: (Skill(r[1], r[2]), int(r[3]), float(r[4]))
        for r in await tx.fetch(
            f"SELECT user_id, mu, sigma, games, last_played FROM ratings WHERE ladder = ? AND scope = ? "
            f"AND user_id IN ({_marks(users)})",
            ladder,
            scope,
            *users,
        )
    }
    # A long absence makes the returning player's rating uncertain again, so this game moves it more.
    rated = ratings.rate_seats(
        seats, {u: (ratings.with_absence(skill, last, now), games) for u, (skill, games, last) in old.items()},
        winner,
    )
    for r in rated:
        if r.user_id in old:
            skill, games, last_played = old[r.user_id]
            count_delta(deltas, ladder, scope, games, skill.conservative, last_played, -1)
        count_delta(deltas, ladder, scope, r.games, r.after.conservative, now, +1)
    await tx.executemany(
        "INSERT INTO ratings (ladder, scope, user_id, mu, sigma, conservative, games, wins, draws, "
        "losses, last_played) VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?) "
        "ON CONFLICT (ladder, scope, user_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
        "conservative = excluded.conservative, games = ratings.games + 1, wins = ratings.wins + excluded.wins, "
        "draws = ratings.draws + excluded.draws, losses = ratings.losses + excluded.losses, "
        "last_played = excluded.last_played",
        [
            (ladder, scope, r.user_id, r.after.mu, r.after.sigma, r.after.conservative,
             int(r.result == "win"), int(r.result == "draw"), int(r.result == "loss"), now)
            for r in rated
        ],
    )
    await tx.executemany(
        "INSERT INTO rating_history (user_id, ladder, scope, game_id, played_at, result, mu_before, "
        "sigma_before, mu_after, sigma_after, rating_before, rating_after, opponent_rating) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (r.user_id, ladder, scope, game_id, now, r.result, r.before.mu, r.before.sigma, r.after.mu,
             r.after.sigma, r.before.display, r.after.display, r.opponent_rating)
            for r in rated
        ],
    )
    if scope == GLOBAL_SCOPE:  # the profile's streak: ranked results on the all-servers ladders
        await tx.executemany(
            "INSERT INTO player_streaks (user_id, result, length) VALUES (?, ?, 1) ON CONFLICT (user_id) DO UPDATE "
            "SET length = CASE WHEN player_streaks.result = excluded.result THEN player_streaks.length + 1 "
            "ELSE 1 END, result = excluded.result",
            [(r.user_id, r.result) for r in rated],
        )
    return [
        RatingChange(r.user_id, ladder, scope, r.result, r.before.display, r.after.display,
                     ratings.is_provisional(r.games))
        for r in rated
    ]


def standing_of(row: Row, now: float, ahead: int) -> Standing:
    """A row of `_STANDING_COLUMNS`, with the number of listed players ahead of it."""
    games = int(row[7])
    now_ = ratings.status(Skill(row[4], row[5]), games, row[11], now)
    return Standing(
        row[0], row[1], row[2], row[3], now_.skill.display, games, row[8], row[9], row[10],
        now_.provisional, now_.active, ahead + 1 if not now_.provisional and now_.active else None,
    )


async def standings(fetch: Fetch, dialect: Dialect, now: float, where: str, *args: object) -> list[Standing]:
    """Standings matching `where`, with their ranks, read by `fetch` (a transaction's, or `Database.fetch`)."""
    since = ratings.active_since(now)
    rows = await fetch(
        _standings_sql(dialect, where),
        ratings.day_of(since), PROVISIONAL_GAMES, since, PROVISIONAL_GAMES, since, *args,
    )
    return [standing_of(row, now, int(row[12])) for row in rows]


class LadderStore:
    """Leaderboards, standings, skills and rating charts (the ratings are written by `rate_game`)."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def leaderboard(
        self, ladder: str, scope: int, page: int = 0, *, caller_id: int | None = None
    ) -> LeaderboardPage:
        """One page (PAGE_SIZE rows) of rated, non-provisional players active in the last 30 days, and the
        caller's own standing (on the page or not): one statement, so one snapshot and one round trip."""
        lad = check_ladder(ladder)
        if page < 0:
            raise ValueError(f"pages start at 0, not {page}")
        now = self._db.clock()
        since = ratings.active_since(now)
        # part 0: the page (its ranks follow from the offset); part 1: the caller's standing with its rank.
        sql = (
            f"SELECT * FROM (SELECT {_STANDING_COLUMNS}, 0 AS ahead, 0 AS part FROM ratings r "
            "JOIN players p ON p.user_id = r.user_id "
            "WHERE r.ladder = ? AND r.scope = ? AND r.games >= ? AND r.last_played >= ? "
            "ORDER BY r.conservative DESC, r.user_id LIMIT ? OFFSET ?) AS page"
        )
        args: list[object] = [lad, scope, PROVISIONAL_GAMES, since, PAGE_SIZE + 1, page * PAGE_SIZE]
        if caller_id is not None:
            sql += (
                " UNION ALL SELECT * FROM ("
                + _standings_sql(self._db.dialect, "r.ladder = ? AND r.scope = ? AND r.user_id = ?", ", 1 AS part")
                + ") AS caller"
            )
            args += [ratings.day_of(since), PROVISIONAL_GAMES, since, PROVISIONAL_GAMES, since, lad, scope, caller_id]
        rows = await self._db.fetch(sql + " ORDER BY 14, 7 DESC, 3", *args)
        listed = [row for row in rows if row[13] == 0]
        entries = tuple(standing_of(row, now, page * PAGE_SIZE + i) for i, row in enumerate(listed[:PAGE_SIZE]))
        caller = next((standing_of(row, now, int(row[12])) for row in rows if row[13] == 1), None)
        return LeaderboardPage(lad, scope, page, entries, page > 0, len(listed) > PAGE_SIZE, caller)

    async def standing(self, user_id: int, ladder: str, scope: int) -> Standing | None:
        """The player's rating and rank on one ladder, or None if they never played a ranked game on it."""
        lad = check_ladder(ladder)
        found = await standings(self._db.fetch, self._db.dialect, self._db.clock(),
                                "r.ladder = ? AND r.scope = ? AND r.user_id = ?", lad, scope, user_id)
        return found[0] if found else None

    async def skill(self, user_id: int, ladder: str, scope: int = GLOBAL_SCOPE) -> Skill | None:
        """The player's mu and sigma on one ladder now, the uncertainty of a long absence included (None before
        their first ranked game there)."""
        lad = check_ladder(ladder)
        rows = await self._db.fetch(
            "SELECT mu, sigma, last_played FROM ratings WHERE ladder = ? AND scope = ? AND user_id = ?",
            lad, scope, user_id,
        )
        return ratings.with_absence(Skill(rows[0][0], rows[0][1]), rows[0][2], self._db.clock()) if rows else None

    async def rating_history(
        self, user_id: int, ladder: str, scope: int = GLOBAL_SCOPE, limit: int = 200
    ) -> tuple[RatingPoint, ...]:
        """Displayed rating after each of the player's last `limit` ranked games, oldest first (the chart)."""
        lad = check_ladder(ladder)
        rows = await self._db.fetch(
            "SELECT game_id, played_at, rating_after FROM rating_history WHERE user_id = ? AND ladder = ? "
            "AND scope = ? ORDER BY played_at DESC, game_id DESC LIMIT ?",
            user_id, lad, scope, limit,
        )
        return tuple(RatingPoint(r[0], r[1], r[2]) for r in reversed(rows))


def _marks(values: Sequence[object]) -> str:
    return ", ".join("?" * len(values))


def count_delta(
    deltas: dict[CountKey, int], ladder: str, scope: int, games: int, conservative: float, last_played: float,
    delta: int,
) -> None:
    """Note that one rating enters (+1) or leaves (-1) the ladder counts (only listed ratings are counted)."""
    key = ratings.listing_key(games, conservative, last_played)
    if key is not None:
        full = (ladder, scope, *key)
        deltas[full] = deltas.get(full, 0) + delta


async def apply_count_deltas(tx: Transaction, deltas: dict[CountKey, int]) -> None:
    """Write the noted count changes in key order (so concurrent writers lock them in one order)."""
    changes = sorted((key, delta) for key, delta in deltas.items() if delta)
    await tx.executemany(
        "INSERT INTO ladder_counts (ladder, scope, day, bucket, players) VALUES (?, ?, ?, ?, ?) "
        "ON CONFLICT (ladder, scope, day, bucket) DO UPDATE SET players = ladder_counts.players + excluded.players",
        [(*key, delta) for key, delta in changes],
    )
    emptied: Iterable[CountKey] = [key for key, delta in changes if delta < 0]
    await tx.executemany(
        "DELETE FROM ladder_counts WHERE ladder = ? AND scope = ? AND day = ? AND bucket = ? AND players = 0",
        [tuple(key) for key in emptied],
    )
