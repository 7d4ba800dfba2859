"""Flow 6: two clicks of the same move at the same moment apply it once; a stale button changes nothing."""

from __future__ import annotations

import pytest
import simcord

from bot.services import services
from tests.helpers import World, click_concurrently, custom_ids, game_message, mentioned, move_ids, said

pytestmark = pytest.mark.worker_processes  # a whole flow: the bot as deployed, with its worker processes


async def started(world: World) -> None:
    opened = await world.alice.slash(world.games, "puluc new")
    assert opened.response is not None
    await world.bob.click(opened.response.message, custom_id=custom_ids(opened.response, "puluc:join:")[0])
    lobby = game_message(world.games)
    await world.alice.click(lobby, custom_id=custom_ids(lobby, "puluc:start:")[0])


async def test_the_same_move_clicked_twice_at_once_is_played_once(world: World, simcord_env: simcord.Env) -> None:
    await started(world)
    session = services(simcord_env.bot).manager.in_channel(world.games.id)
    assert session is not None
    board = game_message(world.games)
    (mover_id,) = mentioned(board)
    mover = world.member(mover_id)
    move = move_ids(board)[0]
    moves_before = sum(1 for e in session.state.record if hasattr(e, "move"))

    results = await click_concurrently(simcord_env, [(mover, board, move), (mover, board, move)])

    assert sum(1 for e in session.state.record if hasattr(e, "move")) == moves_before + 1
    assert all(r.acknowledged for r in results)
    told = [said(r) for r in results]
    assert sum(1 for text in told if "out of date" in text) == 1, told


async def test_a_stale_button_is_answered_and_changes_nothing(world: World, simcord_env: simcord.Env) -> None:
    await started(world)
    session = services(simcord_env.bot).manager.in_channel(world.games.id)
    assert session is not None
    board = game_message(world.games)
    (mover_id,) = mentioned(board)
    old_move = move_ids(board)[0]
    await world.member(mover_id).click(board, custom_id=old_move)
    state = session.state
    shown = move_ids(game_message(world.games))

    (stale,) = await click_concurrently(simcord_env, [(world.member(mover_id), board, old_move)])
    (stale_other,) = await click_concurrently(
        simcord_env, [(world.member(mentioned(game_message(world.games))[0]), board, old_move)])

    assert "out of date" in said(stale) and "out of date" in said(stale_other)
    assert session.state.seq == state.seq and session.state.position == state.position
    assert move_ids(game_message(world.games)) == shown
