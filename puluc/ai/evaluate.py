"""Hand-weighted evaluation (the medium player's) and the per-rules Model that every player shares.

`evaluate` says how good a position is for team A, in pieces; the hard player's search uses the learned
evaluation in features.py instead, which predicts game results better (see there).

The value is the score difference (kills plus captives held, RULES.md §7) corrected by what the sticks are
likely to do next: the seat about to throw gets the expected value of its best capture for each throw
(a one-throw quiescence done analytically), the seat after it gets a smaller share of its own threats,
free pieces count a little (fire and eagles remove pieces without scoring), and captives gain value as
their stack nears its arrival, where they die. Everything is read from the position's internals and the
route tables; this module never moves pieces, never searches and keeps no mutable state.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..position import DIRECTION, TOP, Position
from ..routes import ARRIVE, INBOUND, LAND, OUTBOUND, RouteTables, tables_for
from ..rules import Rules
from ..sticks import throw_probabilities

#: Bonus for a won game on top of its final score difference: a win beats any unfinished lead.
WIN_BONUS = 3.0


@dataclass(frozen=True, slots=True)
class Weights:
    """The evaluation's knobs, in pieces.

    The defaults were chosen with short Bell tournaments against the medium player; the variations tried
    (threat shares 0.6 to 1.4, progress 0 to 0.5, weights from a logistic fit of game results) all landed
    within the tournaments' noise of each other, so these are sensible rather than sharply optimal.
    """

    mover_threat: float = 0.9  #: share of the best expected capture of the seat about to throw
    next_threat: float = 0.35  #: share of the next seat's expected capture (the mover may still dodge)
    free: float = 0.25  #: per piece at home or on the road not held captive
    captive_progress: float = 0.3  #: per captive, times its stack's progress to arrival (0..1)
    piece_progress: float = 0.05  #: per own piece on the road, times its progress


DEFAULT_WEIGHTS = Weights()
#: A simpler evaluation for the medium player, read after its own move: captures, the threats of the seat
#: about to throw (usually the opponent: safety from its likely throws), progress.
SIMPLE_WEIGHTS = Weights(mover_threat=0.6, next_threat=0.0, free=0.0, captive_progress=0.2, piece_progress=0.05)


class Model:
    """What the AI precomputes once per set of rules: throw outcomes and each cell's progress to arrival."""

    __slots__ = ("entry_progress", "pairs", "progress", "rules", "singles", "t", "turn_outcomes")

    def __init__(self, rules: Rules) -> None:
        t = tables_for(rules)
        self.rules = rules
        self.t: RouteTables = t
        probs = throw_probabilities(rules.sticks)
        #: (value, probability) of one throw, value 0 (no move) left out
        self.singles: tuple[tuple[int, float], ...] = tuple(sorted((n, p) for n, p in probs.items() if n))
        #: (low, high, probability) of an unordered pair of throws: their order is the player's choice
        pairs: dict[tuple[int, int], float] = {}
        for a, pa in probs.items():
            for b, pb in probs.items():
                key = (min(a, b), max(a, b))
                pairs[key] = pairs.get(key, 0.0) + pa * pb
        self.pairs: tuple[tuple[int, int, float], ...] = tuple((a, b, p) for (a, b), p in sorted(pairs.items()))
        #: what a turn's throw can bring: (values for Position.throw, probability)
        if rules.throws_per_turn == 1:
            self.turn_outcomes: tuple[tuple[tuple[int, ...], float], ...] = tuple(
                ((n,), p) for n, p in sorted(probs.items())
            )
        else:
            self.turn_outcomes = tuple(((a, b), p) for a, b, p in self.pairs)
        #: each stack's progress to arrival (the learned evaluation's), culin's walk back included
        self.progress = _progress_table(t, walk_back=True)
        #: the same measured from the entry, so 0 on the whole culin route: the hand-chosen evaluation's (medium's),
        #: kept as its weights were chosen (with culin's walk back, medium against easy measured no better)
        self.entry_progress = self.progress if rules.route != "culin" else _progress_table(t, walk_back=False)


@lru_cache(maxsize=64)
def model_for(rules: Rules) -> Model:
    """The shared, read-only model of `rules` (lru_cache is thread-safe; a Model never changes)."""
    return Model(rules)


def _progress_table(t: RouteTables, walk_back: bool) -> tuple[tuple[tuple[float, ...], ...], ...]:
    """progress[team][dir][cell index]: 0 at entry, near 1 just before arrival; 0 where a stack never arrives.

    Measured in steps of one along the route tables, so it holds for every route without route arithmetic.
    On the culin route a lone piece circles and never arrives (0 everywhere outbound); only a stack that
    captured walks back to arrive, so with `walk_back` the scale there is the longest such walk, from the far
    end of the road (without it, the scale from the entry is missing and every cell gives 0).
    """
    length = t.length

    def steps_to_arrive(team: int, d: int, i: int) -> int | None:
        for steps in range(1, 4 * length + 2):
            plan = t.fwd[team][d][i][1]
            if plan is None:
                return None
            if plan.kind != LAND:
                return steps
            i, d = plan.dest, plan.direction
        return None  # a lone culin piece walks in circles

    table = []
    for team in (0, 1):
        entry = t.enter[team][1]
        assert entry is not None  # a throw of 1 always enters
        full = steps_to_arrive(team, entry.direction, entry.dest)
        if full is None and walk_back:
            walks = [steps_to_arrive(team, INBOUND, i) for i in range(length)]
            full = max((w for w in walks if w is not None), default=None)
        rows = []
        for d in (OUTBOUND, INBOUND):
            row = []
            for i in range(length):
                left = steps_to_arrive(team, d, i)
                row.append(0.0 if left is None or not full else max(0.0, 1.0 - (left - 1) / full))
            rows.append(tuple(row))
        table.append(tuple(rows))
    return tuple(table)


