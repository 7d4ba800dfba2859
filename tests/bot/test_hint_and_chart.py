"""`/puluc hint` under SimCord, and the advantage chart a finished game's result message carries."""

from __future__ import annotations

import asyncio
import io
import itertools
import random
import re
from types import SimpleNamespace
from typing import Any, cast

import pytest
from PIL import Image

from bot.cogs.games.boards import chart_request
from bot.cogs.games.charts import CHART_FILE, Charts
from bot.compute import ComputePool
from bot.services import services
from bot.sessions import GameState
from bot.ui.pictures import draw_chart, sample_evenly, turn_starts
from puluc import Position, Rules
from tests.helpers import World, custom_ids, finished_bell_game, game_message, mentioned, move_ids, said

PERCENT = re.compile(r"about (\d{1,3})%")


async def alices_turn(world: World) -> object:
    """Start a casual game against the AI and return the game message once alice is to move."""
    started = await world.alice.slash(world.games, "puluc ai", difficulty="easy")
    assert started.response is not None
    board = game_message(world.games)
    assert mentioned(board) == [world.alice.id] and move_ids(board)
    return board


async def play_out(world: World, rng: random.Random) -> None:
    for _ in range(1_000):
        board = game_message(world.games)
        moves = move_ids(board)
        if not moves:
            return
        await world.alice.click(board, custom_id=rng.choice(moves))
    raise AssertionError("the game against the AI did not end")


async def test_a_hint_answers_only_the_caller_with_a_legal_move_and_a_chance(world: World) -> None:
    board = await alices_turn(world)
    asked = await world.alice.slash(world.games, "puluc hint")
    text = said(asked)
    assert asked.response is not None and asked.response.ephemeral
    assert "would play" in text
    found = PERCENT.search(text)
    assert found is not None and 0 <= int(found.group(1)) <= 100
    offered = {custom_id.split(":", 4)[4] for custom_id in move_ids(board)}
    assert any(f"(`{notation}`)" in text for notation in offered)


async def test_a_finished_game_shows_its_result_with_an_advantage_chart(world: World) -> None:
    await alices_turn(world)
    await play_out(world, random.Random(8))
    final = game_message(world.games)
    assert custom_ids(final, "puluc:rematch:")
    names = [a.filename for a in final.attachments]
    assert CHART_FILE in names and "board.png" in names
    (chart,) = [a for a in final.attachments if a.filename == CHART_FILE]
    assert chart.description is not None and chart.description.startswith("Advantage chart")
    image = Image.open(io.BytesIO(await chart.read()))
    assert image.format == "PNG" and image.width > image.height


