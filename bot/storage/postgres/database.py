"""The PostgreSQL backend: an asyncpg pool, every driver error translated.

Each write is one READ COMMITTED transaction on a pooled connection (rows that must not change underneath are
locked); each read is one REPEATABLE READ READ ONLY transaction, so a profile or a start-up reload sees one
consistent snapshot. Several bot processes may share the database.
"""

from __future__ import annotations

import re
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from functools import lru_cache
from urllib.parse import parse_qsl, urlsplit

import asyncpg

from bot.storage.changes import ChangeFeed, OnChange, OnResync
from bot.storage.postgres import schema
from bot.storage.postgres.errors import DRIVER_ERRORS, translate
from bot.storage.postgres.leases import LeaseKeeper
from bot.storage.shards import Shards
from bot.storage.sql import migrations
from bot.storage.sql.port import POSTGRES, Clock, Row, Transaction
from bot.storage.urls import PostgresUrl

POOL_SIZE = 10
CONNECT_TIMEOUT_S = 10.0
ACQUIRE_TIMEOUT_S = 10.0  # all pooled connections busy this long: "busy"
# Per connection, unless DATABASE_URL sets them: give up on a row lock after 5 s (as SQLite's busy timeout),
# on a statement after 60 s, and on a transaction left idle (a bug) after 60 s.
SERVER_SETTINGS = {
    "application_name": "puluc-bot",
    "lock_timeout": "5s",
    "statement_timeout": "60s",
    "idle_in_transaction_session_timeout": "60s",
}
_PLACEHOLDER = re.compile(r"\?")
BEGIN_ATTEMPTS = 3
# How a pooled connection that the server or the network closed fails its next statement.
CONNECTION_LOST: tuple[type[BaseException], ...] = (
    asyncpg.exceptions.ConnectionDoesNotExistError,
    asyncpg.exceptions.AdminShutdownError,
    asyncpg.exceptions.CrashShutdownError,
    asyncpg.exceptions.InterfaceError,
    ConnectionError,
)


async def keep_session(conn: asyncpg.Connection) -> None:
    """A pooled connection goes back to the pool as it is, without asyncpg's reset query (RESET ALL, UNLISTEN,
    CLOSE ALL, pg_advisory_unlock_all: one more round trip after every transaction and every read). Nothing
    here changes a pooled session's state: no SET, no LISTEN, cursors only inside transactions, and the one
    session advisory lock (the migration's) is released where it is taken. asyncpg still rolls back a
    transaction left open before this runs."""


@lru_cache(maxsize=512)
def numbered(sql: str) -> str:
    """The shared SQL's `?` placeholders as PostgreSQL's `$1, $2, ...` (our SQL has no `?` inside literals)."""
    counter = iter(range(1, 10_000))
    return _PLACEHOLDER.sub(lambda _: f"${next(counter)}", sql)


def _changed(status: str) -> int:
    """Rows a command changed, from its status tag ("UPDATE 3", "INSERT 0 1", "DELETE 0")."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class PostgresTransaction:
    """Statements inside the transaction the store opened on `conn`."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        self._conn = conn

    async def fetch(self, sql: str, *args: object) -> Sequence[Row]:
        try:
            rows: Sequence[Row] = await self._conn.fetch(numbered(sql), *args)
            return rows
        except DRIVER_ERRORS as exc:
            raise translate(exc) from exc

    async def fetchrow(self, sql: str, *args: object) -> Row | None:
        try:
            row: Row | None = await self._conn.fetchrow(numbered(sql), *args)
        except DRIVER_ERRORS as exc:
            raise translate(exc) from exc
        return row

    async def execute(self, sql: str, *args: object) -> int:
        try:
            return _changed(await self._conn.execute(numbered(sql), *args))
        except DRIVER_ERRORS as exc:
            raise translate(exc) from exc

    async def executemany(self, sql: str, rows: Sequence[Sequence[object]]) -> None:
        if not rows:
            return
        try:
            await self._conn.executemany(numbered(sql), rows)
        except DRIVER_ERRORS as exc:
            raise translate(exc) from exc

    async def stream(self, sql: str, *args: object, batch: int) -> AsyncIterator[Sequence[Row]]:
        try:
            cursor = await self._conn.cursor(numbered(sql), *args)
            while rows := await cursor.fetch(batch):
                yield rows
        except DRIVER_ERRORS as exc:
            raise translate(exc) from exc

    async def copy_in(self, table: str, columns: Sequence[str], rows: Sequence[Sequence[object]]) -> None:
        if not rows:
            return
        try:
            await self._conn.copy_records_to_table(table, records=rows, columns=list(columns))
        except DRIVER_ERRORS as exc:
            raise translate(exc) from exc


