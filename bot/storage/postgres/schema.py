"""The PostgreSQL schema: the scripts in `migrations/`, applied in order and recorded in `schema_migrations`.

Each runs in one transaction together with its row (PostgreSQL's DDL is transactional). Processes starting at
once queue on an advisory lock (per schema) and only the first migrates. The tables are SQLite's
(`bot.storage.sql.tables`): times as double precision, JSON as jsonb, byte-wise codes in the "C" collation.
"""

from __future__ import annotations

import asyncpg

from bot.storage.sql import migrations

MIGRATIONS = migrations.load("bot.storage.postgres")
LATEST_VERSION = len(MIGRATIONS)

# pg_advisory_lock(key1, key2): key1 says "Puluc schema migration", key2 is the schema's name hashed, so
# two bots in two schemas of one database do not wait for each other.
_LOCK = "SELECT pg_advisory_lock(1349872757, hashtext(current_schema()))"
_UNLOCK = "SELECT pg_advisory_unlock(1349872757, hashtext(current_schema()))"
_RECORD = """
    CREATE TABLE IF NOT EXISTS schema_migrations (
        version     integer PRIMARY KEY,
        applied_at  timestamptz NOT NULL DEFAULT now()
    )
"""


async def current_version(conn: asyncpg.Connection) -> int:
    """The recorded schema version (0 for an empty database)."""
    exists = await conn.fetchval("SELECT to_regclass('schema_migrations') IS NOT NULL")
    if not exists:
        return 0
    return int(await conn.fetchval("SELECT coalesce(max(version), 0) FROM schema_migrations"))


async def migrate(conn: asyncpg.Connection, target: int = LATEST_VERSION) -> int:
    """Apply the missing migrations up to `target` under the migration lock; return the version reached."""
    await conn.execute(_LOCK)
    try:
        await conn.execute(_RECORD)
        version = await current_version(conn)
        migrations.check_version(version, LATEST_VERSION)
        while version < target:
            async with conn.transaction():
                await conn.execute(MIGRATIONS[version])  # no arguments: the whole script in one round trip
                await conn.execute("INSERT INTO schema_migrations (version) VALUES ($1)", version + 1)
            version += 1
        return version
    finally:
        await conn.execute(_UNLOCK)
