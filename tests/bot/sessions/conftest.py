"""Shared pieces for the session-layer tests: a fake clock, a seeded AI stand-in, repositories, players."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.sessions import GameOptions, GameSession, Limits, Place, Player, SessionManager
from bot.storage.memory import MemoryStorage
from bot.storage.protocol import GameRepository
from bot.storage.sqlite.store import open_store
from puluc import Move, Position

ALICE = Player(101, "alice")
BOB = Player(102, "bob")
CAROL = Player(103, "carol")
DAVE = Player(104, "dave")
EVE = Player(105, "eve")
CHANNEL = Place(guild_id=9, channel_id=500)
OTHER_CHANNEL = Place(guild_id=9, channel_id=501)
AI_DELAY = 1.5


class FakeClock:
    """Wall-clock seconds that move only when the test says so."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class RandomPicker:
    """Stands in for the AI: a legal move chosen by the game's own AI generator, counting its calls."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    async def __call__(self, position: Position, level: str, rng: random.Random) -> Move:
        self.calls.append(level)
        return rng.choice(position.legal_moves())


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def picker() -> RandomPicker:
    return RandomPicker()


@pytest.fixture(params=["memory", "sqlite"])
async def repo(request: pytest.FixtureRequest, clock: FakeClock, tmp_path: Path) -> AsyncIterator[GameRepository]:
    """Every session test runs on the in-memory repository and on the real SQLite store."""
    if request.param == "memory":
        yield MemoryStorage(clock)
        return
    store = await open_store(tmp_path / "puluc.db", clock=clock)
    try:
        yield store
    finally:
        await store.close()


def make_manager(repo: GameRepository, clock: FakeClock, picker: RandomPicker, seed: int = 7) -> SessionManager:
    seeds = iter(range(seed, seed + 10_000))
    return SessionManager(repo, picker=picker, clock=clock, seeds=lambda: next(seeds),
                          limits=Limits(max_open_per_host=3, ai_delay=AI_DELAY))


@pytest.fixture
def manager(repo: GameRepository, clock: FakeClock, picker: RandomPicker) -> SessionManager:
    return make_manager(repo, clock, picker)


async def started_duel(manager: SessionManager, options: GameOptions | None = None) -> GameSession:
    """alice (A1) against bob (B1), started."""
    lobby = await manager.open_lobby(ALICE, CHANNEL, options or GameOptions())
    session = manager.get(lobby.game_id)
    await session.join(BOB)
    await session.start(ALICE.user_id, manager.new_seed())
    return session


async def play_out(session: GameSession, manager: SessionManager, clock: FakeClock, *, seed: int = 1,
                   max_actions: int = 20_000) -> None:
    """Play random legal moves for the humans (and let the AI seats move) until the game ends."""
    rng = random.Random(seed)
    for _ in range(max_actions):
        state = session.state
        if state.status != "running":
            return
        mover = state.to_move
        assert mover is not None
        if mover.played_by_ai:
            clock.advance(AI_DELAY)
            await manager.fire_due()
            continue
        assert mover.user_id is not None
        option = rng.choice(state.legal_options())
        await session.play(mover.user_id, option.notation, turn=state.seq)
    raise AssertionError("the game did not end")
