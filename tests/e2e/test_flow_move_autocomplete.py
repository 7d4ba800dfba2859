"""Flow 4: `/puluc move` autocomplete offers exactly the caller's legal moves, and a chosen one is played."""

from __future__ import annotations

import pytest

from bot.services import services
from tests.helpers import World, custom_ids, game_message, mentioned, move_ids, notation, present, said

pytestmark = pytest.mark.worker_processes  # a whole flow: the bot as deployed, with its worker processes


async def test_autocomplete_lists_exactly_the_legal_moves_of_the_player_to_move(world: World) -> None:
    opened = await world.alice.slash(world.games, "puluc new")
    assert opened.response is not None
    await world.bob.click(opened.response.message, custom_id=custom_ids(opened.response, "puluc:join:")[0])
    await world.alice.click(game_message(world.games), custom_id=custom_ids(game_message(world.games),
                                                                             "puluc:start:")[0])
    for _ in range(6):  # several positions, with different throws and pieces on the road
        board = game_message(world.games)
        (mover_id,) = mentioned(board)
        mover = world.member(mover_id)
        waiting = world.bob if mover is world.alice else world.alice
        session = services(world.env.bot).manager.in_channel(world.games.id)
        assert session is not None and session.state.position is not None
        legal = {str(move) for move in session.state.position.legal_moves()}

        choices = await mover.autocomplete(world.games, "puluc move", "move", "")
        assert {choice["value"] for choice in choices} == legal
        assert {notation(m) for m in move_ids(board)} == legal
        assert all(choice["name"].startswith("throw ") for choice in choices)  # each says what it plays
        assert await waiting.autocomplete(world.games, "puluc move", "move", "") == []
        assert await world.carol.autocomplete(world.games, "puluc move", "move", "") == []

        typed = min(legal)
        narrowed = await mover.autocomplete(world.games, "puluc move", "move", typed)
        assert typed in {choice["value"] for choice in narrowed}

        played = await mover.slash(world.games, "puluc move", move=typed)
        assert played.ephemeral and "Played" in said(played)
        assert session.state.position is None or str(present(session.state.position.last_move).move) == typed
        if not move_ids(game_message(world.games)):
            break
