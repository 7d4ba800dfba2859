"""Games for the storage tests, played straight through the `Storage` protocol (no engine, no sessions)."""

from __future__ import annotations

from typing import Any

from bot.ratings import REPEAT_LIMIT, REPEAT_WINDOW
from bot.storage import Storage
from bot.storage.types import FinishReport, NewEvent, SeatSpec
from tests.helpers import FakeClock

RULES = {"route": "army", "capture": "stack", "team_size": 1}
START_PPN = "././././././././. A1:5,B1:5 A1:0,B1:0 A1 -"
AFTER_PPN = "./A1+/././././././. A1:4,B1:5 A1:0,B1:0 B1 -"
GUILD = 10
SEAT_NAMES = ("A1", "B1", "A2", "B2", "A3", "B3")


async def new_duel(storage: Storage, *, guild_id: int | None = GUILD, ranked: bool = False) -> int:
    return await storage.games.create_game(
        guild_id=guild_id, channel_id=20, host_id=1, variant="bell", rules=RULES, turn_timer_seconds=120,
        ranked=ranked, seats=[SeatSpec("A1", "Ana", user_id=1), SeatSpec("B1", "Bo", user_id=2)],
    )


async def running_duel(storage: Storage, *, guild_id: int | None = GUILD) -> int:
    game_id = await new_duel(storage, guild_id=guild_id)
    await storage.games.start_game(game_id, first_team="A", throw_off=[["1000", "0000"]], seed=7,
                             snapshot_ppn=START_PPN, turn_deadline=None)
    return game_id


async def append(storage: Storage, game_id: int, seq: int, kind: str, payload: dict[str, object],
                 **options: Any) -> None:
    """Append one event numbered `seq` (`options`: append_events' own, passed on)."""
    await storage.games.append_events(game_id, seq, [NewEvent(kind, dict(payload))], **options)


async def play(
    storage: Storage,
    players: list[int | None],
    winner: str | None,
    *,
    ranked: bool = True,
    moves: int = 6,
    guild_id: int | None = GUILD,
    variant: str = "bell",
    kills: dict[str, int] | None = None,
    ai_level: int = 2,
) -> tuple[int, FinishReport]:
    """Play a whole game: players fill A1, B1, A2, B2, ... (None = an AI seat); return its id and report."""
    game_id = await started(storage, players, ranked=ranked, moves=moves, guild_id=guild_id, variant=variant,
                            ai_level=ai_level)
    return game_id, await finish(storage, game_id, winner, kills=kills)


async def started(
    storage: Storage,
    players: list[int | None],
    *,
    ranked: bool = True,
    moves: int = 6,
    guild_id: int | None = GUILD,
    variant: str = "bell",
    ai_level: int = 2,
) -> int:
    """A game as `play` plays it, up to (not including) its last move: running, ready for `finish`."""
    seats = [SeatSpec(seat, f"user{u}", user_id=u) if u is not None else SeatSpec(seat, "AI", ai_level=ai_level)
             for seat, u in zip(SEAT_NAMES, players, strict=False)]
    game_id = await storage.games.create_game(guild_id=guild_id, channel_id=1, host_id=players[0], variant=variant,
                                        rules={}, turn_timer_seconds=60, ranked=ranked, seats=seats)
    await storage.games.start_game(game_id, first_team="A", throw_off=[], seed=None, snapshot_ppn="start",
                             turn_deadline=None)
    await storage.games.append_events(game_id, 1, [NewEvent("move", {"move": "1:H"})] * max(moves - 1, 0) or
                                [NewEvent("throw", {"throw": [1]})])
    return game_id


async def finish(
    storage: Storage, game_id: int, winner: str | None, *, kills: dict[str, int] | None = None
) -> FinishReport:
    """The last move of a `started` game, and its end (rated if it counts)."""
    last = (await storage.games.game_log(game_id)).game.last_seq
    return await storage.games.finish_game(game_id, winner=winner, scores={"A": 1, "B": 0}, end_reason="normal",
                                     kills=kills, events=[NewEvent("move", {"move": "1:H"})], first_seq=last + 1)


async def play_many(
    storage: Storage, clock: FakeClock, players: list[int | None], winner: str | None, times: int,
    **options: Any,
) -> tuple[int, FinishReport]:
    """`times` games between the same line-ups, a day later after every REPEAT_LIMIT of them (more ranked
    games between the same players in 24 hours would be unranked); return the last game's id and report."""
    assert times >= 1
    for i in range(times):
        if i and i % REPEAT_LIMIT == 0:
            clock.advance(seconds=REPEAT_WINDOW)
        found = await play(storage, players, winner, **options)
    return found
