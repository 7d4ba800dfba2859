"""The repository: every SQL statement the bot runs, behind plain async methods on `Store`.

One SQLite file (WAL mode) holds guild settings, players, games with their seats and append-only event log,
and the ranked ladders. Every state change is one transaction that is committed before the method returns,
so a caller that awaits a write may tell the user it happened. Parameters are always bound. This module must
never import discord or puluc and never decide game rules; rating arithmetic comes from `bot/storage/ratings.py`.
Schema and migrations live in `bot/storage/sqlite/schema.py`, value types and errors in `bot/storage/types.py`.
"""

from __future__ import annotations

import asyncio
import errno
import json
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, cast

import aiosqlite

from bot.storage.errors import (
    DuplicateEvent,
    EventGap,
    GameNotFound,
    GameStateError,
    StorageUnavailable,
    UnavailableReason,
    UnknownEventKind,
)
from bot.storage.sqlite import schema
from bot.storage.sqlite.connection import run, run_many
from bot.storage.sqlite.errors import translate
from bot.storage.sqlite.ladders import LadderQueries
from bot.storage.types import (
    END_REASONS,
    EVENT_KINDS,
    UNCHANGED,
    EndReason,
    Event,
    FinishReport,
    Game,
    GameLog,
    GuildSettings,
    NewEvent,
    Seat,
    SeatSpec,
    Unchanged,
)

BUSY_TIMEOUT_MS = 5000
_OS_REASONS: dict[int, UnavailableReason] = {
    errno.ENOSPC: "disk_full", errno.EDQUOT: "disk_full", errno.EACCES: "read_only", errno.EPERM: "read_only",
    errno.EROFS: "read_only",
}
Clock = Callable[[], float]


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def _configure(conn: sqlite3.Connection) -> None:
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
    conn.execute("PRAGMA foreign_keys = ON")


