"""The pages over HTTP: who may see what, what each page shows, the headers every answer carries."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from aiohttp import ClientResponse
from aiohttp.test_utils import TestClient, TestServer

from bot.compute import ComputePool
from bot.limits import lanes
from bot.sessions import GameOptions
from bot.ui.links import Page, WebLinks
from bot.web.context import WebContext
from bot.web.security import Limits
from bot.web.server import build_app
from puluc.record import GameRecord
from tests.bot.web.conftest import SECRET, Site
from tests.helpers import CHANNEL, FakeClock, play_out, started_duel


async def test_a_private_servers_game_needs_its_signed_link(site: Site) -> None:
    session = await started_duel(site.manager)
    game_id = session.state.game_id
    refused = await site.client.get(f"/g/{game_id}")
    assert refused.status == 403
    assert "/puluc-admin settings web:public" in await refused.text()
    forged = await site.client.get(f"/g/{game_id}?k=AAAAAAAAAAAAAAAAAAAAAA")
    assert forged.status == 403
    other = await site.client.get(site.signed(f"/g/{game_id}", Page("g", game_id + 1)))
    assert other.status == 403  # a key for another game opens nothing here
    shown = await site.client.get(site.signed(f"/g/{game_id}", Page("g", game_id)))
    assert shown.status == 200
    text = await shown.text()
    assert "alice" in text and "bob" in text and "<svg" in text


async def test_a_public_servers_pages_open_without_a_key(site: Site) -> None:
    session = await started_duel(site.manager)
    await site.storage.server_settings.update_guild_settings(CHANNEL.guild_id or 0, web_public=True)
    assert (await site.client.get(f"/g/{session.state.game_id}")).status == 200
    assert (await site.client.get(f"/s/{CHANNEL.guild_id}/leaderboard")).status == 200


async def test_every_answer_carries_the_security_headers_and_no_cookie(site: Site) -> None:
    for path in ("/", "/leaderboard", "/g/1", "/g/nope", "/static/style.css"):
        response = await site.client.get(path)
        csp = response.headers["Content-Security-Policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp, path
        assert "frame-ancestors 'self' https://discord.com https://*.discordsays.com" in csp
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["Referrer-Policy"] == "no-referrer"
        assert "Set-Cookie" not in response.headers, path


async def test_pages_have_no_inline_script(site: Site) -> None:
    game_id = (await started_duel(site.manager)).state.game_id
    text = await (await site.client.get(site.signed(f"/g/{game_id}", Page("g", game_id)))).text()
    assert re.findall(r"<script(?![^>]*\bsrc=)", text) == []
    assert " on" + "click=" not in text and "style=" not in text


async def test_names_are_escaped(site: Site, clock: FakeClock) -> None:
    from bot.sessions import GameOptions, Player

    mallory = Player(666, "<script>alert(1)</script>")
    lobby = await site.manager.open_lobby(mallory, CHANNEL, GameOptions())
    session = site.manager.get(lobby.game_id)
    from tests.helpers import BOB

    await session.join(BOB)
    await session.start(mallory.user_id, site.manager.seeds())
    text = await (await site.client.get(site.signed(f"/g/{lobby.game_id}", Page("g", lobby.game_id)))).text()
    assert "<script>alert(1)</script>" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text


async def test_unknown_and_malformed_addresses_are_404_without_reading(site: Site) -> None:
    for path in ("/g/0", "/g/-1", "/g/1e9", "/g/99999999999999999999", "/p/abc", "/t/1;drop", "/s/x/leaderboard"):
        assert (await site.client.get(path)).status == 404, path
    missing = await site.client.get(site.signed("/g/4242", Page("g", 4242)))
    assert missing.status == 404


async def test_a_finished_game_steps_downloads_its_record_and_gif(site: Site, clock: FakeClock) -> None:
    session = await started_duel(site.manager)
    await play_out(session, site.manager, clock)
    game_id = session.state.game_id
    page = await site.client.get(site.signed(f"/g/{game_id}", Page("g", game_id)))
    text = await page.text()
    assert page.status == 200 and 'type="range"' in text and 'id="chart-marker"' in text
    last = int(re.search(r'data-last="(\d+)"', text).group(1))  # type: ignore[union-attr]
    assert last == len(session.state.record)
    step = await site.client.get(site.signed(f"/g/{game_id}/step/1", Page("g", game_id)))
    body = await step.json()
    assert body["step"] == 1 and body["svg"].startswith("<svg") and body["caption"]
    assert (await site.client.get(site.signed(f"/g/{game_id}/step/{last + 1}", Page("g", game_id)))).status == 404
    assert (await site.client.get(f"/g/{game_id}/step/1")).status == 403
    record = await site.client.get(site.signed(f"/g/{game_id}/record.json", Page("g", game_id)))
    assert "attachment" in record.headers["Content-Disposition"]
    assert GameRecord.from_json(await record.text()).to_dict() == session.state.game_record().to_dict()
    gif = await site.client.get(site.signed(f"/g/{game_id}/replay.gif", Page("g", game_id)))
    assert gif.headers["Content-Type"] == "image/gif" and (await gif.read())[:6] in (b"GIF89a", b"GIF87a")
    chosen = await site.client.get(site.signed(f"/g/{game_id}", Page("g", game_id), step=2))
    assert 'value="2"' in await chosen.text()  # ?step= works without script too


async def test_the_page_speaks_the_browsers_language(site: Site) -> None:
    page = await site.client.get("/leaderboard", headers={"Accept-Language": "fr-CA,fr;q=0.9,en;q=0.5"})
    assert page.headers["Content-Language"] == "fr"
    text = await page.text()
    assert '<html lang="fr">' in text and "Classement" in text
    uk = await (await site.client.get("/leaderboard", headers={"Accept-Language": "uk"})).text()
    assert "Таблиця лідерів" in uk


async def test_profiles_open_from_signed_links_and_say_who_played(site: Site, clock: FakeClock) -> None:
    session = await started_duel(site.manager)
    await play_out(session, site.manager, clock)
    alice = 101
    assert (await site.client.get(f"/p/{alice}")).status == 403
    page = await site.client.get(site.signed(f"/p/{alice}", Page("p", alice)))
    assert page.status == 200 and "alice" in await page.text()
    assert (await site.client.get(site.signed("/p/5", Page("p", 5)))).status == 404


async def test_rate_limit_per_client_address(storage: object, clock: FakeClock) -> None:
    from bot.storage import Storage

    assert isinstance(storage, Storage)
    ctx = WebContext(storage, WebLinks(SECRET), ComputePool(0, lanes=lanes()))
    app, _ = build_app(ctx, limits=Limits(per_minute=60, burst=5))
    async with TestClient(TestServer(app)) as client:
        statuses = [(await client.get("/")).status for _ in range(8)]
        assert statuses[:5] == [200] * 5 and statuses[-1] == 429
        limited = await client.get("/")
        assert int(limited.headers["Retry-After"]) >= 1
        assert (await client.get("/static/style.css")).status == 200  # files cost nothing


async def test_the_live_stream_sends_the_next_move(site: Site) -> None:
    session = await started_duel(site.manager)
    game_id = session.state.game_id
    stream = await site.client.get(site.signed(f"/g/{game_id}/events", Page("g", game_id), seq=session.state.seq))
    assert stream.headers["Content-Type"].startswith("text/event-stream")
    assert await stream.content.readuntil(b"\n\n") == b"retry: 2000\n\n"
    state = session.state
    assert state.to_move is not None and state.to_move.user_id is not None
    await session.play(state.to_move.user_id, state.legal_options()[0].notation, turn=state.seq)
    event = await _next_event(stream, "board")
    assert event["seq"] == session.state.seq and "<svg" in event["html"]
    stream.close()


async def _next_event(stream: ClientResponse, name: str) -> dict[str, Any]:
    while True:
        block = (await stream.content.readuntil(b"\n\n")).decode()
        if f"event: {name}\n" in block:
            found: dict[str, Any] = json.loads(block.split("data: ", 1)[1])
            return found


@pytest.mark.parametrize("lang", ["en", "uk", "it", "fr", "es"])
async def test_every_page_renders_in_every_language(site: Site, clock: FakeClock, lang: str) -> None:
    session = await started_duel(site.manager)
    await play_out(session, site.manager, clock)
    running = await started_duel(site.manager)
    headers = {"Accept-Language": lang}
    game, live = session.state.game_id, running.state.game_id
    for path in ("/", "/leaderboard", "/leaderboard?ladder=team", site.signed(f"/g/{game}", Page("g", game)),
                 site.signed(f"/g/{live}", Page("g", live)), site.signed("/p/101", Page("p", 101)),
                 site.signed(f"/s/{CHANNEL.guild_id}/leaderboard", Page("s", CHANNEL.guild_id or 0))):
        response = await site.client.get(path, headers=headers)
        assert response.status == 200, path
        assert f'<html lang="{lang}">' in await response.text()


async def test_a_servers_leaderboard_shows_this_season_and_closed_ones(site: Site, clock: FakeClock) -> None:
    from tests.helpers import ALICE, BOB, CAROL, DAY

    pairs = [(ALICE, BOB), (ALICE, CAROL), (BOB, CAROL)] * 3  # six ranked games each: listed
    for seed, (host, guest) in enumerate(pairs):
        lobby = await site.manager.open_lobby(host, CHANNEL, GameOptions(ranked=True))
        session = site.manager.get(lobby.game_id)
        await session.join(guest)
        await session.start(host.user_id, site.manager.seeds())
        await play_out(session, site.manager, clock, seed=seed)
        clock.advance(DAY / 2)
    guild = CHANNEL.guild_id or 0
    board = site.signed(f"/s/{guild}/leaderboard", Page("s", guild))
    current = await (await site.client.get(board)).text()
    assert all(name in current for name in ("alice", "bob", "carol"))
    assert "Season 1" not in current  # no season closed yet
    await site.storage.seasons.start_season(guild)
    now = await (await site.client.get(board)).text()
    assert "Season 1" in now and "alice" not in now  # the ratings restarted
    closed = await (await site.client.get(site.signed(f"/s/{guild}/leaderboard", Page("s", guild), season=1))).text()
    assert all(name in closed for name in ("alice", "bob", "carol")) and 'aria-current="page">Season 1' in closed
    team_board = site.signed(f"/s/{guild}/leaderboard", Page("s", guild), ladder="team")
    teams = await (await site.client.get(team_board)).text()
    assert 'aria-current="page">Teams' in teams
