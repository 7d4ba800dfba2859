"""`SqlStore`: the `Storage` protocol implemented once in SQL, for every backend that speaks it.

A backend (`bot.storage.sqlite.store.SqliteStore`, `bot.storage.postgres.store.PostgresStore`) subclasses it
and provides connections: `_write()` (one write transaction), `_read()` (one read-only snapshot), `close`,
`where`, `schema_version` and its engine's own health check; the queries themselves live in
`bot.storage.sql.games`, `.ladders`, `.players` and `.tournaments`. Beside the protocol this class offers what
`copy-data` and the benchmark need: counting, streaming and bulk-loading whole tables (`bot.storage.sql.tables`).
Must never import a database driver, discord or puluc.
"""

from __future__ import annotations

import time
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

from bot.storage.shards import Shards
from bot.storage.sql.ladders import rebuild_counts_sql
from bot.storage.sql.port import Dialect, Row, Transaction
from bot.storage.sql.tables import TABLES, Table
from bot.storage.sql.tournaments import TournamentQueries
from bot.storage.types import StoredCounts

Clock = Callable[[], float]
_COUNT_COLUMNS = "ladder, scope, day, bucket, players"


async def table_rows(tx: Transaction, batch: int) -> AsyncGenerator[tuple[Table, list[tuple[Any, ...]]], None]:
    """Every row of every table as `Table.portable` values, parents first, each table in primary-key order."""
    for t in TABLES:
        sql = f"SELECT {t.column_list} FROM {t.name} ORDER BY {', '.join(t.key)}"
        async for rows in tx.stream(sql, batch=batch):
            yield t, [t.portable(r) for r in rows]


async def count_rows(tx: Transaction) -> dict[str, int]:
    """Rows per table."""
    row = await tx.fetchrow("SELECT " + ", ".join(f"(SELECT count(*) FROM {t.name})" for t in TABLES))
    assert row is not None  # a SELECT without FROM returns one row
    return {t.name: int(row[i]) for i, t in enumerate(TABLES)}


class BulkLoad:
    """Rows going into a database inside one open transaction, and what that transaction sees of them."""

    def __init__(self, tx: Transaction) -> None:
        self._tx = tx

    async def load(self, t: Table, rows: Sequence[Sequence[Any]]) -> None:
        await self._tx.copy_in(t.name, t.columns, [t.portable(r) for r in rows])

    def rows(self, batch: int = 5000) -> AsyncGenerator[tuple[Table, list[tuple[Any, ...]]], None]:
        """Every row loaded so far (and any that were there), as `SqlStore.export_rows` gives them."""
        return table_rows(self._tx, batch)

    async def row_counts(self) -> dict[str, int]:
        return await count_rows(self._tx)


class SqlStore(TournamentQueries):
    """Storage on one SQL database. Open one with `bot.storage.open_storage`; close it once."""

    def __init__(self, dialect: Dialect, clock: Clock = time.time) -> None:
        self._dialect = dialect
        self._clock = clock

    # --- provided by the backend -----------------------------------------------------------------------------

    def _write(self) -> AbstractAsyncContextManager[Transaction]:
        raise NotImplementedError

    def _read(self) -> AbstractAsyncContextManager[Transaction]:
        raise NotImplementedError

    @property
    def where(self) -> str:
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError

    async def schema_version(self) -> int:
        raise NotImplementedError

    async def claim_shards(self, shards: Shards) -> None:
        """Hold `shards` for this process (the backend decides who is alive: `bot.storage.sql.leases`)."""
        raise NotImplementedError

    async def _fetch(self, sql: str, *args: object) -> Sequence[Row]:
        """One statement's rows. A single statement sees one committed snapshot by itself, so a backend may run
        it without BEGIN and COMMIT around it (two round trips fewer on PostgreSQL)."""
        async with self._read() as tx:
            return await tx.fetch(sql, *args)

    async def _engine_problems(self) -> list[str]:
        """What the database engine finds wrong with itself (SQLite: PRAGMA integrity_check)."""
        raise NotImplementedError

    async def _after_bulk_load(self, tx: Transaction) -> None:
        """Bring generated ids up to date after rows were loaded with their own ids."""

    # --- health ----------------------------------------------------------------------------------------------

    async def integrity_check(self) -> str:
        """"ok", or one line per problem: the engine's own findings, then the bot's invariants (every game's
        log is whole and numbered 1..last_seq; the rank counts agree with the ratings)."""
        problems = await self._engine_problems()
        async with self._read() as tx:
            broken = await tx.fetch(
                "SELECT g.game_id FROM games g LEFT JOIN (SELECT game_id, count(*) AS n, max(seq) AS top "
                "FROM events GROUP BY game_id) e ON e.game_id = g.game_id "
                "WHERE g.last_seq <> coalesce(e.n, 0) OR g.last_seq <> coalesce(e.top, 0) "
                "OR g.snapshot_seq > g.last_seq ORDER BY g.game_id LIMIT 10"
            )
            if broken:
                ids = ", ".join(str(r[0]) for r in broken)
                problems.append(f"games whose event log disagrees with last_seq: {ids}")
            rebuilt = rebuild_counts_sql(self._dialect)
            for first, second in ((f"SELECT {_COUNT_COLUMNS} FROM ladder_counts", rebuilt),
                                  (rebuilt, f"SELECT {_COUNT_COLUMNS} FROM ladder_counts")):
                row = await tx.fetchrow(
                    f"SELECT count(*) FROM (SELECT {_COUNT_COLUMNS} FROM ({first}) AS a "
                    f"EXCEPT SELECT {_COUNT_COLUMNS} FROM ({second}) AS b) AS d"
                )
                if row is not None and row[0]:
                    problems.append(f"{row[0]} rank count rows disagree with the ratings (rebuild ladder_counts)")
                    break
        return "\n".join(problems) if problems else "ok"

    async def counts(self) -> StoredCounts:
        (row,) = await self._fetch("SELECT (SELECT count(*) FROM games), (SELECT count(*) FROM players)")
        return StoredCounts(int(row[0]), int(row[1]))

    # --- whole tables (copy-data, benchmarks) -------------------------------------------------------------------

    async def row_counts(self) -> dict[str, int]:
        """Rows per table, in one snapshot."""
        async with self._read() as tx:
            return await count_rows(tx)

    async def export_rows(self, batch: int = 5000) -> AsyncGenerator[tuple[Table, list[tuple[Any, ...]]], None]:
        """Every row of every table (parents first, each in primary-key order) from ONE snapshot, in batches."""
        async with self._read() as tx:
            async for found in table_rows(tx, batch):
                yield found

    @asynccontextmanager
    async def bulk_load(self) -> AsyncIterator[BulkLoad]:
        """Whole rows into this database in ONE transaction: either every row is stored or, if anything fails
        (a check of what was loaded included), none is."""
        async with self._write() as tx:
            yield BulkLoad(tx)
            await self._after_bulk_load(tx)

    async def rebuild_ladder_counts(self) -> None:
        """Recompute the rank counts from the ratings (after a bulk load that brought ratings only)."""
        async with self._write() as tx:
            await tx.execute("DELETE FROM ladder_counts")
            await tx.execute(f"INSERT INTO ladder_counts ({_COUNT_COLUMNS}) {rebuild_counts_sql(self._dialect)}")
