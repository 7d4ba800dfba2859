"""Hand-worked moves for every route, flag and setup (RULES.md §4-§6 and §11)."""

from __future__ import annotations

import pytest

from puluc import IllegalMove, IllegalMoveError, IllegalThrowError, InvalidThrowError, Move, Position, Rules
from tests.helpers import at, legal, play, ppn, present


def test_worked_example_of_rules_md(bell: Rules) -> None:
    start = Position.start(bell, first="A")
    assert start.to_ppn() == "././././././././. A1:5,B1:5 A1:0,B1:0 A1 -"
    after = play(start.throw([2]), "2:H")
    assert after.to_ppn() == "./A1+/././././././. A1:4,B1:5 A1:0,B1:0 B1 -"


def test_b_enters_from_its_own_end(bell: Rules) -> None:
    pos = play(Position.start(bell, first="B").throw([3]), "3:H")
    assert present(pos.stack_at(7)).pieces == ("B1",)
    assert pos.to_move == "A1"


def test_own_piece_blocks_landing(bell: Rules) -> None:
    pos = at(bell, {3: "A1+"}, "A1:4,B1:5", "A1:0,B1:0", "A1").throw([3])
    assert legal(pos) == {"3:3"}


def test_passing_over_never_captures(bell: Rules) -> None:
    pos = at(bell, {2: "A1+", 3: "B1+"}, "A1:4,B1:4", "A1:0,B1:0", "A1").throw([2])
    after = play(pos, "2:2")
    assert present(after.stack_at(3)).pieces == ("B1",)
    assert present(after.stack_at(4)).pieces == ("A1",)


def test_army_capture_keeps_direction(bell: Rules) -> None:
    pos = at(bell, {2: "A1+", 5: "B1+"}, "A1:4,B1:4", "A1:0,B1:0", "A1").throw([3])
    after = play(pos, "3:2")
    assert after.stack_at(5) == (("A1", "B1"), "+")


def test_army_arrival_kills_captives_at_enemy_home(bell: Rules) -> None:
    pos = at(bell, {8: "A1B1+"}, "A1:4,B1:4", "A1:0,B1:0", "A1").throw([2])
    after = play(pos, "2:8")
    assert after.to_ppn() == ppn(9, {}, "A1:5,B1:4", "A1:1,B1:0", "B1")
    assert after.killed("B1") == 1


def test_entering_captures_an_enemy(bell: Rules) -> None:
    pos = at(bell, {3: "B1+"}, "A1:5,B1:4", "A1:0,B1:0", "A1").throw([3])
    assert present(play(pos, "3:H").stack_at(3)).pieces == ("A1", "B1")


TEAM_MODERN = Rules.preset("bell", team_size=2, throws_per_turn=1, one_active=False)


def test_teammate_blocks_landing() -> None:
    pos = at(TEAM_MODERN, {3: "A1+"}, "A1:4,B1:5,A2:5,B2:5", "A1:0,B1:0,A2:0,B2:0", "A2")
    after = pos.throw([3])
    assert after.to_move == "B2" and after.pending == ()


def test_capture_of_stack_holding_freed_compatriot() -> None:
    pos = at(TEAM_MODERN, {7: "A2+", 10: "B1A1+"}, "A1:4,B1:4,A2:4,B2:5", "A1:0,B1:0,A2:0,B2:0", "A2").throw([3])
    after = play(pos, "3:7")
    stack = present(after.stack_at(10))
    assert stack.pieces == ("A2", "B1", "A1")
    assert stack.captives == ("B1",) and stack.compatriots == ("A1",)
    assert after.scores() == {"A": 1, "B": 0}


def test_arrival_with_teammates_piece_sends_each_home_and_credits_the_owner() -> None:
    pos = at(TEAM_MODERN, {17: "A2B1A1+"}, "A1:4,B1:4,A2:4,B2:5", "A1:0,B1:0,A2:0,B2:0", "A2").throw([3])
    effect = pos.move_effect(Move.parse("3:17"))
    assert effect.arrives and effect.kills == 1 and effect.freed == 1
    after = play(pos, "3:17")
    assert after.home("A1") == 5 and after.home("A2") == 5
    assert after.kills("A2") == 1 and after.kills("A1") == 0
    assert after.killed("B1") == 1


