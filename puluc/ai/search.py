"""Expectiminimax over the sticks' real probabilities, deepened turn by turn within a budget of nodes.

A decision node is a position with pending throws: its seat picks the move that is best for its team (the
root's team maximises, the other team minimises; teammates play together). After a move with throws left
the same seat decides again, so the order of two throws is part of the choice. When the turn passes, a
chance node averages over every throw the next seat can make (pairs merged: the player picks the order).
Depth counts turns; at the horizon `evaluate` looks one throw further for captures, analytically.

Work is counted in nodes (moves played, throws made, positions evaluated), never in time, so a search
is deterministic for a given budget; a wall-clock deadline is only a safety net for a machine far slower
than the one the node rate was calibrated on. This module keeps no state between searches.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from ..position import Move, Position
from .evaluate import DEFAULT_WEIGHTS, Model, Weights, evaluate, terminal_value

#: Deepest search in turns; far beyond what a budget reaches, it only stops a search with nothing to cut.
MAX_DEPTH = 12


#: Leaves are valued tanh(UTILITY_SLOPE * lead in pieces), an estimate of 2 P(win) - 1: a logistic fit of
#: the results of Bell games between medium players on the score lead (55,000 positions) gave 0.56
#: log-odds per piece, and tanh(x / 2) = 2 sigmoid(x) - 1. So the search maximises the chance to win, not
#: the expected lead: it takes risks when behind and plays safe when ahead. Won games are +1, lost -1.
UTILITY_SLOPE = 0.28


class OutOfBudget(Exception):
    """Raised inside a search when its nodes (or the safety deadline) run out; the search unwinds."""


@dataclass(frozen=True, slots=True)
class SearchResult:
    """Root moves with their values for the mover's team (best first), and how deep the search finished."""

    scored: tuple[tuple[Move, float], ...]
    depth: int
    nodes: int


class _Search:
    __slots__ = ("cut", "deadline", "limit", "model", "nodes", "root_team", "sign", "table", "weights")

    def __init__(self, model: Model, root_team: int, limit: int, deadline: float, weights: Weights) -> None:
        self.model = model
        self.root_team = root_team
        self.sign = 1.0 if root_team == 0 else -1.0
        self.limit = limit
        self.deadline = deadline
        self.weights = weights
        self.nodes = 0
        self.cut = False  # did some line stop at the horizon (if not, deeper search changes nothing)
        self.table: dict[tuple[object, ...], tuple[int, float]] = {}

    def tick(self) -> None:
        self.nodes += 1
        if self.nodes > self.limit:
            raise OutOfBudget
        if not self.nodes & 1023 and time.perf_counter() > self.deadline:
            raise OutOfBudget

    def after_move(self, child: Position, depth: int) -> float:
        if child.is_over:
            diff = self.sign * terminal_value(child)
            return 1.0 if diff > 0 else -1.0 if diff < 0 else 0.0
        if child._pending:
            return self.decide(child, depth)
        return self.chance(child, depth - 1)

    def decide(self, pos: Position, depth: int) -> float:
        maximise = (pos._turn & 1) == self.root_team
        best = -1e9 if maximise else 1e9
        for move in pos._legal():
            child = pos.play(move)
            self.tick()
            value = self.after_move(child, depth)
            if (value > best) if maximise else (value < best):
                best = value
        return best

    def chance(self, pos: Position, depth: int) -> float:
        """`pos` must throw: the expected value over the next turn's throws, `depth` turns from here."""
        if depth <= 0:
            self.tick()
            self.cut = True
            return math.tanh(UTILITY_SLOPE * self.sign * evaluate(self.model, pos, self.weights))
        # Caching pays here: two throws in either order, or different moves, often reach the same turn end.
        key = (pos._board, pos._home, pos._kills, pos._turn)
        hit = self.table.get(key)
        if hit is not None and hit[0] >= depth:
            return hit[1]
        total = 0.0
        for values, p in self.model.turn_outcomes:
            child = pos.throw(values)
            self.tick()
            total += p * (self.decide(child, depth) if child._pending else self.chance(child, depth - 1))
        self.table[key] = (depth, total)
        return total


def search(
    model: Model,
    pos: Position,
    nodes: int,
    deadline: float,
    weights: Weights = DEFAULT_WEIGHTS,
    max_depth: int = MAX_DEPTH,
) -> SearchResult:
    """Iterative deepening from one turn until the node budget runs out; the last full depth decides.

    Depth 1 always completes (it costs a few nodes per legal move), so there is always an answer.
    """
    moves = list(pos._legal())
    if not moves:
        raise ValueError("no legal move: the position must throw first or the game is over")
    team = pos._turn & 1
    state = _Search(model, team, nodes, deadline, weights)
    scored: list[tuple[Move, float]] = []
    depth_done = 0
    order = moves
    for depth in range(1, max_depth + 1):
        state.cut = False
        if depth > 1:
            if time.perf_counter() > deadline:
                break
            state.limit = nodes
        else:
            state.limit = 1 << 62  # the first depth always finishes
        try:
            values = [(move, state.after_move(pos.play(move), depth)) for move in order]
        except OutOfBudget:
            break
        # Sorting is stable, so equal values keep the legal-move order: the result does not depend on timing.
        scored = sorted(values, key=lambda mv: -mv[1])
        order = [m for m, _ in scored]
        depth_done = depth
        if not state.cut:
            break  # every line reached the end of the game: deeper search would change nothing
    return SearchResult(tuple(scored), depth_done, state.nodes)
