"""Shared fixtures: a controllable clock, a real SQLite store in a temporary directory, and a fresh PostgreSQL
schema (tests/postgres.py: skipped when no server is reachable, failed instead under PULUC_REQUIRE_POSTGRES=1)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage.sqlite.store import SqliteStore, open_store
from tests.postgres import fresh_schema

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
async def store(tmp_path: Path, clock: FakeClock) -> AsyncIterator[SqliteStore]:
    opened = await open_store(tmp_path / "data" / "puluc.db", clock=clock)
    yield opened
    await opened.close()


@pytest.fixture
async def postgres_url() -> AsyncIterator[str]:
    """DATABASE_URL of a new, empty PostgreSQL schema, dropped after the test."""
    async with fresh_schema() as url:
        yield url
