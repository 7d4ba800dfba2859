"""Computer players and position analysis for Puluc: `choose_move`, `hint`, `win_probability`, `win_chance`.

Levels: `easy` plays a random legal move, `medium` the best move by a one-ply look with a simple
evaluation (evaluate.py), `hard` searches expectiminimax over the sticks' real probabilities (search.py)
with a learned evaluation of the chance to win that sees threats (features.py). Every call is pure: the
same position, level, rng state and budget give the same answer, because work is budgeted in nodes
and playout moves calibrated on the development machine, not in wall time. A wall-clock deadline of
SAFETY_FACTOR times the budget is only a safety net for a much slower machine. Safe to call from worker
threads; no I/O, nothing global that changes except read-only per-rules caches.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from ..errors import ErrorCode, InvalidRequestError, NoMoveToChooseError
from ..position import Move, Position
from ..rules import Rules
from .chance import bar_chance, win_chance
from .evaluate import SIMPLE_WEIGHTS, evaluate, model_for, terminal_value
from .playout import estimate
from .search import SearchResult, position_value, search, turn_ends

__all__ = [
    "LEVELS",
    "Hint",
    "NoMoveToChoose",
    "bar_chance",
    "choose_move",
    "hint",
    "medium_moves",
    "nodes_for",
    "win_chance",
    "win_probability",
]

LEVELS = ("easy", "medium", "hard")

#: Search nodes per millisecond of budget on a road of 9 cells. A search with the learned evaluation
#: measured 150 to 225 nodes/ms on the development machine (one core: Bell 175, ants 150, traditional ants
#: 2 v 2 225; slower on busy positions and a loaded machine), so 80 keeps even slow searches within budget
#: there; the p95 move time that `benchmarks/ai.py` prints is the check. Longer roads cost more per node
#: (see `nodes_for`). In 1 v 1 games with one throw a turn the search stops at four turns (search.MAX_DEPTH),
#: usually well within the budget; team games and two-throw turns use the budget to search deeper.
NODES_PER_MS = 80
#: A node's cost grows with the road (every move copies the board, every evaluation reads it): measured
#: about 2.8 + 0.19 L µs (Bell, L = 9: 220 nodes/ms; traditional ants 2 v 2, L = 19: 155 nodes/ms).
_COST_OFFSET_CELLS = 15
#: Playout moves per millisecond of budget for `win_probability`: `--calibrate` measured 180 moves/ms
#: filling about the whole budget on the development machine, so 130 leaves a margin of about 30%.
PLAYOUT_MOVES_PER_MS = 130
#: The wall-clock safety net: a call gives up deepening after SAFETY_FACTOR x budget (+ a floor), which
#: only a machine several times slower than the calibration machine ever reaches. (The benchmarks set it to
#: infinity, so that their results depend on the node budget alone, never on the machine's load.)
SAFETY_FACTOR = 3.0
SAFETY_FLOOR_MS = 100.0


#: The position has no legal move to choose: the player must throw first, or the game is over
#: (puluc.errors.NoMoveToChooseError, the engine's error family; this name is kept for callers of puluc.ai).
NoMoveToChoose = NoMoveToChooseError


@dataclass(frozen=True, slots=True)
class Hint:
    """The hard player's advice: its move, the move's expected value and the other moves, best first.

    Values are the search's estimate of the mover's team's chance to win (0 to 1) after each move: the
    expected value of a logistic model fitted to Bell game results (features.py), not a playout count.
    """

    move: Move
    expected_value: float
    alternatives: tuple[tuple[Move, float], ...]
    depth: int  #: turns searched


def choose_move(
    position: Position, level: str = "hard", rng: random.Random | None = None, budget_ms: float = 300
) -> Move:
    """One legal move of `position` for its seat at `level` ("easy", "medium" or "hard")."""
    _check(position, budget_ms)
    if level not in LEVELS:
        raise InvalidRequestError(
            f"unknown level {level!r}; choose one of {', '.join(LEVELS)}",
            ErrorCode.UNKNOWN_CHOICE,
            field="level",
            value=level,
            choices=LEVELS,
        )
    rng = rng if rng is not None else random.Random()
    moves = position.legal_moves()
    if len(moves) == 1:
        return moves[0]
    if level == "easy":
        return moves[int(rng.random() * len(moves))]
    if level == "medium":
        return _pick_best(_greedy_scores(position), rng)
    if len(position.pending) > 1 and len(turn_ends(position)) == 1:
        # Every way to play the throws ends the turn alike (common with one active piece): nothing to weigh.
        return _pick_best([(move, 0.0) for move in moves], rng)
    result = _search(position, budget_ms)
    return _pick_best(list(result.scored), rng)


def hint(position: Position, rng: random.Random | None = None, budget_ms: float = 300) -> Hint:
    """The hard player's choice with its expected value (for `/puluc hint`), and the alternatives."""
    _check(position, budget_ms)
    rng = rng if rng is not None else random.Random()
    result = _search(position, budget_ms)
    scored = list(result.scored)
    move = _pick_best(scored, rng)
    value = next(v for m, v in scored if m == move)
    others = tuple((m, _chance(v)) for m, v in scored if m != move)
    return Hint(move, _chance(value), others, result.depth)


