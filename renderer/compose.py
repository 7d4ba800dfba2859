"""One layout, as a scene: where everything on a board goes and what it looks like, for both painters.

`board_scene(position, ...)` checks the options and records the board as plain data (`scene.Scene`): the
static part (panels, gates, the folded road with its cells, bends, cell numbers and fire; cached per road
length, team size, theme, width and fire flag) and what the position adds on top, in drawing order: the last
move, the stacks with their size labels, a capture or burn mark, the homes, the header, move badges and a
caption. `png.py` paints it into the board PNG, `svg.py` writes it as SVG. Groups name what they show for the
SVG's `data-` attributes: `cell`, `stack` (with its `seats` top first), `piece`, `home`, `entry`, `move`
(the moves' notation), `header`, `advantage`. Pure: engine objects in, data out.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from functools import lru_cache

from puluc import MoveEffect, Position, Stack, Throw

from .fonts import text_width
from .layout import BEND, Layout, layout_for, up_road
from .marks import BadLabel, LabelKey, check_labels, draw_event_mark, draw_labels, draw_last_move
from .panels import Ended, draw_caption, draw_frames, draw_header, draw_homes, score_words, turn_line
from .scene import NO_GROUP, Recorder, Scene, Shape
from .sticks import as_throws
from .texts import resolve
from .theme import RGB, Theme, get_theme


class BadOption(ValueError):
    """A render option that cannot be drawn (out-of-range advantage, unknown label target, ...)."""


# -- the static part -----------------------------------------------------------------------------------


@lru_cache(maxsize=32)
def static_shapes(
    road_length: int, team_size: int, width: int | None, theme_name: str, fire: bool, caption: bool = False
) -> tuple[Shape, ...]:
    """The static part of a board as shapes: panels, gates, the folded road with its cells, bends, cell numbers,
    lane arrows and fire. The same for every position with these numbers, so cached."""
    layout = layout_for(road_length, team_size, width, caption)
    theme = get_theme(theme_name)
    draw = Recorder()
    draw_frames(draw, layout, theme)
    _bends(draw, layout, theme)
    fire_cell = (road_length + 1) // 2 if fire else None
    for row in layout.rows:
        draw.rectangle((row.top_lane[0], row.top_lane[1], row.bottom_lane[2] - 1, row.bottom_lane[3] - 1),
                       fill=theme.grid)
        draw.rectangle((row.median[0], row.median[1], row.median[2] - 1, row.median[3] - 1), fill=theme.median)
    for cell in range(1, road_length + 1):
        with draw.group(cell=cell, burning="true" if cell == fire_cell else None):
            _cell(draw, layout, cell, cell == fire_cell, theme)
    _lane_arrows(draw, layout, theme)
    return draw.shapes()


def _cell(draw: Recorder, layout: Layout, cell: int, burning: bool, theme: Theme) -> None:
    row = layout.row_of(cell)
    x0, x1 = layout.cell_x(cell)
    colour = theme.fire if burning else theme.cell if cell % 2 else theme.cell_alt
    for lane in (row.top_lane, row.bottom_lane):
        # Traffic keeps right: the bottom lane runs the way the row does (`Layout.lane`).
        with draw.group(lane="up" if (lane is row.bottom_lane) == row.rightward else "down"):
            draw.rectangle((x0 + 1, lane[1] + 1, x1 - 1, lane[3] - 1), fill=colour)
    median = layout.median_box(cell)
    if burning:
        draw.rectangle((x0, median[1], x1 - 1, median[3] - 1), fill=theme.fire)
    number = theme.fire_glow if burning else theme.muted
    draw.text(((x0 + x1) // 2, (median[1] + median[3]) // 2), str(cell), layout.text_size, number, "mm")
    if burning:
        for lane in (row.top_lane, row.bottom_lane):
            _flame(draw, (x0, lane[1], x1, lane[3]), theme)


def _bends(draw: Recorder, layout: Layout, theme: Theme) -> None:
    """The road turning from one row into the next: a band in the median's colour joining their medians,
    with a faint arrow for each lane's turn (inside the band: down; outside it: up)."""
    thick = max(2, layout.u(3))
    faint = _blend(theme.cell, theme.muted, 1)
    width = max(1, layout.u(1))
    for upper, lower in itertools.pairwise(layout.rows):
        right = upper.rightward
        edge = layout.road_right if right else layout.road_left
        sign = 1 if right else -1
        x_mid = edge + sign * layout.u(BEND * 0.52)
        y0 = (upper.median[1] + upper.median[3]) // 2
        y1 = (lower.median[1] + lower.median[3]) // 2
        xa, xb = sorted((edge, x_mid))
        draw.rectangle((xa, y0 - thick // 2, xb, y0 + thick // 2), fill=theme.median)
        draw.rectangle((xa, y1 - thick // 2, xb, y1 + thick // 2), fill=theme.median)
        draw.rectangle((x_mid - thick // 2, y0 - thick // 2, x_mid + thick // 2, y1 + thick // 2), fill=theme.median)
        # The lanes' turns, where a move's path runs (`Layout.leg`): the inner one goes down to the next row.
        for depth, down in ((0.3, True), (0.75, False)):
            x = edge + sign * layout.u(BEND * depth)
            lane_from = upper.bottom_lane if down else lower.bottom_lane
            lane_to = lower.top_lane if down else upper.top_lane
            ya = (lane_from[1] + lane_from[3]) // 2
            yb = (lane_to[1] + lane_to[3]) // 2
            tip = (ya + yb) // 2 + (1 if down else -1) * layout.u(3)
            d = layout.u(2) * (1 if down else -1)
            draw.line((x - layout.u(2), tip - d, x, tip, x + layout.u(2), tip - d), fill=faint, width=width)


def _blend(first: RGB, second: RGB, weight: int) -> RGB:
    """`weight` parts of `first` to one of `second`."""
    r, g, b = ((a * weight + c) // (weight + 1) for a, c in zip(first, second, strict=True))
    return (r, g, b)


def _flame(draw: Recorder, box: tuple[int, int, int, int], theme: Theme) -> None:
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    w = (x1 - x0) * 2 // 5
    h = min(y1 - y0 - 8, w * 2)
    outer = [
        (cx, cy - h // 2),
        (cx + w // 2, cy + h // 6),
        (cx + w // 3, cy + h // 2),
        (cx - w // 3, cy + h // 2),
        (cx - w // 2, cy + h // 6),
    ]
    draw.polygon(outer, fill=theme.fire_glow)
    inner = [(cx, cy - h // 8), (cx + w // 4, cy + h // 4), (cx, cy + h // 2 - 2), (cx - w // 4, cy + h // 4)]
    draw.polygon(inner, fill=(255, 221, 120))


def _lane_arrows(draw: Recorder, layout: Layout, theme: Theme) -> None:
    """Faint chevrons at the outer edge of each lane: which way its traffic runs."""
    size = max(3, layout.u(2.5))
    colour = _blend(theme.cell_alt, theme.muted, 3)
    width = max(1, layout.u(0.8))
    for row in layout.rows:
        for lane, right in ((row.top_lane, False), (row.bottom_lane, True)):
            y = lane[3] - layout.u(2) - size if right else lane[1] + layout.u(2) + size
            for cell in range(row.first, row.last + 1):
                cx = layout.cell_centre_x(cell)
                d = size if right else -size
                draw.line((cx - d // 2, y - size // 2, cx + d // 2, y, cx - d // 2, y + size // 2), fill=colour,
                          width=width)


# -- stacks --------------------------------------------------------------------------------------------


def _draw_stack(draw: Recorder, layout: Layout, cell: int, stack: Stack, theme: Theme) -> None:
    up = up_road(stack.team, stack.direction)
    height = len(stack.pieces)
    tower = layout.tower(cell, up, height)
    named = draw.named
    stack_group = draw.group(
        stack=cell,
        team=stack.team,
        owner=stack.owner,
        seats=" ".join(stack.pieces),
        direction="up" if up else "down",
        height=height,
        captives=len(stack.captives),
    ) if named else NO_GROUP
    with stack_group:
        for depth, (x, y) in enumerate(tower.slices, start=1):
            seat = stack.pieces[depth]
            captive = seat[0] != stack.team
            with draw.group(piece=seat, depth=depth, captive="true" if captive else "false") if named else NO_GROUP:
                draw.sprite(
                    "slice_",
                    (seat, captive, layout.slice_width, layout.slice_height, theme.name),
                    (x, y),
                    (layout.slice_width, layout.slice_height),
                )
        digit = layout.text_size if layout.team_size > 1 else 0
        hx, hy = tower.head
        left = hx - layout.piece // 2 - (0 if tower.right else layout.pointer)
        with draw.group(piece=stack.owner, depth=0) if named else NO_GROUP:
            draw.sprite(
                "head",
                (stack.owner, tower.right, layout.piece, layout.pointer, theme.name, digit),
                (left, hy - layout.piece // 2),
                (layout.piece + layout.pointer, layout.piece),
            )
        if tower.label is not None:
            _size_label(draw, layout, tower.label, height, len(stack.captives), theme)


def _size_label(
    draw: Recorder,
    layout: Layout,
    box: tuple[int, int, int, int],
    height: int,
    captives: int,
    theme: Theme,
) -> None:
    """The stack's size, then a striped tag and the number of captives it holds (when it holds any)."""
    x0, y0, x1, y1 = box
    size_text = str(height)
    gap = layout.u(2.5)
    tag_w = max(6, layout.u(10))
    size = layout.text_size
    parts = int(text_width(size_text, size))
    if captives:
        parts += gap + tag_w + layout.u(1.5) + int(text_width(str(captives), size))
    pad = layout.u(1.5)
    cx = (x0 + x1) // 2
    left = cx - parts // 2
    draw.rounded_rectangle((left - pad, y0, left + parts + pad, y1), radius=layout.u(3), fill=theme.panel)
    cy = (y0 + y1) // 2
    draw.text((left, cy), size_text, size, theme.text, "lm")
    if captives:
        x = left + int(text_width(size_text, size)) + gap
        tag_h = max(3, layout.u(5))
        draw.sprite("captive_tag", (tag_w, tag_h, theme.name), (x, cy - tag_h // 2), (tag_w, tag_h))
        x += tag_w + layout.u(1.5)
        draw.text((x, cy), str(captives), size, theme.text, "lm")


def _last_effect(position: Position, last_move: bool | MoveEffect) -> MoveEffect | None:
    if isinstance(last_move, MoveEffect):
        return last_move
    if not isinstance(last_move, bool):
        raise BadOption(f"last_move must be True, False or a MoveEffect, not {last_move!r}")
    return position.last_move if last_move else None


def _check_names(names: Mapping[str, str] | None, position: Position) -> dict[str, str]:
    if names is None:
        return {}
    if not isinstance(names, Mapping):
        raise BadOption(f"names must map seats to player names, not {type(names).__name__}")
    seats = set(position.rules.seats)
    for seat, name in names.items():
        if seat not in seats:
            raise BadOption(f"names: {seat!r} is not a seat of this game ({', '.join(position.rules.seats)})")
        if not isinstance(name, str):
            raise BadOption(f"names: the name of {seat} must be a string, not {type(name).__name__}")
    return {seat: " ".join(name.split()) for seat, name in names.items()}


# -- the scene -----------------------------------------------------------------------------------------


def board_scene(
    position: Position,
    *,
    theme: str = "dark",
    last_move: bool | MoveEffect = True,
    labels: Mapping[LabelKey, str] | None = None,
    advantage: float | None = None,
    throw: Throw | Sequence[Throw] | None = None,
    width: int | None = None,
    names: Mapping[str, str] | None = None,
    texts: Mapping[str, str] | None = None,
    caption: str | None = None,
    description: str | None = None,
    named: bool = True,
    ended: Ended | None = None,
) -> Scene:
    """The board of `position` as a scene; `board.render_board` documents the options.

    description: the text a screen reader gives the SVG (`<desc>`); None: the header's words (whose turn,
        the score and the leader's chance).
    named: group the shapes by what they show (for the SVG); False leaves the groups out (the PNG needs none).
    ended: how a game that ended off the board ended (`panels.Ended`), for the header.
    """
    if not isinstance(position, Position):
        raise BadOption(f"expected a puluc Position, not {type(position).__name__}")
    t = get_theme(theme)
    rules = position.rules
    if advantage is not None and (
        isinstance(advantage, bool)
        or not isinstance(advantage, int | float)
        or not 0.0 <= advantage <= 1.0
        or math.isnan(advantage)
    ):
        raise BadOption(f"advantage must be team A's win probability from 0 to 1, not {advantage!r}")
    if labels:
        try:
            check_labels(labels, position.road_length)
        except BadLabel as exc:
            raise BadOption(str(exc)) from None
    if caption is not None and not isinstance(caption, str):
        raise BadOption(f"caption must be a string, not {type(caption).__name__}")
    if description is not None and not isinstance(description, str):
        raise BadOption(f"description must be a string, not {type(description).__name__}")
    if ended is not None and not isinstance(ended, Ended):
        raise BadOption(f"ended must be a renderer.Ended, not {type(ended).__name__}")
    words = resolve(texts)
    seat_names = _check_names(names, position)
    throws = as_throws(throw) if throw is not None else None
    framed = caption is not None
    layout = layout_for(position.road_length, rules.team_size, width, framed)
    draw = Recorder(named=named)
    effect = _last_effect(position, last_move)
    if effect is not None:
        with draw.group(last_move=str(effect.move), seat=effect.seat):
            draw_last_move(draw, layout, position, effect, t)
    for cell, stack in position.stacks():
        _draw_stack(draw, layout, cell, stack, t)
    if effect is not None:
        draw_event_mark(draw, layout, position, effect, t)
    draw_homes(draw, layout, position, t, ended)
    draw_header(draw, layout, position, t, throws, advantage, seat_names, words, ended)
    if labels:
        draw_labels(draw, layout, position, labels, t)
    if caption is not None:
        with draw.group(caption=""):
            draw_caption(draw, layout, t, caption)
    title = turn_line(position, seat_names, words, ended=ended) if named else ""
    if description is None and named:
        parts = (title, score_words(position, advantage, words), caption)
        description = " ".join(p if p.endswith((".", "!", "?", "…")) else p + "." for p in parts if p)
    key = (position.road_length, rules.team_size, width, t.name, rules.fire, framed)
    return Scene(
        width=layout.width,
        height=layout.height,
        background=t.background,
        static=static_shapes(*key),
        items=draw.shapes(),
        title=title,
        description=description or "",
        static_key=key,
    )
