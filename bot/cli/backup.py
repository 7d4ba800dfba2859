"""The `puluc-bot backup PATH` command: a consistent copy of the bot's database, safe while the bot runs.

For SQLite it copies the file with SQLite's online backup API (`bot.storage.sqlite.backup`) to PATH, or to a
new dated file when PATH is a folder, and says what the copy holds. A PostgreSQL database is backed up by
PostgreSQL's own `pg_dump`: this prints the command (without the password; `PGPASSWORD` or `~/.pgpass` gives
it). docs/OPERATIONS.md, Backup and restore, says how to restore either. Every failure is one line and exit
code 1; a password is never printed.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import parse_qs, urlsplit, urlunsplit

from bot.config import ConfigError, find_env_file, read_config
from bot.config_spec import DATABASE_URL
from bot.storage import PostgresUrl
from bot.storage.errors import StorageError

PROG = "puluc-bot backup"


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Back up the bot's database while it runs: a SQLite file is copied to PATH (a new file, or "
        "a folder to put a dated copy in); for PostgreSQL the pg_dump command to run is printed.",
    )
    parser.add_argument("path", metavar="PATH", type=Path, help="the backup file to write, or a folder for it")
    parser.add_argument("--env-file", metavar="PATH", type=Path, help="the settings file to read (as for the bot)")
    args = parser.parse_args(argv)
    try:
        report = read_config(os.environ, find_env_file(args.env_file))
    except ConfigError as exc:
        return _fail(*exc.problems)
    if DATABASE_URL.name in report.failed or "" in report.failed:
        return _fail(*report.problems)
    database = report.config.database
    if isinstance(database, PostgresUrl):
        return _postgres(database, args.path)
    from bot.storage.sqlite.backup import backup_file

    target = Path(os.path.abspath(args.path.expanduser()))
    if target.is_dir():
        target = target / time.strftime("puluc-%Y%m%d-%H%M%S.db")
    try:
        done = backup_file(Path(database.where), target)
    except StorageError as exc:
        return _fail(f"nothing was backed up: {exc}.")
    print(
        f"{PROG}: copied {done.source} to {done.target}: {_count(done.games, 'game')} and "
        f"{_count(done.players, 'player')}, "
        f"schema version {done.schema_version}, {_size(done.size)}, "
        f"{'intact' if done.integrity == 'ok' else 'DAMAGED: ' + done.integrity}, in {done.seconds:.1f} s."
    )
    return 0 if done.integrity == "ok" else 1


def pg_dump_command(database: PostgresUrl, path: Path) -> str:
    """The pg_dump command that backs up `database` to `path` in PostgreSQL's custom format, without its
    password; the bot's schema only, when DATABASE_URL names one with ?search_path=."""
    parts = urlsplit(database.dsn)
    user = f"{parts.username}@" if parts.username else ""
    host = parts.netloc.rsplit("@", 1)[-1]
    url = urlunsplit((parts.scheme, f"{user}{host}", parts.path, "", ""))
    command = ["pg_dump", "--format=custom", "--no-owner", f"--file={path}"]
    schema = parse_qs(parts.query).get("search_path", [""])[0].split(",")[0].strip()
    if schema:
        command.append(f"--schema={schema}")
    return shlex.join([*command, url])


def _postgres(database: PostgresUrl, path: Path) -> int:
    if path.is_dir():
        path = path / time.strftime("puluc-%Y%m%d-%H%M%S.dump")
    print(f"{PROG}: PostgreSQL backs itself up, consistently while the bot runs, with pg_dump; run (the password "
          "comes from PGPASSWORD or ~/.pgpass, never from this line):")
    print(pg_dump_command(database, path))
    return 0


def _count(number: int, what: str) -> str:
    return f"{number:,} {what}{'' if number == 1 else 's'}"


def _size(size: int) -> str:
    if size < 1000:
        return f"{size:,} bytes"
    for unit, scale in (("kB", 1e3), ("MB", 1e6)):
        if size < scale * 1000:
            return f"{size / scale:.1f} {unit}"
    return f"{size / 1e9:.1f} GB"


def _fail(*problems: str) -> int:
    for problem in problems:
        print(f"{PROG}: error: {problem}", file=sys.stderr)
    return 1
