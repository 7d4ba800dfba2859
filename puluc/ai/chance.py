"""A cheap "who is ahead": team A's chance to win read from the hard player's learned evaluation, without a search.

`win_chance` costs a few evaluations (features.py), a small fraction of a millisecond, where `win_probability`
searches or plays out for a budget of milliseconds. It is what a board's bar shows: against the exact chances of
Bell it is closer on average than the 4 ms search it replaces, and on the variants without an exact solution
far steadier than a few milliseconds of random playouts (`benchmarks/advantage.py` prints both). This module keeps
no state and never searches beyond the end of the turn in hand.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ..position import Position
from .evaluate import model_for, terminal_value
from .features import win_logit
from .search import turn_ends

if TYPE_CHECKING:
    from .exact import ExactTable

__all__ = ["BAR_SEARCH_MS", "bar_chance", "result_chance", "win_chance"]

#: The search budget of `bar_chance` on the 1 v 1 army-route rules that no exact table covers (Bell with fire,
#: scorpion or another road): the bar's budget before issue 33, where the search beat the evaluation alone.
BAR_SEARCH_MS = 4.0


def result_chance(position: Position) -> float:
    """Team A's result of a finished game as a chance: 1.0 won, 0.0 lost, 0.5 drawn."""
    diff = terminal_value(position)
    return 1.0 if diff > 0 else 0.0 if diff < 0 else 0.5


def _sigmoid(logit: float) -> float:
    return 1.0 / (1.0 + math.exp(-logit)) if logit > -700 else 0.0


def _static_chance(position: Position) -> float:
    """Team A's chance at a turn's end (a seat must throw, or the game is over), from the learned evaluation."""
    if position.is_over:
        return result_chance(position)
    return _sigmoid(win_logit(model_for(position.rules), position))


def win_chance(position: Position) -> float:
    """Team A's chance to win from `position` (draws count half), without a search.

    A finished game gives its result. Where a seat must throw, it is the learned evaluation of the position
    (which already weighs every throw of this turn and the next: the seats' exact threats); where a seat has
    throws in hand, that of the end of its turn the evaluation rates best for the seat's team, every way to
    play the throws considered. Deterministic: the same position always gives the same chance.

    >>> from puluc import Position, Rules
    >>> start = Position.start(Rules.preset("bell"), first="A")
    >>> win_chance(start)  # nothing on the road yet: even, to the evaluation (exactly 0.514 for A)
    0.5
    >>> win_chance(start.throw([1])) > win_chance(start.throw([5]))  # a 1 enters out of the enemy's reach
    True
    """
    if not isinstance(position, Position):
        raise TypeError(f"position must be a puluc Position, not {type(position).__name__}")
    if position.is_over or position.must_throw:
        return _static_chance(position)
    chances = [_static_chance(end) for end in turn_ends(position)]
    return max(chances) if position.turn_index & 1 == 0 else min(chances)


def bar_chance(position: Position, exact: ExactTable | None = None, budget_ms: float = BAR_SEARCH_MS) -> float:
    """Team A's chance for a board's "who is ahead" bar: the cheapest estimate that is not less accurate than
    the 4 ms search the bar had before (issue 33; `benchmarks/advantage.py` measures each).

    Exact where `exact` covers the rules (Bell 1 v 1: a lookup, about 0.05 ms). On the other 1 v 1 rules of the
    army route with one throw a turn (Bell with fire, scorpion or another road), `win_probability`'s search of
    `budget_ms`, as before: there the search is closer to the exact chances of Bell than the evaluation alone.
    Everywhere else `win_chance`, which beats a few milliseconds of random playouts by far.

    >>> from puluc import Position, Rules
    >>> bar_chance(Position.start(Rules.preset("ants"), first="A")) == win_chance(Position.start(Rules.preset("ants")))
    True
    """
    rules = position.rules
    if exact is not None and exact.covers(rules):
        return exact.chance(position)
    if rules.route == "army" and rules.team_size == 1 and rules.throws_per_turn == 1 and not position.is_over:
        from . import win_probability

        return win_probability(position, None, budget_ms)
    return win_chance(position)
