"""The legend: an example board with numbered callouts, and a key to every sign the boards use.

`render_legend(texts=...)` is the picture of the bot's "reading the board" help page: a 1 v 1 mid-game
board (a tower with a captive and a freed piece, the last move's path, a capture, move badges) with
numbered callouts on its header, homes and road, then the key: each sign drawn with the same sprites
the boards use, beside its words. Every word comes from `texts` (English by default). Pure: PNG bytes out.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping

from PIL import Image, ImageDraw

from puluc import Move, Position, Rules, Throw

from . import pieces
from .board import board_image
from .fonts import Font, load_font
from .layout import Layout, layout_for
from .marks import _lozenge, _sign
from .panels import fit
from .png import paint
from .scene import Recorder
from .texts import resolve
from .theme import Theme, get_theme

WIDTH = 800
SLOT = 26.0  # design units for a key entry's sign (the widest, a stack's size label)
# Ants 1 v 1: A1's stack of two (holding a captive B1) stands on cell 5; B1 comes from cell 8 with a 3 and
# captures it, making a tower of four (B1 on top, two A1 captives, its own B1 freed); A1 then throws a 3.
BEFORE = "./A1+/././A1A1B1+/././B1+/. A1:2,B1:3 A1:0,B1:0 B1 3"
EXAMPLE_NAMES = {"A1": "Alice", "B1": "Bohdan"}


def example_position() -> Position:
    before = Position.from_ppn(Rules.preset("ants"), BEFORE)
    return before.play(Move.parse("3:8")).throw([3])


def key_room(width: int = WIDTH) -> int:
    """Pixels the words of one key entry have: half the picture, less the sign's slot (longer words are cut)."""
    layout = layout_for(9, 1, width)
    return (width - layout.u(20)) // 2 - layout.u(SLOT) - layout.u(8)


