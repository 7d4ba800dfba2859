"""The parts of a board image around the road: the header, the two homes and a replay frame's caption.

The header reads as words: its first line says whose turn it is (seat and player's name) and shows the
turn's throws, or, once the game is over, who won and the final score; its second line gives each team's
score and the "who is ahead" bar with the leader's chance in per cent. Each home is a strip with its
gate (the team's shape and letter, where stacks enter and arrive) and a slot per seat: the seat's piece,
how many wait at home, and what became of its five pieces. Every word comes from the caller's texts
(`texts.py`). Records shapes into a scene (`scene.Recorder`); never paints, encodes or reads files.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from puluc import Position, Throw
from puluc.rules import PIECES_PER_SEAT

from .fonts import text_width
from .layout import Box, Layout
from .scene import NO_GROUP, Recorder
from .sticks import draw_throws, throws_width
from .texts import fill
from .theme import Theme

ELLIPSIS = "…"


@dataclass(frozen=True, slots=True)
class Ended:
    """A game that ended off the board, which its position alone cannot tell: a resignation or a time-out
    (`winner`: "A" or "B") or a call-off (`winner` None). The header then says who won, or that the game was
    called off, with the score as it stood, and shows nobody to move and no throws."""

    winner: str | None = None

    def __post_init__(self) -> None:
        if self.winner not in ("A", "B", None):
            raise ValueError(f"an ended game's winner is 'A', 'B' or None, not {self.winner!r}")


class Result(NamedTuple):
    """How a game over stands: the winning team (None: a draw or a call-off) and the final score."""

    winner: str | None
    scores: Mapping[str, int]
    called_off: bool = False


def result(position: Position, ended: Ended | None = None) -> Result | None:
    """The game's result: from the board when it ended there, else from `ended`; None while it runs."""
    outcome = position.outcome()
    if outcome is not None:
        return Result(outcome.winner, outcome.scores)
    if ended is None:
        return None
    return Result(ended.winner, position.scores(), called_off=ended.winner is None)


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
    ended: Ended | None = None,
) -> str:
    """The header's first line: who won and the final score (or that the game was called off), or whose turn
    it is (seat and name).

    `shorten(name, rest)` may cut a long name to fit beside the rest of the line.
    """
    over = result(position, ended)
    if over is not None:
        scores = over.scores
        if over.winner is None:
            key = "called_off" if over.called_off else "draw"
            return fill(texts, key, score=f"{scores['A']}–{scores['B']}")
        other = "B" if over.winner == "A" else "A"
        return fill(texts, "wins", team=over.winner, score=f"{scores[over.winner]}–{scores[other]}")
    seat = position.to_move
    key = "to_throw" if position.must_throw else "to_move"
    name = names.get(seat)
    if not name:
        return fill(texts, key, seat=seat)
    plain = fill(texts, key + "_named", seat=seat, name="")
    return fill(texts, key + "_named", seat=seat, name=shorten(name, plain))


# -- header --------------------------------------------------------------------------------------------


def draw_header(
    draw: Recorder,
    layout: Layout,
    position: Position,
    theme: Theme,
    throws: Sequence[Throw] | None,
    advantage: float | None,
    names: Mapping[str, str],
    texts: Mapping[str, str],
    ended: Ended | None = None,
) -> None:
    over = result(position, ended)
    turn = None if over is not None else position.to_move
    with draw.group(header="", turn=turn, winner=over.winner if over is not None else None):
        _turn_line(draw, layout, position, theme, throws, names, texts, over, ended)
        scores = position.scores() if draw.named else None
        with draw.group(score=f"{scores['A']}-{scores['B']}" if scores is not None else None):
            _score_line(draw, layout, position, theme, advantage, texts, layout.lines[1])


