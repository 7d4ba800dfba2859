"""The pages in a process of their own (WEB_PROCESS=OWN, the default): the bot starts it at a lower CPU
priority, tells it each move over a pipe (SQLite has no change feed), passes the Discord Activity's requests
through it to the bot's process, starts it again when it dies, and stops it when the bot stops."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import signal
import socket
import sys
from pathlib import Path
from urllib.parse import urlsplit

import aiohttp
import pytest

from bot.app import PulucBot, StartupError, start_web
from bot.cli.web import WEB_NICENESS
from bot.config import ActivityClient, Config
from bot.services import services
from bot.storage import Change
from bot.web.own_process import (
    PagesBeside,
    PagesFailed,
    PagesProcess,
    change_line,
    config_line,
    read_config_line,
)
from tests.bot.web.browser import chromium
from tests.bot.web.conftest import SECRET
from tests.bot.web.test_browser import link_button, served
from tests.helpers import (
    ACTIVITY_CLIENT_ID,
    ACTIVITY_SECRET,
    TOKEN,
    World,
    accepted_challenge,
    game_message,
    make_config,
    move_ids,
)

WAIT = 60.0  # a generous bound on what should take a moment (a process start on a busy machine)


@pytest.fixture
def config(tmp_path: Path) -> Config:
    return make_config(tmp_path / "puluc.db", web_port=0, web_secret=SECRET, web_base_url="http://pages.example",
                       web_own_process=True)


def bot_of(world: World) -> PulucBot:
    """The world's bot, whose pages run in a process of their own."""
    bot = world.env.bot
    assert isinstance(bot, PulucBot) and isinstance(bot.web, PagesBeside)
    return bot


def pages_of(world: World) -> PagesBeside:
    pages = bot_of(world).web
    assert isinstance(pages, PagesBeside)
    return pages


def game_link(world: World) -> str:
    return link_button(game_message(world.games))


async def next_board(stream: aiohttp.ClientResponse) -> int:
    """The seq of the next board event on a live page's stream (watcher counts and keep-alives skipped)."""
    event = ""
    async for raw in stream.content:
        line = raw.decode().rstrip("\n")
        if line.startswith("event: "):
            event = line.removeprefix("event: ")
        elif line.startswith("data: ") and event == "board":
            return int(json.loads(line.removeprefix("data: "))["seq"])
    raise AssertionError("the stream ended")


async def play_one(world: World) -> None:
    bot = world.env.bot
    session = services(bot).manager.get(game_id_of(world))
    to_move = session.state.to_move
    assert to_move is not None and to_move.user_id is not None
    board = game_message(world.games)
    await world.member(to_move.user_id).click(board, custom_id=move_ids(board)[0])


def game_id_of(world: World) -> int:
    return int(urlsplit(game_link(world)).path.split("/")[2])


async def healthy(address: str) -> bool:
    try:
        async with aiohttp.ClientSession() as client, client.get(f"{address}/healthz") as answer:
            return answer.status == 200
    except aiohttp.ClientError:
        return False


async def test_the_pages_run_beside_the_bot_at_a_lower_priority_and_show_each_move(world: World) -> None:
    await accepted_challenge(world)
    pages = pages_of(world)
    pid = pages.process.pid
    assert pid is not None and pid != os.getpid()
    assert os.getpriority(os.PRIO_PROCESS, pid) == min(19, os.getpriority(os.PRIO_PROCESS, 0) + WEB_NICENESS)
    game_id = game_id_of(world)
    events = served(bot_of(world), game_link(world)).replace(f"/g/{game_id}?", f"/g/{game_id}/events?")
    async with aiohttp.ClientSession() as client, client.get(events) as stream:
        assert stream.status == 200
        for _ in range(3):
            await play_one(world)
            seq = services(world.env.bot).manager.get(game_id).state.seq
            # The move is told down the pipe; the pages read it from the SQLite file and send it.
            async with asyncio.timeout(WAIT):
                while await next_board(stream) != seq:
                    pass


async def test_the_bot_stopping_stops_its_pages(world: World) -> None:
    pages = pages_of(world)
    address = f"http://127.0.0.1:{pages.port}"
    assert await healthy(address)
    proc = pages.process._proc
    assert proc is not None
    bot = world.env.bot
    await bot.close()
    assert proc.returncode == 0, "it closed its streams and ended when its pipe closed"
    assert not await healthy(address)


@pytest.mark.logs_error("the web pages' process stopped")
async def test_pages_that_die_are_started_again_on_the_same_port(world: World) -> None:
    pages = pages_of(world)
    address = f"http://127.0.0.1:{pages.port}"
    first = pages.process.pid
    assert first is not None
    os.kill(first, signal.SIGKILL)
    async with asyncio.timeout(WAIT):
        while pages.process.starts < 2 or not await healthy(address):  # noqa: ASYNC110 (another process's state)
            await asyncio.sleep(0.1)
    assert pages.process.pid not in (None, first)


async def test_a_taken_port_stops_the_start_with_one_line(tmp_path: Path, world: World) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        config = make_config(tmp_path / "puluc.db", web_port=port, web_secret=SECRET, web_own_process=True)
        games = services(world.env.bot)
        with pytest.raises(StartupError) as refused:
            await start_web(config, games.storage, games.compute, games)
    message = str(refused.value)
    assert f"127.0.0.1:{port}" in message and "WEB_PORT" in message and "\n" not in message