async def open_database(
    url: PostgresUrl, *, clock: Clock = time.time, read_only: bool = False, pool_size: int = POOL_SIZE
) -> PostgresDatabase:
    """Connect to the database `url` names and migrate it (waiting while another process migrates).

    `StorageUnavailable` when the server cannot be reached or refuses the login; `SchemaTooNew` when a newer
    bot migrated it. `read_only` opens it as it is (no migration; `SchemaTooOld` if it needs one) and every
    transaction is read-only.
    """
    # asyncpg sends a URL's unknown parameters (?lock_timeout=2s) as server settings, and ours would win.
    given = {key for key, _ in parse_qsl(urlsplit(url.dsn).query)}
    settings = {key: value for key, value in SERVER_SETTINGS.items() if key not in given}
    if read_only:
        settings["default_transaction_read_only"] = "on"
    try:
        pool = await asyncpg.create_pool(
            url.dsn, min_size=1, max_size=pool_size, timeout=CONNECT_TIMEOUT_S, server_settings=settings,
            reset=keep_session,
        )
    except DRIVER_ERRORS as exc:
        raise translate(exc) from exc
    try:
        async with pool.acquire(timeout=ACQUIRE_TIMEOUT_S) as conn:
            if read_only:
                migrations.check_current(await schema.current_version(conn), schema.LATEST_VERSION)
            else:
                await schema.migrate(conn)
    except BaseException as exc:
        await pool.close()
        if isinstance(exc, DRIVER_ERRORS):
            raise translate(exc) from exc
        raise
    return PostgresDatabase(url, pool, clock, settings)


