"""AI strength and speed: tournaments between the levels on every variant, and the cost of `win_probability`.

Run by hand, e.g. `python benchmarks/ai.py --variant ants-2v2 --pairings hard-medium --games 400`, or
`--variant all` for every preset and flag combination the bot offers in 1 v 1 and 2 v 2. Variant names:
`PRESET[+FLAG...][-KvK][-modern|-traditional]`, PRESET one of bell ants eagle scorpion fire culin village, FLAG
fire, scorpion or returns (eagle's house rule): `bell`, `village+fire+scorpion-2v2`, `ants-8v8`. The setup
follows the team size (RULES.md §9) unless named.

Games come in pairs with the same sticks and the sides swapped, the first team alternating between pairs. Prints
win rates with 95% intervals (draws count half) and hard's milliseconds per move p50 / p95 (wall clock, and the
p50 / p95 of the thread's CPU time, which other processes on the machine do not inflate), counted over the moves
where the player had more than one legal move. The interval takes the pair as its unit (mean of the pairs' scores
+- 1.96 standard errors): the two games of a pair are correlated, and a binomial interval over games measured
about half the true spread on Bell. Game i of a pairing always gets the same dice and seeds, so a run of more
games extends a shorter one: `--log FILE` appends one JSON line per game, `--first` skips games already played,
and `--report FILE...` prints the table of logged games. Work is counted in search nodes (deterministic);
move times depend on the machine's load, so note `uptime` with them. For the exact strength of a Bell player,
and what is possible at all, see `research/exact_1v1.py`. `--calibrate` prints search nodes per millisecond
and the spread of `win_probability` at several budgets; `--depth` how many turns hard's search reaches at turns
with a real choice (more than one way the turn can end) and its time there. Prints numbers, asserts nothing.

Goals (issue 18): hard beats medium with a lower 95% bound above 50% on every 1 v 1 variant; on traditional
ants 2 v 2 in at least 60% of 1,000 paired games (lower bound 57%); hard p95 move time at most 300 ms.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Iterable
from multiprocessing import Pool
from pathlib import Path

from percentiles import percentile  # benchmarks/percentiles.py: the one definition

import puluc.ai
from puluc import Position, Rules, Throw
from puluc.ai import NODES_PER_MS, choose_move, nodes_for, win_probability
from puluc.ai.evaluate import model_for
from puluc.ai.search import search, turn_ends

# No wall-clock cut-off here: every search runs to its node budget whatever the machine's load, so the numbers
# depend on the seeds alone (move times are still measured, and printed with the CPU time beside them).
puluc.ai.SAFETY_FACTOR = math.inf

PRESET_NAMES = ("bell", "ants", "eagle", "scorpion", "fire", "culin", "village")
PAIRINGS = ("hard-easy", "hard-medium", "medium-easy")


def variant_rules(name: str) -> Rules:
    """The rules a variant name stands for (see the module docstring); raises ValueError for a bad name."""
    parts = name.split("-")
    flags = parts[0].split("+")
    preset, extras = flags[0], set(flags[1:])
    options: dict[str, object] = {}
    team_size = 1
    for part in parts[1:]:
        if part in ("modern", "traditional"):
            options["setup"] = part
        elif len(part) >= 3 and part[0].isdigit() and part.split("v")[0] == part.split("v")[-1]:
            team_size = int(part.split("v")[0])
        else:
            raise ValueError(f"bad variant part {part!r} in {name!r}")
    unknown = extras - {"fire", "scorpion", "returns"}
    if unknown or len(extras) != len(flags) - 1:
        raise ValueError(f"bad flags in {name!r}")
    overrides = dict.fromkeys(extras & {"fire", "scorpion"}, True)
    if "returns" in extras:
        overrides["eagle_returns"] = True
    setup = options.get("setup")
    if isinstance(setup, str):
        return Rules.from_setup(preset, team_size, setup, **overrides)
    return Rules.preset(preset, team_size=team_size, **overrides)


def rule_sets() -> list[str]:
    """Every distinct rule set the bot offers, by name: each preset with the fire and scorpion flags (not
    scorpion on culin; the fire and scorpion presets are ants with one flag), eagle also with its house rule."""
    names = []
    for preset in ("bell", "ants", "eagle", "culin", "village"):
        for extra in ("", "+fire", "+scorpion", "+fire+scorpion"):
            if preset == "culin" and "scorpion" in extra:
                continue
            name = {"ants+fire": "fire", "ants+scorpion": "scorpion"}.get(preset + extra, preset + extra)
            names.append(name)
            if preset == "eagle":
                names.append(f"eagle+returns{extra}")
    return names


def expand(names: Iterable[str]) -> list[str]:
    out: list[str] = []
    for name in names:
        if name in ("all", "all-1v1", "all-2v2"):
            sizes = {"all": ("", "-2v2"), "all-1v1": ("",), "all-2v2": ("-2v2",)}[name]
            out += [rule + size for size in sizes for rule in rule_sets()]
        else:
            variant_rules(name)
            out.append(name)
    return out


def play_game(task: tuple[str, str, str, int, float, int]) -> dict[str, object]:
    """One game of a pair: games 2k and 2k + 1 share their sticks and first team, with the levels' sides swapped.

    Each level gets the other's throws once; the first team alternates between pairs. Returns x's result and both
    levels' move times (ms, moves with a choice only).
    """
    variant, x, y, index, budget_ms, seed = task
    rules = variant_rules(variant)
    pair, swapped = divmod(index, 2)
    dice = random.Random(seed * 1_000_003 + pair)
    minds = random.Random(seed * 7_000_003 + index)
    pos = Position.start(rules, "A" if pair % 2 == 0 else "B")
    x_team = "B" if swapped else "A"
    times: dict[str, list[float]] = {"A": [], "B": []}
    cpu: dict[str, list[float]] = {"A": [], "B": []}
    moves = 0
    started = time.perf_counter()
    while not pos.is_over:
        if pos.must_throw:
            pos = pos.throw([Throw.roll(dice, rules.sticks).value for _ in range(rules.throws_per_turn)])
            continue
        team = pos.team_to_move
        level = x if team == x_team else y
        choice = len(pos.legal_moves()) > 1
        start, start_cpu = time.perf_counter(), time.thread_time()
        move = choose_move(pos, level, minds, budget_ms)
        if choice:
            times[team].append(round((time.perf_counter() - start) * 1000, 3))
            cpu[team].append(round((time.thread_time() - start_cpu) * 1000, 3))
        pos = pos.play(move)
        moves += 1
    winner = pos.outcome().winner  # type: ignore[union-attr]
    result = 0.5 if winner is None else (1.0 if winner == x_team else 0.0)
    y_team = "A" if swapped else "B"
    return {
        "variant": variant,
        "pairing": f"{x}-{y}",
        "index": index,
        "budget_ms": budget_ms,
        "seed": seed,
        "result": result,
        "times": {x: times[x_team], y: times[y_team]},
        "cpu": {x: cpu[x_team], y: cpu[y_team]},
        "moves": moves,
        "seconds": round(time.perf_counter() - started, 2),
    }


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


class Table:
    """Results by (variant, pairing) and move times by (variant, level), as games come in."""

    def __init__(self) -> None:
        self.results: dict[tuple[str, str], dict[int, float]] = {}
        self.times: dict[tuple[str, str], list[float]] = {}
        self.cpu: dict[tuple[str, str], list[float]] = {}

    def add(self, game: dict[str, object]) -> None:
        variant, pairing = str(game["variant"]), str(game["pairing"])
        self.results.setdefault((variant, pairing), {})[int(game["index"])] = float(game["result"])  # type: ignore[call-overload]
        for level, times in game["times"].items():  # type: ignore[attr-defined]
            self.times.setdefault((variant, level), []).extend(times)
        for level, times in game.get("cpu", {}).items():  # type: ignore[attr-defined]
            self.cpu.setdefault((variant, level), []).extend(times)

    def print(self, done: int, elapsed: float) -> None:
        print(f"\n-- {done} games, {elapsed:.0f} s --")
        variants = list(dict.fromkeys(v for v, _ in self.results))
        pairings = [p for p in PAIRINGS if any(q == p for _, q in self.results)]
        header = "".join(f" {p + ' (games, 95% CI)':>32}" for p in pairings)
        print(f"{'variant':<30}{header}   hard ms p50/p95 (cpu p50/p95)")
        for variant in variants:
            cells = []
            for pairing in pairings:
                outcomes = self.results.get((variant, pairing))
                if not outcomes:
                    cells.append(f" {'-':>32}")
                    continue
                mean, lo, hi = paired_interval(outcomes)
                cells.append(f" {mean:>8.1%} ({len(outcomes):>4}, {lo:5.1%}-{hi:5.1%})")
            times = self.times.get((variant, "hard"), [])
            cpu = self.cpu.get((variant, "hard"), [])
            speed = (
                f"{percentile(times, 50):7.1f}/{percentile(times, 95):7.1f} "
                f"({percentile(cpu, 50):6.1f}/{percentile(cpu, 95):6.1f})"
            )
            print(f"{variant:<30}{''.join(cells)}   {speed if times else '-'}")
        sys.stdout.flush()


def tournament(args: argparse.Namespace) -> None:
    tasks = []
    for variant in expand(args.variant):
        for pairing in args.pairings:
            x, y = pairing.split("-")
            tasks += [(variant, x, y, i, args.budget_ms, args.seed) for i in range(args.first, args.games)]
    print(f"{len(tasks)} games, budget {args.budget_ms} ms, {args.workers} workers", flush=True)
    table = Table()
    log = args.log.open("a") if args.log else None
    started = time.perf_counter()
    with Pool(args.workers) as pool:
        for done, game in enumerate(pool.imap_unordered(play_game, tasks, chunksize=1), 1):
            table.add(game)
            if log is not None:
                log.write(json.dumps(game) + "\n")
                log.flush()
            if done % args.report_every == 0 or done == len(tasks):
                table.print(done, time.perf_counter() - started)


def report(paths: list[Path], budget_ms: float, seed: int) -> None:
    """The table of every logged game at this budget and seed (a game logged twice counts once)."""
    table = Table()
    count = 0
    for path in paths:
        for line in path.read_text().splitlines():
            game = json.loads(line)
            if game["budget_ms"] == budget_ms and game["seed"] == seed:
                table.add(game)
                count += 1
    table.print(count, 0.0)


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


def real_choices(rules: Rules, count: int, seed: int) -> list[Position]:
    """Positions where a turn starts and its throws can end it in more than one way, from medium's games."""
    rng = random.Random(seed)
    found: list[Position] = []
    while len(found) < count:
        pos = Position.start(rules, "AB"[len(found) % 2])
        while not pos.is_over and len(found) < count:
            if pos.must_throw:
                pos = pos.throw([Throw.roll(rng, rules.sticks).value for _ in range(rules.throws_per_turn)])
                if pos.pending and len(turn_ends(pos)) > 1 and rng.random() < 0.3:
                    found.append(pos)
                continue
            pos = pos.play(choose_move(pos, "medium", rng))
    return found


