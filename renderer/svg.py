"""The vector painter: a `scene.Scene` as an SVG document, crisp at any size, for the web pages.

Every shape of the scene becomes an SVG element at the same place as in the PNG (Pillow's boxes include
their last pixel, its lines and polygons run through pixel centres: both are converted), piece sprites
are drawn as vectors from the same measures `pieces.py` uses, and each group of the scene becomes a `<g>`
whose `data-` attributes name what it shows (`data-cell="7"`, `data-stack="7" data-seats="A1 B2"`,
`data-move="3:7"`, ...), so a page can find and later make them clickable. The document starts with a
`<title>` and a `<desc>` for screen readers. Texts are measured as the PNG measures them (DejaVu Sans Bold)
and held to that length, so a browser without DejaVu still keeps every word in its place. Every text and
attribute is escaped: players' names are member-supplied. Pure: a scene in, text out.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from xml.sax.saxutils import escape, quoteattr

from .fonts import text_width
from .pieces import SS, digit_ink
from .scene import Coords, Ellipse, Group, Line, Polygon, Rect, RoundRect, Scene, Shape, Sprite, Text, pairs
from .theme import RGB, SEAT_COLOURS, get_theme

FONT_FAMILY = "'DejaVu Sans', 'Bitstream Vera Sans', Verdana, sans-serif"
# Where Pillow's vertical anchors put the baseline, in em of DejaVu Sans (ascender 0.928, descender 0.236).
BASELINE_SHIFT = {"a": 0.928, "t": 0.928, "m": 0.346, "s": 0.0, "b": 0.0, "d": -0.236}
TEXT_ANCHOR = {"l": "start", "m": "middle", "r": "end"}


def _n(value: float) -> str:
    """A coordinate, short: 12, 12.5, 12.25."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return text if text not in ("-0", "") else "0"


def _c(colour: RGB | None) -> str:
    return "none" if colour is None else "#{:02x}{:02x}{:02x}".format(*colour)


def _paint_attrs(fill: RGB | None, outline: RGB | None, width: int) -> str:
    attrs = f' fill="{_c(fill)}"'
    if outline is not None:
        attrs += f' stroke="{_c(outline)}" stroke-width="{_n(width)}"'
    return attrs


def _inner_box(box: tuple[int, int, int, int], outline: RGB | None, width: int) -> tuple[float, float, float, float]:
    """A Pillow box (inclusive) as SVG x, y, width, height; with an outline, the stroke's centre line, since
    Pillow draws outlines inside the box."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0 + 1, y1 - y0 + 1
    if outline is None:
        return x0, y0, w, h
    half = width / 2
    return x0 + half, y0 + half, max(0.0, w - width), max(0.0, h - width)


def _points(points: Coords, shift: float = 0.5) -> str:
    return " ".join(f"{_n(x + shift)},{_n(y + shift)}" for x, y in pairs(points))


@dataclass(slots=True)
class _Writer:
    prefix: str
    parts: list[str] = field(default_factory=list)
    defs: list[str] = field(default_factory=list)
    ids: int = 0

    def new_id(self) -> str:
        self.ids += 1
        return f"{self.prefix}{self.ids}"

    def clip(self, element: str) -> str:
        """A clip path of `element`; returns the attribute that applies it."""
        ident = self.new_id()
        self.defs.append(f'<clipPath id="{ident}">{element}</clipPath>')
        return f' clip-path="url(#{ident})"'


# -- shapes --------------------------------------------------------------------------------------------


def _rect(shape: Rect | RoundRect) -> str:
    x, y, w, h = _inner_box(shape.box, shape.outline, shape.width)
    radius = ""
    if isinstance(shape, RoundRect) and shape.radius:
        r = max(0.0, shape.radius - (shape.width / 2 if shape.outline is not None else 0))
        radius = f' rx="{_n(min(r, w / 2, h / 2))}"'
    return (
        f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}"{radius}'
        f"{_paint_attrs(shape.fill, shape.outline, shape.width)}/>"
    )


def _ellipse(shape: Ellipse) -> str:
    x, y, w, h = _inner_box(shape.box, shape.outline, shape.width)
    return (
        f'<ellipse cx="{_n(x + w / 2)}" cy="{_n(y + h / 2)}" rx="{_n(w / 2)}" ry="{_n(h / 2)}"'
        f"{_paint_attrs(shape.fill, shape.outline, shape.width)}/>"
    )


def _polygon(shape: Polygon) -> str:
    stroke = ""
    if shape.outline is not None:
        stroke = f' stroke="{_c(shape.outline)}" stroke-width="{_n(shape.width)}" stroke-linejoin="round"'
    return f'<polygon points="{_points(shape.points)}" fill="{_c(shape.fill)}"{stroke}/>'


def _line(shape: Line) -> str:
    join = "round" if shape.joint == "curve" else "miter"
    return (
        f'<polyline points="{_points(shape.points)}" fill="none" stroke="{_c(shape.fill)}" '
        f'stroke-width="{_n(shape.width)}" stroke-linejoin="{join}"/>'
    )


def _text(x: float, y: float, text: str, size: int, colour: RGB, anchor: str) -> str:
    """`text` placed as Pillow places it with `anchor`, held to the width it has in the PNG."""
    horizontal = TEXT_ANCHOR.get(anchor[0], "start")
    shift = BASELINE_SHIFT.get(anchor[1], 0.0) * size
    length = text_width(text, size)
    fit = f' textLength="{_n(length)}" lengthAdjust="spacingAndGlyphs"' if length > 0 and len(text) > 1 else ""
    return (
        f'<text x="{_n(x)}" y="{_n(y + shift)}" font-size="{_n(size)}" text-anchor="{horizontal}" '
        f'fill="{_c(colour)}"{fit}>{escape(text)}</text>'
    )


# -- piece sprites as vectors (the measures of pieces.py, whose sprites are drawn at SS times their size) ----


def _body(team: str, x: float, y: float, size: float, fill: RGB | None, rim: RGB, width: float) -> str:
    """A team's shape in a `size` square at (x, y): a disc for A, a rounded square for B; the rim inside."""
    half = width / 2
    inner = max(0.0, size - width)
    paint = f'fill="{_c(fill)}" stroke="{_c(rim)}" stroke-width="{_n(width)}"'
    if team == "A":
        return f'<circle cx="{_n(x + size / 2)}" cy="{_n(y + size / 2)}" r="{_n(inner / 2)}" {paint}/>'
    radius = max(0.0, size / 4 - half)
    return (
        f'<rect x="{_n(x + half)}" y="{_n(y + half)}" width="{_n(inner)}" height="{_n(inner)}" '
        f'rx="{_n(radius)}" {paint}/>'
    )


