"""The AI on the culin route, where a lone piece circles for ever and only a stack that captured ever arrives.

Culin 1 v 1 on the road of 9: A's lone pieces walk up the road (wrapping from 9 to 1), B's down; a stack that
captured walks back towards its owner's home and arrives when it passes its owner's cell 1 (RULES.md §5).
"""

from __future__ import annotations

import random

import pytest

from puluc import Move, Rules
from puluc.ai import choose_move
from puluc.ai.evaluate import model_for
from puluc.ai.features import (
    CAPTIVE_PROGRESS,
    CULIN_TEAM_WIN_WEIGHTS,
    CULIN_WIN_WEIGHTS,
    TOP_PROGRESS,
    features,
    weights_for,
)
from puluc.routes import INBOUND, OUTBOUND
from tests.helpers import at

CULIN = Rules.preset("culin")


def test_a_lone_culin_piece_never_progresses_and_a_stack_walking_back_does() -> None:
    progress = model_for(CULIN).progress
    for team in (0, 1):
        assert set(progress[team][OUTBOUND]) == {0.0}
    # A's stack on cell c is c steps from arriving, of at most 9; B's counts from the other end.
    assert progress[0][INBOUND] == pytest.approx([1 - (c - 1) / 9 for c in range(1, 10)])
    assert progress[1][INBOUND] == pytest.approx([1 - (9 - c) / 9 for c in range(1, 10)])


def test_culin_features_see_how_far_a_captive_is_from_being_killed() -> None:
    # A's stack on 3 holds one of B's pieces and arrives with a throw of 3 or more; B's stack on 4 holds one of
    # A's and has 6 cells to go (B's own cell 6). The lone pieces count nothing.
    pos = at(CULIN, {3: "A1B1-", 4: "B1A1-", 6: "A1+", 8: "B1+"}, "A1:2,B1:2", "A1:0,B1:0", "A1")
    x = features(model_for(CULIN), pos)
    assert x[CAPTIVE_PROGRESS] == pytest.approx(7 / 9 - 4 / 9)
    assert x[TOP_PROGRESS] == pytest.approx(7 / 9 - 4 / 9)


def test_culin_games_are_valued_with_the_culin_weights() -> None:
    assert weights_for(CULIN) is CULIN_WIN_WEIGHTS
    assert weights_for(Rules.preset("culin", fire=True)) is CULIN_WIN_WEIGHTS
    assert weights_for(Rules.preset("culin", team_size=2)) is CULIN_TEAM_WIN_WEIGHTS


@pytest.mark.parametrize("budget_ms", [5, 50, 300])
def test_hard_takes_the_tower_that_holds_its_own_piece(budget_ms: float) -> None:
    # B throws 2: from 8 it takes A's stack on 6 (A1 over a B1 it captured), freeing that piece and holding A's;
    # from 9 it takes A's lone piece on 7 and leaves A's stack walking home to kill B1. Both capture one piece,
    # only the first also saves one; an evaluation that valued a captive at nothing unless its stack came
    # near an arrival no lone culin piece ever makes took the lone piece.
    pos = at(CULIN, {2: "A1+", 6: "A1B1-", 7: "A1+", 8: "B1+", 9: "B1+"}, "A1:0,B1:0", "A1:2,B1:2", "B1", "2")
    assert set(pos.legal_moves()) == {Move(2, 8), Move(2, 9)}
    assert choose_move(pos, "hard", random.Random(1), budget_ms) == Move(2, 8)
