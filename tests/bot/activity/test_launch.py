"""The game message's "Play on the board" button, with the Activity configured: it answers with Discord's launch
of the Activity (InteractionResponse.launch_activity). Without it: tests/bot/cogs/games/test_activity_button.py."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from tests.helpers import ActivityPage as Page
from tests.helpers import accepted_challenge, components_of, custom_ids, game_message, said


def launch_button(message: Any) -> list[str]:
    return custom_ids(message, "puluc:launch:")


async def test_the_game_message_offers_the_board_and_a_click_launches_the_activity(
        page: Page, monkeypatch: pytest.MonkeyPatch) -> None:
    world = page.world
    await accepted_challenge(world)
    board = game_message(world.games)
    (launch,) = launch_button(board)
    labels = [c.get("label") for c in components_of(board)]
    assert "Play on the board" in labels
    launched: list[int] = []

    async def launch_activity(self: discord.InteractionResponse[Any]) -> None:
        launched.append(self._parent.user.id)

    monkeypatch.setattr(discord.InteractionResponse, "launch_activity", launch_activity)
    await world.carol.click(board, custom_id=launch)  # anyone in the channel may watch on the board
    assert launched == [world.carol.id]
    assert game_message(world.games).id == board.id and launch_button(game_message(world.games)) == [launch]


async def test_a_launch_discord_refuses_is_said_to_the_clicker_alone(page: Page) -> None:
    world = page.world
    await accepted_challenge(world)
    board = game_message(world.games)
    # SimCord, like Discord for an application whose Activity is not turned on, refuses the launch callback.
    clicked = await world.bob.click(board, custom_id=launch_button(board)[0])
    assert said(clicked) == "The board could not be opened here; use the buttons of the game message."