def test_one_active_piece_forbids_entering() -> None:
    rules = Rules.preset("ants", one_active=True)
    pos = at(rules, {3: "A1+"}, "A1:4,B1:5", "A1:0,B1:0", "A1").throw([2])
    assert legal(pos) == {"2:3"}


# -- ants ------------------------------------------------------------------------------------------


def test_ants_turns_inbound_at_the_far_end(ants: Rules) -> None:
    pos = at(ants, {8: "A1+"}, "A1:4,B1:5", "A1:0,B1:0", "A1").throw([3])
    after = play(pos, "3:8")
    assert present(after.stack_at(7)).direction == "-"


def test_ants_seen_from_b(ants: Rules) -> None:
    pos = at(ants, {2: "B1+"}, "A1:5,B1:4", "A1:0,B1:0", "B1").throw([3])
    after = play(pos, "3:2")
    assert present(after.stack_at(3)).pieces == ("B1",) and present(after.stack_at(3)).direction == "-"


def test_capture_turns_ants_home(ants: Rules) -> None:
    pos = at(ants, {2: "A1+", 5: "B1+"}, "A1:4,B1:4", "A1:0,B1:0", "A1").throw([3])
    after = play(pos, "3:2")
    assert after.stack_at(5) == (("A1", "B1"), "-")


def test_ants_arrive_at_their_own_home(ants: Rules) -> None:
    pos = at(ants, {2: "A1B1-"}, "A1:4,B1:4", "A1:0,B1:0", "A1").throw([3])
    after = play(pos, "3:2")
    assert after.to_ppn() == ppn(9, {}, "A1:5,B1:4", "A1:1,B1:0", "B1")


def test_move_may_end_on_its_own_start_cell(ants: Rules) -> None:
    pos = at(ants, {7: "A1+"}, "A1:4,B1:5", "A1:0,B1:0", "A1").throw([4])
    after = play(pos, "4:7")
    assert after.stack_at(7) == (("A1",), "-")


def test_ants_entering_onto_the_last_cell_turns_inbound() -> None:
    rules = Rules.preset("ants", road_length=5)
    after = play(Position.start(rules).throw([5]), "5:H")
    assert present(after.stack_at(5)).direction == "-"


# -- scorpion -------------------------------------------------------------------------------------


def test_scorpion_backward_capture_across_the_turning_point() -> None:
    rules = Rules.preset("scorpion")
    pos = at(rules, {7: "A1-", 8: "B1+"}, "A1:4,B1:4", "A1:0,B1:0", "A1").throw([3])
    assert "3:7b" in legal(pos)
    after = play(pos, "3:7b")
    assert after.stack_at(8) == (("A1", "B1"), "-")


def test_scorpion_backward_only_to_capture() -> None:
    rules = Rules.preset("scorpion")
    pos = at(rules, {5: "A1+"}, "A1:4,B1:5", "A1:0,B1:0", "A1").throw([2])
    assert "2:5b" not in legal(pos)
    pos = at(rules, {2: "A1+", 9: "B1+"}, "A1:4,B1:4", "A1:0,B1:0", "A1").throw([3])
    assert not any(m.endswith("b") for m in legal(pos))


def test_scorpion_on_the_army_route_keeps_outbound() -> None:
    rules = Rules.preset("bell", scorpion=True)
    pos = at(rules, {6: "A1+", 4: "B1+"}, "A1:4,B1:4", "A1:0,B1:0", "A1").throw([2])
    assert play(pos, "2:6b").stack_at(4) == (("A1", "B1"), "+")


# -- fire -----------------------------------------------------------------------------------------


