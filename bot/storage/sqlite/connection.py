"""Statements on an aiosqlite connection: every cursor closed in the connection's own thread, every sqlite3
error turned into a storage error where it happens.

`SqliteTransaction` is the `bot.storage.sql.port.Transaction` of this backend.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from typing import Any, NamedTuple

import aiosqlite

from bot.storage.sql.port import Row
from bot.storage.sqlite.errors import translate


class Done(NamedTuple):
    """What a statement did: the rows it changed."""

    rowcount: int


def _rows_changed(conn: sqlite3.Connection, sql: str, params: Any, many: bool, begin: str | None = None) -> int:
    """In the connection's thread: `begin` first when given (the transaction's BEGIN, in the same hand-over as
    its first statement), then run the statement, close its cursor there, return the rows it changed."""
    if begin is not None:
        conn.execute(begin).close()
    cursor = conn.executemany(sql, params) if many else conn.execute(sql, params)
    try:
        return cursor.rowcount
    finally:
        cursor.close()


async def _in_thread(db: aiosqlite.Connection, sql: str, params: Any, many: bool, begin: str | None = None) -> Done:
    # aiosqlite's hand-over of a function to the connection's own thread (untyped there).
    hand_over: Callable[..., Awaitable[int]] = db._execute
    return Done(await hand_over(_rows_changed, db._conn, sql, params, many, begin))


async def run(db: aiosqlite.Connection, sql: str, params: Iterable[Any] = (), *, begin: str | None = None) -> Done:
    """Execute one statement and close its cursor in the connection's own thread, in one hand-over to it.

    An aiosqlite cursor left to the garbage collector is finalised in the event-loop thread, possibly
    while the connection's thread is running the next statement; CPython's sqlite3 then fails with
    "bad parameter or other API misuse" (seen under the 200-game load benchmark). Closing it where it
    ran keeps every SQLite call on one thread. aiosqlite's own cursor would take two hand-overs (execute,
    close), each a wake-up of the other thread and of the event loop: a move's transaction paid eight.
    `begin` opens the transaction in the same hand-over (`SqliteTransaction`).
    """
    return await _in_thread(db, sql, tuple(params), False, begin)


async def run_many(
    db: aiosqlite.Connection, sql: str, rows: Iterable[Iterable[Any]], *, begin: str | None = None
) -> Done:
    """`run` for one statement over many parameter rows."""
    return await _in_thread(db, sql, [tuple(row) for row in rows], True, begin)


class SqliteTransaction:
    """Statements inside the transaction the store opened on `db` (the store ends it).

    With `begin` ("BEGIN IMMEDIATE"), the transaction opens with its first statement, in the same hand-over to
    the connection's thread: each hand-over wakes that thread and then the event loop, and a move's write
    (BEGIN, UPDATE, INSERT, COMMIT) paid four of them, about a millisecond of CPU (benchmarks/move_cost.py).
    `begun` says whether it has (a transaction that ran no statement has nothing to commit).
    """

    def __init__(self, db: aiosqlite.Connection, begin: str | None = None) -> None:
        self._db = db
        self._begin = begin

    @property
    def begun(self) -> bool:
        return self._begin is None

    def _take_begin(self) -> str | None:
        begin, self._begin = self._begin, None
        return begin

    async def _open(self) -> None:
        """BEGIN on its own, before a statement that cannot carry it (a read through aiosqlite's cursor)."""
        begin = self._take_begin()
        if begin is not None:
            await run(self._db, begin)

    async def fetch(self, sql: str, *args: object) -> Sequence[Row]:
        try:
            await self._open()
            return list(await self._db.execute_fetchall(sql, args))
        except sqlite3.Error as exc:
            raise translate(exc) from exc

    async def fetchrow(self, sql: str, *args: object) -> Row | None:
        rows = await self.fetch(sql, *args)
        return rows[0] if rows else None

    async def execute(self, sql: str, *args: object) -> int:
        try:
            return (await run(self._db, sql, args, begin=self._take_begin())).rowcount
        except sqlite3.Error as exc:
            raise translate(exc) from exc

    async def executemany(self, sql: str, rows: Sequence[Sequence[object]]) -> None:
        if not rows:
            return
        try:
            await run_many(self._db, sql, rows, begin=self._take_begin())
        except sqlite3.Error as exc:
            raise translate(exc) from exc

    async def stream(self, sql: str, *args: object, batch: int) -> AsyncIterator[Sequence[Row]]:
        try:
            await self._open()
            async with self._db.execute(sql, args) as cursor:
                while rows := list(await cursor.fetchmany(batch)):
                    yield rows
        except sqlite3.Error as exc:
            raise translate(exc) from exc

    async def copy_in(self, table: str, columns: Sequence[str], rows: Sequence[Sequence[object]]) -> None:
        marks = ", ".join("?" * len(columns))
        await self.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", rows)
