"""The parts of a board image around the road: the header, the two homes and a replay frame's caption.

The header reads as words: its first line says whose turn it is (seat and player's name) and shows the
turn's throws, or, once the game is over, who won and the final score; its second line gives each team's
score and the "who is ahead" bar with the leader's chance in per cent. Each home is a strip with its
gate (the team's shape and letter, where stacks enter and arrive) and a slot per seat: the seat's piece,
how many wait at home, and what became of its five pieces. Every word comes from the caller's texts
(`texts.py`). Draws on a given image; never encodes or reads files.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from PIL import Image, ImageDraw

from puluc import Position, Throw
from puluc.rules import PIECES_PER_SEAT

from . import pieces
from .fonts import Font, load_font, put_text, text_width
from .layout import Box, Layout
from .sticks import draw_throws, throws_width
from .texts import fill
from .theme import Theme

ELLIPSIS = "…"


def fit(text: str, size: int, room: float) -> str:
    """`text`, cut short with an ellipsis if it is wider than `room` pixels in bold at `size`."""
    if text_width(text, size) <= room:
        return text
    while text and text_width(text + ELLIPSIS, size) > room:
        text = text[:-1]
    return text.rstrip() + ELLIPSIS if text else ""


def turn_line(
    position: Position,
    names: Mapping[str, str],
    texts: Mapping[str, str],
    shorten: Callable[[str, str], str] = lambda name, plain: name,
) -> str:
    """The header's first line: who won and the final score, or whose turn it is (seat and name).

    `shorten(name, rest)` may cut a long name to fit beside the rest of the line.
    """
    outcome = position.outcome()
    if outcome is not None:
        scores = outcome.scores
        if outcome.winner is None:
            return fill(texts, "draw", score=f"{scores['A']}–{scores['B']}")
        other = "B" if outcome.winner == "A" else "A"
        return fill(texts, "wins", team=outcome.winner, score=f"{scores[outcome.winner]}–{scores[other]}")
    seat = position.to_move
    key = "to_throw" if position.must_throw else "to_move"
    name = names.get(seat)
    if not name:
        return fill(texts, key, seat=seat)
    plain = fill(texts, key + "_named", seat=seat, name="")
    return fill(texts, key + "_named", seat=seat, name=shorten(name, plain))


# -- header --------------------------------------------------------------------------------------------


def draw_header(
    image: Image.Image,
    layout: Layout,
    position: Position,
    theme: Theme,
    throws: Sequence[Throw] | None,
    advantage: float | None,
    names: Mapping[str, str],
    texts: Mapping[str, str],
) -> None:
    draw = ImageDraw.Draw(image)
    font = load_font(layout.text_size, bold=True)
    size = layout.text_size
    first, second = layout.lines
    x0, y0, x1, y1 = first
    cy = (y0 + y1) // 2
    icon = y1 - y0 - layout.u(3)
    sticks_room = 0
    if throws and not position.is_over and not position.must_throw:
        # Only the throws of the player to move: before they throw, the last mover's sticks would mislead.
        sticks_room = throws_width(len(throws), icon, layout.text_size) + layout.u(4)
        used = _used(throws, position.pending)
        box = (x1 - sticks_room + layout.u(4), cy - icon // 2, x1, cy + icon // 2)
        draw_throws(image, box, throws, theme, used, layout.text_size)
    elif position.pending and not position.is_over and not throws:
        x = x1
        for value in reversed(position.pending):
            box = (x - icon, cy - icon // 2, x, cy + icon // 2)
            draw.rounded_rectangle(box, radius=layout.u(3), outline=theme.muted, width=max(1, layout.u(1.2)))
            put_text(image, ((box[0] + box[2]) // 2, cy), str(value), size, theme.text, "mm")
            x -= icon + layout.u(3)
        sticks_room = x1 - x
    room = x1 - sticks_room - layout.u(4) - x0 - icon - layout.u(4)
    text = turn_line(position, names, texts, lambda name, plain: fit(name, size, room - text_width(plain, size)))
    outcome = position.outcome()
    if outcome is not None:
        if outcome.winner is not None:
            colour = theme.team_a if outcome.winner == "A" else theme.team_b
            rim = theme.rim_a if outcome.winner == "A" else theme.rim_b
            sprite = pieces.team_icon(outcome.winner, icon, colour, rim)
            image.paste(sprite, (x0, cy - icon // 2), sprite)
        put_text(image, (x0 + icon + layout.u(4), cy), fit(text, size, room), size, theme.last_move, "lm")
    else:
        sprite = pieces.icon(position.to_move, icon, theme.name, layout.text_size if layout.team_size > 1 else 0)
        image.paste(sprite, (x0, cy - icon // 2), sprite)
        put_text(image, (x0 + icon + layout.u(4), cy), fit(text, size, room), size, theme.text, "lm")
    _score_line(image, draw, layout, position, theme, advantage, texts, font, second)


def _used(throws: Sequence[Throw], pending: Sequence[int]) -> tuple[bool, ...]:
    """For each of the turn's throws, whether it has been played (its value is no longer pending)."""
    left = list(pending)
    used: list[bool] = []
    for throw in throws:
        if throw.value in left:
            left.remove(throw.value)
            used.append(False)
        else:
            used.append(True)
    return tuple(used)


