"""The web pages over a SQLite database with this process's sessions: `site` serves them to an aiohttp client."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
from aiohttp.test_utils import TestClient, TestServer
from aiohttp.web import Application, Request

from bot.compute import ComputePool
from bot.limits import lanes
from bot.sessions import SessionManager
from bot.storage import Storage
from bot.ui.links import Page, WebLinks
from bot.web.context import WebContext
from bot.web.hub import Hub
from bot.web.security import Limits
from bot.web.server import build_app, follow_sessions
from tests.helpers import FakeClock, first_legal, make_manager

SECRET = "test-secret-0123456789-abcdefghijklmnop"


@dataclass
class Site:
    client: TestClient[Request, Application]
    hub: Hub
    manager: SessionManager
    storage: Storage
    links: WebLinks

    def signed(self, path: str, page: Page, **query: str | int) -> str:
        return self.links.path(path, page, **query)


@pytest.fixture
async def site(storage: Storage, clock: FakeClock) -> AsyncIterator[Site]:
    manager = make_manager(storage.games, clock, first_legal)
    links = WebLinks(SECRET, "http://pages.example")
    ctx = WebContext(storage, links, ComputePool(0, lanes=lanes()), bar_ms=1)
    app, hub = build_app(ctx, manager=manager, limits=Limits(per_minute=6000, burst=1000))
    follow_sessions(hub, manager, None)
    async with TestClient(TestServer(app)) as client:
        yield Site(client, hub, manager, storage, links)