async def test_the_result_is_shown_with_its_board_before_the_chart_is_drawn(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    charts = services(world.env.bot).presenter.charts
    chart_of = charts.draw
    release = asyncio.Event()

    async def held(state: GameState, lang: str) -> tuple[bytes, str] | None:
        await world.env.external_wait(release.wait(), reason="the test holds the chart back")
        return await chart_of(state, lang)

    monkeypatch.setattr(charts, "draw", held)
    await alices_turn(world)
    await play_out(world, random.Random(8))
    result = game_message(world.games)
    assert custom_ids(result, "puluc:rematch:")
    (board,) = result.attachments
    assert board.filename == "board.png" and result.embeds[0].image.url == "attachment://board.png"

    release.set()
    await world.env.settle()
    charted = game_message(world.games)
    assert charted.id == result.id
    assert [a.filename for a in charted.attachments] == ["board.png", CHART_FILE]
    assert charted.attachments[0].id == board.id, "the board stays as it was, not uploaded again"
    assert custom_ids(charted, "puluc:rematch:") and charted.embeds[0].to_dict() == result.embeds[0].to_dict()


@pytest.mark.parametrize(("workers", "at_once"), [(0, 1), (1, 1), (2, 1), (4, 3)])
async def test_charts_never_take_every_worker_from_the_boards(monkeypatch: pytest.MonkeyPatch, workers: int,
                                                              at_once: int) -> None:
    pool = cast(ComputePool, SimpleNamespace(workers=workers))  # only the count matters: no chart is drawn
    charts = Charts(pool, cast(Any, None))
    drawing: list[int] = []
    drawn: list[int] = []
    most = 0
    release = asyncio.Event()

    async def held(state: GameState, lang: str) -> bytes | None:
        nonlocal most
        drawing.append(state.game_id)
        most = max(most, len(drawing))
        await release.wait()
        drawing.remove(state.game_id)
        drawn.append(state.game_id)
        return None  # no chart: nothing is sent

    monkeypatch.setattr(charts, "draw", held)
    for game_id in range(6):
        charts.add_later(cast(GameState, SimpleNamespace(game_id=game_id)), "en", cast(Any, None))
    for _ in range(20):
        await asyncio.sleep(0)
    assert most == len(drawing) == at_once
    release.set()
    for _ in range(1000):  # each chart waits for a slot in turn: a few steps of the loop each
        if len(drawn) == 6:
            break
        await asyncio.sleep(0)
    assert sorted(drawn) == list(range(6)) and not drawing


async def test_a_game_resigned_on_its_first_turn_shows_its_result_without_a_chart(world: World) -> None:
    invitation = (await world.alice.slash(world.games, "puluc challenge", opponent=world.bob)).response
    assert invitation is not None
    (accept,) = custom_ids(invitation, "puluc:accept:")
    await world.bob.click(invitation.message, custom_id=accept)
    (first,) = mentioned(game_message(world.games))
    await world.member(first).slash(world.games, "puluc resign")
    final = game_message(world.games)
    assert custom_ids(final, "puluc:rematch:")
    assert CHART_FILE not in [a.filename for a in final.attachments]


def broken_chart(*args: object, **kwargs: object) -> bytes:
    """A chart drawing that fails (module-level, so the bot's worker processes can run it)."""
    raise RuntimeError("chart bug")


@pytest.mark.logs_error(r"could not chart game \d+ \(RuntimeError: chart bug\)")
async def test_a_chart_that_fails_never_costs_the_result(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.cogs.games.charts.draw_chart_with_points", broken_chart)
    await alices_turn(world)
    await play_out(world, random.Random(9))
    final = game_message(world.games)
    assert custom_ids(final, "puluc:rematch:")
    assert [a.filename for a in final.attachments] == ["board.png"]


# -- the chart's data, without Discord ---------------------------------------------------------------------


async def test_the_chart_has_a_point_per_turn_start_and_ends_on_the_result() -> None:
    state = await finished_bell_game()
    starts = turn_starts(state.game_record())
    assert len(starts) >= 2
    assert all(position.must_throw for _, position in starts[:-1])
    assert starts[-1][1].is_over
    png = draw_chart(chart_request(state, budget_ms=5))
    assert png is not None and Image.open(io.BytesIO(png)).format == "PNG"
    assert draw_chart(chart_request(state, budget_ms=5)) == png  # seeded by the game: the same chart every time


async def test_a_game_of_one_turn_gets_no_chart() -> None:
    state = await finished_bell_game(moves=0)
    assert state.status == "finished"
    assert draw_chart(chart_request(state, budget_ms=5)) is None


def test_a_long_game_is_sampled_evenly_keeping_both_ends() -> None:
    items = [(n, Position.start(Rules.preset("bell"), "A")) for n in range(500)]
    sampled = sample_evenly(items, 120)
    numbers = [n for n, _ in sampled]
    assert len(sampled) == 120 and numbers[0] == 0 and numbers[-1] == 499
    assert numbers == sorted(set(numbers))
    assert max(b - a for a, b in itertools.pairwise(numbers)) <= 5
    assert sample_evenly(items[:7], 120) == items[:7]
