"""The Activity end to end in a real browser (Debian's chromium driven by Playwright): a page on the same origin
plays Discord's client for the real Embedded App SDK (its handshake, authorize with a code, authenticate with a
member); two members, each in a browser context of their own, play a 1 v 1 to the end by touching the board,
while SimCord shows the game message following every move; a button click in SimCord moves the board in both
browsers."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from aiohttp import web

from bot.config import Config
from bot.services import services
from bot.sessions import GameSession
from tests.helpers import (
    ACTIVITY_CLIENT_ID,
    ACTIVITY_INSTANCE,
    ActivityPage,
    FakeClock,
    World,
    accepted_challenge,
    activity_config,
    activity_page,
    custom_ids,
    fake_discord_for,
    game_message,
    logged_moves,
    move_ids,
)

if TYPE_CHECKING:
    from playwright.async_api import Browser, FrameLocator, Page

FRAME = Path(__file__).parent / "activity_frame"
CHROMIUM = Path("/usr/bin/chromium")
MAX_MOVES = 600  # a Bell 1 v 1 ends long before


def no_browser(reason: str) -> None:
    message = (f"no browser for the Activity's end-to-end test: {reason} (apt-get install chromium; "
               "pip install playwright)")
    if os.environ.get("PULUC_REQUIRE_BROWSER") == "1":
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    if not await asyncio.to_thread(CHROMIUM.exists):
        no_browser(f"{CHROMIUM} is missing")
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        no_browser("the playwright package is not installed")
    async with async_playwright() as playwright:
        found = await playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox", "--disable-gpu"])
        try:
            yield found
        finally:
            await found.close()


@pytest.fixture
def config(tmp_path: Path) -> Config:
    return activity_config(tmp_path / "puluc.db")


def discord_stand_in(app: web.Application) -> None:
    """The stand-in for Discord's client, on the Activity's own origin (as Discord's proxy puts it)."""
    for name in ("discord.html", "discord.js"):
        path = FRAME / name

        async def serve(request: web.Request, path: Path = path) -> web.FileResponse:
            # Discord's client frames the Activity; the web companion's own pages frame nothing.
            return web.FileResponse(path, headers={"Content-Security-Policy": "default-src 'self'"})

        app.router.add_get(f"/test/{name}", serve)


@pytest.fixture
async def activity(world: World) -> AsyncIterator[ActivityPage]:
    async with activity_page(world, fake_discord_for(world), FakeClock(), more=discord_stand_in) as found:
        yield found


async def open_activity(browser: Browser, activity: ActivityPage, member: Any) -> tuple[Page, FrameLocator]:
    """The member's Discord (a browser context of their own) with the Activity opened in #games."""
    world = activity.world
    context = await browser.new_context(viewport={"width": 900, "height": 1000}, locale="en-US")
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    query = (f"user={member.id}&name={member.name}&code={activity.discord.code_for(member.id)}"
             f"&instance={ACTIVITY_INSTANCE}&guild={world.guild.id}&channel={world.games.id}")
    await page.goto(str(activity.client.make_url(f"/test/discord.html?{query}")))
    frame = page.frame_locator("#activity")
    await frame.locator("#app[data-status='running']").wait_for(timeout=20_000)
    assert not errors, errors
    shots = os.environ.get("PULUC_SCREENSHOTS")  # to look at the page as a member sees it
    if shots:
        await page.screenshot(path=f"{shots}/activity-{member.name}.png")
    return page, frame


async def shows_seq(frame: FrameLocator, seq: int) -> None:
    await frame.locator(f"#app[data-seq='{seq}']").wait_for(timeout=10_000)


async def played_after(session: GameSession, seq: int) -> None:
    """Wait until the game has moved past event `seq` (the browser's touch reached the bot)."""
    for _ in range(400):
        if session.state.seq > seq:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"no move was played after event {seq}")


async def settled(activity: ActivityPage) -> None:
    await activity.activity.settled()
    await activity.world.env.settle()


