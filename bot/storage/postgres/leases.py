"""Shard leases on PostgreSQL: one connection per process holds a session-level advisory lock per shard.

The `shard_leases` rows say who holds a shard (every game write checks its row in its own transaction:
`bot.storage.sql.leases`); the advisory locks say whether that holder is alive. A process that dies, SIGKILL
included, loses its connection and with it its locks, so the next process to claim the shard sees it free and
takes the row over at once; a live holder's lock cannot be taken, so a second process started on the same
shard by mistake is refused with `ShardsTaken` and never writes. Claims queue on a transaction-level advisory
lock, so two processes claiming at once see each other. Every process of a deployment must run the same
SHARD_COUNT: a claim is refused while a live process holds a lease of another count.

When the lease connection is lost (PostgreSQL restarted, the network dropped it) its locks are gone: the
keeper reconnects and takes them again with the same owner token, at once and then in the background with a
growing pause until it has (so that the shards are not left free to a second process started by mistake while
no game is written). Until it has, game writes try it themselves (or fail as `StorageUnavailable`); a shard
another process took meanwhile stays lost, and the row check refuses every write to its games and tournaments
(`ShardNotHeld`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any

import asyncpg

from bot.storage.errors import ShardsTaken, StorageUnavailable
from bot.storage.shards import Shards

log = logging.getLogger(__name__)

# (key1, key2) of pg_advisory_lock: key1 names "Puluc shard leases" in this schema (so test schemas in one
# database do not meet), key2 the shard as count * 65536 + id (MAX_SHARD_COUNT keeps it in 32 bits).
_KEY1 = "hashtext('puluc-shards ' || current_schema())"
_CLAIMS_KEY2 = -1  # the transaction lock claims queue on
# Whether a lost lease connection is replaced as soon as the client notices (retried in the background until
# it is), rather than only at the next write. Tests switch it off to stage a takeover.
RELOCK_AT_ONCE = True
# The background retries while the server cannot be reached: the first pause, doubled each time up to the last.
RELOCK_RETRY_FIRST_SECONDS = 0.1
RELOCK_RETRY_MAX_SECONDS = 5.0
# After a lost connection, how often and how long to wait for the server to drop the old session's locks.
RELOCK_ATTEMPTS = 20
RELOCK_PAUSE_SECONDS = 0.05

Connect = Callable[[], Coroutine[Any, Any, asyncpg.Connection]]


class _StillOurs(Exception):
    """A shard's lock is held by the row's owner, which is us: by our lost session, not yet ended."""


def _key2(count: int, shard: int) -> int:
    return count * 65536 + shard


class LeaseKeeper:
    """The advisory locks of one process's shards, on a connection of their own, kept for the process's life."""

    def __init__(self, connect: Connect, owner: str, shards: Shards, clock: Callable[[], float]) -> None:
        self._connect = connect
        self.owner = owner
        self.shards = shards
        self._clock = clock
        self._conn: asyncpg.Connection | None = None
        self._lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        self.lost: set[int] = set()  # shards another process took over while our connection was gone

    @property
    def held(self) -> bool:
        return self._conn is not None and not self._conn.is_closed()

    async def claim(self) -> None:
        """Take every shard or none (ShardsTaken naming a live holder), and keep them from now on."""
        self._conn = await self._connected(first=True)

    async def ensure(self) -> None:
        """Make sure the locks are held, reconnecting after a lost connection (StorageUnavailable while the
        server cannot be reached)."""
        if self.held:
            return
        async with self._lock:
            for attempt in range(1, RELOCK_ATTEMPTS + 1):
                if self.held:
                    return
                try:
                    self._conn = await self._connected(first=False)
                except _StillOurs:
                    # The server has not ended our old session yet, so its locks still stand: wait for it.
                    if attempt == RELOCK_ATTEMPTS:
                        raise StorageUnavailable(
                            f"{self.shards}: the locks of the lost connection to PostgreSQL are not released yet",
                            reason="busy",
                        ) from None
                    await asyncio.sleep(RELOCK_PAUSE_SECONDS)
                    continue
                log.warning("the shard leases' connection to PostgreSQL was lost; reconnected (%s)", self.shards)

    async def close(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        conn, self._conn = self._conn, None
        if conn is not None and not conn.is_closed():
            await conn.close()  # the locks go with the session; the rows stay, naming a holder that is gone

    def _lost(self, conn: asyncpg.Connection) -> None:
        """The lease connection closed: take the locks back at once, even while no game is written, and keep
        trying in the background while the server cannot be reached (game writes try too meanwhile)."""
        if conn is not self._conn or not RELOCK_AT_ONCE or (self._task is not None and not self._task.done()):
            return
        self._task = asyncio.get_running_loop().create_task(self._relock(), name="puluc-shard-leases")

    async def _relock(self) -> None:
        pause = RELOCK_RETRY_FIRST_SECONDS
        failures = 0
        while not self.held:
            try:
                await self.ensure()
            except Exception as exc:  # noqa: BLE001 - server down (or our old session not ended): retry later
                failures += 1
                if failures == 1:
                    log.warning("the shard leases' connection to PostgreSQL is lost (%s); retrying in the background "
                                "until it is back", exc)
                await asyncio.sleep(pause)
                pause = min(pause * 2, RELOCK_RETRY_MAX_SECONDS)

    async def _connected(self, *, first: bool) -> asyncpg.Connection:
        conn = await self._connect()
        try:
            await self._take(conn, first=first)
        except BaseException:
            await conn.close()
            raise
        conn.add_termination_listener(self._lost)
        return conn

    async def _take(self, conn: asyncpg.Connection, *, first: bool) -> None:
        count = self.shards.count
        locked: list[int] = []
        async with conn.transaction():
            await conn.execute(f"SELECT pg_advisory_xact_lock({_KEY1}, $1)", _CLAIMS_KEY2)
            rows = await conn.fetch("SELECT shard_count, shard_id, owner FROM shard_leases ORDER BY 1, 2 FOR UPDATE")
            refusals: list[str] = []
            # Leases of another SHARD_COUNT: a live holder refuses the claim, a gone one is forgotten.
            for row in rows:
                other, shard, owner = row["shard_count"], row["shard_id"], row["owner"]
                if other == count or owner == self.owner:
                    continue
                if await self._try_lock(conn, other, shard):
                    await conn.execute(f"SELECT pg_advisory_unlock({_KEY1}, $1)", _key2(other, shard))
                    await conn.execute(
                        "DELETE FROM shard_leases WHERE shard_count = $1 AND shard_id = $2", other, shard
                    )
                else:
                    refusals.append(
                        f"the live process {owner} runs SHARD_COUNT={other} on this database, and every process "
                        f"of a deployment needs the same SHARD_COUNT (this one has {count})"
                    )
            holders = {r["shard_id"]: r["owner"] for r in rows if r["shard_count"] == count}
            for shard in self.shards.ids:
                holder = holders.get(shard)
                if not first and (shard in self.lost or (holder is not None and holder != self.owner)):
                    self.lost.add(shard)  # taken over while we were gone: its rows refuse our writes
                elif await self._try_lock(conn, count, shard):
                    locked.append(shard)
                elif first:
                    refusals.append(
                        f"shard {shard} of {count} is held by the live process {holder or '(claiming it now)'}"
                    )
                elif holder == self.owner:
                    raise _StillOurs  # our old session's lock, until the server notices that session is gone
                else:
                    self.lost.add(shard)
            if first and refusals:
                more = f" (and {len(refusals) - 1} more)" if len(refusals) > 1 else ""
                raise ShardsTaken(
                    f"{refusals[0]}{more}; two processes must never run the same shard: stop the other "
                    "process or give each its own SHARD_IDS"
                )
            now = self._clock()
            await conn.executemany(
                "INSERT INTO shard_leases (shard_count, shard_id, owner, acquired_at) VALUES ($1, $2, $3, $4) "
                "ON CONFLICT (shard_count, shard_id) DO UPDATE SET owner = excluded.owner, "
                "acquired_at = excluded.acquired_at",
                [(count, shard, self.owner, now) for shard in locked],
            )
        if self.lost:
            log.error(
                "%s: shard %s was taken over by another process while the connection to PostgreSQL was lost; this "
                "process writes none of its games any more", self.shards, ", ".join(map(str, sorted(self.lost)))
            )

    @staticmethod
    async def _try_lock(conn: asyncpg.Connection, count: int, shard: int) -> bool:
        return bool(await conn.fetchval(f"SELECT pg_try_advisory_lock({_KEY1}, $1)", _key2(count, shard)))