def _rim(team: str, theme: str) -> RGB:
    t = get_theme(theme)
    return t.rim_a if team == "A" else t.rim_b


def _head(out: _Writer, seat: str, right: bool, size: int, pointer: int, theme: str, digit: int) -> str:
    t = get_theme(theme)
    fill = SEAT_COLOURS[t.name][seat]
    team = seat[0]
    rim = _rim(team, theme)
    line = 2 if size >= 24 else 1
    w = size + pointer
    bx0 = 0 if right else pointer
    mid, half = size / 2, size / 4
    base = bx0 + size * 3 / 4 if right else bx0 + size / 4
    tip = w if right else 0
    parts = [
        (
            f'<polygon points="{_n(base)},{_n(mid - half)} {_n(tip)},{_n(mid)} {_n(base)},{_n(mid + half)}" '
            f'fill="{_c(t.text)}" stroke="{_c(rim)}" stroke-width="{_n(1 / SS * 2)}"/>'
        ),
        _body(team, bx0, 0, size, fill, rim, line),
    ]
    cx = bx0 + size / 2
    if digit:
        parts.append(_text(cx, mid - size / 14, seat[1:], digit, digit_ink(fill), "mm"))
    else:
        k = size / 5
        sign = 1 if right else -1
        parts.append(
            f'<polyline points="{_n(cx - sign * k / 2)},{_n(mid - k)} {_n(cx + sign * k / 2)},{_n(mid)} '
            f'{_n(cx - sign * k / 2)},{_n(mid + k)}" fill="none" stroke="{_c(digit_ink(fill))}" '
            f'stroke-width="{_n(max(1, size / 9))}" stroke-linejoin="round"/>'
        )
    return "".join(parts)


def _stripes(x_from: float, w: float, h: float, bar: float, lean: float, colour: RGB) -> str:
    bars = []
    x = x_from
    while x < w + lean:
        bars.append(
            f'<polygon points="{_n(x)},{_n(h)} {_n(x + bar)},{_n(h)} {_n(x + bar + lean)},0 {_n(x + lean)},0" '
            f'fill="{_c(colour)}"/>'
        )
        x += bar * 2.5
    return "".join(bars)


def _slice(out: _Writer, seat: str, captive: bool, width: int, height: int, theme: str) -> str:
    t = get_theme(theme)
    fill = SEAT_COLOURS[t.name][seat]
    team = seat[0]
    radius = height / 2 if team == "A" else max(1.0, height / 5)
    shape = f'x="0.5" y="0.5" width="{_n(width - 1)}" height="{_n(height - 1)}" rx="{_n(max(0.0, radius - 0.5))}"'
    body = f'<rect {shape} fill="{_c(fill)}" stroke="{_c(_rim(team, theme))}" stroke-width="1"/>'
    if not captive:
        return body
    clip = out.clip(f'<rect x="0" y="0" width="{width}" height="{height}" rx="{_n(radius)}"/>')
    bar = max(2.0, height / 3)
    return body + f"<g{clip}>{_stripes(width * 0.42, width, height, bar, height, t.ink)}</g>"


def _icon(out: _Writer, seat: str, size: int, theme: str, digit: int) -> str:
    fill = SEAT_COLOURS[get_theme(theme).name][seat]
    body = _body(seat[0], 0, 0, size, fill, _rim(seat[0], theme), 2 if size >= 24 else 1)
    if not digit:
        return body
    return body + _text(size / 2, size / 2, seat[1:], digit, digit_ink(fill), "mm")