def _turn_line(
    draw: Recorder,
    layout: Layout,
    position: Position,
    theme: Theme,
    throws: Sequence[Throw] | None,
    names: Mapping[str, str],
    texts: Mapping[str, str],
    over: Result | None,
    ended: Ended | None,
) -> None:
    size = layout.text_size
    first = layout.lines[0]
    x0, y0, x1, y1 = first
    cy = (y0 + y1) // 2
    icon = y1 - y0 - layout.u(3)
    sticks_room = 0
    if throws and over is None and not position.must_throw:
        # Only the throws of the player to move: before they throw, the last mover's sticks would mislead.
        sticks_room = throws_width(len(throws), icon, layout.text_size) + layout.u(4)
        used = _used(throws, position.pending)
        box = (x1 - sticks_room + layout.u(4), cy - icon // 2, x1, cy + icon // 2)
        with draw.group(throws=" ".join(str(t.value) for t in throws)):
            draw_throws(draw, box, throws, theme, used, layout.text_size)
    elif position.pending and over is None and not throws:
        x = x1
        for value in reversed(position.pending):
            box = (x - icon, cy - icon // 2, x, cy + icon // 2)
            draw.rounded_rectangle(box, radius=layout.u(3), outline=theme.muted, width=max(1, layout.u(1.2)))
            draw.text(((box[0] + box[2]) // 2, cy), str(value), size, theme.text, "mm")
            x -= icon + layout.u(3)
        sticks_room = x1 - x
    room = x1 - sticks_room - layout.u(4) - x0 - icon - layout.u(4)
    text = turn_line(position, names, texts, lambda name, plain: fit(name, size, room - text_width(plain, size)),
                     ended)
    if over is not None:
        if over.winner is not None:
            colour = theme.team_a if over.winner == "A" else theme.team_b
            rim = theme.rim_a if over.winner == "A" else theme.rim_b
            draw.sprite("team_icon", (over.winner, icon, colour, rim), (x0, cy - icon // 2), (icon, icon))
        draw.text((x0 + icon + layout.u(4), cy), fit(text, size, room), size, theme.last_move, "lm")
    else:
        digit = layout.text_size if layout.team_size > 1 else 0
        draw.sprite("icon", (position.to_move, icon, theme.name, digit), (x0, cy - icon // 2), (icon, icon))
        draw.text((x0 + icon + layout.u(4), cy), fit(text, size, room), size, theme.text, "lm")


def score_words(position: Position, advantage: float | None, texts: Mapping[str, str]) -> str:
    """The header's second line in words: "Score A 2, B 1. A 62%" (for the SVG's description)."""
    scores = position.scores()
    words = f"{texts['score']}: A {scores['A']}, B {scores['B']}."
    if advantage is None:
        return words
    leader = "A" if advantage >= 0.5 else "B"
    share = advantage if leader == "A" else 1 - advantage
    return f"{words} {fill(texts, 'chance', team=leader, percent=round(share * 100))}."


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
    draw: Recorder,
    layout: Layout,
    position: Position,
    theme: Theme,
    advantage: float | None,
    texts: Mapping[str, str],
    line: Box,
) -> None:
    x0, y0, _, y1 = line
    cy = (y0 + y1) // 2
    icon = (y1 - y0) * 2 // 3
    label = texts["score"]
    size = layout.text_size
    draw.text((x0, cy), label, size, theme.muted, "lm")
    x = x0 + int(text_width(label, size)) + layout.u(5)
    scores = position.scores()
    for team, colour, rim in (("A", theme.team_a, theme.rim_a), ("B", theme.team_b, theme.rim_b)):
        draw.sprite("team_icon", (team, icon, colour, rim), (x, cy - icon // 2), (icon, icon))
        x += icon + layout.u(3)
        text = f"{team} {scores[team]}"
        draw.text((x, cy), text, size, theme.text, "lm")
        x += int(text_width(text, size)) + layout.u(8)
    if advantage is None:
        return
    leader = "A" if advantage >= 0.5 else "B"
    share = advantage if leader == "A" else 1 - advantage
    caption = fill(texts, "chance", team=leader, percent=round(share * 100))
    bar = advantage_box(layout)
    right = bar[0] - layout.u(12)
    with draw.group(advantage=f"{advantage:.3f}", leader=leader, percent=round(share * 100)):
        draw.text((right, cy), fit(caption, size, right - x), size, theme.text, "rm")
        draw_advantage(draw, bar, theme, advantage, layout.u(4))


def advantage_box(layout: Layout) -> Box:
    """Where the "who is ahead" bar's track sits: the right part of the header's second line."""
    x0, y0, x1, y1 = layout.lines[1]
    cy = (y0 + y1) // 2
    return (x1 - round((x1 - x0) * 0.28), cy - layout.u(3.5), x1 - layout.u(9), cy + layout.u(3.5))


def draw_advantage(draw: Recorder, box: Box, theme: Theme, advantage: float, marker: int) -> None:
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


def draw_homes(draw: Recorder, layout: Layout, position: Position, theme: Theme, ended: Ended | None = None) -> None:
    """Both homes: every seat's slot; the seat to move (none once the game is over) is framed in the text colour."""
    digit = layout.text_size if layout.team_size > 1 else 0
    to_move = None if position.is_over or ended is not None else position.to_move
    for team in "AB":
        with draw.group(home=team):
            for i, box in enumerate(layout.home_slots(team)):
                seat = f"{team}{i + 1}"
                counts = _Counts(position.home(seat), position.killed(seat), position.gone(seat))
                seat_group = draw.group(
                    seat=seat,
                    waiting=counts.home,
                    killed=counts.killed,
                    gone=counts.gone,
                    to_move="true" if seat == to_move else None,
                ) if draw.named else NO_GROUP
                with seat_group:
                    if seat == to_move:
                        frame = (box[0], box[1] + 1, box[2] - 1, box[3] - 2)
                        draw.rounded_rectangle(frame, radius=layout.u(4), outline=theme.text,
                                               width=max(2, layout.u(1.2)))
                    _slot(draw, layout, box, seat, counts, theme, digit)


def draw_frames(draw: Recorder, layout: Layout, theme: Theme) -> None:
    """The static parts around the road, drawn once into the cached background: panels and gates (where
    stacks enter the road from a home and arrive at one)."""
    draw.rounded_rectangle(layout.header, radius=layout.u(5), fill=theme.panel)
    for team in "AB":
        draw.rounded_rectangle(layout.home(team), radius=layout.u(5), fill=theme.panel)
        with draw.group(entry=team):
            _gate(draw, layout, team, theme)


def _gate(draw: Recorder, layout: Layout, team: str, theme: Theme) -> None:
    x0, y0, x1, y1 = layout.gate(team)
    size = y1 - y0 - layout.u(4)
    colour, rim = (theme.team_a, theme.rim_a) if team == "A" else (theme.team_b, theme.rim_b)
    left = (x0 + x1 - size) // 2
    draw.sprite("team_icon", (team, size, colour, rim), (left, (y0 + y1 - size) // 2), (size, size))
    draw.text(((x0 + x1) // 2, (y0 + y1) // 2), team, layout.text_size, theme.ink, "mm")


class _Counts(NamedTuple):
    """What became of a seat's five pieces: waiting at home, killed, gone (burned or spent); the rest are on the
    road."""

    home: int
    killed: int
    gone: int


def _pip_states(counts: _Counts) -> list[str]:
    home, killed, gone = counts
    road = PIECES_PER_SEAT - home - killed - gone
    return ["home"] * home + ["road"] * road + ["killed"] * killed + ["gone"] * gone


def _slot(
    draw: Recorder,
    layout: Layout,
    box: Box,
    seat: str,
    counts: _Counts,
    theme: Theme,
    digit: int,
) -> None:
    x0, y0, x1, y1 = box
    cy = (y0 + y1) // 2
    icon = y1 - y0 - layout.u(5)
    x = x0 + layout.u(3)
    draw.sprite("icon", (seat, icon, theme.name, digit), (x, cy - icon // 2), (icon, icon))
    x += icon + layout.u(2)
    waiting = str(counts.home)
    size = layout.text_size
    draw.text((x, cy), waiting, size, theme.text, "lm")
    x += int(text_width(waiting, size)) + layout.u(3)
    room = x1 - layout.u(2) - x
    pip = layout.u(7)
    if room >= PIECES_PER_SEAT * (pip + layout.u(1)):
        for k, state in enumerate(_pip_states(counts)):
            draw.sprite("pip", (seat, state, pip, theme.name), (x + k * (pip + layout.u(1)), cy - pip // 2), (pip, pip))
        return
    # Too narrow for five pips (many seats): the losses as counts, killed first.
    for state, count in (("killed", counts.killed), ("gone", counts.gone)):
        if not count:
            continue
        text = str(count)
        need = pip + int(text_width(text, size)) + layout.u(2)
        if need > x1 - x:
            break
        draw.sprite("pip", (seat, state, pip, theme.name), (x, cy - pip // 2), (pip, pip))
        x += pip
        draw.text((x, cy), text, size, theme.capture if state == "killed" else theme.muted, "lm")
        x += int(text_width(text, size)) + layout.u(2)


# -- caption -------------------------------------------------------------------------------------------


def draw_caption(draw: Recorder, layout: Layout, theme: Theme, text: str) -> None:
    """A replay frame's line under the board: the move number, who moved and what happened."""
    if layout.caption is None:
        return
    x0, y0, x1, y1 = layout.caption
    size = layout.text_size
    draw.text((x0, (y0 + y1) // 2), fit(text, size, x1 - x0), size, theme.text, "lm")
