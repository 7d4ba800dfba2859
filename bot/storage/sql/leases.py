"""Shard leases in SQL: which bot process may write the games of which servers (`bot.storage.shards`).

A process that claimed its shards (`claim_shards`) has an owner token; from then on every write to a game
checks, in the write's own transaction, that the `shard_leases` row of the game's shard still names that
token (PostgreSQL reads it FOR SHARE, so a process taking the shard over waits for the writes in flight, and
no write after the takeover passes). A store that never claimed (copy-data, tools, tests of one store) writes
without the check. How a backend decides that a lease's holder is alive is its own: SQLite holds a lock on a
file beside the database, PostgreSQL an advisory lock per shard on a connection of its own. The rows are
written by `_put_leases`, inside the backend's claim. Must never import a database driver, discord or puluc.
"""

from __future__ import annotations

import os
import secrets
import socket

from bot.storage.errors import ShardNotHeld
from bot.storage.shards import Shards, shard_of
from bot.storage.sql.port import Transaction
from bot.storage.sql.settings import SettingsQueries


def new_owner() -> str:
    """A token naming this process for its leases: host and pid for people, a random part to be unique."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(6)}"


class LeaseQueries(SettingsQueries):
    """The lease check every game write runs; `_owner` and `_shards` are set by the backend's claim."""

    _owner: str | None = None
    _shards: Shards | None = None

    @property
    def claimed(self) -> Shards | None:
        """The shards this store claimed, if it did."""
        return self._shards

    def _lease_condition(self, games: str) -> tuple[str, tuple[object, ...]]:
        """A condition (with its arguments) true when this process holds the shard of the game row `games`
        (an alias or table name); always true for a store that never claimed."""
        if self._owner is None or self._shards is None:
            return "", ()
        count = self._shards.count
        return (
            f" AND EXISTS (SELECT 1 FROM shard_leases l WHERE l.shard_count = ? AND "
            f"l.shard_id = ((coalesce({games}.guild_id, 0) >> 22) % ?) AND l.owner = ?{self._dialect.lock_shared})",
            (count, count, self._owner),
        )

    async def _check_lease(self, tx: Transaction, guild_id: int | None) -> None:
        """ShardNotHeld unless this process holds the shard of `guild_id` (nothing to check if it never claimed)."""
        if self._owner is None or self._shards is None:
            return
        shard = shard_of(guild_id, self._shards.count)
        row = await tx.fetchrow(
            "SELECT owner FROM shard_leases WHERE shard_count = ? AND shard_id = ?" + self._dialect.lock_shared,
            self._shards.count,
            shard,
        )
        if row is None or row[0] != self._owner:
            held = "no process" if row is None else f"process {row[0]}"
            raise ShardNotHeld(
                f"server {guild_id} is on shard {shard} of {self._shards.count}, which {held} holds, not this one "
                f"({self._owner}); nothing was written"
            )

    async def _put_leases(self, tx: Transaction, shards: Shards, owner: str) -> None:
        """Name `owner` the holder of `shards` (the backend has made sure no live process holds them)."""
        now = self._clock()
        await tx.executemany(
            "INSERT INTO shard_leases (shard_count, shard_id, owner, acquired_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (shard_count, shard_id) DO UPDATE SET owner = excluded.owner, "
            "acquired_at = excluded.acquired_at",
            [(shards.count, shard, owner, now) for shard in shards.ids],
        )
