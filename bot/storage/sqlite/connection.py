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


def _rows_changed(conn: sqlite3.Connection, sql: str, params: Any, many: bool) -> int:
    """In the connection's thread: run the statement, close its cursor there, return the rows it changed."""
    cursor = conn.executemany(sql, params) if many else conn.execute(sql, params)
    try:
        return cursor.rowcount
    finally:
        cursor.close()


async def _in_thread(db: aiosqlite.Connection, sql: str, params: Any, many: bool) -> Done:
    # aiosqlite's hand-over of a function to the connection's own thread (untyped there).
    hand_over: Callable[..., Awaitable[int]] = db._execute
    return Done(await hand_over(_rows_changed, db._conn, sql, params, many))


async def run(db: aiosqlite.Connection, sql: str, params: Iterable[Any] = ()) -> Done:
    """Execute one statement and close its cursor in the connection's own thread, in one hand-over to it.

    An aiosqlite cursor left to the garbage collector is finalised in the event-loop thread, possibly
    while the connection's thread is running the next statement; CPython's sqlite3 then fails with
    "bad parameter or other API misuse" (seen under the 200-game load benchmark). Closing it where it
    ran keeps every SQLite call on one thread. aiosqlite's own cursor would take two hand-overs (execute,
    close), each a wake-up of the other thread and of the event loop: a move's transaction paid eight.
    """
    return await _in_thread(db, sql, tuple(params), False)


async def run_many(db: aiosqlite.Connection, sql: str, rows: Iterable[Iterable[Any]]) -> Done:
    """`run` for one statement over many parameter rows."""
    return await _in_thread(db, sql, [tuple(row) for row in rows], True)


class SqliteTransaction:
    """Statements inside the transaction the store opened on `db` (the store begins and ends it)."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def fetch(self, sql: str, *args: object) -> Sequence[Row]:
        try:
            return list(await self._db.execute_fetchall(sql, args))
        except sqlite3.Error as exc:
            raise translate(exc) from exc

    async def fetchrow(self, sql: str, *args: object) -> Row | None:
        rows = await self.fetch(sql, *args)
        return rows[0] if rows else None

    async def execute(self, sql: str, *args: object) -> int:
        try:
            return (await run(self._db, sql, args)).rowcount
        except sqlite3.Error as exc:
            raise translate(exc) from exc

    async def executemany(self, sql: str, rows: Sequence[Sequence[object]]) -> None:
        if not rows:
            return
        try:
            await run_many(self._db, sql, rows)
        except sqlite3.Error as exc:
            raise translate(exc) from exc

    async def stream(self, sql: str, *args: object, batch: int) -> AsyncIterator[Sequence[Row]]:
        try:
            async with self._db.execute(sql, args) as cursor:
                while rows := list(await cursor.fetchmany(batch)):
                    yield rows
        except sqlite3.Error as exc:
            raise translate(exc) from exc

    async def copy_in(self, table: str, columns: Sequence[str], rows: Sequence[Sequence[object]]) -> None:
        marks = ", ".join("?" * len(columns))
        await self.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", rows)
