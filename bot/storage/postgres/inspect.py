"""Inspecting a PostgreSQL database without changing it (`bot.storage.inspect_storage`).

`--check` connects, reads the recorded schema version, counts games and players and checks integrity. When
the database needs migrating, the migrations are run inside a transaction that is rolled back: that proves
they apply (the user may create tables; PostgreSQL 15 no longer lets every user create in schema `public`)
while leaving the database exactly as it was.
"""

from __future__ import annotations

import asyncpg

from bot.storage.postgres import schema
from bot.storage.postgres.database import CONNECT_TIMEOUT_S, open_database
from bot.storage.postgres.errors import DRIVER_ERRORS, translate
from bot.storage.sql import health, migrations
from bot.storage.types import Inspection
from bot.storage.urls import PostgresUrl


async def inspect_database(url: PostgresUrl) -> Inspection:
    """What the database `url` names holds and whether start-up can migrate it; writes nothing.

    `StorageUnavailable` when the server cannot be reached, refuses the login or the migrations cannot
    apply (the message says why); `SchemaTooNew` when a newer bot migrated it.
    """
    try:
        conn = await asyncpg.connect(
            url.dsn, timeout=CONNECT_TIMEOUT_S, server_settings={"application_name": "puluc-bot --check"}
        )
    except DRIVER_ERRORS as exc:
        raise translate(exc) from exc
    try:
        version = await schema.current_version(conn)
        migrations.check_version(version, schema.LATEST_VERSION)
        if version < schema.LATEST_VERSION:
            await _try_migrations(conn)
        games = players = 0
        if version > 0:
            row = await conn.fetchrow("SELECT (SELECT count(*) FROM games), (SELECT count(*) FROM players)")
            assert row is not None  # a SELECT without FROM returns one row
            games, players = int(row[0]), int(row[1])
    except DRIVER_ERRORS as exc:
        raise translate(exc) from exc
    finally:
        await conn.close()
    integrity = "ok"
    if version == schema.LATEST_VERSION:
        db = await open_database(url, read_only=True, pool_size=1)
        try:
            integrity = await health.integrity_check(db)
        finally:
            await db.close()
    return Inspection(url.where, True, (), version, schema.LATEST_VERSION, games, players, integrity)


async def _try_migrations(conn: asyncpg.Connection) -> None:
    """Run the missing migrations and roll them back: PostgreSQL's DDL is transactional."""
    trial = conn.transaction()
    await trial.start()
    try:
        await schema.migrate(conn)
    finally:
        await trial.rollback()
