"""A finished game's review: for each decision of one seat, the chance to win it kept and the chance it gave away.

A decision is a turn of the seat with a real choice: its throws could end the turn in more than one way (a turn
of two throws is one decision, both moves together). For each, `review_game` gives the seat's team's chance to
win after the turn as played and after the best way to play it, so the cost of the decision is their difference.
The chances are exact where an `ExactTable` of the game's rules is given (Bell 1 v 1: `method == EXACT`), else
the hard player's: every end of the turn searched to the same depth within a budget (`method == SEARCH`). Pure:
the same record, seat, table and budget give the same review; no I/O.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..errors import ErrorCode, InvalidSeatError
from ..position import Move, Position
from ..record import Event, GameRecord, MoveEvent, ThrowEvent
from . import _check_budget, _safety_seconds, nodes_for
from .evaluate import model_for
from .exact import ExactTable
from .search import end_values

__all__ = ["EXACT", "SEARCH", "Decision", "Review", "review_game"]

#: How the chances of a review were found: from an exact table, or by the hard player's search.
EXACT = "exact"
SEARCH = "search"
#: The search's budget per decision, in milliseconds of the calibrated node rate (puluc.ai.nodes_for).
REVIEW_BUDGET_MS = 25.0


@dataclass(frozen=True, slots=True)
class Decision:
    """One turn of the reviewed seat with a real choice, and what the choice cost.

    `event` numbers the position before the turn's throw among the record's positions (`GameRecord.positions`,
    the start being 0), as an advantage chart numbers its points; `before` is the position with the throws in
    hand, the board the player decided on. Chances are the seat's team's, from 0 to 1.
    """

    event: int
    before: Position
    played: tuple[Move, ...]
    best: tuple[Move, ...]
    chance_played: float
    chance_best: float

    @property
    def cost(self) -> float:
        """The chance to win the decision gave away: 0 for a best one."""
        return max(0.0, self.chance_best - self.chance_played)


@dataclass(frozen=True, slots=True)
class Review:
    """A seat's decisions in one game, in the order played, and how their chances were found (EXACT or SEARCH)."""

    seat: str
    method: str
    decisions: tuple[Decision, ...]

    def costliest(self, count: int = 3) -> tuple[Decision, ...]:
        """The `count` decisions that gave away the most, costliest first (the earlier first on a tie); only
        those that cost something."""
        ranked = sorted((d for d in self.decisions if d.cost > 0), key=lambda d: (-d.cost, d.event))
        return tuple(ranked[:count])

    @property
    def total_cost(self) -> float:
        """The chance to win all the seat's decisions gave away together."""
        return sum(d.cost for d in self.decisions)


def _turn_lines(pos: Position) -> dict[tuple[object, ...], tuple[tuple[Move, ...], Position]]:
    """Every distinct end of the turn of `pos` (throws in hand), by its key, with a first way to reach it."""
    ends: dict[tuple[object, ...], tuple[tuple[Move, ...], Position]] = {}
    todo: list[tuple[tuple[Move, ...], Position]] = [((), pos)]
    while todo:
        line, here = todo.pop()
        for move in here.legal_moves():
            child = here.play(move)
            if child.pending and not child.is_over and child.turn_index == pos.turn_index:
                todo.append(((*line, move), child))
            else:
                ends.setdefault(child.raw_key(), ((*line, move), child))
    return ends


def review_game(
    record: GameRecord, seat: str, exact: ExactTable | None = None, budget_ms: float = REVIEW_BUDGET_MS
) -> Review:
    """Review `seat`'s decisions in `record`: exact when `exact` covers the game's rules, else by search.

    >>> import random
    >>> from puluc import Game, Rules, Throw
    >>> game = Game.new(Rules.preset("ants"), random.Random(1), first="A")
    >>> for throw, move in ((2, "2:H"), (1, "1:H"), (3, "3:2"), (2, "2:H")):
    ...     _ = game.throw([Throw.for_value(throw, "bell")]), game.play(move)
    >>> review = review_game(game.record, "A1", budget_ms=5)
    >>> review.method, [(d.event, [str(m) for m in d.played]) for d in review.decisions]
    ('search', [(4, ['3:2'])])
    """
    if seat not in record.rules.seats:
        raise InvalidSeatError(
            f"{seat!r} is no seat of this {record.rules.team_size} v {record.rules.team_size} game",
            ErrorCode.SEAT_NOT_IN_GAME,
            seat=seat,
            team_size=record.rules.team_size,
        )
    _check_budget(budget_ms)
    table = exact if exact is not None and exact.covers(record.rules) else None
    decisions: list[Decision] = []
    events = record.events
    for number, pos in enumerate(record.positions()):
        # A decision starts right after the seat's throw (event `number`), with the throws in hand.
        if not number or not isinstance(events[number - 1], ThrowEvent) or pos.to_move != seat:
            continue
        if pos.is_over or pos.must_throw:
            continue
        lines = _turn_lines(pos)
        if len(lines) < 2:
            continue
        played = _played_line(pos, events[number:])
        if played is not None:
            decision = _decide(number - 1, pos, played, lines, table, budget_ms)
            decisions.append(decision)
    return Review(seat, EXACT if table is not None else SEARCH, tuple(decisions))


def _played_line(pos: Position, events: list[Event]) -> tuple[tuple[Move, ...], Position] | None:
    """The moves the record played from `pos` until its seat's turn ended, and the end; None when the record
    stops before the turn ended."""
    line: list[Move] = []
    for event in events:
        if not isinstance(event, MoveEvent):
            break
        pos = pos.play(event.move)
        line.append(event.move)
        if pos.is_over or not pos.pending:
            return tuple(line), pos
    return None


def _decide(
    event: int,
    before: Position,
    played: tuple[tuple[Move, ...], Position],
    lines: dict[tuple[object, ...], tuple[tuple[Move, ...], Position]],
    table: ExactTable | None,
    budget_ms: float,
) -> Decision:
    team = before.turn_index & 1
    if table is not None:
        chances = {key: table.end_chance(end, team) for key, (_, end) in lines.items()}
    else:
        model = model_for(before.rules)
        deadline = time.perf_counter() + _safety_seconds(budget_ms)
        valued, _depth = end_values(model, before, nodes_for(before.rules, budget_ms), deadline)
        chances = {end.raw_key(): (1.0 + value) / 2.0 for end, value in valued}
    best_key = max(chances, key=lambda key: chances[key])  # the first of equal ones, in a fixed order
    played_moves, played_end = played
    chance_played = chances[played_end.raw_key()]  # the played end is one of the turn's ends
    return Decision(event, before, played_moves, lines[best_key][0], chance_played, chances[best_key])
