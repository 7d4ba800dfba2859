"""What is drawn over the road besides the stacks: the last move, capture and burn marks, and move badges.

The last move: the cell it left framed with a dashed line, its path along the lanes as an arrow (out and
back, around the bends, off one end and on at the other for culin's wrap, into a home on arrival), and
the cell it landed on framed solid. A capture or burn adds a round mark in the landing cell's free lane,
away from every piece. Move badges carry the button numbers where each move would land: outlined long
hexagons, never filled with a seat colour, so they cannot be taken for pieces (discs and rounded
squares). A capture's badge is outlined in the capture colour; a move that burns its own stack gets the
fire's colour and a flame in its corner.
"""

from __future__ import annotations

from collections.abc import Mapping

from puluc import MoveEffect, Position, Rules

from .fonts import text_width
from .layout import Box, Layout, Point, badge_size, up_road
from .paths import leg_points, move_path
from .scene import Recorder
from .theme import RGB, Theme

LabelKey = int | str
HOME_KEYS = ("home-A", "home-B")


class BadLabel(ValueError):
    """A move badge that cannot be drawn: an unknown destination or a label that is not 1 to 3 characters."""


# -- the last move -------------------------------------------------------------------------------------


def draw_last_move(draw: Recorder, layout: Layout, position: Position, effect: MoveEffect, theme: Theme) -> None:
    """Frame the source and the landing cell, and draw the move's path as an arrow."""
    width = max(2, layout.u(1.6))
    colour = theme.last_move
    if effect.source is not None:
        _dashed_box(draw, _inset(layout.cell_box(effect.source), 1), colour, width, layout.u(4))
    if effect.dest is not None:
        ring = theme.capture if effect.captures else colour
        draw.rectangle(_inset(layout.cell_box(effect.dest), 1), outline=ring, width=width + 1)
    path = move_path(position.rules, effect)
    previous: Point | None = None
    for index, leg in enumerate(path.legs):
        points = leg_points(layout, leg.start, leg.end, leg.up)
        if previous is not None and not leg.jump:
            draw.line([previous, points[0]], fill=colour, width=width)
        if leg.jump:
            # Culin's wrap: the arrow leaves one end of the road and comes back on at the other.
            r = width + 1
            x, y = points[0]
            draw.ellipse((x - r, y - r, x + r, y + r), fill=colour)
        last = index == len(path.legs) - 1
        _polyline_arrow(draw, points, colour, width, head=last or path.legs[index + 1].jump)
        previous = points[-1]
    if path.home is not None:
        gate = layout.gate(path.home)
        draw.rounded_rectangle(_inset(gate, 1), radius=layout.u(4), outline=colour, width=width + 1)


def _inset(box: Box, by: int) -> Box:
    return (box[0] + by, box[1] + by, box[2] - by - 1, box[3] - by - 1)


def _dashed_box(draw: Recorder, box: Box, colour: RGB, width: int, dash: int) -> None:
    x0, y0, x1, y1 = box
    for x in range(x0, x1, dash * 2):
        draw.line((x, y0, min(x + dash, x1), y0), fill=colour, width=width)
        draw.line((x, y1, min(x + dash, x1), y1), fill=colour, width=width)
    for y in range(y0, y1, dash * 2):
        draw.line((x0, y, x0, min(y + dash, y1)), fill=colour, width=width)
        draw.line((x1, y, x1, min(y + dash, y1)), fill=colour, width=width)


def _polyline_arrow(draw: Recorder, points: list[Point], colour: RGB, width: int, head: bool) -> None:
    clean = [p for i, p in enumerate(points) if i == 0 or p != points[i - 1]]
    if len(clean) < 2:
        return
    size = width * 3 + 2
    (ax, ay), (bx, by) = clean[-2], clean[-1]
    length = max(1.0, ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5)
    dx, dy = (bx - ax) / length, (by - ay) / length
    if head and length > size:
        # Stop the line short of the tip so the arrowhead stays sharp.
        clean[-1] = (round(bx - dx * size), round(by - dy * size))
    draw.line(clean, fill=colour, width=width, joint="curve")
    if head:
        tip = (bx, by)
        back = (bx - dx * size * 2, by - dy * size * 2)
        draw.polygon(
            [tip, (back[0] - dy * size, back[1] + dx * size), (back[0] + dy * size, back[1] - dx * size)], fill=colour
        )


def free_lane(position: Position, layout: Layout, cell: int) -> bool:
    """The direction whose lane is free on `cell`: the one its stack does not use (up the road if empty)."""
    stack = position.stack_at(cell)
    if stack is None:
        return True
    return not up_road(stack.team, stack.direction)


def draw_event_mark(draw: Recorder, layout: Layout, position: Position, effect: MoveEffect, theme: Theme) -> None:
    """A round mark for a capture (white cross on the capture colour) or a burn (flame) on the landing cell.

    It sits at the outer end of the cell's free lane, where no piece of the stack there is drawn.
    """
    if effect.dest is None or not (effect.captures or effect.burns):
        return
    cell = effect.dest
    up = free_lane(position, layout, cell)
    x0, y0, x1, y1 = layout.lane(cell, up)
    r = max(4, layout.u(5))
    cx = (x0 + x1) // 2
    outer_top = layout.row_of(cell).rightward != up  # the top lane's outer end is its top
    cy = y0 + r + layout.u(2) if outer_top else y1 - r - layout.u(2)
    burn = effect.burns
    with draw.group(event="burn" if burn else "capture", cell=cell):
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=theme.fire_glow if burn else theme.capture,
                     outline=theme.text)
        _sign(draw, (cx, cy), r, "burn" if burn else "capture")


