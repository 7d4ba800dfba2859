"""The contract suite's fixtures: every test in tests/bot/storage/test_contract_*.py runs once per backend.

`storage` is an open `Storage` on a fresh database of the backend under test: a SQLite file in a temporary
directory, or a fresh schema on the test PostgreSQL server (tests/postgres.py). `backend` opens more handles
on it: tests/bot/storage/backends.py.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import Storage
from tests.bot.storage.backends import BACKENDS, Backend, backend_for
from tests.helpers import FakeClock


@pytest.fixture(params=BACKENDS)
async def backend(request: pytest.FixtureRequest, tmp_path: Path, clock: FakeClock) -> AsyncIterator[Backend]:
    async with backend_for(request.param, tmp_path, clock) as found:
        yield found


@pytest.fixture
async def storage(backend: Backend) -> Storage:
    return await backend.open()


@pytest.fixture
async def postgres_backend(tmp_path: Path, clock: FakeClock) -> AsyncIterator[Backend]:
    """PostgreSQL alone: for what only a database shared by several processes has (shard leases)."""
    async with backend_for("postgres", tmp_path, clock) as found:
        yield found
