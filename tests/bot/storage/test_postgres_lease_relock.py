"""PostgreSQL down and back while no game is written: the process holding a shard takes its lease back in
the background as soon as the server returns, so a second process started on that shard by mistake in the
meantime is refused (it must never find the shard free just because the holder had nothing to write).

The holder reaches the shared test server through a TCP proxy this test owns (the server itself is never
stopped); `stop()` is the server going down (every connection cut, new ones refused), `start()` its return.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from urllib.parse import urlsplit

import pytest

from bot.storage import ShardsTaken, open_storage
from bot.storage.postgres import leases
from bot.storage.postgres.database import PostgresDatabase
from bot.storage.shards import Shards
from tests.postgres import TcpProxy, fresh_schema, through

SHARD_0 = Shards(2, (0,))
WAIT_STEPS = 500  # of 20 ms: how long the lease may take to come back before the test gives up


async def until(condition_met: Callable[[], bool], what: str) -> None:
    for _ in range(WAIT_STEPS):
        if condition_met():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"{what} did not happen")


async def test_the_holder_takes_its_shard_back_without_a_write_when_postgres_returns(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Retry at a test's pace; the server stays down across several retries.
    monkeypatch.setattr(leases, "RELOCK_RETRY_FIRST_SECONDS", 0.02)
    monkeypatch.setattr(leases, "RELOCK_RETRY_MAX_SECONDS", 0.05)
    async with fresh_schema("leases") as url:
        parts = urlsplit(url)
        proxy = TcpProxy(parts.hostname or "127.0.0.1", parts.port or 5432)
        await proxy.start()
        holder = await open_storage(through(url, proxy))
        try:
            assert isinstance(holder.database, PostgresDatabase)
            await holder.claim_shards(SHARD_0)
            keeper = holder.database._keeper
            assert keeper is not None and keeper.held

            await proxy.stop()  # the server goes down: the lease connection, and its locks, are gone
            await until(lambda: not keeper.held, "the lost lease connection noticed")
            await asyncio.sleep(0.3)  # several background retries fail meanwhile
            assert not keeper.held
            await proxy.start()  # and comes back; nothing is written

            await until(lambda: keeper.held, "the background re-lock")
            mistaken = await open_storage(url)
            try:
                with pytest.raises(ShardsTaken, match="shard 0 of 2 is held by the live process"):
                    await mistaken.claim_shards(SHARD_0)
            finally:
                await mistaken.close()
            assert keeper.lost == set()
        finally:
            await holder.close()
            await proxy.close()
