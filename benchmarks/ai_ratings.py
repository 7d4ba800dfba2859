"""The rating of an AI seat: what `bot.ratings.AI_SKILLS` holds, and how it was measured.

`python benchmarks/ai_ratings.py [--games 600] [--workers 2] [--budget-ms 300] [--human-error 0.25] [--ai-games]`

Two sources, fitted together to openskill's own win prediction for two players,
P(x beats y) = Phi((mu_x - mu_y) / sqrt(2 beta^2 + 2 sigma^2)), with an AI's sigma fixed at AI_SIGMA (its
strength is known from thousands of games, so only a little uncertainty is added):

- the AI levels against each other: the exact solution of Bell 1 v 1 (`research/exact_1v1.py --variant
  bell --matches`; README, "The AI and the luck of the sticks"), each side starting half the games: perfect
  play beats medium 56.3% and easy 89.8%, medium beats easy 87.8%. Hard is taken as perfect play (its
  decisions cost 0.06 points of winning chance on average). These enter the fit as exact (weighted as
  EXACT_WEIGHT games each);
- the levels against a model of a human player, in Bell games with the same sticks and the sides swapped (as
  benchmarks/ai.py): the human model plays medium's move (it sees every capture and threat one move ahead)
  but, with probability `--human-error`, a random legal move instead: a player who knows the rules and
  sometimes misjudges. The ladder's average player is a newcomer (openskill's prior mean, mu 25), so the human
  model is anchored at mu 25.

`--ai-games` also plays the AI levels against each other, to check the exact rows (they should agree within
their intervals). Prints each pairing's observed score next to the fitted prediction, and the fitted mus.
Draws count half. Prints numbers; never asserts. Run it with `nice -n 10` on a shared machine.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Callable
from multiprocessing import Pool

from bot.ratings import AI_SIGMA, MODEL
from puluc import Move, Position, Rules, Throw
from puluc.ai import choose_move

PLAYERS = ("human", "easy", "medium", "hard")
HUMAN_PAIRINGS = (("human", "easy"), ("human", "medium"), ("human", "hard"))
AI_PAIRINGS = (("medium", "easy"), ("hard", "easy"), ("hard", "medium"))
ANCHOR = ("human", MODEL.mu)
# Exact Bell 1 v 1 match values (research/exact_1v1.py --matches), hard standing for perfect play.
EXACT = {("medium", "easy"): 0.878, ("hard", "easy"): 0.898, ("hard", "medium"): 0.563}
EXACT_WEIGHT = 100_000


def chooser(name: str, budget_ms: float, human_error: float) -> Callable[[Position, random.Random], Move]:
    if name != "human":
        return lambda pos, rng: choose_move(pos, name, rng, budget_ms)

    def human(pos: Position, rng: random.Random) -> Move:
        if rng.random() < human_error:
            return choose_move(pos, "easy", rng, budget_ms)
        return choose_move(pos, "medium", rng, budget_ms)

    return human


def play(task: tuple[str, str, int, int, float, float]) -> tuple[str, str, int, float]:
    """Game `index` of a pairing: games 2k and 2k + 1 share their sticks, with the sides swapped."""
    x, y, index, seed, budget_ms, human_error = task
    rules = Rules.preset("bell")
    pair, swapped = divmod(index, 2)
    dice = random.Random(seed * 1_000_003 + pair)
    minds = random.Random(seed * 7_000_003 + index)
    x_team = "B" if swapped else "A"
    y_team = "A" if swapped else "B"
    players = {x_team: chooser(x, budget_ms, human_error), y_team: chooser(y, budget_ms, human_error)}
    pos = Position.start(rules, "A" if pair % 2 == 0 else "B")
    while not pos.is_over:
        if pos.must_throw:
            pos = pos.throw([Throw.roll(dice, rules.sticks).value])
            continue
        pos = pos.play(players[pos.team_to_move](pos, minds))
    outcome = pos.outcome()
    assert outcome is not None
    result = 0.5 if outcome.winner is None else float(outcome.winner == x_team)
    return x, y, index, result


def phi(z: float) -> float:
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


def predicted(mu_x: float, mu_y: float) -> float:
    """openskill's predict_win for two players of sigma AI_SIGMA."""
    return phi((mu_x - mu_y) / math.sqrt(2 * MODEL.beta**2 + 2 * AI_SIGMA**2))


