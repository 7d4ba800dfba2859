"""Boards drawn per second through the bot's worker pool (`bot.compute`), as when players click as fast as
they can: every game message's board (names, throws, badges and the "who is ahead" bar) of real games,
submitted all at once, with WORKERS=0 (threads of one process), 1, 2, ...

Run by hand: `python benchmarks/workers.py [--workers 0 1 2] [--boards 400] [--bar-ms 4]`. Prints numbers
and the machine's load, asserts nothing. Goal (issue 21, b): WORKERS=2 draws at least 1.8x the boards per
second of WORKERS=1 on a 2-core machine.

Besides the rates it prints the CPU time each board costs this process (handing the job to a worker and
taking its picture back) and the workers (drawing, the bar's search), and what those allow on idle cores:
with C cores, a board costing this process M and a worker W ms, k workers draw at most
1000 / max(W / k, M, (W + M) / C) boards per second. On 2 cores WORKERS=2 / WORKERS=1 is therefore at most
2 W / (W + M) (when M < W): 1.8x needs M <= W / 9, and the cheaper a board, the harder that is.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from load_probes import board_rate_bound, cpu_seconds, descendants
from percentiles import percentile  # benchmarks/percentiles.py: the one definition

from bot.app import WORKER_PRELOAD
from bot.cogs.games.boards import board_request
from bot.compute import ComputePool
from bot.config_spec import ADVANTAGE_BAR_MS
from bot.sessions import GameOptions, GameState, Place, Player, SessionManager
from bot.storage import open_storage
from bot.storage.urls import SqliteUrl
from bot.ui.pictures import draw_board, warm_up
from puluc import Move, Position


async def first_legal(position: Position, level: str, rng: random.Random) -> Move:
    return position.legal_moves()[0]


async def game_states(games: int) -> list[GameState]:
    """Every state of `games` Bell games between two people playing random legal moves (seeded)."""
    with tempfile.TemporaryDirectory() as directory:
        storage = await open_storage(SqliteUrl(Path(directory) / "puluc.db"))
        try:
            return await _played_states(SessionManager(storage.games, picker=first_legal, seeds=_seeds()), games)
        finally:
            await storage.close()


def _seeds() -> Callable[[], int]:
    seeds = iter(range(1, 10_000))
    return lambda: next(seeds)


async def _played_states(manager: SessionManager, games: int) -> list[GameState]:
    found: list[GameState] = []
    for number in range(games):
        rng = random.Random(number)
        alice, bob = Player(10 + 2 * number, "alice"), Player(11 + 2 * number, "bob")
        lobby = await manager.open_lobby(alice, Place(guild_id=1, channel_id=100 + number), GameOptions())
        session = manager.get(lobby.game_id)
        await session.join(bob)
        result = await session.start(alice.user_id, manager.seeds())
        while result.state.status == "running":
            state = result.state
            found.append(state)
            seat = state.to_move
            assert seat is not None and seat.user_id is not None
            result = await session.play(seat.user_id, rng.choice(state.legal_options()).notation, turn=state.seq)
    return found


async def measure(workers: int, states: list[GameState], bar_ms: float) -> tuple[float, float, float]:
    """Boards per second, and the CPU milliseconds per board of this process and of the workers."""
    pool = ComputePool(workers, warm_up=partial(warm_up, None), preload=WORKER_PRELOAD)
    started = await pool.start()
    await asyncio.gather(*(pool.run(draw_board, board_request(state, None, bar_ms, "en")) for state in states[:20]))
    pids = descendants(os.getpid())  # the workers (and the idle fork server)
    main_before, workers_before = time.process_time(), sum(cpu_seconds(pid) for pid in pids)

    async def one(state: GameState) -> float:
        began = time.perf_counter()
        # As the presenter does: the request is made in this process, the board drawn in a worker.
        await pool.run(draw_board, board_request(state, None, bar_ms, "en"))
        return time.perf_counter() - began

    began = time.perf_counter()
    waits = await asyncio.gather(*(one(state) for state in states))
    seconds = time.perf_counter() - began
    main_ms = 1000 * (time.process_time() - main_before) / len(states)
    workers_ms = 1000 * (sum(cpu_seconds(pid) for pid in pids) - workers_before) / len(states)
    await pool.close()
    ms = sorted(1000 * w for w in waits)
    rate = len(states) / seconds
    print(f"WORKERS={workers} ({pool.method if workers else 'threads'}): {rate:7.1f} boards/s, "
          f"{len(states)} boards in {seconds:.2f} s; click-to-picture p50 {percentile(ms, 50):.0f} ms, "
          f"p99 {percentile(ms, 99):.0f} ms; start {started:.2f} s; CPU per board: this process {main_ms:.2f} ms"
          + (f", the workers {workers_ms:.2f} ms" if workers else ""))
    return rate, main_ms, workers_ms


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--boards", type=int, default=400)
    parser.add_argument("--bar-ms", type=float, default=ADVANTAGE_BAR_MS.default,
                        help="ADVANTAGE_BAR_MS (thinking per board; default: the setting's)")
    args = parser.parse_args()
    states: list[GameState] = []
    games = 4
    while len(states) < args.boards:
        states = await game_states(games)
        games *= 2
    states = states[: args.boards]
    print(f"{len(states)} boards, ADVANTAGE_BAR_MS={args.bar_ms:g}, {os.cpu_count()} cores, "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    found = {workers: await measure(workers, states, args.bar_ms) for workers in args.workers}
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    cores = len(os.sched_getaffinity(0))
    if 1 in found and 2 in found:
        print(f"WORKERS=2 / WORKERS=1: {found[2][0] / found[1][0]:.2f}x measured")
    if 1 in found:
        # The CPU per board measured with one worker (the least disturbed by a second one), on an idle machine.
        _rate, main_ms, worker_ms = found[1]
        one, two = board_rate_bound(cores, 1, main_ms, worker_ms), board_rate_bound(cores, 2, main_ms, worker_ms)
        print(f"bound from the CPU per board on {cores} idle cores: WORKERS=1 {one:.0f} boards/s, WORKERS=2 "
              f"{two:.0f} boards/s = {two / one:.2f}x (this process's share of a board's CPU: "
              f"{100 * main_ms / (main_ms + worker_ms):.0f}%)")


if __name__ == "__main__":
    asyncio.run(main())
