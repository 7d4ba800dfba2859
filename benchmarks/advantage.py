"""The "who is ahead" bar: how far each estimate is from the exact chance to win, and what it costs.

Run by hand: `python benchmarks/advantage.py` (Bell, eagle and the traditional 1 v 1 setups), after solving each
variant once with `python research/exact_1v1.py --variant NAME` (the tables go to --work; Bell takes about 3
minutes of CPU and 120 MB of disk). Positions come from games of perfect play with 0, 20 or 50% random moves (the
same positions for every estimate): "boards" are positions with the throws in hand, which is what a game message
shows (the next throw is made at once), and "turn starts" are positions before a throw, what the advantage chart
plots. For each estimate it prints, against the exact chance of team A: the mean absolute error in points of
chance (100 points = certain), the root mean square, the worst, and the share of positions whose bar points at
the wrong side (the side whose exact chance is below 50% shown ahead; an exact 50% is never wrong); then the CPU
per estimate (the thread's CPU time, so other processes on the machine do not inflate it) p50 and p95.

Estimates: `search N ms` is `puluc.ai.win_probability` with that budget (before issue 33, the bar's, at 4 ms;
playouts off the army route); `win_chance` the learned evaluation at the end of the turn in hand, `win_chance 2`
a turn further; `bar_chance` the bar's estimate since (puluc.ai.chance: on Bell the shipped exact table,
bot/exact/bell.bin). With `--unsolved`, variants with no exact solution (ants 1 v 1, 2 v 2, 8 v 8) are compared
against a long `win_probability` instead (`--reference-ms`), which only says how far the cheap estimates move
from it, not which is right. Asserts nothing.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "research"))  # exact_1v1's tables and variant names
from exact_1v1 import Table, rules_of, throw_turn  # noqa: E402
from percentiles import percentile  # noqa: E402  (benchmarks/percentiles.py: the one definition)

import puluc.ai  # noqa: E402
from puluc import Position, Throw  # noqa: E402
from puluc.ai import bar_chance, win_chance, win_probability  # noqa: E402
from puluc.ai.exact import ExactTable  # noqa: E402

# No wall-clock cut-off: a search runs to its node budget whatever the machine's load (numbers depend on seeds).
puluc.ai.SAFETY_FACTOR = math.inf

Estimate = Callable[[Position, random.Random], float]


def estimates(search_ms: list[float], exact: ExactTable) -> dict[str, Estimate]:
    """Before issue 33 the bar was `search 4 ms`; now it is `bar_chance` (exact on Bell, `win_chance 2` on other
    one-throw duels off the army route, `win_chance` in two-throw and team games)."""
    found: dict[str, Estimate] = {}
    for budget in search_ms:
        found[f"search {budget:g} ms"] = lambda pos, rng, budget=budget: win_probability(pos, rng, budget)
    found["win_chance"] = lambda pos, rng: win_chance(pos)
    found["win_chance 2"] = lambda pos, rng: win_chance(pos, turns=2)
    found["bar_chance"] = lambda pos, rng: bar_chance(pos, exact)
    return found


def exact_chance(table: Table, pos: Position) -> float:
    """Team A's exact chance to win from `pos` (before a throw, or with the throws in hand)."""
    if pos.is_over:
        winner = pos.outcome().winner  # type: ignore[union-attr]
        return 0.5 if winner is None else float(winner == "A")
    team = pos.turn_index & 1
    mine = table.chance(pos) if pos.must_throw else max(v for _, v in table.end_values(pos))
    return mine if team == 0 else 1.0 - mine


def sample(table: Table, variant: str, count: int, seed: int) -> tuple[list[Position], list[Position]]:
    """(boards, turn starts): `count` of each from games of perfect play with 0-50% random moves."""
    rules = rules_of(variant)
    rng = random.Random(seed)
    boards: list[Position] = []
    starts: list[Position] = []
    while len(boards) < count or len(starts) < count:
        pos = Position.start(rules, rng.choice("AB"))
        noise = rng.choice((0.0, 0.2, 0.5))
        while not pos.is_over:
            if pos.must_throw:
                if rng.random() < 0.3:
                    starts.append(pos)
                pos = throw_turn(pos, rng)
                continue
            if rng.random() < 0.3:
                boards.append(pos)
            if rng.random() < noise:
                pos = pos.play(rng.choice(pos.legal_moves()))
            else:
                values = table.end_values(pos)
                high = max(v for _, v in values)
                pos = rng.choice([e for e, v in values if v >= high - 1e-7])
    return boards[:count], starts[:count]


