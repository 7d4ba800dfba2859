"""What the bot keeps about one player: the profile card, the game history, the privacy report and forget-me.

Each read is one snapshot with a fixed number of queries, whatever the number of games or ladders. The profile
reads the aggregates finishing a game keeps (`player_totals`, `player_streaks`), not the player's games.
"""

from __future__ import annotations

from bot import ratings
from bot.ratings.types import LADDERS, Result, Streak
from bot.storage.errors import PlayerInOpenGame
from bot.storage.sql.games import OPEN
from bot.storage.sql.ladders import CountKey, apply_count_deltas, count_delta, standings
from bot.storage.sql.port import Database, Row
from bot.storage.sql.seasons import forget_in_seasons, season_placements
from bot.storage.sql.tournaments import forget_in_tournaments
from bot.storage.types import (
    ALL_SERVERS,
    FORGOTTEN_NAME,
    GLOBAL_SCOPE,
    AllServers,
    BestWin,
    ForgetReport,
    GameSummary,
    PersonalData,
    Profile,
)

_NEWEST_GAME_ID = 2**63 - 1  # "before" this id means "from the newest game on"

# The player's games, newest first, joined to every other seat of each: one row per (game, other seat).
_HISTORY = (
    "WITH mine AS (SELECT s.game_id, s.seat FROM seats s JOIN games g ON g.game_id = s.game_id "
    "WHERE s.user_id = ? AND s.game_id < ? AND g.status IN ('finished', 'cancelled') {server} "
    "ORDER BY s.game_id DESC LIMIT ?) "
    "SELECT g.game_id, g.variant, g.guild_id, g.ranked, g.status, m.seat, g.winner, g.end_reason, g.finished_at, "
    "o.seat, o.display_name FROM mine m JOIN games g ON g.game_id = m.game_id "
    "LEFT JOIN seats o ON o.game_id = m.game_id AND o.seat <> m.seat "
    "ORDER BY g.game_id DESC, m.seat, o.seat"
)

# One row: the name, and the player's totals in one scope (0: every server; else a server), summed from the
# per-variant rows of `player_totals` that finishing a game keeps: a profile never reads the games themselves.
_PLAYER_TOTALS = (
    "SELECT p.display_name, (SELECT coalesce(sum(games), 0) FROM player_totals t WHERE t.user_id = p.user_id "
    "AND t.scope = ?), (SELECT coalesce(sum(kills), 0) FROM player_totals t WHERE t.user_id = p.user_id "
    "AND t.scope = ?), (SELECT variant FROM player_totals t WHERE t.user_id = p.user_id AND t.scope = ? "
    "ORDER BY games DESC, last_game_id DESC LIMIT 1), s.result, s.length "
    "FROM players p LEFT JOIN player_streaks s ON s.user_id = p.user_id WHERE p.user_id = ?"
)
_BEST_WINS = (
    "SELECT ladder, game_id, opponent_rating, played_at FROM (SELECT ladder, game_id, opponent_rating, played_at, "
    "row_number() OVER (PARTITION BY ladder ORDER BY opponent_rating DESC, played_at) AS n FROM rating_history "
    "WHERE user_id = ? AND scope = ? AND result = 'win') AS best WHERE n = 1"
)


