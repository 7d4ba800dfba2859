"""`/puluc review`'s work: a known Bell game whose costliest decision is known from the exact table, the pictures
it draws, and a team game reviewed by search."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.exact import bell_table
from bot.learning.review import ReviewRequest, review
from puluc import Game, GameRecord, Move, Rules
from puluc.ai import choose_move

BLUNDER_AT = 4  # A's fifth decision with a real choice is its worst move; every other is a best one


def known_bell_game(seed: int = 11) -> tuple[GameRecord, int, float]:
    """A Bell game where A1 plays the exact table's best move at every decision but one, where it plays the
    worst; B1 plays as medium. Returns the record, the blunder's event number (its throw) and its exact cost."""
    table = bell_table()
    rng = random.Random(seed)
    game = Game.new(Rules.preset("bell"), rng, first="A")
    decisions = 0
    blunder: tuple[int, float] | None = None
    while not game.position.is_over:
        position = game.position
        if position.must_throw:
            game.roll(rng)
            continue
        if position.to_move == "B1":
            game.play(choose_move(position, "medium", rng))
            continue
        chances = {move: table.end_chance(position.play(move), 0) for move in position.legal_moves()}
        if len({round(c, 9) for c in chances.values()}) > 1:
            decisions += 1
        ranked = sorted(chances, key=lambda move: chances[move])
        if decisions == BLUNDER_AT + 1 and blunder is None and len(chances) > 1:
            worst, best = ranked[0], ranked[-1]
            blunder = (len(game.record.events) - 1, chances[best] - chances[worst])
            game.play(worst)
        else:
            game.play(ranked[-1])
    assert blunder is not None, "the game ended before the blunder"
    return game.record, blunder[0], blunder[1]


def test_the_costliest_decision_of_a_known_bell_game_is_its_blunder_by_the_exact_values() -> None:
    record, event, cost = known_bell_game()
    result = review(ReviewRequest(record, "A1", {"A1": "Alice", "B1": "Bob"}, {}))
    assert result.method == "exact"
    assert cost > 0.01
    (first, *rest) = result.costliest
    blunder = result.decisions[first]
    assert blunder.cost == pytest.approx(cost, abs=1e-9)
    # The blunder's turn: the number of throws up to its own.
    assert blunder.turn == sum(1 for e in record.events[: event + 1] if type(e).__name__ == "ThrowEvent")
    assert all(result.decisions[i].cost < 1e-9 for i in rest)  # every other decision was a best one
    assert blunder.best and Move.parse(blunder.best[0]) in blunder.before.legal_moves()


def test_a_review_draws_the_chart_and_the_board_before_each_costly_decision() -> None:
    record, _, _ = known_bell_game(seed=12)
    result = review(ReviewRequest(record, "A1", {}, {}))
    assert result.chart is not None and len(result.boards) == len(result.costliest) >= 1
    for png in (result.chart, *result.boards):
        assert Image.open(io.BytesIO(png)).format == "PNG"
    assert len(result.points) == len(result.decisions)


def test_a_team_game_is_reviewed_by_the_hard_ais_search() -> None:
    rng = random.Random(3)
    game = Game.new(Rules.preset("ants", team_size=2), rng)
    for _ in range(60):
        if game.position.is_over:
            break
        if game.position.must_throw:
            game.roll(rng)
        else:
            game.play(choose_move(game.position, "easy", rng))
    result = review(ReviewRequest(game.record, "A2", {}, {}, budget_ms=2))
    assert result.method == "search" and result.seat == "A2"