def test_fire_burns_a_stack_with_captives() -> None:
    rules = Rules.preset("fire")
    pos = at(rules, {7: "A1B1-"}, "A1:4,B1:4", "A1:0,B1:0", "A1").throw([2])
    effect = pos.move_effect(Move.parse("2:7"))
    assert effect.burns and effect.dest == 5
    after = play(pos, "2:7")
    assert after.stack_at(5) is None
    assert (after.gone("A1"), after.gone("B1"), after.killed("B1"), after.kills("A1")) == (1, 1, 0, 0)


def test_passing_over_the_fire_is_harmless() -> None:
    rules = Rules.preset("fire")
    pos = at(rules, {4: "A1+"}, "A1:4,B1:5", "A1:0,B1:0", "A1").throw([2])
    assert present(play(pos, "2:4").stack_at(6)).pieces == ("A1",)


def test_entering_onto_the_fire_burns() -> None:
    rules = Rules.preset("fire")
    after = play(Position.start(rules).throw([5]), "5:H")
    assert after.gone("A1") == 1 and after.home("A1") == 4


# -- eagle ----------------------------------------------------------------------------------------


def test_eagle_kills_and_is_spent() -> None:
    rules = Rules.preset("eagle")
    pos = at(rules, {2: "A1+", 5: "B1+"}, "A1:4,B1:4", "A1:0,B1:0", "A1").throw([3])
    after = play(pos, "3:2")
    assert after.stacks() == []
    assert (after.kills("A1"), after.killed("B1"), after.gone("A1"), after.home("A1")) == (1, 1, 1, 4)


def test_eagle_returns_home_as_a_house_rule() -> None:
    rules = Rules.preset("eagle", eagle_returns=True)
    pos = at(rules, {2: "A1+", 5: "B1+"}, "A1:4,B1:4", "A1:0,B1:0", "A1").throw([3])
    after = play(pos, "3:2")
    assert after.stacks() == []
    assert (after.kills("A1"), after.gone("A1"), after.home("A1")) == (1, 0, 5)


# -- culin ----------------------------------------------------------------------------------------


def test_culin_wraps_from_the_last_cell() -> None:
    rules = Rules.preset("culin")
    pos = at(rules, {9: "A1+"}, "A1:4,B1:5", "A1:0,B1:0", "A1").throw([3])
    assert play(pos, "3:9").stack_at(3) == (("A1",), "+")


def test_culin_crossing_kills_captives_and_the_top_lands_again() -> None:
    rules = Rules.preset("culin")
    pos = at(rules, {2: "A1B1-"}, "A1:4,B1:4", "A1:0,B1:0", "A1").throw([3])
    after = play(pos, "3:2")
    assert after.stack_at(2) == (("A1",), "+")
    assert after.kills("A1") == 1 and after.home("A1") == 4


def test_culin_crossing_is_remembered_as_the_move_that_was_described() -> None:
    # The board's last-move marker tells the same story as the button did: a stack of two crossed, one enemy died.
    rules = Rules.preset("culin")
    pos = at(rules, {2: "A1B1-"}, "A1:4,B1:4", "A1:0,B1:0", "A1").throw([3])
    effect = pos.move_effect(Move.parse("3:2"))
    assert (effect.arrives, effect.kills, effect.pieces, effect.dest) == (True, 1, 2, 2)
    assert play(pos, "3:2").last_move == effect


def test_culin_wrap_is_blocked_by_own_piece() -> None:
    rules = Rules.preset("culin")
    pos = at(rules, {9: "A1+", 3: "A1+"}, "A1:3,B1:5", "A1:0,B1:0", "A1").throw([3])
    assert "3:9" not in legal(pos)


def test_culin_seen_from_b() -> None:
    rules = Rules.preset("culin")
    pos = at(rules, {1: "B1+"}, "A1:5,B1:4", "A1:0,B1:0", "B1").throw([3])
    assert present(play(pos, "3:1").stack_at(7)).pieces == ("B1",)