def _score_line(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    layout: Layout,
    position: Position,
    theme: Theme,
    advantage: float | None,
    texts: Mapping[str, str],
    font: Font,
    line: Box,
) -> None:
    x0, y0, _, y1 = line
    cy = (y0 + y1) // 2
    icon = (y1 - y0) * 2 // 3
    label = texts["score"]
    size = layout.text_size
    put_text(image, (x0, cy), label, size, theme.muted, "lm")
    x = x0 + int(text_width(label, size)) + layout.u(5)
    scores = position.scores()
    for team, colour, rim in (("A", theme.team_a, theme.rim_a), ("B", theme.team_b, theme.rim_b)):
        sprite = pieces.team_icon(team, icon, colour, rim)
        image.paste(sprite, (x, cy - icon // 2), sprite)
        x += icon + layout.u(3)
        text = f"{team} {scores[team]}"
        put_text(image, (x, cy), text, size, theme.text, "lm")
        x += int(text_width(text, size)) + layout.u(8)
    if advantage is None:
        return
    leader = "A" if advantage >= 0.5 else "B"
    share = advantage if leader == "A" else 1 - advantage
    caption = fill(texts, "chance", team=leader, percent=round(share * 100))
    bar = advantage_box(layout)
    right = bar[0] - layout.u(12)
    put_text(image, (right, cy), fit(caption, size, right - x), size, theme.text, "rm")
    draw_advantage(draw, bar, theme, advantage, layout.u(4))


def advantage_box(layout: Layout) -> Box:
    """Where the "who is ahead" bar's track sits: the right part of the header's second line."""
    x0, y0, x1, y1 = layout.lines[1]
    cy = (y0 + y1) // 2
    return (x1 - round((x1 - x0) * 0.28), cy - layout.u(3.5), x1 - layout.u(9), cy + layout.u(3.5))


def draw_advantage(draw: ImageDraw.ImageDraw, box: Box, theme: Theme, advantage: float, marker: int) -> None:
    """Team A's share (win probability) from the left in A's colour, the rest in B's, a tick at the middle."""
    x0, y0, x1, y1 = box
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
    draw.line((mid, y0 - 3, mid, y1 + 3), fill=theme.text, width=max(1, marker // 3))
    # Team shapes at the ends, so the bar does not rely on colour to say who is who.
    cy = (y0 + y1) // 2
    r = marker
    draw.ellipse((x0 - 2 * r - 3, cy - r, x0 - 3, cy + r), fill=theme.team_a, outline=theme.rim_a)
    draw.rounded_rectangle(
        (x1 + 3, cy - r, x1 + 3 + 2 * r, cy + r), radius=max(1, r // 2), fill=theme.team_b, outline=theme.rim_b
    )


# -- homes ---------------------------------------------------------------------------------------------


def draw_homes(image: Image.Image, layout: Layout, position: Position, theme: Theme) -> None:
    """Both homes: the gate, then every seat's slot; the seat to move is framed in the text colour."""
    draw = ImageDraw.Draw(image)
    digit = layout.text_size if layout.team_size > 1 else 0
    to_move = None if position.is_over else position.to_move
    font = load_font(layout.text_size, bold=True)
    for team in "AB":
        for i, box in enumerate(layout.home_slots(team)):
            seat = f"{team}{i + 1}"
            if seat == to_move:
                frame = (box[0], box[1] + 1, box[2] - 1, box[3] - 2)
                draw.rounded_rectangle(frame, radius=layout.u(4), outline=theme.text, width=max(2, layout.u(1.2)))
            _slot(image, draw, layout, box, seat, position, theme, digit, font)


def draw_frames(image: Image.Image, layout: Layout, theme: Theme) -> None:
    """The static parts around the road, drawn once into the cached background: panels and gates."""
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(layout.header, radius=layout.u(5), fill=theme.panel)
    font = load_font(layout.text_size, bold=True)
    for team in "AB":
        draw.rounded_rectangle(layout.home(team), radius=layout.u(5), fill=theme.panel)
        _gate(image, draw, layout, team, theme, font)


def _gate(image: Image.Image, draw: ImageDraw.ImageDraw, layout: Layout, team: str, theme: Theme, font: Font) -> None:
    x0, y0, x1, y1 = layout.gate(team)
    size = y1 - y0 - layout.u(4)
    colour, rim = (theme.team_a, theme.rim_a) if team == "A" else (theme.team_b, theme.rim_b)
    sprite = pieces.team_icon(team, size, colour, rim)
    left = (x0 + x1 - size) // 2
    image.paste(sprite, (left, (y0 + y1 - size) // 2), sprite)
    draw.text(((x0 + x1) // 2, (y0 + y1) // 2), team, font=font, fill=theme.ink, anchor="mm")


def _pip_states(position: Position, seat: str) -> list[str]:
    home = position.home(seat)
    killed = position.killed(seat)
    gone = position.gone(seat)
    road = PIECES_PER_SEAT - home - killed - gone
    return ["home"] * home + ["road"] * road + ["killed"] * killed + ["gone"] * gone


def _slot(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    layout: Layout,
    box: Box,
    seat: str,
    position: Position,
    theme: Theme,
    digit: int,
    font: Font,
) -> None:
    x0, y0, x1, y1 = box
    cy = (y0 + y1) // 2
    icon = y1 - y0 - layout.u(5)
    x = x0 + layout.u(3)
    sprite = pieces.icon(seat, icon, theme.name, digit)
    image.paste(sprite, (x, cy - icon // 2), sprite)
    x += icon + layout.u(2)
    waiting = str(position.home(seat))
    size = layout.text_size
    put_text(image, (x, cy), waiting, size, theme.text, "lm")
    x += int(text_width(waiting, size)) + layout.u(3)
    room = x1 - layout.u(2) - x
    pip = layout.u(7)
    if room >= PIECES_PER_SEAT * (pip + layout.u(1)):
        for k, state in enumerate(_pip_states(position, seat)):
            sprite = pieces.pip(seat, state, pip, theme.name)
            image.paste(sprite, (x + k * (pip + layout.u(1)), cy - pip // 2), sprite)
        return
    # Too narrow for five pips (many seats): the losses as counts, killed first.
    for state, count in (("killed", position.killed(seat)), ("gone", position.gone(seat))):
        if not count:
            continue
        text = str(count)
        need = pip + int(text_width(text, size)) + layout.u(2)
        if need > x1 - x:
            break
        sprite = pieces.pip(seat, state, pip, theme.name)
        image.paste(sprite, (x, cy - pip // 2), sprite)
        x += pip
        put_text(image, (x, cy), text, size, theme.capture if state == "killed" else theme.muted, "lm")
        x += int(text_width(text, size)) + layout.u(2)


# -- caption -------------------------------------------------------------------------------------------


def draw_caption(image: Image.Image, layout: Layout, theme: Theme, text: str) -> None:
    """A replay frame's line under the board: the move number, who moved and what happened."""
    if layout.caption is None:
        return
    x0, y0, x1, y1 = layout.caption
    size = layout.text_size
    put_text(image, (x0, (y0 + y1) // 2), fit(text, size, x1 - x0), size, theme.text, "lm")
