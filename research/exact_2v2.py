"""The most any team can score against medium in traditional ants 2 v 2: exact where it can be computed, bounded
where it cannot. Run by hand; prints numbers.

`python research/exact_2v2.py --road 19 --pieces 1` compiles research/exact_2v2.c with the machine's C compiler
(cc), enumerates every state the game can reach when team A plays anything and team B plays puluc.ai's medium, and
solves team A's best response to medium exactly (value iteration; medium's ties shared equally, as it picks among
them at random). Prints the state count, the best response's chance to win with its team first and second and their
mean (what the paired benchmark `benchmarks/ai.py --variant ants-2v2 --pairings hard-medium` averages), medium's
own chance against medium (the mean is exactly 0.5: a check of the solver's symmetry), CPU time and memory.

Why this is the ceiling: with one active piece a seat has at most one move per throw value, so a turn of two
throws ends in at most two ways (the order of the throws), and against medium's fixed choices the team's problem
is a Markov decision process; its optimal value is the most that any players at all (hard, perfect, anything
better) can score against two medium players. Only about one turn in eight offers two different ends at all
(356 of 3,000 sampled turns of 19-cell games).

`--pieces P` (1 to 5, default 5) starts every seat with P pieces at home and 5 - P dead (each team credited with
the enemy's dead as kills, so the score stays even): the same rules with fewer pieces, a position the engine
accepts. The real game has 5 and is out of reach: `--bound` prints an exact count of a set of states that holds
every reachable one (its invariants: one stack per seat at most; a lone piece anywhere but outbound on its own last
cell; a stack with pieces under its top inbound with an enemy piece under it; at most P pieces a seat at home and
on the road): 30,003,856,587,320 (3.0e13) states for 19 cells and 5 pieces, about a petabyte to solve, where the
solved games reach 67-99% of their bound; even 5 cells with 5 pieces passed 150 million reachable states.

Measured (exact; best response against medium, team A first / second / mean; load 4-9 on 2 cores):

| road, pieces a seat | states | best response vs medium | medium vs medium | cpu, memory |
|---|---|---|---|---|
| 5 cells, 1 | 16,922 | 30.43% / 71.00% / 50.71% | 29.73% / 70.27% | 0.1 s, 12 MB |
| 9 cells, 1 | 181,147 | 51.88% / 51.31% / 51.60% | 50.17% / 49.83% | 2 s, 32 MB |
| 19 cells, 1 | 3,816,267 | 51.30% / 51.02% / 51.16% | 50.13% / 49.87% | 78 s, 0.5 GB |
| 5 cells, 2 | 1,274,370 | 40.25% / 62.97% / 51.61% | 38.67% / 61.33% | 15 s, 0.1 GB |
| 7 cells, 2 | 6,458,348 | 44.86% / 59.04% / 51.95% | 42.88% / 57.12% | 97 s, 0.5 GB |
| 9 cells, 2 | 19,985,027 | 50.72% / 53.59% / 52.16% | 48.45% / 51.55% | 369 s, 1.7 GB |
The 1 v 1 game with all 5 pieces (research/exact_1v1.py, the same rules) gives 51.86% on 9 cells and 51.93% on
19. So every version of traditional ants that can be solved caps the best possible team at 50.7-52.2% against
medium: far from the goal of 60% (lower bound 57%), which no player can reach if the full game is like them.

Bounds for the full game: `--hindsight N` lets team A know every throw of the game in advance (an upper bound:
no player can do better on any sequence of throws): it wins 100% of 400 sampled games with all 5 pieces (86% with
1 piece, whose exact value is 51.2%), so it says nothing. `--dual N --estimate E` charges team A for that
knowledge (information relaxation duality, Brown, Smith and Sun 2010: any penalty of mean zero keeps the bound,
and the exact values make it exact, which the tests check): with a logistic estimate learned from medium's games
it gives 54.5% on 1 piece and 61.9% on 2 pieces (9 cells; exact 51.2% and 52.2%), and perturbing the exact values
by a noise of 0.02 a state costs 0.3 points, by 0.05 about 3: with all 5 pieces a game has enough choices (up to
600,000 hindsight lines a game) that no estimate we have comes close to a bound below 57%.

`--count` counts the positions reachable with any play of both teams, `--check N` compares the C move generator
and its port of medium with puluc on N positions from games on this road (every end of a turn, and medium's
chance of each), `--versus LEVEL --games N` plays LEVEL as team A against medium with the luck taken out (the
best response's exact value minus the exact loss of each of its turns): its exact chance against medium. Files go
to --work (default: a folder in the system's temporary directory). Needs a C compiler; nothing of this is part of
the product.
"""