def render_legend(*, texts: Mapping[str, str] | None = None, theme: str = "dark") -> bytes:
    """The legend picture as PNG bytes."""
    words = resolve(texts)
    t = get_theme(theme)
    position = example_position()
    board = board_image(
        position,
        theme=t.name,
        labels={5: "1", 3: "2"},
        advantage=0.42,
        throw=Throw.from_code("1110"),
        width=WIDTH,
        names=EXAMPLE_NAMES,
        texts=words,
    )
    layout = layout_for(position.road_length, 1, WIDTH)
    font = load_font(layout.text_size, bold=True)
    _callouts(board, layout, t, font)
    rows = _key_rows(layout, t, words)
    line = layout.u(19)
    callouts = [words["legend_turn"], words["legend_score"], words["legend_home"], words["legend_road"]]
    entries: list[tuple[Callable[[Image.Image, tuple[int, int], int], None] | int, str]] = [
        (i + 1, text) for i, text in enumerate(callouts)
    ]
    entries += rows
    key_height = layout.u(4) + line + ((len(entries) + 1) // 2) * line + layout.u(8)
    image = Image.new("RGB", (WIDTH, board.height + key_height), t.background)
    image.paste(board, (0, 0))
    draw = ImageDraw.Draw(image)
    top = board.height
    draw.rounded_rectangle((layout.u(4), top, WIDTH - layout.u(4), image.height - layout.u(4)),
                           radius=layout.u(5), fill=t.panel)
    title = words["legend_title"]
    draw.text((layout.u(10), top + layout.u(4) + line // 2), title, font=font, fill=t.text, anchor="lm")
    column = (WIDTH - layout.u(20)) // 2
    y = top + layout.u(4) + line
    for index, (sign, text) in enumerate(entries):
        x = layout.u(10) + (index % 2) * column
        cy = y + (index // 2) * line + line // 2
        size = line - layout.u(4)
        slot = layout.u(SLOT)
        if isinstance(sign, int):
            _number(draw, (x + slot // 2, cy), size // 2, sign, t, font)
        else:
            sign(image, (x + slot // 2, cy), size)
        draw.text((x + slot + layout.u(4), cy), fit(text, layout.text_size, key_room()), font=font, fill=t.text,
                  anchor="lm")
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=6)
    return out.getvalue()


def _number(draw: ImageDraw.ImageDraw, centre: tuple[int, int], r: int, n: int, t: Theme, font: Font) -> None:
    cx, cy = centre
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=t.last_move, outline=t.ink)
    draw.text((cx, cy), str(n), font=font, fill=t.ink, anchor="mm")


def _callouts(board: Image.Image, layout: Layout, t: Theme, font: Font) -> None:
    """Numbered circles on the header's two lines, team A's home and the road."""
    draw = ImageDraw.Draw(board)
    r = layout.u(7)
    first, second = layout.lines
    row = layout.rows[0]
    spots = [
        (first[2] - layout.u(70), (first[1] + first[3]) // 2),
        ((second[0] + second[2]) // 2, (second[1] + second[3]) // 2),
        (layout.home_a[2] - layout.u(40), (layout.home_a[1] + layout.home_a[3]) // 2),
        (layout.cell_centre_x(1), row.median[1] - layout.u(9)),
    ]
    for n, spot in enumerate(spots, start=1):
        _number(draw, spot, r, n, t, font)


def _key_rows(layout: Layout, t: Theme, words: Mapping[str, str]) -> list[tuple[Callable[..., None], str]]:
    """(draw the sign centred at a point in a square of a size, its words) for every sign of the board."""

    def teams(image: Image.Image, c: tuple[int, int], size: int) -> None:
        half = size * 3 // 4
        a = pieces.icon("A1", half, t.name, 0)
        b = pieces.icon("B1", half, t.name, 0)
        image.paste(a, (c[0] - half, c[1] - half // 2), a)
        image.paste(b, (c[0] + 1, c[1] - half // 2), b)

    def pointer(image: Image.Image, c: tuple[int, int], size: int) -> None:
        sprite = pieces.head("B1", True, size * 4 // 5, size // 5, t.name, 0)
        image.paste(sprite, (c[0] - sprite.width // 2, c[1] - sprite.height // 2), sprite)

    def stack(image: Image.Image, c: tuple[int, int], size: int) -> None:
        draw = ImageDraw.Draw(image)
        font = load_font(layout.text_size, bold=True)
        left = c[0] - layout.u(12)
        draw.text((left, c[1]), "4", font=font, fill=t.text, anchor="lm")
        tag = pieces.captive_tag(max(6, layout.u(10)), max(3, layout.u(5)), t.name)
        x = left + int(font.getlength("4")) + layout.u(2.5)
        image.paste(tag, (x, c[1] - tag.height // 2), tag)
        draw.text((x + tag.width + layout.u(1.5), c[1]), "2", font=font, fill=t.text, anchor="lm")

    def slice_of(captive: bool) -> Callable[[Image.Image, tuple[int, int], int], None]:
        def draw_slice(image: Image.Image, c: tuple[int, int], size: int) -> None:
            sprite = pieces.slice_("A1", captive, size, layout.slice_height, t.name)
            image.paste(sprite, (c[0] - size // 2, c[1] - sprite.height // 2), sprite)

        return draw_slice

    def badge(image: Image.Image, c: tuple[int, int], size: int) -> None:
        draw = ImageDraw.Draw(image)
        box = (c[0] - size // 2, c[1] - size // 2, c[0] + size // 2, c[1] + size // 2)
        draw.polygon(_lozenge(box, size // 3), fill=t.cell, outline=t.text, width=max(2, layout.u(1.6)))
        draw.text(c, "1", font=load_font(layout.text_size, bold=True), fill=t.text, anchor="mm")

    def last(image: Image.Image, c: tuple[int, int], size: int) -> None:
        draw = ImageDraw.Draw(image)
        w = max(2, layout.u(1.6))
        draw.line((c[0] - size // 2, c[1], c[0] + size // 3, c[1]), fill=t.last_move, width=w)
        draw.polygon([(c[0] + size // 2, c[1]), (c[0] + size // 6, c[1] - size // 4),
                      (c[0] + size // 6, c[1] + size // 4)], fill=t.last_move)

    def capture(image: Image.Image, c: tuple[int, int], size: int) -> None:
        draw = ImageDraw.Draw(image)
        r = size // 3
        draw.ellipse((c[0] - r, c[1] - r, c[0] + r, c[1] + r), fill=t.capture, outline=t.text)
        sign = Recorder()
        _sign(sign, c, r, "capture")
        paint(image, sign.shapes())

    def pip(state: str) -> Callable[[Image.Image, tuple[int, int], int], None]:
        def draw_pip(image: Image.Image, c: tuple[int, int], size: int) -> None:
            sprite = pieces.pip("A1", state, size * 2 // 3, t.name)
            image.paste(sprite, (c[0] - sprite.width // 2, c[1] - sprite.height // 2), sprite)

        return draw_pip

    def fire(image: Image.Image, c: tuple[int, int], size: int) -> None:
        draw = ImageDraw.Draw(image)
        draw.rectangle((c[0] - size // 2, c[1] - size // 2, c[0] + size // 2, c[1] + size // 2), fill=t.fire)
        k = size // 3
        draw.polygon([(c[0], c[1] - k), (c[0] + k, c[1] + k), (c[0] - k, c[1] + k)], fill=t.fire_glow)

    def lanes(image: Image.Image, c: tuple[int, int], size: int) -> None:
        draw = ImageDraw.Draw(image)
        k = size // 4
        for dy, sign in ((-k, -1), (k, 1)):
            y = c[1] + dy
            draw.line((c[0] - sign * k, y - k // 2 - 1, c[0] + sign * k, y, c[0] - sign * k, y + k // 2 + 1),
                      fill=t.muted, width=max(1, layout.u(1)))

    return [
        (teams, words["legend_teams"]),
        (pointer, words["legend_pointer"]),
        (lanes, words["legend_lanes"]),
        (stack, words["legend_stack"]),
        (slice_of(True), words["legend_captive"]),
        (slice_of(False), words["legend_freed"]),
        (badge, words["legend_badge"]),
        (last, words["legend_last"]),
        (capture, words["legend_capture"]),
        (pip("killed"), words["legend_killed"]),
        (pip("gone"), words["legend_gone"]),
        (fire, words["legend_fire"]),
    ]
