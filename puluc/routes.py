"""Precomputed route tables: where a stack lands for every cell, direction and throw (RULES.md §5).

The position code looks moves up here instead of doing route arithmetic per move; this is what makes
random playouts fast enough for the AI. Every entry is a ready `MovePlan`, built once per set of rules, so
generating the legal moves creates no objects. Cells here are 0-based absolute indices (cell 1 is index 0);
directions are 0 for `+` (outbound) and 1 for `-` (inbound). Pure arithmetic, no game state.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import NamedTuple

from .rules import Rules

LAND = 0  #: the stack lands on (dest, direction)
ARRIVE = 1  #: the stack reaches its route's end and leaves the road
CULIN_ARRIVE = 2  #: culin: the crossing resolves an arrival, then the top piece lands on (dest, direction)

OUTBOUND = 0  #: direction `+`: away from the owner's home
INBOUND = 1  #: direction `-`: towards the owner's home
FROM_HOME = -1  #: a plan's source when the move enters a piece
NOWHERE = -1  #: a plan's dest when the stack arrives and leaves the road


class MovePlan(NamedTuple):
    """How one move goes: where the stack comes from, what happens, where it lands and which way it faces."""

    source: int  #: cell index of the moving stack, FROM_HOME when entering
    kind: int  #: LAND, ARRIVE or CULIN_ARRIVE
    dest: int  #: cell index the stack (or culin's top piece) lands on, NOWHERE when it arrives
    direction: int  #: the top piece's direction after landing: OUTBOUND or INBOUND


#: A table entry: the plan of a move, or None when the route allows no such move.
Step = MovePlan | None


class RouteTables:
    """Every move's plan for one set of rules.

    `fwd[team][direction][cell index][throw]` is a stack's forward move when it lands on an empty cell (or
    arrives), `fwd_capture[...]` the same move when it captures there (the capture sets the direction);
    `enter[team][throw]` and `enter_capture[team][throw]` likewise for a piece entering; `back[...]` is a
    scorpion's backward move, which always captures. Throw 0 and impossible moves are None.
    """

    __slots__ = (
        "army",
        "back",
        "capture_dir",
        "eagle",
        "eagle_returns",
        "enter",
        "enter_capture",
        "fire",
        "fwd",
        "fwd_capture",
        "length",
        "one_active",
        "rules",
        "scorpion",
        "seats",
        "throw_values",
        "throws_per_turn",
    )

    def __init__(self, rules: Rules) -> None:
        length = rules.road_length
        self.rules = rules
        self.length = length
        self.seats = rules.seat_count
        self.army = rules.route == "army"
        self.capture_dir = OUTBOUND if self.army else INBOUND
        self.eagle = rules.capture == "eagle"
        self.eagle_returns = rules.eagle_returns
        self.scorpion = rules.scorpion
        self.one_active = rules.one_active
        self.throws_per_turn = rules.throws_per_turn
        self.throw_values = frozenset(rules.throw_values)
        self.fire = (length - 1) // 2 if rules.fire else -1
        route = rules.route
        self.enter: tuple[tuple[Step, ...], ...] = tuple(
            tuple(_enter_plan(route, length, team, n) if n else None for n in range(6)) for team in (0, 1)
        )

        def forward(team: int, idx: int, d: int, n: int) -> Step:
            return _plan(team, length, idx, _forward(route, length, _own(team, length, idx), d, n))

        def backward(team: int, idx: int, d: int, n: int) -> Step:
            return _plan(team, length, idx, _backward(route, length, _own(team, length, idx), d, n))

        self.fwd = _per_cell(length, forward)
        self.back = _per_cell(length, backward if rules.scorpion else lambda *_: None)
        self.enter_capture = tuple(tuple(_captures(plan, self.capture_dir) for plan in row) for row in self.enter)
        self.fwd_capture = tuple(
            tuple(tuple(tuple(_captures(plan, self.capture_dir) for plan in cell) for cell in rows) for rows in team)
            for team in self.fwd
        )


#: Plans indexed [team][direction][cell index][throw].
PlanTable = tuple[tuple[tuple[tuple[Step, ...], ...], ...], ...]


def _per_cell(length: int, plan: Callable[[int, int, int, int], Step]) -> PlanTable:
    """plan(team, cell index, direction, throw) for every stack a road of `length` can hold."""
    return tuple(
        tuple(
            tuple(tuple(plan(team, idx, d, n) if n else None for n in range(6)) for idx in range(length))
            for d in (OUTBOUND, INBOUND)
        )
        for team in (0, 1)
    )


def _captures(plan: Step, capture_dir: int) -> Step:
    """The same move when it lands on an enemy stack: every capture sets the new top's direction (§4)."""
    if plan is None or plan.kind == ARRIVE:
        return None
    return plan._replace(direction=capture_dir)


@lru_cache(maxsize=256)
def tables_for(rules: Rules) -> RouteTables:
    return RouteTables(rules)


def _own(team: int, length: int, idx: int) -> int:
    """0-based absolute index -> 1-based own-frame cell."""
    return idx + 1 if team == 0 else length - idx


def _abs(team: int, length: int, cell: int) -> int:
    """1-based own-frame cell -> 0-based absolute index."""
    return cell - 1 if team == 0 else length - cell


def _plan(team: int, length: int, source: int, step: tuple[int, int, int] | None) -> Step:
    """An own-frame step (kind, cell, direction) of the stack on index `source` as an absolute plan."""
    if step is None:
        return None
    kind, cell, direction = step
    if kind == ARRIVE:
        return MovePlan(source, ARRIVE, NOWHERE, OUTBOUND)
    return MovePlan(source, kind, _abs(team, length, cell), direction)


def _enter_plan(route: str, length: int, team: int, n: int) -> MovePlan:
    """Entering lands on own-frame cell n, outbound; on the ants route cell L already turns it (§11.2)."""
    direction = INBOUND if route == "ants" and n >= length else OUTBOUND
    return MovePlan(FROM_HOME, LAND, _abs(team, length, n), direction)


def _progress(length: int, cell: int, direction: int) -> int:
    return cell if direction == 0 else 2 * length - cell


def _cell(length: int, p: int) -> int:
    return p if p <= length else 2 * length - p


def _forward(route: str, length: int, c: int, d: int, n: int) -> tuple[int, int, int] | None:
    """Own-frame forward move of a stack at cell c with direction d by n: (kind, cell, dir)."""
    if route == "army":
        q = c + n
        return (ARRIVE, 0, 0) if q > length else (LAND, q, 0)
    if route == "ants":
        q = _progress(length, c, d) + n
        if q > 2 * length - 1:
            return (ARRIVE, 0, 0)
        return (LAND, _cell(length, q), 1 if q >= length else 0)
    if route == "return":
        if d == 0:
            q = c + n
            return (ARRIVE, 0, 0) if q > length else (LAND, q, 0)
        q = 2 * length - c + n
        return (ARRIVE, 0, 0) if q > 2 * length - 1 else (LAND, 2 * length - q, 1)
    # culin
    if d == 0:
        return (LAND, (c - 1 + n) % length + 1, 0)
    if c - n >= 1:
        return (LAND, c - n, 1)
    return (CULIN_ARRIVE, 1 + (n - c), 0)


def _backward(route: str, length: int, c: int, d: int, n: int) -> tuple[int, int, int] | None:
    """Own-frame scorpion move n cells back along the route; it always captures (§4, §11.3)."""
    if route == "culin":
        return None
    q = (c if route == "army" else _progress(length, c, d)) - n
    if q < 1:
        return None
    return (LAND, _cell(length, q), 0 if route == "army" else 1)
