"""The "who is ahead" bar on every board: team A's chance from puluc.ai.win_probability, seeded per event."""

from __future__ import annotations

import pytest

from bot.config import ConfigError, load_settings
from bot.ui.presenter import advantage, render_png
from tests.bot.test_config import TOKEN
from tests.bot.test_hint_and_chart import finished_bell_game


async def test_a_finished_game_shows_its_result_on_the_bar() -> None:
    state = await finished_bell_game()
    outcome = state.position.outcome()  # type: ignore[union-attr]
    assert outcome is not None and outcome.winner in ("A", "B")
    assert advantage(state, 10) == (1.0 if outcome.winner == "A" else 0.0)


async def test_the_bar_is_off_at_zero_and_drawn_otherwise() -> None:
    state = await finished_bell_game()
    assert advantage(state, 0) is None
    assert render_png(state, None, bar_ms=0) != render_png(state, None, bar_ms=10)


async def test_the_same_position_always_shows_the_same_bar() -> None:
    state = await finished_bell_game(moves=3)
    assert render_png(state, None, bar_ms=10) == render_png(state, None, bar_ms=10)


def test_the_bar_budget_is_a_setting_and_bad_values_are_refused() -> None:
    base = {"DISCORD_TOKEN": TOKEN}
    assert load_settings(environ=base | {"ADVANTAGE_BAR_MS": "0"}, env_file=None).advantage_bar_ms == 0
    assert load_settings(environ=base, env_file=None).advantage_bar_ms == 10
    with pytest.raises(ConfigError, match="ADVANTAGE_BAR_MS"):
        load_settings(environ=base | {"ADVANTAGE_BAR_MS": "-1"}, env_file=None)
