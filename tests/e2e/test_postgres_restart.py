"""PostgreSQL stopped and started under a running game, and a connection cut while COMMIT's answer is on its
way: clear answers, nothing lost, nothing doubled.

The bot talks to the shared test server through a TCP proxy this test owns (the server itself is never
stopped: others use it). `stop()` is the server going down: every connection cut, new ones refused; `start()`
is it coming back on the same port.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import discord
import pytest
import simcord

from bot.config import Settings
from bot.storage.urls import parse_database_url
from bot.ui.i18n import t
from tests.helpers import (
    World,
    accepted_challenge,
    custom_ids,
    game_message,
    logged_moves,
    make_settings,
    mentioned,
    move_ids,
    said,
)
from tests.postgres import fresh_schema


class TcpProxy:
    """Forwards 127.0.0.1:`port` to the PostgreSQL server; can go down, come back, and cut at a COMMIT."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.port = 0
        self._server: asyncio.Server | None = None
        self._links: set[tuple[asyncio.StreamWriter, asyncio.StreamWriter]] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self.cut_at: bytes | None = None  # cut every connection once a client sends these bytes

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", self.port, reuse_address=True)
        self.port = self._server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        assert self._server is not None
        self._server.close()
        self._cut()

    async def close(self) -> None:
        if self._server is not None and self._server.is_serving():
            await self.stop()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._server is not None:
            await self._server.wait_closed()

    def _cut(self) -> None:
        for client, server in list(self._links):
            client.transport.abort()
            server.transport.abort()
        self._links.clear()

    def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.get_running_loop().create_task(self._link(reader, writer))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _link(self, client_reader: asyncio.StreamReader, client: asyncio.StreamWriter) -> None:
        try:
            server_reader, server = await asyncio.open_connection(*self.target)
        except OSError:
            client.transport.abort()
            return
        link = (client, server)
        self._links.add(link)
        await asyncio.gather(self._pipe(client_reader, server, upstream=True), self._pipe(server_reader, client),
                             return_exceptions=True)
        self._links.discard(link)
        for writer in link:
            writer.transport.abort()

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, *, upstream: bool = False
                    ) -> None:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
            if upstream and self.cut_at is not None and self.cut_at in data:
                self.cut_at = None
                # The server gets the whole COMMIT (and commits); the client never hears back.
                await asyncio.sleep(0.2)
                self._cut()
                return
        writer.close()  # one side hung up: so does the proxy towards the other


@pytest.fixture
async def postgres() -> AsyncIterator[tuple[str, TcpProxy]]:
    """A fresh schema on the test server, reached through a proxy: (its DATABASE_URL via the proxy, proxy)."""
    async with fresh_schema("bugs") as url:
        parts = urlsplit(url)
        proxy = TcpProxy(parts.hostname or "127.0.0.1", parts.port or 5432)
        await proxy.start()
        auth = f"{parts.username}@" if parts.username else ""
        try:
            yield urlunsplit(parts._replace(netloc=f"{auth}127.0.0.1:{proxy.port}")), proxy
        finally:
            await proxy.close()


@pytest.fixture
def settings(postgres: tuple[str, TcpProxy], tmp_path: Path) -> Settings:
    return make_settings(tmp_path / "unused.db", database=parse_database_url(postgres[0]))


def next_click(world: World) -> tuple[discord.Message, int, str]:
    """The game message, whose turn it is, and the first move button there."""
    board = game_message(world.games)
    (mover,) = mentioned(board)
    return board, mover, move_ids(board)[0]


async def test_postgres_down_and_back_up_mid_game(
    world: World, simcord_env: simcord.Env, postgres: tuple[str, TcpProxy]
) -> None:
    _, proxy = postgres
    session = await accepted_challenge(world)
    board, mover, button = next_click(world)
    await world.member(mover).click(board, custom_id=button)
    played = await logged_moves(world, session.game_id)
    board, mover, button = next_click(world)
    state = session.state

    await proxy.stop()  # the server goes down
    refused = await world.member(mover).click(board, custom_id=button)

    assert said(refused) == t("error.move_not_saved", "en")
    assert session.state is state and move_ids(game_message(world.games)) == move_ids(board)
    reposted = await world.carol.slash(world.games, "puluc board")
    assert said(reposted) == t("error.not_saved", "en")
    assert [m.id for m in world.games.history() if custom_ids(m, enabled=False)] == [board.id]

    await proxy.start()  # and comes back
    again = await world.member(mover).click(board, custom_id=button)

    assert not said(again)
    assert await logged_moves(world, session.game_id) == [*played, button.split(":", 4)[4]]
    assert session.state.seq > state.seq


async def test_a_move_committed_as_the_connection_is_cut_counts_once(
    world: World, simcord_env: simcord.Env, postgres: tuple[str, TcpProxy]
) -> None:
    _, proxy = postgres
    session = await accepted_challenge(world)
    board, mover, button = next_click(world)
    state = session.state

    proxy.cut_at = b"COMMIT"
    clicked = await world.member(mover).click(board, custom_id=button)

    assert proxy.cut_at is None  # the cut happened
    assert not said(clicked)  # no "not played": it was
    assert await logged_moves(world, session.game_id) == [button.split(":", 4)[4]]
    assert session.state.seq > state.seq
    shown = game_message(world.games)
    assert move_ids(shown) != move_ids(board) and mentioned(shown) != [mover]
