"""The "who is ahead" bar on every board: team A's chance from puluc.ai.win_probability, seeded per event."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.config import ConfigError, load_settings
from bot.sessions import GameState
from bot.ui.boards import advantage, render_png
from renderer.layout import layout_for
from renderer.panels import advantage_box
from renderer.theme import THEMES
from tests.helpers import TOKEN, finished_bell_game


async def test_a_finished_game_shows_its_result_on_the_bar() -> None:
    state = await finished_bell_game()
    outcome = state.position.outcome()  # type: ignore[union-attr]
    assert outcome is not None and outcome.winner in ("A", "B")
    assert advantage(state, 10) == (1.0 if outcome.winner == "A" else 0.0)


def bar_row(png: bytes | None, state: GameState) -> tuple[list[tuple[int, ...]], int]:
    """The pixels across the middle of where the bar sits, left to right, and where team A's share ends."""
    assert png is not None and state.position is not None
    x0, y0, x1, y1 = advantage_box(layout_for(state.position.road_length, state.rules.team_size))
    image = Image.open(io.BytesIO(png)).convert("RGB")
    row = [image.getpixel((x, (y0 + y1) // 2)) for x in range(x0, x1 + 1)]
    share = advantage(state, 10)
    return row, round((x1 - x0) * share) if share is not None else -1


async def test_the_bar_is_off_at_zero_and_drawn_otherwise() -> None:
    state = await finished_bell_game(moves=3)  # resigned early: neither team is sure to win the position
    theme = THEMES["dark"]
    assert advantage(state, 0) is None
    off, _ = bar_row(render_png(state, None, bar_ms=0), state)
    assert theme.team_a not in off and theme.team_b not in off

    on, split = bar_row(render_png(state, None, bar_ms=10), state)
    assert 0.1 < advantage(state, 10) < 0.9  # type: ignore[operator]
    # Team A's chance fills the bar from the left in A's colour, the rest is B's (a tick marks the middle).
    assert set(on[2:split - 1]) == {theme.team_a}
    assert set(on[split + 1:-2]) - {theme.text} == {theme.team_b}


async def test_the_same_position_always_shows_the_same_bar() -> None:
    state = await finished_bell_game(moves=3)
    assert render_png(state, None, bar_ms=10) == render_png(state, None, bar_ms=10)


def test_the_bar_budget_is_a_setting_and_bad_values_are_refused() -> None:
    base = {"DISCORD_TOKEN": TOKEN}
    assert load_settings(environ=base | {"ADVANTAGE_BAR_MS": "0"}, env_file=None).advantage_bar_ms == 0
    assert load_settings(environ=base, env_file=None).advantage_bar_ms == 10
    with pytest.raises(ConfigError, match="ADVANTAGE_BAR_MS"):
        load_settings(environ=base | {"ADVANTAGE_BAR_MS": "-1"}, env_file=None)
