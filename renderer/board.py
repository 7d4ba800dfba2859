"""The board image: `render_board(position) -> PNG bytes`, and `board_image` for callers that want pixels.

The static background (panels, the folded road with its cells, bends, cell numbers and fire) is drawn
once per road length, team size, theme, width and fire flag and cached; each render copies it and draws
the last move, the stacks with their size labels, the homes, the header, move badges and a caption on
top. Pure: engine objects in, bytes out; no I/O, no Discord.
"""

from __future__ import annotations

import io
import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import astuple
from functools import lru_cache

from PIL import Image, ImageDraw

from puluc import MoveEffect, Position, Stack, Throw

from . import pieces
from .fonts import Font, load_font, put_text, text_width
from .layout import BEND, BadWidth, Layout, Point, layout_for, up_road
from .marks import HOME_KEYS, BadLabel, LabelKey, check_labels, draw_event_mark, draw_labels, draw_last_move
from .panels import draw_caption, draw_frames, draw_header, draw_homes
from .sticks import as_throws
from .texts import resolve
from .theme import SEAT_COLOURS, Theme, get_theme

UNUSED_INDEX = 255
PNG_COMPRESS_LEVEL = 2  # palette PNG, 8 v 8 on 800 px: 3 ms and 25 KB (level 6: 6 ms and 19 KB)


class BadOption(ValueError):
    """A render option that cannot be drawn (out-of-range advantage, unknown label target, ...)."""


# -- background ----------------------------------------------------------------------------------------


@lru_cache(maxsize=32)
def background(
    road_length: int, team_size: int, width: int | None, theme_name: str, fire: bool, caption: bool = False
) -> Image.Image:
    """The static part of a board; cached, so callers must copy it before drawing."""
    layout = layout_for(road_length, team_size, width, caption)
    theme = get_theme(theme_name)
    image = Image.new("RGB", (layout.width, layout.height), theme.background)
    draw = ImageDraw.Draw(image)
    draw_frames(image, layout, theme)
    _bends(draw, layout, theme)
    fire_cell = (road_length + 1) // 2 if fire else None
    font = load_font(layout.text_size, bold=True)
    for row in layout.rows:
        draw.rectangle((row.top_lane[0], row.top_lane[1], row.bottom_lane[2] - 1, row.bottom_lane[3] - 1),
                       fill=theme.grid)
        draw.rectangle((row.median[0], row.median[1], row.median[2] - 1, row.median[3] - 1), fill=theme.median)
    for cell in range(1, road_length + 1):
        _cell(draw, layout, cell, cell == fire_cell, theme, font)
    _lane_arrows(draw, layout, theme)
    return image


