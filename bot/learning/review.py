"""`/puluc review`'s work, done in a compute worker: a finished game's review for one seat, and its pictures.

`review(request)` runs `puluc.ai.review.review_game` (exact from the shipped Bell table, bot/exact/bell.bin, when
the game is Bell 1 v 1: the table the workers already load for the advantage bar; else the hard player's search
of every end of each turn), then draws the advantage chart of the seat's decisions with the costliest marked, and
the board before each of the costliest three with the move played (badge 1) and the better one (badge 2). Plain
data in, plain data out (picklable), so it crosses to a worker process; words come in already in the reader's
language. Never imports discord or the catalogues' loader.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass

from puluc import GameRecord, Move, Position, Throw, ThrowEvent

#: Costliest decisions shown with their boards.
SHOWN = 3
#: The search's budget per decision where no exact table covers the game (puluc.ai.review.REVIEW_BUDGET_MS).
REVIEW_BUDGET_MS = 25.0


@dataclass(frozen=True, slots=True)
class ReviewRequest:
    """What to review: the game's record, the seat, the players' names and the renderer's words."""

    record: GameRecord
    seat: str
    names: Mapping[str, str]
    texts: Mapping[str, str]
    budget_ms: float = REVIEW_BUDGET_MS
    theme: str = "dark"  #: the renderer theme of the pictures (the server's palette)


@dataclass(frozen=True, slots=True)
class Decided:
    """One decision of the seat: the turn it was in, the chance to win after it and after the best, the moves."""

    turn: int
    chance_played: float
    chance_best: float
    played: tuple[str, ...]
    best: tuple[str, ...]
    before: Position

    @property
    def cost(self) -> float:
        return max(0.0, self.chance_best - self.chance_played)


@dataclass(frozen=True, slots=True)
class ReviewResult:
    """The review of one seat: how it was found (`puluc.ai.review.EXACT` or `SEARCH`), each decision, the
    costliest (indices into `decisions`, costliest first), the chart and its points (turn, team A's chance after
    the decision), and the board before each costliest decision."""

    seat: str
    method: str
    decisions: tuple[Decided, ...]
    costliest: tuple[int, ...]
    chart: bytes | None
    points: tuple[tuple[int, float], ...]
    boards: tuple[bytes, ...]
    cpu_ms: float


def _turns(record: GameRecord) -> dict[int, int]:
    """Each throw event's turn number (1 for the first throw of the game)."""
    found: dict[int, int] = {}
    turn = 0
    for number, event in enumerate(record.events):
        if isinstance(event, ThrowEvent):
            turn += 1
            found[number] = turn
    return found


def review(request: ReviewRequest) -> ReviewResult:
    """Review `request.seat`'s decisions in the game and draw what `/puluc review` shows."""
    from bot.exact import bell_table
    from puluc.ai.review import review_game
    from renderer import label_target, render_board, render_chart

    started = time.thread_time()
    record = request.record
    found = review_game(record, request.seat, bell_table(), request.budget_ms)
    turns = _turns(record)
    team_a = request.seat.startswith("A")
    decisions = tuple(
        Decided(turns.get(d.event, 0), d.chance_played, d.chance_best, tuple(map(str, d.played)),
                tuple(map(str, d.best)), d.before)
        for d in found.decisions
    )
    index = {d.event: i for i, d in enumerate(found.decisions)}
    costliest = tuple(index[d.event] for d in found.costliest(SHOWN))
    points = tuple((d.turn, d.chance_played if team_a else 1.0 - d.chance_played) for d in decisions)
    chart = None
    if len(points) >= 2:
        marks = [decisions[i].turn for i in costliest]
        chart = render_chart(list(points), kind="advantage", texts=request.texts, marks=marks, theme=request.theme)
    boards = []
    for i in costliest:
        decided = decisions[i]
        before = decided.before
        played = before.move_effect(Move.parse(decided.played[0]))
        better = before.move_effect(Move.parse(decided.best[0]))
        labels: dict[int | str, str] = {label_target(before.rules, better): "2"}
        labels[label_target(before.rules, played)] = "1" if labels.get(
            label_target(before.rules, played)) is None else "1,2"
        boards.append(render_board(before, last_move=False, labels=labels, throw=_throws(before),
                                   names=request.names, texts=request.texts, theme=request.theme))
    return ReviewResult(request.seat, found.method, decisions, costliest, chart, points, tuple(boards),
                        (time.thread_time() - started) * 1000)


def _throws(position: Position) -> list[Throw] | None:
    if not position.pending:
        return None
    return [Throw.for_value(value, position.rules.sticks) for value in position.pending]
