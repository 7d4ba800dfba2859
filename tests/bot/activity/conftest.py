"""The Activity's backend on a SimCord bot (with the Activity configured), a fake Discord behind its OAuth2 and
API calls, and a plain board so these tests read the API, not the drawing (the renderer's tests draw)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.config import Config
from tests.helpers import (
    ActivityPage,
    FakeClock,
    FakeDiscord,
    World,
    activity_config,
    activity_page,
    fake_discord_for,
    plain_board,
)


@pytest.fixture
def config(tmp_path: Path) -> Config:
    return activity_config(tmp_path / "puluc.db")


@pytest.fixture
def discord_api(world: World) -> FakeDiscord:
    return fake_discord_for(world)


@pytest.fixture
async def page(world: World, discord_api: FakeDiscord, clock: FakeClock) -> AsyncIterator[ActivityPage]:
    async with activity_page(world, discord_api, clock, draw=plain_board) as found:
        yield found
