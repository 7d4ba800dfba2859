"""The web server's life: a port in use is one line saying what to set; the bot with WEB_PORT serves its pages
from start-up until it closes, and stops serving with it."""

from __future__ import annotations

import socket
from pathlib import Path

import aiohttp
import pytest

from bot.app import PulucBot
from bot.compute import ComputePool
from bot.config import Config
from bot.limits import lanes
from bot.storage import Storage
from bot.ui.links import WebLinks
from bot.web.server import WebUnavailable, web_server
from tests.bot.web.conftest import SECRET
from tests.helpers import World, make_config


async def test_a_port_in_use_is_one_line_saying_what_to_set(storage: Storage) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        server = web_server(storage, WebLinks(SECRET), ComputePool(0, lanes=lanes()), host="127.0.0.1", port=port,
                            bar_ms=0, trust_forwarded=False)
        with pytest.raises(WebUnavailable) as refused:
            await server.start()
    message = str(refused.value)
    assert f"127.0.0.1:{port}" in message and "WEB_PORT" in message and "\n" not in message


@pytest.fixture
def config(tmp_path: Path) -> Config:
    return make_config(tmp_path / "puluc.db", web_port=0, web_secret=SECRET)


async def test_the_bot_serves_its_pages_until_it_closes(world: World) -> None:
    bot = world.env.bot
    assert isinstance(bot, PulucBot) and bot.web is not None
    address = f"http://127.0.0.1:{bot.web.port}"
    async with aiohttp.ClientSession() as client:
        async with client.get(f"{address}/healthz") as answer:
            assert answer.status == 200
        await bot.close()
        assert bot.web is None
        with pytest.raises(aiohttp.ClientConnectionError):
            async with client.get(f"{address}/healthz"):
                pass

