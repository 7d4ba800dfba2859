"""The game log: lobbies, seats, and the append-only event log with its compare-and-set.

Every method is one transaction, committed before it returns. An event is appended only if the game's
`last_seq` is still the number the caller saw (compare-and-set on the games row); the events table's primary
key (game_id, seq) refuses a number twice even if `last_seq` were wrong.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any

from bot.storage.changes import GAMES_CHANNEL
from bot.storage.errors import (
    ConstraintViolation,
    DuplicateEvent,
    EventGap,
    GameNotFound,
    GameStateError,
    HostLimitReached,
)
from bot.storage.shards import Shards
from bot.storage.sql.ladders import rate_game
from bot.storage.sql.leases import Leases, shard_condition
from bot.storage.sql.port import Database, Row, Transaction
from bot.storage.sql.server_settings import ensure_guild
from bot.storage.types import (
    END_REASONS,
    UNCHANGED,
    EndReason,
    Event,
    FinishReport,
    Game,
    GameLog,
    NewEvent,
    Seat,
    SeatSpec,
    Unchanged,
    check_kinds,
    turn_order,
)

OPEN = "status IN ('lobby', 'running')"
OPEN_GAMES_BATCH = 500  # games (with their logs) start-up reads and rebuilds at a time
MAX_BATCH = 5_000  # bound parameters of one query stay far below both backends' limits
_SEAT_COLUMNS = "s.game_id, s.seat, s.user_id, s.ai_level, s.display_name, s.consecutive_timeouts, s.kills"


def dumps(value: object) -> str:
    """JSON as stored: compact, keys sorted (equal values give equal text)."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


