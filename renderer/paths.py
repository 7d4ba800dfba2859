"""The way a move went along the road, for drawing its arrow (RULES.md §5).

A `MoveEffect` says where a move started and landed; the arrow must show the way it went between:
out to the end of the road and back (ants), past cell L to cell 1 (culin's wrap), past cell 1 and back
up (culin's arrival with captives), into a home (arrivals). `move_path` walks the route one cell at a
time and splits the walk into legs, each along the road in one direction. Stops are cell numbers, 0
for beyond cell 1 (A's end) and L + 1 for beyond cell L (B's end). `leg_points` lays a leg on a board:
along the lane its traffic uses, around the bends between rows. Pure: numbers in, numbers out.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from puluc import MoveEffect, Rules

from .layout import BEND, EDGE, INSET, Layout, Point, Row


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


# -- on the board -------------------------------------------------------------------------------------


def track_y(layout: Layout, row: Row, right: bool) -> int:
    """Height of the line a move's path follows in `row`'s lane for screen direction `right`."""
    inset = layout.u(INSET)
    return row.median[3] + inset if right else row.median[1] - inset


def station(layout: Layout, stop: int, up: bool) -> Point:
    """A point of a path: cell `stop`, or just beyond cell 1 (0) or cell L (L + 1), in lane `up`."""
    if 1 <= stop <= layout.road_length:
        row = layout.row_of(stop)
        return layout.cell_centre_x(stop), track_y(layout, row, row.rightward == up)
    row = layout.rows[0] if stop <= 0 else layout.rows[-1]
    start_side = stop <= 0
    # Row 0 starts at the left; the last row ends on the right when it runs rightward.
    left = row.rightward if start_side else not row.rightward
    x = layout.road_left - layout.u(EDGE) // 2 if left else layout.road_right + layout.u(EDGE) // 2
    return x, track_y(layout, row, row.rightward == up)


def _row_index(layout: Layout, stop: int) -> int:
    if stop <= 0:
        return 0
    if stop > layout.road_length:
        return len(layout.rows) - 1
    return layout.row_of(stop).index


def leg_points(layout: Layout, start: int, end: int, up: bool) -> list[Point]:
    """The polyline from stop `start` to stop `end` moving in direction `up`, around the bends."""
    points = [station(layout, start, up)]
    a, b = _row_index(layout, start), _row_index(layout, end)
    step = 1 if b > a else -1
    for r in range(a, b, step):
        here, there = layout.rows[r], layout.rows[r + step]
        upper = here if step == 1 else there
        # Bends sit at the end of the upper row: right of a rightward row, left of a leftward one.
        on_right = upper.rightward
        # The inner turn joins the upper row's bottom lane (rightward traffic) to the lower row's top lane.
        inner_turn = upper.rightward == up
        depth = 0.3 if inner_turn else 0.75
        x = layout.road_right + layout.u(BEND * depth) if on_right else layout.road_left - layout.u(BEND * depth)
        y_from = track_y(layout, here, here.rightward == up)
        y_to = track_y(layout, there, there.rightward == up)
        points += [(x, y_from), (x, y_to)]
    points.append(station(layout, end, up))
    return points