def _team_icon(out: _Writer, team: str, size: int, colour: RGB, rim: RGB) -> str:
    return _body(team, 0, 0, size, colour, rim, 2)


def _pip(out: _Writer, seat: str, state: str, size: int, theme: str) -> str:
    t = get_theme(theme)
    fill = SEAT_COLOURS[t.name][seat]
    team = seat[0]
    inset = 1 / SS
    inner = size - 2 * inset
    line = max(1.0, size / 8)
    if state == "home":
        return f'<g transform="translate({_n(inset)} {_n(inset)})">' + _body(
            team, 0, 0, inner, fill, _rim(team, theme), max(1.0, size / 12)
        ) + "</g>"
    if state == "road":
        road = _body(team, 0, 0, inner, None, fill, line)
        return f'<g transform="translate({_n(inset)} {_n(inset)})">{road}</g>'
    if state == "killed":
        m = size / 5
        stroke = f'stroke="{_c(t.capture)}" stroke-width="{_n(line + 1)}"'
        return (
            f'<line x1="{_n(m)}" y1="{_n(m)}" x2="{_n(size - m)}" y2="{_n(size - m)}" {stroke}/>'
            f'<line x1="{_n(m)}" y1="{_n(size - m)}" x2="{_n(size - m)}" y2="{_n(m)}" {stroke}/>'
        )
    return (
        f'<polygon points="{_n(size / 2)},{_n(inset)} {_n(size * 4 / 5)},{_n(size * 3 / 5)} '
        f'{_n(size / 2)},{_n(size - inset)} {_n(size / 5)},{_n(size * 3 / 5)}" fill="{_c(t.muted)}"/>'
    )


def _captive_tag(out: _Writer, width: int, height: int, theme: str) -> str:
    t = get_theme(theme)
    shape = f'x="0" y="0" width="{width}" height="{height}" rx="{_n(height / 3)}"'
    clip = out.clip(f"<rect {shape}/>")
    bar = max(1.0, height / 3)
    stripes = _stripes(width * 0.4, width, height, bar, height / 2, t.ink)
    return f'<rect {shape} fill="{_c(t.text)}"/><g{clip}>{stripes}</g>'


SPRITES: dict[str, Callable[..., str]] = {
    "head": _head,
    "slice_": _slice,
    "icon": _icon,
    "team_icon": _team_icon,
    "pip": _pip,
    "captive_tag": _captive_tag,
}


# -- the document --------------------------------------------------------------------------------------


def _write(out: _Writer, shapes: Sequence[Shape]) -> None:
    for shape in shapes:
        if isinstance(shape, Group):
            attrs = "".join(f" data-{name}={quoteattr(value)}" for name, value in shape.data())
            out.parts.append(f"<g{attrs}>")
            _write(out, shape.items)
            out.parts.append("</g>")
        elif isinstance(shape, Sprite):
            body = SPRITES[shape.kind](out, *shape.args)
            out.parts.append(f'<g transform="translate({shape.xy[0]} {shape.xy[1]})">{body}</g>')
        elif isinstance(shape, Text):
            x, y = shape.xy
            out.parts.append(_text(x, y, shape.text, shape.size, shape.colour, shape.anchor))
        elif isinstance(shape, Rect | RoundRect):
            out.parts.append(_rect(shape))
        elif isinstance(shape, Polygon):
            out.parts.append(_polygon(shape))
        elif isinstance(shape, Line):
            out.parts.append(_line(shape))
        elif isinstance(shape, Ellipse):
            out.parts.append(_ellipse(shape))
        else:  # pragma: no cover - Shape is closed
            raise TypeError(f"cannot write {shape!r}")


def scene_svg(scene: Scene) -> str:
    """The scene as a standalone SVG document (UTF-8 text, no XML declaration: it may be inlined in HTML).

    Element ids (the title's, the description's, clip paths) start with a prefix drawn from the scene, so
    several boards can share one page.
    """
    digest = hashlib.blake2s(repr((scene.static_key, scene.items)).encode(), digest_size=4).hexdigest()
    out = _Writer(prefix=f"pb{digest}-")
    _write(out, scene.static)
    _write(out, scene.items)
    title_id, desc_id = f"{out.prefix}title", f"{out.prefix}desc"
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {scene.width} {scene.height}" '
        f'width="{scene.width}" height="{scene.height}" role="img" aria-labelledby="{title_id} {desc_id}" '
        f'font-family="{FONT_FAMILY}" font-weight="bold" data-board="">'
        f'<title id="{title_id}">{escape(scene.title)}</title><desc id="{desc_id}">{escape(scene.description)}</desc>'
    )
    defs = f"<defs>{''.join(out.defs)}</defs>" if out.defs else ""
    background = f'<rect width="{scene.width}" height="{scene.height}" fill="{_c(scene.background)}"/>'
    return head + defs + background + "".join(out.parts) + "</svg>"
