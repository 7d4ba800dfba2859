"""Fixtures of the whole suite: the Bell and Ants rules, a controllable clock, a real SQLite storage, the bot in
SimCord, a fresh PostgreSQL schema (`postgres_url`: tests/postgres.py), and a check that nothing logs an ERROR a
test did not declare. The helpers behind them live in `tests/helpers.py`. The tests' files live in memory
where the machine has a RAM disk (`temporary_files_in_memory`)."""

from __future__ import annotations

import logging
import os
import tempfile
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import simcord
import simcord.interactions as sim_interactions

from bot.app import PulucBot
from bot.config import Config
from bot.storage import Storage
from puluc import Rules
from tests.helpers import ErrorLog, FakeClock, MakeBot, World, is_refusal, make_config, open_sqlite, seeded_bot
from tests.postgres import fresh_schema

pytest_plugins = ["pytester"]  # tests/test_error_log.py runs the suite's own guard on a small inner suite


RAM_DISK = Path("/dev/shm")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "logs_error(*patterns): the test provokes ERROR log records on purpose; each pattern (a regular "
        "expression searched in 'logger: message (Exception: text)') must match at least one of them",
    )
    config.addinivalue_line(
        "markers",
        "worker_processes: the test's bot (the `settings` fixture) starts its compute worker processes, as "
        "deployed, instead of running its boards and AI in threads (WORKERS=0); for the tests of whole flows",
    )
    temporary_files_in_memory()


def temporary_files_in_memory() -> None:
    """Put the temporary files of the tests (`tmp_path`, and those of the programs they start) on the RAM
    disk, unless TMPDIR says where they go or there is none (macOS, Windows).

    The bot's SQLite database syncs every commit to disk (`PRAGMA synchronous = FULL`: a move is answered
    only once it is on disk). The suite opens a few hundred databases and commits tens of thousands of times;
    on a disk each sync waits a few milliseconds, more while other programs write, and that waiting was most
    of the suite's time. A RAM disk keeps every behaviour the tests check (a killed process loses nothing
    committed, the page cache outlives it); only surviving a power cut is out of reach, as it always was."""
    if "TMPDIR" in os.environ or not (RAM_DISK.is_dir() and os.access(RAM_DISK, os.W_OK | os.X_OK)):
        return
    os.environ["TMPDIR"] = str(RAM_DISK)
    tempfile.tempdir = None  # read TMPDIR again


@pytest.fixture(autouse=True)
def error_log(request: pytest.FixtureRequest) -> Iterator[ErrorLog]:
    """Fails the test when anything logs an ERROR it did not declare with `@pytest.mark.logs_error`, or when
    a declared ERROR never came. Bot crashes that end in a fallback (an AI move, a chart left out) are
    logged, not raised: without this check a test would pass over them."""
    handler = ErrorLog()
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield handler
    finally:
        root.removeHandler(handler)
    patterns = [p for marker in request.node.iter_markers("logs_error") for p in marker.args]
    unexpected = handler.unexpected(patterns)
    assert not unexpected, "logged at ERROR: " + "; ".join(map(str, unexpected))
    unseen = handler.unseen(patterns)
    assert not unseen, f"declared ERROR records never logged: {unseen}"


@pytest.fixture
def bell() -> Rules:
    return Rules.preset("bell")


@pytest.fixture
def ants() -> Rules:
    return Rules.preset("ants")


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def storage(tmp_path: Path, clock: FakeClock) -> AsyncIterator[Storage]:
    opened = await open_sqlite(tmp_path / "data" / "puluc.db", clock=clock)
    yield opened
    await opened.close()


@pytest.fixture
async def postgres_url() -> AsyncIterator[str]:
    """DATABASE_URL of a new, empty PostgreSQL schema, dropped after the test (skipped without a server,
    failed instead when PULUC_REQUIRE_POSTGRES=1)."""
    async with fresh_schema() as url:
        yield url


# -- the bot in SimCord -------------------------------------------------------------------------------------


@pytest.fixture
def config(tmp_path: Path, request: pytest.FixtureRequest) -> Config:
    """The test bot's settings (`make_config`) on a new SQLite file; with worker processes as deployed
    under the `worker_processes` marker."""
    if request.node.get_closest_marker("worker_processes") is not None:
        return make_config(tmp_path / "puluc.db", workers=None)
    return make_config(tmp_path / "puluc.db")


@pytest.fixture
async def bots(config: Config) -> AsyncIterator[MakeBot]:
    """Makes seeded bots (`bots()` on the test's config, `bots(other_settings)`), for a start or a restart,
    and closes every one at the end: SimCord detaches a bot without closing it, and an open database
    connection would outlive the test."""
    made: list[PulucBot] = []
    default = config

    def make(config: Config | None = None) -> PulucBot:
        bot = seeded_bot(config or default)
        made.append(bot)
        return bot

    yield make
    for bot in made:
        await bot.close()


@pytest.fixture
def simcord_bot(bots: MakeBot) -> PulucBot:
    return bots()


@pytest.fixture
def world(simcord_env: simcord.Env) -> Iterator[World]:
    yield World(simcord_env)
    # Refusals are expected (each test asserts the sentence the user saw); anything else is a bot error.
    unexpected = [error for error in simcord_env.errors if not is_refusal(error)]
    assert not unexpected, f"the bot raised: {unexpected!r}"


@pytest.fixture
def restored_logging() -> Iterator[logging.Logger]:
    """The root logger as it was before the test, for tests that run `bot.logs.setup_logging` (or `main`)."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield root
    root.handlers[:] = handlers
    root.setLevel(level)
    logging.captureWarnings(False)


@pytest.fixture
def interaction_locale(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], None]:
    """SimCord always sends en-US; `interaction_locale("fr")` makes every later interaction come from a client
    in that locale (by rewriting the interaction payload, a private SimCord API)."""

    def set_locale(locale: str) -> None:
        original = sim_interactions.base_payload

        def patched(*args: Any, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
            record, payload = original(*args, **kwargs)
            payload["locale"] = locale
            return record, payload

        monkeypatch.setattr(sim_interactions, "base_payload", patched)

    return set_locale