class GameStore:
    """Games, seats and events; a write to a game of a server on a shard this process does not hold raises
    ShardNotHeld (`bot.storage.sql.leases`)."""

    def __init__(self, db: Database, leases: Leases) -> None:
        self._db = db
        self._leases = leases

    async def _upsert_players(self, tx: Transaction, specs: Sequence[SeatSpec]) -> None:
        """Record that these users acted now, under these names (in user id order, so two transactions
        that touch the same players lock them in the same order and never deadlock)."""
        now = self._db.clock()
        for spec in sorted((s for s in specs if s.user_id is not None), key=lambda s: s.user_id or 0):
            await tx.execute(
                "INSERT INTO players (user_id, display_name, last_active, created_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET display_name = excluded.display_name, "
                "last_active = excluded.last_active",
                spec.user_id,
                spec.display_name,
                now,
                now,
            )

    # --- games -------------------------------------------------------------------------------------------

    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        host_id: int | None,
        variant: str,
        rules: Mapping[str, Any],
        turn_timer_seconds: int,
        ranked: bool = False,
        in_thread: bool = False,
        message_id: int | None = None,
        seats: Sequence[SeatSpec] = (),
        host_limit: int | None = None,
    ) -> int:
        """Open a lobby and return the new game id.

        `host_limit`: HostLimitReached when the host already hosts that many open games, counted in the same
        transaction with the host's player row locked, so two processes cannot both let a host past it.
        """
        now = self._db.clock()
        async with self._db.write() as tx:
            await self._leases.check(tx, guild_id)
            if host_limit is not None and host_id is not None:
                await self._upsert_players(tx, seats)  # locks the host's row (the host sits in the lobby)
                row = await tx.fetchrow(
                    f"SELECT count(*) FROM games WHERE host_id = ? AND {OPEN}", host_id
                )
                hosted = 0 if row is None else int(row[0])
                if hosted >= host_limit:
                    raise HostLimitReached(f"user {host_id} hosts {hosted} open games already", limit=host_limit)
            if guild_id is not None:
                await ensure_guild(tx, guild_id, self._db.clock())
            row = await tx.fetchrow(
                "INSERT INTO games (guild_id, channel_id, in_thread, message_id, status, host_id, ranked, "
                "variant, rules_json, turn_timer_seconds, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?) RETURNING game_id",
                guild_id,
                channel_id,
                in_thread,
                message_id,
                host_id,
                ranked,
                variant,
                dumps(dict(rules)),
                turn_timer_seconds,
                now,
                now,
            )
            assert row is not None  # RETURNING gives the one inserted row
            game_id = int(row[0])
            # The players were upserted above when the host limit was counted.
            await self._put_seats(tx, game_id, seats, players=host_limit is None or host_id is None)
        return game_id

    async def _put_seats(self, tx: Transaction, game_id: int, specs: Sequence[SeatSpec], *,
                         players: bool = True) -> None:
        """Seat `specs` in the game, after upserting their players (unless `players` is False: done already)."""
        if players:
            await self._upsert_players(tx, specs)
        for spec in specs:
            await tx.execute(
                "INSERT INTO seats (game_id, seat, user_id, ai_level, display_name) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (game_id, seat) DO UPDATE SET user_id = excluded.user_id, "
                "ai_level = excluded.ai_level, display_name = excluded.display_name",
                game_id,
                spec.seat,
                spec.user_id,
                spec.ai_level,
                spec.display_name,
            )

    async def _status(self, tx: Transaction, game_id: int) -> tuple[str, int]:
        """The game's status and last event number, its row locked until the transaction ends; ShardNotHeld
        when another process holds the game's shard (checked in the same statement: one round trip)."""
        held, lease_args = self._leases.condition("games")
        row = await tx.fetchrow(
            f"SELECT status, last_seq, guild_id, (1 = 1{held}) FROM games WHERE game_id = ?"
            + self._db.dialect.lock_rows,
            *lease_args,
            game_id,
        )
        if row is None:
            raise GameNotFound(f"there is no game {game_id}")
        if not row[3]:
            await self._leases.check(tx, row[2])  # raises ShardNotHeld, saying who holds the shard
            raise AssertionError(f"game {game_id}: its shard's lease is held and not held at once")
        return row[0], row[1]

    async def _require(self, tx: Transaction, game_id: int, *allowed: str) -> int:
        status, last_seq = await self._status(tx, game_id)
        if status not in allowed:
            raise GameStateError(f"game {game_id} is {status}; this needs it to be {' or '.join(allowed)}")
        return last_seq

    async def set_seat(self, game_id: int, spec: SeatSpec) -> None:
        """Fill or replace a seat while the game is a lobby.

        Once running, seats never change hands: an AI taking over a seat is an 'ai_takeover' event
        ({"seat": "B1", ...}) and the seat keeps its human, whose history still shows the game.
        """
        async with self._db.write() as tx:
            await self._require(tx, game_id, "lobby")
            await self._put_seats(tx, game_id, [spec])
            await self._touch_game(tx, game_id)

    async def set_seats(self, game_id: int, specs: Sequence[SeatSpec]) -> None:
        """Replace every seat of a lobby by `specs` in one transaction (balanced teams)."""
        async with self._db.write() as tx:
            await self._require(tx, game_id, "lobby")
            await tx.execute("DELETE FROM seats WHERE game_id = ?", game_id)
            await self._put_seats(tx, game_id, specs)
            await self._touch_game(tx, game_id)

    async def remove_seat(self, game_id: int, seat: str) -> None:
        async with self._db.write() as tx:
            await self._require(tx, game_id, "lobby")
            await tx.execute("DELETE FROM seats WHERE game_id = ? AND seat = ?", game_id, seat)
            await self._touch_game(tx, game_id)

    async def _tell(self, tx: Transaction, game_id: int, seq: int) -> None:
        """Tell other processes, once this transaction commits, that the game changed (`bot.storage.changes`)."""
        if self._db.dialect.notify:
            await tx.execute(self._db.dialect.notify, GAMES_CHANNEL, f"{game_id}:{seq}")

    async def _touch_game(self, tx: Transaction, game_id: int) -> None:
        await tx.execute("UPDATE games SET updated_at = ? WHERE game_id = ?", self._db.clock(), game_id)

    async def set_message(self, game_id: int, message_id: int | None, *, in_thread: bool | None = None) -> None:
        """Remember which message shows the game now (and whether it lives in a thread)."""
        held, lease_args = self._leases.condition("games")
        async with self._db.write() as tx:
            changed = await tx.execute(
                "UPDATE games SET message_id = ?, in_thread = coalesce(?, in_thread), updated_at = ? "
                "WHERE game_id = ?" + held,
                message_id,
                in_thread,
                self._db.clock(),
                game_id,
                *lease_args,
            )
            if not changed:
                await self._status(tx, game_id)  # GameNotFound or ShardNotHeld
                raise AssertionError(f"game {game_id} exists on a held shard but was not updated")

    async def start_game(
        self,
        game_id: int,
        *,
        first_team: str,
        throw_off: Sequence[Any],
        seed: int | None,
        snapshot_ppn: str,
        turn_deadline: float | None,
        rules: Mapping[str, Any] | None = None,
    ) -> None:
        """Lobby -> running, with the throw-off result and the starting position."""
        if first_team not in ("A", "B"):
            raise ValueError(f"the first team is 'A' or 'B', not {first_team!r}")
        async with self._db.write() as tx:
            await self._require(tx, game_id, "lobby")
            await tx.execute(
                "UPDATE games SET status = 'running', first_team = ?, throw_off_json = ?, seed = ?, "
                "snapshot_ppn = ?, snapshot_seq = 0, turn_deadline = ?, "
                "rules_json = coalesce(?, rules_json), updated_at = ? WHERE game_id = ?",
                first_team,
                dumps(list(throw_off)),
                seed,
                snapshot_ppn,
                turn_deadline,
                None if rules is None else dumps(dict(rules)),
                self._db.clock(),
                game_id,
            )
            await self._tell(tx, game_id, 0)

    async def append_events(
        self,
        game_id: int,
        first_seq: int,
        events: Sequence[NewEvent],
        *,
        snapshot_ppn: str | None = None,
        turn_deadline: float | Unchanged | None = UNCHANGED,
        timeouts: Mapping[str, int] | None = None,
    ) -> tuple[Event, ...]:
        """Append events numbered first_seq, first_seq + 1, ... and update the game, in ONE transaction.

        `snapshot_ppn` is the position after the last of these events; `timeouts` sets seats' counts of
        consecutive time-outs. Two clicks that race for the same number: one commits, the other gets
        DuplicateEvent and nothing of it is written.
        """
        if not events:
            raise ValueError("append_events needs at least one event")
        check_kinds(events)
        async with self._db.write() as tx:
            return await self._append(tx, game_id, first_seq, events, snapshot_ppn, turn_deadline, timeouts)

    async def _append(
        self,
        tx: Transaction,
        game_id: int,
        first_seq: int,
        events: Sequence[NewEvent],
        snapshot_ppn: str | None,
        turn_deadline: float | Unchanged | None,
        timeouts: Mapping[str, int] | None,
    ) -> tuple[Event, ...]:
        now = self._db.clock()
        last_seq = first_seq + len(events) - 1
        sets: list[str] = ["last_seq = ?", "updated_at = ?"]
        args: list[object] = [last_seq, now]
        if snapshot_ppn is not None:
            sets += ["snapshot_ppn = ?", "snapshot_seq = ?"]
            args += [snapshot_ppn, last_seq]
        if not isinstance(turn_deadline, Unchanged):
            sets.append("turn_deadline = ?")
            args.append(turn_deadline)
        # Compare-and-set on last_seq first: the common path is one UPDATE and one INSERT, and the reason
        # for a refusal is looked up only when it happens. A concurrent writer of the same game waits for
        # this row and then finds last_seq moved on. The shard's lease is checked in the same statement.
        held, lease_args = self._leases.condition("games")
        changed = await tx.execute(
            f"UPDATE games SET {', '.join(sets)} WHERE game_id = ? AND status = 'running' AND last_seq = ?" + held,
            *args,
            game_id,
            first_seq - 1,
            *lease_args,
        )
        if changed != 1:
            known = await self._require(tx, game_id, "running")
            if first_seq <= known:
                raise DuplicateEvent(f"game {game_id} already has event {first_seq}; the log is at {known}")
            raise EventGap(f"game {game_id} expects event {known + 1} next, not {first_seq}")
        written = tuple(Event(first_seq + i, e.kind, e.payload, now) for i, e in enumerate(events))
        try:
            await tx.executemany(
                "INSERT INTO events (game_id, seq, kind, payload, created_at) VALUES (?, ?, ?, ?, ?)",
                [(game_id, e.seq, e.kind, dumps(e.payload), now) for e in written],
            )
        except ConstraintViolation as error:  # the UNIQUE (game_id, seq) guard, should last_seq lie
            raise DuplicateEvent(f"game {game_id} already has one of events {first_seq}..{last_seq}") from error
        for seat, count in (timeouts or {}).items():
            await tx.execute(
                "UPDATE seats SET consecutive_timeouts = ? WHERE game_id = ? AND seat = ?", count, game_id, seat
            )
        await self._tell(tx, game_id, last_seq)
        return written

    async def cancel_game(self, game_id: int, payload: Mapping[str, Any] | None = None) -> None:
        """Cancel a lobby or running game; a running one gets a final 'cancel' event in its log."""
        now = self._db.clock()
        async with self._db.write() as tx:
            status, last_seq = await self._status(tx, game_id)
            if status == "running":
                await self._append(
                    tx, game_id, last_seq + 1, [NewEvent("cancel", dict(payload or {}))], None, None, None
                )
            elif status != "lobby":
                raise GameStateError(f"game {game_id} is already {status}")
            else:
                await self._tell(tx, game_id, last_seq)
            await tx.execute(
                "UPDATE games SET status = 'cancelled', end_reason = 'cancelled', turn_deadline = NULL, "
                "finished_at = ?, updated_at = ? WHERE game_id = ?",
                now,
                now,
                game_id,
            )

    async def finish_game(
        self,
        game_id: int,
        *,
        winner: str | None,
        scores: Mapping[str, int],
        end_reason: EndReason,
        kills: Mapping[str, int] | None = None,
        events: Sequence[NewEvent] = (),
        first_seq: int | None = None,
        snapshot_ppn: str | None = None,
    ) -> FinishReport:
        """End a running game: final events, result, kills and (if it counts) ratings, in ONE transaction.

        `events` (e.g. the last move, or the resignation) are numbered from `first_seq`.
        """
        if winner not in ("A", "B", None):
            raise ValueError(f"winner is 'A', 'B' or None for a draw, not {winner!r}")
        if end_reason not in END_REASONS - {"cancelled"}:
            raise ValueError(f"end_reason is normal, resign or timeout, not {end_reason!r}; use cancel_game")
        check_kinds(events)
        if events and first_seq is None:
            raise ValueError("first_seq is needed with events")
        now = self._db.clock()
        async with self._db.write() as tx:
            if events:
                assert first_seq is not None
                await self._append(tx, game_id, first_seq, events, snapshot_ppn, None, None)
            else:
                await self._require(tx, game_id, "running")
            await tx.execute(
                "UPDATE games SET status = 'finished', winner = ?, score_a = ?, score_b = ?, end_reason = ?, "
                "turn_deadline = NULL, finished_at = ?, updated_at = ? WHERE game_id = ?",
                winner,
                scores.get("A", 0),
                scores.get("B", 0),
                end_reason,
                now,
                now,
                game_id,
            )
            for seat, count in (kills or {}).items():
                await tx.execute("UPDATE seats SET kills = ? WHERE game_id = ? AND seat = ?", count, game_id, seat)
            report = await rate_game(tx, self._db.dialect, game_id, winner, now)
            # After the rating, which locked the players' rows in id order: these rows are theirs.
            await add_to_totals(tx, game_id)
            return report

    # --- reading games -----------------------------------------------------------------------------------

    async def get_game(self, game_id: int) -> Game:
        async with self._db.read() as tx:
            games = await self._load_games(tx, "game_id = ?", game_id)
        if not games:
            raise GameNotFound(f"there is no game {game_id}")
        return games[0]

    async def game_log(self, game_id: int) -> GameLog:
        """A game and its whole event log (for replays and records), read in one snapshot."""
        async with self._db.read() as tx:
            games = await self._load_games(tx, "game_id = ?", game_id)
            if not games:
                raise GameNotFound(f"there is no game {game_id}")
            rows = await tx.fetch(
                "SELECT seq, kind, payload, created_at FROM events WHERE game_id = ? ORDER BY seq", game_id
            )
        return GameLog(games[0], tuple(Event(r[0], r[1], json.loads(r[2]), r[3]) for r in rows))

    async def prune_finished(self, older_than: float, shards: Shards | None = None, *,
                             batch: int = OPEN_GAMES_BATCH) -> int:
        """Delete the event logs of games (of servers on `shards`; None: all) that finished or were cancelled
        more than `older_than` seconds ago (by the store's clock, the one that stamped them), a batch of games
        per transaction, and mark them pruned; their rows, seats, results and ratings stay. Returns how many
        games were pruned."""
        if not 1 <= batch <= MAX_BATCH:
            raise ValueError(f"a batch holds 1 to {MAX_BATCH} games, not {batch}")
        if older_than < 0:
            raise ValueError(f"prune games finished a while ago, not {older_than} s in the future")
        before = self._db.clock() - older_than
        where = "pruned_at IS NULL AND status IN ('finished', 'cancelled') AND finished_at < ?"
        if shards is not None and not shards.is_whole:
            where += f" AND {shard_condition(shards)}"
        pruned = 0
        while True:
            now = self._db.clock()
            async with self._db.write() as tx:
                rows = await tx.fetch(f"SELECT game_id FROM games WHERE {where} ORDER BY game_id LIMIT ?",
                                      before, batch)
                if not rows:
                    return pruned
                ids = [r[0] for r in rows]
                marks = ", ".join("?" * len(ids))
                await tx.execute(f"DELETE FROM events WHERE game_id IN ({marks})", *ids)
                await tx.execute(f"UPDATE games SET pruned_at = ? WHERE game_id IN ({marks})", now, *ids)
            pruned += len(ids)
            if len(ids) < batch:
                return pruned

    async def open_games(self, shards: Shards | None = None) -> tuple[GameLog, ...]:
        """Every lobby and running game (of servers on `shards`; None: all) with its log, all at once (for
        checks and tests; start-up reads them in batches, `open_game_batches`)."""
        found: list[GameLog] = []
        async for batch in self.open_game_batches(shards):
            found.extend(batch)
        return tuple(found)

    async def open_game_batches(
        self, shards: Shards | None = None, *, batch: int = OPEN_GAMES_BATCH
    ) -> AsyncIterator[tuple[GameLog, ...]]:
        """The lobbies and running games of servers on `shards` (None: every server), with their logs, `batch`
        games at a time in game id order: what start-up rebuilds. Other shards' games are left out by the
        query itself (never read), and one batch at a time is held, so memory follows the batch, not the
        number of games. Each batch is one snapshot; the games of claimed shards change only through this
        process, so the batches together are consistent."""
        if not 1 <= batch <= MAX_BATCH:
            raise ValueError(f"a batch holds 1 to {MAX_BATCH} games, not {batch}")
        where = OPEN if shards is None or shards.is_whole else f"{OPEN} AND {shard_condition(shards)}"
        after = 0
        while True:
            async with self._db.read() as tx:
                game_rows = await tx.fetch(
                    f"SELECT * FROM games WHERE {where} AND game_id > ? ORDER BY game_id LIMIT ?", after, batch
                )
                if not game_rows:
                    return
                ids = [r["game_id"] for r in game_rows]
                marks = ", ".join("?" * len(ids))
                seat_rows = await tx.fetch(
                    f"SELECT {_SEAT_COLUMNS} FROM seats s WHERE s.game_id IN ({marks})", *ids
                )
                event_rows = await tx.fetch(
                    "SELECT game_id, seq, kind, payload, created_at FROM events "
                    f"WHERE game_id IN ({marks}) ORDER BY game_id, seq", *ids
                )
            seats: dict[int, list[Seat]] = {}
            for r in seat_rows:
                seats.setdefault(r[0], []).append(Seat(r[1], r[2], r[3], r[4], r[5], r[6]))
            events: dict[int, list[Event]] = {}
            for r in event_rows:
                events.setdefault(r[0], []).append(Event(r[1], r[2], json.loads(r[3]), r[4]))
            yield tuple(
                GameLog(game_from_row(r, seats.get(r["game_id"], [])), tuple(events.get(r["game_id"], ())))
                for r in game_rows
            )
            if len(game_rows) < batch:
                return
            after = ids[-1]

    async def _load_games(self, tx: Transaction, where: str, *args: object) -> list[Game]:
        """Games matching `where` with their seats: two queries, whatever the number of games."""
        # `where` is one of this module's literal conditions; values always arrive as bound parameters.
        game_rows = await tx.fetch(f"SELECT * FROM games WHERE {where} ORDER BY game_id", *args)
        seat_rows = await tx.fetch(
            f"SELECT {_SEAT_COLUMNS} FROM games g JOIN seats s ON s.game_id = g.game_id WHERE g.{where}", *args
        )
        seats: dict[int, list[Seat]] = {}
        for r in seat_rows:
            seats.setdefault(r[0], []).append(Seat(r[1], r[2], r[3], r[4], r[5], r[6]))
        return [game_from_row(r, seats.get(r["game_id"], [])) for r in game_rows]


