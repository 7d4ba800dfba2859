"""Every interaction is acknowledged before its CPU work and before a slow database can make it miss Discord's
3 s deadline: with a database that takes longer than the bot's grace period (`PulucBot.ack_grace`) to answer,
the acknowledgement comes before any database answer and before any worker job, for the main flows. (With a
quick database a command answers directly, and refusals found there stay private: the flow tests.)

The bot of these tests waits `GRACE_SECONDS` (`PulucBot(ack_grace=...)`) instead of the deployed
`ACK_GRACE_SECONDS`, and its database answers each call `LATER_SECONDS` after the grace: the same race, with
real waits of 0.15 s instead of 1.5 s; the last test runs the bot as deployed."""

from __future__ import annotations

import asyncio
import functools
import inspect
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import discord
import pytest

from bot.app import PulucBot, bot_for
from bot.config import Config
from bot.services import services
from bot.ui.replies import ACK_GRACE_SECONDS
from tests.helpers import World, custom_ids, game_message, mentioned, move_ids, seed_sequence

# The grace of the test bot, and how much later than its grace the slow database answers each call (real
# time: the bot's grace is measured on the event loop's clock).
GRACE_SECONDS = 0.05
LATER_SECONDS = 0.1
# Simulated time for the slow database to finish what an action started.
FINISH_SECONDS = 120.0


class Steps:
    """What the bot did, in order: "ack" (a response to the interaction), "db:<method>" (a database call
    began), "db-done:<method>" (it answered), "cpu" (a worker job)."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def first(self) -> str:
        """The first thing the interaction got from the database or the workers, or its acknowledgement."""
        for step in self.seen:
            if step == "ack" or step == "cpu" or step.startswith("db-done:"):
                return step
        return "nothing"

    def clear(self) -> None:
        self.seen.clear()


def recorded(steps: Steps, label: str, method: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    @functools.wraps(method)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        steps.seen.append(label)
        return await method(*args, **kwargs)

    return wrapper


def slow(steps: Steps, name: str, method: Callable[..., Awaitable[Any]], seconds: float
         ) -> Callable[..., Awaitable[Any]]:
    @functools.wraps(method)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        steps.seen.append(f"db:{name}")
        await asyncio.sleep(seconds)
        found = await method(*args, **kwargs)
        steps.seen.append(f"db-done:{name}")
        return found

    return wrapper


@pytest.fixture
def grace() -> float | None:
    """The test bot's grace period; None for the bot's own (a test parametrizes it so)."""
    return GRACE_SECONDS


@pytest.fixture
async def simcord_bot(config: Config, grace: float | None) -> AsyncIterator[PulucBot]:
    """The bot with the grace period `grace`, closed after the test."""
    seeds = seed_sequence()
    bot = bot_for(config, seeds=seeds) if grace is None else bot_for(config, seeds=seeds, ack_grace=grace)
    yield bot
    await bot.close()


@pytest.fixture
def steps(world: World, monkeypatch: pytest.MonkeyPatch) -> Steps:
    """Records the steps of the bot, whose database answers each call `LATER_SECONDS` after its grace."""
    bot = world.env.bot
    assert isinstance(bot, PulucBot) and bot.compute is not None
    found = Steps()
    storage = services(bot).storage
    for store in (storage.games, storage.ladders, storage.players, storage.seasons, storage.tournaments,
                  storage.server_settings):
        for name in dir(store):
            method = getattr(store, name, None)
            if not name.startswith("_") and inspect.iscoroutinefunction(method):
                monkeypatch.setattr(store, name, slow(found, name, method, bot.ack_grace + LATER_SECONDS))
    monkeypatch.setattr(bot.compute, "run", recorded(found, "cpu", bot.compute.run))
    for name in ("defer", "send_message", "edit_message"):
        original = getattr(discord.InteractionResponse, name)
        monkeypatch.setattr(discord.InteractionResponse, name,
                            functools.partialmethod(recorded(found, "ack", original)))
    return found


async def test_game_commands_and_clicks_are_acknowledged_before_a_slow_database_and_the_workers(
    world: World, steps: Steps
) -> None:
    steps.clear()
    challenged = await world.alice.slash(world.games, "puluc challenge", opponent=world.bob, ranked=True)
    await world.env.advance_time(FINISH_SECONDS)
    assert steps.first() == "ack", steps.seen
    assert any(step.startswith("db:") for step in steps.seen)
    assert challenged.acknowledged
    invitation = game_message(world.games)

    steps.clear()
    await world.bob.click(invitation, custom_id=custom_ids(invitation, "puluc:accept:")[0])
    await world.env.advance_time(FINISH_SECONDS)
    assert steps.first() == "ack", steps.seen
    assert "cpu" in steps.seen, "the first board was drawn by the workers"

    board = game_message(world.games)
    (mover,) = mentioned(board)
    steps.clear()
    await world.member(mover).click(board, custom_id=move_ids(board)[0])
    await world.env.advance_time(FINISH_SECONDS)
    assert steps.first() == "ack", steps.seen
    assert "cpu" in steps.seen

    steps.clear()
    await world.carol.slash(world.games, "puluc ai", difficulty="easy")  # refused: this channel has a game
    await world.env.advance_time(FINISH_SECONDS)
    assert steps.first() == "ack", steps.seen


@pytest.mark.parametrize("command", ["puluc profile", "puluc history", "puluc leaderboard", "puluc privacy",
                                     "puluc-admin settings", "puluc new"])
async def test_commands_that_read_a_slow_database_are_acknowledged_in_time(
    world: World, steps: Steps, command: str
) -> None:
    managers = world.guild.create_role("Managers", permissions=discord.Permissions(manage_guild=True))
    boss = world.guild.add_member(world.env.create_user("boss"), roles=[managers])
    steps.clear()
    result = await boss.slash(world.games, command)
    await world.env.advance_time(FINISH_SECONDS)
    assert steps.first() == "ack", steps.seen
    assert any(step.startswith("db:") for step in steps.seen), f"{command} reads the database"
    assert result.acknowledged


async def test_a_refusal_found_in_a_slow_database_takes_the_place_of_the_thinking_message(
    world: World, steps: Steps
) -> None:
    steps.clear()
    result = await world.alice.slash(world.games, "puluc replay", game_id=999)
    await world.env.advance_time(FINISH_SECONDS)
    assert steps.first() == "ack", steps.seen
    assert result.response is not None and "999" in result.response.content


@pytest.mark.parametrize("grace", [None], ids=["deployed grace"])
async def test_the_bot_as_deployed_acknowledges_a_slow_database_once_its_grace_is_over(
    world: World, steps: Steps
) -> None:
    bot = world.env.bot
    assert isinstance(bot, PulucBot) and bot.ack_grace == ACK_GRACE_SECONDS
    steps.clear()
    result = await world.alice.slash(world.games, "puluc profile")
    await world.env.advance_time(FINISH_SECONDS)
    assert steps.first() == "ack", steps.seen
    assert result.acknowledged
