"""Storage: one store per feature over one database, SQLite or PostgreSQL, chosen by DATABASE_URL's scheme.

    storage = await open_storage("sqlite:///data/puluc.db")   # or "postgresql://user:pw@host:5432/puluc"
    await storage.games.create_game(...); await storage.ladders.leaderboard("duel", 0)
    await storage.close()
"""

from __future__ import annotations

import time
from collections.abc import Callable

from bot.storage.changes import Change, ChangeFeed, OnChange, OnResync
from bot.storage.errors import (
    DuplicateEvent,
    EventGap,
    GameNotFound,
    GameStateError,
    HostLimitReached,
    InvalidSeat,
    PlayerInOpenGame,
    SchemaTooNew,
    SchemaTooOld,
    ShardNotHeld,
    ShardsTaken,
    StorageError,
    StorageUnavailable,
    UnknownEventKind,
    UnsupportedDatabaseUrl,
)
from bot.storage.shards import Shards
from bot.storage.sql import health
from bot.storage.sql.bulk import TableStore
from bot.storage.sql.calls import CallStore
from bot.storage.sql.games import GameStore
from bot.storage.sql.ladders import LadderStore
from bot.storage.sql.leases import Leases
from bot.storage.sql.players import PlayerStore
from bot.storage.sql.port import Database
from bot.storage.sql.seasons import SeasonStore
from bot.storage.sql.server_settings import ServerSettingsStore
from bot.storage.sql.tournaments import TournamentStore
from bot.storage.types import Inspection, StoredCounts
from bot.storage.urls import DEFAULT_DATABASE_URL, DatabaseUrl, PostgresUrl, SqliteUrl, parse_database_url

__all__ = [
    "DEFAULT_DATABASE_URL",
    "Change",
    "ChangeFeed",
    "DatabaseUrl",
    "DuplicateEvent",
    "EventGap",
    "GameNotFound",
    "GameStateError",
    "HostLimitReached",
    "Inspection",
    "InvalidSeat",
    "PlayerInOpenGame",
    "PostgresUrl",
    "SchemaTooNew",
    "SchemaTooOld",
    "ShardNotHeld",
    "Shards",
    "ShardsTaken",
    "SqliteUrl",
    "Storage",
    "StorageError",
    "StorageUnavailable",
    "UnknownEventKind",
    "UnsupportedDatabaseUrl",
    "inspect_storage",
    "open_storage",
    "parse_database_url",
]


class Storage:
    """Everything the bot stores: one store per feature, each method one transaction committed before it
    returns. Open one with `open_storage(url)`; close it once."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self._leases = Leases(database)
        self.games = GameStore(database, self._leases)
        self.ladders = LadderStore(database)
        self.players = PlayerStore(database)
        self.seasons = SeasonStore(database)
        self.tournaments = TournamentStore(database, self._leases)
        self.server_settings = ServerSettingsStore(database)
        self.tables = TableStore(database)
        self.calls = CallStore(database, self._leases)

    @property
    def where(self) -> str:
        """Which database this is, for people: an absolute file path, or host:port/database (never a password)."""
        return self.database.where

    async def close(self) -> None:
        await self.database.close()

    async def claim_shards(self, shards: Shards) -> None:
        """Make this process the one writer of the games and tournaments of servers on `shards` until `close`
        or the process's end: ShardsTaken when another live process holds one of them. From then on a write to
        a game or tournament of a server on another shard, or on one taken over, raises ShardNotHeld and writes
        nothing. A storage that never claimed writes any game."""
        await self._leases.claim(shards)

    async def shards_held(self) -> tuple[int, ...] | None:
        """The claimed shards this process still holds (None: it never claimed); see `claim_shards`."""
        return await self._leases.held()

    async def watch(self, on_change: OnChange, on_resync: OnResync) -> ChangeFeed | None:
        """Hear every other process's committed writes to games and tournaments (`bot.storage.changes`) until
        the feed closes; None on SQLite, where no other process writes. `on_resync` runs after the feed lost and
        regained its connection (what it missed is unknown)."""
        return await self.database.watch(on_change, on_resync)

    async def integrity_check(self) -> str:
        """"ok", or the problems the database found in itself."""
        return await health.integrity_check(self.database)

    async def schema_version(self) -> int:
        return await self.database.schema_version()

    async def counts(self) -> StoredCounts:
        """How many games and players the database holds (cheap enough for a start-up message)."""
        return await health.counts(self.database)


async def open_storage(
    url: str | DatabaseUrl, *, clock: Callable[[], float] = time.time, read_only: bool = False
) -> Storage:
    """Open (creating and migrating on first use) the database `url` names.

    Raises `UnsupportedDatabaseUrl` for a URL no backend takes, `SchemaTooNew` for a database written by a
    newer bot, `StorageUnavailable` when the database cannot be reached or created. `read_only` opens an
    existing database as it is, without migrating it (`SchemaTooOld` if it would need it), for reading only.
    """
    parsed = parse_database_url(url) if isinstance(url, str) else url
    if isinstance(parsed, SqliteUrl):
        from bot.storage.sqlite.database import open_database as open_sqlite

        return Storage(await open_sqlite(parsed.path, clock=clock, read_only=read_only))
    from bot.storage.postgres.database import open_database as open_postgres

    return Storage(await open_postgres(parsed, clock=clock, read_only=read_only))


async def inspect_storage(url: str | DatabaseUrl) -> Inspection:
    """What `puluc-bot --check` and start-up report of the database `url` names: whether it exists, what
    start-up would create or migrate, how many games and players it holds, whether it is intact. Writes nothing.

    Raises `UnsupportedDatabaseUrl` for a URL no backend takes, `SchemaTooNew` for a database written by a
    newer bot, `StorageUnavailable` when it can neither be read nor created (the message says why).
    """
    parsed = parse_database_url(url) if isinstance(url, str) else url
    if isinstance(parsed, SqliteUrl):
        from bot.storage.sqlite.inspect import inspect_file

        return await inspect_file(parsed.path)
    from bot.storage.postgres.inspect import inspect_database

    return await inspect_database(parsed)
