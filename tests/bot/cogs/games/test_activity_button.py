"""Without DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET the Activity is off: no game message offers it."""

from __future__ import annotations

from tests.helpers import World, accepted_challenge, custom_ids, game_message


async def test_without_the_activity_the_game_message_has_no_board_button(world: World) -> None:
    await accepted_challenge(world)
    board = game_message(world.games)
    assert custom_ids(board, "puluc:launch:") == []
    assert custom_ids(board, "puluc:resign:"), "the game message is there, with its other buttons"