async def test_the_activity_is_reached_through_the_pages_process(tmp_path: Path, world: World) -> None:
    games = services(world.env.bot)
    config = make_config(tmp_path / "puluc.db", web_port=0, web_secret=SECRET, web_own_process=True,
                         activity_client=ActivityClient(ACTIVITY_CLIENT_ID, ACTIVITY_SECRET))
    pages = await start_web(config, games.storage, games.compute, games)
    assert isinstance(pages, PagesBeside)
    try:
        address = f"http://127.0.0.1:{pages.port}"
        async with aiohttp.ClientSession() as client:
            async with client.get(f"{address}/activity/") as page:
                assert page.status == 200 and "frame-ancestors" in page.headers["Content-Security-Policy"]
                assert "discord.com" in page.headers["Content-Security-Policy"], "the Activity's own policy"
            # Played in the bot's process: a request without a ticket is refused there, in its JSON.
            async with client.get(f"{address}/activity/api/game") as refused:
                assert refused.status == 401
                body = await refused.json()
                assert body["error"] and body["message"]
    finally:
        await pages.stop()


def test_a_change_line_is_what_the_change_feed_carries() -> None:
    from bot.storage.changes import parse_change

    for change in (Change("game", 12, 40), Change("tournament", 3)):
        channel, _, payload = change_line(change).decode().strip().partition(" ")
        assert parse_change(channel, payload) == change


async def test_a_live_page_in_a_browser_follows_a_move_made_in_discord(world: World) -> None:
    await accepted_challenge(world)
    async with chromium() as browser:
        page = await browser.new_page()
        response = await page.goto(served(bot_of(world), game_link(world)))
        assert response is not None and response.status == 200
        await page.wait_for_function("() => document.getElementById('live').dataset.connected === 'true'",
                                     timeout=10_000)
        await page.evaluate("window.notReloaded = true")
        before = await page.get_attribute("#live", "data-seq")
        await play_one(world)
        await page.wait_for_function(f"() => document.getElementById('live').dataset.seq !== '{before}'",
                                     timeout=10_000)
        assert await page.evaluate("window.notReloaded === true")
        assert int(await page.get_attribute("#live", "data-seq") or 0) == services(world.env.bot).manager.get(
            game_id_of(world)).state.seq


def fake_pages(tmp_path: Path, script: str) -> list[str]:
    """A stand-in for `puluc-bot web --for-bot` running `script` (its pipe is standard input)."""
    path = tmp_path / "pages.py"
    path.write_text(script)
    return [sys.executable, str(path)]


ECHO = """
import sys
sys.stdin.buffer.readline()  # the settings
print("listening 4321", flush=True)
with open("{out}", "wb") as out:
    for line in sys.stdin.buffer:
        out.write(line)
        out.flush()
"""


async def test_the_pipe_carries_each_change_in_order_and_closing_it_ends_the_pages(tmp_path: Path) -> None:
    out = tmp_path / "heard.txt"
    config = make_config(tmp_path / "puluc.db", web_port=0, web_secret=SECRET, web_own_process=True)
    process = PagesProcess(config, command=fake_pages(tmp_path, ECHO.replace("{out}", str(out))))
    await process.start()
    assert process.port == 4321
    changes = [Change("game", 7, 1), Change("tournament", 2), Change("game", 7, 2)]
    for change in changes:
        process.note(change)
    proc = process._proc
    assert proc is not None
    await process.stop()
    assert proc.returncode == 0, "it ended when the pipe closed, not terminated"
    assert out.read_bytes() == b"".join(map(change_line, changes))


async def test_pages_that_cannot_start_say_why_in_one_line(tmp_path: Path) -> None:
    config = make_config(tmp_path / "puluc.db", web_port=0, web_secret=SECRET, web_own_process=True)
    said_why = PagesProcess(config, command=fake_pages(
        tmp_path, "import sys\nsys.stdin.buffer.readline()\nprint('error cannot open the database', flush=True)\n"))
    with pytest.raises(PagesFailed, match=r"could not start: cannot open the database$"):
        await said_why.start()
    (tmp_path / "quiet").mkdir()
    died = PagesProcess(config, command=fake_pages(tmp_path / "quiet", "raise SystemExit(3)\n"))
    with pytest.raises(PagesFailed, match=r"stopped at start \(exit code 3\)"):
        await died.start()


async def test_on_postgresql_the_pages_hear_the_database_and_the_bot_sends_nothing(tmp_path: Path) -> None:
    from bot.storage import parse_database_url

    out = tmp_path / "heard.txt"
    config = make_config(tmp_path / "puluc.db", web_port=0, web_secret=SECRET, web_own_process=True,
                         database=parse_database_url("postgresql://postgres@127.0.0.1:5432/test"))
    process = PagesProcess(config, command=fake_pages(tmp_path, ECHO.replace("{out}", str(out))))
    await process.start()
    process.note(Change("game", 7, 1))
    await process.stop()
    assert out.read_bytes() == b""


def test_the_pages_get_no_secret_they_have_no_use_for(tmp_path: Path) -> None:
    config = make_config(tmp_path / "puluc.db", web_port=0, web_secret=SECRET, web_own_process=True,
                         activity_client=ActivityClient(ACTIVITY_CLIENT_ID, ACTIVITY_SECRET))
    line = config_line(config)
    assert TOKEN.encode() not in base64.b64decode(line) and ACTIVITY_SECRET.encode() not in base64.b64decode(line)
    sent = read_config_line(line)
    assert (sent.discord_token, sent.activity_client) == ("", None)
    assert (sent.web_secret, sent.database, sent.web_port) == (SECRET, config.database, 0)
