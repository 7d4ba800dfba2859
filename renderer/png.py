"""The raster painter: a `scene.Scene` onto a Pillow image, shape by shape with Pillow's own drawing calls.

The static part of a board is painted once per road length, team size, theme, width and fire flag and cached
(`background`); each board copies it and paints its own shapes on top. Piece sprites come from `pieces.py`'s
caches. What this draws is what drawing directly with `ImageDraw` drew before the scene existed, pixel for
pixel (tests/renderer/test_board_pixels.py). No encoding here, no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PIL import Image, ImageDraw

from . import pieces
from .fonts import put_text
from .scene import Ellipse, Group, Line, Polygon, Rect, RoundRect, Shape, Sprite, Text

SPRITES: dict[str, Callable[..., Image.Image]] = {
    "head": pieces.head,
    "slice_": pieces.slice_,
    "icon": pieces.icon,
    "team_icon": pieces.team_icon,
    "pip": pieces.pip,
    "captive_tag": pieces.captive_tag,
}


def paint(image: Image.Image, shapes: Sequence[Shape]) -> None:
    """Draw `shapes` on `image` (RGB) in order."""
    _paint(image, ImageDraw.Draw(image), shapes)


def _paint(image: Image.Image, draw: ImageDraw.ImageDraw, shapes: Sequence[Shape]) -> None:
    for shape in shapes:
        if isinstance(shape, Group):
            _paint(image, draw, shape.items)
        elif isinstance(shape, Sprite):
            sprite = SPRITES[shape.kind](*shape.args)
            image.paste(sprite, shape.xy, sprite)
        elif isinstance(shape, Text):
            put_text(image, shape.xy, shape.text, shape.size, shape.colour, shape.anchor)
        elif isinstance(shape, Rect):
            draw.rectangle(shape.box, fill=shape.fill, outline=shape.outline, width=shape.width)
        elif isinstance(shape, RoundRect):
            draw.rounded_rectangle(
                shape.box, radius=shape.radius, fill=shape.fill, outline=shape.outline, width=shape.width
            )
        elif isinstance(shape, Polygon):
            draw.polygon(list(shape.points), fill=shape.fill, outline=shape.outline, width=shape.width)
        elif isinstance(shape, Line):
            draw.line(list(shape.points), fill=shape.fill, width=shape.width, joint=shape.joint)
        elif isinstance(shape, Ellipse):
            draw.ellipse(shape.box, fill=shape.fill, outline=shape.outline, width=shape.width)
        else:  # pragma: no cover - Shape is closed
            raise TypeError(f"cannot paint {shape!r}")