def _prepare_file(path: Path) -> int:
    """Create the directory and file, switch to WAL and migrate (runs in a worker thread)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        _configure(conn)
        # WAL is persistent in the file; readers never block the writer and vice versa.
        conn.execute("PRAGMA journal_mode = WAL")
        return schema.migrate_sync(conn)
    finally:
        conn.close()


async def open_store(path: Path, *, clock: Clock = time.time, busy_timeout_ms: int = BUSY_TIMEOUT_MS) -> Store:
    """Open (creating directory and file on first start) and migrate the database at `path`.

    `StorageUnavailable` when the file cannot be created, opened or migrated (permissions, a full disk, not
    a database); `SchemaTooNew` when a newer bot wrote it.
    """
    try:
        return await _open(path, clock, busy_timeout_ms)
    except sqlite3.Error as exc:
        raise translate(exc) from exc
    except OSError as exc:
        reason = _OS_REASONS.get(exc.errno or 0, "io")
        raise StorageUnavailable(
            f"{exc.strerror or exc} (check that the directory is writable by this user)", reason=reason
        ) from exc


async def _open(path: Path, clock: Clock, busy_timeout_ms: int) -> Store:
    await asyncio.to_thread(_prepare_file, path)
    writer = await aiosqlite.connect(path, isolation_level=None)
    reader = await aiosqlite.connect(path, isolation_level=None)
    for conn in (writer, reader):
        conn.row_factory = sqlite3.Row
        await run(conn, f"PRAGMA busy_timeout = {busy_timeout_ms:d}")
        await run(conn, "PRAGMA foreign_keys = ON")
        # FULL, not NORMAL: in WAL mode NORMAL already survives a crash of this process, but a commit may
        # be lost on power failure. We answer "your move is in" only after the commit, so the fsync per
        # commit is the price of keeping that promise; moves are rare enough that it costs nothing visible.
        await run(conn, "PRAGMA synchronous = FULL")
    await run(reader, "PRAGMA query_only = ON")
    return Store(path, writer, reader, clock)


class Store(LadderQueries):
    """Async repository over one SQLite file. Create with `open_store`; one per process.

    Writes go through one connection under an asyncio.Lock, each in a BEGIN IMMEDIATE transaction; reads
    use a second, read-only connection, so they see only committed data and never wait for a write.
    """

    def __init__(self, path: Path, writer: aiosqlite.Connection, reader: aiosqlite.Connection, clock: Clock) -> None:
        self.path = path
        self._writer = writer
        self._reader = reader
        self._clock = clock
        self._write_lock = asyncio.Lock()
        self._read_lock = asyncio.Lock()

    @property
    def where(self) -> str:
        """The database file's absolute path."""
        return str(self.path.absolute())

    async def close(self) -> None:
        async with self._write_lock, self._read_lock:
            try:
                await run(self._writer, "PRAGMA optimize")  # refresh planner statistics where they went stale
            except sqlite3.Error as exc:
                raise translate(exc) from exc
            finally:
                await self._reader.close()
                await self._writer.close()

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction; a driver error anywhere in it (COMMIT included) rolls it back and leaves
        as a `StorageError` (a full disk or a lock timeout as `StorageUnavailable`)."""
        async with self._write_lock:
            try:
                await run(self._writer, "BEGIN IMMEDIATE")
                try:
                    yield self._writer
                    await run(self._writer, "COMMIT")
                except BaseException:
                    # Shielded so a cancelled task still rolls back before the lock is released (a failed
                    # COMMIT may already have ended the transaction, e.g. SQLITE_FULL rolls back by itself).
                    if self._writer.in_transaction:
                        await asyncio.shield(run(self._writer, "ROLLBACK"))
                    raise
            except sqlite3.Error as exc:
                raise translate(exc) from exc

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[aiosqlite.Connection]:
        """A read transaction: several SELECTs that see one consistent snapshot."""
        async with self._read_lock:
            try:
                await run(self._reader, "BEGIN")
                try:
                    yield self._reader
                finally:
                    await asyncio.shield(run(self._reader, "COMMIT"))
            except sqlite3.Error as exc:
                raise translate(exc) from exc

    # --- health ---------------------------------------------------------------------------------------

    async def integrity_check(self) -> str:
        """SQLite's verdict on the file: "ok", or the problems it found."""
        async with self._read() as db:
            rows = await db.execute_fetchall("PRAGMA integrity_check")
            fk = await db.execute_fetchall("PRAGMA foreign_key_check")
        problems = [str(row[0]) for row in rows if row[0] != "ok"]
        problems += [f"foreign key broken in {row[0]} row {row[1]}" for row in fk]
        return "\n".join(problems) if problems else "ok"

    async def schema_version(self) -> int:
        async with self._read() as db:
            rows = list(await db.execute_fetchall("PRAGMA user_version"))
        return int(rows[0][0])

    # --- guilds and players ----------------------------------------------------------------------------

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        async with self._read() as db:
            rows = list(
                await db.execute_fetchall(
                    "SELECT default_variant, turn_timer_seconds, locale FROM guilds WHERE guild_id = ?",
                    (guild_id,),
                )
            )
        if not rows:
            return GuildSettings(guild_id, None, None, None)
        return GuildSettings(guild_id, rows[0][0], rows[0][1], rows[0][2])

    async def update_guild_settings(
        self,
        guild_id: int,
        *,
        default_variant: str | Unchanged | None = UNCHANGED,
        turn_timer_seconds: int | Unchanged | None = UNCHANGED,
        locale: str | Unchanged | None = UNCHANGED,
    ) -> GuildSettings:
        """Change the given settings (None resets one to the bot's default) and return them all."""
        if isinstance(turn_timer_seconds, int) and turn_timer_seconds <= 0:
            raise ValueError(f"a turn timer is a positive number of seconds, not {turn_timer_seconds}")
        async with self._write() as db:
            await self._ensure_guild(db, guild_id)
            row = next(
                iter(
                    await db.execute_fetchall(
                        "SELECT default_variant, turn_timer_seconds, locale FROM guilds WHERE guild_id = ?", (guild_id,)
                    )
                )
            )
            new = GuildSettings(
                guild_id,
                row[0] if default_variant is UNCHANGED else default_variant,
                row[1] if turn_timer_seconds is UNCHANGED else turn_timer_seconds,
                row[2] if locale is UNCHANGED else locale,
            )
            await run(
                db,
                "UPDATE guilds SET default_variant = ?, turn_timer_seconds = ?, locale = ? WHERE guild_id = ?",
                (new.default_variant, new.turn_timer_seconds, new.locale, guild_id),
            )
        return new

    async def _ensure_guild(self, db: aiosqlite.Connection, guild_id: int) -> None:
        await run(
            db,
            "INSERT INTO guilds (guild_id, created_at) VALUES (?, ?) ON CONFLICT (guild_id) DO NOTHING",
            (guild_id, self._clock()),
        )

    async def set_channel_ranked(self, guild_id: int, channel_id: int, ranked: bool | None) -> None:
        """Allow (True) or forbid (False) ranked games in a channel; None removes the override."""
        async with self._write() as db:
            if ranked is None:
                await run(db, "DELETE FROM channel_settings WHERE channel_id = ?", (channel_id,))
                return
            await self._ensure_guild(db, guild_id)
            await run(
                db,
                "INSERT INTO channel_settings (channel_id, guild_id, ranked) VALUES (?, ?, ?) "
                "ON CONFLICT (channel_id) DO UPDATE SET ranked = excluded.ranked",
                (channel_id, guild_id, int(ranked)),
            )

    async def channel_ranked(self, channel_id: int) -> bool | None:
        """The channel's ranked override, or None when the channel has none."""
        async with self._read() as db:
            rows = list(
                await db.execute_fetchall("SELECT ranked FROM channel_settings WHERE channel_id = ?", (channel_id,))
            )
        return bool(rows[0][0]) if rows else None

    async def touch_player(self, user_id: int, display_name: str) -> None:
        """Record that a user acted now, under this name."""
        async with self._write() as db:
            await self._upsert_player(db, user_id, display_name)

    async def _upsert_player(self, db: aiosqlite.Connection, user_id: int, display_name: str) -> None:
        now = self._clock()
        await run(
            db,
            "INSERT INTO players (user_id, display_name, last_active, created_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET display_name = excluded.display_name, "
            "last_active = excluded.last_active",
            (user_id, display_name, now, now),
        )

    # --- games -----------------------------------------------------------------------------------------

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
    ) -> int:
        """Open a lobby and return the new game id."""
        now = self._clock()
        async with self._write() as db:
            if guild_id is not None:
                await self._ensure_guild(db, guild_id)
            cursor = await run(
                db,
                "INSERT INTO games (guild_id, channel_id, in_thread, message_id, status, host_id, ranked, "
                "variant, rules_json, turn_timer_seconds, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?)",
                (
                    guild_id,
                    channel_id,
                    int(in_thread),
                    message_id,
                    host_id,
                    int(ranked),
                    variant,
                    _dumps(dict(rules)),
                    turn_timer_seconds,
                    now,
                    now,
                ),
            )
            game_id = cast(int, cursor.lastrowid)
            for spec in seats:
                await self._put_seat(db, game_id, spec)
        return game_id

    async def _put_seat(self, db: aiosqlite.Connection, game_id: int, spec: SeatSpec) -> None:
        if spec.user_id is not None:
            await self._upsert_player(db, spec.user_id, spec.display_name)
        await run(
            db,
            "INSERT INTO seats (game_id, seat, user_id, ai_level, display_name) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (game_id, seat) DO UPDATE SET user_id = excluded.user_id, "
            "ai_level = excluded.ai_level, display_name = excluded.display_name",
            (game_id, spec.seat, spec.user_id, spec.ai_level, spec.display_name),
        )

    async def _status(self, db: aiosqlite.Connection, game_id: int) -> tuple[str, int]:
        rows = list(await db.execute_fetchall("SELECT status, last_seq FROM games WHERE game_id = ?", (game_id,)))
        if not rows:
            raise GameNotFound(f"there is no game {game_id}")
        return rows[0][0], rows[0][1]

    async def _require(self, db: aiosqlite.Connection, game_id: int, *allowed: str) -> int:
        status, last_seq = await self._status(db, game_id)
        if status not in allowed:
            raise GameStateError(f"game {game_id} is {status}; this needs it to be {' or '.join(allowed)}")
        return last_seq

    async def set_seat(self, game_id: int, spec: SeatSpec) -> None:
        """Fill or replace a seat while the game is a lobby.

        Once running, seats never change hands: an AI taking over a seat is an 'ai_takeover' event
        ({"seat": "B1", ...}) and the seat keeps its human, whose history still shows the game.
        """
        async with self._write() as db:
            await self._require(db, game_id, "lobby")
            await self._put_seat(db, game_id, spec)
            await self._touch_game(db, game_id)

    async def remove_seat(self, game_id: int, seat: str) -> None:
        async with self._write() as db:
            await self._require(db, game_id, "lobby")
            await run(db, "DELETE FROM seats WHERE game_id = ? AND seat = ?", (game_id, seat))
            await self._touch_game(db, game_id)

    async def _touch_game(self, db: aiosqlite.Connection, game_id: int) -> None:
        await run(db, "UPDATE games SET updated_at = ? WHERE game_id = ?", (self._clock(), game_id))

    async def set_message(self, game_id: int, message_id: int | None, *, in_thread: bool | None = None) -> None:
        """Remember which message shows the game now (and whether it lives in a thread)."""
        async with self._write() as db:
            await self._status(db, game_id)
            await run(
                db,
                "UPDATE games SET message_id = ?, in_thread = coalesce(?, in_thread), updated_at = ? WHERE game_id = ?",
                (message_id, None if in_thread is None else int(in_thread), self._clock(), game_id),
            )

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
        async with self._write() as db:
            await self._require(db, game_id, "lobby")
            await run(
                db,
                "UPDATE games SET status = 'running', first_team = ?, throw_off_json = ?, seed = ?, "
                "snapshot_ppn = ?, snapshot_seq = 0, turn_deadline = ?, "
                "rules_json = coalesce(?, rules_json), updated_at = ? WHERE game_id = ?",
                (
                    first_team,
                    _dumps(list(throw_off)),
                    seed,
                    snapshot_ppn,
                    turn_deadline,
                    None if rules is None else _dumps(dict(rules)),
                    self._clock(),
                    game_id,
                ),
            )

    async def append_event(
        self,
        game_id: int,
        seq: int,
        kind: str,
        payload: Mapping[str, Any],
        *,
        snapshot_ppn: str | None = None,
        turn_deadline: float | Unchanged | None = UNCHANGED,
        timeouts: Mapping[str, int] | None = None,
    ) -> Event:
        """Append one event as number `seq`; raises DuplicateEvent if that number is taken."""
        events = await self.append_events(
            game_id,
            seq,
            [NewEvent(kind, dict(payload))],
            snapshot_ppn=snapshot_ppn,
            turn_deadline=turn_deadline,
            timeouts=timeouts,
        )
        return events[0]

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
        for event in events:
            if event.kind not in EVENT_KINDS:
                raise UnknownEventKind(f"unknown event kind {event.kind!r}; expected one of {sorted(EVENT_KINDS)}")
        async with self._write() as db:
            return await self._append(db, game_id, first_seq, events, snapshot_ppn, turn_deadline, timeouts)

    async def _append(
        self,
        db: aiosqlite.Connection,
        game_id: int,
        first_seq: int,
        events: Sequence[NewEvent],
        snapshot_ppn: str | None,
        turn_deadline: float | Unchanged | None,
        timeouts: Mapping[str, int] | None,
    ) -> tuple[Event, ...]:
        now = self._clock()
        last_seq = first_seq + len(events) - 1
        keep_deadline = turn_deadline is UNCHANGED
        # Compare-and-set on last_seq first: the common path is one UPDATE and one INSERT, and the reason
        # for a refusal is looked up only when it happens.
        cursor = await run(
            db,
            "UPDATE games SET last_seq = ?, "
            "snapshot_ppn = CASE WHEN ? IS NULL THEN snapshot_ppn ELSE ? END, "
            "snapshot_seq = CASE WHEN ? IS NULL THEN snapshot_seq ELSE ? END, "
            "turn_deadline = CASE WHEN ? THEN turn_deadline ELSE ? END, updated_at = ? "
            "WHERE game_id = ? AND status = 'running' AND last_seq = ?",
            (
                last_seq,
                snapshot_ppn,
                snapshot_ppn,
                snapshot_ppn,
                last_seq,
                int(keep_deadline),
                None if keep_deadline else turn_deadline,
                now,
                game_id,
                first_seq - 1,
            ),
        )
        if cursor.rowcount != 1:
            known = await self._require(db, game_id, "running")
            if first_seq <= known:
                raise DuplicateEvent(f"game {game_id} already has event {first_seq}; the log is at {known}")
            raise EventGap(f"game {game_id} expects event {known + 1} next, not {first_seq}")
        written = tuple(Event(first_seq + i, e.kind, e.payload, now) for i, e in enumerate(events))
        try:
            await run_many(
                db,
                "INSERT INTO events (game_id, seq, kind, payload, created_at) VALUES (?, ?, ?, ?, ?)",
                [(game_id, e.seq, e.kind, _dumps(e.payload), now) for e in written],
            )
        except sqlite3.IntegrityError as error:  # the UNIQUE (game_id, seq) guard, should last_seq lie
            raise DuplicateEvent(f"game {game_id} already has one of events {first_seq}..{last_seq}") from error
        for seat, count in (timeouts or {}).items():
            await run(
                db,
                "UPDATE seats SET consecutive_timeouts = ? WHERE game_id = ? AND seat = ?",
                (count, game_id, seat),
            )
        return written

    async def cancel_game(self, game_id: int, payload: Mapping[str, Any] | None = None) -> None:
        """Cancel a lobby or running game; a running one gets a final 'cancel' event in its log."""
        now = self._clock()
        async with self._write() as db:
            status, last_seq = await self._status(db, game_id)
            if status == "running":
                await self._append(
                    db, game_id, last_seq + 1, [NewEvent("cancel", dict(payload or {}))], None, None, None
                )
            elif status != "lobby":
                raise GameStateError(f"game {game_id} is already {status}")
            await run(
                db,
                "UPDATE games SET status = 'cancelled', end_reason = 'cancelled', turn_deadline = NULL, "
                "finished_at = ?, updated_at = ? WHERE game_id = ?",
                (now, now, game_id),
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
        for event in events:
            if event.kind not in EVENT_KINDS:
                raise UnknownEventKind(f"unknown event kind {event.kind!r}")
        now = self._clock()
        async with self._write() as db:
            if events:
                if first_seq is None:
                    raise ValueError("first_seq is needed with events")
                await self._append(db, game_id, first_seq, events, snapshot_ppn, None, None)
            else:
                await self._require(db, game_id, "running")
            await run(
                db,
                "UPDATE games SET status = 'finished', winner = ?, score_a = ?, score_b = ?, end_reason = ?, "
                "turn_deadline = NULL, finished_at = ?, updated_at = ? WHERE game_id = ?",
                (winner, scores.get("A", 0), scores.get("B", 0), end_reason, now, now, game_id),
            )
            for seat, count in (kills or {}).items():
                await run(db, "UPDATE seats SET kills = ? WHERE game_id = ? AND seat = ?", (count, game_id, seat))
            return await self._rate(db, game_id, winner, now)

    # --- reading games ---------------------------------------------------------------------------------

    async def get_game(self, game_id: int) -> Game:
        async with self._read() as db:
            games = await self._load_games(db, "game_id = ?", (game_id,))
        if not games:
            raise GameNotFound(f"there is no game {game_id}")
        return games[0]

    async def game_log(self, game_id: int) -> GameLog:
        """A game and its whole event log (for replays and records)."""
        async with self._read() as db:
            games = await self._load_games(db, "game_id = ?", (game_id,))
            if not games:
                raise GameNotFound(f"there is no game {game_id}")
            rows = await db.execute_fetchall(
                "SELECT seq, kind, payload, created_at FROM events WHERE game_id = ? ORDER BY seq", (game_id,)
            )
        return GameLog(games[0], tuple(Event(r[0], r[1], json.loads(r[2]), r[3]) for r in rows))

    async def open_games(self) -> tuple[GameLog, ...]:
        """Every lobby and running game with its log: what start-up rebuilds."""
        open_ = "status IN ('lobby', 'running')"
        async with self._read() as db:
            games = await self._load_games(db, open_, ())
            rows = await db.execute_fetchall(
                "SELECT e.game_id, e.seq, e.kind, e.payload, e.created_at FROM games g "
                f"JOIN events e ON e.game_id = g.game_id WHERE g.{open_} ORDER BY e.game_id, e.seq"
            )
        events: dict[int, list[Event]] = {}
        for r in rows:
            events.setdefault(r[0], []).append(Event(r[1], r[2], json.loads(r[3]), r[4]))
        return tuple(GameLog(g, tuple(events.get(g.game_id, ()))) for g in games)

    async def _load_games(self, db: aiosqlite.Connection, where: str, params: Sequence[Any]) -> list[Game]:
        # `where` is one of this module's literal conditions; values always arrive as bound parameters.
        game_rows = list(await db.execute_fetchall(f"SELECT * FROM games WHERE {where} ORDER BY game_id", params))
        seat_rows = await db.execute_fetchall(
            "SELECT s.game_id, s.seat, s.user_id, s.ai_level, s.display_name, s.consecutive_timeouts, s.kills "
            f"FROM games g JOIN seats s ON s.game_id = g.game_id WHERE g.{where}",
            params,
        )
        seats: dict[int, list[Seat]] = {}
        for r in seat_rows:
            seats.setdefault(r[0], []).append(Seat(r[1], r[2], r[3], r[4], r[5], r[6]))
        return [_game_from_row(r, seats.get(r["game_id"], [])) for r in game_rows]

    async def moves_played(self, game_id: int) -> int:
        async with self._read() as db:
            rows = list(
                await db.execute_fetchall("SELECT count(*) FROM events WHERE game_id = ? AND kind = 'move'", (game_id,))
            )
        return int(rows[0][0])


def _seat_order(seat: Seat) -> tuple[int, str]:
    return int(seat.seat[1:]), seat.seat[0]  # turn order A1, B1, A2, B2, ...


def _game_from_row(r: sqlite3.Row, seats: Iterable[Seat]) -> Game:
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
        seats=tuple(sorted(seats, key=_seat_order)),
    )