def depth(args: argparse.Namespace) -> None:
    """How deep hard's search gets at turns with a real choice, and how long it takes (one process)."""
    for variant in expand(args.variant):
        rules = variant_rules(variant)
        model = model_for(rules)
        nodes = nodes_for(rules, args.budget_ms)
        depths: dict[int, int] = {}
        wall: list[float] = []
        cpu: list[float] = []
        spent = 0
        positions = real_choices(rules, args.positions, args.seed)
        search(model, positions[0], nodes, time.perf_counter() + 60)  # warm-up: tables and caches
        for pos in positions:
            start, start_cpu = time.perf_counter(), time.thread_time()
            result = search(model, pos, nodes, time.perf_counter() + 60)
            wall.append((time.perf_counter() - start) * 1000)
            cpu.append((time.thread_time() - start_cpu) * 1000)
            depths[result.depth] = depths.get(result.depth, 0) + 1
            spent += result.nodes
        shares = ", ".join(f"{d}: {100 * n / len(positions):.0f}%" for d, n in sorted(depths.items()))
        print(
            f"{variant:<24} {len(positions)} turns with a choice, {nodes} nodes: turns searched {shares}; "
            f"ms p50 {percentile(wall, 50):.0f} p95 {percentile(wall, 95):.0f} (cpu p95 {percentile(cpu, 95):.0f}); "
            f"{spent / sum(cpu):.0f} nodes per cpu ms",
            flush=True,
        )


