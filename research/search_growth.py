"""How much one more turn of search costs, and what not starting a depth that cannot finish saves.

The search deepens one turn at a time within a budget of nodes (puluc/ai/search.py); a depth that runs out of
nodes is thrown away. `MIN_DEEPENING_GROWTH` and `MIN_GROWTH_CHANGE` say the least the next depth costs, from
the last depth's nodes and growth, so that a depth that cannot finish is not started. This prints, per variant:

- the growth, each depth's nodes over the previous depth's, and the change of growth from one depth to the next,
  over positions of random games (min, p1, p5, median): the two constants must stay below the minimums, or a
  depth that would have finished is skipped;
- for search budgets in ms (the bar's 10 ms, the chart's 25 ms, `win_probability`'s default 100 ms and the hard
  player's 300 ms): nodes per `position_value` without the skip and with it, and in how many positions the two
  values are the same (the largest difference in points of winning chance).

Run by hand: `python research/search_growth.py [--variants bell ants-2v2] [--positions 200] [--growth 1.4
--change 0.1]` (the last two try other constants than the module's). Node counts, not times: the figures do
not depend on the machine's load.
"""

from __future__ import annotations

import argparse
import importlib
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))  # the shared helpers below
from ai import variant_rules
from percentiles import percentile

from puluc import Position, Rules, Throw
from puluc.ai import nodes_for
from puluc.ai.evaluate import model_for

# `puluc.ai.search` the module, not the function of that name that `puluc.ai` exports.
search_module = importlib.import_module("puluc.ai.search")


def positions(rules: Rules, count: int, seed: int) -> list[Position]:
    """Positions of games of random moves: before and after each throw."""
    rng = random.Random(seed)
    found: list[Position] = []
    while len(found) < count:
        pos = Position.start(rules, rng.choice("AB"))
        while not pos.is_over and len(found) < count:
            found.append(pos)
            if pos.must_throw:
                pos = pos.throw([Throw.roll(rng, rules.sticks).value for _ in range(rules.throws_per_turn)])
            else:
                pos = pos.play(rng.choice(pos.legal_moves()))
    return found


def depth_costs(rules: Rules, pos: Position, cap: int) -> list[int]:
    """Nodes of each finished depth of `position_value`'s deepening, until a depth would cost more than `cap`."""
    model = model_for(rules)
    state = search_module._Search(model, 0, 1 << 62, time.perf_counter() + 3600)
    costs: list[int] = []
    for depth in range(1, search_module.default_depth(model) + 1):
        state.cut = False
        before = state.nodes
        state.limit = before + cap
        try:
            state.chance(pos, depth) if not pos.pending else state.decide(pos, depth)
        except search_module.OutOfBudget:
            break
        costs.append(state.nodes - before)
        if not state.cut:
            break
    return costs


def growth(rules: Rules, found: list[Position], cap: int) -> tuple[dict[int, list[float]], dict[int, list[float]]]:
    """By depth: each search's growth into that depth, and its change from the growth into the depth before."""
    ratios: dict[int, list[float]] = {}
    changes: dict[int, list[float]] = {}
    for pos in found:
        costs = depth_costs(rules, pos, cap)
        for depth in range(1, len(costs)):
            ratios.setdefault(depth + 1, []).append(costs[depth] / costs[depth - 1])
            if depth >= 2:
                before = costs[depth - 1] / costs[depth - 2]
                changes.setdefault(depth + 1, []).append(costs[depth] / costs[depth - 1] / before)
    return ratios, changes


def values(rules: Rules, found: list[Position], nodes: int, least: tuple[float, float]) -> tuple[list[float], float]:
    """`position_value` of each position within `nodes`, with (MIN_DEEPENING_GROWTH, MIN_GROWTH_CHANGE) set
    to `least`; and the mean nodes spent."""
    saved = search_module.MIN_DEEPENING_GROWTH, search_module.MIN_GROWTH_CHANGE
    search_module.MIN_DEEPENING_GROWTH, search_module.MIN_GROWTH_CHANGE = least
    spent = 0
    out: list[float] = []
    model = model_for(rules)
    real_search = search_module._Search

    class Counting(real_search):  # type: ignore[misc, valid-type]
        def __init__(self, *args: object) -> None:
            super().__init__(*args)
            counted.append(self)

    counted: list[search_module._Search] = []
    search_module._Search = Counting
    try:
        for pos in found:
            if pos.is_over:
                continue
            value, _depth = search_module.position_value(model, pos, nodes, time.perf_counter() + 3600)
            out.append(value)
            spent += counted[-1].nodes
    finally:
        search_module._Search = real_search
        search_module.MIN_DEEPENING_GROWTH, search_module.MIN_GROWTH_CHANGE = saved
    return out, spent / max(1, len(out))


def spread(values: list[float]) -> str:
    return (f"min {min(values):.2f}, p1 {percentile(values, 1):.2f}, p5 {percentile(values, 5):.2f}, "
            f"median {percentile(values, 50):.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", nargs="+", default=["bell", "ants", "eagle", "ants-traditional", "ants-2v2"])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--budgets", type=float, nargs="+", default=[10, 25, 100, 300])
    parser.add_argument("--cap", type=int, default=60_000, help="nodes at most per depth for the ratios")
    parser.add_argument("--growth", type=float, default=search_module.MIN_DEEPENING_GROWTH)
    parser.add_argument("--change", type=float, default=search_module.MIN_GROWTH_CHANGE)
    args = parser.parse_args()
    print(f"MIN_DEEPENING_GROWTH = {args.growth}, MIN_GROWTH_CHANGE = {args.change}")
    for name in args.variants:
        rules = variant_rules(name)
        found = [pos for pos in positions(rules, args.positions, seed=1) if not pos.is_over]
        ratios, changes = growth(rules, found, args.cap)
        for depth in sorted(ratios):
            line = f"{name:>17} depth {depth}: {len(ratios[depth]):4d} searches, growth {spread(ratios[depth])}"
            if depth in changes:
                line += f"; change of growth {spread(changes[depth])}"
            print(line)
        for budget_ms in args.budgets:
            nodes = nodes_for(rules, budget_ms)
            before, spent_before = values(rules, found, nodes, (0.0, 0.0))
            after, spent_after = values(rules, found, nodes, (args.growth, args.change))
            same = sum(1 for x, y in zip(before, after, strict=True) if x == y)
            worst = max(abs(x - y) for x, y in zip(before, after, strict=True)) / 2  # values are 2 P - 1
            print(f"{name:>17} {budget_ms:5g} ms ({nodes} nodes): {spent_before:7.0f} -> {spent_after:7.0f} nodes "
                  f"a search; the same value in {same} of {len(before)} positions, at most {100 * worst:.1f} "
                  f"points apart")


if __name__ == "__main__":
    main()
