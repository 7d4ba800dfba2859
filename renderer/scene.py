"""A picture as plain data: the shapes, texts and piece sprites of a board, in drawing order, grouped by what
they show (a cell, a stack, a piece, a move badge, the header), so one layout feeds two painters.

`board.py` and the modules it uses (`marks.py`, `panels.py`, `sticks.py`) record what they would draw into a
`Recorder`; `png.py` paints the recorded shapes with Pillow (the board PNG, pixel for pixel what drawing
directly gave) and `svg.py` writes them as SVG, where each group becomes an element with `data-` attributes
naming what it shows (`data-cell`, `data-stack`, `data-piece`, `data-move`, ...). As python-chess draws
`chess.svg`, the layout is computed once; only the painting differs.

Coordinates are Pillow's: integer pixels, boxes with inclusive corners (x0, y0, x1, y1). Colours are RGB
tuples. A `Sprite` names a piece picture by the arguments of the `pieces.py` function that draws it, so the PNG
painter pastes the cached, anti-aliased sprite and the SVG painter draws the same piece as vectors. Shapes are
never changed once recorded; they are plain (not frozen) dataclasses only because a board records a hundred or
more, and a frozen dataclass costs four times as much to create.
Nothing here draws, encodes or reads files.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from .layout import Box, Point
from .theme import RGB

#: A polygon's or a line's points as Pillow takes them: flat (x0, y0, x1, y1, ...) or as (x, y) pairs.
Coords = Sequence[float] | Sequence[tuple[float, float]]


@dataclass(slots=True)
class Rect:
    box: Box
    fill: RGB | None = None
    outline: RGB | None = None
    width: int = 1


@dataclass(slots=True)
class RoundRect:
    box: Box
    radius: int
    fill: RGB | None = None
    outline: RGB | None = None
    width: int = 1


@dataclass(slots=True)
class Ellipse:
    box: Box
    fill: RGB | None = None
    outline: RGB | None = None
    width: int = 1


@dataclass(slots=True)
class Polygon:
    points: Coords
    fill: RGB | None = None
    outline: RGB | None = None
    width: int = 1


@dataclass(slots=True)
class Line:
    """A polyline `width` px wide; `joint` "curve" rounds its corners (Pillow's `joint`)."""

    points: Coords
    fill: RGB
    width: int = 1
    joint: str | None = None


@dataclass(slots=True)
class Text:
    """Bold text at `size` px placed like Pillow's `anchor` ("mm": middle, "lm": left middle, "rm" ...)."""

    xy: Point
    text: str
    size: int
    colour: RGB
    anchor: str = "la"


@dataclass(slots=True)
class Sprite:
    """A piece picture at `xy` (its top-left corner), `size` (width, height) px: `kind` is the `pieces.py`
    function ("head", "slice_", "icon", "team_icon", "pip", "captive_tag") and `args` its arguments."""

    kind: str
    args: tuple[object, ...]
    xy: Point
    size: tuple[int, int]


@dataclass(slots=True)
class Group:
    """Shapes that together show one thing, named by `attrs`: (name, value) pairs, "_" in a name standing
    for "-" (`move_kind` is SVG's `data-move-kind`), None values left out when written."""

    attrs: tuple[tuple[str, object], ...]
    items: tuple[Shape, ...]

    def data(self) -> list[tuple[str, str]]:
        """The attributes as SVG writes them, without the `data-` prefix."""
        return [(name.replace("_", "-"), str(value)) for name, value in self.attrs if value is not None]


Shape = Rect | RoundRect | Ellipse | Polygon | Line | Text | Sprite | Group


@dataclass(frozen=True, slots=True)
class Scene:
    """A whole picture: its size and background colour, the static part (the same for every position of a
    road length, team size, theme and width: cached by the painters), then what this position adds.

    `title` and `description` are the words a screen reader gives the SVG (`<title>`, `<desc>`).
    """

    width: int
    height: int
    background: RGB
    static: tuple[Shape, ...]
    items: tuple[Shape, ...]
    title: str = ""
    description: str = ""
    static_key: tuple[object, ...] = ()


def pairs(points: Coords) -> list[tuple[float, float]]:
    """Pillow's flat (x0, y0, x1, y1, ...) or paired coordinates, as pairs."""
    if points and isinstance(points[0], tuple | list):
        return [(p[0], p[1]) for p in points]  # type: ignore[index]
    flat: list[float] = list(points)  # type: ignore[arg-type]
    return [(flat[i], flat[i + 1]) for i in range(0, len(flat), 2)]


def _box(box: Sequence[float]) -> Box:
    if type(box) is tuple:  # the drawing code's boxes: kept as given (Pillow takes them as they are)
        return box
    x0, y0, x1, y1 = box
    return (int(x0), int(y0), int(x1), int(y1))


class _Grouping:
    """`Recorder.group`'s context: what is recorded inside goes into one `Group` (a plain class, not
    `contextlib.contextmanager`: boards open dozens of groups, and a generator each costs)."""

    __slots__ = ("_attrs", "_outer", "_recorder")

    def __init__(self, recorder: Recorder, attrs: tuple[tuple[str, object], ...]) -> None:
        self._recorder = recorder
        self._attrs = attrs
        self._outer: list[Shape] = []

    def __enter__(self) -> None:
        self._outer = self._recorder.target
        self._recorder.target = []
        self._recorder.depth += 1

    def __exit__(self, *exc: object) -> None:
        inner = self._recorder.target
        self._recorder.target = self._outer
        self._recorder.depth -= 1
        self._outer.append(Group(self._attrs, tuple(inner)))


class _NoGrouping:
    """`Recorder.group` when groups are not kept: a context that does nothing."""

    __slots__ = ()

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


#: What `Recorder.group` gives when groups are not kept; drawing code that would spend time naming a group
#: takes it instead when `Recorder.named` is False.
NO_GROUP = _NoGrouping()


class Recorder:
    """Collects shapes in drawing order, with the names of Pillow's `ImageDraw` methods (so drawing code reads
    as before); `with recorder.group(name=value, ...):` nests what is drawn inside it under those names.

    `named=False` records the same shapes without groups: what the PNG painter needs, and cheaper (drawing
    code asks `named` before working out a name that costs more than a lookup).
    """

    __slots__ = ("depth", "items", "named", "target")

    def __init__(self, *, named: bool = True) -> None:
        self.items: list[Shape] = []
        self.target = self.items  # the list shapes go to: the innermost open group's
        self.depth = 0
        self.named = named

    def add(self, shape: Shape) -> None:
        self.target.append(shape)

    def group(self, **attrs: object) -> _Grouping | _NoGrouping:
        if not self.named:
            return NO_GROUP
        return _Grouping(self, tuple(attrs.items()))

    def rectangle(
        self, box: Sequence[float], fill: RGB | None = None, outline: RGB | None = None, width: int = 1
    ) -> None:
        self.target.append(Rect(_box(box), fill, outline, width))

    def rounded_rectangle(
        self,
        box: Sequence[float],
        radius: int = 0,
        fill: RGB | None = None,
        outline: RGB | None = None,
        width: int = 1,
    ) -> None:
        self.target.append(RoundRect(_box(box), radius, fill, outline, width))

    def ellipse(
        self, box: Sequence[float], fill: RGB | None = None, outline: RGB | None = None, width: int = 1
    ) -> None:
        self.target.append(Ellipse(_box(box), fill, outline, width))

    def polygon(
        self,
        xy: Sequence[float] | Sequence[tuple[float, float]],
        fill: RGB | None = None,
        outline: RGB | None = None,
        width: int = 1,
    ) -> None:
        self.target.append(Polygon(xy, fill, outline, width))

    def line(
        self,
        xy: Sequence[float] | Sequence[tuple[float, float]],
        fill: RGB,
        width: int = 1,
        joint: str | None = None,
    ) -> None:
        self.target.append(Line(xy, fill, width, joint))

    def text(self, xy: Point, text: str, size: int, colour: RGB, anchor: str = "la") -> None:
        self.target.append(Text(xy, text, size, colour, anchor))

    def sprite(self, kind: str, args: tuple[object, ...], xy: Point, size: tuple[int, int]) -> None:
        self.target.append(Sprite(kind, args, xy, size))

    def shapes(self) -> tuple[Shape, ...]:
        if self.depth:
            raise RuntimeError("a group is still open")
        return tuple(self.items)


def walk(shapes: Sequence[Shape]) -> Iterator[Shape]:
    """Every shape, groups opened, in drawing order."""
    for shape in shapes:
        if isinstance(shape, Group):
            yield from walk(shape.items)
        else:
            yield shape


def groups(shapes: Sequence[Shape], name: str) -> Iterator[Group]:
    """Every group (at any depth) carrying the attribute `name`."""
    for shape in shapes:
        if isinstance(shape, Group):
            if any(k == name for k, _ in shape.attrs):
                yield shape
            yield from groups(shape.items, name)