def test_culin_arrival_resolves_before_the_top_burns() -> None:
    rules = Rules.preset("culin", fire=True)
    pos = at(rules, {1: "A1B1-"}, "A1:4,B1:4", "A1:0,B1:0", "A1").throw([5])
    after = play(pos, "5:1")
    assert after.stacks() == []
    assert (after.kills("A1"), after.killed("B1"), after.gone("A1")) == (1, 1, 1)


# -- return (village) -----------------------------------------------------------------------------


def test_village_throw_of_zero_is_lost() -> None:
    rules = Rules.preset("village")
    after = Position.start(rules).throw([0])
    assert after.to_move == "B1" and after.pending == ()


def test_village_lone_piece_arrives_at_once() -> None:
    rules = Rules.preset("village")
    pos = at(rules, {8: "A1+"}, "A1:4,B1:5", "A1:0,B1:0", "A1").throw([2])
    assert play(pos, "2:8").home("A1") == 5


def test_village_exactly_on_the_last_cell_keeps_outbound() -> None:
    rules = Rules.preset("village")
    pos = at(rules, {6: "A1+"}, "A1:4,B1:5", "A1:0,B1:0", "A1").throw([3])
    after = play(pos, "3:6")
    assert after.stack_at(9) == (("A1",), "+")
    again = at(rules, {9: "A1+"}, "A1:4,B1:5", "A1:0,B1:0", "A1").throw([2])
    assert again.move_effect(Move.parse("2:9")).arrives


def test_village_capture_walks_back_home() -> None:
    rules = Rules.preset("village")
    pos = at(rules, {2: "A1+", 5: "B1+"}, "A1:4,B1:4", "A1:0,B1:0", "A1").throw([3])
    after = play(pos, "3:2")
    assert after.stack_at(5) == (("A1", "B1"), "-")
    back = at(rules, {5: "A1B1-"}, "A1:4,B1:4", "A1:0,B1:0", "A1").throw([2])
    assert play(back, "2:5").stack_at(3) == (("A1", "B1"), "-")


# -- turns ----------------------------------------------------------------------------------------


TRADITIONAL = Rules.preset("ants", team_size=2)


def test_two_throws_are_used_in_either_order() -> None:
    pos = Position.start(TRADITIONAL).throw([3, 2])
    assert legal(pos) == {"3:H", "2:H"}
    first_two = play(pos, "2:H")
    assert first_two.to_move == "A1" and first_two.pending == (3,)
    assert legal(first_two) == {"3:2"}
    assert play(first_two, "3:2").stack_at(5) == play(pos, "3:H", "2:3").stack_at(5)


def test_equal_throws_give_no_duplicate_moves() -> None:
    pos = Position.start(TRADITIONAL).throw([2, 2])
    assert pos.legal_moves() == [Move.parse("2:H")]
    assert play(pos, "2:H").pending == (2,)


def test_turn_passes_when_no_pending_throw_allows_a_move() -> None:
    pos = at(TRADITIONAL, {3: "A1+"}, "A1:4,B1:5,A2:5,B2:5", "A1:0,B1:0,A2:0,B2:0", "A1").throw([5, 1])
    # 5 takes A1's piece from 3 to 8; then 1 is left: one active piece means no entering, 8 -> 9 is legal.
    after = play(pos, "5:3")
    assert after.to_move == "A1" and legal(after) == {"1:8"}
    assert play(after, "1:8").to_move == "B1"


def test_seat_order_alternates_teams_in_three_v_three() -> None:
    rules = Rules.preset("bell", team_size=3)
    pos = Position.start(rules)
    order = []
    for _ in range(7):
        order.append(pos.to_move)
        pos = pos.throw([1, 1])
        while pos.legal_moves():
            pos = pos.play(pos.legal_moves()[0])
    assert order == ["A1", "B1", "A2", "B2", "A3", "B3", "A1"]


def test_player_without_pieces_still_throws_then_passes() -> None:
    pos = at(TEAM_MODERN, {}, "A1:5,B1:5,A2:0,B2:5", "A1:0,B1:5,A2:0,B2:0", "A2")
    assert pos.must_throw
    after = pos.throw([2])
    assert after.to_move == "B2" and after.must_throw