async def test_two_members_play_a_game_to_its_end_by_touching_the_board(browser: Browser,
                                                                         activity: ActivityPage) -> None:
    world = activity.world
    session = await accepted_challenge(world)
    manager = services(world.env.bot).manager
    pages = {member.id: await open_activity(browser, activity, member) for member in (world.alice, world.bob)}

    # What the page asked Discord: the handshake with our client id, authorize for `identify` only, then
    # authenticate with the token the backend's exchange returned.
    saw = await pages[world.alice.id][0].evaluate("window.discordSaw")
    assert saw["handshake"]["client_id"] == str(ACTIVITY_CLIENT_ID)
    commands = [c["cmd"] for c in saw["commands"] if c["cmd"] != "CAPTURE_LOG"]
    assert commands[:2] == ["AUTHORIZE", "AUTHENTICATE"]
    assert saw["commands"][0]["args"]["scope"] == ["identify"]
    assert saw["commands"][1]["args"]["access_token"] in activity.discord.tokens
    # The member's Discord language, not the browser's: alice's client speaks French.
    alice_frame = pages[world.alice.id][1]
    assert await alice_frame.locator("html").get_attribute("lang") == "fr"

    # A button click in SimCord moves the board in both browsers.
    board = game_message(world.games)
    to_move = session.state.to_move
    assert to_move is not None and to_move.user_id is not None
    mover = world.member(to_move.user_id)
    await mover.click(board, custom_id=move_ids(board)[0])
    seq = session.state.seq
    for _, frame in pages.values():
        await shows_seq(frame, seq)

    played = 0
    while session.state.status == "running" and played < MAX_MOVES:
        state = session.state
        assert state.to_move is not None and state.to_move.user_id is not None
        frame = pages[state.to_move.user_id][1]
        waiting = pages[next(uid for uid in pages if uid != state.to_move.user_id)][1]
        await shows_seq(frame, state.seq)
        assert await waiting.locator(".pl-hit").count() == 0, "the member not to move has nothing to touch"
        await frame.locator(".pl-hit-source").first.click()
        await frame.locator(".pl-hit-target").first.click()
        if await frame.locator("#targets button:not(.cancel)").count() > 1:
            await frame.locator("#targets button:not(.cancel)").first.click()  # two throws land there
        await played_after(session, state.seq)
        played += 1
        await settled(activity)
        message = game_message(world.games)
        if session.state.status == "running":
            assert all(f":{session.state.seq}:" in custom_id for custom_id in move_ids(message)), (
                "the game message follows every move")
        await shows_seq(waiting, session.state.seq)

    assert session.state.status == "finished"
    assert manager.in_channel(world.games.id) is None
    final = game_message(world.games)
    assert not move_ids(final) and custom_ids(final, "puluc:replay:")
    assert len(await logged_moves(world, session.game_id)) == played + 1
    for _, frame in pages.values():
        await frame.locator("#app[data-status='finished']").wait_for(timeout=10_000)


async def test_on_a_phone_the_whole_board_fits_and_its_places_are_large_enough_to_touch(
        browser: Browser, activity: ActivityPage, tmp_path: Path) -> None:
    world = activity.world
    await accepted_challenge(world)
    session = services(world.env.bot).manager.in_channel(world.games.id)
    assert session is not None and session.state.to_move is not None and session.state.to_move.user_id is not None
    mover = world.member(session.state.to_move.user_id)
    context = await browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2,
                                        is_mobile=True, has_touch=True)
    page = await context.new_page()
    query = (f"user={mover.id}&name={mover.name}&code={activity.discord.code_for(mover.id)}&platform=mobile"
             f"&instance={ACTIVITY_INSTANCE}&guild={world.guild.id}&channel={world.games.id}")
    await page.goto(str(activity.client.make_url(f"/test/discord.html?{query}")))
    frame = page.frame_locator("#activity")
    await frame.locator(".pl-hit-source").first.wait_for(timeout=20_000)
    board = await frame.locator("#board svg").bounding_box()
    window = await page.locator("#activity").bounding_box()  # Discord's frame, as wide as the phone allows
    assert board is not None and window is not None and window["width"] <= 360
    assert window["x"] <= board["x"] and board["x"] + board["width"] <= window["x"] + window["width"]
    await frame.locator(".pl-hit-source").first.tap()
    target = await frame.locator(".pl-hit-target").first.bounding_box()
    assert target is not None and min(target["width"], target["height"]) >= 24, target
    await page.screenshot(path=str(tmp_path / "phone.png"))
    shots = os.environ.get("PULUC_SCREENSHOTS")
    if shots:
        await page.screenshot(path=f"{shots}/activity-phone.png")


async def test_the_member_to_move_plays_with_the_keyboard_and_a_spectator_has_no_controls(
        browser: Browser, activity: ActivityPage) -> None:
    world = activity.world
    session = await accepted_challenge(world)
    state = session.state
    assert state.to_move is not None and state.to_move.user_id is not None
    mover_page, mover = await open_activity(browser, activity, world.member(state.to_move.user_id))
    _, spectator = await open_activity(browser, activity, world.carol)
    assert await spectator.locator(".pl-hit").count() == 0
    assert await spectator.locator("#controls").is_hidden()
    assert "Ви дивитеся цю гру." in (await spectator.locator("#turn").inner_text()), "carol's Discord is Ukrainian"
    await mover.locator(".pl-hit-source").first.focus()
    await mover_page.keyboard.press("Enter")
    await mover.locator(".pl-hit-target").first.wait_for()
    assert await mover.locator(".pl-hit-target").first.evaluate("node => node === document.activeElement"), (
        "choosing a piece puts the focus on where it can go")
    await mover_page.keyboard.press("Escape")
    await mover.locator(".pl-hit-source").first.wait_for()
    assert await mover.locator(".pl-hit-target").count() == 0
    await mover.locator(".pl-hit-source").first.focus()
    await mover_page.keyboard.press("Enter")
    await mover.locator(".pl-hit-target").first.focus()
    await mover_page.keyboard.press("Enter")
    await played_after(session, state.seq)
    await shows_seq(spectator, session.state.seq)
    assert len(await logged_moves(world, session.game_id)) == 1
