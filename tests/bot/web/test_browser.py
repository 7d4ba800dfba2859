"""The web pages in a real browser (Debian's chromium through Playwright): a live game that updates by itself
when a move is made in Discord, a replay stepped with the keyboard, a phone-sized page whose board fits, and a
private server's page refused without its link and shown with it."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import urlsplit

import discord
import pytest

from bot.app import PulucBot
from bot.config import Config
from bot.services import services
from bot.ui.links import Page
from bot.web.common import CONTEXT
from bot.web.server import WebServer
from tests.bot.web.browser import chromium
from tests.bot.web.conftest import SECRET, Site
from tests.helpers import (
    FakeClock,
    World,
    accepted_challenge,
    components_of,
    game_message,
    make_config,
    move_ids,
    play_out,
    said,
    started_duel,
)

if False:  # pragma: no cover - types only
    from playwright.async_api import Browser


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    async with chromium() as found:
        yield found


@pytest.fixture
def config(tmp_path: Path) -> Config:
    """The test bot serving its web pages on a free port, with link buttons under a base URL."""
    return make_config(tmp_path / "puluc.db", web_port=0, web_host="127.0.0.1", web_secret=SECRET,
                       web_base_url="http://pages.example")


def served(bot: PulucBot, link: str) -> str:
    """A link the bot handed out (under WEB_BASE_URL), pointed at where its test server listens."""
    assert bot.web is not None
    parts = urlsplit(link)
    return f"http://127.0.0.1:{bot.web.port}{parts.path}?{parts.query}"


def link_button(message: object) -> str:
    urls = [item["url"] for item in components_of(message) if item.get("url")]
    assert len(urls) == 1, urls
    return str(urls[0])


async def test_a_live_game_updates_when_a_move_is_made_in_discord(world: World, browser: Browser,
                                                                  tmp_path: Path) -> None:
    session = await accepted_challenge(world)
    bot = world.env.bot
    assert isinstance(bot, PulucBot)
    message = game_message(world.games)
    link = link_button(message)
    assert link.startswith(f"http://pages.example/g/{session.state.game_id}?k=")
    page = await browser.new_page()
    response = await page.goto(served(bot, link))
    assert response is not None and response.status == 200
    await page.wait_for_function("() => document.getElementById('live').dataset.connected === 'true'",
                                 timeout=10_000)  # the stream is open
    second = await browser.new_page()
    await second.goto(served(bot, link))  # another spectator: the first page's count says so by itself
    await page.wait_for_function("() => document.getElementById('watchers').textContent.startsWith('2 ')",
                                 timeout=10_000)
    await second.close()
    await page.evaluate("window.notReloaded = true")
    before = await page.get_attribute("#live", "data-seq")
    story_before = await page.locator(".story li").count()

    board = game_message(world.games)
    to_move = session.state.to_move
    assert to_move is not None and to_move.user_id is not None
    mover = world.member(to_move.user_id)
    await mover.click(board, custom_id=move_ids(board)[0])

    # The page changes by itself (no reload) soon after the move; the timeout is only a generous bound.
    await page.wait_for_function(f"() => document.getElementById('live').dataset.seq !== '{before}'", timeout=10_000)
    assert await page.evaluate("window.notReloaded === true")
    assert int(await page.get_attribute("#live", "data-seq") or 0) == services(bot).manager.get(
        session.state.game_id).state.seq
    assert await page.locator(".story li").count() > story_before
    assert await page.locator("#live svg title").count() == 1
    await page.screenshot(path=str(tmp_path / "live.png"))


async def test_a_replay_steps_with_the_keyboard(site: Site, clock: FakeClock, browser: Browser) -> None:
    session = await started_duel(site.manager)
    await play_out(session, site.manager, clock)
    game_id = session.state.game_id
    last = len(session.state.record)
    page = await browser.new_page(viewport={"width": 1280, "height": 900})
    await page.goto(str(site.client.make_url(site.signed(f"/g/{game_id}", Page("g", game_id), step=0))))
    assert await page.input_value("#step") == "0"
    first_board = await page.inner_html("#board")
    first_caption = await page.inner_text("#caption")

    await page.keyboard.press("ArrowRight")
    await page.wait_for_function("() => document.getElementById('step').value === '1'")
    await page.wait_for_function(f"() => document.getElementById('caption').textContent !== {first_caption!r}")
    assert await page.inner_html("#board") != first_board
    assert re.search(r"\b1\b", await page.inner_text("#position"))
    await page.keyboard.press("End")
    await page.wait_for_function(f"() => document.getElementById('step').value === '{last}'")
    assert "step=" + str(last) in page.url
    await page.keyboard.press("ArrowLeft")
    await page.wait_for_function(f"() => document.getElementById('step').value === '{last - 1}'")
    await page.keyboard.press("Home")
    await page.wait_for_function("() => document.getElementById('step').value === '0'")
    assert await page.inner_html("#board") == first_board
    # The buttons are reachable with Tab and pressed with Enter.
    await page.focus("#next")
    await page.keyboard.press("Enter")
    await page.wait_for_function("() => document.getElementById('step').value === '1'")
    marker = await page.get_attribute("#chart-marker", "x1")
    assert marker is not None


@pytest.mark.parametrize("finished", [False, True], ids=["live", "replay"])
async def test_on_a_360_px_phone_the_board_is_not_cut(site: Site, clock: FakeClock, browser: Browser,
                                                      tmp_path: Path, finished: bool) -> None:
    session = await started_duel(site.manager)
    if finished:
        await play_out(session, site.manager, clock)
    game_id = session.state.game_id
    page = await browser.new_page(viewport={"width": 360, "height": 740}, device_scale_factor=2)
    await page.goto(str(site.client.make_url(site.signed(f"/g/{game_id}", Page("g", game_id)))))
    board = page.locator(".board svg").first
    box = await board.bounding_box()
    assert box is not None and box["width"] > 300
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360
    assert await page.evaluate("document.documentElement.scrollWidth") <= 360  # nothing scrolls sideways
    await page.screenshot(path=str(tmp_path / f"phone-{'replay' if finished else 'live'}.png"), full_page=True)


async def test_a_private_servers_page_is_refused_without_its_link(world: World, browser: Browser) -> None:
    session = await accepted_challenge(world)
    bot = world.env.bot
    assert isinstance(bot, PulucBot) and isinstance(bot.web, WebServer)  # in the bot's process (make_config)
    bot.web.app[CONTEXT].public_for = 0  # see the setting's change at once
    plain = f"http://127.0.0.1:{bot.web.port}/g/{session.state.game_id}"
    page = await browser.new_page()
    refused = await page.goto(plain)
    assert refused is not None and refused.status == 403
    assert await page.locator(".board svg").count() == 0
    assert "private" in (await page.inner_text("h1")).lower()

    shown = await page.goto(served(bot, link_button(game_message(world.games))))
    assert shown is not None and shown.status == 200
    assert await page.locator(".board svg").count() == 1

    managers = world.guild.create_role("Managers", permissions=discord.Permissions(manage_guild=True))
    boss = world.guild.add_member(world.env.create_user("boss"), roles=[managers])
    answer = await boss.slash(world.games, "puluc-admin settings", web="public")
    assert "web pages are public" in said(answer)
    opened = await page.goto(plain)
    assert opened is not None and opened.status == 200
    assert (await bot.storage.server_settings.guild_settings(world.guild.id)).web_public is True


async def test_a_live_page_stops_being_live_when_the_game_ends(world: World, browser: Browser) -> None:
    session = await accepted_challenge(world)
    bot = world.env.bot
    assert isinstance(bot, PulucBot)
    page = await browser.new_page()
    await page.goto(served(bot, link_button(game_message(world.games))))
    await page.wait_for_function("() => document.getElementById('live').dataset.connected === 'true'",
                                 timeout=10_000)
    assert await page.is_visible("#badge")
    to_move = session.state.to_move
    assert to_move is not None and to_move.user_id is not None
    await services(bot).manager.get(session.state.game_id).resign(to_move.user_id)
    # The story says who gave up; the badge and the stream go, since nothing more will come.
    await page.wait_for_function("() => document.getElementById('live').dataset.ended === 'true'", timeout=10_000)
    assert await page.locator(".story li").last.inner_text() == f"{to_move.name} resigned."
    assert not await page.is_visible("#badge")
    assert await page.locator(".result").count() == 1
    # The board's header says who won too, not whose turn it was (the position itself never ended).
    winner = "B" if to_move.seat.startswith("A") else "A"
    assert (await page.locator("#live svg title").text_content() or "").startswith(f"Team {winner} wins")
    assert await page.locator("#live svg [data-to-move]").count() == 0
