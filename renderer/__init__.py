"""Board images for Puluc: pure functions from `puluc` objects to PNG and GIF bytes.

`render_board(position)` draws a position as a PNG and `render_board_svg(position)` the same board as SVG
(one layout, `compose.board_scene`, two painters); `render_throw(throw)` the four sticks; `render_replay(record)`
an animated GIF of a whole game; `render_chart(series)` a win-probability or rating line chart;
`render_legend()` the key to the boards' signs. Every word drawn comes from a `texts` mapping the caller
may give (`renderer.texts.DEFAULT_TEXTS` has the English defaults).
This package imports `puluc` and Pillow only: never the bot, never discord, and it does no I/O.
"""

from __future__ import annotations

from . import board as _board
from . import compose as _compose
from . import pieces as _pieces
from .animation import render_replay
from .board import BadOption, board_image, piece_centre, render_board, render_board_svg
from .chart import render_chart
from .compose import board_scene
from .fonts import FontNotFound, load_font, set_font_path
from .legend import render_legend
from .marks import label_target
from .panels import Ended
from .sticks import BadThrow, render_throw
from .theme import SEAT_COLOURS, THEMES, UnknownTheme, seat_colour


def use_font(path: str | None) -> None:
    """Draw every image with the font file at `path` (None: DejaVu Sans from the system); for start-up."""
    set_font_path(path)
    for cached in (
        _board.background,
        _compose.static_shapes,
        _board.board_palette,
        _pieces.head,
        _pieces.slice_,
        _pieces.icon,
        _pieces.captive_tag,
    ):
        cached.cache_clear()


__all__ = [
    "SEAT_COLOURS",
    "THEMES",
    "BadOption",
    "BadThrow",
    "Ended",
    "FontNotFound",
    "UnknownTheme",
    "board_image",
    "board_scene",
    "label_target",
    "load_font",
    "piece_centre",
    "render_board",
    "render_board_svg",
    "render_chart",
    "render_legend",
    "render_replay",
    "render_throw",
    "seat_colour",
    "use_font",
]