class PostgresDatabase:
    """One PostgreSQL database, open (schema: the URL's search_path, else public)."""

    dialect = POSTGRES

    def __init__(
        self, url: PostgresUrl, pool: asyncpg.Pool, clock: Clock, server_settings: dict[str, str] | None = None
    ) -> None:
        self.clock = clock
        self._url = url
        self._pool = pool
        self._server_settings = dict(server_settings or {})
        self._keeper: LeaseKeeper | None = None

    async def claim_shards(self, shards: Shards, owner: str) -> None:
        """Hold `shards` for this process's life (`bot.storage.postgres.leases`); ShardsTaken when a live
        process holds one of them or runs another SHARD_COUNT."""
        if self._keeper is not None:
            raise RuntimeError(f"this database holds {self._keeper.shards} already; a process claims its shards once")
        keeper = LeaseKeeper(self._connect_lease, owner, shards, self.clock)
        try:
            await keeper.claim()
        except DRIVER_ERRORS as exc:
            raise translate(exc) from exc
        self._keeper = keeper

    async def _connect_lease(self) -> asyncpg.Connection:
        settings = {**self._server_settings, "application_name": "puluc-bot shard leases"}
        try:
            return await asyncpg.connect(self._url.dsn, timeout=CONNECT_TIMEOUT_S, server_settings=settings)
        except DRIVER_ERRORS as exc:
            raise translate(exc) from exc

    async def watch(self, on_change: OnChange, on_resync: OnResync) -> ChangeFeed | None:
        """LISTEN for every process's committed changes (`bot.storage.postgres.listen`); StorageUnavailable
        when the first connection fails."""
        from bot.storage.postgres.listen import PostgresChangeFeed

        feed = PostgresChangeFeed(self._url, on_change, on_resync, self._server_settings)
        try:
            await feed.start()
        except DRIVER_ERRORS as exc:
            raise translate(exc) from exc
        return feed

    @property
    def where(self) -> str:
        """host:port/database (never the password)."""
        return self._url.where

    async def close(self) -> None:
        try:
            keeper, self._keeper = self._keeper, None
            if keeper is not None:
                await keeper.close()
            await self._pool.close()
        except DRIVER_ERRORS as exc:
            raise translate(exc) from exc

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Transaction]:
        """One READ COMMITTED transaction; a driver error anywhere in it (COMMIT included) rolls it back and
        leaves as a `StorageError`."""
        try:
            if self._keeper is not None:
                await self._keeper.ensure()  # never write while the shards' locks are not held
            async with self._transaction() as conn:
                yield PostgresTransaction(conn)
        except DRIVER_ERRORS as exc:
            raise translate(exc) from exc

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Transaction]:
        """One REPEATABLE READ READ ONLY transaction: every statement sees the same committed snapshot."""
        try:
            async with self._transaction(isolation="repeatable_read", readonly=True) as conn:
                yield PostgresTransaction(conn)
        except DRIVER_ERRORS as exc:
            raise translate(exc) from exc

    @asynccontextmanager
    async def _transaction(
        self, *, isolation: str | None = None, readonly: bool = False
    ) -> AsyncIterator[asyncpg.Connection]:
        """A pooled connection inside an open transaction. A connection the server closed while it sat in the
        pool (a restart, a network cut) fails at BEGIN, before anything of the call was sent: that is retried
        on a fresh connection, so a restarted server costs no caller a failed move."""
        for attempt in range(1, BEGIN_ATTEMPTS + 1):
            async with self._pool.acquire(timeout=ACQUIRE_TIMEOUT_S) as conn:
                transaction = conn.transaction(isolation=isolation, readonly=readonly)
                try:
                    await transaction.start()
                except (*CONNECTION_LOST, asyncpg.exceptions.InternalClientError):
                    if attempt == BEGIN_ATTEMPTS:
                        raise
                    continue  # released, the broken connection is closed and the pool opens a new one
                try:
                    yield conn
                except BaseException:
                    if not conn.is_closed():
                        await transaction.rollback()
                    raise
                await transaction.commit()
                return

    async def fetch(self, sql: str, *args: object) -> Sequence[Row]:
        """One statement on a pooled connection, without a transaction around it (it is its own snapshot);
        a read is safe to repeat, so a connection found dead is replaced and the statement run again."""
        try:
            for attempt in range(1, BEGIN_ATTEMPTS + 1):
                async with self._pool.acquire(timeout=ACQUIRE_TIMEOUT_S) as conn:
                    try:
                        rows: Sequence[Row] = await conn.fetch(numbered(sql), *args)
                    except (*CONNECTION_LOST, asyncpg.exceptions.InternalClientError):
                        if attempt == BEGIN_ATTEMPTS:
                            raise
                        continue
                    return rows
        except DRIVER_ERRORS as exc:
            raise translate(exc) from exc
        raise AssertionError("unreachable: the last attempt returns or raises")

    async def after_bulk_load(self, tx: Transaction) -> None:
        for table, column in (("games", "game_id"), ("tournaments", "tournament_id")):
            # The names are this module's own literals; PostgreSQL takes no parameters for identifiers.
            await tx.fetch(
                f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'), "
                f"(SELECT coalesce(max({column}), 0) + 1 FROM {table}), false)"
            )

    # --- health ------------------------------------------------------------------------------------------

    async def engine_problems(self) -> list[str]:
        """Indexes PostgreSQL marked invalid (a failed build): queries would silently stop using them."""
        async with self.read() as tx:
            rows = await tx.fetch(
                "SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
                "WHERE c.relnamespace = current_schema()::regnamespace AND NOT i.indisvalid ORDER BY 1"
            )
        return [f"index {row[0]} is invalid; rebuild it with REINDEX" for row in rows]

    async def schema_version(self) -> int:
        try:
            async with self._pool.acquire(timeout=ACQUIRE_TIMEOUT_S) as conn:
                return await schema.current_version(conn)
        except DRIVER_ERRORS as exc:
            raise translate(exc) from exc
