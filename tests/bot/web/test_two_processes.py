"""Two processes on one PostgreSQL database: `puluc-bot web` serves a game's page in one, the game is played in
the other, and the page (in a real browser) shows each move by itself, heard through LISTEN/NOTIFY."""

from __future__ import annotations

import asyncio
import os
import socket
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from bot.cli.web import WEB_NICENESS
from bot.compute import WORKER_NICENESS
from bot.storage import Storage, open_storage
from bot.ui.links import Page, WebLinks
from tests.bot.web.browser import chromium
from tests.bot.web.conftest import SECRET
from tests.helpers import FakeClock, first_legal, make_manager, started_duel

REPO_ROOT = Path(__file__).resolve().parents[3]
START_TIMEOUT = 60.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
async def writer(postgres_url: str) -> AsyncIterator[Storage]:
    """This process's storage on the database: the process that plays."""
    storage = await open_storage(postgres_url)
    yield storage
    await storage.close()


STARTED: dict[str, int] = {}  # address -> process id of each `web_process`


@pytest.fixture
async def web_process(postgres_url: str, writer: Storage) -> AsyncIterator[str]:
    """`puluc-bot web` in a process of its own on the same database; its address once it answers (and its
    process id in `STARTED`)."""
    port = free_port()
    env = {**os.environ, "DATABASE_URL": postgres_url, "WEB_PORT": str(port), "WEB_SECRET": SECRET,
           "WORKERS": "0", "LOG_LEVEL": "WARNING", "DISCORD_TOKEN": ""}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "web", cwd=REPO_ROOT, env=env, stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    address = f"http://127.0.0.1:{port}"
    try:
        async with aiohttp.ClientSession() as client:
            deadline = asyncio.get_running_loop().time() + START_TIMEOUT
            while True:
                if process.returncode is not None:
                    raise AssertionError(f"puluc-bot web exited: {(await process.stderr.read()).decode()}")  # type: ignore[union-attr]
                try:
                    async with client.get(f"{address}/healthz") as answer:
                        if answer.status == 200:
                            break
                except aiohttp.ClientError:
                    pass
                assert asyncio.get_running_loop().time() < deadline, "puluc-bot web did not start"
                await asyncio.sleep(0.2)
        STARTED[address] = process.pid
        yield address
    finally:
        if process.returncode is None:
            process.terminate()
            await asyncio.wait_for(process.wait(), 20)
        assert process.returncode == 0, (await process.stderr.read()).decode()  # type: ignore[union-attr]


async def test_a_move_in_one_process_updates_the_page_served_by_the_other(
    writer: Storage, web_process: str, clock: FakeClock
) -> None:
    manager = make_manager(writer.games, clock, first_legal)
    session = await started_duel(manager)
    game_id = session.state.game_id
    link = WebLinks(SECRET).path(f"/g/{game_id}", Page("g", game_id))
    async with chromium() as browser:
        page = await browser.new_page()
        response = await page.goto(web_process + link)
        assert response is not None and response.status == 200
        await page.wait_for_function("() => document.getElementById('live').dataset.connected === 'true'",
                                     timeout=10_000)  # the stream is open
        await page.evaluate("window.notReloaded = true")
        for _ in range(3):
            before = await page.get_attribute("#live", "data-seq")
            state = session.state
            assert state.to_move is not None and state.to_move.user_id is not None
            await session.play(state.to_move.user_id, state.legal_options()[0].notation, turn=state.seq)
            # Heard through PostgreSQL from this process; the timeout is only a generous bound.
            await page.wait_for_function(f"() => document.getElementById('live').dataset.seq !== '{before}'",
                                         timeout=10_000)
            assert await page.get_attribute("#live", "data-seq") == str(session.state.seq)
        assert await page.evaluate("window.notReloaded === true")


async def test_the_pages_process_yields_the_cpu_to_the_bots(web_process: str) -> None:
    # On a machine shared with the bot, the players' boards (workers at niceness 10) come before the pages.
    ours = os.getpriority(os.PRIO_PROCESS, 0)
    assert os.getpriority(os.PRIO_PROCESS, STARTED[web_process]) == min(19, ours + WEB_NICENESS)
    assert WEB_NICENESS > WORKER_NICENESS
