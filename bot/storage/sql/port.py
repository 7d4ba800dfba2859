"""The database port: what the stores of `bot.storage.sql` need from a backend (`Database`, `Transaction`, `Dialect`).

The queries are written once, in the SQL that SQLite and PostgreSQL both speak, with `?` placeholders (the
PostgreSQL backend numbers them). A backend raises only `bot.storage.errors`: a broken constraint as
`ConstraintViolation`, a full disk or a lost server as `StorageUnavailable`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, Protocol

from bot.storage.changes import ChangeFeed, OnChange, OnResync
from bot.storage.shards import Shards

Clock = Callable[[], float]


class Row(Protocol):
    """One result row, readable by position or by column name (sqlite3.Row and asyncpg.Record both are)."""

    def __getitem__(self, key: int | str, /) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...


class Transaction(Protocol):
    """Statements inside one open transaction of one connection; parameters are always bound."""

    async def fetch(self, sql: str, *args: object) -> Sequence[Row]: ...

    async def fetchrow(self, sql: str, *args: object) -> Row | None: ...

    async def execute(self, sql: str, *args: object) -> int:
        """Run one statement; return how many rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Sequence[Sequence[object]]) -> None: ...

    def stream(self, sql: str, *args: object, batch: int) -> AsyncIterator[Sequence[Row]]:
        """The rows of a query in batches of at most `batch`, read through a cursor (for whole tables)."""
        ...

    async def copy_in(self, table: str, columns: Sequence[str], rows: Sequence[Sequence[object]]) -> None:
        """Insert many rows as fast as the database can (PostgreSQL: COPY; SQLite: one prepared INSERT)."""
        ...


@dataclass(frozen=True, slots=True)
class Dialect:
    """SQL spelled per backend. Each expression template takes one SQL expression via `str.format`.

    SQLite's CAST(x AS INTEGER) truncates toward zero, PostgreSQL's x::bigint rounds to the nearest integer:
    the templates say which one is meant, so both backends put a time in the same UTC day and a rating in
    the same bucket as `bot.ratings.day_of` and `math.floor` do in Python.
    """

    name: str
    trunc: str  # toward zero, like Python's int(): UTC day numbers
    floor: str  # toward minus infinity, like math.floor: rating buckets (ratings may be negative)
    lock_rows: str  # appended to a SELECT whose rows must stay locked until the transaction ends
    lock_shared: str = ""  # appended to a SELECT whose rows must not change until the transaction ends
    # Tells other processes of a committed change (`bot.storage.changes`): a statement taking the channel and
    # the payload; "" where there is no other process to tell (SQLite).
    notify: str = ""


SQLITE = Dialect(
    name="sqlite",
    trunc="CAST(({}) AS INTEGER)",
    # SQLite's floor() exists only in builds with the math functions, so floor is spelled with CAST.
    floor="(CASE WHEN CAST(({0}) AS INTEGER) > ({0}) THEN CAST(({0}) AS INTEGER) - 1 ELSE CAST(({0}) AS INTEGER) END)",
    lock_rows="",  # a SQLite write transaction (BEGIN IMMEDIATE) already excludes every other writer
)

POSTGRES = Dialect(
    name="postgresql",
    trunc="trunc({})::bigint",
    floor="floor({})::bigint",
    # NO KEY UPDATE, not UPDATE: it still lets other transactions insert rows that reference the locked
    # ones (seats, ratings), so only writers of the same rows wait for each other.
    lock_rows=" FOR NO KEY UPDATE",
    # A game write reads its shard's lease row FOR SHARE: many writers at once, but a process taking the
    # shard over (an UPDATE of that row) waits for them, and every write after it sees the new owner. A rating
    # holds its server's guilds row so too, against a season start (FOR NO KEY UPDATE) of that server.
    lock_shared=" FOR SHARE",
    notify="SELECT pg_notify(?, ?)",
)


class Database(Protocol):
    """One open database of a backend: transactions on its connections, and what only the backend knows."""

    dialect: Dialect
    clock: Clock

    @property
    def where(self) -> str:
        """Which database this is, for people: an absolute file path, or host:port/database (never a password)."""
        ...

    def write(self) -> AbstractAsyncContextManager[Transaction]:
        """One write transaction, committed when the block ends (rolled back if it raises)."""
        ...

    def read(self) -> AbstractAsyncContextManager[Transaction]:
        """One read-only transaction: every statement sees the same committed snapshot."""
        ...

    async def fetch(self, sql: str, *args: object) -> Sequence[Row]:
        """One statement's rows, in the snapshot it sees by itself (no BEGIN and COMMIT around it)."""
        ...

    async def close(self) -> None: ...

    async def schema_version(self) -> int: ...

    async def engine_problems(self) -> list[str]:
        """What the database engine finds wrong with itself (SQLite: PRAGMA integrity_check)."""
        ...

    async def claim_shards(self, shards: Shards, owner: str) -> None:
        """Make `owner` (this process) the holder of `shards` while it lives; ShardsTaken when a live process
        holds one of them. How a holder is known to be alive is the backend's: `bot.storage.sql.leases`."""
        ...

    async def after_bulk_load(self, tx: Transaction) -> None:
        """Bring generated ids up to date after rows were loaded with their own ids."""
        ...

    async def watch(self, on_change: OnChange, on_resync: OnResync) -> ChangeFeed | None:
        """Call `on_change` for every change other processes commit (`bot.storage.changes`), until the feed
        closes; None where no other process can write (SQLite)."""
        ...
