"""Session-layer speed: `python benchmarks/sessions.py [--games N]`.

Plays whole random 1 v 1 games through `GameSession.play` (validate, apply the move, throw for the next
player, save everything in one transaction, swap the state) on the real SQLite storage, and prints the median
and p95 time of one move. What a click costs before the board is drawn; Discord allows 3 s for the first
answer, and the click is deferred at once anyway. One game is played first and not timed (imports, the
database's first pages, Python's caches: a running bot has them warm); every timed game has its own seed, so
no two play the same moves. Prints numbers; never asserts.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from pathlib import Path

from percentiles import percentile  # benchmarks/percentiles.py: the one definition

from bot.sessions import GameOptions, Place, Player, SessionManager
from bot.sessions.ports import GameRecords
from bot.storage import open_storage
from bot.storage.urls import SqliteUrl
from puluc import Move, Position


async def _random_move(position: Position, level: str, rng: random.Random) -> Move:
    return rng.choice(position.legal_moves())


async def _measure(games_store: GameRecords, games: int) -> list[float]:
    """Seconds per move over `games` games, after one game that is not timed."""
    seeds = iter(range(1, 1_000_000))
    manager = SessionManager(games_store, picker=_random_move, seeds=lambda: next(seeds))
    await _play_game(manager, 0, [])  # warm-up
    times: list[float] = []
    for number in range(1, games + 1):
        await _play_game(manager, number, times)
    return sorted(times)


async def _play_game(manager: SessionManager, number: int, times: list[float]) -> None:
    """One whole random game in its own channel; appends the seconds each move took to `times`."""
    lobby = await manager.open_lobby(Player(1, "a"), Place(1, 100 + number), GameOptions())
    session = manager.get(lobby.game_id)
    await session.join(Player(2, "b"))
    await session.start(1, manager.seeds())
    rng = random.Random(number)
    while session.state.status == "running":
        state = session.state
        mover = state.to_move
        assert mover is not None and mover.user_id is not None
        started = time.perf_counter()
        await session.play(mover.user_id, rng.choice(state.legal_options()).notation, turn=state.seq)
        times.append(time.perf_counter() - started)


def _report(label: str, times: list[float]) -> None:
    print(f"{label:28} {len(times):6d} moves   p50 {percentile(times, 50) * 1000:6.2f} ms   "
          f"p95 {percentile(times, 95) * 1000:6.2f} ms")


async def main(games: int) -> None:
    with tempfile.TemporaryDirectory() as directory:
        storage = await open_storage(SqliteUrl(Path(directory) / "puluc.db"))
        try:
            _report("SQLite storage (fsync/commit)", await _measure(storage.games, games))
        finally:
            await storage.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="games (default 10)")
    asyncio.run(main(parser.parse_args().games))
