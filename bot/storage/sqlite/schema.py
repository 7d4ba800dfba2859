"""The SQLite schema: the scripts in `migrations/`, applied in order and recorded in `PRAGMA user_version`.

Each migration runs in one transaction together with its `user_version` bump, so a crash leaves the file at
the old version or the new one. Timestamps are Unix seconds (REAL, UTC); snowflakes fit SQLite's INTEGER.
"""

from __future__ import annotations

import sqlite3

from bot.storage.sql import migrations

MIGRATIONS = migrations.load("bot.storage.sqlite")
LATEST_VERSION = len(MIGRATIONS)


def migrate_sync(conn: sqlite3.Connection, target: int = LATEST_VERSION) -> int:
    """Apply the missing migrations up to `target` on a plain sqlite3 connection; return the new version.

    The connection must be in autocommit mode (isolation_level=None) so the transactions here are ours.
    """
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    migrations.check_version(version, LATEST_VERSION)
    while version < target:
        # One script, its own transaction: executescript runs every statement of it in order. PRAGMA takes
        # no bound parameters; the version is our own integer, formatted with :d.
        try:
            conn.executescript(
                f"BEGIN IMMEDIATE;\n{MIGRATIONS[version]}\nPRAGMA user_version = {version + 1:d};\nCOMMIT;"
            )
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        version += 1
    return version
