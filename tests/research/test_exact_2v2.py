"""research/exact_2v2: its moves and its port of medium agree with puluc, and its exact values equal an exhaustive
expectimax over puluc's own positions (no canonical form, no symmetry) on a game small enough for Python."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from puluc import Position, Rules
from puluc.ai import medium_moves
from puluc.ai.evaluate import model_for
from puluc.ai.search import turn_ends
from tests.helpers import present
from tests.research import load_script

pytestmark = pytest.mark.skipif(
    shutil.which("cc") is None and shutil.which("gcc") is None, reason="research/exact_2v2.c needs a C compiler"
)


exact = load_script("research", "exact_2v2")


@pytest.fixture(scope="module")
def solver(tmp_path_factory: pytest.TempPathFactory) -> Path:
    compiled: Path = exact.compile_solver(tmp_path_factory.mktemp("exact_2v2"))
    return compiled


@pytest.mark.parametrize(("road", "pieces"), [(19, 5), (5, 2)])
def test_every_end_of_a_turn_and_medium_s_chances_match_puluc(solver: Path, road: int, pieces: int) -> None:
    problems, seen = exact.check(solver, road, pieces, 400, seed=7)
    # The sample exercises what can go wrong: turns with two ends, medium's ties, games that end.
    assert seen["two ends"] > 20 and seen["medium's tie"] > 0 and seen["game over"] > 0
    assert problems == []


def _medium_ends(pos: Position) -> dict[tuple[object, ...], tuple[Position, float]]:
    """The ends of the turn medium plays from `pos` (throws in hand), ties shared equally, by raw key."""
    out: dict[tuple[object, ...], tuple[Position, float]] = {}
    seat = pos.turn_index
    layer = [(pos, 1.0)]
    while layer:
        here, p = layer.pop()
        if here.is_over or not here.pending or here.turn_index != seat:
            out[here.raw_key()] = (here, out.get(here.raw_key(), (here, 0.0))[1] + p)
            continue
        chosen = medium_moves(here)
        layer += [(here.play(move), p / len(chosen)) for move in chosen]
    return out


def _expectimax(road: int, homes: tuple[int, ...]) -> tuple[float, float, float, float]:
    """Team A's exact chance against medium, A1 first and B1 first, when team A plays its best (br) and when it plays
    medium itself: every position puluc reaches, by value iteration from 0 (the least fixed point)."""
    rules = Rules.preset("ants", team_size=2, road_length=road)
    outcomes = model_for(rules).turn_outcomes
    index: dict[tuple[object, ...], int] = {}
    states: list[Position] = []

    def ref(end: Position) -> int:  # -1: team A won, -2: team B won, else a state's index
        if end.is_over:
            return -1 if present(end.outcome()).winner == "A" else -2
        if end.raw_key() not in index:
            index[end.raw_key()] = len(states)
            states.append(end)
        return index[end.raw_key()]

    for first in "AB":
        ref(exact.start(rules, homes, first))
    rows: list[list[tuple[float, list[int], list[float]]]] = []
    while len(rows) < len(states):
        pos = states[len(rows)]
        row = []
        for throws, p in outcomes:
            after = pos.throw(list(throws))
            if not after.pending:  # no move: the turn passed
                row.append((p, [ref(after)], [1.0]))
                continue
            medium = _medium_ends(after)
            ends = {e.raw_key(): e for e in turn_ends(after)} if after.turn_index & 1 == 0 else {}
            ends = ends or {key: end for key, (end, _) in medium.items()}
            chances = [medium[key][1] if key in medium else 0.0 for key in ends]
            row.append((p, [ref(end) for end in ends.values()], chances))
        rows.append(row)
    # Each row folded once: the chance-weighted sum over its states (medium's, and team B's turns under br)
    # and, on team A's turns, the throws whose best end br takes.
    linear: list[tuple[float, list[tuple[int, float]]]] = []
    choices: list[list[tuple[float, list[int]]]] = []
    for row in rows:
        constant, weights = 0.0, dict[int, float]()
        for p, refs, chances in row:
            for end, c in zip(refs, chances, strict=True):
                if end == -1:
                    constant += p * c
                elif end >= 0:
                    weights[end] = weights.get(end, 0.0) + p * c
        linear.append((constant, list(weights.items())))
        choices.append([(p, ends) for p, ends, _ in row])
    br = [0.0] * len(states)
    med = [0.0] * len(states)
    value = {-1: 1.0, -2: 0.0}
    delta = 1.0
    while delta > 1e-13:
        delta = 0.0
        for q, (constant, terms) in enumerate(linear):
            vm = constant + sum(w * med[x] for x, w in terms)
            if states[q].turn_index & 1 == 0:
                vb = sum(p * max(value[x] if x < 0 else br[x] for x in ends) for p, ends in choices[q])
            else:
                vb = constant + sum(w * br[x] for x, w in terms)
            delta = max(delta, abs(vb - br[q]) + abs(vm - med[q]))
            br[q], med[q] = vb, vm
    return br[0], br[1], med[0], med[1]


def test_exact_values_equal_an_exhaustive_expectimax_over_puluc_positions(solver: Path) -> None:
    # A1 and A2 against B1 with one piece each on the shortest road: captures, freed teammates, medium's ties.
    homes = (1, 1, 1, 0)
    got = exact.run_solver(solver, "solve", 5, homes)
    want = _expectimax(5, homes)
    assert got["best_response"][:2] == pytest.approx(want[:2], abs=1e-8)
    assert got["medium"][:2] == pytest.approx(want[2:], abs=1e-8)
    assert got["best_response"][0] > got["medium"][0] + 1e-3  # a choice that matters exists


def test_medium_against_itself_is_even_over_both_seat_orders(solver: Path) -> None:
    # Team A first and team B first mirror each other, so medium's two chances against itself add up to one:
    # a check of the solver's symmetry between the teams, which its state keys do not build in.
    got = exact.run_solver(solver, "solve", 5, (1, 1, 1, 1))
    first, second, _mean = got["medium"]
    assert first != pytest.approx(0.5, abs=1e-4)
    assert first + second == pytest.approx(1.0, abs=1e-9)


def test_every_reachable_state_satisfies_the_invariants_the_bound_counts(solver: Path) -> None:
    for road, homes in ((5, (1, 1, 1, 1)), (7, (1, 1, 1, 1))):
        reachable = exact.run_solver(solver, "count", road, homes)["positions"][0]
        assert reachable <= exact.state_bound(road, homes[0])


def test_hindsight_bounds_the_best_response_and_the_exact_penalty_makes_it_exact(solver: Path) -> None:
    homes = (1, 1, 1, 1)
    best = exact.run_solver(solver, "solve", 5, homes)["best_response"]
    hindsight = exact.run_solver(solver, "hindsight", 5, homes, None, ["200", "3"])["hindsight"]
    assert hindsight[2] > best[2] + 0.1  # knowing the throws in advance is worth a lot
    # With the exact values as the penalty every scenario's penalised best is the exact value: no spread at all.
    dual = exact.run_solver(solver, "dual", 5, homes, None, ["50", "exact", "3"])
    assert dual["dual"] == pytest.approx(best, abs=1e-6)
    assert dual["dual_se"] == pytest.approx([0.0, 0.0, 0.0], abs=1e-6)
