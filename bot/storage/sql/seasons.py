"""Seasons of a server's ladders: closing one (archive its leaderboards, reset the server's ratings), reading
an archived leaderboard, and a player's best placements. The all-servers ladders (scope 0) have no seasons.
"""

from __future__ import annotations

from bot import ratings
from bot.ratings import PAGE_SIZE, PROVISIONAL_GAMES, Skill, check_ladder
from bot.ratings.seasons import Season, SeasonEntry, SeasonPage
from bot.ratings.types import LADDERS
from bot.storage.errors import SeasonNotFound
from bot.storage.sql.port import Database, Row, Transaction
from bot.storage.sql.server_settings import ensure_guild
from bot.storage.types import FORGOTTEN_NAME, GLOBAL_SCOPE, SeasonPlacement

_ENTRY = "rank, user_id, display_name, rating, games, wins, draws, losses"
# A player's best placements (in one server, or in all): rank first, then the latest season; with how many
# players were listed. Parameters: user id, [guild id,] limit.
_PLACEMENTS = (
    "SELECT s.guild_id, s.season, s.ladder, s.rank, (SELECT count(*) FROM season_standings o "
    "WHERE o.guild_id = s.guild_id AND o.season = s.season AND o.ladder = s.ladder) FROM season_standings s "
    "WHERE s.user_id = ? {guild}ORDER BY s.rank, s.season DESC, s.guild_id, s.ladder LIMIT ?"
)
BEST_PLACEMENTS = 3


def _entry(row: Row) -> SeasonEntry:
    return SeasonEntry(row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7])


class SeasonStore:
    """Seasons of a server's ladders. Every method is one transaction."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def current_season(self, guild_id: int) -> int:
        """The number of the season a server's ladders are in now (1 before any was closed)."""
        async with self._db.read() as tx:
            row = await tx.fetchrow("SELECT coalesce(max(season), 0) + 1 FROM seasons WHERE guild_id = ?", guild_id)
        assert row is not None  # an aggregate always gives a row
        return int(row[0])

    async def seasons(self, guild_id: int) -> tuple[Season, ...]:
        """A server's closed seasons, oldest first."""
        async with self._db.read() as tx:
            rows = await tx.fetch(
                "SELECT guild_id, season, started_at, ended_at FROM seasons WHERE guild_id = ? ORDER BY season",
                guild_id)
        return tuple(Season(r[0], r[1], r[2], r[3]) for r in rows)

    async def start_season(self, guild_id: int) -> Season:
        """Close the server's current season: archive both leaderboards, reset the server's ratings."""
        if guild_id == GLOBAL_SCOPE:
            raise ValueError("the all-servers ladders have no seasons")
        now = self._db.clock()
        since = ratings.active_since(now)
        async with self._db.write() as tx:
            await ensure_guild(tx, guild_id, now)
            # The server's row, locked before anything else: two season starts at once close two seasons one
            # after the other, and a ranked game of this server being rated (which holds the row shared, see
            # `bot.storage.sql.ladders.rate_game`) is rated wholly before this season closes or wholly after.
            await tx.fetch("SELECT guild_id FROM guilds WHERE guild_id = ?" + self._db.dialect.lock_rows, guild_id)
            last = await tx.fetchrow(
                "SELECT season, ended_at FROM seasons WHERE guild_id = ? ORDER BY season DESC LIMIT 1", guild_id)
            closed = Season(guild_id, 1 if last is None else int(last[0]) + 1, None if last is None else last[1], now)
            await tx.execute("INSERT INTO seasons (guild_id, season, started_at, ended_at) VALUES (?, ?, ?, ?)",
                             closed.guild_id, closed.number, closed.started_at, closed.ended_at)
            for ladder in LADDERS:
                rows = await tx.fetch(
                    "SELECT r.user_id, p.display_name, r.mu, r.sigma, r.games, r.wins, r.draws, r.losses "
                    "FROM ratings r JOIN players p ON p.user_id = r.user_id WHERE r.ladder = ? AND r.scope = ? "
                    "AND r.games >= ? AND r.last_played >= ? ORDER BY r.conservative DESC, r.user_id",
                    ladder, guild_id, PROVISIONAL_GAMES, since,
                )
                await tx.executemany(
                    f"INSERT INTO season_standings (guild_id, season, ladder, {_ENTRY}) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [(guild_id, closed.number, ladder, rank, r[0], r[1], Skill(r[2], r[3]).display, r[4], r[5],
                      r[6], r[7]) for rank, r in enumerate(rows, start=1)],
                )
            for table in ("ratings", "ladder_counts", "rating_history"):
                # The names are this module's own literals.
                await tx.execute(f"DELETE FROM {table} WHERE scope = ?", guild_id)
        return closed

    async def season_leaderboard(
        self, guild_id: int, season: int, ladder: str, page: int = 0, *, caller_id: int | None = None
    ) -> SeasonPage:
        """One page of a closed season's final leaderboard, and the caller's own line; SeasonNotFound for a
        season the server has not closed."""
        lad = check_ladder(ladder)
        if page < 0:
            raise ValueError(f"pages start at 0, not {page}")
        async with self._db.read() as tx:
            row = await tx.fetchrow(
                "SELECT guild_id, season, started_at, ended_at FROM seasons WHERE guild_id = ? AND season = ?",
                guild_id, season)
            if row is None:
                raise SeasonNotFound(f"server {guild_id} has no closed season {season}")
            rows = await tx.fetch(
                f"SELECT {_ENTRY} FROM season_standings WHERE guild_id = ? AND season = ? AND ladder = ? "
                "ORDER BY rank LIMIT ? OFFSET ?", guild_id, season, lad, PAGE_SIZE + 1, page * PAGE_SIZE)
            entries = tuple(_entry(r) for r in rows[:PAGE_SIZE])
            caller = next((e for e in entries if e.user_id == caller_id), None)
            if caller_id is not None and caller is None:
                mine = await tx.fetchrow(
                    f"SELECT {_ENTRY} FROM season_standings WHERE guild_id = ? AND season = ? AND ladder = ? "
                    "AND user_id = ?", guild_id, season, lad, caller_id)
                caller = None if mine is None else _entry(mine)
        closed = Season(row[0], row[1], row[2], row[3])
        return SeasonPage(closed, lad, page, entries, page > 0, len(rows) > PAGE_SIZE, caller)


async def season_placements(tx: Transaction, user_id: int, guild_id: int | None) -> tuple[SeasonPlacement, ...]:
    """A player's best placements in closed seasons (of one server, or of all), for the profile."""
    if guild_id is None:
        rows = await tx.fetch(_PLACEMENTS.format(guild=""), user_id, BEST_PLACEMENTS)
    else:
        rows = await tx.fetch(_PLACEMENTS.format(guild="AND s.guild_id = ? "), user_id, guild_id, BEST_PLACEMENTS)
    return tuple(SeasonPlacement(r[0], r[1], check_ladder(r[2]), r[3], int(r[4])) for r in rows)

async def forget_in_seasons(tx: Transaction, user_id: int) -> None:
    """Forget-me's part: archived standings keep the place, under a former player's name."""
    await tx.execute("UPDATE season_standings SET user_id = NULL, display_name = ? WHERE user_id = ?",
                     FORGOTTEN_NAME, user_id)
