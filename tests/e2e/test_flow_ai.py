"""Flow 3: `/puluc ai` on hard to the end, and a lobby with an AI seat."""

from __future__ import annotations

import random

import pytest

from tests.helpers import World, custom_ids, embed_text, game_message, mentioned, move_ids

pytestmark = pytest.mark.worker_processes  # a whole flow: the bot as deployed, with its worker processes


async def test_a_hard_ai_game_runs_to_its_result(world: World) -> None:
    started = await world.alice.slash(world.games, "puluc ai", difficulty="hard")
    assert started.response is not None
    rng = random.Random(4)
    for _ in range(1_000):
        board = game_message(world.games)
        moves = move_ids(board)
        if not moves:
            break
        assert mentioned(board) == [world.alice.id]  # the AI never keeps the turn after a click settles
        await world.alice.click(board, custom_id=rng.choice(moves))
    else:
        raise AssertionError("the game against the AI did not end")
    final = game_message(world.games)
    text = embed_text(final)
    assert "wins" in text or "draw" in text
    assert "hard" in text.lower()
    assert custom_ids(final, "puluc:rematch:")


async def test_a_lobby_seat_filled_by_the_ai_plays_itself(world: World) -> None:
    opened = await world.alice.slash(world.games, "puluc new")
    lobby = opened.response
    assert lobby is not None
    (add_ai,) = custom_ids(lobby, "puluc:addai:")  # only team B has a free seat
    await world.alice.click(lobby.message, custom_id=add_ai)
    lobby_now = game_message(world.games)
    assert "AI" in embed_text(lobby_now)
    (start,) = custom_ids(lobby_now, "puluc:start:")
    await world.alice.click(lobby_now, custom_id=start)
    rng = random.Random(5)
    for _ in range(12):
        board = game_message(world.games)
        moves = move_ids(board)
        if not moves:
            break
        assert mentioned(board) == [world.alice.id]
        await world.alice.click(board, custom_id=rng.choice(moves))
    assert "AI" in embed_text(game_message(world.games))
