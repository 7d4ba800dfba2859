"""Every interaction is acknowledged before any database or CPU work, so Discord's 3 s deadline holds however
busy the database and the workers are: the order of the bot's first steps, recorded for the main flows."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import discord
import pytest

from bot.app import PulucBot
from bot.services import services
from tests.helpers import World, custom_ids, game_message, mentioned, move_ids


class Steps:
    """What the bot did, in order: "ack" (the interaction's first response), "db:<method>", "cpu:<job>"."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def first(self) -> str:
        return self.seen[0] if self.seen else "nothing"

    def clear(self) -> None:
        self.seen.clear()


def recorded(steps: Steps, label: str, method: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    @functools.wraps(method)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        steps.seen.append(label)
        return await method(*args, **kwargs)

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
            monkeypatch.setattr(store, name, recorded(found, f"db:{name}", method))
    monkeypatch.setattr(bot.compute, "run", recorded(found, "cpu", bot.compute.run))
    for name in ("defer", "send_message", "edit_message"):
        original = getattr(discord.InteractionResponse, name)
        monkeypatch.setattr(discord.InteractionResponse, name,
                            functools.partialmethod(recorded(found, "ack", original)))
    yield found


async def test_game_commands_and_clicks_are_acknowledged_before_the_database_and_the_workers(
    world: World, steps: Steps
) -> None:
    steps.clear()
    challenged = await world.alice.slash(world.games, "puluc challenge", opponent=world.bob, ranked=True)
    assert steps.first() == "ack", steps.seen
    assert any(step.startswith("db:") for step in steps.seen) and "cpu" not in steps.seen[:1]
    invitation = challenged.response
    assert invitation is not None

    steps.clear()
    await world.bob.click(invitation.message, custom_id=custom_ids(invitation, "puluc:accept:")[0])
    assert steps.first() == "ack", steps.seen
    assert "cpu" in steps.seen, "the first board was drawn by the workers"

    board = game_message(world.games)
    (mover,) = mentioned(board)
    steps.clear()
    await world.member(mover).click(board, custom_id=move_ids(board)[0])
    assert steps.first() == "ack", steps.seen
    assert "cpu" in steps.seen

    steps.clear()
    await world.carol.slash(world.games, "puluc ai", difficulty="easy")  # refused: this channel has a game
    assert steps.first() == "ack", steps.seen


@pytest.mark.parametrize("command", ["puluc profile", "puluc history", "puluc leaderboard", "puluc privacy",
                                     "puluc-admin settings", "puluc new"])
async def test_commands_that_read_the_database_answer_first(world: World, steps: Steps, command: str) -> None:
    managers = world.guild.create_role("Managers", permissions=discord.Permissions(manage_guild=True))
    boss = world.guild.add_member(world.env.create_user("boss"), roles=[managers])
    steps.clear()
    result = await boss.slash(world.games, command)
    assert steps.first() == "ack", steps.seen
    assert any(step.startswith("db:") for step in steps.seen), f"{command} reads the database"
    assert result.acknowledged


async def test_a_refusal_found_in_the_database_takes_the_place_of_the_thinking_message(
    world: World, steps: Steps
) -> None:
    steps.clear()
    result = await world.alice.slash(world.games, "puluc replay", game_id=999)
    assert steps.first() == "ack", steps.seen
    assert result.response is not None and "999" in result.response.content
