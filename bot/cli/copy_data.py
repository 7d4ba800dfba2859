"""The `puluc-bot copy-data SOURCE_URL TARGET_URL` command: move a server's database to another backend.

The copying and checking is `bot.storage.copy`'s; this module reads the command line, draws the progress bar
on stderr and turns every failure into one line and exit code 1. It never prints a password (URLs are shown
as `where`: a path, or host:port/database).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Callable, Sequence
from typing import TextIO

from bot.storage.errors import StorageError, UnsupportedDatabaseUrl

PROG = "puluc-bot copy-data"


class ProgressBar:
    """Progress on a stream: a bar redrawn in place on a terminal, a plain line per tenth otherwise (a log)."""

    WIDTH = 30
    REDRAW_EVERY_S = 0.1

    def __init__(self, stream: TextIO | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self._stream = stream or sys.stderr
        self._tty = self._stream.isatty()
        self._clock = clock
        self._drawn_at = float("-inf")
        self._tenths: dict[str, int] = {}

    def __call__(self, phase: str, done: int, total: int) -> None:
        share = done / total if total else 1.0
        if self._tty:
            now = self._clock()
            if done < total and now - self._drawn_at < self.REDRAW_EVERY_S:
                return
            self._drawn_at = now
            filled = round(share * self.WIDTH)
            bar = "#" * filled + "-" * (self.WIDTH - filled)
            end = "\n" if done >= total else ""
            self._stream.write(f"\r{phase:8s} [{bar}] {share:4.0%}  {done:,} of {total:,} rows{end}")
        else:
            tenth = int(share * 10)
            if tenth <= self._tenths.get(phase, -1):
                return
            self._tenths[phase] = tenth
            self._stream.write(f"{phase}: {share:.0%} ({done:,} of {total:,} rows)\n")
        self._stream.flush()


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Copy every game, player and rating from one database into an empty one (SQLite to "
        "PostgreSQL or back), then check the copy row by row. Stop the bot first. The source is only read; "
        "if anything fails, the target is left empty.",
    )
    parser.add_argument("source", metavar="SOURCE_URL", help="e.g. sqlite:///data/puluc.db")
    parser.add_argument("target", metavar="TARGET_URL", help="e.g. postgresql://puluc:password@db:5432/puluc")
    args = parser.parse_args(argv)
    from bot.storage.copy import copy_data

    try:
        report = asyncio.run(copy_data(args.source, args.target, ProgressBar()))
    except UnsupportedDatabaseUrl as exc:
        return _fail(str(exc))
    except StorageError as exc:
        return _fail(f"nothing was copied: {exc}")
    rows = report.rows
    print(
        f"{PROG}: copied {rows['games']:,} games, {rows['players']:,} players and {rows['ratings']:,} ratings "
        f"({sum(rows.values()):,} rows) from {report.source} to {report.target} in {report.seconds:.1f} s; "
        "every row checked."
    )
    return 0


def _fail(message: str) -> int:
    print(f"{PROG}: error: {message}", file=sys.stderr)
    return 1
