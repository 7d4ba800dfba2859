"""The last move's arrow follows the way the move went: wraps, turns at the road's ends, arrivals."""

from __future__ import annotations

from puluc import Move, MoveEffect, Position, Rules
from renderer.layout import layout_for
from renderer.paths import Leg, leg_points, move_path


def effect_of(rules: Rules, stacks: dict[int, str], home: str, seat: str, move: str) -> MoveEffect:
    """What `move` by `seat` (its throw pending) does in a 1 v 1 position with `stacks` and `home` counts."""
    board = "/".join(stacks.get(cell, ".") for cell in range(1, rules.road_length + 1))
    position = Position.from_ppn(rules, f"{board} {home} A1:0,B1:0 {seat} {move.split(':')[0]}")
    return position.move_effect(Move.parse(move))


def test_culin_wrap_leaves_past_cell_l_and_comes_back_before_cell_1() -> None:
    rules = Rules.preset("culin")
    effect = effect_of(rules, {9: "A1+"}, "A1:4,B1:5", "A1", "3:9")
    assert effect.dest == 3
    path = move_path(rules, effect)
    assert path.legs == (Leg(9, 10, True), Leg(0, 3, True, jump=True))
    assert path.home is None


def test_culin_stack_with_captives_crosses_its_home_end_and_walks_back_up() -> None:
    rules = Rules.preset("culin")
    effect = effect_of(rules, {2: "A1B1-"}, "A1:4,B1:4", "A1", "3:2")
    assert effect.arrives and effect.dest == 2
    assert move_path(rules, effect).legs == (Leg(2, 0, False), Leg(0, 2, True))


def test_ants_bounce_back_onto_its_own_cell_is_a_loop_not_nothing() -> None:
    rules = Rules.preset("ants")
    effect = effect_of(rules, {8: "A1+"}, "A1:4,B1:5", "A1", "2:8")
    assert effect.source == effect.dest == 8
    assert move_path(rules, effect).legs == (Leg(8, 9, True), Leg(9, 8, False))


def test_arrivals_end_in_the_right_home() -> None:
    army = Rules.preset("bell")
    effect = effect_of(army, {8: "A1+"}, "A1:4,B1:5", "A1", "3:8")
    assert move_path(army, effect).home == "B"  # the army marches into the enemy's home
    ants = Rules.preset("ants")
    back = effect_of(ants, {2: "A1-"}, "A1:4,B1:5", "A1", "3:2")
    assert move_path(ants, back).home == "A"
    village = Rules.preset("village")
    # The return route sends a lone piece that runs off the far end straight to its own home.
    off = effect_of(village, {8: "A1+"}, "A1:4,B1:5", "A1", "3:8")
    assert off.arrives and move_path(village, off).home == "A"


def test_team_b_walks_down_the_road() -> None:
    rules = Rules.preset("bell")
    effect = effect_of(rules, {}, "A1:5,B1:5", "B1", "3:H")
    assert effect.dest == 7
    assert move_path(rules, effect).legs == (Leg(10, 7, False),)


def test_a_leg_across_a_bend_turns_in_the_margin_beside_the_rows() -> None:
    layout = layout_for(29, 8)
    points = leg_points(layout, 13, 18, True)
    assert len(points) == 4  # cell 13, down the bend, cell 18
    assert points[1][0] == points[2][0] > layout.road_right
    assert points[0][1] < points[2][1]
    # Coming back down the road, the outer turn of the same bend lies further out.
    back = leg_points(layout, 18, 13, False)
    assert back[1][0] > points[1][0]