def fit(scores: dict[tuple[str, str], tuple[float, int]], rounds: int = 4000, step: float = 2.0) -> dict[str, float]:
    """Maximum-likelihood mus (gradient ascent on the mean log-likelihood), the anchor held fixed; `scores`
    holds (points won by x, games) per pairing (x, y)."""
    mu = dict.fromkeys(PLAYERS, MODEL.mu)
    scale = math.sqrt(2 * MODEL.beta**2 + 2 * AI_SIGMA**2)
    total = sum(games for _, games in scores.values())
    for _ in range(rounds):
        grad = dict.fromkeys(PLAYERS, 0.0)
        for (x, y), (won, games) in scores.items():
            p = min(max(predicted(mu[x], mu[y]), 1e-9), 1 - 1e-9)
            z = (mu[x] - mu[y]) / scale
            density = math.exp(-z * z / 2) / math.sqrt(2 * math.pi) / scale
            g = (won / p - (games - won) / (1 - p)) * density
            grad[x] += g
            grad[y] -= g
        for name in PLAYERS:
            if name != ANCHOR[0]:
                mu[name] += step * grad[name] / total * len(scores)
    return mu


def paired_interval(results: dict[int, float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% interval, with the pair of games as the unit (see benchmarks/ai.py)."""
    pairs: dict[int, list[float]] = {}
    for index, result in results.items():
        pairs.setdefault(index // 2, []).append(result)
    means = [sum(r) / len(r) for r in pairs.values()]
    mean = sum(results.values()) / len(results)
    half = 1.96 * statistics.stdev(means) / math.sqrt(len(means)) if len(means) > 1 else 1.0
    return mean, half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=600, help="games per pairing (an even number)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--budget-ms", type=float, default=300.0, help="the AI's thinking budget (the bot's default)")
    parser.add_argument("--human-error", type=float, default=0.25)
    parser.add_argument("--ai-games", action="store_true", help="also play the AI levels against each other")
    parser.add_argument("--seed", type=int, default=17)
    args = parser.parse_args()
    pairings = HUMAN_PAIRINGS + (AI_PAIRINGS if args.ai_games else ())
    tasks = [(x, y, i, args.seed, args.budget_ms, args.human_error) for x, y in pairings for i in range(args.games)]
    started = time.perf_counter()
    found: dict[tuple[str, str], dict[int, float]] = {}
    with Pool(args.workers) as pool:
        for x, y, index, result in pool.imap_unordered(play, tasks, chunksize=4):
            found.setdefault((x, y), {})[index] = result
    print(f"{len(tasks)} Bell games in {time.perf_counter() - started:.0f} s: budget {args.budget_ms:g} ms, "
          f"human model = medium with {args.human_error:.0%} random moves, AI sigma {AI_SIGMA}")
    scores = {pairing: (sum(r.values()), len(r)) for pairing, r in found.items() if pairing not in EXACT}
    scores |= {pairing: (value * EXACT_WEIGHT, EXACT_WEIGHT) for pairing, value in EXACT.items()}
    mu = fit(scores)
    print(f"{'pairing':<16} {'games':>6} {'observed':>9} {'95% CI':>8} {'fitted':>7}")
    for (x, y), value in EXACT.items():
        print(f"{x + ' v ' + y:<16} {'exact':>6} {value:>9.1%} {'':>8} {predicted(mu[x], mu[y]):>7.1%}")
    for (x, y), results in sorted(found.items()):
        mean, half = paired_interval(results)
        print(f"{x + ' v ' + y:<16} {len(results):>6} {mean:>9.1%} {'+-' + format(half, '.1%'):>8} "
              f"{predicted(mu[x], mu[y]):>7.1%}")
    print("fitted mu (human model anchored at the newcomer's mu):")
    for name in PLAYERS:
        print(f"  {name:<7} {mu[name]:6.2f}")


if __name__ == "__main__":
    main()
