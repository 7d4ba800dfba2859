"""Expectiminimax over whole turns and the sticks' real probabilities, deepened turn by turn within a budget of nodes.

A decision node is a seat's turn with its throws in hand: the seat picks, among every way to play them (every
order of two throws included), the end of turn that is best for its team (the root's team maximises, the other
team minimises; teammates play together). Different orders often end the turn in the same position, so each
distinct end is valued once. When the turn passes, a chance node averages over every throw the next seat can
make (pairs merged: the player picks the order). Depth counts turns; at the horizon the learned evaluation
(features.py) gives the chance to win, and it looks one turn further, analytically: the exact threats of the
seat about to throw and of the next one.

Work is counted in nodes (moves played, throws made, positions evaluated), never in time, so a search
is deterministic for a given budget; a wall-clock deadline is only a safety net for a machine far slower
than the one the node rate was calibrated on. This module keeps no state between searches.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from ..errors import ErrorCode, NoMoveToChooseError
from ..position import Move, Position
from .evaluate import Model, terminal_value
from .features import win_logit

T = TypeVar("T")

#: Deepest search in turns for 1 v 1 with one throw a turn. Measured against the exact solution of Bell
#: (research/exact_1v1.py): over 4,000 positions with a choice that matters, the mean loss of winning
#: chance per decision was 0.39 points at depth 1, 0.127 at 2, 0.086 at 3, 0.044 at 4, and 0.042-0.046 when
#: deepening to 5-6 within the 300 ms budget; so 4, about 35 ms a move on Bell. (A paired tournament had
#: once ranked depth 3 below 2; its interval was about half as wide as the games' real spread.)
MAX_DEPTH = 4
#: Deepest search for team games and two throws a turn, where depth 2 does not reach the mover's team's
#: next turn: there deeper is better, so the search deepens as far as the budget allows.
DEEP_MAX_DEPTH = 12


def default_depth(model: Model) -> int:
    """How deep `search` goes by default under the model's rules (see MAX_DEPTH and DEEP_MAX_DEPTH)."""
    rules = model.rules
    return MAX_DEPTH if rules.team_size == 1 and rules.throws_per_turn == 1 else DEEP_MAX_DEPTH


#: Values are 2 P(win) - 1 for the root's team: won games +1, lost -1, drawn 0, and a horizon position
#: tanh(logit / 2) = 2 sigmoid(logit) - 1 of the learned log-odds. So the search maximises the chance to
#: win, not the expected lead: it takes risks when behind and plays safe when ahead.


class OutOfBudget(Exception):
    """Raised inside a search when its nodes (or the safety deadline) run out; the search unwinds."""


@dataclass(frozen=True, slots=True)
class SearchResult:
    """Root moves with their values for the mover's team (best first), and how deep the search finished."""

    scored: tuple[tuple[Move, float], ...]
    depth: int
    nodes: int


def turn_ends(pos: Position, count: Callable[[], None] | None = None) -> list[Position]:
    """Every distinct position in which the turn of `pos`'s seat can end, `pos` having throws in hand.

    A turn ends when the next seat must throw (every throw used, or none left that moves) or the game is
    over. Two orders of the same throws that end alike give one entry. `count` is called once a move played.
    """
    ends: dict[tuple[object, ...], Position] = {}
    todo = [pos]
    while todo:
        here = todo.pop()
        for move in here.plans():
            child = here.play(move)
            if count is not None:
                count()
            if child.pending and not child.is_over:
                todo.append(child)
            else:
                ends.setdefault(child.raw_key(), child)
    return list(ends.values())


