"""The "who is ahead" bar on every board: team A's chance from puluc.ai.win_probability, seeded per event."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.cogs.games.boards import board_request
from bot.config import ConfigError, load_config
from bot.sessions import GameState, Place, SeatState
from bot.ui.pictures import advantage, draw_board
from puluc import Position, Rules
from renderer.layout import layout_for
from renderer.panels import advantage_box
from renderer.theme import THEMES
from tests.helpers import TOKEN, at, finished_bell_game, present


async def test_a_finished_game_shows_its_result_on_the_bar() -> None:
    state = await finished_bell_game()
    outcome = present(state.position).outcome()
    assert outcome is not None and outcome.winner in ("A", "B")
    assert chance(state, 10) == (1.0 if outcome.winner == "A" else 0.0)


def chance(state: GameState, bar_ms: float) -> float | None:
    """Team A's chance as the bar of `state`'s game message shows it."""
    request = board_request(state, None, bar_ms)
    return advantage(request.position, request.seed, request.seq, request.bar_ms)


def bar_row(png: bytes | None, state: GameState) -> tuple[list[tuple[int, ...]], int]:
    """The pixels across the middle of where the bar sits, left to right, and where team A's share ends."""
    assert png is not None and state.position is not None
    x0, y0, x1, y1 = advantage_box(layout_for(state.position.road_length, state.rules.team_size))
    image = Image.open(io.BytesIO(png)).convert("RGB")
    row: list[tuple[int, ...]] = []
    for x in range(x0, x1 + 1):
        pixel = image.getpixel((x, (y0 + y1) // 2))
        assert isinstance(pixel, tuple)
        row.append(pixel)
    share = chance(state, 10)
    return row, round((x1 - x0) * share) if share is not None else -1


async def test_the_bar_is_off_at_zero_and_drawn_otherwise() -> None:
    state = await finished_bell_game(moves=3)  # resigned early: neither team is sure to win the position
    theme = THEMES["dark"]
    assert chance(state, 0) is None
    off, _ = bar_row(draw_board(board_request(state, None, bar_ms=0)), state)
    assert theme.team_a not in off and theme.team_b not in off

    on, split = bar_row(draw_board(board_request(state, None, bar_ms=10)), state)
    assert 0.1 < present(chance(state, 10)) < 0.9
    # Team A's chance fills the bar from the left in A's colour, the rest is B's (a tick marks the middle).
    assert set(on[2:split - 1]) == {theme.team_a}
    assert set(on[split + 1:-2]) - {theme.text} == {theme.team_b}


async def test_the_same_position_always_shows_the_same_bar() -> None:
    state = await finished_bell_game(moves=3)
    assert draw_board(board_request(state, None, bar_ms=10)) == draw_board(board_request(state, None, bar_ms=10))


def test_the_bar_budget_is_a_setting_and_bad_values_are_refused() -> None:
    base = {"DISCORD_TOKEN": TOKEN}
    assert load_config(environ=base | {"ADVANTAGE_BAR_MS": "0"}, env_file=None).advantage_bar_ms == 0
    assert load_config(environ=base, env_file=None).advantage_bar_ms == 4
    with pytest.raises(ConfigError, match="ADVANTAGE_BAR_MS"):
        load_config(environ=base | {"ADVANTAGE_BAR_MS": "-1"}, env_file=None)


def running(position: Position) -> GameState:
    seats = tuple(SeatState(seat, f"player {seat}", user_id=i + 1) for i, seat in enumerate(position.rules.seats))
    return GameState(game_id=5, place=Place(1, 2), host_id=1, variant="bell", rules=position.rules, ranked=False,
                     turn_timer=600, status="running", seats=seats, seed=3, first="A", position=position, seq=9)


@pytest.mark.parametrize(("leader", "cells", "home", "kills", "turn"), [
    # The seat to move holds a 2 that takes the other side's last free piece: the game is as good as won.
    ("A", {3: "A1+", 5: "B1+"}, "A1:4,B1:0", "A1:4,B1:0", "A1"),
    ("B", {7: "B1+", 5: "A1+"}, "A1:0,B1:4", "A1:0,B1:4", "B1"),
])
def test_the_bar_fills_with_the_colour_of_the_team_that_has_won_in_hand(
    leader: str, cells: dict[int, str], home: str, kills: str, turn: str
) -> None:
    state = running(at(Rules.preset("bell"), cells, home, kills, turn, "2"))
    theme = THEMES["dark"]
    assert chance(state, 10) == (1.0 if leader == "A" else 0.0)
    row, _ = bar_row(draw_board(board_request(state, None, bar_ms=10)), state)
    colours = set(row[2:-2]) - {theme.text}  # the middle tick is drawn in the text colour
    assert colours == {theme.team_a if leader == "A" else theme.team_b}
