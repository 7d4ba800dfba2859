"""The Activity's backend on a SimCord bot (with the Activity configured), a fake Discord behind its OAuth2 and
API calls, and a plain board so these tests read the API, not the drawing (the renderer's tests draw)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.config import Config
from bot.sessions import GameState
from tests.helpers import ActivityPage, FakeClock, FakeDiscord, World, activity_config, activity_page, fake_discord_for


@pytest.fixture
def config(tmp_path: Path) -> Config:
    return activity_config(tmp_path / "puluc.db")


@pytest.fixture
def discord_api(world: World) -> FakeDiscord:
    return fake_discord_for(world)


async def plain_board(state: GameState, lang: str) -> str:
    return f'<svg xmlns="http://www.w3.org/2000/svg" data-game="{state.game_id}" data-seq="{state.seq}"></svg>'


@pytest.fixture
async def page(world: World, discord_api: FakeDiscord, clock: FakeClock) -> AsyncIterator[ActivityPage]:
    async with activity_page(world, discord_api, clock, draw=plain_board) as found:
        yield found
