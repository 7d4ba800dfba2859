"""The repository's tournament SQL: creating, entering, rounds, results, and reading tournaments back.

A mixin of `bot.storage.sqlite.store.Store` (like `LadderQueries`); one transaction per method, parameters
always bound. A write to a tournament in the wrong state raises `TournamentStateError`, checked inside the
same transaction as the write. Must never import discord or puluc, and never decide who plays whom (the
session layer does).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, cast

import aiosqlite

from bot.storage.errors import AlreadyEntered, TournamentNotFound, TournamentStateError
from bot.storage.sqlite.connection import run, run_many
from bot.storage.tournament_types import (
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


class TournamentQueries:
    """Tournament reads and writes. Mixed into `Store`."""

    _clock: Callable[[], float]
    _read: Callable[[], AbstractAsyncContextManager[aiosqlite.Connection]]
    _write: Callable[[], AbstractAsyncContextManager[aiosqlite.Connection]]

    async def create_tournament(
        self, *, guild_id: int, channel_id: int, creator_id: int, settings: TournamentSettings
    ) -> int:
        now = self._clock()
        async with self._write() as db:
            cursor = await run(
                db,
                "INSERT INTO tournaments (guild_id, channel_id, creator_id, name, format, variant, setup, "
                "turn_timer_seconds, round_seconds, ranked, status, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'open', ?, ?)",
                (guild_id, channel_id, creator_id, settings.name, settings.format, settings.variant, settings.setup,
                 settings.turn_timer_seconds, settings.round_seconds, int(settings.ranked), now, now),
            )
        return cast(int, cursor.lastrowid)

    async def _require_tournament(self, db: aiosqlite.Connection, tournament_id: int, *allowed: str) -> None:
        rows = list(await db.execute_fetchall(
            "SELECT status FROM tournaments WHERE tournament_id = ?", (tournament_id,)))
        if not rows:
            raise TournamentNotFound(f"there is no tournament {tournament_id}")
        if rows[0][0] not in allowed:
            raise TournamentStateError(
                f"tournament {tournament_id} is {rows[0][0]}; this needs it to be {' or '.join(allowed)}")

    async def _touch(self, db: aiosqlite.Connection, tournament_id: int, **changes: Any) -> None:
        # `changes` keys are this module's own column names; values are bound.
        sets = "".join(f", {column} = ?" for column in changes)
        await run(db, f"UPDATE tournaments SET updated_at = ?{sets} WHERE tournament_id = ?",
                  (self._clock(), *changes.values(), tournament_id))

    async def join_tournament(self, tournament_id: int, user_id: int, display_name: str) -> Entrant:
        async with self._write() as db:
            await self._require_tournament(db, tournament_id, "open")
            rows = list(await db.execute_fetchall(
                "SELECT coalesce(max(number), 0) + 1 FROM tournament_entrants WHERE tournament_id = ?",
                (tournament_id,)))
            number = int(rows[0][0])
            try:
                await run(db, "INSERT INTO tournament_entrants (tournament_id, number, user_id, display_name) "
                              "VALUES (?, ?, ?, ?)", (tournament_id, number, user_id, display_name))
            except sqlite3.IntegrityError as exc:
                raise AlreadyEntered(f"user {user_id} is already in tournament {tournament_id}") from exc
            await self._touch(db, tournament_id)
        return Entrant(number, user_id, display_name)

    async def leave_tournament(self, tournament_id: int, user_id: int) -> None:
        async with self._write() as db:
            await self._require_tournament(db, tournament_id, "open")
            await run(db, "DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?",
                      (tournament_id, user_id))
            await self._touch(db, tournament_id)

    async def start_tournament(self, tournament_id: int, *, entrants: Sequence[Entrant], rounds: int) -> None:
        async with self._write() as db:
            await self._require_tournament(db, tournament_id, "open")
            await run_many(db, "UPDATE tournament_entrants SET rating = ?, seed = ? "
                               "WHERE tournament_id = ? AND number = ?",
                           [(e.rating, e.seed, tournament_id, e.number) for e in entrants])
            await self._touch(db, tournament_id, status="running", rounds=rounds)

    async def add_round(self, tournament_id: int, round_no: int, matches: Sequence[Match], deadline: float) -> None:
        async with self._write() as db:
            await self._require_tournament(db, tournament_id, "running")
            current = next(iter(await db.execute_fetchall(
                "SELECT round FROM tournaments WHERE tournament_id = ?", (tournament_id,))))[0]
            if round_no != current + 1:
                raise TournamentStateError(f"tournament {tournament_id} is at round {current}, not {round_no - 1}")
            await run_many(
                db,
                "INSERT INTO tournament_matches (tournament_id, round, board, player_a, player_b, outcome, "
                "decided_by) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(tournament_id, round_no, m.board, m.a, m.b, m.outcome, m.decided_by) for m in matches],
            )
            await self._touch(db, tournament_id, round=round_no, round_deadline=deadline)

    async def set_match_game(
        self, tournament_id: int, round_no: int, board: int, *, game_id: int, thread_id: int
    ) -> None:
        async with self._write() as db:
            await self._require_tournament(db, tournament_id, "running")
            await run(db, "UPDATE tournament_matches SET game_id = ?, thread_id = ? "
                          "WHERE tournament_id = ? AND round = ? AND board = ?",
                      (game_id, thread_id, tournament_id, round_no, board))

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
        async with self._write() as db:
            await self._require_tournament(db, tournament_id, "running")
            done = await run(
                db,
                "UPDATE tournament_matches SET outcome = ?, decided_by = ?, chance_a = ? "
                "WHERE tournament_id = ? AND round = ? AND board = ? AND outcome IS NULL",
                (outcome, decided_by, chance_a, tournament_id, round_no, board),
            )
        return done.rowcount == 1

    async def finish_tournament(self, tournament_id: int) -> None:
        async with self._write() as db:
            await self._require_tournament(db, tournament_id, "running")
            await self._touch(db, tournament_id, status="finished", round_deadline=None, finished_at=self._clock())

    async def cancel_tournament(self, tournament_id: int) -> None:
        async with self._write() as db:
            await self._require_tournament(db, tournament_id, "open", "running")
            await self._touch(db, tournament_id, status="cancelled", round_deadline=None,
                              finished_at=self._clock())

    async def set_tournament_message(self, tournament_id: int, message_id: int | None) -> None:
        async with self._write() as db:
            await self._require_tournament(db, tournament_id, "open", "running", "finished", "cancelled")
            await self._touch(db, tournament_id, message_id=message_id)

    async def tournament(self, tournament_id: int) -> Tournament:
        async with self._read() as db:
            found = await self._load_tournaments(db, "tournament_id = ?", (tournament_id,))
        if not found:
            raise TournamentNotFound(f"there is no tournament {tournament_id}")
        return found[0]

    async def open_tournaments(self) -> tuple[Tournament, ...]:
        async with self._read() as db:
            return await self._load_tournaments(db, "status IN ('open', 'running')", ())

    async def guild_tournaments(self, guild_id: int, limit: int = 25) -> tuple[Tournament, ...]:
        async with self._read() as db:
            found = await self._load_tournaments(
                db, "tournament_id IN (SELECT tournament_id FROM tournaments WHERE guild_id = ? "
                    "ORDER BY tournament_id DESC LIMIT ?)", (guild_id, limit))
        return found[::-1]

    async def _load_tournaments(
        self, db: aiosqlite.Connection, where: str, params: Sequence[Any]
    ) -> tuple[Tournament, ...]:
        # `where` is one of this module's literal conditions; values always arrive as bound parameters.
        rows = list(await db.execute_fetchall(
            f"SELECT {_COLUMNS} FROM tournaments WHERE {where} ORDER BY tournament_id", params))
        inner = f"SELECT tournament_id FROM tournaments WHERE {where}"
        entrants: dict[int, list[Entrant]] = {}
        for r in await db.execute_fetchall(
            "SELECT tournament_id, number, user_id, display_name, rating, seed FROM tournament_entrants "
            f"WHERE tournament_id IN ({inner}) ORDER BY tournament_id, number", params,
        ):
            entrants.setdefault(r[0], []).append(Entrant(r[1], r[2], r[3], r[4], r[5]))
        matches: dict[int, list[Match]] = {}
        for r in await db.execute_fetchall(
            "SELECT tournament_id, round, board, player_a, player_b, game_id, thread_id, outcome, decided_by, "
            f"chance_a FROM tournament_matches WHERE tournament_id IN ({inner}) "
            "ORDER BY tournament_id, round, board", params,
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
