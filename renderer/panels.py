"""The parts of a board image around the road: the two homes (cities) and the header.

Each home has a row per seat: the seat's piece, how many pieces wait at home, and five pips telling what
became of each of its five pieces (at home, on the road, killed, gone). The header shows each team's
score beside its shape, the seat to move with its pending throws, the sticks of a throw, and the
"who is ahead" bar. No user text is ever drawn here. Draws on a given image; never encodes or reads files.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from puluc import Position, Throw
from puluc.rules import PIECES_PER_SEAT

from . import pieces
from .fonts import load_font
from .layout import Box, Layout, home_rows
from .sticks import draw_throws, throws_width
from .theme import Theme


def draw_homes(image: Image.Image, layout: Layout, position: Position, theme: Theme) -> None:
    """Every seat's row in its team's home; the seat to move is framed."""
    draw = ImageDraw.Draw(image)
    number = layout.team_size > 1
    to_move = None if position.is_over else position.to_move
    for team in "AB":
        for i, box in enumerate(home_rows(layout, team)):
            seat = f"{team}{i + 1}"
            if seat == to_move:
                draw.rounded_rectangle(box, radius=8, outline=theme.last_move, width=2)
            _home_row(image, draw, box, seat, position, theme, number)


def _pip_states(position: Position, seat: str) -> list[str]:
    home = position.home(seat)
    killed = position.killed(seat)
    gone = position.gone(seat)
    road = PIECES_PER_SEAT - home - killed - gone
    return ["home"] * home + ["road"] * road + ["killed"] * killed + ["gone"] * gone


def _home_row(
    image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, seat: str, position: Position, theme: Theme, number: bool
) -> None:
    x0, y0, x1, y1 = box
    row = y1 - y0
    width = x1 - x0
    states = _pip_states(position, seat)
    waiting = str(position.home(seat))
    if row >= 56:
        # Roomy (few seats): the piece and its count on one line, the five pips under them.
        size = min(44, row * 45 // 100)
        pip = min((width - 12) // PIECES_PER_SEAT - 2, row * 30 // 100)
        block = size + 6 + pip
        top = y0 + (row - block) // 2
        sprite = pieces.icon(seat, size, theme.name, number)
        image.paste(sprite, (x0 + 6, top), sprite)
        font = load_font(max(12, size * 7 // 10), bold=True)
        draw.text((x0 + 6 + size + 10, top + size // 2), waiting, font=font, fill=theme.text, anchor="lm")
        pips_y = top + size + 6
        pips_x = x0 + (width - PIECES_PER_SEAT * (pip + 2)) // 2
    else:
        size = max(10, row * 72 // 100)
        font = load_font(max(10, row * 55 // 100), bold=True)
        sprite = pieces.icon(seat, size, theme.name, number)
        cy = (y0 + y1) // 2
        image.paste(sprite, (x0 + 4, cy - size // 2), sprite)
        count_x = x0 + 4 + size + 4
        draw.text((count_x, cy), waiting, font=font, fill=theme.text, anchor="lm")
        pips_x = count_x + max(12, row * 45 // 100) + 2
        pip = max(6, min(row * 45 // 100, (x1 - 2 - pips_x) // PIECES_PER_SEAT - 2))
        pips_y = cy - pip // 2
    for k, state in enumerate(states):
        sprite = pieces.pip(seat, state, pip, theme.name)
        image.paste(sprite, (pips_x + k * (pip + 2), pips_y), sprite)


def draw_header(
    image: Image.Image,
    layout: Layout,
    position: Position,
    theme: Theme,
    throws: Sequence[Throw] | None,
    advantage: float | None,
) -> None:
    """Scores at both ends, then the seat to move with its pending throws and sticks, then the advantage bar."""
    draw = ImageDraw.Draw(image)
    x0, y0, x1, y1 = layout.header
    height = y1 - y0
    cy = (y0 + y1) // 2
    scores = position.scores()
    size = height * 6 // 10
    font = load_font(max(12, height * 11 // 20), bold=True)
    for team, colour, left in (("A", theme.team_a, True), ("B", theme.team_b, False)):
        rim = theme.rim_a if team == "A" else theme.rim_b
        sprite = pieces.team_icon(team, size, colour, rim)
        if left:
            image.paste(sprite, (x0 + 10, cy - size // 2), sprite)
            draw.text((x0 + 10 + size + 10, cy), str(scores[team]), font=font, fill=theme.text, anchor="lm")
        else:
            image.paste(sprite, (x1 - 10 - size, cy - size // 2), sprite)
            draw.text((x1 - 10 - size - 10, cy), str(scores[team]), font=font, fill=theme.text, anchor="rm")
    x = layout.road_left + 4
    if not position.is_over:
        seat = position.to_move
        sprite = pieces.icon(seat, size, theme.name, layout.team_size > 1)
        image.paste(sprite, (x, cy - size // 2), sprite)
        x += size + 10
        small = load_font(max(11, height * 2 // 5), bold=True)
        for value in position.pending:
            box = (x, cy - size // 2, x + size, cy + size // 2)
            draw.rounded_rectangle(box, radius=6, outline=theme.muted, width=2)
            draw.text(((box[0] + box[2]) // 2, cy), str(value), font=small, fill=theme.text, anchor="mm")
            x += size + 6
        x += 8
    if throws:
        stick_h = height - 12
        draw_throws(
            image, (x, cy - stick_h // 2, x + throws_width(len(throws), stick_h), cy + stick_h // 2), throws, theme
        )
    if advantage is not None:
        draw_advantage(draw, layout, theme, advantage)


def advantage_box(layout: Layout) -> Box:
    """Where the "who is ahead" bar sits in the header: the right part above the road."""
    _x0, y0, _x1, y1 = layout.header
    cy = (y0 + y1) // 2
    road = layout.road_right - layout.road_left
    half = max(5, (y1 - y0) // 6)
    return (layout.road_right - road * 2 // 5, cy - half, layout.road_right - 4, cy + half)


def draw_advantage(draw: ImageDraw.ImageDraw, layout: Layout, theme: Theme, advantage: float) -> None:
    """Team A's share (win probability) from the left in A's colour, the rest in B's, a tick at the middle."""
    x0, y0, x1, y1 = advantage_box(layout)
    split = x0 + round((x1 - x0) * advantage)
    radius = (y1 - y0) // 2
    draw.rounded_rectangle((x0, y0, x1, y1), radius=radius, fill=theme.team_b)
    if split > x0:
        # A's rounded end, squared off at the split; near either end the square part shrinks to nothing.
        draw.rounded_rectangle((x0, y0, max(split, x0 + 2 * radius), y1), radius=radius, fill=theme.team_a)
        left = max(x0 + radius, split - radius)
        if left <= split:
            draw.rectangle((left, y0, split, y1), fill=theme.team_a)
    if split < x1:
        # B again from the split over whatever A's rounded end overdrew, short of B's own rounded end.
        right = min(x1 - radius, max(split + radius, x0 + 2 * radius))
        if right >= split:
            draw.rectangle((split, y0, right, y1), fill=theme.team_b)
    mid = (x0 + x1) // 2
    draw.line((mid, y0 - 4, mid, y1 + 4), fill=theme.text, width=2)
    # Team shapes at the ends, so the bar does not rely on colour to say who is who.
    r = (y1 - y0) // 2 + 3
    draw.ellipse(
        (x0 - 2 * r - 6, (y0 + y1) // 2 - r, x0 - 6, (y0 + y1) // 2 + r), fill=theme.team_a, outline=theme.rim_a
    )
    draw.rounded_rectangle(
        (x1 + 6, (y0 + y1) // 2 - r, x1 + 6 + 2 * r, (y0 + y1) // 2 + r),
        radius=r // 2,
        fill=theme.team_b,
        outline=theme.rim_b,
    )