def measure(label: str, positions: list[Position], truth: list[float], found: dict[str, Estimate], seed: int) -> None:
    print(f"  {label} ({len(positions)} positions):")
    for name, estimate in found.items():
        errors: list[float] = []
        wrong = 0
        cpu: list[float] = []
        for i, (pos, exact) in enumerate(zip(positions, truth, strict=True)):
            rng = random.Random(seed * 1_000_003 + i)
            start = time.thread_time()
            value = estimate(pos, rng)
            cpu.append((time.thread_time() - start) * 1000)
            errors.append(abs(value - exact))
            wrong += (exact < 0.5 and value > 0.5) or (exact > 0.5 and value < 0.5)
        mae = 100 * sum(errors) / len(errors)
        rms = 100 * math.sqrt(sum(e * e for e in errors) / len(errors))
        print(
            f"    {name:<14} mean error {mae:5.2f} points (rms {rms:5.2f}, worst {100 * max(errors):5.1f}), "
            f"wrong side {100 * wrong / len(positions):4.1f}%   CPU ms p50 {percentile(cpu, 50):.3f} "
            f"p95 {percentile(cpu, 95):.3f}",
            flush=True,
        )


def unsolved(variant: str, count: int, reference_ms: float, found: dict[str, Estimate], seed: int) -> None:
    """Variants with no exact values (team games, long 1 v 1 games): a long win_probability is the reference."""
    rules = rules_of(variant)
    rng = random.Random(seed)
    boards: list[Position] = []
    while len(boards) < count:
        pos = Position.start(rules, rng.choice("AB"))
        while not pos.is_over and len(boards) < count:
            if pos.must_throw:
                pos = pos.throw([Throw.roll(rng, rules.sticks).value for _ in range(rules.throws_per_turn)])
                continue
            if rng.random() < 0.1:
                boards.append(pos)
            pos = pos.play(rng.choice(pos.legal_moves()))
    started = time.perf_counter()
    reference = [win_probability(pos, random.Random(i), reference_ms) for i, pos in enumerate(boards)]
    print(f"{variant}: against win_probability at {reference_ms:g} ms ({time.perf_counter() - started:.0f} s)")
    measure("boards", boards, reference, found, seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variants", nargs="+", default=["bell", "eagle", "bell-traditional", "ants-traditional"])
    parser.add_argument("--work", type=Path, default=Path("/tmp/puluc-exact"), help="exact_1v1.py's tables")
    parser.add_argument("--positions", type=int, default=400)
    parser.add_argument("--search-ms", type=float, nargs="+", default=[4.0])
    parser.add_argument("--seed", type=int, default=33)
    parser.add_argument(
        "--unsolved", nargs="*", default=[], help="e.g. ants ants-2v2 ants-8v8: against --reference-ms instead"
    )
    parser.add_argument("--reference-ms", type=float, default=400.0)
    args = parser.parse_args()
    started = time.process_time()
    exact = ExactTable.from_bytes((HERE.parent / "bot" / "exact" / "bell.bin").read_bytes())
    print(f"the shipped Bell table loaded in {time.process_time() - started:.2f} s of CPU")
    found = estimates(args.search_ms, exact)
    for variant in args.variants:
        path = args.work / f"{variant}.table"
        if not path.exists():
            print(f"{variant}: no table at {path}; run python research/exact_1v1.py --variant {variant} first")
            continue
        table = Table(path)
        boards, starts = sample(table, variant, args.positions, args.seed)
        print(f"{variant}: {table.size:,} positions solved; against the exact chance of team A")
        measure("boards (throws in hand)", boards, [exact_chance(table, p) for p in boards], found, args.seed)
        measure("turn starts", starts, [exact_chance(table, p) for p in starts], found, args.seed)
    for variant in args.unsolved:
        unsolved(variant, args.positions // 4, args.reference_ms, found, args.seed)


if __name__ == "__main__":
    main()