def capture_targets(model: Model, pos: Position, seat: int) -> list[int]:
    """targets[n]: the cells (a bit per cell index) of the enemy stacks `seat` could land on with a throw of n now,
    entering included, forward or (scorpion) backward; n runs 1 to 5, index 0 stays empty."""
    t = model.t
    board = pos.raw_board
    team = seat & 1
    targets = [0, 0, 0, 0, 0, 0]
    mine = [i for i, s in enumerate(board) if s is not None and s[TOP] == seat]
    can_enter = pos.raw_home[seat] > 0 and not (t.one_active and mine)
    enter = t.enter[team]
    fwd = t.fwd[team]
    back = t.back[team] if t.scorpion else None
    for n in range(1, 6):
        found = 0
        if can_enter:
            dest = enter[n].dest  # type: ignore[union-attr]
            target = board[dest]
            if target is not None and target[TOP] & 1 != team:
                found |= 1 << dest
        for i in mine:
            d = board[i][DIRECTION]  # type: ignore[index]
            plan = fwd[d][i][n]
            if plan is not None and plan.kind != ARRIVE:
                dest = plan.dest
                target = board[dest]
                if target is not None and dest != i and target[TOP] & 1 != team:
                    found |= 1 << dest
            if back is not None:
                plan = back[d][i][n]  # a backward move always lands on the road
                if plan is not None:
                    dest = plan.dest
                    target = board[dest]
                    if target is not None and dest != i and target[TOP] & 1 != team:
                        found |= 1 << dest
        targets[n] = found
    return targets


def capture_gains(model: Model, pos: Position, seat: int) -> list[int]:
    """gains[n]: the most pieces `seat` can capture with a throw of n now (0 when it cannot capture).

    Capturing a stack swings every piece in it: the enemy's become captives, the mover's team's are freed.
    """
    board = pos.raw_board
    gains = []
    for cells in capture_targets(model, pos, seat):
        best = 0
        for dest in range(len(board)):
            if cells >> dest & 1:
                best = max(best, len(board[dest]) - 1)  # type: ignore[arg-type]
        gains.append(best)
    return gains


def expected_gain(model: Model, gains: list[int], pending: tuple[int, ...]) -> float:
    """The best capture's expected size: over the known pending throws, or over the next turn's throws."""
    if pending:
        return float(max(gains[n] for n in pending))
    if model.t.throws_per_turn == 1:
        return sum(p * gains[n] for n, p in model.singles)
    return sum(p * max(gains[a], gains[b]) for a, b, p in model.pairs)


def terminal_value(pos: Position) -> float:
    """A finished game for team A: the final score difference, plus or minus WIN_BONUS for the result."""
    scores = pos.scores()
    diff = scores["A"] - scores["B"]
    return diff + (WIN_BONUS if diff > 0 else -WIN_BONUS if diff < 0 else 0.0)


def evaluate(model: Model, pos: Position, weights: Weights = DEFAULT_WEIGHTS) -> float:
    """The value of `pos` for team A, in pieces (positive: A is ahead)."""
    if pos.is_over:
        return terminal_value(pos)
    progress = model.entry_progress
    score = [0, 0]
    free = [0, 0]
    ahead = [0.0, 0.0]
    w_cap = weights.captive_progress
    w_piece = weights.piece_progress
    for i, s in enumerate(pos.raw_board):
        if s is None:
            continue
        team = s[TOP] & 1
        caps = 0
        for seat in s[TOP + 1 :]:
            if seat & 1 != team:
                caps += 1
        own = len(s) - 1 - caps
        score[team] += caps
        free[team] += own
        pr = progress[team][s[DIRECTION]][i]
        if pr:
            ahead[team] += pr * (w_cap * caps + w_piece * own)
    for seat, k in enumerate(pos.raw_kills):
        score[seat & 1] += k
    for seat, h in enumerate(pos.raw_home):
        free[seat & 1] += h
    value = score[0] - score[1] + weights.free * (free[0] - free[1]) + ahead[0] - ahead[1]
    mover = pos.turn_index
    if weights.mover_threat:
        gain = expected_gain(model, capture_gains(model, pos, mover), pos.pending)
        value += weights.mover_threat * gain if mover & 1 == 0 else -weights.mover_threat * gain
    if weights.next_threat:
        nxt = (mover + 1) % model.t.seats
        gain = expected_gain(model, capture_gains(model, pos, nxt), ())
        value += weights.next_threat * gain if nxt & 1 == 0 else -weights.next_threat * gain
    return value
