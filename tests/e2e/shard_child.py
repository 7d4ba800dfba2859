"""A child process of the shard tests: one bot process's game layer on shards of a PostgreSQL deployment.

Run as `python -m tests.e2e.shard_child DATABASE_URL SHARD_COUNT SHARD_IDS GUILD_ID PLAYER_BASE SEED`. It opens
the database, claims its shards (printing {"refused": message} and exiting 3 when another live process holds
one), reloads the open games of its shards, and plays ranked 1 v 1 games in its server between players
PLAYER_BASE and PLAYER_BASE + 1, one after the other, a move as fast as the database commits. After every saved
action it prints one JSON line and flushes it; the parent kills it with SIGKILL whenever it likes.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys

from bot.sessions import GameOptions, Limits, Place, Player, SessionManager
from bot.storage import Shards, ShardsTaken, open_storage
from bot.storage.shards import parse_shard_ids
from tests.helpers import first_legal, seed_sequence

CHANNEL = 1


def report(line: dict[str, object]) -> None:
    sys.stdout.write(json.dumps(line, separators=(",", ":")) + "\n")
    sys.stdout.flush()


async def main(url: str, shards: Shards, guild_id: int, base: int, seed: int) -> int:
    store = await open_storage(url)
    try:
        await store.claim_shards(shards)
    except ShardsTaken as exc:
        report({"refused": str(exc)})
        await store.close()
        return 3
    manager = SessionManager(store, picker=first_legal, seeds=seed_sequence(seed), shards=shards,
                             limits=Limits(ai_delay=0.0))
    loaded = await manager.load()
    host, guest = Player(base, f"host{base}"), Player(base + 1, f"guest{base}")
    place = Place(guild_id=guild_id, channel_id=guild_id + CHANNEL)
    report({"ready": loaded, "games": [s.game_id for s in manager.sessions]})
    rng = random.Random(seed)
    while True:
        session = manager.in_channel(place.channel_id)
        if session is None:
            lobby = await manager.open_lobby(host, place, GameOptions(ranked=True))
            session = manager.get(lobby.game_id)
            await session.join(guest)
            await session.start(host.user_id, manager.seeds())
            report({"started": session.game_id})
            continue
        if session.state.status == "lobby":  # killed between the lobby and its start
            if session.state.seat_of(guest.user_id) is None:
                await session.join(guest)
            await session.start(host.user_id, manager.seeds())
        state = session.state
        if state.position is not None and state.position.must_throw:
            await manager.fire_due()  # started, but killed before the first throw was saved
            continue
        mover = state.to_move
        assert mover is not None and mover.user_id is not None
        option = rng.choice(state.legal_options())
        after = (await session.play(mover.user_id, option.notation, turn=state.seq)).state
        report({"game": after.game_id, "seq": after.seq, "status": after.status, "winner": after.winner})


if __name__ == "__main__":
    db_url, count, ids, guild, player_base, game_seed = sys.argv[1:7]
    shard_count = int(count)
    sys.exit(asyncio.run(main(db_url, Shards(shard_count, parse_shard_ids(ids, shard_count)), int(guild),
                              int(player_base), int(game_seed))))
