"""Refit the hard player's evaluation for team games: prints TEAM_WIN_WEIGHTS (puluc/ai/features.py).

Run by hand: `python benchmarks/fit_team_evaluation.py [--games 20000]`. Team games have no exact solution
here (Bell 1 v 1 has: benchmarks/bell_exact.py), so the target is the game's result: games of traditional
ants 2 v 2 between medium players with 0, 10 or 30% random moves, features taken at a fifth of the
positions where a seat must throw; the first fifth of the games is held out. The same logistic fit as
bell_exact.py --fit (Newton's method, small ridge). Prints the held-out log-loss of the weights now in
use and of the refit, then the weights. Takes about a minute on two cores.
"""

from __future__ import annotations

import argparse
import math
import random
from multiprocessing import Pool

from bell_exact import fit, print_weights  # benchmarks/ is this script's folder, so its sibling imports directly

from puluc import Position, Rules, Throw
from puluc.ai import choose_move
from puluc.ai.evaluate import model_for
from puluc.ai.features import TEAM_WIN_WEIGHTS, WIN_WEIGHTS, features

RULES = Rules.preset("ants", team_size=2)


def game(index: int) -> list[tuple[list[float], float]]:
    """(features, team A's result) of sampled must-throw positions of one seeded game."""
    rng = random.Random(index)
    noise = rng.choice((0.0, 0.1, 0.3))
    model = model_for(RULES)
    pos = Position.start(RULES, "AB"[index % 2])
    rows = []
    while not pos.is_over:
        if pos.must_throw:
            if rng.random() < 0.2:
                rows.append(features(model, pos))
            pos = pos.throw([Throw.roll(rng, RULES.sticks).value for _ in range(RULES.throws_per_turn)])
            continue
        moves = pos.legal_moves()
        pos = pos.play(rng.choice(moves) if rng.random() < noise else choose_move(pos, "medium", rng))
    winner = pos.outcome().winner  # type: ignore[union-attr]
    result = 1.0 if winner == "A" else 0.0 if winner == "B" else 0.5
    return [(x, result) for x in rows]


def log_loss(rows: list[tuple[list[float], float]], weights: tuple[float, ...] | list[float]) -> float:
    total = 0.0
    for x, y in rows:
        q = 1.0 / (1.0 + math.exp(-sum(w * v for w, v in zip(weights, x, strict=True))))
        q = min(max(q, 1e-12), 1 - 1e-12)
        total -= y * math.log(q) + (1 - y) * math.log(1 - q)
    return total / len(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    with Pool(args.workers) as pool:
        games = pool.map(game, range(args.games), chunksize=20)
    held = [row for rows in games[: args.games // 5] for row in rows]
    train = [row for rows in games[args.games // 5 :] for row in rows]
    print(f"{len(train):,} training and {len(held):,} held-out positions")
    weights = fit(train, WIN_WEIGHTS)
    print(
        f"held-out log-loss: Bell weights {log_loss(held, WIN_WEIGHTS):.4f}, team weights now "
        f"{log_loss(held, TEAM_WIN_WEIGHTS):.4f}, refit {log_loss(held, weights):.4f}"
    )
    print_weights("TEAM_WIN_WEIGHTS", weights)


if __name__ == "__main__":
    main()