# A finished game's seats added to their players' totals, over all servers (scope 0) and in its server.
_ADD_TO_TOTALS = (
    "INSERT INTO player_totals (user_id, scope, variant, games, kills, last_game_id) "
    "SELECT s.user_id, {scope}, g.variant, count(*), coalesce(sum(s.kills), 0), g.game_id "
    "FROM seats s JOIN games g ON g.game_id = s.game_id "
    "WHERE s.game_id = ? AND s.user_id IS NOT NULL {server} GROUP BY s.user_id, g.guild_id, g.variant, g.game_id "
    "ON CONFLICT (user_id, scope, variant) DO UPDATE SET games = player_totals.games + excluded.games, "
    "kills = player_totals.kills + excluded.kills, last_game_id = excluded.last_game_id"
)


async def add_to_totals(tx: Transaction, game_id: int) -> None:
    """Count a finished game in its players' totals (`player_totals`: what a profile reads)."""
    await tx.execute(_ADD_TO_TOTALS.format(scope="0", server=""), game_id)
    await tx.execute(_ADD_TO_TOTALS.format(scope="g.guild_id", server="AND g.guild_id IS NOT NULL"), game_id)


def game_from_row(r: Row, seats: Sequence[Seat]) -> Game:
    finished = r["status"] == "finished"
    return Game(
        game_id=r["game_id"],
        guild_id=r["guild_id"],
        channel_id=r["channel_id"],
        in_thread=bool(r["in_thread"]),
        message_id=r["message_id"],
        status=r["status"],
        host_id=r["host_id"],
        ranked=bool(r["ranked"]),
        variant=r["variant"],
        rules=json.loads(r["rules_json"]),
        first_team=r["first_team"],
        throw_off=None if r["throw_off_json"] is None else json.loads(r["throw_off_json"]),
        seed=r["seed"],
        turn_timer_seconds=r["turn_timer_seconds"],
        turn_deadline=r["turn_deadline"],
        last_seq=r["last_seq"],
        snapshot_ppn=r["snapshot_ppn"],
        snapshot_seq=r["snapshot_seq"],
        winner=r["winner"],
        scores={"A": r["score_a"], "B": r["score_b"]} if finished else None,
        end_reason=r["end_reason"],
        created_at=r["created_at"],
        updated_at=r["updated_at"],
        finished_at=r["finished_at"],
        seats=tuple(sorted(seats, key=turn_order)),
        pruned_at=r["pruned_at"],
    )
