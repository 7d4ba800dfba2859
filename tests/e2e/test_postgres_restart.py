"""PostgreSQL stopped and started under a running game, and a connection cut while COMMIT's answer is on its
way: clear answers, nothing lost, nothing doubled.

The bot talks to the shared test server through a TCP proxy this test owns (the server itself is never
stopped: others use it). `stop()` is the server going down: every connection cut, new ones refused; `start()`
is it coming back on the same port.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import urlsplit

import discord
import pytest
import simcord

from bot.config import Config
from bot.storage.urls import parse_database_url
from bot.ui.i18n import t
from tests.helpers import (
    World,
    accepted_challenge,
    custom_ids,
    game_message,
    logged_moves,
    make_config,
    mentioned,
    move_ids,
    said,
)
from tests.postgres import TcpProxy, fresh_schema, through


@pytest.fixture
async def postgres() -> AsyncIterator[tuple[str, TcpProxy]]:
    """A fresh schema on the test server, reached through a proxy: (its DATABASE_URL via the proxy, proxy)."""
    async with fresh_schema("bugs") as url:
        parts = urlsplit(url)
        proxy = TcpProxy(parts.hostname or "127.0.0.1", parts.port or 5432)
        await proxy.start()
        try:
            yield through(url, proxy), proxy
        finally:
            await proxy.close()


@pytest.fixture
def config(postgres: tuple[str, TcpProxy], tmp_path: Path) -> Config:
    return make_config(tmp_path / "unused.db", database=parse_database_url(postgres[0]))


def next_click(world: World) -> tuple[discord.Message, int, str]:
    """The game message, whose turn it is, and the first move button there."""
    board = game_message(world.games)
    (mover,) = mentioned(board)
    return board, mover, move_ids(board)[0]


# While the server is down the bot retries in the background (asyncpg refills its pool after 1, 2, 4... s;
# the shard leases reconnect after 0.1, 0.2, 0.4... s). SimCord waits, in real time, for every timer of the
# bot due within its settle window before it hands back a click: a 2.5 s window instead of its 5 s lets those
# retries go on in the background, as they do in production, instead of costing the test 8 s of waiting.
@pytest.mark.simcord(settle_timeout=2.5)
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
