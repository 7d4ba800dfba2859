"""Crash safety: a bot process killed with SIGKILL in the middle of a burst of moves loses nothing it confirmed.

A child process (`tests/e2e/crash_child.py`) runs the real session layer on the real SQLite storage and prints
every move the session layer acknowledged. We kill it mid-burst, three times, each run continuing the games
the previous one left. After each kill the database must pass `PRAGMA integrity_check`, hold every
acknowledged move at its place with the position the player was shown, and hold no half-applied turn (a move
saved without the throw that follows it, or a snapshot that disagrees with the log). Finally the games are
loaded by a fresh `SessionManager` and played to their end.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import sqlite3
import sys
from collections import defaultdict
from contextlib import closing
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from bot.sessions import Limits, SessionManager
from bot.sessions.rebuild import state_from_log
from bot.storage import Storage
from bot.storage.types import GameLog
from tests.e2e.crash_child import players, resume
from tests.helpers import first_legal, open_sqlite, present, seed_sequence

REPO_ROOT = Path(__file__).resolve().parents[2]
GAMES = 6
# SIGKILL after this many acknowledged moves in each run; later runs go further to reach finished games.
KILL_AFTER = (40, 120, 250)
READ_TIMEOUT = 60.0


@dataclass(frozen=True)
class Ack:
    game: int
    move_seq: int
    move: str
    seq: int
    ppn: str
    status: str


async def burst_then_kill(db: Path, kill_after: int, seed: int) -> tuple[int, list[Ack]]:
    """Run the child until it acknowledged `kill_after` moves, SIGKILL it; return how many open games it
    reloaded at its start and the moves it acknowledged."""
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.e2e.crash_child", str(db), str(GAMES), str(seed),
        cwd=REPO_ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    assert child.stdout is not None and child.stderr is not None
    acks: list[Ack] = []
    reloaded = -1
    try:
        while len(acks) < kill_after:
            line = await asyncio.wait_for(child.stdout.readline(), READ_TIMEOUT)
            if not line:
                error = (await child.stderr.read()).decode(errors="replace")
                raise AssertionError(f"the child stopped before it was killed:\n{error}")
            message: dict[str, Any] = json.loads(line)
            if "move" in message:
                acks.append(Ack(**message))
            elif "ready" in message:
                reloaded = message["ready"]
    finally:
        if child.returncode is None:
            os.kill(child.pid, signal.SIGKILL)
        await child.wait()
    assert child.returncode == -signal.SIGKILL
    # Lines already in the pipe were acknowledged before the kill too: they count as promises made.
    for line in (await child.stdout.read()).splitlines():
        if line.strip():
            message = json.loads(line)
            if "move" in message:
                acks.append(Ack(**message))
    return reloaded, acks


def assert_integrity(db: Path) -> None:
    # A plain sqlite3 connection replays the WAL the killed process left, as the next bot start would.
    with closing(sqlite3.connect(db)) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []


def position_after(log: GameLog, seq: int) -> str:
    """The position a game had after event `seq`, replayed by the bot's own reload code."""
    game = replace(log.game, status="running", last_seq=seq, snapshot_ppn=None)
    state = state_from_log(GameLog(game, log.events[:seq]))
    assert state.position is not None
    return state.position.to_ppn()


async def all_logs(storage: Storage, db: Path) -> dict[int, GameLog]:
    with closing(sqlite3.connect(db)) as conn:
        ids = [row[0] for row in conn.execute("SELECT game_id FROM games ORDER BY game_id")]
    return {game_id: await storage.games.game_log(game_id) for game_id in ids}


