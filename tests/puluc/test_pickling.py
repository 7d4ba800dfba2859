"""Positions cross process boundaries (the bot's worker processes): pickled without their route tables,
they come back equal, on the same shared tables, and play on identically."""

from __future__ import annotations

import pickle
import random

from puluc import Position, Rules, Throw
from puluc.routes import tables_for


def test_a_pickled_position_comes_back_equal_and_plays_on_the_same() -> None:
    rules = Rules.preset("ants", team_size=2)
    rng = random.Random(3)
    position = Position.start(rules)
    for _ in range(120):
        if position.is_over:
            break
        copy = pickle.loads(pickle.dumps(position))
        assert copy == position and copy.to_ppn() == position.to_ppn()
        assert copy.tables is tables_for(rules)
        assert copy.legal_moves() == position.legal_moves()
        legal = position.legal_moves()
        if legal:
            move = rng.choice(legal)
            assert copy.move_effect(move) == position.move_effect(move)
            position = position.play(move)
        else:
            values = [Throw.roll(rng, rules.sticks).value for _ in range(rules.throws_per_turn)]
            position = position.throw(values)


def test_a_pickled_position_does_not_carry_its_route_tables() -> None:
    position = Position.start(Rules.preset("bell"))
    assert len(pickle.dumps(position)) < len(pickle.dumps(position.tables)) / 4
