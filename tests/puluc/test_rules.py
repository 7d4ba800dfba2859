"""Rules, presets and setups (RULES.md §9, §11.10)."""

from __future__ import annotations

import pytest

from puluc import PRESETS, InvalidRulesError, Rules


def test_default_rules_are_bell_modern_one_v_one() -> None:
    rules = Rules()
    assert (rules.route, rules.capture, rules.sticks) == ("army", "stack", "bell")
    assert (rules.team_size, rules.throws_per_turn, rules.one_active, rules.road_length) == (1, 1, False, 9)


def test_default_rules_ignore_team_size() -> None:
    assert Rules(team_size=3).road_length == 9
    assert Rules(team_size=3).throws_per_turn == 1


@pytest.mark.parametrize(
    ("name", "route", "capture", "scorpion", "fire", "sticks"),
    [
        ("bell", "army", "stack", False, False, "bell"),
        ("ants", "ants", "stack", False, False, "bell"),
        ("eagle", "ants", "eagle", False, False, "bell"),
        ("scorpion", "ants", "stack", True, False, "bell"),
        ("fire", "ants", "stack", False, True, "bell"),
        ("culin", "culin", "stack", False, False, "bell"),
        ("village", "return", "stack", False, False, "pass-on-one"),
    ],
)
def test_presets_match_the_table(name: str, route: str, capture: str, scorpion: bool, fire: bool, sticks: str) -> None:
    rules = Rules.preset(name)
    assert (rules.route, rules.capture, rules.scorpion, rules.fire, rules.sticks) == (
        route,
        capture,
        scorpion,
        fire,
        sticks,
    )
    assert rules.preset_name == name


@pytest.mark.parametrize(
    ("team_size", "length"), [(1, 9), (2, 19), (3, 21), (4, 23), (5, 25), (6, 27), (7, 29), (8, 29)]
)
def test_setup_follows_team_size(team_size: int, length: int) -> None:
    rules = Rules.preset("ants", team_size=team_size)
    assert rules.road_length == length
    traditional = team_size >= 2
    assert rules.throws_per_turn == (2 if traditional else 1)
    assert rules.one_active is traditional
    assert rules.setup == ("traditional" if traditional else "modern")


def test_explicit_field_overrides_only_itself() -> None:
    rules = Rules.preset("ants", team_size=2, throws_per_turn=1)
    assert rules.throws_per_turn == 1
    assert rules.one_active is True
    assert rules.road_length == 19


def test_modern_setup_for_a_team_game() -> None:
    rules = Rules.from_setup("bell", 2, "modern")
    assert (rules.throws_per_turn, rules.one_active, rules.road_length) == (1, False, 19)


def test_flags_combine_with_any_route() -> None:
    rules = Rules.preset("culin", fire=True)
    assert rules.fire and rules.route == "culin"
    assert Rules.preset("village", scorpion=True, fire=True).scorpion


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"route": "culin", "scorpion": True}, "scorpion cannot be combined with the culin route"),
        ({"eagle_returns": True}, "eagle_returns only makes sense with eagle capture"),
        ({"road_length": 10}, "odd number from 5 to 41"),
        ({"road_length": 3}, "odd number from 5 to 41"),
        ({"road_length": 43}, "odd number from 5 to 41"),
        ({"team_size": 9}, "team_size must be 1 to 8"),
        ({"team_size": 0}, "team_size must be 1 to 8"),
        ({"throws_per_turn": 3}, "throws_per_turn must be 1 or 2"),
        ({"route": "snake"}, "unknown route"),
        ({"sticks": "dice"}, "unknown sticks"),
    ],
)
def test_invalid_combinations_say_what_to_fix(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidRulesError, match=message):
        Rules(**kwargs)  # type: ignore[arg-type]


def test_unknown_preset_lists_the_choices() -> None:
    with pytest.raises(InvalidRulesError, match="bell, ants, eagle"):
        Rules.preset("chess")


def test_preset_rejects_unknown_option() -> None:
    with pytest.raises(InvalidRulesError, match="unknown rule option"):
        Rules.preset("bell", speed=3)


def test_scorpion_preset_with_culin_route_is_refused() -> None:
    with pytest.raises(InvalidRulesError, match="culin"):
        Rules.preset("culin", scorpion=True)


def test_rules_round_trip_through_dict() -> None:
    for name in PRESETS:
        rules = Rules.preset(name, team_size=3, fire=True)
        assert Rules.from_dict(rules.to_dict()) == rules


def test_seats_alternate_teams() -> None:
    assert Rules.preset("bell", team_size=3).seats == ("A1", "B1", "A2", "B2", "A3", "B3")
    assert Rules.preset("fire").fire_cell == 5
    assert Rules.preset("bell").fire_cell is None