from __future__ import annotations

import argparse
import bisect
import itertools
import math
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from array import array
from math import comb
from multiprocessing import Pool
from pathlib import Path

import puluc.ai
from puluc import Position, Rules, Throw
from puluc.ai import choose_move, medium_moves
from puluc.ai.search import turn_ends

# No wall-clock cut-off: every search runs to its node budget whatever the machine's load (as in exact_1v1.py).
puluc.ai.SAFETY_FACTOR = math.inf

HERE = Path(__file__).resolve().parent
PIECES = 5
SEATS = 4


def rules_for(road: int) -> Rules:
    """Traditional ants 2 v 2 on a road of `road` cells (the bot's 2 v 2 road is 19)."""
    return Rules.preset("ants", team_size=2, road_length=road)


def start(rules: Rules, homes: tuple[int, ...], first: str) -> Position:
    """The start with homes[i] pieces at home for seat i (A1, B1, A2, B2); the others are dead, each team credited
    with the enemy's dead as kills (on A1 and B1)."""
    seats = ("A1", "B1", "A2", "B2")
    dead = [PIECES - h for h in homes]
    kills = (dead[1] + dead[3], dead[0] + dead[2], 0, 0)
    cells = "/".join(["."] * rules.road_length)
    home = ",".join(f"{seat}:{h}" for seat, h in zip(seats, homes, strict=True))
    killed = ",".join(f"{seat}:{k}" for seat, k in zip(seats, kills, strict=True))
    return Position.from_ppn(rules, f"{cells} {home} {killed} {first}1 -")


def compile_solver(work: Path) -> Path:
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        sys.exit("exact_2v2 needs a C compiler (cc or gcc) on the PATH")
    work.mkdir(parents=True, exist_ok=True)
    binary = work / "exact_2v2"
    source = HERE / "exact_2v2.c"
    if not binary.exists() or binary.stat().st_mtime < source.stat().st_mtime:
        # No fused multiply-add: medium's evaluation must round exactly as Python's does.
        command = [compiler, "-O2", "-ffp-contract=off", "-o", str(binary), str(source), "-lm"]
        subprocess.run(command, check=True)
    return binary


# -- the states as exact_2v2.c reads and prints them ----------------------------------------------------------


def state_text(pos: Position) -> str:
    """`pos` (its seat to throw, or to play its throws) in exact_2v2.c's format: the seat, pieces at home per seat,
    then per seat the cell index of the stack it tops (-1: none), its direction and the pieces under it per seat."""
    stacks: list[list[int]] = [[-1, 0, 0, 0, 0, 0] for _ in range(SEATS)]
    for i, stack in enumerate(pos.raw_board):
        if stack is not None:
            row = stacks[stack[1]]
            row[0], row[1] = i, stack[0]
            for seat in stack[2:]:
                row[2 + seat] += 1
    words = [pos.turn_index, *pos.raw_home, *(x for row in stacks for x in row)]
    return " ".join(map(str, words))


def end_text(end: Position) -> str:
    """The end of a turn as exact_2v2.c prints it: `over A` / `over B`, or the next seat's state."""
    if end.is_over:
        outcome = end.outcome()
        assert outcome is not None and outcome.winner is not None  # the team that is not out always wins
        return f"over {outcome.winner}"
    return state_text(end)


