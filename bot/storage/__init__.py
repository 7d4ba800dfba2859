"""Storage: one interface (`Storage`), two backends (SQLite, PostgreSQL), chosen by DATABASE_URL's scheme.

    storage = await open_storage("sqlite:///data/puluc.db")   # or "postgresql://user:pw@host:5432/puluc"
    ...
    await storage.close()

Import what you need from here or from `bot.storage.types` / `bot.storage.errors` / `bot.storage.protocol`;
never import a backend package (`bot.storage.sqlite`, `bot.storage.postgres`) from outside `bot/storage/`.
This package's import loads no database driver (nor openskill): a backend is imported only when `open_storage`
opens it. `open_storage` returns the backend's store, a `Storage` that also streams and bulk-loads whole
tables (`bot.storage.sql.store.SqlStore`, for copy-data and benchmarks).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

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
from bot.storage.inspection import Inspection, inspect_storage
from bot.storage.protocol import GameRepository, Storage
from bot.storage.shards import Shards
from bot.storage.urls import DEFAULT_DATABASE_URL, DatabaseUrl, PostgresUrl, SqliteUrl, parse_database_url

if TYPE_CHECKING:
    from bot.storage.sql.store import SqlStore

__all__ = [
    "DEFAULT_DATABASE_URL",
    "DatabaseUrl",
    "DuplicateEvent",
    "EventGap",
    "GameNotFound",
    "GameRepository",
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


async def open_storage(
    url: str | DatabaseUrl, *, clock: Callable[[], float] = time.time, read_only: bool = False
) -> SqlStore:
    """Open (creating and migrating on first use) the database `url` names.

    Raises `UnsupportedDatabaseUrl` for a URL no backend takes, `SchemaTooNew` for a database written by a
    newer bot, `StorageUnavailable` when the database cannot be reached or created. `read_only` opens an
    existing database as it is, without migrating it (`SchemaTooOld` if it would need it), for reading only.
    """
    parsed = parse_database_url(url) if isinstance(url, str) else url
    if isinstance(parsed, SqliteUrl):
        from bot.storage.sqlite.store import open_store as open_sqlite

        return await open_sqlite(parsed.path, clock=clock, read_only=read_only)
    from bot.storage.postgres.store import open_store as open_postgres

    return await open_postgres(parsed, clock=clock, read_only=read_only)
