"""Line charts as PNG: a game's win-probability history, or a player's rating history.

`render_chart(series, kind="advantage")`: `series` is team A's win probability (0..1), as (turn, p) points
or plain values (plotted at 0, 1, 2, ...); the area above the middle line is filled in team A's colour,
below it in team B's, with the team shapes at the top and bottom edges (so the chart does not rely on
colour alone). `render_chart(series, kind="rating")`: `series` is ratings (floats, plotted by game) or
(x, rating) points where x is a game number, a Unix timestamp or a `datetime`; dates label the x axis when
given. Both have a title and named axes from the caller's texts. Pure: numbers in, PNG bytes out.
"""

from __future__ import annotations

import io
import itertools
import math
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime

from PIL import Image, ImageDraw

from .fonts import Font, load_font
from .texts import fill, resolve
from .theme import Theme, get_theme

Point = tuple[float, float]
KINDS = ("advantage", "rating")
SCALE = 2  # supersampling


class BadSeries(ValueError):
    """A series the chart cannot plot."""


def _points(series: Sequence[float] | Sequence[tuple[object, float]], kind: str) -> tuple[list[Point], bool]:
    """(x, y) floats and whether x holds timestamps."""
    if kind not in KINDS:
        raise BadSeries(f"unknown chart kind {kind!r}; choose advantage or rating")
    if len(series) == 0:
        raise BadSeries("nothing to chart: the series is empty")
    points: list[Point] = []
    dated = False
    for i, item in enumerate(series):
        if isinstance(item, tuple):
            if len(item) != 2:
                raise BadSeries(f"point {i} must be (x, value), not {item!r}")
            x_raw, y_raw = item
            if isinstance(x_raw, datetime):
                x = (x_raw if x_raw.tzinfo else x_raw.replace(tzinfo=UTC)).timestamp()
                dated = True
            elif isinstance(x_raw, int | float) and not isinstance(x_raw, bool):
                x = float(x_raw)
                dated = dated or x > 1e9  # Unix seconds after 2001
            else:
                raise BadSeries(f"point {i}: x must be a number or a datetime, not {x_raw!r}")
        else:
            x, y_raw = float(i + 1), item  # plain values: turn or game 1, 2, 3, ...
        if isinstance(y_raw, bool) or not isinstance(y_raw, int | float) or not math.isfinite(y_raw):
            raise BadSeries(f"point {i}: value must be a finite number, not {y_raw!r}")
        if kind == "advantage" and not 0.0 <= y_raw <= 1.0:
            raise BadSeries(f"point {i}: a win probability must be from 0 to 1, not {y_raw!r}")
        points.append((x, float(y_raw)))
    return points, dated


def _nice_step(span: float, ticks: int) -> float:
    raw = span / max(1, ticks)
    magnitude = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1.0
    for factor in (1, 2, 2.5, 5, 10):
        if raw <= factor * magnitude:
            return factor * magnitude
    return 10 * magnitude