def engine_turn(pos: Position) -> dict[str, float]:
    """Every end of the turn of `pos` (throws in hand) by puluc, with medium's chance of reaching it (0 for the ends
    it never plays towards): the engine's own turn_ends, and medium_moves with its ties shared equally."""
    found = {end_text(end): 0.0 for end in turn_ends(pos)} if pos.pending else {end_text(pos): 0.0}
    seat = pos.turn_index
    layer = [(pos, 1.0)]
    while layer:
        here, p = layer.pop()
        if here.is_over or not here.pending or here.turn_index != seat:
            found[end_text(here)] += p
            continue
        chosen = medium_moves(here)
        for move in chosen:
            layer.append((here.play(move), p / len(chosen)))
    return found


def solver_turns(binary: Path, road: int, lines: list[str]) -> list[dict[str, float]]:
    """exact_2v2.c's ends of each turn (a state and two throws a line), with medium's chance of each."""
    out = subprocess.run(
        [str(binary), "turns", str(road)], input="\n".join(lines) + "\n", capture_output=True, text=True, check=True
    ).stdout
    turns: list[dict[str, float]] = []
    current: dict[str, float] = {}
    for line in out.splitlines():
        if line == "done":
            turns.append(current)
            current = {}
            continue
        chance, _, end = line.partition(" ")
        current[end] = float(chance)
    return turns


def sample_turns(rules: Rules, pieces: int, count: int, seed: int) -> list[Position]:
    """Positions with throws in hand from games on `rules` (a game all random moves, or medium's with 20% random),
    one turn in ten, its throws drawn at random; a quarter of them with two equal throws."""
    rng = random.Random(seed)
    found: list[Position] = []
    while len(found) < count:
        pos = start(rules, (pieces,) * SEATS, rng.choice("AB"))
        noise = rng.choice((0.2, 1.0))
        while not pos.is_over and len(found) < count:
            if pos.must_throw:
                if rng.random() < 0.1:
                    a = Throw.roll(rng).value
                    b = a if rng.random() < 0.25 else Throw.roll(rng).value
                    found.append(pos.throw([a, b]))
                pos = pos.throw([Throw.roll(rng).value, Throw.roll(rng).value])
                continue
            level = "easy" if rng.random() < noise else "medium"
            pos = pos.play(choose_move(pos, level, rng))
    return found


def throw_line(pos: Position) -> str:
    """A position with throws in hand as a `turns` line: its state and the two throws."""
    before = Position.from_ppn(pos.rules, pos.to_ppn().rsplit(" ", 1)[0] + " -")
    a, b = (pos.pending + pos.pending)[:2] if len(pos.pending) == 1 else pos.pending
    return f"{state_text(before)} {a} {b}"


def check(binary: Path, road: int, pieces: int, count: int, seed: int) -> tuple[list[str], dict[str, int]]:
    """Differences between exact_2v2.c and puluc on `count` sampled turns (none when they agree everywhere), and
    how many of the turns had two ends, a tie for medium, a finished game among the ends."""
    rules = rules_for(road)
    positions = [p for p in sample_turns(rules, pieces, count * 2, seed) if len(p.pending) == 2][:count]
    theirs = solver_turns(binary, road, [throw_line(p) for p in positions])
    problems = []
    seen = {"two ends": 0, "medium's tie": 0, "game over": 0}
    for pos, got in zip(positions, theirs, strict=True):
        want = engine_turn(pos)
        if set(got) != set(want) or any(abs(got[k] - want[k]) > 1e-6 for k in want):
            problems.append(f"{pos.to_ppn()}: puluc {want}, exact_2v2 {got}")
        seen["two ends"] += len(want) == 2
        seen["medium's tie"] += sum(0 < p < 1 for p in want.values()) == 2
        seen["game over"] += any(end.startswith("over") for end in want)
    return problems, seen


# -- the solved values in Python: hard's exact score by games with the luck taken out ----------------------------


