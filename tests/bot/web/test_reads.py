"""No page lets its visitors make the database work per visitor: a watched game is read once per change, however
many watch it (the web server alone, as `puluc-bot web` runs, hearing changes from the change feed)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from aiohttp import ClientResponse
from aiohttp.test_utils import TestClient, TestServer

from bot.compute import ComputePool
from bot.limits import lanes
from bot.storage import Change, Storage
from bot.ui.links import Page, WebLinks
from bot.web.context import WebContext
from bot.web.hub import Topic
from bot.web.security import Limits
from bot.web.server import build_app
from tests.bot.web.conftest import SECRET
from tests.helpers import FakeClock, first_legal, make_manager, started_duel

WATCHERS = 25


async def test_a_change_is_read_once_for_every_watcher(storage: Storage, clock: FakeClock,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    player = make_manager(storage.games, clock, first_legal)  # "another process" on the same database
    session = await started_duel(player)
    game_id = session.state.game_id
    reads: list[int] = []
    game_log = storage.games.game_log

    async def counted(wanted: int) -> Any:
        reads.append(wanted)
        return await game_log(wanted)

    monkeypatch.setattr(storage.games, "game_log", counted)
    links = WebLinks(SECRET)
    ctx = WebContext(storage, links, ComputePool(0, lanes=lanes()))
    app, hub = build_app(ctx, limits=Limits(streams=1000, burst=1000))
    async with TestClient(TestServer(app)) as client:
        path = links.path(f"/g/{game_id}/events", Page("g", game_id), seq=session.state.seq)
        streams: list[ClientResponse] = []
        for _ in range(WATCHERS):
            stream = await client.get(path)
            await stream.content.readuntil(b"\n\n")
            streams.append(stream)
        assert hub.watching(Topic("game", game_id)) == WATCHERS
        assert len(reads) == 1  # the first visitor's; the others are shown what the hub holds
        state = session.state
        assert state.to_move is not None and state.to_move.user_id is not None
        await session.play(state.to_move.user_id, state.legal_options()[0].notation, turn=state.seq)
        hub.note_change(Change("game", game_id, session.state.seq))
        for stream in streams:
            while b"event: board" not in await stream.content.readuntil(b"\n\n"):
                pass
        assert len(reads) == 2
        for stream in streams:
            stream.close()
        await asyncio.sleep(0)