def calibrate(args: argparse.Namespace) -> None:
    """Nodes per millisecond of the search, and win_probability's spread against its budget."""
    for variant in expand(args.variant):
        rules = variant_rules(variant)
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
    parser.add_argument(
        "--variant", nargs="+", default=["bell", "ants", "ants-2v2"], help="names, or all, all-1v1, all-2v2"
    )
    parser.add_argument("--pairings", nargs="+", default=list(PAIRINGS), choices=list(PAIRINGS))
    parser.add_argument("--games", type=int, default=200, help="games per variant and pairing (an even number)")
    parser.add_argument("--first", type=int, default=0, help="start at this game (the earlier ones are logged)")
    parser.add_argument("--budget-ms", type=float, default=300.0, help="per-move budget of the AI")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--report-every", type=int, default=100)
    parser.add_argument("--log", type=Path, help="append each game as a JSON line to this file")
    parser.add_argument("--report", type=Path, nargs="+", help="print the table of these logs and stop")
    parser.add_argument("--calibrate", action="store_true", help="measure nodes/ms and win_probability spread")
    parser.add_argument("--depth", action="store_true", help="hard's search depth and time at real choices")
    parser.add_argument("--positions", type=int, default=100, help="turns sampled by --depth")
    args = parser.parse_args()
    if args.report:
        report(args.report, args.budget_ms, args.seed)
    elif args.calibrate:
        calibrate(args)
    elif args.depth:
        depth(args)
    else:
        tournament(args)


if __name__ == "__main__":
    main()