class PlayerStore:
    """Profiles, histories, personal data and forget-me."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def profile(self, user_id: int, guild_id: int | None = None) -> Profile | None:
        """Everything the profile card shows, in one snapshot; None for a user the bot has never seen. Asked in
        a server (`guild_id`), its totals (games, kills, favourite variant) are that server's games only; the
        ratings are the server's and the all-servers ladders'. Every part is a few rows of aggregates kept as
        games finish (`player_totals`, `player_streaks`), never the player's history."""
        scopes = (GLOBAL_SCOPE,) if guild_id is None else (guild_id, GLOBAL_SCOPE)
        now = self._db.clock()
        async with self._db.read() as tx:
            totals = GLOBAL_SCOPE if guild_id is None else guild_id
            player = await tx.fetchrow(_PLAYER_TOTALS, totals, totals, totals, user_id)
            if player is None:
                return None
            marks = ", ".join("?" * len(scopes))
            found = await standings(tx.fetch, self._db.dialect, now, f"r.user_id = ? AND r.scope IN ({marks})",
                                    user_id, *scopes)
            best = {
                r[0]: BestWin(r[1], r[2], r[3]) for r in await tx.fetch(_BEST_WINS, user_id, GLOBAL_SCOPE)
            }
            placements = await season_placements(tx, user_id, guild_id)
        ordered = sorted(found, key=lambda s: (scopes.index(s.scope), LADDERS.index(s.ladder)))
        run = None if player[4] is None else Streak(player[4], int(player[5]))
        return Profile(user_id, player[0], tuple(ordered), int(player[1]), int(player[2]), best, run, player[3],
                       placements)

    async def game_history(
        self, user_id: int, limit: int = 10, *, before_game_id: int | None = None,
        guild_id: int | AllServers | None = ALL_SERVERS,
    ) -> tuple[GameSummary, ...]:
        """The player's last finished or cancelled games, newest first, each seen from the player's seat: those
        of one server (`guild_id`; None: direct messages), or of every server (ALL_SERVERS, the player's own
        data export)."""
        before = _NEWEST_GAME_ID if before_game_id is None else before_game_id
        if guild_id is ALL_SERVERS:
            rows = await self._db.fetch(_HISTORY.format(server=""), user_id, before, limit)
        elif guild_id is None:
            rows = await self._db.fetch(_HISTORY.format(server="AND g.guild_id IS NULL"), user_id, before, limit)
        else:
            rows = await self._db.fetch(_HISTORY.format(server="AND g.guild_id = ?"), user_id, before, guild_id,
                                        limit)
        games: dict[tuple[int, str], list[tuple[str, str]]] = {}
        firsts: list[Row] = []
        for r in rows:
            key = (r[0], r[5])
            if key not in games:
                games[key] = []
                firsts.append(r)
            if r[9] is not None:
                games[key].append((r[9], r[10]))
        return tuple(_summary(r, games[(r[0], r[5])]) for r in firsts)

    async def personal_data(self, user_id: int) -> PersonalData:
        """Counts of everything stored about a user (for the privacy command), in one query."""
        (row,) = await self._db.fetch(  # a SELECT without FROM returns one row
            "SELECT (SELECT display_name FROM players WHERE user_id = ?), "
            "(SELECT last_active FROM players WHERE user_id = ?), "
            "(SELECT count(*) FROM seats WHERE user_id = ?), (SELECT count(*) FROM games WHERE host_id = ?), "
            "(SELECT count(*) FROM ratings WHERE user_id = ?), "
            "(SELECT count(*) FROM rating_history WHERE user_id = ?), "
            "(SELECT notify_mode FROM member_settings WHERE user_id = ?)",
            *(user_id,) * 7,
        )
        return PersonalData(user_id, row[0], row[1], int(row[2]), int(row[3]), int(row[4]), int(row[5]), row[6])

    async def forget_me(self, user_id: int) -> ForgetReport:
        """Erase a user's ratings, history and profile; their past seats stay, anonymised, so every
        other player's games and ratings remain valid. Refused while they sit in an open game."""
        async with self._db.write() as tx:
            # The player's row first: a rater of one of their games waits for this transaction, or this one
            # for it (see `bot.storage.sql.ladders.rate_game`), so the ladder counts stay exact.
            await tx.fetch("SELECT user_id FROM players WHERE user_id = ?" + self._db.dialect.lock_rows, user_id)
            open_games = await tx.fetch(
                "SELECT g.game_id FROM seats s JOIN games g ON g.game_id = s.game_id "
                f"WHERE s.user_id = ? AND g.{OPEN} ORDER BY g.game_id",
                user_id,
            )
            if open_games:
                ids = ", ".join(str(r[0]) for r in open_games)
                raise PlayerInOpenGame(f"finish, resign or leave your open games first (game {ids})")
            await forget_in_tournaments(tx, user_id)
            await forget_in_seasons(tx, user_id)
            seats = await tx.execute(
                "UPDATE seats SET user_id = NULL, display_name = ? WHERE user_id = ?", FORGOTTEN_NAME, user_id
            )
            hosted = await tx.execute("UPDATE games SET host_id = NULL WHERE host_id = ?", user_id)
            deltas: dict[CountKey, int] = {}
            for r in await tx.fetch(
                "SELECT ladder, scope, games, conservative, last_played FROM ratings WHERE user_id = ?", user_id
            ):
                count_delta(deltas, r[0], r[1], r[2], r[3], r[4], -1)
            await apply_count_deltas(tx, deltas)
            rated = await tx.execute("DELETE FROM ratings WHERE user_id = ?", user_id)
            history = await tx.execute("DELETE FROM rating_history WHERE user_id = ?", user_id)
            await tx.execute("DELETE FROM player_totals WHERE user_id = ?", user_id)
            await tx.execute("DELETE FROM player_streaks WHERE user_id = ?", user_id)
            player = await tx.execute("DELETE FROM players WHERE user_id = ?", user_id)
            # How they wanted to be called, and any call of theirs left behind (their games are all over).
            await tx.execute("DELETE FROM member_settings WHERE user_id = ?", user_id)
            await tx.execute("DELETE FROM turn_calls WHERE user_id = ?", user_id)
        return ForgetReport(seats, hosted, rated, history, player > 0)


def _summary(row: Row, others: list[tuple[str, str]]) -> GameSummary:
    """A history line from a `_HISTORY` row (its first nine columns) and the game's other seats."""
    seat: str = row[5]
    team = seat[0]
    result: Result | None = None if row[4] == "cancelled" else ratings.result_for(team, row[6])
    return GameSummary(
        row[0], row[1], row[2], bool(row[3]), row[4], seat,
        tuple(name for other, name in others if other[0] == team),
        tuple(name for other, name in others if other[0] != team),
        result, row[7], row[8],
    )
