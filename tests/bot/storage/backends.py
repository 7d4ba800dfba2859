"""The databases the contract suite runs on: one `Backend` per backend, and more handles on the same database.

Each handle has its own connections, as a second bot process would. `raw`/`fetch` reach behind the stores for
tests that must break or inspect the tables.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import asyncpg

from bot.storage import Storage, open_storage
from bot.storage.postgres import schema as postgres_schema
from bot.storage.sqlite import schema as sqlite_schema
from tests.helpers import FakeClock
from tests.postgres import fresh_schema

BACKENDS = ("sqlite", "postgres")


class Backend:
    """One database of one backend, and more handles on it."""

    def __init__(self, name: str, url: str, clock: FakeClock) -> None:
        self.name = name
        self.url = url  # DATABASE_URL
        self.clock = clock
        self._opened: list[Storage] = []

    async def open(self) -> Storage:
        """A new handle on this database, with its own connections."""
        storage = await open_storage(self.url, clock=self.clock)
        self._opened.append(storage)
        return storage

    @property
    def path(self) -> Path:
        """The SQLite file."""
        assert self.name == "sqlite"
        return Path(self.url.removeprefix("sqlite:///"))

    async def raw(self, sql: str) -> None:
        """Run one statement straight through the driver (to break the database on purpose)."""
        await self.fetch(sql)

    async def fetch(self, sql: str) -> list[tuple[Any, ...]]:
        """Rows of one statement run straight through the driver (to look behind the stores)."""
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
        pg = await asyncpg.connect(self.url)
        try:
            await postgres_schema.migrate(pg, target=version)
        finally:
            await pg.close()

    async def close_all(self) -> None:
        for storage in self._opened:
            await storage.close()
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
    found = Backend(name, f"sqlite:///{tmp_path / 'contract.db'}", clock)
    try:
        yield found
    finally:
        await found.close_all()


