"""Fit the hard player's evaluation by self-play: prints weights for puluc/ai/features.py.

Run by hand: `python research/fit_evaluation.py --variant ants-2v2 [--games 20000] [--rounds 2]`; several
variants share one set of weights when named together (their games alternate). Where no exact
solution exists (team games; 1 v 1 Bell and the traditional setups have one: research/exact_1v1.py --fit),
the evaluation learns from games it plays against itself. Each round plays --games games in which every seat
picks, among the distinct ends of its turn, the one the current weights rate best for its team (a one-turn
search, the hard player's horizon), with a random end instead in --noise of the turns; then refits the weights
to the TD(lambda) returns of the positions where a seat must throw: lambda = 1 is the game's result, smaller
lambdas lean on the current weights' view of the positions that followed. The fit is the logistic regression
of research/exact_1v1.py (Newton's method on the cross-entropy, small ridge). A fifth of the games is held
out: prints the held-out log-loss against the game results of the weights in use and of each refit, then the
weights. Variant names as in benchmarks/ai.py.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))  # the shared helpers below
from ai import variant_rules
from exact_1v1 import fit, print_weights

from puluc import Position, Throw
from puluc.ai.evaluate import Model, model_for
from puluc.ai.features import features, weights_for, win_logit
from puluc.ai.search import turn_ends

#: One sampled position: its features, its TD(lambda) return and the game's result (both for team A).
Row = tuple[list[float], float, float]
SAMPLE = 0.25  #: share of the must-throw positions kept (neighbours in a game are much alike)


def logit(weights: list[float] | tuple[float, ...], x: list[float]) -> float:
    return sum(w * v for w, v in zip(weights, x, strict=True))


def end_value(model: Model, end: Position, weights: tuple[float, ...] | None) -> float:
    """Team A's log-odds after a turn's end: a finished game counts its score difference many times over."""
    if end.is_over:
        scores = end.scores()
        return 1000.0 * (scores["A"] - scores["B"])
    return logit(weights, features(model, end)) if weights else win_logit(model, end)


def game(task: tuple[str, int, float, tuple[float, ...], float]) -> list[Row]:
    """One self-play game with `weights`: sampled must-throw positions with their returns and the result."""
    variant, index, noise, weights, lam = task
    rules = variant_rules(variant)
    model = model_for(rules)
    rng = random.Random(index)
    pos = Position.start(rules, "AB"[index % 2])
    seen: list[list[float]] = []
    while not pos.is_over:
        if pos.must_throw:
            seen.append(features(model, pos))
            pos = pos.throw([Throw.roll(rng, rules.sticks).value for _ in range(rules.throws_per_turn)])
            continue
        ends = turn_ends(pos)
        if len(ends) > 1 and rng.random() < noise:
            pos = ends[int(rng.random() * len(ends))]
            continue
        sign = 1.0 if pos.turn_index & 1 == 0 else -1.0
        pos = max(ends, key=lambda end: sign * end_value(model, end, weights))
    winner = pos.outcome().winner  # type: ignore[union-attr]
    result = 1.0 if winner == "A" else 0.0 if winner == "B" else 0.5
    targets = td_targets(seen, result, weights, lam)
    return [(x, g, result) for x, g in zip(seen, targets, strict=True) if rng.random() < SAMPLE]


def td_targets(
    rows: list[list[float]], result: float, weights: tuple[float, ...] | list[float], lam: float
) -> list[float]:
    """The TD(lambda) return of every position of one game (backward: G_t = (1 - lam) V(s_t+1) + lam G_t+1)."""
    targets = [0.0] * len(rows)
    ahead = result
    for t in range(len(rows) - 1, -1, -1):
        targets[t] = ahead
        value = 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, logit(weights, rows[t])))))
        ahead = (1.0 - lam) * value + lam * ahead
    return targets


def log_loss(rows: list[Row], weights: tuple[float, ...] | list[float]) -> float:
    """Mean cross-entropy of the weights' predictions against the games' results."""
    total = 0.0
    for x, _g, y in rows:
        q = 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, logit(weights, x)))))
        q = min(max(q, 1e-12), 1 - 1e-12)
        total -= y * math.log(q) + (1 - y) * math.log(1 - q)
    return total / len(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", nargs="+", default=["ants-2v2"], help="one family of weights: games alternate")
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=2, help="self-play rounds, each with the last round's weights")
    parser.add_argument("--noise", type=float, default=0.1, help="share of turns played at random")
    parser.add_argument("--lam", type=float, default=0.7, help="TD(lambda): 1 fits to the games' results")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    start = weights_for(variant_rules(args.variant[0]))
    weights = start
    for round_ in range(args.rounds):
        first = args.seed * 10_000_000 + round_ * args.games
        variants = args.variant
        tasks = [(variants[i % len(variants)], first + i, args.noise, weights, args.lam) for i in range(args.games)]
        with Pool(args.workers) as pool:
            games = pool.map(game, tasks, chunksize=20)
        held = [row for rows in games[: args.games // 5] for row in rows]
        train = [(x, g) for rows in games[args.games // 5 :] for x, g, _ in rows]
        refit = tuple(fit(train, weights))
        print(
            f"round {round_ + 1}: {len(train):,} training positions; held-out log-loss against the results: "
            f"weights in use {log_loss(held, start):.4f}, this round's start {log_loss(held, weights):.4f}, "
            f"refit {log_loss(held, refit):.4f}",
            flush=True,
        )
        weights = refit
        print_weights("WEIGHTS", list(weights))


if __name__ == "__main__":
    main()
