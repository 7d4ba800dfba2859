"""A database's health: what `--check` and start-up report (its own verdict and the bot's invariants, counts)."""

from __future__ import annotations

from bot.storage.sql.ladders import rebuild_counts_sql
from bot.storage.sql.port import Database
from bot.storage.types import StoredCounts

COUNT_COLUMNS = "ladder, scope, day, bucket, players"


async def integrity_check(db: Database) -> str:
    """"ok", or one line per problem: the engine's own findings, then the bot's invariants (every game's log
    is whole and numbered 1..last_seq; the rank counts agree with the ratings)."""
    problems = await db.engine_problems()
    async with db.read() as tx:
        broken = await tx.fetch(
            "SELECT g.game_id FROM games g LEFT JOIN (SELECT game_id, count(*) AS n, max(seq) AS top "
            "FROM events GROUP BY game_id) e ON e.game_id = g.game_id "
            "WHERE g.last_seq <> coalesce(e.n, 0) OR g.last_seq <> coalesce(e.top, 0) "
            "OR g.snapshot_seq > g.last_seq ORDER BY g.game_id LIMIT 10"
        )
        if broken:
            ids = ", ".join(str(r[0]) for r in broken)
            problems.append(f"games whose event log disagrees with last_seq: {ids}")
        rebuilt = rebuild_counts_sql(db.dialect)
        for first, second in ((f"SELECT {COUNT_COLUMNS} FROM ladder_counts", rebuilt),
                              (rebuilt, f"SELECT {COUNT_COLUMNS} FROM ladder_counts")):
            row = await tx.fetchrow(
                f"SELECT count(*) FROM (SELECT {COUNT_COLUMNS} FROM ({first}) AS a "
                f"EXCEPT SELECT {COUNT_COLUMNS} FROM ({second}) AS b) AS d"
            )
            if row is not None and row[0]:
                problems.append(f"{row[0]} rank count rows disagree with the ratings (rebuild ladder_counts)")
                break
    return "\n".join(problems) if problems else "ok"


async def counts(db: Database) -> StoredCounts:
    """How many games and players the database holds (cheap enough for a start-up message)."""
    (row,) = await db.fetch("SELECT (SELECT count(*) FROM games), (SELECT count(*) FROM players)")
    return StoredCounts(int(row[0]), int(row[1]))