def win_probability(position: Position, rng: random.Random | None = None, budget_ms: float = 100) -> float:
    """Team A's chance to win from `position` (draws count half).

    A finished game gives exactly 1.0, 0.0 or 0.5. Under the Bell route with one player a side and one
    throw a turn (the rules the learned evaluation was fitted to) it is the hard player's search value within
    the budget; elsewhere it is random playouts, whose error falls as 1 / sqrt(budget_ms). How far each is
    from the exact chances: docs/AI.md, "The advantage bar". A "who is ahead" bar, not an oracle.
    """
    if not isinstance(position, Position):
        raise TypeError(f"position must be a puluc Position, not {type(position).__name__}")
    _check_budget(budget_ms)
    if position.is_over:
        diff = terminal_value(position)
        return 1.0 if diff > 0 else 0.0 if diff < 0 else 0.5
    deadline = time.perf_counter() + _safety_seconds(budget_ms)
    rules = position.rules
    if rules.route == "army" and rules.team_size == 1 and rules.throws_per_turn == 1:
        value, _depth = position_value(model_for(rules), position, nodes_for(rules, budget_ms), deadline)
        return (1.0 + value) / 2.0
    rng = rng if rng is not None else random.Random()
    value, _count = estimate(position, rng, int(budget_ms * PLAYOUT_MOVES_PER_MS), deadline)
    return value


# -- helpers ----------------------------------------------------------------------------------------------


def _check(position: Position, budget_ms: float) -> None:
    if not isinstance(position, Position):
        raise TypeError(f"position must be a puluc Position, not {type(position).__name__}")
    _check_budget(budget_ms)
    if position.is_over:
        raise NoMoveToChooseError(
            "the game is over: there is no move to choose", ErrorCode.GAME_OVER, seat=position.to_move
        )
    if position.must_throw:
        raise NoMoveToChooseError(
            f"{position.to_move} must throw before a move can be chosen",
            ErrorCode.MUST_THROW_FIRST,
            seat=position.to_move,
        )


def _check_budget(budget_ms: float) -> None:
    if isinstance(budget_ms, bool) or not isinstance(budget_ms, int | float) or not budget_ms > 0:
        raise InvalidRequestError(
            f"budget_ms must be a positive number of milliseconds, not {budget_ms!r}",
            ErrorCode.NOT_A_POSITIVE_NUMBER,
            field="budget_ms",
            value=budget_ms,
        )


def _safety_seconds(budget_ms: float) -> float:
    return max(budget_ms * SAFETY_FACTOR, budget_ms + SAFETY_FLOOR_MS) / 1000


def nodes_for(rules: Rules, budget_ms: float) -> int:
    """The search's node budget for `budget_ms` under `rules`: a fixed function, so searches are reproducible."""
    scale = (_COST_OFFSET_CELLS + 9) / (_COST_OFFSET_CELLS + rules.road_length)
    return max(1, int(budget_ms * NODES_PER_MS * scale))


def _search(position: Position, budget_ms: float) -> SearchResult:
    deadline = time.perf_counter() + _safety_seconds(budget_ms)
    return search(model_for(position.rules), position, nodes_for(position.rules, budget_ms), deadline)


def _chance(utility: float) -> float:
    """A search value (-1 lost .. +1 won) as a chance to win, rounded for display."""
    return round((1.0 + utility) / 2.0, 3)


def _greedy_scores(position: Position) -> list[tuple[Move, float]]:
    """Medium's view: each legal move with the simple evaluation of the position right after it, for the mover."""
    model = model_for(position.rules)
    sign = 1.0 if position.turn_index & 1 == 0 else -1.0
    return [(move, sign * evaluate(model, position.play(move), SIMPLE_WEIGHTS)) for move in position.legal_moves()]


def medium_moves(position: Position) -> list[Move]:
    """The moves medium rates best in `position` (it picks one of them at random): for exact analyses."""
    return _best_moves(_greedy_scores(position))


def _best_moves(scored: list[tuple[Move, float]]) -> list[Move]:
    """The best-valued moves, equal values (within rounding) included, in the order given."""
    best = max(v for _, v in scored)
    return [m for m, v in scored if v >= best - 1e-9]


def _pick_best(scored: list[tuple[Move, float]], rng: random.Random) -> Move:
    """The best-valued move; equal values (within rounding) are broken by the rng, for varied games."""
    tied = _best_moves(scored)
    return tied[int(rng.random() * len(tied))] if len(tied) > 1 else tied[0]
