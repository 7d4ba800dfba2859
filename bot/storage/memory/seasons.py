"""The in-memory fake's seasons: closing a server's season (archive its leaderboards, reset its ratings),
archived leaderboards and a player's best placements, with the same promises as the SQL backends.

A layer of `bot.storage.memory.MemoryStorage`; the contract suite holds it to the same tests as SQLite and
PostgreSQL. It must never be used by the running bot.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace

from bot.ratings import PAGE_SIZE, check_ladder
from bot.ratings.seasons import Season, SeasonEntry, SeasonPage
from bot.ratings.types import LADDERS, Ladder
from bot.storage.errors import SeasonNotFound
from bot.storage.memory.ladders import MemoryLadders
from bot.storage.types import FORGOTTEN_NAME, GLOBAL_SCOPE, SeasonPlacement

BEST_PLACEMENTS = 3


class MemorySeasons(MemoryLadders):
    """Closed seasons and their final leaderboards in dicts, on top of the ladders."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        super().__init__(clock)
        self._seasons: dict[int, list[Season]] = {}
        self._archive: dict[tuple[int, int, Ladder], list[SeasonEntry]] = {}

    async def current_season(self, guild_id: int) -> int:
        return len(self._seasons.get(guild_id, ())) + 1

    async def seasons(self, guild_id: int) -> tuple[Season, ...]:
        return tuple(self._seasons.get(guild_id, ()))

    async def start_season(self, guild_id: int) -> Season:
        if guild_id == GLOBAL_SCOPE:
            raise ValueError("the all-servers ladders have no seasons")
        self._maybe_fail()
        now = self._clock()
        closed_ones = self._seasons.setdefault(guild_id, [])
        closed = Season(guild_id, len(closed_ones) + 1, closed_ones[-1].ended_at if closed_ones else None, now)
        closed_ones.append(closed)
        for ladder in LADDERS:
            entries = []
            for rank, user in enumerate(self._listed(ladder, guild_id, now), start=1):
                rating = self._ratings[(ladder, guild_id, user)]
                entries.append(SeasonEntry(rank, user, self._players[user].display_name, rating.skill.display,
                                           rating.games, rating.wins, rating.draws, rating.losses))
            self._archive[(guild_id, closed.number, ladder)] = entries
        for key in [key for key in self._ratings if key[1] == guild_id]:
            del self._ratings[key]
        self._history = [h for h in self._history if h.scope != guild_id]
        return closed

    async def season_leaderboard(
        self, guild_id: int, season: int, ladder: str, page: int = 0, *, caller_id: int | None = None
    ) -> SeasonPage:
        lad = check_ladder(ladder)
        if page < 0:
            raise ValueError(f"pages start at 0, not {page}")
        found = next((s for s in self._seasons.get(guild_id, ()) if s.number == season), None)
        if found is None:
            raise SeasonNotFound(f"server {guild_id} has no closed season {season}")
        entries = self._archive[(guild_id, season, lad)]
        shown = tuple(entries[page * PAGE_SIZE:(page + 1) * PAGE_SIZE])
        caller = next((e for e in entries if caller_id is not None and e.user_id == caller_id), None)
        return SeasonPage(found, lad, page, shown, page > 0, len(entries) > (page + 1) * PAGE_SIZE, caller)

    def _season_placements(self, user_id: int, guild_id: int | None) -> tuple[SeasonPlacement, ...]:
        found = [
            SeasonPlacement(guild, season, ladder, entry.rank, len(entries))
            for (guild, season, ladder), entries in self._archive.items()
            if guild_id is None or guild == guild_id
            for entry in entries if entry.user_id == user_id
        ]
        found.sort(key=lambda p: (p.rank, -p.season, p.guild_id, p.ladder))
        return tuple(found[:BEST_PLACEMENTS])

    def _forget_in_seasons(self, user_id: int) -> None:
        for key, entries in self._archive.items():
            self._archive[key] = [replace(e, user_id=None, display_name=FORGOTTEN_NAME) if e.user_id == user_id
                                  else e for e in entries]