def render_chart(
    series: Sequence[float] | Sequence[tuple[object, float]],
    *,
    kind: str = "advantage",
    theme: str = "dark",
    width: int = 800,
    height: int = 400,
    texts: Mapping[str, str] | None = None,
    marks: Sequence[object] = (),
) -> bytes:
    """A line chart PNG of `series` (see the module docstring for the two kinds).

    `marks`: x values of the series to point out (a review's costliest decisions), numbered 1, 2, ... in order.

    Titled and with named axes, in the words of `texts` (see `renderer.texts`; English by default). Sizes
    are designed for the chart shown 400 px wide, like the boards, and scale with `width`.
    """
    points, dated = _points(series, kind)
    if not (240 <= width <= 2400 and 120 <= height <= 1600):
        raise BadSeries(f"chart size must be 240-2400 x 120-1600 px, not {width} x {height}")
    words = resolve(texts)
    t = get_theme(theme)
    # Drawn at twice the size and reduced, so the line and the fills get smooth edges.
    s = SCALE
    big_w, big_h = width * s, height * s
    unit = big_w / 400  # pixels per design unit (one pixel of the chart shown 400 px wide)

    def u(value: float) -> int:
        return round(value * unit)

    image = Image.new("RGB", (big_w, big_h), t.background)
    draw = ImageDraw.Draw(image)
    font = load_font(u(12), bold=True)
    title_font = load_font(u(14), bold=True)
    advantage = kind == "advantage"
    title = words["advantage_title" if advantage else "rating_title"]
    y_name = words["advantage_axis" if advantage else "rating_axis"]
    x_name = words["turn_axis" if advantage else "date_axis" if dated else "game_axis"]
    draw.rounded_rectangle((u(4), u(4), big_w - u(4), big_h - u(4)), radius=u(6), fill=t.panel)
    draw.text((u(12), u(14)), title, font=title_font, fill=t.text, anchor="lm")
    left, right = u(50), big_w - u(22)
    top, bottom = u(48), big_h - u(36)
    draw.text((u(12), top - u(10)), y_name, font=font, fill=t.muted, anchor="lb")
    draw.text(((left + right) // 2, big_h - u(12)), x_name, font=font, fill=t.muted, anchor="mm")
    xs = [p[0] for p in points]
    x_min, x_max = min(xs), max(xs)
    if x_max == x_min:
        x_max = x_min + 1
    if advantage:
        y_min, y_max = 0.0, 1.0
        y_ticks = [0.0, 0.25, 0.5, 0.75, 1.0]
    else:
        ys = [p[1] for p in points]
        lo, hi = min(ys), max(ys)
        step = _nice_step(max(hi - lo, 1.0), 4)
        y_min, y_max = math.floor(lo / step) * step, math.ceil(hi / step) * step
        if y_max == y_min:
            y_max += step
        y_ticks = [y_min + i * step for i in range(round((y_max - y_min) / step) + 1)]

    def px(p: Point) -> tuple[int, int]:
        x = left + (p[0] - x_min) / (x_max - x_min) * (right - left)
        y = bottom - (p[1] - y_min) / (y_max - y_min) * (bottom - top)
        return round(x), round(y)

    for value in y_ticks:
        _, y = px((x_min, value))
        draw.line((left, y, right, y), fill=t.grid, width=s)
        text = fill(words, "percent", percent=round(value * 100)) if advantage else f"{value:g}"
        draw.text((left - u(4), y), text, font=font, fill=t.muted, anchor="rm")
    _x_labels(draw, font, t, points, dated, (left, right, bottom), u(4))
    coords = [px(p) for p in points]
    if advantage:
        _, mid = px((x_min, 0.5))
        _fill_advantage(draw, coords, mid, t)
        draw.line((left, mid, right, mid), fill=t.muted, width=s)
        _team_marks(draw, t, right, top, bottom, u(5))
        line = t.text
    else:
        line = t.badge
    if len(coords) == 1:
        x, y = coords[0]
        draw.ellipse((x - u(3), y - u(3), x + u(3), y + u(3)), fill=line)
    else:
        draw.line(coords, fill=line, width=max(s, u(1.8)), joint="curve")
    _marks(draw, font, t, [coords[i] for mark in marks for i, p in enumerate(points) if p[0] == _x_of(mark)],
           top, u(7), s)
    if not advantage and len(coords) <= 60:
        r = u(2.2)
        for x, y in coords:
            draw.ellipse((x - r, y - r, x + r, y + r), fill=line, outline=t.panel, width=s)
    out = io.BytesIO()
    image.reduce(s).save(out, "PNG", compress_level=6)
    return out.getvalue()


def _x_of(mark: object) -> float:
    return float(mark) if isinstance(mark, int | float) else float("nan")


def _marks(draw: ImageDraw.ImageDraw, font: Font, t: Theme,
           found: list[tuple[int, int]], top: int, r: int, s: int) -> None:
    """A numbered ring on each marked point, with a dashed line up to its number: findable without colour."""
    for number, (x, y) in enumerate(found, start=1):
        for y0 in range(top, y - r, 4 * s):
            draw.line((x, y0, x, min(y0 + 2 * s, y - r)), fill=t.last_move, width=s)
        draw.ellipse((x - r, y - r, x + r, y + r), outline=t.last_move, width=2 * s)
        draw.text((x, top - r), str(number), font=font, fill=t.last_move, anchor="mm")


def _fill_advantage(draw: ImageDraw.ImageDraw, coords: list[tuple[int, int]], mid: int, t: Theme) -> None:
    """Between the line and the middle: team A's colour where A is ahead (above), B's where below."""
    for (x0, y0), (x1, y1) in itertools.pairwise(coords):
        for x in range(x0, max(x0 + 1, x1)):
            y = y0 if x1 == x0 else y0 + (y1 - y0) * (x - x0) / (x1 - x0)
            y_int = round(y)
            if y_int < mid:
                draw.line((x, y_int, x, mid), fill=t.team_a)
            elif y_int > mid:
                draw.line((x, mid, x, y_int), fill=t.team_b)


def _team_marks(draw: ImageDraw.ImageDraw, t: Theme, right: int, top: int, bottom: int, r: int) -> None:
    """Team A's disc at the top edge (A ahead), team B's square at the bottom, right of the plot."""
    x0, x1 = right + r // 2, right + r // 2 + 2 * r
    draw.ellipse((x0, top - r, x1, top + r), fill=t.team_a, outline=t.rim_a)
    draw.rounded_rectangle((x0, bottom - r, x1, bottom + r), radius=max(1, r // 2), fill=t.team_b, outline=t.rim_b)


def x_ticks(points: Sequence[Point], dated: bool) -> list[float]:
    """Where the x axis is labelled: three dates (first, middle, last), or round turn or game numbers."""
    x_min, x_max = min(p[0] for p in points), max(p[0] for p in points)
    span = max(x_max - x_min, 1.0)
    if dated:
        return [x_min + span * i / 2 for i in range(3)]
    step = max(1.0, _nice_step(span, 5))
    first = math.ceil(x_min / step) * step
    return [first + step * i for i in range(int((x_max - first) / step) + 1)]


def _x_labels(
    draw: ImageDraw.ImageDraw,
    font: Font,
    t: Theme,
    points: list[Point],
    dated: bool,
    frame: tuple[int, int, int],
    gap: int,
) -> None:
    """Label the x axis at `x_ticks`."""
    left, right, bottom = frame
    x_min, x_max = min(p[0] for p in points), max(p[0] for p in points)
    span = max(x_max - x_min, 1.0)
    edge = gap * 8
    for x_value in x_ticks(points, dated):
        x = round(left + (right - left) * (x_value - x_min) / span)
        text = datetime.fromtimestamp(x_value, UTC).strftime("%Y-%m-%d") if dated else f"{x_value:g}"
        anchor = "lt" if x - left < edge else "rt" if right - x < edge else "mt"
        draw.text((x, bottom + gap * 2), text, font=font, fill=t.muted, anchor=anchor)
        draw.line((x, bottom, x, bottom + gap), fill=t.muted, width=SCALE)