def _placements() -> dict[int, int]:
    """exact_2v2.c's rank of a seat's pieces (home, under each of the four tops), read as base-6 digits."""
    ranks: dict[int, int] = {}
    for x in range(6**5):
        digits, y = [], x
        for _ in range(5):
            digits.append(y % 6)
            y //= 6
        if sum(digits) <= PIECES:
            ranks[x] = len(ranks)
    return ranks


PLACEMENT = _placements()


def state_key(pos: Position) -> int:
    """exact_2v2.c's key of `pos` (which must throw): seats A1 <-> A2 and B1 <-> B2 swapped when A2 or B2 throws,
    then the seat, each seat's stack and where each seat's pieces are, as mixed-radix digits (encode() there)."""
    cell, direction = [-1] * SEATS, [0] * SEATS
    below = [[0] * SEATS for _ in range(SEATS)]
    for i, stack in enumerate(pos.raw_board):
        if stack is not None:
            cell[stack[1]], direction[stack[1]] = i, stack[0]
            for seat in stack[2:]:
                below[stack[1]][seat] += 1
    home, turn = list(pos.raw_home), pos.turn_index
    if turn >= 2:
        cell = [cell[s ^ 2] for s in range(SEATS)]
        direction = [direction[s ^ 2] for s in range(SEATS)]
        below = [[below[s ^ 2][j ^ 2] for j in range(SEATS)] for s in range(SEATS)]
        home = [home[s ^ 2] for s in range(SEATS)]
        turn ^= 2
    radix = 2 * pos.road_length + 1
    key = turn
    for t in range(SEATS):
        key = key * radix + (0 if cell[t] < 0 else 1 + 2 * cell[t] + direction[t])
    for j in range(SEATS):
        x = home[j]
        for t in range(SEATS):
            x = x * 6 + below[t][j]
        key = key * len(PLACEMENT) + PLACEMENT[x]
    return key


class Table:
    """Team A's exact best-response chance against medium for every state exact_2v2.c solved (`solve ... TABLE`)."""

    def __init__(self, path: Path) -> None:
        data = path.read_bytes()
        n = int.from_bytes(data[:4], "little")
        self.keys = array("Q")
        self.keys.frombytes(data[4 : 4 + 8 * n])
        self.values = array("f")
        self.values.frombytes(data[4 + 8 * n : 4 + 12 * n])

    def value(self, pos: Position) -> float:
        """Team A's chance from `pos` (must throw, or finished) when it plays its best from there on."""
        if pos.is_over:
            return 1.0 if pos.outcome().winner == "A" else 0.0  # type: ignore[union-attr]
        key = state_key(pos)
        i = bisect.bisect_left(self.keys, key)
        if i == len(self.keys) or self.keys[i] != key:
            raise KeyError(f"not a solved state: {pos.to_ppn()}")
        return float(self.values[i])


def luck_free_game(
    table: Table, rules: Rules, homes: tuple[int, ...], level: str, index: int, budget_ms: float
) -> float:
    """Team A played by `level` against medium, A1 first in even games and B1 first in odd ones: the best
    response's exact chance minus the exact loss of each of team A's turns (the best end's value minus the value
    of the end it played). Its mean over games is the level's exact chance against medium (performance
    difference: every other step of the game has mean zero), with far less spread than won and lost games."""
    dice, minds = random.Random(1_000_003 * index), random.Random(7_000_003 * index)
    pos = start(rules, homes, "AB"[index % 2])
    adjusted = table.value(pos)
    while not pos.is_over:
        if pos.must_throw:
            pos = pos.throw([Throw.roll(dice).value, Throw.roll(dice).value])
            continue
        seat = pos.turn_index
        if seat & 1 == 0 and len(ends := turn_ends(pos)) > 1:
            best = max(table.value(end) for end in ends)
            while not pos.is_over and pos.pending and pos.turn_index == seat:
                pos = pos.play(choose_move(pos, level, minds, budget_ms))
            adjusted -= best - table.value(pos)
            continue
        while not pos.is_over and pos.pending and pos.turn_index == seat:
            pos = pos.play(choose_move(pos, level if seat & 1 == 0 else "medium", minds, budget_ms))
    return adjusted


