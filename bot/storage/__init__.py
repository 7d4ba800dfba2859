"""Storage: one interface (`Storage`), two backends (SQLite, PostgreSQL), chosen by DATABASE_URL's scheme.

    storage = await open_storage("sqlite:///data/puluc.db")   # or "postgresql://user:pw@host:5432/puluc"
    ...
    await storage.close()

Import what you need from here or from `bot.storage.types` / `bot.storage.errors` / `bot.storage.protocol`;
never import a backend package (`bot.storage.sqlite`, `bot.storage.postgres`) from outside `bot/storage/`.
This package's import loads no database driver: a backend is imported only when `open_storage` opens it.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from bot.storage.errors import (
    DuplicateEvent,
    EventGap,
    GameNotFound,
    GameStateError,
    InvalidSeat,
    PlayerInOpenGame,
    SchemaTooNew,
    StorageError,
    StorageUnavailable,
    UnknownEventKind,
    UnsupportedDatabaseUrl,
)
from bot.storage.protocol import GameRepository, Storage
from bot.storage.urls import DEFAULT_DATABASE_URL, DatabaseUrl, PostgresUrl, SqliteUrl, parse_database_url

__all__ = [
    "DEFAULT_DATABASE_URL",
    "DatabaseUrl",
    "DuplicateEvent",
    "EventGap",
    "GameNotFound",
    "GameRepository",
    "GameStateError",
    "InvalidSeat",
    "PlayerInOpenGame",
    "PostgresUrl",
    "SchemaTooNew",
    "SqliteUrl",
    "Storage",
    "StorageError",
    "StorageUnavailable",
    "UnknownEventKind",
    "UnsupportedDatabaseUrl",
    "open_storage",
    "parse_database_url",
]


async def open_storage(url: str | DatabaseUrl, *, clock: Callable[[], float] = time.time) -> Storage:
    """Open (creating and migrating on first use) the database `url` names.

    Raises `UnsupportedDatabaseUrl` for a URL no backend takes, `SchemaTooNew` for a database written by a
    newer bot, `StorageUnavailable` when the database cannot be reached or created.
    """
    parsed = parse_database_url(url) if isinstance(url, str) else url
    if isinstance(parsed, SqliteUrl):
        from bot.storage.sqlite.store import open_store

        return await open_store(parsed.path, clock=clock)
    raise UnsupportedDatabaseUrl(
        f"DATABASE_URL names PostgreSQL ({parsed.where}), which this version cannot open yet; use sqlite:///"
    )
