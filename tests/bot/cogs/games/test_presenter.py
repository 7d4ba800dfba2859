"""The presenter's timing, under SimCord: what it asks Discord while a board is being drawn."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.services import services
from bot.ui.pictures import draw_board
from tests.helpers import World, accepted_challenge, game_message, mentioned, move_ids


async def test_where_the_game_message_is_is_asked_while_the_board_is_drawn(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    await accepted_challenge(world)
    presenter = services(world.env.bot).presenter
    pool = presenter.compute
    run = pool.run
    drawing = asyncio.Event()
    release = asyncio.Event()
    asked_while_drawing: list[bool] = []

    async def held_run(fn: Any, *args: Any, **kwargs: Any) -> Any:
        if fn is draw_board:
            drawing.set()
            await world.env.external_wait(release.wait(), reason="the test holds the board back")
        return await run(fn, *args, **kwargs)

    near_bottom = presenter.publisher.near_bottom

    async def watched(*args: Any, **kwargs: Any) -> bool:
        asked_while_drawing.append(drawing.is_set() and not release.is_set())
        return await near_bottom(*args, **kwargs)

    monkeypatch.setattr(pool, "run", held_run)
    monkeypatch.setattr(presenter.publisher, "near_bottom", watched)
    board = game_message(world.games)
    (mover,) = mentioned(board)
    await world.member(mover).click(board, custom_id=move_ids(board)[0])
    assert asked_while_drawing == [True]

    release.set()
    await world.env.settle()
    assert move_ids(game_message(world.games)) != move_ids(board), "the board of the move is shown"
