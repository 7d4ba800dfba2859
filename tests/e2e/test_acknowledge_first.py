"""Every interaction is acknowledged before its CPU work and before a slow database can make it miss Discord's
3 s deadline: with a database that takes longer than the grace period (`ACK_GRACE_SECONDS`) to answer, the
acknowledgement comes before any database answer and before any worker job, for the main flows. (With a
quick database a command answers directly, and refusals found there stay private: the flow tests.)"""

from __future__ import annotations

import asyncio
import functools
import inspect
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import discord
import pytest

from bot.app import PulucBot
from bot.services import services
from bot.ui.replies import ACK_GRACE_SECONDS
from tests.helpers import World, custom_ids, game_message, mentioned, move_ids

# The database of these tests answers each call this much later (simulated time: the tests stay fast).
SLOW_DATABASE_SECONDS = ACK_GRACE_SECONDS + 0.5
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


def slow(steps: Steps, name: str, method: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    @functools.wraps(method)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        steps.seen.append(f"db:{name}")
        await asyncio.sleep(SLOW_DATABASE_SECONDS)
        found = await method(*args, **kwargs)
        steps.seen.append(f"db-done:{name}")
        return found

    return wrapper


@pytest.fixture
def steps(world: World, monkeypatch: pytest.MonkeyPatch) -> Iterator[Steps]:
    bot = world.env.bot
    assert isinstance(bot, PulucBot) and bot.compute is not None
    found = Steps()
    store = services(bot).storage
    for name in dir(store):
        method = getattr(store, name, None)
        if not name.startswith("_") and inspect.iscoroutinefunction(method):
            monkeypatch.setattr(store, name, slow(found, name, method))
    monkeypatch.setattr(bot.compute, "run", recorded(found, "cpu", bot.compute.run))
    for name in ("defer", "send_message", "edit_message"):
        original = getattr(discord.InteractionResponse, name)
        monkeypatch.setattr(discord.InteractionResponse, name,
                            functools.partialmethod(recorded(found, "ack", original)))
    yield found


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
