"""The four throwing sticks of a throw: which faces came up, and the value they give (RULES.md §2).

A stick showing its counting side is light wood with carved chevrons; one showing its plain side is dark
wood. `draw_throws` records throws into a box of a larger scene (the board's header); `render_throw` makes
a small PNG on its own. Only Pillow and `puluc.Throw`; no I/O besides encoding.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image

from puluc import Throw

from .fonts import text_width
from .png import paint
from .scene import Recorder
from .theme import Theme, get_theme


class BadThrow(ValueError):
    """Something given as a throw that is not a `puluc.Throw`."""


def as_throws(throw: Throw | Sequence[Throw]) -> tuple[Throw, ...]:
    """One throw or a sequence of them, checked."""
    if isinstance(throw, Throw):
        throws: tuple[Throw, ...] = (throw,)
    elif isinstance(throw, Sequence) and not isinstance(throw, str | bytes):
        throws = tuple(throw)
    else:
        raise BadThrow(f"{throw!r} is not a Throw or a sequence of throws")
    if not throws:
        raise BadThrow("no throw to draw: give a Throw or a non-empty sequence of them")
    for t in throws:
        if not isinstance(t, Throw):
            raise BadThrow(f"{t!r} is not a Throw (use puluc.Throw.from_code or Throw.roll)")
    return throws


def throws_width(count: int, height: int, font_size: int | None = None) -> int:
    """Width `draw_throws` needs for `count` throws in a box `height` px tall."""
    stick_w, gap = _stick_size(height)
    group = 4 * (stick_w + gap) + 2 * gap + _value_width(height, font_size)
    return count * group + (count - 1) * gap * 3


def _stick_size(height: int) -> tuple[int, int]:
    stick_w = max(5, height // 6)
    return stick_w, max(2, stick_w // 2)


def _font_size(height: int, font_size: int | None) -> int:
    return font_size if font_size is not None else max(10, height * 3 // 5)


def _value_width(height: int, font_size: int | None = None) -> int:
    size = _font_size(height, font_size)
    return max(12, int(text_width("5", size)) + 4)


def draw_throws(
    draw: Recorder,
    box: tuple[int, int, int, int],
    throws: Sequence[Throw],
    theme: Theme,
    used: Sequence[bool] = (),
    font_size: int | None = None,
) -> None:
    """Record `throws` left to right into `box`, each as four sticks and its value; `used` ones struck out."""
    x0, y0, _, y1 = box
    height = y1 - y0
    stick_w, gap = _stick_size(height)
    font_size_px = _font_size(height, font_size)
    value_w = _value_width(height, font_size)
    x = x0
    for index, throw in enumerate(throws):
        start = x
        spent = index < len(used) and used[index]
        with draw.group(throw=throw.value, played="true" if spent else "false"):
            for face in throw.faces:
                _stick(draw, (x, y0, x + stick_w, y1), face, theme)
                x += stick_w + gap
            x += gap * 2
            colour = theme.muted if spent else theme.text
            draw.text((x + value_w // 2, (y0 + y1) // 2), str(throw.value), font_size_px, colour, "mm")
            x += value_w
            if spent:
                # Played already: a line through sticks and value, so only the throws still to play stand out.
                mid = (y0 + y1) // 2
                draw.line((start - 1, mid, x, mid), fill=theme.background, width=max(3, stick_w))
                draw.line((start - 1, mid, x, mid), fill=theme.muted, width=max(1, stick_w // 2))
        x += gap * 3


def _stick(draw: Recorder, box: tuple[int, int, int, int], up: bool, theme: Theme) -> None:
    x0, y0, x1, y1 = box
    radius = max(2, (x1 - x0) // 2)
    if not up:
        draw.rounded_rectangle(box, radius=radius, fill=theme.stick_back, outline=theme.stick_mark, width=1)
        return
    draw.rounded_rectangle(box, radius=radius, fill=theme.stick_face, outline=theme.stick_mark, width=1)
    # Carved chevrons along the counting side.
    w = x1 - x0
    count = 3
    span = (y1 - y0) / (count + 1)
    for i in range(1, count + 1):
        y = int(y0 + span * i)
        draw.line(
            (x0 + 2, y + w // 3, (x0 + x1) // 2, y, x1 - 2, y + w // 3), fill=theme.stick_mark, width=max(1, w // 5)
        )


def render_throw(throw: Throw | Sequence[Throw], theme: str = "dark") -> bytes:
    """A small PNG of one throw (or a turn's throws): four sticks each, and the values."""
    throws = as_throws(throw)
    t = get_theme(theme)
    height = 96
    pad = 12
    width = throws_width(len(throws), height) + 2 * pad
    image = Image.new("RGB", (width, height + 2 * pad), t.background)
    draw = Recorder()
    draw_throws(draw, (pad, pad, width - pad, pad + height), throws, t)
    paint(image, draw.shapes())
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=6)
    return out.getvalue()
