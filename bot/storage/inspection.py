"""Looking at a database without changing it: what `puluc-bot --check` and start-up report.

`inspect_storage(url)` says whether the database exists, what start-up would create or migrate, how many
games and players it holds, and whether it is intact, and writes nothing: no folder, no file, no
migration, no journal left behind. `open_storage` is what creates and migrates. This module must never
import a database driver; each backend inspects in its own package.
"""

from __future__ import annotations

from bot.storage.types import Inspection
from bot.storage.urls import DatabaseUrl, SqliteUrl, parse_database_url

__all__ = ["Inspection", "inspect_storage"]


async def inspect_storage(url: str | DatabaseUrl) -> Inspection:
    """Inspect the database `url` names, changing nothing.

    Raises `UnsupportedDatabaseUrl` for a URL no backend takes, `SchemaTooNew` for a database written by a
    newer bot, `StorageUnavailable` when it can neither be read nor created (the message says why).
    """
    parsed = parse_database_url(url) if isinstance(url, str) else url
    if isinstance(parsed, SqliteUrl):
        from bot.storage.sqlite.inspect import inspect_file

        return await inspect_file(parsed.path)
    from bot.storage.postgres.inspect import inspect_database

    return await inspect_database(parsed)
