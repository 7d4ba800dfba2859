"""A consistent copy of a SQLite database file, taken with SQLite's online backup API while the bot runs.

The copy is one snapshot of the database as it was at a commit (the bot's writes go on meanwhile; none is
half in the copy), written to a hidden file beside the target, checked, made self-contained (no -wal beside
it) and only then renamed into place, so a backup file is always whole. The source is only read: nothing is
created or locked beside it. Used by `puluc-bot backup` (bot.cli.backup).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from bot.storage.errors import StorageUnavailable
from bot.storage.sqlite.inspect import _connect_read_only, _rows

__all__ = ["Backup", "backup_file"]


@dataclass(frozen=True, slots=True)
class Backup:
    """What `backup_file` wrote."""

    source: Path
    target: Path
    size: int  # bytes
    schema_version: int
    games: int
    players: int
    integrity: str  # "ok", or what SQLite found wrong in the copy
    seconds: float


def backup_file(source: Path, target: Path) -> Backup:
    """Copy the database at `source` to the new file `target`; `StorageUnavailable` (one line) when it cannot."""
    began = time.perf_counter()
    if not source.is_file():
        raise StorageUnavailable(f"there is no database file at {source}", reason="io")
    if target.exists():
        raise StorageUnavailable(f"{target} already exists; give the backup a new name", reason="io")
    partial = target.with_name(f".{target.name}.partial-{os.getpid()}")
    try:
        live = _connect_read_only(source)
        try:
            copy = sqlite3.connect(partial)
            try:
                live.backup(copy)  # every page at once: one read transaction, one commit's snapshot
                copy.execute("PRAGMA journal_mode = DELETE")  # one self-contained file, nothing beside it
                version = int(copy.execute("PRAGMA user_version").fetchone()[0])
                tables = {row[0] for row in copy.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
                games = _rows(copy, "games") if "games" in tables else 0
                players = _rows(copy, "players") if "players" in tables else 0
                problems = [str(row[0]) for row in copy.execute("PRAGMA integrity_check") if row[0] != "ok"]
            finally:
                copy.close()
        finally:
            live.close()
        os.replace(partial, target)
    except sqlite3.Error as exc:
        raise StorageUnavailable(f"cannot back up {source} to {target} ({exc})", reason="io") from exc
    except OSError as exc:
        raise StorageUnavailable(f"cannot write {target} ({exc.strerror or exc})", reason="io") from exc
    finally:
        with contextlib.suppress(OSError):
            partial.unlink()
    return Backup(source, target, target.stat().st_size, version, games, players, "; ".join(problems) or "ok",
                  time.perf_counter() - began)
