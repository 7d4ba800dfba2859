"""The child process of the crash-safety test: a burst of moves through the real session layer and storage.

Run as `python -m tests.e2e.crash_child DB_PATH GAMES SEED`. It opens the SQLite storage, reloads every open
game (so a second run continues where a killed one stopped), keeps one running 1 v 1 game in each of
GAMES channels, and has every channel's players move as fast as the storage commits, all channels at once.
After each action the session layer acknowledges (the point where the bot would tell the player "your move
is in"), it prints one JSON line on stdout and flushes it. The parent kills it with SIGKILL mid-burst.
It must never print anything before the action it reports has returned.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
from pathlib import Path

from bot.sessions import GameOptions, GameSession, Limits, Place, Player, SessionManager
from tests.helpers import first_legal, open_sqlite, present, seed_sequence  # first_legal: no seat is played by the AI

GUILD_ID = 77


def channel_place(channel: int) -> Place:
    return Place(guild_id=GUILD_ID, channel_id=channel)


def players(channel: int) -> tuple[Player, Player]:
    """Each channel has its own pair, so no host reaches the open-games limit."""
    return Player(10_000 + channel, f"host{channel}"), Player(20_000 + channel, f"guest{channel}")


def report(line: dict[str, object]) -> None:
    sys.stdout.write(json.dumps(line, separators=(",", ":")) + "\n")
    sys.stdout.flush()


async def new_game(manager: SessionManager, channel: int) -> GameSession:
    host, guest = players(channel)
    # Even channels play ranked, so finishing a game also writes ratings in the same transaction.
    lobby = await manager.open_lobby(host, channel_place(channel), GameOptions(ranked=channel % 2 == 0))
    session = manager.get(lobby.game_id)
    await session.join(guest)
    await session.start(host.user_id, manager.seeds())
    return session


async def resume(manager: SessionManager, session: GameSession, channel: int) -> None:
    """Bring a game a kill interrupted between its set-up steps to the point where someone can move."""
    host, guest = players(channel)
    if session.state.status == "lobby":
        if session.state.seat_of(guest.user_id) is None:
            await session.join(guest)
        await session.start(host.user_id, manager.seeds())
    position = session.state.position
    if position is not None and position.must_throw:
        # Started, but killed before the first throw was saved: its deadline (the start time) throws.
        await manager.fire_due()


async def burst(manager: SessionManager, channel: int, rng: random.Random) -> None:
    while True:
        session = manager.in_channel(channel)
        if session is None:  # the last game here finished: the channel gets a new one
            session = await new_game(manager, channel)
            report({"started": session.game_id, "channel": channel})
            continue
        state = session.state
        mover = state.to_move
        assert mover is not None and mover.user_id is not None, f"game {state.game_id} has no human to move"
        option = rng.choice(state.legal_options())
        result = await session.play(mover.user_id, option.notation, turn=state.seq)
        after = result.state
        assert after.position is not None
        report({
            "game": after.game_id, "move_seq": state.seq + 1, "move": option.notation, "seq": after.seq,
            "ppn": after.position.to_ppn(), "status": after.status,
        })


async def main(path: Path, games: int, seed: int) -> None:
    storage = await open_sqlite(path)
    manager = SessionManager(storage.games, picker=first_legal, seeds=seed_sequence(seed),
                             limits=Limits(max_open_per_host=2, ai_delay=0.0))
    loaded = await manager.load()
    channels = range(1, games + 1)
    for channel in channels:
        session = manager.in_channel(channel)
        if session is None:
            await new_game(manager, channel)
        else:
            await resume(manager, session, channel)
    report({"ready": loaded, "games": [present(manager.in_channel(c)).game_id for c in channels]})
    await asyncio.gather(*(burst(manager, c, random.Random(f"{seed}:{c}")) for c in channels))


if __name__ == "__main__":
    db_path, game_count, burst_seed = sys.argv[1:4]
    asyncio.run(main(Path(db_path), int(game_count), int(burst_seed)))
