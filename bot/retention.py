"""Retention of finished games (FINISHED_GAME_RETENTION_DAYS): once at start-up and then once a day, the moves
(event logs) of games that finished or were cancelled longer ago than the setting are pruned. Results, seats,
ratings and history lines stay; a replay of a pruned game is refused with a sentence saying why. With 0 (the
default) nothing is ever pruned and no task runs. A process prunes only the games of its own shards.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Protocol

from bot.storage.errors import StorageUnavailable
from bot.storage.shards import Shards

log = logging.getLogger(__name__)

DAY = 86_400.0


class PrunableGames(Protocol):
    """What retention needs of the game store (`bot.storage.sql.games.GameStore`)."""

    async def prune_finished(self, older_than: float, shards: Shards | None = None) -> int: ...


class Retention:
    """Prunes old finished games' moves every `every` seconds, starting at once (when `days` is above 0)."""

    def __init__(self, games: PrunableGames, days: int, *, shards: Shards | None, every: float = DAY) -> None:
        if days < 0:
            raise ValueError(f"retention is 0 (keep) or a number of days, not {days}")
        self._games = games
        self.days = days
        self._shards = shards
        self._every = every
        self._task: asyncio.Task[None] | None = None

    async def prune_once(self) -> int:
        """Prune now; how many games lost their moves (0 when the setting keeps everything)."""
        if not self.days:
            return 0
        pruned = await self._games.prune_finished(self.days * DAY, self._shards)
        if pruned:
            log.info("retention: pruned the moves of %d games finished more than %d days ago", pruned, self.days)
        return pruned

    def start(self) -> None:
        if self.days and self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="retention")

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self) -> None:
        while True:
            try:
                await self.prune_once()
            except StorageUnavailable as exc:
                log.warning("retention: the database is unavailable (%s); trying again in a day", exc)
            await asyncio.sleep(self._every)
