"""Move notation and PPN: exact round trips, strict parsing (RULES.md §10, §11.12)."""

from __future__ import annotations

import pytest

from puluc import InvalidMoveError, InvalidPositionError, Move, Position, Rules
from tests.helpers import ppn


@pytest.mark.parametrize("text", ["2:H", "3:7", "2:7b", "5:41", "1:1"])
def test_move_notation_round_trips(text: str) -> None:
    assert str(Move.parse(text)) == text


def test_move_fields() -> None:
    assert Move.parse("2:H") == Move(2, 0, False) and Move.parse("2:H").enters
    assert Move.parse("2:7b") == Move(2, 7, True)


@pytest.mark.parametrize("text", ["", "3-7", "x:H", "3:0", "0:3", "6:3", "2:Hb", "3:07", "03:7", "3:42", "3:7c", " "])
def test_malformed_move_text_is_refused(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        Move.parse(text)


def test_move_parse_refuses_non_text() -> None:
    with pytest.raises(InvalidMoveError, match="text"):
        Move.parse(37)  # type: ignore[arg-type]


def test_ppn_round_trips_a_team_position() -> None:
    rules = Rules.preset("ants", team_size=2)
    text = ppn(19, {3: "A2B1A1-", 12: "B2+"}, "A1:4,B1:4,A2:4,B2:4", "A1:0,B1:0,A2:0,B2:0", "B2", "3,2")
    assert Position.from_ppn(rules, text).to_ppn() == text


BELL = Rules.preset("bell")
START = "././././././././. A1:5,B1:5 A1:0,B1:0 A1 -"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("././././././././. A1:5,B1:5 A1:0,B1:0 A1", "five fields"),
        ("././././././././.  A1:5,B1:5 A1:0,B1:0 A1 -", "five fields"),
        ("./././././././. A1:5,B1:5 A1:0,B1:0 A1 -", "8 cells"),
        ("A3+/./././././././. A1:5,B1:5 A1:0,B1:0 A1 -", "beyond a 1 v 1"),
        ("A1+/./././././././. A1:5,B1:5 A1:0,B1:0 A1 -", "more than 5"),
        ("A1-/./././././././. A1:4,B1:5 A1:0,B1:0 A1 -", "army route"),
        ("a1+/./././././././. A1:4,B1:5 A1:0,B1:0 A1 -", "cell 1"),
        ("././././././././. B1:5,A1:5 A1:0,B1:0 A1 -", "seat order"),
        ("././././././././. A1:5,B1:5 A1:0,B1:0 A2 -", "beyond a 1 v 1"),
        ("././././././././. A1:5,B1:5 A1:0,B1:0 A1 7", "values must be"),
        ("././././././././. A1:5,B1:5 A1:0,B1:0 A1 3,2", "a turn has 1"),
        ("././././././././. A1:5,B1:5 A1:0,B1:0 A1 x", "pending throws"),
        ("././././././././. A1:5,B1:4 A1:0,B1:0 A1 -", "every lost piece is a kill"),
        ("././././././././. A1:5,B1:5 A1:1,B1:0 A1 -", "killed 1 but only 0"),
        ("././././././././. A1:5,B1:5 A1:+0,B1:0 A1 -", "A1:<count>"),
    ],
)
def test_malformed_ppn_is_refused(text: str, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        Position.from_ppn(BELL, text)


def test_ppn_refuses_a_stack_on_the_fire() -> None:
    with pytest.raises(InvalidPositionError, match="fire"):
        Position.from_ppn(Rules.preset("fire"), "././././A1+/./././. A1:4,B1:5 A1:0,B1:0 A1 -")


def test_ppn_refuses_a_tower_under_eagle_capture() -> None:
    with pytest.raises(InvalidPositionError, match="eagle"):
        Position.from_ppn(Rules.preset("eagle"), "./././A1B1-/././././. A1:4,B1:4 A1:0,B1:0 A1 -")


def test_ppn_start_matches_start() -> None:
    assert Position.from_ppn(BELL, START) == Position.start(BELL)


def test_ppn_does_not_carry_who_lost_which_piece() -> None:
    """Gap in RULES.md: PPN keeps kills per seat, not whose pieces died or burned. Literal reading: a parsed
    position credits the enemy's kills to the seats in seat order and counts the rest as gone (fire/eagle)."""
    rules = Rules.preset("fire", team_size=2, throws_per_turn=1, one_active=False)
    text = ppn(19, {}, "A1:3,B1:5,A2:4,B2:5", "A1:0,B1:1,A2:0,B2:1", "A1")
    pos = Position.from_ppn(rules, text)
    assert (pos.killed("A1"), pos.killed("A2"), pos.gone("A1"), pos.gone("A2")) == (2, 0, 0, 1)
    assert pos.to_ppn() == text


def test_ppn_with_pending_throws_but_no_legal_move_is_refused() -> None:
    """Gap in RULES.md: such a position cannot arise (the turn would have passed, §6), so it is refused."""
    rules = Rules.preset("bell", team_size=2, throws_per_turn=1, one_active=False)
    text = ppn(19, {3: "A1+"}, "A1:4,B1:5,A2:5,B2:5", "A1:0,B1:0,A2:0,B2:0", "A2", "3")
    with pytest.raises(InvalidPositionError, match="no legal move"):
        Position.from_ppn(rules, text)
