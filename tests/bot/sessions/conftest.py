"""Fixtures of the session-layer tests: a stand-in for the AI, the storage, a manager (helpers in
`tests/helpers.py`)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.sessions import SessionManager
from bot.storage import Storage
from tests.helpers import FakeClock, RandomPicker, make_manager, open_sqlite


@pytest.fixture
def picker() -> RandomPicker:
    return RandomPicker()


@pytest.fixture
async def storage(clock: FakeClock, tmp_path: Path) -> AsyncIterator[Storage]:
    """The sessions' storage: a SQLite file, as the bot runs on."""
    opened = await open_sqlite(tmp_path / "puluc.db", clock=clock)
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture
def manager(storage: Storage, clock: FakeClock, picker: RandomPicker) -> SessionManager:
    return make_manager(storage.games, clock, picker)
