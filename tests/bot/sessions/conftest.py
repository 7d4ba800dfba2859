"""Fixtures of the session-layer tests: a stand-in for the AI, the repositories, a manager (helpers in
`tests/helpers.py`)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.sessions import SessionManager
from bot.storage.memory import MemoryStorage
from bot.storage.protocol import GameRepository
from bot.storage.sqlite.store import open_store
from tests.helpers import FakeClock, RandomPicker, make_manager


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


@pytest.fixture
def manager(repo: GameRepository, clock: FakeClock, picker: RandomPicker) -> SessionManager:
    return make_manager(repo, clock, picker)
