"""Boards drawn per second through the bot's worker pool (`bot.compute`), as when players click as fast as
they can: every game message's board (names, throws, badges and the "who is ahead" bar) of real games,
submitted all at once, with WORKERS=0 (threads of one process), 1, 2, ...

Run by hand: `python benchmarks/workers.py [--workers 0 1 2] [--boards 400] [--bar-ms 10]`. Prints numbers
and the machine's load, asserts nothing. Goal (issue 21, b): WORKERS=2 draws at least 1.8x the boards per
second of WORKERS=1 on a 2-core machine.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import time
from functools import partial

from percentiles import percentile  # benchmarks/percentiles.py: the one definition

from bot.app import WORKER_PRELOAD
from bot.compute import ComputePool
from bot.sessions import GameOptions, GameState, Place, Player, SessionManager
from bot.storage.memory import MemoryStorage
from bot.ui.boards import render_png, warm_up
from puluc import Move, Position


async def first_legal(position: Position, level: str, rng: random.Random) -> Move:
    return position.legal_moves()[0]


async def game_states(games: int) -> list[GameState]:
    """Every state of `games` Bell games between two people playing random legal moves (seeded)."""
    found: list[GameState] = []
    seeds = iter(range(1, 10_000))
    manager = SessionManager(MemoryStorage(), picker=first_legal, seeds=lambda: next(seeds))
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


async def measure(workers: int, states: list[GameState], bar_ms: float) -> None:
    pool = ComputePool(workers, warm_up=partial(warm_up, None), preload=WORKER_PRELOAD)
    started = await pool.start()
    await asyncio.gather(*(pool.run(render_png, state, None, bar_ms, "en") for state in states[:20]))

    async def one(state: GameState) -> float:
        began = time.perf_counter()
        await pool.run(render_png, state, None, bar_ms, "en")
        return time.perf_counter() - began

    began = time.perf_counter()
    waits = await asyncio.gather(*(one(state) for state in states))
    seconds = time.perf_counter() - began
    await pool.close()
    ms = sorted(1000 * w for w in waits)
    print(f"WORKERS={workers} ({pool.method if workers else 'threads'}): {len(states) / seconds:7.1f} boards/s, "
          f"{len(states)} boards in {seconds:.2f} s; click-to-picture p50 {percentile(ms, 50):.0f} ms, "
          f"p99 {percentile(ms, 99):.0f} ms; start {started:.2f} s")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--boards", type=int, default=400)
    parser.add_argument("--bar-ms", type=float, default=10.0, help="ADVANTAGE_BAR_MS (thinking per board)")
    args = parser.parse_args()
    states: list[GameState] = []
    games = 4
    while len(states) < args.boards:
        states = await game_states(games)
        games *= 2
    states = states[: args.boards]
    print(f"{len(states)} boards, ADVANTAGE_BAR_MS={args.bar_ms:g}, {os.cpu_count()} cores, "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for workers in args.workers:
        await measure(workers, states, args.bar_ms)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    asyncio.run(main())
