"""A second bot process for the storage tests: `python -m tests.bot.storage.child MODE DATABASE_URL ...`.

    write URL             append events to one running game forever, printing each number once committed
    rate URL SEED GAMES   play GAMES ranked duels among users 1..4 (pairs drawn with SEED), printing "done N"
                          with N the games that were rated

The tests kill the writer with SIGKILL mid-stream, and run two raters at once against one database.
"""

from __future__ import annotations

import asyncio
import random
import sys

from bot.storage import open_storage
from bot.storage.types import NewEvent, SeatSpec

RATED_USERS = (1, 2, 3, 4)


async def write(url: str) -> None:
    storage = await open_storage(url)
    game_id = await storage.games.create_game(
        guild_id=1, channel_id=2, host_id=1, variant="bell", rules={}, turn_timer_seconds=60,
        seats=[SeatSpec("A1", "a", user_id=1), SeatSpec("B1", "b", user_id=2)],
    )
    await storage.games.start_game(game_id, first_team="A", throw_off=[], seed=None, snapshot_ppn="p0",
                                   turn_deadline=None)
    seq = 0
    while True:
        seq += 1
        await storage.games.append_events(game_id, seq, [NewEvent("move", {"move": "1:H"})], snapshot_ppn=f"p{seq}")
        print(seq, flush=True)  # acknowledged: the commit has returned


async def rate(url: str, seed: int, games: int) -> None:
    storage = await open_storage(url)
    rng = random.Random(seed)
    rated = 0
    try:
        for _ in range(games):
            a, b = rng.sample(RATED_USERS, 2)
            game_id = await storage.games.create_game(
                guild_id=7, channel_id=8, host_id=a, variant="bell", rules={}, turn_timer_seconds=60, ranked=True,
                seats=[SeatSpec("A1", f"user{a}", user_id=a), SeatSpec("B1", f"user{b}", user_id=b)],
            )
            await storage.games.start_game(game_id, first_team="A", throw_off=[], seed=None, snapshot_ppn="s",
                                     turn_deadline=None)
            await storage.games.append_events(game_id, 1, [NewEvent("move", {"move": "1:H"})] * 6)
            report = await storage.games.finish_game(game_id, winner=rng.choice(["A", "B"]), scores={"A": 1, "B": 0},
                                               end_reason="normal")
            # The same two players count only REPEAT_LIMIT times in 24 hours: later games are unranked.
            rated += report.unranked is None
    finally:
        await storage.close()
    print(f"done {rated}", flush=True)


if __name__ == "__main__":
    mode, url = sys.argv[1], sys.argv[2]
    if mode == "write":
        asyncio.run(write(url))
    else:
        asyncio.run(rate(url, int(sys.argv[3]), int(sys.argv[4])))
