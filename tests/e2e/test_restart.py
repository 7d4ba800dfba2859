"""Flow 5: a restart in the middle of a game: old buttons keep working from the same position, and a turn
timer that ran out while the bot was down fires exactly once after the restart."""

from __future__ import annotations

import pytest
import simcord

from bot.services import services
from tests.helpers import MakeBot, World, custom_ids, embed_text, game_message, mentioned, move_ids, present

pytestmark = pytest.mark.worker_processes  # a whole flow: the bot as deployed, with its worker processes


async def start_duel(world: World, *extra: str) -> None:
    opened = await world.alice.slash(world.games, "puluc new", turn_timer=60)
    assert opened.response is not None
    await world.bob.click(opened.response.message, custom_id=custom_ids(opened.response, "puluc:join:")[0])
    lobby = game_message(world.games)
    await world.alice.click(lobby, custom_id=custom_ids(lobby, "puluc:start:")[0])


async def test_old_buttons_work_after_a_restart_from_the_same_position(world: World, bots: MakeBot) -> None:
    await start_duel(world)
    for _ in range(4):
        board = game_message(world.games)
        await world.member(mentioned(board)[0]).click(board, custom_id=move_ids(board)[0])
    before = game_message(world.games)
    position = present(present(services(world.env.bot).manager.in_channel(world.games.id)).state.position).to_ppn()

    await world.env.restart_bot(bots())

    reloaded = services(world.env.bot).manager.in_channel(world.games.id)
    assert reloaded is not None and reloaded.state.position is not None
    assert reloaded.state.position.to_ppn() == position
    assert {str(m) for m in reloaded.state.position.legal_moves()} == {c.split(":", 4)[4] for c in move_ids(before)}
    (mover_id,) = mentioned(before)
    await world.member(mover_id).click(before, custom_id=move_ids(before)[0])  # the message from before
    after = game_message(world.games)
    assert after.id == before.id and move_ids(after) != move_ids(before)
    assert reloaded.state.position.to_ppn() != position


async def test_a_turn_timer_that_ran_out_during_the_downtime_fires_once(
    world: World, simcord_env: simcord.Env, bots: MakeBot
) -> None:
    await start_duel(world)
    board = game_message(world.games)
    (sleeper,) = mentioned(board)
    seq = present(services(simcord_env.bot).manager.in_channel(world.games.id)).state.seq
    # The old process goes down: its timers stop; then time passes beyond the 60 s turn timer.
    await services(simcord_env.bot).manager.stop_timers()
    await simcord_env.advance_time(90)

    await simcord_env.restart_bot(bots())
    await simcord_env.advance_time(1)

    session = services(simcord_env.bot).manager.in_channel(world.games.id)
    assert session is not None
    timed_out = [s for s in session.state.seats if s.timeouts]
    assert [(s.user_id, s.timeouts) for s in timed_out] == [(sleeper, 1)]
    assert session.state.seq > seq
    text = embed_text(game_message(world.games))
    assert text.count("ran out of time") == 1
    assert mentioned(game_message(world.games)) != [sleeper]  # the turn moved on

    await simcord_env.advance_time(30)  # less than a new turn timer: nothing more fires
    assert [s.timeouts for s in session.state.seats if s.timeouts] == [1]
    assert embed_text(game_message(world.games)).count("ran out of time") == 1
