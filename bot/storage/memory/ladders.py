"""The in-memory fake's ladders and players: ratings from `bot.ratings`, leaderboards by sorting,
profiles, histories, personal data and forget-me, with the same results as the SQL backends.

Where SQL counts players ahead through ladder_counts, this fake sorts the listed ratings; the contract suite
checks that both give the same ranks. Must never import a database driver.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from bot import ratings
from bot.ratings import PAGE_SIZE, PROVISIONAL_GAMES, SeatInfo, Skill, check_ladder
from bot.ratings.types import LADDERS, Ladder, Result
from bot.storage.errors import PlayerInOpenGame
from bot.storage.memory.games import OPEN_STATUSES, MemoryGames
from bot.storage.types import (
    FORGOTTEN_NAME,
    GLOBAL_SCOPE,
    BestWin,
    FinishReport,
    ForgetReport,
    Game,
    GameSummary,
    LeaderboardPage,
    PersonalData,
    Profile,
    RatingChange,
    RatingPoint,
    SeasonPlacement,
    Standing,
)


@dataclass(slots=True)
class StoredRating:
    skill: Skill
    games: int
    wins: int
    draws: int
    losses: int
    last_played: float


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    user_id: int
    ladder: Ladder
    scope: int
    game_id: int
    played_at: float
    result: Result
    rating_after: int
    opponent_rating: int


class MemoryLadders(MemoryGames):
    """Ratings, leaderboards, profiles and forget-me, on top of the game log."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        super().__init__(clock)
        self._ratings: dict[tuple[Ladder, int, int], StoredRating] = {}
        self._history: list[HistoryEntry] = []

    def _forget_in_tournaments(self, user_id: int) -> None:
        """Forget-me's part in tournaments: `bot.storage.memory.tournaments.MemoryTournaments` does it."""
        raise NotImplementedError

    def _forget_in_seasons(self, user_id: int) -> None:
        """Forget-me's part in archived seasons: `bot.storage.memory.seasons.MemorySeasons` does it."""
        raise NotImplementedError

    def _season_placements(self, user_id: int, guild_id: int | None) -> tuple[SeasonPlacement, ...]:
        """The profile's best season placements: `bot.storage.memory.seasons.MemorySeasons` finds them."""
        raise NotImplementedError

    # --- rating a finished game --------------------------------------------------------------------------

    def _rate_finished(self, game: Game, now: float) -> FinishReport:
        seats = [SeatInfo(s.seat, s.user_id, s.ai_level) for s in sorted(game.seats, key=lambda s: s.seat)]
        log = self._events[game.game_id]
        ladder = ratings.ladder_for(len(seats))
        reason = ratings.unranked_reason(
            ranked=game.ranked, cancelled=False, seats=seats, moves=sum(1 for e in log if e.kind == "move"),
            ai_took_over=any(e.kind == "ai_takeover" for e in log),
            same_lineup_games=self._same_lineup_games(seats, ladder, now),
        )
        for seat in seats:
            if seat.user_id is not None and seat.user_id in self._players:
                self._players[seat.user_id].last_active = now
        if reason is not None:
            return FinishReport(game.game_id, ladder, reason, ())
        changes: list[RatingChange] = []
        for scope in (GLOBAL_SCOPE,) if game.guild_id is None else (GLOBAL_SCOPE, game.guild_id):
            known = {
                s.user_id: (ratings.with_absence(found.skill, found.last_played, now), found.games)
                for s in seats
                if s.user_id is not None and (found := self._ratings.get((ladder, scope, s.user_id))) is not None
            }
            for r in ratings.rate_seats(seats, known, game.winner):
                old = self._ratings.get((ladder, scope, r.user_id), StoredRating(r.before, 0, 0, 0, 0, now))
                self._ratings[(ladder, scope, r.user_id)] = StoredRating(
                    r.after, r.games, old.wins + (r.result == "win"), old.draws + (r.result == "draw"),
                    old.losses + (r.result == "loss"), now,
                )
                self._history.append(
                    HistoryEntry(r.user_id, ladder, scope, game.game_id, now, r.result, r.after.display,
                                 r.opponent_rating)
                )
                changes.append(RatingChange(r.user_id, ladder, scope, r.result, r.before.display, r.after.display,
                                            ratings.is_provisional(r.games)))
        return FinishReport(game.game_id, ladder, None, tuple(changes))

    def _same_lineup_games(self, seats: list[SeatInfo], ladder: Ladder, now: float) -> int:
        """Ranked games in the last REPEAT_WINDOW between the same line-ups, either side."""
        wanted = ratings.lineup((s.seat, s.user_id) for s in seats)
        rated = {h.game_id for h in self._history
                 if h.ladder == ladder and h.scope == GLOBAL_SCOPE and h.played_at > now - ratings.REPEAT_WINDOW}
        return sum(1 for game_id in rated
                   if ratings.lineup((s.seat, s.user_id) for s in self._games[game_id].seats) == wanted)

    # --- ladders -----------------------------------------------------------------------------------------

    def _listed(self, ladder: Ladder, scope: int, now: float) -> list[int]:
        """User ids on a ladder's leaderboard, in leaderboard order (conservative DESC, user id)."""
        since = ratings.active_since(now)
        found = [
            (key[2], rating) for key, rating in self._ratings.items()
            if key[:2] == (ladder, scope) and rating.games >= PROVISIONAL_GAMES and rating.last_played >= since
        ]
        return [user for user, _ in sorted(found, key=lambda f: (-f[1].skill.conservative, f[0]))]

    def _standing(self, ladder: Ladder, scope: int, user_id: int, now: float, listed: list[int]) -> Standing | None:
        rating = self._ratings.get((ladder, scope, user_id))
        if rating is None:
            return None
        now_ = ratings.status(rating.skill, rating.games, rating.last_played, now)
        return Standing(
            ladder, scope, user_id, self._players[user_id].display_name, now_.skill.display, rating.games,
            rating.wins, rating.draws, rating.losses, now_.provisional, now_.active,
            listed.index(user_id) + 1 if not now_.provisional and now_.active else None,
        )

    async def leaderboard(
        self, ladder: str, scope: int, page: int = 0, *, caller_id: int | None = None
    ) -> LeaderboardPage:
        lad = check_ladder(ladder)
        if page < 0:
            raise ValueError(f"pages start at 0, not {page}")
        now = self._clock()
        listed = self._listed(lad, scope, now)
        on_page = listed[page * PAGE_SIZE:(page + 1) * PAGE_SIZE]
        entries = tuple(s for u in on_page if (s := self._standing(lad, scope, u, now, listed)) is not None)
        caller = None if caller_id is None else self._standing(lad, scope, caller_id, now, listed)
        return LeaderboardPage(lad, scope, page, entries, page > 0, len(listed) > (page + 1) * PAGE_SIZE, caller)

    async def standing(self, user_id: int, ladder: str, scope: int) -> Standing | None:
        lad = check_ladder(ladder)
        now = self._clock()
        return self._standing(lad, scope, user_id, now, self._listed(lad, scope, now))

    async def skill(self, user_id: int, ladder: str, scope: int = GLOBAL_SCOPE) -> Skill | None:
        found = self._ratings.get((check_ladder(ladder), scope, user_id))
        return None if found is None else ratings.with_absence(found.skill, found.last_played, self._clock())

    def _history_of(self, user_id: int, scope: int) -> list[HistoryEntry]:
        """The player's rating history on one scope, newest first."""
        mine = [h for h in self._history if h.user_id == user_id and h.scope == scope]
        return sorted(mine, key=lambda h: (h.played_at, h.game_id), reverse=True)

    async def rating_history(
        self, user_id: int, ladder: str, scope: int = GLOBAL_SCOPE, limit: int = 200
    ) -> tuple[RatingPoint, ...]:
        lad = check_ladder(ladder)
        newest = [h for h in self._history_of(user_id, scope) if h.ladder == lad][:limit]
        return tuple(RatingPoint(h.game_id, h.played_at, h.rating_after) for h in reversed(newest))

    # --- players -----------------------------------------------------------------------------------------

    def _seats_of(self, user_id: int, *statuses: str) -> list[tuple[Game, str]]:
        """(game, seat) for every seat the user holds in games of these statuses, by game id."""
        return [
            (game, seat.seat)
            for game in sorted(self._games.values(), key=lambda g: g.game_id)
            if game.status in statuses
            for seat in game.seats
            if seat.user_id == user_id
        ]

    async def profile(self, user_id: int, guild_id: int | None = None) -> Profile | None:
        player = self._players.get(user_id)
        if player is None:
            return None
        now = self._clock()
        scopes = (GLOBAL_SCOPE,) if guild_id is None else (guild_id, GLOBAL_SCOPE)
        standings = tuple(
            s for scope in scopes for ladder in LADDERS
            if (s := self._standing(ladder, scope, user_id, now, self._listed(ladder, scope, now))) is not None
        )
        finished = self._seats_of(user_id, "finished")
        kills = sum(game.seat(seat).kills or 0 for game, seat in finished)
        by_variant: dict[str, tuple[int, int]] = {}
        for game, _ in finished:
            count, newest = by_variant.get(game.variant, (0, 0))
            by_variant[game.variant] = (count + 1, max(newest, game.game_id))
        favourite = max(by_variant, key=lambda v: by_variant[v]) if by_variant else None
        history = self._history_of(user_id, GLOBAL_SCOPE)
        best: dict[str, BestWin] = {}
        for ladder in LADDERS:
            wins = [h for h in history if h.ladder == ladder and h.result == "win"]
            if wins:
                top = min(wins, key=lambda h: (-h.opponent_rating, h.played_at))
                best[ladder] = BestWin(top.game_id, top.opponent_rating, top.played_at)
        return Profile(user_id, player.display_name, standings, len(finished), kills, best,
                       ratings.current_streak([h.result for h in history]), favourite,
                       self._season_placements(user_id, guild_id))

    async def game_history(
        self, user_id: int, limit: int = 10, *, before_game_id: int | None = None
    ) -> tuple[GameSummary, ...]:
        mine = [
            (game, seat) for game, seat in reversed(self._seats_of(user_id, "finished", "cancelled"))
            if before_game_id is None or game.game_id < before_game_id
        ][:limit]
        summaries = []
        for game, seat in mine:
            team = seat[0]
            others = sorted((s for s in game.seats if s.seat != seat), key=lambda s: s.seat)
            summaries.append(GameSummary(
                game.game_id, game.variant, game.guild_id, game.ranked, game.status, seat,
                tuple(s.display_name for s in others if s.team == team),
                tuple(s.display_name for s in others if s.team != team),
                None if game.status == "cancelled" else ratings.result_for(team, game.winner),
                game.end_reason, game.finished_at,
            ))
        return tuple(summaries)

    async def personal_data(self, user_id: int) -> PersonalData:
        player = self._players.get(user_id)
        return PersonalData(
            user_id,
            None if player is None else player.display_name,
            None if player is None else player.last_active,
            sum(1 for g in self._games.values() for s in g.seats if s.user_id == user_id),
            sum(1 for g in self._games.values() if g.host_id == user_id),
            sum(1 for key in self._ratings if key[2] == user_id),
            sum(1 for h in self._history if h.user_id == user_id),
        )

    async def forget_me(self, user_id: int) -> ForgetReport:
        self._maybe_fail()
        open_seats = self._seats_of(user_id, *OPEN_STATUSES)
        if open_seats:
            ids = ", ".join(str(game.game_id) for game, _ in open_seats)
            raise PlayerInOpenGame(f"finish, resign or leave your open games first (game {ids})")
        self._forget_in_tournaments(user_id)
        self._forget_in_seasons(user_id)
        seats = hosted = 0
        for game in list(self._games.values()):
            mine = sum(1 for s in game.seats if s.user_id == user_id)
            anonymised = tuple(
                replace(s, user_id=None, display_name=FORGOTTEN_NAME) if s.user_id == user_id else s
                for s in game.seats
            )
            host = None if game.host_id == user_id else game.host_id
            if mine or host != game.host_id:
                self._games[game.game_id] = replace(game, seats=anonymised, host_id=host)
            seats += mine
            hosted += host != game.host_id
        rated = [key for key in self._ratings if key[2] == user_id]
        for key in rated:
            del self._ratings[key]
        history = len(self._history)
        self._history = [h for h in self._history if h.user_id != user_id]
        player = self._players.pop(user_id, None) is not None
        return ForgetReport(seats, hosted, len(rated), history - len(self._history), player)