def _cell(draw: ImageDraw.ImageDraw, layout: Layout, cell: int, burning: bool, theme: Theme, font: Font) -> None:
    row = layout.row_of(cell)
    x0, x1 = layout.cell_x(cell)
    colour = theme.fire if burning else theme.cell if cell % 2 else theme.cell_alt
    for lane in (row.top_lane, row.bottom_lane):
        draw.rectangle((x0 + 1, lane[1] + 1, x1 - 1, lane[3] - 1), fill=colour)
    median = layout.median_box(cell)
    if burning:
        draw.rectangle((x0, median[1], x1 - 1, median[3] - 1), fill=theme.fire)
    number = theme.fire_glow if burning else theme.muted
    draw.text(((x0 + x1) // 2, (median[1] + median[3]) // 2), str(cell), font=font, fill=number, anchor="mm")
    if burning:
        for lane in (row.top_lane, row.bottom_lane):
            _flame(draw, (x0, lane[1], x1, lane[3]), theme)


def _bends(draw: ImageDraw.ImageDraw, layout: Layout, theme: Theme) -> None:
    """The road turning from one row into the next: a band in the median's colour joining their medians,
    with a faint arrow for each lane's turn (inside the band: down; outside it: up)."""
    thick = max(2, layout.u(3))
    faint = tuple((a + b) // 2 for a, b in zip(theme.cell, theme.muted, strict=True))
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
    size = max(3, layout.u(2.5))
    colour = tuple((a * 3 + b) // 4 for a, b in zip(theme.cell_alt, theme.muted, strict=True))
    width = max(1, layout.u(0.8))
    for row in layout.rows:
        for lane, right in ((row.top_lane, False), (row.bottom_lane, True)):
            y = lane[3] - layout.u(2) - size if right else lane[1] + layout.u(2) + size
            for cell in range(row.first, row.last + 1):
                cx = layout.cell_centre_x(cell)
                d = size if right else -size
                draw.line((cx - d // 2, y - size // 2, cx + d // 2, y, cx - d // 2, y + size // 2), fill=colour,
                          width=width)


@lru_cache(maxsize=16)
def board_palette(
    road_length: int, team_size: int, width: int | None, theme_name: str, fire: bool, caption: bool = False
) -> Image.Image:
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
    bg = background(road_length, team_size, width, theme_name, fire, caption)
    room = UNUSED_INDEX - len(exact)
    shades = bg.quantize(colors=room, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    found = shades.getpalette() or []
    extra: list[int] = []
    for i in range(0, min(len(found), room * 3), 3):
        shade = (found[i], found[i + 1], found[i + 2])
        # Pillow maps colours through a cache of 4 x 4 x 4 cells, so a shade that close to an exact colour
        # could capture it: leave it out, and the exact colours map to themselves.
        if all(max(abs(a - b) for a, b in zip(shade, colour, strict=True)) > 8 for colour in exact):
            extra += shade
    flat = [c for colour in exact for c in colour] + extra
    flat += list(exact[0]) * ((768 - len(flat)) // 3)
    # Index 255 repeats the background colour; mapping picks the lower index, so 255 never appears in an
    # image and the replay can use it as the "unchanged since the last frame" transparent colour.
    palette = Image.new("P", (1, 1))
    palette.putpalette(flat)
    return palette


# -- stacks --------------------------------------------------------------------------------------------


def _draw_stack(image: Image.Image, layout: Layout, cell: int, stack: Stack, theme: Theme, font: Font) -> None:
    up = up_road(stack.team, stack.direction)
    height = len(stack.pieces)
    tower = layout.tower(cell, up, height)
    for depth, (x, y) in enumerate(tower.slices, start=1):
        seat = stack.pieces[depth]
        sprite = pieces.slice_(seat, seat[0] != stack.team, layout.slice_width, layout.slice_height, theme.name)
        image.paste(sprite, (x, y), sprite)
    digit = layout.text_size if layout.team_size > 1 else 0
    sprite = pieces.head(stack.owner, tower.right, layout.piece, layout.pointer, theme.name, digit)
    hx, hy = tower.head
    left = hx - layout.piece // 2 - (0 if tower.right else layout.pointer)
    image.paste(sprite, (left, hy - layout.piece // 2), sprite)
    if tower.label is not None:
        _size_label(image, layout, tower.label, height, len(stack.captives), theme, font)


def _size_label(
    image: Image.Image,
    layout: Layout,
    box: tuple[int, int, int, int],
    height: int,
    captives: int,
    theme: Theme,
    font: Font,
) -> None:
    """The stack's size, then a striped tag and the number of captives it holds (when it holds any)."""
    draw = ImageDraw.Draw(image)
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
    put_text(image, (left, cy), size_text, size, theme.text, "lm")
    if captives:
        x = left + int(text_width(size_text, size)) + gap
        tag = pieces.captive_tag(tag_w, max(3, layout.u(5)), theme.name)
        image.paste(tag, (x, cy - tag.height // 2), tag)
        x += tag_w + layout.u(1.5)
        put_text(image, (x, cy), str(captives), size, theme.text, "lm")


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
    names: Mapping[str, str] | None = None,
    texts: Mapping[str, str] | None = None,
    caption: str | None = None,
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
        try:
            check_labels(labels, position.road_length)
        except BadLabel as exc:
            raise BadOption(str(exc)) from None
    if caption is not None and not isinstance(caption, str):
        raise BadOption(f"caption must be a string, not {type(caption).__name__}")
    words = resolve(texts)
    seat_names = _check_names(names, position)
    throws = as_throws(throw) if throw is not None else None
    framed = caption is not None
    layout = layout_for(position.road_length, rules.team_size, width, framed)
    image = background(position.road_length, rules.team_size, width, t.name, rules.fire, framed).copy()
    effect = _last_effect(position, last_move)
    if effect is not None:
        draw_last_move(image, layout, position, effect, t)
    font = load_font(layout.text_size, bold=True)
    for cell, stack in position.stacks():
        _draw_stack(image, layout, cell, stack, t, font)
    if effect is not None:
        draw_event_mark(image, layout, position, effect, t)
    draw_homes(image, layout, position, t)
    draw_header(image, layout, position, t, throws, advantage, seat_names, words)
    if labels:
        draw_labels(image, layout, position, labels, t)
    if caption is not None:
        draw_caption(image, layout, t, caption)
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
    names: Mapping[str, str] | None = None,
    texts: Mapping[str, str] | None = None,
    caption: str | None = None,
) -> bytes:
    """The board of `position` as PNG bytes.

    theme: "dark" (default, for Discord's dark mode) or "light".
    last_move: mark the move that produced the position (source, path, destination, capture or burn); or the
        `MoveEffect` to mark, for a position reached by a throw after that move (throws forget the last move).
    labels: destination -> short button label, e.g. {8: "1", 3: "2", "home-A": "3"}; drawn as badges.
    advantage: team A's win probability (0..1) for the "who is ahead" bar; None draws no bar.
    throw: a Throw or the turn's throws, drawn as sticks in the header (played ones struck out).
    width: image width in pixels (400..2400); default 800. The layout scales with it.
    names: seat -> player name, e.g. {"A1": "Alice"}, for the header's "whose turn" line.
    texts: the words drawn, by key (see `renderer.texts.DEFAULT_TEXTS`); missing keys are English.
    caption: a line of text under the board (replay frames say there what happened).
    """
    image = board_image(
        position,
        theme=theme,
        last_move=last_move,
        labels=labels,
        advantage=advantage,
        throw=throw,
        width=width,
        names=names,
        texts=texts,
        caption=caption,
    )
    rules = position.rules
    palette = board_palette(
        position.road_length, rules.team_size, width, get_theme(theme).name, rules.fire, caption is not None
    )
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
        raise ValueError(f"piece {depth} of the stack on cell {cell} is counted in the stack's label, not drawn")
    return layout.piece_point(cell, up_road(stack.team, stack.direction), depth, height)


__all__ = [
    "HOME_KEYS",
    "BadOption",
    "BadWidth",
    "board_image",
    "piece_centre",
    "render_board",
]
