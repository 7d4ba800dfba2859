"""One definition per setting: what the settings loader accepts, the commands offer and the game rules allow agree,
and `.env.example` and the README describe exactly the settings and bounds of `bot/config_spec.py`."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from discord import app_commands

from bot.cogs.games.lobby import Lobby
from bot.cogs.server_settings.cog import Settings as SettingsCog
from bot.cogs.tournaments.cog import Tournaments
from bot.config import load_config
from bot.config_spec import (
    SETTINGS,
    TURN_PING_AFTER_SECONDS,
    TURN_TIMER_CHOICES,
    TURN_TIMER_SECONDS,
    ChoiceSetting,
    IdSetting,
    NumberSetting,
    Setting,
)
from bot.sessions import GameOptions
from bot.sessions.errors import InvalidOptions
from tests.helpers import TOKEN

ROOT = Path(__file__).parents[2]


def env_example_entries() -> list[tuple[str, str, str]]:
    """(name, value, the comment block above it) for every NAME=value line of .env.example."""
    entries = []
    comment: list[str] = []
    for line in (ROOT / ".env.example").read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            comment.append(line.lstrip("# "))
        elif "=" in line:
            name, value = line.split("=", 1)
            entries.append((name, value, " ".join(comment)))
            comment = []
        else:
            comment = []
    return entries


def default_text(setting: Setting) -> str:
    if isinstance(setting, IdSetting):
        return ""
    return "" if setting.default is None else str(setting.default)


@pytest.mark.parametrize(
    "command", [Lobby.new, SettingsCog.settings, Tournaments.create],
    ids=["/puluc new", "/puluc-admin settings", "/puluc tournament create"],
)
def test_the_commands_offer_named_turn_timers_from_the_shortest_to_the_longest(
    command: app_commands.Command[Any, ..., Any],
) -> None:
    option = command.get_parameter("turn_timer")
    assert option is not None
    offered = [choice.value for choice in option.choices if isinstance(choice.value, int)]
    assert len(offered) == len(option.choices)
    assert offered == sorted(offered) == list(TURN_TIMER_CHOICES)
    assert (offered[0], offered[-1]) == (TURN_TIMER_SECONDS.minimum, TURN_TIMER_SECONDS.maximum) == (30, 7 * 86_400)
    assert all(TURN_TIMER_SECONDS.allows(seconds) for seconds in offered)


def test_the_settings_command_bounds_the_turn_ping_by_its_setting() -> None:
    option = SettingsCog.settings.get_parameter("turn_ping")
    assert option is not None
    assert (option.min_value, option.max_value) == (TURN_PING_AFTER_SECONDS.minimum, TURN_PING_AFTER_SECONDS.maximum)


@pytest.mark.parametrize(
    "seconds", [TURN_TIMER_SECONDS.minimum, TURN_TIMER_SECONDS.default, TURN_TIMER_SECONDS.maximum]
)
def test_every_turn_timer_the_settings_accept_is_a_legal_game_option(seconds: int) -> None:
    config = load_config({"DISCORD_TOKEN": TOKEN, "TURN_TIMER_SECONDS": str(seconds)})
    GameOptions(turn_timer=config.turn_timer_seconds).rules()


@pytest.mark.parametrize("seconds", [TURN_TIMER_SECONDS.minimum - 1, TURN_TIMER_SECONDS.maximum + 1])
def test_the_game_rules_refuse_the_turn_timers_the_settings_refuse(seconds: int) -> None:
    with pytest.raises(InvalidOptions):
        GameOptions(turn_timer=seconds).rules()


def test_game_options_default_to_the_settings_default() -> None:
    assert GameOptions().turn_timer == TURN_TIMER_SECONDS.default


def test_env_example_lists_every_setting_once_in_order_with_its_default() -> None:
    entries = env_example_entries()
    assert [name for name, _, _ in entries] == [setting.name for setting in SETTINGS]
    for (name, value, _), setting in zip(entries, SETTINGS, strict=True):
        assert value == default_text(setting), name


@pytest.mark.parametrize("setting", [s for s in SETTINGS if isinstance(s, NumberSetting | ChoiceSetting)],
                         ids=lambda s: s.name)
def test_env_example_states_each_settings_bounds(
    setting: NumberSetting[int] | NumberSetting[float] | ChoiceSetting,
) -> None:
    comments = {name: comment for name, _, comment in env_example_entries()}
    rule = setting.rule if isinstance(setting, NumberSetting) else ", ".join(setting.choices[:-1])
    assert rule in comments[setting.name]


def test_env_example_says_what_the_turn_timer_does_when_it_runs_out() -> None:
    comment = {name: comment for name, _, comment in env_example_entries()}["TURN_TIMER_SECONDS"]
    assert "plays that turn for them" in comment
    assert "third time in a row" in comment and "1 v 1 game ends and the opponent wins" in comment
    assert "the AI takes over that player's seat" in comment


def test_the_readme_table_lists_every_setting_with_its_default_and_bounds() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([A-Z_]+)` \| ([^|]+) \| ([^|]+) \|", readme, flags=re.MULTILINE)
    assert [name for name, _, _ in rows] == [setting.name for setting in SETTINGS]
    for (name, default, allowed), setting in zip(rows, SETTINGS, strict=True):
        expected = default_text(setting)
        unset = "(required)" if name == "DISCORD_TOKEN" else "(empty)"
        assert default.strip() == (f"`{expected}`" if expected else unset)
        if isinstance(setting, NumberSetting):
            assert allowed.strip() == f"{setting.minimum:g} to {setting.maximum:g}", name
