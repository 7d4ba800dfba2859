"""The in-memory `Storage`: every promise of the real backends, in dicts, for tests (never the running bot).

It implements the whole `bot.storage.protocol.Storage` (game log, settings, ladders through
`bot.ratings`, profiles, forget-me, health), and the contract suite (tests/bot/storage) runs the same
tests against it as against SQLite and PostgreSQL. It survives a "restart" of the session manager when the
same object is handed to the new one; `fail_next` makes the next write raise a chosen error.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.storage.memory.tournaments import MemoryTournaments
from bot.storage.types import StoredCounts

if TYPE_CHECKING:
    from bot.storage.protocol import Storage

__all__ = ["MemoryStorage"]


class MemoryStorage(MemoryTournaments):
    """A `Storage` held in this process's memory."""

    @property
    def where(self) -> str:
        return "memory (nothing is written to disk)"

    async def close(self) -> None:
        """Nothing to release; the data stays, so the same object may be used again (a "restart")."""

    async def integrity_check(self) -> str:
        """"ok", or the games whose event log disagrees with their last event number."""
        broken = [
            game_id for game_id, game in sorted(self._games.items())
            if [e.seq for e in self._events[game_id]] != list(range(1, game.last_seq + 1))
            or game.snapshot_seq > game.last_seq
        ]
        if broken:
            return f"games whose event log disagrees with last_seq: {', '.join(map(str, broken))}"
        return "ok"

    async def schema_version(self) -> int:
        """0: memory has no schema to migrate."""
        return 0

    async def counts(self) -> StoredCounts:
        return StoredCounts(len(self._games), len(self._players))


if TYPE_CHECKING:
    _IMPLEMENTS: type[Storage] = MemoryStorage  # mypy checks that the fake keeps the whole protocol
