"""AI strength and speed: a tournament between the levels, and the cost of `win_probability`.

Run by hand: `python benchmarks/ai.py` (all pairings on Bell, ants and traditional ants 2 v 2), or e.g.
`python benchmarks/ai.py --variants bell --pairings hard-medium --games 400 --workers 2`. Games come in
pairs with the same sticks and the sides swapped. Prints win rates with 95% intervals (draws count half)
and milliseconds per move p50 / p95 for each level, counted over the moves where the player had a real
choice. The interval takes the pair as its unit (mean of the pairs' scores +- 1.96 standard errors): the
two games of a pair are correlated, and a binomial interval over games measured about half the true
spread on Bell (four 10,000-game runs of one pairing spread with a standard deviation of 1.1 points,
against 0.5 for independent games). For the exact strength of a Bell player, and what is possible at
all, see `benchmarks/bell_exact.py`. `--calibrate` prints search nodes per millisecond and
the spread of `win_probability` at several budgets. Prints numbers, asserts nothing.

Goals on Bell (issue 5): hard beats easy in at least 90% of games and medium in at least 68%; hard p95 move
time at most 300 ms at the default budget.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from multiprocessing import Pool

from percentiles import percentile  # benchmarks/percentiles.py: the one definition

from puluc import Position, Rules, Throw
from puluc.ai import NODES_PER_MS, choose_move, win_probability
from puluc.ai.evaluate import model_for
from puluc.ai.search import search

VARIANTS: dict[str, Rules] = {
    "bell": Rules.preset("bell"),
    "ants": Rules.preset("ants"),
    "ants-2v2": Rules.preset("ants", team_size=2),
}
PAIRINGS = ("hard-easy", "hard-medium", "medium-easy")


def play_game(
    task: tuple[str, str, str, int, float, int],
) -> tuple[str, str, int, float, list[float], list[float], int]:
    """One game of a pair: games 2k and 2k + 1 share their sticks and first team, with the levels' sides swapped.

    Each level gets the other's throws once; the first team alternates between pairs. Returns (variant,
    pairing, index, x's result, x's move times ms, y's move times ms, moves).
    """
    variant, x, y, index, budget_ms, seed = task
    rules = VARIANTS[variant]
    pair, swapped = divmod(index, 2)
    dice = random.Random(seed * 1_000_003 + pair)
    minds = random.Random(seed * 7_000_003 + index)
    pos = Position.start(rules, "A" if pair % 2 == 0 else "B")
    x_team = "B" if swapped else "A"
    times: dict[str, list[float]] = {"A": [], "B": []}
    moves = 0
    while not pos.is_over:
        if pos.must_throw:
            pos = pos.throw([Throw.roll(dice, rules.sticks).value for _ in range(rules.throws_per_turn)])
            continue
        team = pos.team_to_move
        level = x if team == x_team else y
        choice = len(pos.legal_moves()) > 1
        start = time.perf_counter()
        move = choose_move(pos, level, minds, budget_ms)
        if choice:
            times[team].append((time.perf_counter() - start) * 1000)
        pos = pos.play(move)
        moves += 1
    winner = pos.outcome().winner  # type: ignore[union-attr]
    result = 0.5 if winner is None else (1.0 if winner == x_team else 0.0)
    y_team = "A" if swapped else "B"
    return variant, f"{x}-{y}", index, result, times[x_team], times[y_team], moves


def paired_interval(outcomes: dict[int, float]) -> tuple[float, float, float]:
    """Mean result and a 95% interval with the pair (games 2k and 2k + 1) as the unit of sampling.

    A pair missing its second game (a run still going) counts with the game it has.
    """
    pairs: dict[int, list[float]] = {}
    for index, result in outcomes.items():
        pairs.setdefault(index // 2, []).append(result)
    scores = [sum(r) / len(r) for r in pairs.values()]
    mean = sum(outcomes.values()) / len(outcomes)
    if len(scores) < 2:
        return mean, 0.0, 1.0
    half = 1.96 * statistics.stdev(scores) / math.sqrt(len(scores))
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def tournament(args: argparse.Namespace) -> None:
    tasks = []
    for variant in args.variants:
        games = args.games if args.games else (2000 if variant == "bell" else 200)
        for pairing in args.pairings:
            x, y = pairing.split("-")
            tasks += [(variant, x, y, i, args.budget_ms, args.seed) for i in range(games)]
    print(f"{len(tasks)} games, budget {args.budget_ms} ms, {args.workers} workers", flush=True)
    results: dict[tuple[str, str], dict[int, float]] = {}
    level_times: dict[tuple[str, str], list[float]] = {}
    started = time.perf_counter()
    with Pool(args.workers) as pool:
        for done, (variant, pairing, index, result, tx, ty, _moves) in enumerate(
            pool.imap_unordered(play_game, tasks, chunksize=1), 1
        ):
            results.setdefault((variant, pairing), {})[index] = result
            x, y = pairing.split("-")
            level_times.setdefault((variant, x), []).extend(tx)
            level_times.setdefault((variant, y), []).extend(ty)
            if done % args.report_every == 0 or done == len(tasks):
                report(results, level_times, done, time.perf_counter() - started)


def report(
    results: dict[tuple[str, str], dict[int, float]],
    level_times: dict[tuple[str, str], list[float]],
    done: int,
    elapsed: float,
) -> None:
    print(f"\n-- after {done} games, {elapsed:.0f} s --")
    print(f"{'variant':<10} {'pairing':<12} {'games':>6} {'first wins':>10} {'95% CI':>16}")
    for (variant, pairing), outcomes in sorted(results.items()):
        mean, lo, hi = paired_interval(outcomes)
        print(f"{variant:<10} {pairing:<12} {len(outcomes):>6} {mean:>9.1%} {lo:>8.1%}-{hi:<7.1%}")
    print(f"{'variant':<10} {'level':<8} {'moves':>7} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
    for (variant, level), times in sorted(level_times.items()):
        print(
            f"{variant:<10} {level:<8} {len(times):>7} {percentile(times, 50):>8.2f} "
            f"{percentile(times, 95):>8.2f} {max(times, default=float('nan')):>8.2f}"
        )
    sys.stdout.flush()


def sample_positions(rules: Rules, count: int, seed: int) -> list[Position]:
    """Positions with a real choice, from games between medium players."""
    rng = random.Random(seed)
    found: list[Position] = []
    while len(found) < count:
        pos = Position.start(rules)
        while not pos.is_over and len(found) < count:
            if pos.must_throw:
                pos = pos.throw([Throw.roll(rng, rules.sticks).value for _ in range(rules.throws_per_turn)])
                continue
            if len(pos.legal_moves()) > 1 and rng.random() < 0.3:
                found.append(pos)
            pos = pos.play(choose_move(pos, "medium", rng))
    return found


def calibrate(args: argparse.Namespace) -> None:
    """Nodes per millisecond of the search, and win_probability's spread against its budget."""
    for variant in args.variants:
        rules = VARIANTS[variant]
        model = model_for(rules)
        positions = sample_positions(rules, 40, args.seed)
        nodes = 0
        start = time.perf_counter()
        for pos in positions:
            nodes += search(model, pos, 300 * NODES_PER_MS, time.perf_counter() + 10).nodes
        elapsed = (time.perf_counter() - start) * 1000
        print(f"{variant:<10} search: {nodes / elapsed:7.1f} nodes/ms (NODES_PER_MS = {NODES_PER_MS})")
        for budget in (25, 50, 100, 200, 400):
            spreads = []
            spent = 0.0
            for i, pos in enumerate(positions[:12]):
                t0 = time.perf_counter()
                estimates = [win_probability(pos, random.Random(1000 * i + k), budget) for k in range(10)]
                spent += (time.perf_counter() - t0) * 1000 / 10
                spreads.append(statistics.stdev(estimates))
            print(
                f"{variant:<10} win_probability budget {budget:>4} ms: standard error "
                f"{statistics.mean(spreads) * 100:5.2f} points, {spent / 12:6.1f} ms per call"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variants", nargs="+", default=list(VARIANTS), choices=list(VARIANTS))
    parser.add_argument("--pairings", nargs="+", default=list(PAIRINGS), choices=list(PAIRINGS))
    parser.add_argument("--games", type=int, default=0, help="games per pairing (default 2000 Bell, 200 others)")
    parser.add_argument("--budget-ms", type=float, default=300.0, help="per-move budget of the AI")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--report-every", type=int, default=100)
    parser.add_argument("--calibrate", action="store_true", help="measure nodes/ms and win_probability spread")
    args = parser.parse_args()
    if args.calibrate:
        calibrate(args)
    else:
        tournament(args)


if __name__ == "__main__":
    main()
