"""Inspecting a SQLite database file without changing it (`bot.storage.inspect_storage`).

Nothing here creates a folder or a file, migrates, or leaves a journal behind: a missing file is reported
with what start-up would create, and an existing one is read through a read-only connection.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from pathlib import Path

from bot.storage.errors import StorageUnavailable
from bot.storage.sql import migrations
from bot.storage.sqlite.schema import LATEST_VERSION
from bot.storage.types import Inspection


async def inspect_file(path: Path) -> Inspection:
    """What the database file at `path` holds, or what start-up would create there; writes nothing.

    `StorageUnavailable` when the file cannot be read or could not be created; `SchemaTooNew` when a newer
    bot wrote it.
    """
    return await asyncio.to_thread(_inspect, path)


def _inspect(path: Path) -> Inspection:
    path = Path(os.path.abspath(path.expanduser()))
    where = str(path)
    if not path.exists():
        return Inspection(where, False, _would_create(path), 0, LATEST_VERSION, 0, 0, "ok")
    if not path.is_file():
        raise StorageUnavailable(f"{where} is a folder, not a database file", reason="io")
    if not os.access(path, os.R_OK | os.W_OK):
        raise StorageUnavailable(f"{where} is not readable and writable by this user", reason="read_only")
    try:
        conn = _connect_read_only(path)
        try:
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            migrations.check_version(version, LATEST_VERSION)
            tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            games = _rows(conn, "games") if "games" in tables else 0
            players = _rows(conn, "players") if "players" in tables else 0
            problems = [str(row[0]) for row in conn.execute("PRAGMA integrity_check") if row[0] != "ok"]
            broken = conn.execute("PRAGMA foreign_key_check")
            problems += [f"foreign key broken in {row[0]} row {row[1]}" for row in broken]
        finally:
            conn.close()
    except sqlite3.Error as exc:
        raise StorageUnavailable(f"{where} cannot be read as a SQLite database ({exc})", reason="io") from exc
    return Inspection(where, True, (), version, LATEST_VERSION, games, players, "; ".join(problems) or "ok")


def _would_create(path: Path) -> tuple[str, ...]:
    """The folders and the file start-up would create for `path`; `StorageUnavailable` if it could not."""
    missing: list[Path] = []
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        missing.append(folder)
        folder = folder.parent
    if not folder.is_dir():
        raise StorageUnavailable(f"{folder} is a file, so no folder for the database can be made there", reason="io")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise StorageUnavailable(f"the folder {folder} is not writable by this user", reason="read_only")
    return (*(f"the folder {created}" for created in reversed(missing)), f"the database file {path.name}")


def _connect_read_only(path: Path) -> sqlite3.Connection:
    # The bot keeps its file in WAL mode. A read-only connection to a WAL file that no one has open would
    # create -wal and -shm files and leave them behind, so such a file is read as immutable. When both exist,
    # a bot has it open (or crashed with it open): read through them, which changes nothing either.
    live = Path(f"{path}-wal").exists() and Path(f"{path}-shm").exists()
    uri = f"{path.as_uri()}?mode=ro" + ("" if live else "&immutable=1")
    return sqlite3.connect(uri, uri=True)


def _rows(conn: sqlite3.Connection, table: str) -> int:
    # `table` is one of our own table names, never user input.
    return int(conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
