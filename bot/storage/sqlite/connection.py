"""Running statements on an aiosqlite connection with every cursor closed in the connection's own thread.

Must never be imported from outside `bot/storage/sqlite/`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

import aiosqlite


class Done(NamedTuple):
    """What a statement did: the rows it changed and the last inserted row id."""

    rowcount: int
    lastrowid: int | None


async def run(db: aiosqlite.Connection, sql: str, params: Iterable[Any] = ()) -> Done:
    """Execute one statement and close its cursor in the connection's own thread.

    An aiosqlite cursor left to the garbage collector is finalised in the event-loop thread, possibly
    while the connection's thread is running the next statement; CPython's sqlite3 then fails with
    "bad parameter or other API misuse" (seen under the 200-game load benchmark). Closing it where it
    ran keeps every SQLite call on one thread.
    """
    async with db.execute(sql, params) as cursor:
        return Done(cursor.rowcount, cursor.lastrowid)


async def run_many(db: aiosqlite.Connection, sql: str, rows: Iterable[Iterable[Any]]) -> Done:
    """`run` for one statement over many parameter rows."""
    async with db.executemany(sql, rows) as cursor:
        return Done(cursor.rowcount, cursor.lastrowid)
