"""The way a move went along the road, for drawing its arrow (RULES.md §5).

A `MoveEffect` says where a move started and landed; the arrow must show the way it went between:
out to the end of the road and back (ants), past cell L to cell 1 (culin's wrap), past cell 1 and back
up (culin's arrival with captives), into a home (arrivals). `move_path` walks the route one cell at a
time and splits the walk into legs, each along the road in one direction. Stops are cell numbers, 0
for beyond cell 1 (A's end) and L + 1 for beyond cell L (B's end). Pure: rules and effects in, numbers out.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from puluc import MoveEffect, Rules


@dataclass(frozen=True, slots=True)
class Leg:
    """A stretch of a path: from stop `start` to stop `end`, up the road (toward cell L) or down it.

    `jump` marks a leg that starts where the road wraps (culin: beyond cell L back to before cell 1),
    so the drawing leaves a gap before it instead of a turn.
    """

    start: int
    end: int
    up: bool
    jump: bool = False


@dataclass(frozen=True, slots=True)
class Path:
    legs: tuple[Leg, ...]
    home: str | None  # the team whose home the move ended in (an arrival), else None


def _own_walk(route: str, length: int, cell: int, direction: int, throw: int, backward: bool) -> list[int] | None:
    """Own-frame stops after each step of a move from own-frame `cell` (0: entering) with `direction`.

    0 stands for the own home end, length + 1 for the far end; None when this direction cannot be the
    stack's (the walk would not follow the rules from it).
    """
    stops: list[int] = []
    if cell == 0:
        return list(range(1, throw + 1))
    if backward:
        progress = cell if route == "army" or direction == 0 else 2 * length - cell
        for q in range(progress - 1, progress - throw - 1, -1):
            stops.append(q if q <= length else 2 * length - q)
        return stops
    if route == "army" or (route == "return" and direction == 0):
        for q in range(cell + 1, cell + throw + 1):
            if q > length:
                stops.append(length + 1)
                break
            stops.append(q)
        return stops
    if route in ("ants", "return"):
        progress = cell if direction == 0 else 2 * length - cell
        for q in range(progress + 1, progress + throw + 1):
            if q > 2 * length - 1:
                stops.append(0)
                break
            stops.append(q if q <= length else 2 * length - q)
        return stops
    # culin
    if direction == 0:
        for k in range(1, throw + 1):
            stops.append((cell - 1 + k) % length + 1)
        return stops
    for q in range(cell - 1, cell - throw - 1, -1):
        stops.append(q if q >= 1 else 0)
        if q < 1:
            # The crossing resolves the arrival; the top piece walks on up from cell 1.
            stops += list(range(1, throw - cell + 2))
            break
    return stops


def _absolute(stop: int, team: str, length: int) -> int:
    return stop if team == "A" else length + 1 - stop


def _lands_as(effect: MoveEffect, stops: list[int], team: str, length: int) -> bool:
    last = _absolute(stops[-1], team, length) if stops else None
    if effect.dest is None:
        return last in (0, length + 1)
    return last == effect.dest


def move_path(rules: Rules, effect: MoveEffect) -> Path:
    """The legs of `effect`'s move along the road, from its source (or home) to where it ended."""
    length = rules.road_length
    team = effect.seat[0]
    throw = effect.move.throw
    backward = effect.move.backward
    own_source = 0 if effect.source is None else _absolute(effect.source, team, length)
    walk: list[int] | None = None
    for direction in (0, 1):
        candidate = _own_walk(rules.route, length, own_source, direction, throw, backward)
        if candidate and _lands_as(effect, candidate, team, length):
            walk = candidate
            break
    if walk is None:
        # Not a walk these rules make (a hand-built effect): draw it straight.
        end = effect.dest if effect.dest is not None else (length + 1 if team == "A" else 0)
        start = effect.source if effect.source is not None else (0 if team == "A" else length + 1)
        return Path((Leg(start, end, end > start),), None)
    stops = [_absolute(own_source, team, length)] + [_absolute(s, team, length) for s in walk]
    legs = _legs(stops, length, wraps=rules.route == "culin" and not backward)
    home = None
    if effect.dest is None:
        # Stacks leave the road at the end they ran off, except on the return route, where a lone piece
        # running off the far end is sent straight to its own home.
        home = team if rules.route == "return" else ("A" if stops[-1] == 0 else "B")
    return Path(tuple(legs), home)


def _legs(stops: list[int], length: int, wraps: bool) -> list[Leg]:
    """Split absolute stops into legs where the direction turns or the road wraps."""
    legs: list[Leg] = []
    start = stops[0]
    up: bool | None = None
    jump = False
    for previous, stop in itertools.pairwise(stops):
        if wraps and length > 1 and abs(stop - previous) == length - 1:
            # Culin's wrap (cell L to cell 1 for A): off one end of the road, on again at the other.
            going_up = stop < previous
            legs.append(Leg(start, length + 1 if going_up else 0, going_up, jump))
            start, up, jump = (0 if going_up else length + 1), going_up, True
            previous = start
        step_up = stop > previous
        if up is None:
            up = step_up
        elif step_up != up:
            legs.append(Leg(start, previous, up, jump))
            start, up, jump = previous, step_up, False
    legs.append(Leg(start, stops[-1], bool(up), jump))
    return legs
