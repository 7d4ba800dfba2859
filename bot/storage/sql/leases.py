"""Shard leases: which bot process may write the games and tournaments of which servers (`bot.storage.shards`).

A process that claimed its shards has an owner token; from then on every write to a game or tournament checks,
in the write's own transaction, that the `shard_leases` row of its server's shard still names that token
(PostgreSQL reads it FOR SHARE, so a process taking the shard over waits for the writes in flight). A storage
that never claimed (copy-data, tools, tests) writes without the check. How a holder is known to be alive is
the backend's: SQLite locks a file beside the database, PostgreSQL holds an advisory lock per shard.
"""

from __future__ import annotations

import os
import secrets
import socket

from bot.storage.errors import ShardNotHeld, ShardsTaken
from bot.storage.shards import Shards, shard_of
from bot.storage.sql.port import Database, Transaction


def shard_condition(shards: Shards) -> str:
    """SQL that holds for a `games` or `tournaments` row of a server on `shards`, as `bot.storage.shards.shard_of`
    decides it (direct messages, without a server, on shard 0). Only integers of a checked `Shards` go into it."""
    ids = ", ".join(str(int(i)) for i in shards.ids)
    return f"((coalesce(guild_id, 0) >> 22) % {int(shards.count)}) IN ({ids})"


def new_owner() -> str:
    """A token naming this process for its leases: host and pid for people, a random part to be unique."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(6)}"


class Leases:
    """The shards this storage claimed, and the check each game and tournament write runs."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self.owner: str | None = None
        self.shards: Shards | None = None

    async def claim(self, shards: Shards) -> None:
        """Hold `shards` for this process; ShardsTaken when a live process holds one of them. A refused claim
        still sets the owner, so that a process that goes on by mistake writes nothing."""
        owner = new_owner()
        try:
            await self._db.claim_shards(shards, owner)
        except ShardsTaken:
            self.owner, self.shards = owner, shards
            raise
        self.owner, self.shards = owner, shards

    async def held(self) -> tuple[int, ...] | None:
        """The claimed shards whose lease still names this process (None: it never claimed): fewer than it
        claimed once another process took one over. For the bot's readiness (bot.ops.health)."""
        if self.owner is None or self.shards is None:
            return None
        rows = await self._db.fetch(
            "SELECT shard_id FROM shard_leases WHERE shard_count = ? AND owner = ? ORDER BY shard_id",
            self.shards.count, self.owner,
        )
        return tuple(int(row[0]) for row in rows)

    def condition(self, games: str) -> tuple[str, tuple[object, ...]]:
        """A condition (with its arguments) true when this process holds the shard of the game row `games`
        (an alias or table name); always true for a storage that never claimed."""
        if self.owner is None or self.shards is None:
            return "", ()
        count = self.shards.count
        condition = (
            f" AND EXISTS (SELECT 1 FROM shard_leases l WHERE l.shard_count = ? AND "
            f"l.shard_id = ((coalesce({games}.guild_id, 0) >> 22) % ?) AND l.owner = ?{self._db.dialect.lock_shared})"
        )
        return condition, (count, count, self.owner)

    async def check(self, tx: Transaction, guild_id: int | None) -> None:
        """ShardNotHeld unless this process holds the shard of `guild_id` (nothing to check if it never claimed)."""
        if self.owner is None or self.shards is None:
            return
        shard = shard_of(guild_id, self.shards.count)
        row = await tx.fetchrow(
            "SELECT owner FROM shard_leases WHERE shard_count = ? AND shard_id = ?" + self._db.dialect.lock_shared,
            self.shards.count,
            shard,
        )
        if row is None or row[0] != self.owner:
            held = "no process" if row is None else f"process {row[0]}"
            raise ShardNotHeld(
                f"server {guild_id} is on shard {shard} of {self.shards.count}, which {held} holds, not this one "
                f"({self.owner}); nothing was written"
            )


async def put_leases(tx: Transaction, shards: Shards, owner: str, now: float) -> None:
    """Name `owner` the holder of `shards` (the backend has made sure no live process holds them)."""
    await tx.executemany(
        "INSERT INTO shard_leases (shard_count, shard_id, owner, acquired_at) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (shard_count, shard_id) DO UPDATE SET owner = excluded.owner, "
        "acquired_at = excluded.acquired_at",
        [(shards.count, shard, owner, now) for shard in shards.ids],
    )