# -- the bound on the state count ----------------------------------------------------------------------------


def state_bound(road: int, pieces: int) -> int:
    """How many states satisfy the invariants of every reachable one (module docstring), seen from A1 or B1 about
    to throw (exact_2v2.c's states; twice as many with every seat): an exact count, by inclusion-exclusion over the
    stacks whose enemy pieces under the top are missing."""
    total = 0
    seats = range(SEATS)
    for stacks in itertools.chain.from_iterable(itertools.combinations(seats, n) for n in range(SEATS + 1)):
        for tall_count in range(len(stacks) + 1):
            for tall in itertools.combinations(stacks, tall_count):
                placements = 0
                for k in range(len(tall) + 1):
                    for bare in itertools.combinations(tall, k):  # these tops hold no enemy piece
                        product = 1
                        for seat in seats:
                            under = [t for t in tall if not (t in bare and t % 2 != seat % 2)]
                            left = pieces - (seat in stacks)
                            # (home, one count per top it may lie under) with a sum of at most `left`
                            product *= comb(left + 1 + len(under), 1 + len(under))
                        placements += (-1) ** k * product
                total += placements * _cells(road, stacks, tall)
    return 2 * total


def _cells(road: int, stacks: tuple[int, ...], tall: tuple[int, ...]) -> int:
    """Ways to put the stacks on distinct cells: a stack with pieces under its top faces inbound; a lone piece
    either way, except outbound on its own last cell."""
    ways = 0
    for cells in itertools.permutations(range(1, road + 1), len(stacks)):
        w = 1
        for seat, cell in zip(stacks, cells, strict=True):
            if seat not in tall:
                own = cell if seat % 2 == 0 else road + 1 - cell
                w *= 2 if own < road else 1
        ways += w
    return ways


# -- driver ---------------------------------------------------------------------------------------------------


def run_solver(
    binary: Path,
    command: str,
    road: int,
    homes: tuple[int, ...],
    table: Path | None = None,
    extra: list[str] | None = None,
) -> dict[str, list[float]]:
    """exact_2v2.c's `count`, `solve` (writing its table when given), `hindsight` or `dual` (with `extra` arguments)
    at a lower CPU priority: its printed numbers by name, with the wall time and the largest memory of any process
    this one waited for (MB)."""
    started = time.perf_counter()
    argv = ["nice", "-n", "10", str(binary), command, str(road), ",".join(map(str, homes))]
    argv += [str(table)] if table is not None else []
    argv += extra or []
    out = subprocess.run(argv, check=True, capture_output=True, text=True).stdout
    values = {line.split()[0]: [float(x) for x in line.split()[1:]] for line in out.splitlines()}
    values["wall_seconds"] = [time.perf_counter() - started]
    values["max_rss_mb"] = [resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024]
    return values


def _game(task: tuple[str, int, tuple[int, ...], str, int, float]) -> float:
    path, road, homes, level, index, budget_ms = task
    if path not in _TABLES:
        _TABLES[path] = Table(Path(path))
    return luck_free_game(_TABLES[path], rules_for(road), homes, level, index, budget_ms)


_TABLES: dict[str, Table] = {}