def _sign(draw: Recorder, centre: Point, r: int, kind: str) -> None:
    cx, cy = centre
    k = r // 2
    if kind == "capture":
        w = max(2, r // 3)
        draw.line((cx - k, cy - k, cx + k, cy + k), fill=(255, 255, 255), width=w)
        draw.line((cx - k, cy + k, cx + k, cy - k), fill=(255, 255, 255), width=w)
    else:
        draw.polygon([(cx, cy - k - 1), (cx + k, cy + k), (cx - k, cy + k)], fill=(255, 240, 200))


# -- move badges ---------------------------------------------------------------------------------------


def check_labels(labels: Mapping[LabelKey, str], road_length: int) -> None:
    for key, text in labels.items():
        if isinstance(key, bool) or not (
            (isinstance(key, int) and 1 <= key <= road_length) or (isinstance(key, str) and key in HOME_KEYS)
        ):
            raise BadLabel(f"label target {key!r} is not a cell 1..{road_length} or 'home-A'/'home-B'")
        if not isinstance(text, str) or not 1 <= len(text) <= 3:
            raise BadLabel(f"label {text!r} for {key!r} must be 1 to 3 characters, like the move buttons")


def label_target(rules: Rules, effect: MoveEffect) -> LabelKey:
    """Where a move's badge goes: the cell it lands on, or for an arrival the gate of the home it enters."""
    if effect.dest is not None:
        return effect.dest
    home = move_path(rules, effect).home
    return f"home-{home or effect.seat[0]}"


def _landing_lanes(position: Position) -> dict[int, bool]:
    """For each cell a legal move lands on, the direction the landed stack travels (its lane)."""
    lanes: dict[int, bool] = {}
    for move in position.legal_moves():
        effect = position.move_effect(move)
        if effect.dest is None or effect.dest in lanes:
            continue
        landed = position.play(move).stack_at(effect.dest)
        lanes[effect.dest] = up_road(landed.team, landed.direction) if landed else position.team_to_move == "A"
    return lanes


def label_centre(layout: Layout, position: Position, key: LabelKey, lanes: Mapping[int, bool] | None = None) -> Point:
    """Where the badge for a destination is drawn: where the moved stack's top piece will sit if that spot is
    free, else in the free lane of the cell (a capture); an arrival's at its home's gate."""
    if isinstance(key, str):
        x0, y0, x1, y1 = layout.gate(key[-1])
        return (x0 + x1) // 2, (y0 + y1) // 2
    if position.stack_at(key) is not None:
        up = free_lane(position, layout, key)
    elif lanes is not None and key in lanes:
        up = lanes[key]
    else:
        up = position.team_to_move == "A"
    return layout.free_spot(key, up)


def _move_kinds(position: Position) -> dict[int, str]:
    """What landing on each destination does for the player to move: "burn", "capture" or "move"."""
    kinds: dict[int, str] = {}
    for move in position.legal_moves():
        effect = position.move_effect(move)
        if effect.dest is None:
            continue
        kind = "burn" if effect.burns else "capture" if effect.captures else "move"
        if kinds.get(effect.dest) != "burn":
            kinds[effect.dest] = kind
    return kinds


def _notations(position: Position) -> dict[LabelKey, list[str]]:
    """The legal moves (in move notation) by where their badge goes."""
    found: dict[LabelKey, list[str]] = {}
    for move in position.legal_moves():
        found.setdefault(label_target(position.rules, position.move_effect(move)), []).append(str(move))
    return found


def draw_labels(
    draw: Recorder, layout: Layout, position: Position, labels: Mapping[LabelKey, str], theme: Theme
) -> None:
    size = badge_size(layout)
    lanes = _landing_lanes(position)
    kinds = _move_kinds(position)
    moves = _notations(position) if draw.named else {}
    line = max(2, layout.u(1.6))
    for key, text in labels.items():
        cx, cy = label_centre(layout, position, key, lanes)
        kind = kinds.get(key, "move") if isinstance(key, int) else "move"
        point = size // 3
        w = max(size, int(text_width(text, layout.text_size)) + 2 * point + layout.u(2))
        box = (cx - w // 2, cy - size // 2, cx - w // 2 + w, cy - size // 2 + size)
        outline = {"burn": theme.fire_glow, "capture": theme.capture}.get(kind, theme.text)
        fill = theme.panel if isinstance(key, str) else surface(key, position.rules.fire_cell, theme)
        with draw.group(move=" ".join(moves.get(key, ())), label=text, target=key, move_kind=kind):
            draw.polygon(_lozenge(box, point), fill=fill, outline=outline, width=line)
            draw.text((cx, cy), text, layout.text_size, theme.text, "mm")
            if kind == "burn":
                r = max(4, layout.u(4))
                corner = (box[2] - layout.u(1), box[1] + layout.u(1))
                draw.ellipse((corner[0] - r, corner[1] - r, corner[0] + r, corner[1] + r), fill=outline,
                             outline=theme.text)
                _sign(draw, corner, r, kind)


def _lozenge(box: Box, point: int) -> list[Point]:
    """A badge's outline: a long hexagon, pointed at both ends, a shape no piece has."""
    x0, y0, x1, y1 = box
    cy = (y0 + y1) // 2
    return [(x0, cy), (x0 + point, y0), (x1 - point, y0), (x1, cy), (x1 - point, y1), (x0 + point, y1)]


def surface(cell: int, fire_cell: int | None, theme: Theme) -> RGB:
    """The lane colour of `cell` (the background draws it), so an outlined badge looks hollow on it."""
    if cell == fire_cell:
        return theme.fire
    return theme.cell if cell % 2 else theme.cell_alt