class _Search:
    __slots__ = ("cut", "deadline", "leaves", "limit", "model", "nodes", "root_team", "sign", "table")

    def __init__(self, model: Model, root_team: int, limit: int, deadline: float) -> None:
        self.model = model
        self.root_team = root_team
        self.sign = 1.0 if root_team == 0 else -1.0
        self.limit = limit
        self.deadline = deadline
        self.nodes = 0
        self.cut = False  # did some line stop at the horizon (if not, deeper search changes nothing)
        self.table: dict[tuple[object, ...], tuple[int, float]] = {}
        # Horizon values by position: a fifth of the horizon positions of a Bell search are reached again by
        # other moves or throws, and the evaluation is most of a search's time. Still counted as nodes.
        self.leaves: dict[tuple[object, ...], float] = {}

    def tick(self) -> None:
        self.nodes += 1
        if self.nodes > self.limit:
            raise OutOfBudget
        if not self.nodes & 1023 and time.perf_counter() > self.deadline:
            raise OutOfBudget

    def end_value(self, end: Position, depth: int) -> float:
        """The value of a turn's end: the result of a finished game, else the next turns' expectation."""
        if end.is_over:
            diff = self.sign * terminal_value(end)
            return 1.0 if diff > 0 else -1.0 if diff < 0 else 0.0
        return self.chance(end, depth - 1)

    def decide(self, pos: Position, depth: int) -> float:
        """`pos` has throws in hand: its seat's best end of turn for its team, `depth` turns from here."""
        maximise = (pos.turn_index & 1) == self.root_team
        best = -2.0 if maximise else 2.0
        if len(pos.pending) == 1:
            # One throw in hand: every move ends the turn, and two moves rarely end it alike.
            ends: list[Position] = []
            for move in pos.plans():
                ends.append(pos.play(move))
                self.tick()
        else:
            ends = turn_ends(pos, self.tick)
        for end in ends:
            value = self.end_value(end, depth)
            if (value > best) if maximise else (value < best):
                best = value
        return best

    def chance(self, pos: Position, depth: int) -> float:
        """`pos` must throw: the expected value over the next turn's throws, `depth` turns from here."""
        if depth <= 0:
            self.tick()
            self.cut = True
            leaf = pos.raw_key()
            value = self.leaves.get(leaf)
            if value is None:
                value = self.leaves[leaf] = math.tanh(0.5 * self.sign * win_logit(self.model, pos))
            return value
        # Caching pays here: different moves, and the turns of different throws, often reach the same position.
        key = pos.raw_key()
        hit = self.table.get(key)
        if hit is not None and hit[0] >= depth:
            return hit[1]
        total = 0.0
        for values, p in self.model.turn_outcomes:
            child = pos.throw(values)
            self.tick()
            total += p * (self.decide(child, depth) if child.pending else self.chance(child, depth - 1))
        self.table[key] = (depth, total)
        return total

    def first_move_value(self, child: Position, depth: int) -> float:
        """The value of the root seat's first move: the best way to finish its turn from `child`."""
        if child.pending and not child.is_over:
            return self.decide(child, depth)
        return self.end_value(child, depth)


#: The least a search one turn deeper costs, in multiples of the nodes the last depth cost, and in multiples
#: of the last depth's own growth (its nodes over the depth before's). Measured over positions of random games
#: (research/search_growth.py) on Bell, ants and eagle 1 v 1, and traditional ants 1 v 1 and 2 v 2: a depth
#: cost at least 1.5 times the one before (median 6 to 10), and its growth was at least 0.1 to 0.5 times the
#: growth before (median about 0.5 to 1). A depth that would need more nodes than are left is not started: it
#: would run out of budget, and an unfinished depth's work is thrown away.
MIN_DEEPENING_GROWTH = 1.4
MIN_GROWTH_CHANGE = 0.1


def _deepen(
    state: _Search, nodes: int, deadline: float, max_depth: int, step: Callable[[int], T]
) -> tuple[T | None, int]:
    """Run `step(depth)` for depth 1, 2, ... `max_depth`: depth 1 always finishes, deeper ones while the node
    budget and the safety deadline last, and none once no line was cut at the horizon (every line reached
    the end of the game, so deeper search would change nothing). The last finished depth's result and depth.

    A depth is not started when even the least it can cost (`MIN_DEEPENING_GROWTH`, `MIN_GROWTH_CHANGE`) would
    overrun the budget: the answer is the same as after a depth that ran out, without paying for it.
    """
    result: T | None = None
    depth_done = 0
    last_cost = growth = 0.0
    for depth in range(1, max_depth + 1):
        state.cut = False
        if depth > 1:
            if time.perf_counter() > deadline:
                break
            least = last_cost * max(MIN_DEEPENING_GROWTH, MIN_GROWTH_CHANGE * growth)
            if state.nodes + least > nodes:
                break
            state.limit = nodes
        else:
            state.limit = 1 << 62  # the first depth always finishes
        before = state.nodes
        try:
            result = step(depth)
        except OutOfBudget:
            break
        cost = state.nodes - before
        growth, last_cost = (cost / last_cost if last_cost else 0.0), cost
        depth_done = depth
        if not state.cut:
            break
    return result, depth_done


