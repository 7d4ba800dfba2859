"""Fast random playouts to the end of a game, for the "who is ahead" estimate (`win_probability`).

The playout policy is cheap on purpose: a random capture when there is one, else a random legal move;
the estimate is the share of playouts team A wins (a draw counts half). Work is counted in moves played,
so the number of playouts is a function of the budget alone and the estimate is deterministic for a given
rng. This module keeps no state between calls and never searches.
"""

from __future__ import annotations

import random
import time

from ..position import Move, Position
from ..routes import ARRIVE
from ..sticks import STICK_TABLES

#: Value of each of the 16 face patterns of the four sticks, per sticks table (bit i = stick i up).
_THROW_VALUES: dict[str, tuple[int, ...]] = {
    sticks: tuple(table[bits.bit_count()] for bits in range(16)) for sticks, table in STICK_TABLES.items()
}

#: A playout longer than this many moves is scored as it stands (culin pieces can circle for a long time).
MAX_PLAYOUT_MOVES = 2000


def capture_first(pos: Position, rng: random.Random) -> Move:
    """The playout policy: a random capturing move if any, else a random legal move."""
    plans = pos.plans()
    board = pos.raw_board
    captures = [m for m, plan in plans.items() if plan.kind != ARRIVE and plan.dest != plan.source and board[plan.dest]]
    choices = captures or list(plans)
    return choices[int(rng.random() * len(choices))]


def playout(pos: Position, rng: random.Random) -> tuple[float, int]:
    """Play `pos` to the end with the capture-first policy: (result for team A, moves played).

    The result is 1 for an A win, 0 for a B win, 0.5 for a draw (or, past MAX_PLAYOUT_MOVES, the side ahead
    on score wins).
    """
    values = _THROW_VALUES[pos.rules.sticks]
    per_turn = pos.rules.throws_per_turn
    moves = 0
    while not pos.is_over and moves < MAX_PLAYOUT_MOVES:
        if pos.pending:
            pos = pos.play(capture_first(pos, rng))
            moves += 1
        else:
            pos = pos.throw([values[rng.getrandbits(4)] for _ in range(per_turn)])
    scores = pos.scores()
    if scores["A"] == scores["B"]:
        return 0.5, moves
    return (1.0 if scores["A"] > scores["B"] else 0.0), moves


def estimate(pos: Position, rng: random.Random, moves_budget: int, deadline: float | None = None) -> tuple[float, int]:
    """Share of team A wins over playouts until `moves_budget` moves are spent: (estimate, playouts).

    At least one playout always runs; `deadline` (perf_counter seconds) is only a safety net.
    """
    if pos.is_over:
        return playout(pos, rng)[0], 0
    total = 0.0
    count = 0
    spent = 0
    while count == 0 or (spent < moves_budget and (deadline is None or time.perf_counter() < deadline)):
        result, moves = playout(pos, rng)
        total += result
        spent += max(moves, 1)
        count += 1
    return total / count, count
