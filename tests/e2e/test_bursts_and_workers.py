"""Under load: a burst of moves leaves the board at most one edit behind (the newest position wins), and a
compute worker killed in the middle of drawing a board costs neither the move nor the board."""

from __future__ import annotations

import asyncio
import functools
import os
import signal
import time
from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.app import PulucBot
from bot.cogs.games import presenter as presenter_module
from bot.cogs.games.delivery import Delivered, Shown
from bot.sessions import ActionResult
from bot.ui.pictures import BoardRequest, draw_board
from bot.ui.views.ids import ComponentId
from tests.helpers import World, board_image, custom_ids, game_message, mentioned, move_ids
from tests.worker_probe import worker_pids

pytestmark = pytest.mark.worker_processes  # a whole flow: the bot as deployed, with its worker processes

BURST = 8


def draw_board_killed_once(started: Path, request: BoardRequest) -> bytes:
    """The game message's board, in a worker that is killed while drawing it: the first worker to draw says
    so (it creates the file `started`) and waits to be killed; the retry, in a new worker, draws at once."""
    if not started.exists():
        started.touch()
        time.sleep(60)  # the test kills this worker now
    return draw_board(request)


def shown_turn(message: Any) -> int:
    """The event number the game message's buttons carry (the position it shows)."""
    return ComponentId.parse(move_ids(message)[0]).turn


async def started_game(world: World) -> PulucBot:
    invitation = (await world.alice.slash(world.games, "puluc challenge", opponent=world.bob)).response
    assert invitation is not None
    await world.bob.click(invitation.message, custom_id=custom_ids(invitation, "puluc:accept:")[0])
    bot = world.env.bot
    assert isinstance(bot, PulucBot)
    return bot


async def test_a_burst_of_moves_is_shown_in_at_most_two_edits_ending_on_the_newest(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = await started_game(world)
    assert bot.games is not None
    games = bot.games
    (session,) = [games.manager.get(ComponentId.parse(move_ids(game_message(world.games))[0]).game_id)]
    results: list[ActionResult] = []
    for _ in range(BURST):  # the moves are saved first; their shows then arrive all at once
        state = session.state
        assert state.status == "running" and state.to_move is not None and state.to_move.user_id is not None
        results.append(await session.play(state.to_move.user_id, state.legal_options()[0].notation, turn=state.seq))
    assert session.state.status == "running", "the burst must not end the game (end screens are never skipped)"

    publisher = games.presenter.publisher
    deliveries: list[str] = []
    edit, send = publisher.edit, publisher.send

    async def counted_edit(*args: Any, **kwargs: Any) -> Delivered | None:
        deliveries.append("edit")
        return await edit(*args, **kwargs)

    async def counted_send(*args: Any, **kwargs: Any) -> Any:
        deliveries.append("send")
        return await send(*args, **kwargs)

    monkeypatch.setattr(publisher, "edit", counted_edit)
    monkeypatch.setattr(publisher, "send", counted_send)
    shown = await asyncio.gather(*(games.presenter.show(result) for result in results))

    assert len(deliveries) <= 2, deliveries  # the one in flight when the burst came, and the newest
    assert shown.count(Shown.SUPERSEDED) >= BURST - 2
    assert shown[-1] is Shown.EDITED
    final = game_message(world.games)
    assert shown_turn(final) == session.state.seq
    text = final.embeds[0].description or ""
    assert text, "the narration of the coalesced moves is on the message"


# The click settles only once a new pool has started (a fork server, two workers, their warm-up) and drawn the
# board again: seconds on a busy machine, beyond SimCord's default 5 s settle window (it failed so in CI at
# load 6). The window stays below the 15 s at which a game not shown is shown again, a timer SimCord would wait for.
@pytest.mark.simcord(settle_timeout=10)
async def test_a_worker_killed_while_drawing_the_board_costs_neither_move_nor_board(
    world: World, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    bot = await started_game(world)
    assert bot.compute is not None and not bot.compute.in_process
    pool = bot.compute
    drawing = tmp_path / "drawing"
    monkeypatch.setattr(presenter_module, "draw_board", functools.partial(draw_board_killed_once, drawing))
    board = game_message(world.games)
    before = shown_turn(board)
    (mover_id,) = mentioned(board)
    rebuilds, workers = pool.rebuilds, await worker_pids(pool)

    click = asyncio.ensure_future(world.member(mover_id).click(board, custom_id=move_ids(board)[0]))
    # Until a worker (another process, which can set no asyncio.Event) draws the board of the move.
    while not drawing.exists() and not click.done():  # noqa: ASYNC110
        await asyncio.sleep(0.01)
    assert not click.done()
    for pid in workers:
        os.kill(pid, signal.SIGKILL)
    clicked = await click

    assert pool.rebuilds == rebuilds + 1
    assert not workers & await worker_pids(pool)
    after = game_message(world.games)
    assert shown_turn(after) > before, "the move counted and the board shows it"
    assert (await board_image(after)).format == "PNG", "the board was drawn again by a new worker"
    assert clicked is not None and bot.games is not None
    game_id = ComponentId.parse(move_ids(after)[0]).game_id
    assert bot.games.manager.get(game_id).state.seq == shown_turn(after), "the board shows the saved game"


async def test_the_bot_draws_in_worker_processes_when_run_normally(simcord_env: simcord.Env) -> None:
    bot = simcord_env.bot
    assert isinstance(bot, PulucBot) and bot.compute is not None
    assert bot.config.workers is None and bot.compute.workers >= 1 and not bot.compute.in_process
    assert os.getpid() not in await worker_pids(bot.compute)