def versus(table: Path, road: int, homes: tuple[int, ...], level: str, games: int, workers: int, budget: float) -> str:
    """`level`'s exact chance against medium from `games` luck-free games (pairs: each start once), 95% interval."""
    tasks = [(str(table), road, homes, level, i, budget) for i in range(games)]
    with Pool(workers) as pool:
        results = pool.map(_game, tasks, chunksize=4)
    pairs = [(results[i] + results[i + 1]) / 2 for i in range(0, games - 1, 2)]
    mean = statistics.fmean(pairs)
    half = 1.96 * statistics.stdev(pairs) / math.sqrt(len(pairs))
    return f"{level} vs medium {mean:.2%} (95% interval {mean - half:.2%} to {mean + half:.2%}, {games} games)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--road", type=int, default=19, help="cells of the road (odd, 5 to 41)")
    parser.add_argument("--pieces", type=int, default=PIECES, choices=range(1, PIECES + 1), help="pieces a seat")
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "puluc-exact")
    parser.add_argument("--bound", action="store_true", help="print the bound on the state count and stop")
    parser.add_argument("--count", action="store_true", help="count the positions reachable with any play and stop")
    parser.add_argument("--check", type=int, metavar="N", help="compare with puluc on N sampled turns and stop")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hindsight", type=int, metavar="N", help="the hindsight bound over N scenarios and stop")
    parser.add_argument("--dual", type=int, metavar="N", help="the penalised hindsight bound over N scenarios, stop")
    parser.add_argument("--estimate", default="learned", help="--dual's penalty: medium, learned, exact[:SIGMA]")
    parser.add_argument("--versus", metavar="LEVEL", help="after solving: LEVEL's exact chance against medium")
    parser.add_argument("--games", type=int, default=200, help="games for --versus (each start half of them)")
    parser.add_argument("--budget-ms", type=float, default=300.0)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    name = f"traditional ants 2 v 2, {args.road} cells, {args.pieces} piece{'s' * (args.pieces > 1)} a seat"
    if args.bound:
        print(f"{name}: at most {state_bound(args.road, args.pieces):,} states (A1 or B1 to throw)")
        return
    binary = compile_solver(args.work)
    if args.check:
        problems, seen = check(binary, args.road, args.pieces, args.check, args.seed)
        kinds = ", ".join(f"{kind} {n}" for kind, n in seen.items())
        print(f"{name}: {args.check} turns compared with puluc ({kinds}), {len(problems)} differ")
        for problem in problems[:10]:
            print("  " + problem)
        return
    homes = (args.pieces,) * SEATS
    if args.hindsight or args.dual:
        bound = "hindsight" if args.hindsight else "dual"
        command = [bound, str(args.hindsight or args.dual)] + ([args.estimate] if args.dual else [])
        v = run_solver(binary, command[0], args.road, homes, None, [*command[1:], str(args.seed)])
        first, second, mean = v[bound]
        spread = f" (standard error {v['dual_se'][2]:.2%})" if args.dual else ""
        what = "with hindsight" if args.hindsight else f"with hindsight, penalised by the {args.estimate} estimate"
        print(f"{name}: team A's best {what}, over {int(v['scenarios'][0])} scenarios:")
        print(f"  first {first:.2%}, second {second:.2%}, mean {mean:.2%}{spread}: an upper bound on the best response")
        if "learned_error" in v:
            print(f"  (the learned estimate's root mean square error against the exact: {v['learned_error'][0]:.3f})")
        if "best_response" in v:
            print(f"  (the best response itself: {v['best_response'][2]:.4%})")
        return
    if args.count:
        positions = int(run_solver(binary, "count", args.road, homes)["positions"][0])
        print(f"{name}: {positions:,} positions reachable with any play (A1 or B1 to throw)")
        return
    table = args.work / f"ants-2v2-{args.road}-{args.pieces}.table" if args.versus else None
    v = run_solver(binary, "solve", args.road, homes, table)
    states = int(v["states"][0])
    bound = state_bound(args.road, args.pieces)
    print(f"{name}: {states:,} states (A1 or B1 to throw; {states / bound:.1%} of the bound {bound:,})")
    print(f"  turns with a real choice for team A: {int(v['choices'][0]):,} (state, throws) pairs")
    first, second, mean = v["best_response"]
    print(f"  best response vs medium: first {first:.4%}, second {second:.4%}, paired mean {mean:.4%}")
    first, second, mean = v["medium"]
    print(f"  medium vs medium:        first {first:.4%}, second {second:.4%}, paired mean {mean:.4%}")
    print(f"  {v['cpu_seconds'][0]:.0f} s cpu, {v['wall_seconds'][0]:.0f} s wall, {v['max_rss_mb'][0]:,.0f} MB")
    if args.versus and table is not None:
        print("  " + versus(table, args.road, homes, args.versus, args.games, args.workers, args.budget_ms))


if __name__ == "__main__":
    main()
