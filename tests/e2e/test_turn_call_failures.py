"""Turn calls when Discord fails (issue 26): a call is retried like every delivery, a call a moderator deleted is
no error, and a channel the bot can no longer post in is logged once while members who chose DMs still get
theirs. A lost call never blocks a move. Time is SimCord's clock: the bot's retry pauses pass only when the
test advances it."""

from __future__ import annotations

import asyncio
import logging
import random
import re
from pathlib import Path

import discord
import pytest
import simcord

from bot.config import Config
from bot.services import services
from bot.sessions import GameSession
from tests.helpers import World, accepted_challenge, game_message, make_config, mentioned, move_ids

CALL = re.compile(r"^<@(\d+)>, ")


@pytest.fixture
def config(tmp_path: Path) -> Config:
    return make_config(tmp_path / "puluc.db", turn_ping_after_seconds=0)


@pytest.fixture(autouse=True)
def simulated_pauses(world: World, simcord_env: simcord.Env) -> None:
    async def pause(seconds: float) -> None:
        await simcord_env.external_wait(asyncio.sleep(seconds), reason="the bot's pause before a retry")

    services(simcord_env.bot).presenter.publisher.sleep = pause


def calls_in(channel: simcord.ChannelHandle) -> list[discord.Message]:
    return [m for m in channel.history() if not m.flags.ephemeral and not m.components and CALL.match(m.content)]


def to_move(session: GameSession) -> int:
    seat = session.state.to_move
    assert seat is not None and seat.user_id is not None
    return seat.user_id


async def pass_the_turn(world: World, session: GameSession, rng: random.Random) -> None:
    """Moves until the turn has passed to the other member."""
    first = to_move(session)
    for _ in range(10):
        board = game_message(world.games)
        await world.member(mentioned(board)[0]).click(board, custom_id=rng.choice(move_ids(board)))
        if session.state.status != "running" or to_move(session) != first:
            return


async def test_a_call_that_discord_fails_is_retried(world: World) -> None:
    world.env.inject_error("POST", f"/channels/{world.games.id}/messages", status=503, times=2)
    session = await accepted_challenge(world)
    assert calls_in(world.games) == []  # the board is shown; its call waits for a retry
    await world.env.advance_time(2)
    (call,) = calls_in(world.games)
    assert [u.id for u in call.mentions] == [to_move(session)]


async def test_a_call_a_moderator_deleted_is_no_error(world: World) -> None:
    session = await accepted_challenge(world)
    (call,) = calls_in(world.games)
    world.env.inject_error("DELETE", f"/channels/{world.games.id}/messages/{call.id}", status=404, code=10008,
                           message="Unknown Message")
    await pass_the_turn(world, session, random.Random(2))
    (new,) = [m for m in calls_in(world.games) if m.id != call.id]
    assert [u.id for u in new.mentions] == [to_move(session)]


async def test_a_channel_the_bot_cannot_post_in_is_logged_once_and_dms_still_go(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    await world.alice.slash(world.games, "puluc notifications", mode="dm")
    world.env.inject_error("POST", f"/channels/{world.games.id}/messages", status=403, code=50013,
                           message="Missing Permissions", times=None)
    session = await accepted_challenge(world)
    rng = random.Random(4)
    with caplog.at_level(logging.WARNING, logger="bot.cogs.games.calls"):
        for _ in range(6):
            if session.state.status != "running":
                break
            await pass_the_turn(world, session, rng)
    muted = [r for r in caplog.records if "cannot post turn calls" in r.getMessage()]
    assert len(muted) == 1
    dms = [m for m in world.alice.user.dm_channel.history() if m.author.bot]
    assert dms and all("Puluc #" in m.content for m in dms)  # alice chose DMs: she is still called
    assert session.state.seq > 6  # the lost calls never held a move up
