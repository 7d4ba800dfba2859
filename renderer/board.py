"""The board's two pictures: `render_board(position) -> PNG bytes` (and `board_image` for callers that want
pixels) and `render_board_svg(position) -> SVG text`, both painted from one scene (`compose.board_scene`).

The static background (panels, the folded road with its cells, bends, cell numbers and fire) is painted
once per road length, team size, theme, width and fire flag and cached; each PNG copies it and paints the
position's shapes on top. Pure: engine objects in, bytes or text out; no I/O, no Discord.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import astuple
from functools import lru_cache

from PIL import Image

from puluc import MoveEffect, Position, Throw

from .compose import BadOption, board_scene, static_shapes
from .layout import BadWidth, Point, layout_for, up_road
from .marks import HOME_KEYS, LabelKey
from .panels import Ended
from .png import paint
from .svg import scene_svg
from .theme import SEAT_COLOURS, get_theme

UNUSED_INDEX = 255
PNG_COMPRESS_LEVEL = 2  # palette PNG, 8 v 8 on 800 px: 3 ms and 25 KB (level 6: 6 ms and 19 KB)


# -- background ----------------------------------------------------------------------------------------


@lru_cache(maxsize=32)
def background(
    road_length: int, team_size: int, width: int | None, theme_name: str, fire: bool, caption: bool = False
) -> Image.Image:
    """The static part of a board painted; cached, so callers must copy it before drawing."""
    layout = layout_for(road_length, team_size, width, caption)
    image = Image.new("RGB", (layout.width, layout.height), get_theme(theme_name).background)
    paint(image, static_shapes(road_length, team_size, width, theme_name, fire, caption))
    return image


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
    ended: Ended | None = None,
) -> Image.Image:
    """The board as an RGB Pillow image; `render_board` documents the options."""
    scene = board_scene(
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
        named=False,
        ended=ended,
    )
    image = background(*scene.static_key).copy()
    paint(image, scene.items)
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
    ended: Ended | None = None,
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
    ended: for a game that ended off the board, how (`renderer.Ended`: a resignation or a time-out's winner,
        or a call-off): the header says who won or that it was called off, and shows nobody to move.
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
        ended=ended,
    )
    rules = position.rules
    palette = board_palette(
        position.road_length, rules.team_size, width, get_theme(theme).name, rules.fire, caption is not None
    )
    out = io.BytesIO()
    image.quantize(palette=palette, dither=Image.Dither.NONE).save(out, "PNG", compress_level=PNG_COMPRESS_LEVEL)
    return out.getvalue()


def render_board_svg(
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
    ended: Ended | None = None,
) -> str:
    """The board of `position` as an SVG document: the same layout as `render_board`'s PNG, drawn as vectors.

    The options are `render_board`'s; `width` sets the layout (its proportions and the size the SVG asks for),
    and the picture scales crisply to any size. `description` is the text a screen reader reads (`<desc>`);
    None: the header's words. The title is the header's first line (whose turn, or who won). Elements carry
    `data-` attributes naming what they show: `data-cell`, `data-stack` (with `data-seats`, top first),
    `data-piece` (a seat, with `data-depth`), `data-home` and `data-seat`, `data-entry` (a team's gate),
    `data-move` (the moves' notation, on move badges, with `data-label` and `data-target`), `data-last-move`,
    `data-header` and `data-advantage`.
    """
    return scene_svg(
        board_scene(
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
            description=description,
            ended=ended,
        )
    )


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
    "render_board_svg",
]
