"""The databases the contract suite runs on: one `Backend` per backend, and more handles on the same database.

For SQLite and PostgreSQL each handle has its own connections, as a second bot process would; the in-memory
fake has one object. `raw`/`fetch` reach behind the protocol for tests that must break or inspect the tables.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.storage import open_storage
from bot.storage.memory import MemoryStorage
from bot.storage.postgres import schema as postgres_schema
from bot.storage.protocol import Storage
from bot.storage.sql.store import SqlStore
from bot.storage.sqlite import schema as sqlite_schema
from tests.helpers import FakeClock
from tests.postgres import fresh_schema

BACKENDS = ("memory", "sqlite", "postgres")
DURABLE = ("sqlite", "postgres")  # backends that keep data across processes and crashes


class Backend:
    """One database of one backend, and more handles on it."""

    def __init__(self, name: str, url: str | None, clock: FakeClock) -> None:
        self.name = name
        self.url = url  # DATABASE_URL; None for memory
        self.clock = clock
        self._memory = MemoryStorage(clock) if name == "memory" else None
        self._opened: list[SqlStore] = []

    async def open(self) -> Storage:
        """A handle on this database: memory's one object, or a new store with its own connections."""
        if self._memory is not None:
            return self._memory
        assert self.url is not None
        store = await open_storage(self.url, clock=self.clock)
        self._opened.append(store)
        return store

    async def open_sql(self) -> SqlStore:
        """A new store on this database (skips the test for memory, which has no SQL)."""
        if self.url is None:
            pytest.skip("the in-memory fake has no tables")
        store = await self.open()
        assert isinstance(store, SqlStore)
        return store

    @property
    def path(self) -> Path:
        """The SQLite file."""
        assert self.url is not None and self.name == "sqlite"
        return Path(self.url.removeprefix("sqlite:///"))

    async def raw(self, sql: str) -> None:
        """Run one statement straight through the driver (to break the database on purpose)."""
        await self.fetch(sql)

    async def fetch(self, sql: str) -> list[tuple[Any, ...]]:
        """Rows of one statement run straight through the driver (to look behind the protocol)."""
        if self.url is None:
            pytest.skip("the in-memory fake has no SQL")
        if self.name == "sqlite":
            conn = sqlite3.connect(self.path, isolation_level=None)
            try:
                return [tuple(r) for r in conn.execute(sql).fetchall()]
            finally:
                conn.close()
        pg = await asyncpg.connect(self.url)
        try:
            return [tuple(r) for r in await pg.fetch(sql)]
        finally:
            await pg.close()

    @property
    def latest_version(self) -> int:
        return sqlite_schema.LATEST_VERSION if self.name == "sqlite" else postgres_schema.LATEST_VERSION

    async def create_at_version(self, version: int) -> None:
        """Create this database with the migrations up to `version` only (as an older bot left it)."""
        if self.name == "sqlite":
            conn = sqlite3.connect(self.path, isolation_level=None)
            try:
                sqlite_schema.migrate_sync(conn, target=version)
            finally:
                conn.close()
            return
        assert self.url is not None
        pg = await asyncpg.connect(self.url)
        try:
            await postgres_schema.migrate(pg, target=version)
        finally:
            await pg.close()

    async def close_all(self) -> None:
        for store in self._opened:
            await store.close()
        self._opened.clear()


@asynccontextmanager
async def backend_for(name: str, tmp_path: Path, clock: FakeClock) -> AsyncIterator[Backend]:
    if name == "postgres":
        async with fresh_schema() as url:
            found = Backend(name, url, clock)
            try:
                yield found
            finally:
                await found.close_all()
        return
    found = Backend(name, f"sqlite:///{tmp_path / 'contract.db'}" if name == "sqlite" else None, clock)
    try:
        yield found
    finally:
        await found.close_all()


