"""Shared fixtures: a controllable clock, a real SQLite store in a temporary directory, and logging put back."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.storage.sqlite.store import Store, open_store

START = 1_800_000_000.0  # a fixed "now" (2027-01-15) so time-based rules are reproducible


class FakeClock:
    """A clock the test moves by hand: `clock.advance(days=31)`."""

    def __init__(self, now: float = START) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, *, days: float = 0, seconds: float = 0) -> None:
        self.now += days * 86400 + seconds


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def store(tmp_path: Path, clock: FakeClock) -> AsyncIterator[Store]:
    opened = await open_store(tmp_path / "data" / "puluc.db", clock=clock)
    yield opened
    await opened.close()


@pytest.fixture
def restored_logging() -> Iterator[logging.Logger]:
    """The root logger as it was before the test, for tests that run `bot.logs.setup_logging` (or `main`)."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield root
    root.handlers[:] = handlers
    root.setLevel(level)
    logging.captureWarnings(False)
