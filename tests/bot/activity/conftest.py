"""The Activity's backend on a SimCord bot, with a fake Discord behind its OAuth2 and API calls."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from bot.activity.routes import Activity, ActivitySettings, add_activity_routes
from bot.config import ActivityClient, Config
from bot.services import services
from tests.helpers import TOKEN, FakeClock, FakeDiscord, World, make_config

CLIENT_ID = 1057489987654321012  # the application DISCORD_TOKEN (tests.helpers.TOKEN) belongs to
CLIENT_SECRET = "fake-client-secret-0123456789abcd"
INSTANCE = "i-1057489987654321012-1"


@dataclass
class Page:
    """The Activity mounted on a web application of its own, as the page and Discord see it."""

    client: TestClient[Any, Any]
    activity: Activity
    discord: FakeDiscord
    world: World
    clock: FakeClock

    async def sign_in(self, user_id: int, instance: str = INSTANCE) -> tuple[int, dict[str, Any]]:
        """What POST /activity/api/session answers to a fresh code of `user_id`: (status, JSON)."""
        response = await self.client.post("/activity/api/session",
                                          json={"code": self.discord.code_for(user_id), "instance_id": instance})
        return response.status, await response.json()

    async def ticket(self, user_id: int) -> str:
        status, body = await self.sign_in(user_id)
        assert status == 200, body
        ticket: str = body["ticket"]
        return ticket

    async def call(self, method: str, path: str, ticket: str | None, **kwargs: Any) -> tuple[int, dict[str, Any]]:
        headers = {"Authorization": f"Bearer {ticket}"} if ticket is not None else {}
        response = await self.client.request(method, f"/activity/api/{path}", headers=headers, **kwargs)
        return response.status, await response.json()


@pytest.fixture
def config(tmp_path: Path) -> Config:
    return make_config(tmp_path / "puluc.db", activity_client=ActivityClient(CLIENT_ID, CLIENT_SECRET))


@pytest.fixture
def discord_api(world: World) -> FakeDiscord:
    """The fake Discord: world's five members in its server, an Activity instance in #games with alice, bob
    and carol."""
    fake = FakeDiscord(CLIENT_ID, CLIENT_SECRET, TOKEN)
    for member, locale in zip(world.members, ("fr", "en-US", "uk", "es-ES", "it"), strict=True):
        fake.add_user(member.id, member.name, locale=locale, servers=[world.guild.id])
    fake.open_instance(INSTANCE, world.guild.id, world.games.id, [world.alice.id, world.bob.id, world.carol.id])
    return fake


async def plain_board(state: Any, lang: str) -> str:
    """A board the tests can tell apart by position (the real SVG is the renderer's, tested there)."""
    return f'<svg xmlns="http://www.w3.org/2000/svg" data-game="{state.game_id}" data-seq="{state.seq}"></svg>'


@pytest.fixture
async def page(world: World, discord_api: FakeDiscord, clock: FakeClock) -> AsyncIterator[Page]:
    async with discord_api.serve() as api_url:
        settings = ActivitySettings(CLIENT_ID, CLIENT_SECRET, TOKEN, api_url)
        app = web.Application()
        activity = add_activity_routes(app, services(world.env.bot), settings, clock=clock, draw=plain_board)
        async with TestClient(TestServer(app)) as client:
            yield Page(client, activity, discord_api, world, clock)
            await activity.settled()
