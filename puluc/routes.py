"""Precomputed route tables: where a stack lands for every cell, direction and throw (RULES.md §5).

The position code looks moves up here instead of doing route arithmetic per move; this is what makes
random playouts fast enough for the AI. Cells here are 0-based absolute indices (cell 1 is index 0);
directions are 0 for `+` (outbound) and 1 for `-` (inbound). Pure arithmetic, no game state.
"""

from __future__ import annotations

from functools import lru_cache

from .rules import Rules

LAND = 0  #: the stack lands on (dest, dir)
ARRIVE = 1  #: the stack reaches its route's end and leaves the road
CULIN_ARRIVE = 2  #: culin: the crossing resolves an arrival, then the top piece lands on (dest, dir)

#: (kind, dest index, direction) or None when the move is impossible
Step = tuple[int, int, int] | None


class RouteTables:
    """Every move's destination for one set of rules, indexed [team][dir][cell index][throw]."""

    __slots__ = (
        "army",
        "back",
        "capture_dir",
        "eagle",
        "eagle_returns",
        "enter",
        "fire",
        "fwd",
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
        self.capture_dir = 0 if self.army else 1
        self.eagle = rules.capture == "eagle"
        self.eagle_returns = rules.eagle_returns
        self.scorpion = rules.scorpion
        self.one_active = rules.one_active
        self.throws_per_turn = rules.throws_per_turn
        self.throw_values = frozenset(rules.throw_values)
        self.fire = (length - 1) // 2 if rules.fire else -1
        route = rules.route
        self.enter = tuple(
            tuple(_to_abs(team, length, *_enter(route, length, n)) if n else None for n in range(6)) for team in (0, 1)
        )
        self.fwd = tuple(
            tuple(
                tuple(
                    tuple(
                        _step_abs(team, length, _forward(route, length, _own(team, length, idx), d, n)) if n else None
                        for n in range(6)
                    )
                    for idx in range(length)
                )
                for d in (0, 1)
            )
            for team in (0, 1)
        )
        self.back = tuple(
            tuple(
                tuple(
                    tuple(
                        _step_abs(team, length, _backward(route, length, _own(team, length, idx), d, n))
                        if n and rules.scorpion
                        else None
                        for n in range(6)
                    )
                    for idx in range(length)
                )
                for d in (0, 1)
            )
            for team in (0, 1)
        )


@lru_cache(maxsize=256)
def tables_for(rules: Rules) -> RouteTables:
    return RouteTables(rules)


def _own(team: int, length: int, idx: int) -> int:
    """0-based absolute index -> 1-based own-frame cell."""
    return idx + 1 if team == 0 else length - idx


def _to_abs(team: int, length: int, cell: int, direction: int) -> tuple[int, int]:
    """1-based own-frame cell -> (0-based absolute index, direction)."""
    return (cell - 1 if team == 0 else length - cell), direction


def _step_abs(team: int, length: int, step: tuple[int, int, int] | None) -> Step:
    if step is None:
        return None
    kind, cell, direction = step
    if kind == ARRIVE:
        return (ARRIVE, -1, 0)
    idx, direction = _to_abs(team, length, cell, direction)
    return (kind, idx, direction)


def _enter(route: str, length: int, n: int) -> tuple[int, int]:
    if route == "ants":
        return n, (1 if n >= length else 0)
    return n, 0


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