# -- end and scores -------------------------------------------------------------------------------


def test_capturing_the_last_enemy_ends_the_game(bell: Rules) -> None:
    pos = at(bell, {2: "A1+", 5: "B1+"}, "A1:4,B1:0", "A1:4,B1:0", "A1").throw([3])
    after = play(pos, "3:2")
    outcome = after.outcome()
    assert outcome is not None and outcome.winner == "A" and outcome.scores == {"A": 5, "B": 0}
    assert after.to_move == "A1" and after.to_ppn().endswith(" A1 -")
    assert after.legal_moves() == []
    with pytest.raises(IllegalThrowError, match="over"):
        after.throw([1])
    with pytest.raises(IllegalMoveError, match="over"):
        after.play(Move.parse("1:5"))


def test_finished_game_keeps_the_unused_throw() -> None:
    rules = Rules.preset("bell", throws_per_turn=2)
    pos = at(rules, {2: "A1+", 5: "B1+"}, "A1:4,B1:0", "A1:4,B1:0", "A1").throw([3, 2])
    assert play(pos, "3:2").to_ppn().endswith(" A1 2")


def test_equal_scores_are_a_draw() -> None:
    rules = Rules.preset("fire")
    pos = at(rules, {7: "A1B1-", 3: "B1-"}, "A1:0,B1:0", "A1:0,B1:0", "A1").throw([2])
    outcome = play(pos, "2:7").outcome()
    assert outcome is not None and outcome.winner is None and outcome.scores == {"A": 0, "B": 0}


def test_score_counts_every_enemy_below_the_top(ants: Rules) -> None:
    pos = at(ants, {4: "A1B1A1B1-"}, "A1:3,B1:3", "A1:0,B1:0", "B1")
    assert pos.scores() == {"A": 2, "B": 0}
    assert pos.outcome() is None


def test_stack_capturing_a_stack_goes_on_top_whole(ants: Rules) -> None:
    pos = at(ants, {8: "A1B1-", 6: "B1A1-"}, "A1:3,B1:3", "A1:0,B1:0", "B1").throw([2])
    after = play(pos, "2:6")
    assert after.stack_at(8) == (("B1", "A1", "A1", "B1"), "-")


# -- bad input ------------------------------------------------------------------------------------


def test_illegal_move_changes_nothing(bell: Rules) -> None:
    pos = Position.start(bell).throw([2])
    before = pos.to_ppn()
    with pytest.raises(IllegalMove, match="no pending throw of 3"):
        pos.play(Move.parse("3:H"))
    with pytest.raises(IllegalMove, match="not legal"):
        pos.play(Move.parse("2:5"))
    assert pos.to_ppn() == before


@pytest.mark.parametrize(
    ("values", "message"),
    [([], "expected 1 throw"), ([1, 2], "expected 1 throw"), ([6], "not a value"), ([0], "not a value")],
)
def test_bad_throws_are_refused(bell: Rules, values: list[int], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Position.start(bell).throw(values)


def test_throwing_twice_is_refused(bell: Rules) -> None:
    with pytest.raises(IllegalThrowError, match="already thrown"):
        Position.start(bell).throw([2]).throw([2])


def test_play_before_throwing_is_refused(bell: Rules) -> None:
    with pytest.raises(IllegalMove, match="must throw first"):
        Position.start(bell).play(Move.parse("2:H"))


def test_village_refuses_a_one() -> None:
    with pytest.raises(InvalidThrowError, match="not a value"):
        Position.start(Rules.preset("village")).throw([1])


def test_last_move_survives_the_next_throw(bell: Rules) -> None:
    pos = play(Position.start(bell).throw([2]), "2:H")
    assert pos.last_move is not None and pos.last_move.dest == 2
    thrown = pos.throw([3])
    assert thrown.last_move == pos.last_move and thrown.to_move == "B1"
    assert Position.from_ppn(bell, thrown.to_ppn()).last_move is None
