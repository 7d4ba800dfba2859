"""The hard player in team games: it plays for its team, so a teammate's pieces count as its own.

Hand-made positions of Bell 2 v 2 with one throw a turn (so a turn is one move), seats A1, B1, A2, B2 in
turn order; A moves up the road (cell 1 to 19), B down. In each, the right move is right by a wide margin and
only for a player that counts its teammate's pieces: a player that valued only its own seat's pieces would
rate the two candidate moves alike.
"""

from __future__ import annotations

import random

import pytest

from puluc import Move, Position, Rules
from puluc.ai import choose_move
from tests.helpers import at

TEAM_MODERN = Rules.preset("bell", team_size=2, throws_per_turn=1, one_active=False)
BUDGETS = (5, 50, 300)


@pytest.fixture
def rules() -> Rules:
    return TEAM_MODERN


def hard(pos: Position, budget_ms: float) -> Move:
    return choose_move(pos, "hard", random.Random(1), budget_ms)


@pytest.mark.parametrize("budget_ms", BUDGETS)
def test_hard_frees_its_teammates_captives(rules: Rules, budget_ms: float) -> None:
    # B1's stack on cell 2 holds three of A1's pieces and arrives (killing them) with any throw but a 1. A2 throws
    # 2: entering lands on that stack and frees them; or its piece on 10 takes B2's lone piece on 12. Either
    # capture takes one enemy piece; only the first saves the teammate's three.
    pos = at(rules, {2: "B1A1A1A1+", 10: "A2+", 12: "B2+"}, "A1:2,B1:4,A2:4,B2:4", "A1:0,B1:0,A2:0,B2:0", "A2", "2")
    assert set(pos.legal_moves()) == {Move(2, 0), Move(2, 10)}
    assert hard(pos, budget_ms) == Move(2, 0)


@pytest.mark.parametrize("budget_ms", BUDGETS)
def test_hard_protects_its_teammates_tower(rules: Rules, budget_ms: float) -> None:
    # A1's tower on 8 holds three of B1's pieces; B2's piece on 10, which throws next, takes it with a 2 (6 in 16).
    # A2 throws 3: from 7 it takes that piece, from 13 it takes B1's lone piece on 16. Each takes one piece and
    # leaves one of A2's own pieces where it was; only the first keeps the teammate's tower safe.
    pos = at(
        rules,
        {7: "A2+", 8: "A1B1B1B1+", 10: "B2+", 13: "A2+", 16: "B1+"},
        "A1:4,B1:1,A2:3,B2:4",
        "A1:0,B1:0,A2:0,B2:0",
        "A2",
        "3",
    )
    assert {Move(3, 7), Move(3, 13)} <= set(pos.legal_moves())
    assert hard(pos, budget_ms) == Move(3, 7)


@pytest.mark.parametrize("budget_ms", BUDGETS)
def test_hard_does_not_hand_its_teammates_pieces_to_the_enemy(rules: Rules, budget_ms: float) -> None:
    # A2's tower on 7 carries two of A1's freed pieces (over one of B1's); B2 has pieces on 14 and 15 and throws
    # next. A2 throws 5 (entering is blocked by A1's piece on 5): the tower to 12 or its lone piece from 8 to 13.
    # Either lands where B2 takes it with a 2 or a 3 (10 in 16), and either way one of A2's own pieces is at
    # stake; the tower would also hand over the teammate's two.
    pos = at(
        rules,
        {5: "A1+", 7: "A2B1A1A1+", 8: "A2+", 14: "B2+", 15: "B2+"},
        "A1:2,B1:4,A2:3,B2:3",
        "A1:0,B1:0,A2:0,B2:0",
        "A2",
        "5",
    )
    assert set(pos.legal_moves()) == {Move(5, 7), Move(5, 8)}
    assert hard(pos, budget_ms) == Move(5, 8)
