"""Tournaments: creating, entering, rounds, results, and reading tournaments back.

A write to a tournament in the wrong state raises `TournamentStateError`, checked on its row, locked until the
write commits; like its server's games, a tournament is written only by the holder of the server's shard.
Who plays whom is decided by `bot.tournaments`, not here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.storage.changes import TOURNAMENTS_CHANNEL
from bot.storage.errors import (
    AlreadyEntered,
    ConstraintViolation,
    PlayerInOpenGame,
    TournamentNotFound,
    TournamentStateError,
)
from bot.storage.shards import Shards
from bot.storage.sql.leases import Leases, shard_condition
from bot.storage.sql.port import Database, Transaction
from bot.storage.types import FORGOTTEN_NAME
from bot.tournaments.types import (
    DecidedBy,
    Entrant,
    Match,
    Outcome,
    Tournament,
    TournamentSettings,
)

_COLUMNS = (
    "tournament_id, guild_id, channel_id, message_id, creator_id, name, format, variant, setup, "
    "turn_timer_seconds, round_seconds, ranked, status, rounds, round, round_deadline, created_at, finished_at"
)
_OPEN = "status IN ('open', 'running')"


class TournamentStore:
    """Tournament reads and writes. Every method is one transaction."""

    def __init__(self, db: Database, leases: Leases) -> None:
        self._db = db
        self._leases = leases

    async def create_tournament(
        self, *, guild_id: int, channel_id: int, creator_id: int, settings: TournamentSettings
    ) -> int:
        now = self._db.clock()
        async with self._db.write() as tx:
            await self._leases.check(tx, guild_id)
            row = await tx.fetchrow(
                "INSERT INTO tournaments (guild_id, channel_id, creator_id, name, format, variant, setup, "
                "turn_timer_seconds, round_seconds, ranked, status, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'open', ?, ?) RETURNING tournament_id",
                guild_id, channel_id, creator_id, settings.name, settings.format, settings.variant, settings.setup,
                settings.turn_timer_seconds, settings.round_seconds, settings.ranked, now, now,
            )
        assert row is not None  # RETURNING gives the one inserted row
        return int(row[0])

    async def _require_tournament(self, tx: Transaction, tournament_id: int, *allowed: str) -> int:
        """The tournament's current round, its row locked until the transaction ends; refuses other states,
        and (ShardNotHeld) a tournament whose server is on a shard this process does not hold: a tournament
        belongs to its server's shard, like that server's games."""
        row = await tx.fetchrow(
            "SELECT status, round, guild_id FROM tournaments WHERE tournament_id = ?" + self._db.dialect.lock_rows,
            tournament_id)
        if row is None:
            raise TournamentNotFound(f"there is no tournament {tournament_id}")
        await self._leases.check(tx, row[2])
        if row[0] not in allowed:
            raise TournamentStateError(
                f"tournament {tournament_id} is {row[0]}; this needs it to be {' or '.join(allowed)}")
        return int(row[1])

    async def _touch(self, tx: Transaction, tournament_id: int, **changes: Any) -> None:
        # `changes` keys are this module's own column names; values are bound.
        sets = "".join(f", {column} = ?" for column in changes)
        await tx.execute(f"UPDATE tournaments SET updated_at = ?{sets} WHERE tournament_id = ?",
                         self._db.clock(), *changes.values(), tournament_id)
        if self._db.dialect.notify:  # other processes' pages of this tournament (bot.storage.changes)
            await tx.execute(self._db.dialect.notify, TOURNAMENTS_CHANNEL, str(tournament_id))

    async def join_tournament(self, tournament_id: int, user_id: int, display_name: str) -> Entrant:
        async with self._db.write() as tx:
            await self._require_tournament(tx, tournament_id, "open")
            if await tx.fetchrow("SELECT 1 FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?",
                                 tournament_id, user_id):
                raise AlreadyEntered(f"user {user_id} is already in tournament {tournament_id}")
            row = await tx.fetchrow(
                "SELECT coalesce(max(number), 0) + 1 FROM tournament_entrants WHERE tournament_id = ?", tournament_id)
            assert row is not None  # an aggregate always gives a row
            number = int(row[0])
            try:
                await tx.execute("INSERT INTO tournament_entrants (tournament_id, number, user_id, display_name) "
                                 "VALUES (?, ?, ?, ?)", tournament_id, number, user_id, display_name)
            except ConstraintViolation as exc:  # the same player joining twice at the same moment
                raise AlreadyEntered(f"user {user_id} is already in tournament {tournament_id}") from exc
            await self._touch(tx, tournament_id)
        return Entrant(number, user_id, display_name)

    async def leave_tournament(self, tournament_id: int, user_id: int) -> None:
        async with self._db.write() as tx:
            await self._require_tournament(tx, tournament_id, "open")
            await tx.execute("DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?",
                             tournament_id, user_id)
            await self._touch(tx, tournament_id)

    async def start_tournament(self, tournament_id: int, *, entrants: Sequence[Entrant], rounds: int) -> None:
        async with self._db.write() as tx:
            await self._require_tournament(tx, tournament_id, "open")
            if entrants:
                await tx.executemany(
                    "UPDATE tournament_entrants SET rating = ?, seed = ? WHERE tournament_id = ? AND number = ?",
                    [(e.rating, e.seed, tournament_id, e.number) for e in entrants])
            await self._touch(tx, tournament_id, status="running", rounds=rounds)

    async def add_round(self, tournament_id: int, round_no: int, matches: Sequence[Match], deadline: float) -> None:
        async with self._db.write() as tx:
            current = await self._require_tournament(tx, tournament_id, "running")
            if round_no != current + 1:
                raise TournamentStateError(f"tournament {tournament_id} is at round {current}, not {round_no - 1}")
            await tx.executemany(
                "INSERT INTO tournament_matches (tournament_id, round, board, player_a, player_b, outcome, "
                "decided_by) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(tournament_id, round_no, m.board, m.a, m.b, m.outcome, m.decided_by) for m in matches],
            )
            await self._touch(tx, tournament_id, round=round_no, round_deadline=deadline)

    async def set_match_game(
        self, tournament_id: int, round_no: int, board: int, *, game_id: int, thread_id: int
    ) -> None:
        async with self._db.write() as tx:
            await self._require_tournament(tx, tournament_id, "running")
            await tx.execute("UPDATE tournament_matches SET game_id = ?, thread_id = ? "
                             "WHERE tournament_id = ? AND round = ? AND board = ?",
                             game_id, thread_id, tournament_id, round_no, board)
            await self._touch(tx, tournament_id)

    async def decide_match(
        self,
        tournament_id: int,
        round_no: int,
        board: int,
        *,
        outcome: Outcome,
        decided_by: DecidedBy,
        chance_a: float | None = None,
    ) -> bool:
        async with self._db.write() as tx:
            await self._require_tournament(tx, tournament_id, "running")
            changed = await tx.execute(
                "UPDATE tournament_matches SET outcome = ?, decided_by = ?, chance_a = ? "
                "WHERE tournament_id = ? AND round = ? AND board = ? AND outcome IS NULL",
                outcome, decided_by, chance_a, tournament_id, round_no, board,
            )
            if changed == 1:
                await self._touch(tx, tournament_id)
        return changed == 1

    async def finish_tournament(self, tournament_id: int) -> None:
        async with self._db.write() as tx:
            await self._require_tournament(tx, tournament_id, "running")
            await self._touch(tx, tournament_id, status="finished", round_deadline=None, finished_at=self._db.clock())

    async def cancel_tournament(self, tournament_id: int) -> None:
        async with self._db.write() as tx:
            await self._require_tournament(tx, tournament_id, "open", "running")
            await self._touch(tx, tournament_id, status="cancelled", round_deadline=None, finished_at=self._db.clock())

    async def set_tournament_message(self, tournament_id: int, message_id: int | None) -> None:
        async with self._db.write() as tx:
            await self._require_tournament(tx, tournament_id, "open", "running", "finished", "cancelled")
            await self._touch(tx, tournament_id, message_id=message_id)

    async def tournament(self, tournament_id: int) -> Tournament:
        async with self._db.read() as tx:
            found = await self._load_tournaments(tx, "tournament_id = ?", tournament_id)
        if not found:
            raise TournamentNotFound(f"there is no tournament {tournament_id}")
        return found[0]

    async def open_tournaments(self, shards: Shards | None = None) -> tuple[Tournament, ...]:
        """The open and running tournaments of servers on `shards` (None: every server); the others are left
        out by the query."""
        where = _OPEN if shards is None or shards.is_whole else f"{_OPEN} AND {shard_condition(shards)}"
        async with self._db.read() as tx:
            return await self._load_tournaments(tx, where)

    async def guild_tournaments(self, guild_id: int, limit: int = 25) -> tuple[Tournament, ...]:
        async with self._db.read() as tx:
            found = await self._load_tournaments(
                tx, "tournament_id IN (SELECT tournament_id FROM tournaments WHERE guild_id = ? "
                    "ORDER BY tournament_id DESC LIMIT ?)", guild_id, limit)
        return found[::-1]

    async def _load_tournaments(self, tx: Transaction, where: str, *args: object) -> tuple[Tournament, ...]:
        """Tournaments matching `where` with their entrants and matches: three queries, however many."""
        # `where` is one of this module's literal conditions; values always arrive as bound parameters.
        rows = await tx.fetch(f"SELECT {_COLUMNS} FROM tournaments WHERE {where} ORDER BY tournament_id", *args)
        inner = f"SELECT tournament_id FROM tournaments WHERE {where}"
        entrants: dict[int, list[Entrant]] = {}
        for r in await tx.fetch(
            "SELECT tournament_id, number, user_id, display_name, rating, seed FROM tournament_entrants "
            f"WHERE tournament_id IN ({inner}) ORDER BY tournament_id, number", *args,
        ):
            entrants.setdefault(r[0], []).append(Entrant(r[1], r[2], r[3], r[4], r[5]))
        matches: dict[int, list[Match]] = {}
        for r in await tx.fetch(
            "SELECT tournament_id, round, board, player_a, player_b, game_id, thread_id, outcome, decided_by, "
            f"chance_a FROM tournament_matches WHERE tournament_id IN ({inner}) "
            "ORDER BY tournament_id, round, board", *args,
        ):
            matches.setdefault(r[0], []).append(Match(r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9]))
        return tuple(
            Tournament(
                tournament_id=r[0], guild_id=r[1], channel_id=r[2], message_id=r[3], creator_id=r[4],
                settings=TournamentSettings(r[5], r[6], r[7], r[8], r[9], r[10], bool(r[11])),
                status=r[12], rounds=r[13], round=r[14], round_deadline=r[15], created_at=r[16],
                finished_at=r[17], entrants=tuple(entrants.get(r[0], ())), matches=tuple(matches.get(r[0], ())),
            )
            for r in rows
        )


async def forget_in_tournaments(tx: Transaction, user_id: int) -> None:
    """Forget-me's part: refused while the player is in an open or running tournament; otherwise their
    entries show a former player and the tournaments they created no longer name them."""
    open_ones = await tx.fetch(
        "SELECT t.tournament_id FROM tournament_entrants e JOIN tournaments t ON t.tournament_id = "
        f"e.tournament_id WHERE e.user_id = ? AND t.{_OPEN} ORDER BY t.tournament_id", user_id)
    if open_ones:
        ids = ", ".join(str(r[0]) for r in open_ones)
        raise PlayerInOpenGame(f"leave your open tournaments first (tournament {ids})")
    await tx.execute("UPDATE tournament_entrants SET user_id = NULL, display_name = ? WHERE user_id = ?",
                     FORGOTTEN_NAME, user_id)
    await tx.execute("UPDATE tournaments SET creator_id = NULL WHERE creator_id = ?", user_id)