def search(
    model: Model,
    pos: Position,
    nodes: int,
    deadline: float,
    max_depth: int | None = None,
) -> SearchResult:
    """Iterative deepening from one turn to `max_depth` (default: `default_depth`) or until the node budget
    runs out; the last full depth decides. A first move's value is that of the best way to finish the turn.

    Depth 1 always completes (it costs a few nodes per way to play the turn), so there is always an answer.
    """
    moves = list(pos.plans())
    if not moves:
        over = pos.is_over
        raise NoMoveToChooseError(
            "no legal move: " + ("the game is over" if over else f"{pos.to_move} must throw first"),
            ErrorCode.GAME_OVER if over else ErrorCode.MUST_THROW_FIRST,
            seat=pos.to_move,
        )
    state = _Search(model, pos.turn_index & 1, nodes, deadline)
    children = [(move, pos.play(move)) for move in moves]
    order = children

    def step(depth: int) -> list[tuple[Move, float]]:
        nonlocal order
        values = [(move, child, state.first_move_value(child, depth)) for move, child in order]
        # Sorting is stable, so equal values keep the legal-move order: the result does not depend on timing.
        values.sort(key=lambda mcv: -mcv[2])
        order = [(m, c) for m, c, _ in values]  # the next depth tries the best moves first
        return [(m, v) for m, _, v in values]

    scored, depth_done = _deepen(state, nodes, deadline, max_depth or default_depth(model), step)
    return SearchResult(tuple(scored or ()), depth_done, state.nodes)


def position_value(model: Model, pos: Position, nodes: int, deadline: float) -> tuple[float, int]:
    """Team A's value of `pos` (-1 lost .. +1 won) and the turns searched, by iterative deepening.

    A position that must throw is a chance node over its seat's throws; one with pending throws is its
    seat's best end of turn for its team. Depth 1 always completes; deeper depths run while the node budget
    lasts, up to `default_depth`.
    """
    state = _Search(model, 0, nodes, deadline)

    def step(depth: int) -> float:
        return state.chance(pos, depth) if not pos.pending else state.decide(pos, depth)

    value, depth_done = _deepen(state, nodes, deadline, default_depth(model), step)
    return value or 0.0, depth_done


def end_values(model: Model, pos: Position, nodes: int, deadline: float) -> tuple[list[tuple[Position, float]], int]:
    """Every distinct end of the turn of `pos` (throws in hand) with its value for the mover's team (-1 lost ..
    +1 won), all searched to the same depth by iterative deepening within `nodes`, and that depth.

    The same depth for every end makes the values comparable: the best end is never valued by a deeper look
    than another, so the difference between two ends is the search's own, as a review reports it.
    """
    state = _Search(model, pos.turn_index & 1, nodes, deadline)
    ends = turn_ends(pos)

    def step(depth: int) -> list[tuple[Position, float]]:
        return [(end, state.end_value(end, depth)) for end in ends]

    valued, depth_done = _deepen(state, nodes, deadline, default_depth(model), step)
    return valued or [], depth_done


def value_at_depth(model: Model, pos: Position, depth: int) -> float:
    """Team A's value of `pos` (-1 lost .. +1 won) searched exactly `depth` turns, with no budget: for the small
    depths of a cheap estimate. With throws in hand, depth 1 rates each end of the turn by the evaluation; before
    a throw, depth 0 is the evaluation itself and depth 1 its average over the throws of each throw's best end.
    """
    state = _Search(model, 0, 1 << 62, math.inf)
    return state.decide(pos, depth) if pos.pending else state.chance(pos, depth)