def assert_no_half_applied_turn(log: GameLog) -> None:
    game = log.game
    assert [e.seq for e in log.events] == list(range(1, game.last_seq + 1)), f"game {game.game_id}: gap in the log"
    if game.status == "lobby":
        assert not log.events
        return
    state = state_from_log(log)
    assert state.position is not None
    if game.last_seq:
        # The snapshot is written in the same transaction as the events, so it always matches the log.
        assert game.snapshot_seq == game.last_seq
        assert game.snapshot_ppn == state.position.to_ppn()
    if game.status == "finished":
        assert state.position.is_over and game.winner == present(state.position.outcome()).winner
    elif game.status == "running" and game.last_seq:
        # A move is saved together with the next player's throw: a running game never waits on a throw.
        assert log.events[-1].kind == "throw", f"game {game.game_id} ends its log with {log.events[-1].kind}"
        assert not state.position.must_throw and state.position.legal_moves()
    # (A running game with an empty log was killed between its start and its first throw; the bot's
    # deadline throws for it on the next start, which `continue_every_game` proves.)


def assert_acks_kept(logs: dict[int, GameLog], acks: list[Ack]) -> None:
    by_game: dict[int, list[Ack]] = defaultdict(list)
    for ack in acks:
        by_game[ack.game].append(ack)
    for game_id, game_acks in by_game.items():
        log = logs[game_id]
        for ack in game_acks:
            event = log.events[ack.move_seq - 1]
            assert (event.kind, event.payload["move"]) == ("move", ack.move), f"game {game_id}: lost {ack}"
            assert log.game.last_seq >= ack.seq
            assert position_after(log, ack.seq) == ack.ppn, f"game {game_id}: moved away from {ack}"
            if ack.status == "finished":
                assert log.game.status == "finished"
        # Each channel moves one at a time, so at most the one move in flight at the kill went unconfirmed.
        last = max(ack.move_seq for ack in game_acks)
        unconfirmed = [e for e in log.events if e.kind == "move" and e.seq > last]
        assert len(unconfirmed) <= 1, f"game {game_id}: {len(unconfirmed)} moves nobody was told about"


async def check_after_kill(db: Path, acks: list[Ack]) -> None:
    assert_integrity(db)
    storage = await open_sqlite(db)
    try:
        logs = await all_logs(storage, db)
        for log in logs.values():
            assert_no_half_applied_turn(log)
        assert_acks_kept(logs, acks)
    finally:
        await storage.close()


async def continue_every_game(db: Path) -> int:
    """Load the open games as a restarted bot would and play each one to its end; return how many."""
    storage = await open_sqlite(db)
    try:
        manager = SessionManager(storage.games, picker=first_legal, seeds=seed_sequence(99),
                                 limits=Limits(max_open_per_host=2, ai_delay=0.0))
        loaded = await manager.load()
        rng = random.Random(5)
        for session in manager.sessions:
            channel = session.state.place.channel_id
            await resume(manager, session, channel)
            humans = {player.user_id for player in players(channel)}
            finished = None
            for _ in range(5_000):
                state = session.state
                if state.status != "running":
                    break
                mover = state.to_move
                assert mover is not None and mover.user_id in humans
                result = await session.play(mover.user_id, rng.choice(state.legal_options()).notation, turn=state.seq)
                finished = result.finished
            assert session.state.status == "finished", f"game {session.game_id} did not end"
            assert finished is not None and finished.winner == session.state.winner
        assert not manager.sessions  # finished games leave the manager
        assert await storage.integrity_check() == "ok"
        return loaded
    finally:
        await storage.close()


async def test_sigkill_mid_burst_keeps_every_acknowledged_move_and_no_half_turn(tmp_path: Path) -> None:
    db = tmp_path / "data" / "puluc.db"
    acknowledged: list[Ack] = []
    for run, kill_after in enumerate(KILL_AFTER):
        reloaded, acks = await burst_then_kill(db, kill_after, seed=run)
        # Every channel always has one open game, so each run after the first continues all of them.
        assert reloaded == (0 if run == 0 else GAMES)
        acknowledged += acks
        await check_after_kill(db, acknowledged)

    assert len({ack.game for ack in acknowledged}) >= GAMES
    assert await continue_every_game(db) >= GAMES
    assert_integrity(db)
