"""The board image: `render_board(position) -> PNG bytes`, and `board_image` for callers that want pixels.

The static background (homes, header panel, road cells, cell numbers, fire) is drawn once per road length,
team size, theme, width and fire flag and cached; each render copies it and draws the position's stacks,
homes, header, last move and labels on top. Pure: engine objects in, bytes out; no I/O, no Discord.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from dataclasses import astuple
from functools import lru_cache

from PIL import Image, ImageDraw

from puluc import MoveEffect, Position, Stack, Throw

from . import pieces
from .fonts import load_font
from .layout import Layout, Point, badge_size, gate, layout_for, travels_right
from .panels import draw_header, draw_homes
from .sticks import as_throws
from .theme import SEAT_COLOURS, Theme, get_theme

LabelKey = int | str
HOME_KEYS = ("home-A", "home-B")
UNUSED_INDEX = 255
PNG_COMPRESS_LEVEL = 6  # palette PNG, L = 9: 3.4 ms and 11 KB at level 6 (RGB at level 3: 8.6 ms, 29 KB)


class BadOption(ValueError):
    """A render option that cannot be drawn (out-of-range advantage, unknown label target, ...)."""


# -- background ----------------------------------------------------------------------------------------


@lru_cache(maxsize=32)
def background(road_length: int, team_size: int, width: int | None, theme_name: str, fire: bool) -> Image.Image:
    """The static part of a board; cached, so callers must copy it before drawing."""
    layout = layout_for(road_length, team_size, width)
    theme = get_theme(theme_name)
    image = Image.new("RGB", (layout.width, layout.height), theme.background)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(layout.header, radius=10, fill=theme.panel)
    for box in (layout.home_a, layout.home_b):
        draw.rounded_rectangle(box, radius=10, fill=theme.panel)
    top, bottom = layout.top_lane[1], layout.bottom_lane[3]
    draw.rectangle((layout.road_left, top, layout.road_right - 1, bottom - 1), fill=theme.grid)
    fire_cell = (road_length + 1) // 2 if fire else None
    font = load_font(layout.number_size, bold=True)
    for cell in range(1, road_length + 1):
        x0, _, x1, _ = layout.cell_box(cell)
        colour = theme.cell if cell % 2 else theme.cell_alt
        if cell == fire_cell:
            colour = theme.fire
        for lane in (layout.top_lane, layout.bottom_lane):
            draw.rectangle((x0 + 1, lane[1] + 1, x1 - 1, lane[3] - 1), fill=colour)
        median = layout.median_box(cell)
        draw.rectangle((x0, median[1], x1 - 1, median[3] - 1), fill=theme.fire if cell == fire_cell else theme.median)
        number_colour = theme.fire_glow if cell == fire_cell else theme.muted
        draw.text(((x0 + x1) // 2, (median[1] + median[3]) // 2), str(cell), font=font, fill=number_colour, anchor="mm")
        if cell == fire_cell:
            for lane in (layout.top_lane, layout.bottom_lane):
                _flame(draw, (x0, lane[1], x1, lane[3]), theme)
    _lane_arrows(draw, layout, theme)
    return image


def _flame(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], theme: Theme) -> None:
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


def _lane_arrows(draw: ImageDraw.ImageDraw, layout: Layout, theme: Theme) -> None:
    """Faint chevrons at the outer edge of each lane: which way its traffic runs."""
    size = max(5, layout.piece // 6)
    colour = tuple((a * 3 + b) // 4 for a, b in zip(theme.cell_alt, theme.muted, strict=True))
    for lane, right in ((layout.top_lane, False), (layout.bottom_lane, True)):
        y = lane[3] - 2 - size if right else lane[1] + 2 + size
        for cell in range(1, layout.road_length + 1):
            cx = layout.cell_centre_x(cell)
            d = size if right else -size
            draw.line((cx - d // 2, y - size // 2, cx + d // 2, y, cx - d // 2, y + size // 2), fill=colour, width=2)


@lru_cache(maxsize=16)
def board_palette(road_length: int, team_size: int, width: int | None, theme_name: str, fire: bool) -> Image.Image:
    """The 256 colours a board is saved with: every theme and seat colour exactly, then the background's shades.

    Mapping the drawn RGB image onto this fixed palette costs about a millisecond and makes the PNG a third
    of the size and faster to compress; pieces keep their exact seat colours.
    """
    theme = get_theme(theme_name)
    exact: list[tuple[int, int, int]] = []
    for value in astuple(theme)[1:]:
        if value not in exact:
            exact.append(value)
    for colour in [*SEAT_COLOURS[theme.name].values(), (255, 255, 255), (17, 18, 20), (255, 221, 120), (255, 240, 200)]:
        if colour not in exact:
            exact.append(colour)
    bg = background(road_length, team_size, width, theme_name, fire)
    room = UNUSED_INDEX - len(exact)
    shades = bg.quantize(colors=room, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    extra = (shades.getpalette() or [])[: room * 3]
    flat = [c for colour in exact for c in colour] + extra
    flat += list(exact[0]) * ((768 - len(flat)) // 3)
    # Index 255 repeats the background colour; mapping picks the lower index, so 255 never appears in an
    # image and the replay can use it as the "unchanged since the last frame" transparent colour.
    palette = Image.new("P", (1, 1))
    palette.putpalette(flat)
    return palette


# -- stacks --------------------------------------------------------------------------------------------


def _draw_stack(image: Image.Image, layout: Layout, cell: int, stack: Stack, theme: Theme) -> None:
    right = travels_right(stack.team, stack.direction)
    number = layout.team_size > 1
    height = len(stack.pieces)
    visible = layout.visible_under(height)
    for depth in range(1, visible + 1):
        seat = stack.pieces[depth]
        sprite = pieces.slice_(seat, seat[0] != stack.team, layout.slice_width, layout.slice_height, theme.name, number)
        x, y = layout.slice_top(cell, right, depth, height)
        image.paste(sprite, (x, y), sprite)
    hidden = height - 1 - visible
    if hidden:
        x, y = layout.slice_top(cell, right, visible, height)
        edge = y + layout.slice_height + 2 if right else y - 2
        font = load_font(max(10, layout.slice_height + 2), bold=True)
        ImageDraw.Draw(image).text(
            (layout.cell_centre_x(cell), edge), f"+{hidden}", font=font, fill=theme.text, anchor="mt" if right else "mb"
        )
    sprite = pieces.head(stack.owner, right, layout.piece, layout.pointer, theme.name, number)
    hx, hy = layout.head_centre(cell, right)
    left = hx - layout.piece // 2 - (0 if right else layout.pointer)
    image.paste(sprite, (left, hy - layout.piece // 2), sprite)


# -- last move and labels ------------------------------------------------------------------------------


def _road_end_x(layout: Layout, team: str) -> int:
    """Where a piece enters from (or arrives at) `team`'s home: the road's edge on that side."""
    return layout.road_left - 2 if team == "A" else layout.road_right + 2


def _draw_last_move(image: Image.Image, layout: Layout, position: Position, effect: MoveEffect, theme: Theme) -> None:
    draw = ImageDraw.Draw(image)
    team = effect.seat[0]
    enemy = "B" if team == "A" else "A"
    colour = theme.capture if effect.captures else theme.last_move
    if effect.source is not None:
        x0, y0, x1, y1 = layout.cell_box(effect.source)
        _dashed_box(draw, (x0 + 1, y0 + 1, x1 - 2, y1 - 2), theme.last_move)
        start = layout.cell_centre_x(effect.source)
    else:
        start = _road_end_x(layout, team)
    if effect.dest is not None:
        x0, y0, x1, y1 = layout.cell_box(effect.dest)
        draw.rectangle((x0 + 1, y0 + 1, x1 - 2, y1 - 2), outline=colour, width=3)
        end = layout.cell_centre_x(effect.dest)
    else:
        # Army stacks arrive at the enemy's home; every other route brings them back to their own.
        end = _road_end_x(layout, enemy if position.rules.route == "army" else team)
    if end != start:
        rightward = end > start
        _, m0, _, m1 = layout.median
        y = m1 - 4 if rightward else m0 + 3
        _arrow(draw, (start, y), (end, y), theme.last_move, max(2, layout.number_size // 7))


def _dashed_box(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], colour: tuple[int, int, int]) -> None:
    x0, y0, x1, y1 = box
    dash = 6
    for x in range(x0, x1, dash * 2):
        draw.line((x, y0, min(x + dash, x1), y0), fill=colour, width=2)
        draw.line((x, y1, min(x + dash, x1), y1), fill=colour, width=2)
    for y in range(y0, y1, dash * 2):
        draw.line((x0, y, x0, min(y + dash, y1)), fill=colour, width=2)
        draw.line((x1, y, x1, min(y + dash, y1)), fill=colour, width=2)


def _arrow(draw: ImageDraw.ImageDraw, start: Point, end: Point, colour: tuple[int, int, int], width: int) -> None:
    head = width * 3 + 2
    sign = 1 if end[0] > start[0] else -1
    draw.line((start[0], start[1], end[0] - sign * head, end[1]), fill=colour, width=width)
    draw.polygon(
        [(end[0], end[1]), (end[0] - sign * head * 2, end[1] - head), (end[0] - sign * head * 2, end[1] + head)],
        fill=colour,
    )


def _mark(draw: ImageDraw.ImageDraw, layout: Layout, cell: int, kind: str, theme: Theme) -> None:
    """A round badge at the top corner of `cell`'s column: red cross for a capture, flame for a burn."""
    _x0, y0, x1, _ = layout.cell_box(cell)
    r = max(7, layout.piece // 5)
    cx, cy = x1 - r - 1, y0 + r + 1
    draw.ellipse(
        (cx - r, cy - r, cx + r, cy + r), fill=theme.capture if kind == "x" else theme.fire_glow, outline=theme.text
    )
    k = r // 2
    if kind == "x":
        draw.line((cx - k, cy - k, cx + k, cy + k), fill=(255, 255, 255), width=max(2, r // 4))
        draw.line((cx - k, cy + k, cx + k, cy - k), fill=(255, 255, 255), width=max(2, r // 4))
    else:
        draw.polygon([(cx, cy - k - 1), (cx + k, cy + k), (cx - k, cy + k)], fill=(255, 240, 200))


def check_labels(labels: Mapping[LabelKey, str], road_length: int) -> None:
    for key, text in labels.items():
        if isinstance(key, bool) or not (
            (isinstance(key, int) and 1 <= key <= road_length) or (isinstance(key, str) and key in HOME_KEYS)
        ):
            raise BadOption(f"label target {key!r} is not a cell 1..{road_length} or 'home-A'/'home-B'")
        if not isinstance(text, str) or not 1 <= len(text) <= 3:
            raise BadOption(f"label {text!r} for {key!r} must be 1 to 3 characters, like the move buttons")


def label_centre(layout: Layout, position: Position, key: LabelKey) -> Point:
    """Where the badge for a destination is drawn: in the free lane of the cell, or at the home's edge."""
    if isinstance(key, str):
        x0, y0, x1, y1 = gate(layout, key[-1])
        inner = badge_size(layout) // 2 + 8
        return (x1 - inner if key[-1] == "A" else x0 + inner), (y0 + y1) // 2
    stack = position.stack_at(key)
    # A stack there: the lane it does not use. An empty cell: the lane of the mover going out.
    right = not travels_right(stack.team, stack.direction) if stack is not None else position.team_to_move == "A"
    x = layout.cell_centre_x(key)
    _, y = layout.head_centre(key, right)
    return x, y


def _draw_labels(
    image: Image.Image, layout: Layout, position: Position, labels: Mapping[LabelKey, str], theme: Theme
) -> None:
    draw = ImageDraw.Draw(image)
    size = badge_size(layout)
    font = load_font(max(10, size * 3 // 5), bold=True)
    for key, text in labels.items():
        cx, cy = label_centre(layout, position, key)
        w = max(size, int(font.getlength(text)) + 10)
        box = (cx - w // 2, cy - size // 2, cx + w // 2, cy + size // 2)
        draw.rounded_rectangle(box, radius=size // 4, fill=theme.badge, outline=theme.badge_text, width=2)
        draw.text((cx, cy), text, font=font, fill=theme.badge_text, anchor="mm")


def _last_effect(position: Position, last_move: bool | MoveEffect) -> MoveEffect | None:
    if isinstance(last_move, MoveEffect):
        return last_move
    if not isinstance(last_move, bool):
        raise BadOption(f"last_move must be True, False or a MoveEffect, not {last_move!r}")
    return position.last_move if last_move else None


# -- the public functions ------------------------------------------------------------------------------


def board_image(
    position: Position,
    *,
    theme: str = "dark",
    last_move: bool | MoveEffect = True,
    labels: Mapping[LabelKey, str] | None = None,
    advantage: float | None = None,
    throw: Throw | Sequence[Throw] | None = None,
    width: int | None = None,
) -> Image.Image:
    """The board as an RGB Pillow image; `render_board` documents the options."""
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
        check_labels(labels, position.road_length)
    throws = as_throws(throw) if throw is not None else None
    layout = layout_for(position.road_length, rules.team_size, width)
    image = background(position.road_length, rules.team_size, width, t.name, rules.fire).copy()
    effect = _last_effect(position, last_move)
    if effect is not None:
        _draw_last_move(image, layout, position, effect, t)
    for cell, stack in position.stacks():
        _draw_stack(image, layout, cell, stack, t)
    if effect is not None and effect.dest is not None and (effect.captures or effect.burns):
        _mark(ImageDraw.Draw(image), layout, effect.dest, "x" if effect.captures and not effect.burns else "fire", t)
    draw_homes(image, layout, position, t)
    draw_header(image, layout, position, t, throws, advantage)
    if labels:
        _draw_labels(image, layout, position, labels, t)
    return image


def render_board(
    position: Position,
    *,
    theme: str = "dark",
    last_move: bool | MoveEffect = True,
    labels: Mapping[LabelKey, str] | None = None,
    advantage: float | None = None,
    throw: Throw | Sequence[Throw] | None = None,
    width: int | None = None,
) -> bytes:
    """The board of `position` as PNG bytes.

    theme: "dark" (default, for Discord's dark mode) or "light".
    last_move: mark the move that produced the position (source, destination, capture or burn); or the
        `MoveEffect` to mark, for a position reached by a throw after that move (throws forget the last move).
    labels: destination -> short button label, e.g. {8: "1", 3: "2", "home-A": "3"}; drawn as badges.
    advantage: team A's win probability (0..1) for the "who is ahead" bar; None draws no bar.
    throw: a Throw or the turn's throws, drawn as sticks in the header.
    width: image width in pixels (480..2400); default 1000-1400 by road length.
    """
    image = board_image(
        position, theme=theme, last_move=last_move, labels=labels, advantage=advantage, throw=throw, width=width
    )
    rules = position.rules
    palette = board_palette(position.road_length, rules.team_size, width, get_theme(theme).name, rules.fire)
    out = io.BytesIO()
    image.quantize(palette=palette, dither=Image.Dither.NONE).save(out, "PNG", compress_level=PNG_COMPRESS_LEVEL)
    return out.getvalue()


def piece_centre(position: Position, cell: int, depth: int = 0, *, width: int | None = None) -> Point:
    """A pixel showing the seat colour of the piece at `depth` (0 = top) of the stack on `cell`.

    For tests and tools: `render_board(position, width=width)` has that piece's seat colour there.
    Raises ValueError when the cell is empty, or the stack has no piece that deep, or is too tall to show it.
    """
    stack = position.stack_at(cell)
    if stack is None:
        raise ValueError(f"cell {cell} is empty")
    height = len(stack.pieces)
    if not 0 <= depth < height:
        raise ValueError(f"the stack on cell {cell} has {height} pieces; depth must be 0 to {height - 1}")
    layout = layout_for(position.road_length, position.rules.team_size, width)
    if depth > layout.visible_under(height):
        raise ValueError(f"piece {depth} of the stack on cell {cell} is summed up as '+n', not drawn")
    return layout.piece_point(cell, travels_right(stack.team, stack.direction), depth, height)
