"""Fixtures of the bot's own tests (cogs, presenter, boards in SimCord): the bot draws its boards and runs the
AI in threads of the test process (WORKERS=0), the same jobs through the same `ComputePool` calls.

Starting a bot's worker processes costs half a second to a second per test, more on a busy machine, where
they run at a lower priority than the bot. The end-to-end tests (`tests/e2e`) run the bot as deployed, with
its worker processes (so every job's arguments and results cross a process boundary there), and
`tests/bot/test_compute.py` tests the pool itself.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import Settings
from tests.helpers import make_settings


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return make_settings(tmp_path / "puluc.db", workers=0)
