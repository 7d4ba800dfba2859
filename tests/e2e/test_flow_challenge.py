"""Flow 1: `/puluc challenge` -> Accept -> a whole ranked Bell game by clicks -> result, ratings, ladders."""

from __future__ import annotations

import random

import pytest
import simcord

from tests.helpers import (
    World,
    board_image,
    custom_ids,
    embed_text,
    game_message,
    mentioned,
    move_ids,
    said,
)

pytestmark = pytest.mark.worker_processes  # a whole flow: the bot as deployed, with its worker processes


async def test_challenge_accept_and_play_a_ranked_game_to_its_result(world: World) -> None:
    challenged = await world.alice.slash(world.games, "puluc challenge", opponent=world.bob, ranked=True)
    invitation = challenged.response
    assert invitation is not None and not challenged.ephemeral
    assert world.bob.id in mentioned(invitation)
    accept = custom_ids(invitation, "puluc:accept:")
    assert accept and custom_ids(invitation, "puluc:decline:")

    outsider = await world.carol.click(invitation.message, custom_id=accept[0])
    assert "someone else" in said(outsider), "carol was not invited and must be told so"
    assert custom_ids(game_message(world.games), "puluc:accept:") == accept  # still waiting for bob

    await world.bob.click(invitation.message, custom_id=accept[0])
    board = game_message(world.games)
    assert board.id == invitation.id  # the invitation became the board
    assert move_ids(board)
    image = await board_image(board)
    assert image.format == "PNG" and image.width > 100 and image.height > 50
    assert board.embeds[0].image.url == "attachment://board.png"

    rng = random.Random(1)
    for clicks in range(2_000):
        board = game_message(world.games)
        moves = move_ids(board)
        if not moves:
            break
        (mover_id,) = mentioned(board)
        mover = world.member(mover_id)
        waiting = world.bob if mover is world.alice else world.alice
        if clicks % 7 == 0:  # now and then the other player and an outsider try to move
            early = await waiting.click(board, custom_id=moves[0])
            assert "not your turn" in said(early)
            nosy = await world.carol.click(board, custom_id=moves[0])
            assert "not playing" in said(nosy)
            assert move_ids(game_message(world.games)) == moves  # nothing changed
        await mover.click(board, custom_id=rng.choice(moves))
    else:
        raise AssertionError("the game did not end")

    final = game_message(world.games)
    text = embed_text(final)
    assert "wins" in text or "Draw" in text
    assert "alice" in text and "bob" in text
    assert custom_ids(final, "puluc:rematch:") and custom_ids(final, "puluc:replay:")
    assert await board_image(final)
    # Ranked: the result shows each player's rating change (e.g. "1500 -> 1523" or "+23").
    assert any(sign in text for sign in ("+", "−", "-", "→")), text

    profile = await world.alice.slash(world.games, "puluc profile")
    assert profile.response is not None
    profile_text = embed_text(profile.response)
    assert "alice" in profile_text and "1 game" in profile_text and "Rating" in profile_text

    leaderboard = await world.bob.slash(world.games, "puluc leaderboard")
    assert leaderboard.response is not None
    board_text = embed_text(leaderboard.response)
    assert "provisional" in board_text and "1 ranked game" in board_text  # bob's own place after one game


async def test_declining_a_challenge_closes_it(world: World, simcord_env: simcord.Env) -> None:
    challenged = await world.alice.slash(world.games, "puluc challenge", opponent=world.bob)
    assert challenged.response is not None
    (decline,) = custom_ids(challenged.response, "puluc:decline:")
    await world.bob.click(challenged.response.message, custom_id=decline)
    assert not custom_ids(world.games.history()[-1], "puluc:accept:")
    again = await world.alice.slash(world.games, "puluc challenge", opponent=world.carol)
    assert again.response is not None and not again.ephemeral  # the channel is free again
