"""A picture as plain data: the shapes, texts and piece sprites of a board, in drawing order, grouped by what
they show (a cell, a stack, a piece, a move badge, the header), so one layout feeds two painters.

`board.py` and the modules it uses (`marks.py`, `panels.py`, `sticks.py`) record what they would draw into a
`Recorder`; `png.py` paints the recorded shapes with Pillow (the board PNG, pixel for pixel what drawing
directly gave) and `svg.py` writes them as SVG, where each group becomes an element with `data-` attributes
naming what it shows (`data-cell`, `data-stack`, `data-piece`, `data-move`, ...). As python-chess draws
`chess.svg`, the layout is computed once; only the painting differs.

Coordinates are Pillow's: integer pixels, boxes with inclusive corners (x0, y0, x1, y1). Colours are RGB
tuples. A `Sprite` names a piece picture by the arguments of the `pieces.py` function that draws it, so
the PNG painter pastes the cached, anti-aliased sprite and the SVG painter draws the same piece as vectors.
Nothing here draws, encodes or reads files.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

from .layout import Box, Point
from .theme import RGB

Coords = tuple[float, ...]


@dataclass(frozen=True, slots=True)
class Rect:
    box: Box
    fill: RGB | None = None
    outline: RGB | None = None
    width: int = 1


@dataclass(frozen=True, slots=True)
class RoundRect:
    box: Box
    radius: int
    fill: RGB | None = None
    outline: RGB | None = None
    width: int = 1


@dataclass(frozen=True, slots=True)
class Ellipse:
    box: Box
    fill: RGB | None = None
    outline: RGB | None = None
    width: int = 1


@dataclass(frozen=True, slots=True)
class Polygon:
    points: tuple[tuple[float, float], ...]
    fill: RGB | None = None
    outline: RGB | None = None
    width: int = 1


@dataclass(frozen=True, slots=True)
class Line:
    """A polyline `width` px wide; `joint` "curve" rounds its corners (Pillow's `joint`)."""

    points: tuple[tuple[float, float], ...]
    fill: RGB
    width: int = 1
    joint: str | None = None


@dataclass(frozen=True, slots=True)
class Text:
    """Bold text at `size` px placed like Pillow's `anchor` ("mm": middle, "lm": left middle, "rm" ...)."""

    xy: Point
    text: str
    size: int
    colour: RGB
    anchor: str = "la"


@dataclass(frozen=True, slots=True)
class Sprite:
    """A piece picture at `xy` (its top-left corner), `size` (width, height) px: `kind` is the `pieces.py`
    function ("head", "slice_", "icon", "team_icon", "pip", "captive_tag") and `args` its arguments."""

    kind: str
    args: tuple[object, ...]
    xy: Point
    size: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Group:
    """Shapes that together show one thing, named by `attrs` (SVG `data-` attributes without the prefix)."""

    attrs: tuple[tuple[str, str], ...]
    items: tuple[Shape, ...]


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


def _points(xy: Sequence[float] | Sequence[tuple[float, float]]) -> tuple[tuple[float, float], ...]:
    """Pillow's flat (x0, y0, x1, y1, ...) or paired coordinates, as pairs."""
    if xy and isinstance(xy[0], tuple | list):
        return tuple((p[0], p[1]) for p in xy)  # type: ignore[index]
    flat: list[float] = list(xy)  # type: ignore[arg-type]
    return tuple((flat[i], flat[i + 1]) for i in range(0, len(flat), 2))


def _box(box: Sequence[float]) -> Box:
    x0, y0, x1, y1 = box
    return (int(x0), int(y0), int(x1), int(y1))


@dataclass(slots=True)
class Recorder:
    """Collects shapes in drawing order, with the names of Pillow's `ImageDraw` methods (so drawing code reads
    as before); `group(...)` nests what is drawn inside it under a name."""

    items: list[Shape] = field(default_factory=list)
    _stack: list[tuple[tuple[tuple[str, str], ...], list[Shape]]] = field(default_factory=list)

    def add(self, shape: Shape) -> None:
        (self._stack[-1][1] if self._stack else self.items).append(shape)

    @contextmanager
    def group(self, **attrs: object) -> Iterator[None]:
        """Everything recorded inside is one `Group`; attribute names use "_" for "-" (`move_kind` ->
        `data-move-kind`), None values are left out."""
        named = tuple((k.replace("_", "-"), str(v)) for k, v in attrs.items() if v is not None)
        self._stack.append((named, []))
        try:
            yield
        finally:
            done, items = self._stack.pop()
            self.add(Group(done, tuple(items)))

    def rectangle(
        self, box: Sequence[float], fill: RGB | None = None, outline: RGB | None = None, width: int = 1
    ) -> None:
        self.add(Rect(_box(box), fill, outline, width))

    def rounded_rectangle(
        self,
        box: Sequence[float],
        radius: int = 0,
        fill: RGB | None = None,
        outline: RGB | None = None,
        width: int = 1,
    ) -> None:
        self.add(RoundRect(_box(box), radius, fill, outline, width))

    def ellipse(
        self, box: Sequence[float], fill: RGB | None = None, outline: RGB | None = None, width: int = 1
    ) -> None:
        self.add(Ellipse(_box(box), fill, outline, width))

    def polygon(
        self,
        xy: Sequence[float] | Sequence[tuple[float, float]],
        fill: RGB | None = None,
        outline: RGB | None = None,
        width: int = 1,
    ) -> None:
        self.add(Polygon(_points(xy), fill, outline, width))

    def line(
        self,
        xy: Sequence[float] | Sequence[tuple[float, float]],
        fill: RGB,
        width: int = 1,
        joint: str | None = None,
    ) -> None:
        self.add(Line(_points(xy), fill, width, joint))

    def text(self, xy: Point, text: str, size: int, colour: RGB, anchor: str = "la") -> None:
        self.add(Text((int(xy[0]), int(xy[1])), text, size, colour, anchor))

    def sprite(self, kind: str, args: tuple[object, ...], xy: Point, size: tuple[int, int]) -> None:
        self.add(Sprite(kind, args, (int(xy[0]), int(xy[1])), size))

    def shapes(self) -> tuple[Shape, ...]:
        if self._stack:
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
