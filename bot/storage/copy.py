"""Copying a whole database to another backend (SQLite -> PostgreSQL, and back): `puluc-bot copy-data`.

The source is opened read-only (never migrated, never written); the target is created or migrated and must
be empty. Every row of every table goes across in ONE transaction on the target, and before it commits, the
copy is read back through that same transaction and compared with the source row by row (so every game's
event log, and every rating): a failure or a difference leaves the target as empty as it was. Stop the bot
first: rows it writes after the copy started would not be copied.
"""

from __future__ import annotations

import time
from collections.abc import AsyncGenerator, AsyncIterator, Callable
from contextlib import aclosing
from dataclasses import dataclass
from typing import Any

from bot.storage import Storage, open_storage
from bot.storage.errors import StorageError
from bot.storage.sql.tables import Table
from bot.storage.urls import parse_database_url

# phase ("copying" or "checking"), rows done, rows in all
Progress = Callable[[str, int, int], None]
Batches = AsyncGenerator[tuple[Table, list[tuple[Any, ...]]], None]
BATCH = 5000


class CopyRefused(StorageError):
    """copy-data will not start: the target is not empty, or source and target are one database."""


class CopyMismatch(StorageError):
    """The copy read back differs from the source; nothing was kept in the target."""


@dataclass(frozen=True, slots=True)
class CopyReport:
    source: str  # where, as people read it (no password)
    target: str
    rows: dict[str, int]  # per table, as copied and checked
    seconds: float

    @property
    def games(self) -> int:
        return self.rows["games"]


def _ignore(phase: str, done: int, total: int) -> None:
    """No progress to show."""


async def copy_data(source_url: str, target_url: str, progress: Progress = _ignore) -> CopyReport:
    """Copy every row of the database at `source_url` into the empty database at `target_url`, then check the
    copy row by row. Raises `CopyRefused`, `CopyMismatch`, or the storage errors of opening either database."""
    source_where, target_where = parse_database_url(source_url).where, parse_database_url(target_url).where
    if source_where == target_where:
        raise CopyRefused(f"the source and the target are the same database ({source_where})")
    started = time.monotonic()
    source = await open_storage(source_url, read_only=True)
    try:
        target = await open_storage(target_url)
        try:
            rows = await _copy(source, target, progress)
        finally:
            await target.close()
    finally:
        await source.close()
    return CopyReport(source_where, target_where, rows, time.monotonic() - started)


async def _copy(source: Storage, target: Storage, progress: Progress) -> dict[str, int]:
    present = await target.tables.row_counts()
    if any(present.values()):
        held = ", ".join(f"{n:,} {table}" for table, n in present.items() if n)
        raise CopyRefused(
            f"the target database {target.where} is not empty ({held}); copy-data fills only an empty database"
        )
    expected = await source.tables.row_counts()
    total = sum(expected.values())
    async with target.tables.bulk_load() as bulk:
        done = 0
        progress("copying", 0, total)
        # aclosing: a generator left half-read would keep its database's read lock until collected.
        async with aclosing(source.tables.export_rows(BATCH)) as batches:
            async for table, batch in batches:
                await bulk.load(table, batch)
                done += len(batch)
                progress("copying", done, total)
        copied = await bulk.row_counts()
        if copied != expected:
            wrong = ", ".join(f"{t}: {expected[t]:,} in the source, {copied[t]:,} copied" for t in expected
                              if copied[t] != expected[t])
            raise CopyMismatch(f"the copy has the wrong number of rows ({wrong})")
        async with aclosing(source.tables.export_rows(BATCH)) as original, aclosing(bulk.rows(BATCH)) as copy:
            await _compare(original, copy, total, progress)
    return expected


async def _compare(original: Batches, copy: Batches, total: int, progress: Progress) -> None:
    """Both sides row by row, table by table, in primary-key order; CopyMismatch at the first difference."""
    theirs = _rows(copy)
    done = 0
    progress("checking", 0, total)
    async for table, row in _rows(original):
        other_table, other = await anext(theirs, (None, None))
        if other_table is not table or other is None or table.comparable(row) != table.comparable(other):
            key = dict(zip(table.columns, row, strict=True))
            where = ", ".join(f"{k} {key[k]}" for k in table.key)
            raise CopyMismatch(f"{table.name} ({where}) differs in the copy")
        done += 1
        if done % BATCH == 0 or done == total:
            progress("checking", done, total)
    if await anext(theirs, None) is not None:
        raise CopyMismatch("the copy has rows the source does not have")


async def _rows(batches: Batches) -> AsyncIterator[tuple[Table, tuple[Any, ...]]]:
    async for table, batch in batches:
        for row in batch:
            yield table, row
