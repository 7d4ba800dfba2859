"""A cheap "who is ahead": team A's chance to win read from the hard player's learned evaluation, without a search.

`win_chance` costs a few evaluations (features.py), where `win_probability` searches or plays out for a budget of
milliseconds; how close each comes to the exact chances is in docs/AI.md ("The advantage bar"). This module
keeps no state and never searches beyond the end of the turn in hand.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ..position import Position
from .evaluate import model_for, terminal_value
from .features import win_logit
from .search import value_at_depth

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


def win_chance(position: Position, turns: int = 1) -> float:
    """Team A's chance to win from `position` (draws count half), from the learned evaluation and a look of
    `turns` turns: no budget, no randomness, the same position always gives the same chance.

    With throws in hand, `turns=1` rates each way to end the turn in hand by the evaluation and takes the best
    for the seat's team (a few evaluations); `turns=2` also weighs every throw of the next turn and that seat's
    best answer. Before a throw, `turns=1` is the evaluation itself (it already weighs the
    coming throws' threats) and `turns=2` its average over the throws. A finished game gives its result.

    >>> from puluc import Position, Rules
    >>> start = Position.start(Rules.preset("bell"), first="A")
    >>> win_chance(start)  # nothing on the road yet: even, to the evaluation (exactly 0.514 for A)
    0.5
    >>> win_chance(start.throw([1])) > win_chance(start.throw([5]))  # a 1 enters out of the enemy's reach
    True
    """
    if not isinstance(position, Position):
        raise TypeError(f"position must be a puluc Position, not {type(position).__name__}")
    if position.is_over:
        return result_chance(position)
    depth = turns if position.pending else turns - 1
    if depth == 0:
        return _sigmoid(win_logit(model_for(position.rules), position))
    return (1.0 + value_at_depth(model_for(position.rules), position, depth)) / 2.0


def bar_chance(position: Position, exact: ExactTable | None = None, budget_ms: float = BAR_SEARCH_MS) -> float:
    """Team A's chance for a board's "who is ahead" bar: per rules, the cheapest estimate measured no less
    accurate than the search the bar had before (the figures: docs/AI.md, "The advantage bar").

    - Exact where `exact` covers the rules (Bell 1 v 1).
    - The other 1 v 1 rules of the army route with one throw a turn: `win_probability`'s search of `budget_ms`.
    - The other 1 v 1 rules with one throw a turn: `win_chance` with `turns=2`.
    - Two throws a turn and team games: `win_chance`.

    >>> from puluc import Position, Rules
    >>> start = Position.start(Rules.preset("ants", team_size=2), first="A")
    >>> bar_chance(start) == win_chance(start)
    True
    """
    rules = position.rules
    if exact is not None and exact.covers(rules):
        return exact.chance(position)
    if rules.route == "army" and rules.team_size == 1 and rules.throws_per_turn == 1 and not position.is_over:
        from . import win_probability

        return win_probability(position, None, budget_ms)
    one_throw_duel = rules.team_size == 1 and rules.throws_per_turn == 1
    return win_chance(position, turns=2 if one_throw_duel else 1)
