"""Whole tables at once, for `copy-data` and the benchmarks: counting, streaming and bulk-loading every row."""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

from bot.storage.sql.health import COUNT_COLUMNS
from bot.storage.sql.ladders import rebuild_counts_sql
from bot.storage.sql.port import Database, Transaction
from bot.storage.sql.tables import TABLES, Table


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


# The profiles' aggregates recomputed from the games and the rating history (as their migration first made them).
_TOTALS_OF = (
    "INSERT INTO player_totals (user_id, scope, variant, games, kills, last_game_id) "
    "SELECT s.user_id, {scope}, g.variant, count(*), coalesce(sum(s.kills), 0), max(g.game_id) "
    "FROM seats s JOIN games g ON g.game_id = s.game_id WHERE g.status = 'finished' AND s.user_id IS NOT NULL "
    "{server} GROUP BY s.user_id, {group}g.variant"
)
REBUILD_PLAYER_TOTALS = (
    _TOTALS_OF.format(scope="0", server="", group=""),
    _TOTALS_OF.format(scope="g.guild_id", server="AND g.guild_id IS NOT NULL", group="g.guild_id, "),
    (
        "INSERT INTO player_streaks (user_id, result, length) "
        "WITH ordered AS (SELECT user_id, result, row_number() OVER (PARTITION BY user_id "
        "ORDER BY played_at DESC, game_id DESC) AS n FROM rating_history WHERE scope = 0), "
        "newest AS (SELECT user_id, result FROM ordered WHERE n = 1), "
        "broken AS (SELECT o.user_id, min(o.n) AS n FROM ordered o JOIN newest w ON w.user_id = o.user_id "
        "WHERE o.result <> w.result GROUP BY o.user_id), "
        "counted AS (SELECT user_id, count(*) AS n FROM ordered GROUP BY user_id) "
        "SELECT w.user_id, w.result, coalesce(b.n - 1, c.n) FROM newest w JOIN counted c ON c.user_id = w.user_id "
        "LEFT JOIN broken b ON b.user_id = w.user_id"
    ),
)


class BulkLoad:
    """Rows going into a database inside one open transaction, and what that transaction sees of them."""

    def __init__(self, tx: Transaction) -> None:
        self._tx = tx

    async def load(self, t: Table, rows: Sequence[Sequence[Any]]) -> None:
        await self._tx.copy_in(t.name, t.columns, [t.portable(r) for r in rows])

    def rows(self, batch: int = 5000) -> AsyncGenerator[tuple[Table, list[tuple[Any, ...]]], None]:
        """Every row loaded so far (and any that were there), as `TableStore.export_rows` gives them."""
        return table_rows(self._tx, batch)

    async def row_counts(self) -> dict[str, int]:
        return await count_rows(self._tx)


class TableStore:
    """Every table of one database, whole."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def row_counts(self) -> dict[str, int]:
        """Rows per table, in one snapshot."""
        async with self._db.read() as tx:
            return await count_rows(tx)

    async def export_rows(self, batch: int = 5000) -> AsyncGenerator[tuple[Table, list[tuple[Any, ...]]], None]:
        """Every row of every table (parents first, each in primary-key order) from ONE snapshot, in batches."""
        async with self._db.read() as tx:
            async for found in table_rows(tx, batch):
                yield found

    @asynccontextmanager
    async def bulk_load(self) -> AsyncIterator[BulkLoad]:
        """Whole rows into this database in ONE transaction: either every row is stored or, if anything fails
        (a check of what was loaded included), none is."""
        async with self._db.write() as tx:
            yield BulkLoad(tx)
            await self._db.after_bulk_load(tx)

    async def rebuild_player_totals(self) -> None:
        """Recompute the profiles' aggregates (`player_totals`, `player_streaks`) from the games and the rating
        history (after a bulk load that brought those only)."""
        async with self._db.write() as tx:
            await tx.execute("DELETE FROM player_totals")
            await tx.execute("DELETE FROM player_streaks")
            for statement in REBUILD_PLAYER_TOTALS:
                await tx.execute(statement)

    async def rebuild_ladder_counts(self) -> None:
        """Recompute the rank counts from the ratings (after a bulk load that brought ratings only)."""
        async with self._db.write() as tx:
            await tx.execute("DELETE FROM ladder_counts")
            await tx.execute(f"INSERT INTO ladder_counts ({COUNT_COLUMNS}) {rebuild_counts_sql(self._db.dialect)}")
