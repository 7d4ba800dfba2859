"""The most any team can score against medium in traditional ants 2 v 2: exact, where it can be computed. Run by hand.

`python benchmarks/exact_2v2.py --road 19 --pieces 1` compiles benchmarks/exact_2v2.c with the machine's C compiler
(cc), enumerates every state the game can reach when team A plays anything and team B plays puluc.ai's medium, and
solves team A's best response to medium exactly (value iteration; medium's ties shared equally, as it picks among
them at random). Prints the state count, the best response's chance to win with its team first and second and their
mean (what the paired benchmark `benchmarks/ai.py --variant ants-2v2 --pairings hard-medium` averages), medium's
own chance against medium (the mean is exactly 0.5: a check of the solver's symmetry), CPU time and memory.

Why this is the ceiling: with one active piece a seat has at most one move per throw value, so a turn of two
throws ends in at most two ways (the order of the throws), and against medium's fixed choices the team's problem
is a Markov decision process; its optimal value is the most that any players at all (hard, or perfect, or anything
better) can score against two medium players.

`--pieces P` (1 to 5, default 5) starts every seat with P pieces at home and 5 - P dead (each seat credited with
5 - P kills, so the score stays even): the same rules with fewer pieces, a position the engine accepts. The real
game has 5 and is out of reach: `--bound` prints an exact count of a set of states that holds every reachable one
(its invariants: one stack per seat at most; a lone piece anywhere but outbound on its own last cell; a stack with
pieces under its top inbound with an enemy piece under it; at most P pieces a seat at home and on the road), about
3.0e13 for 19 cells and 5 pieces, where the enumerated games with one piece a seat reach 99% of their bound.
Measured (load 7 on 2 cores): 19 cells with 1 piece a seat, 3.8 million states, 1 minute; 9 cells with 2 pieces.

`--count` counts the positions reachable with any play of both teams, `--check N` compares the C move generator
and its port of medium with puluc on N positions from games on this road (every end of a turn, and medium's
chance of each). Files go to --work (default: a folder in the system's temporary directory). Needs a C compiler;
nothing of this is part of the product.
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
    binary: Path, command: str, road: int, homes: tuple[int, ...], table: Path | None = None
) -> dict[str, list[float]]:
    """exact_2v2.c's `count` or `solve` (writing its table when given) at a lower CPU priority: its printed numbers
    by name, with the wall time and the largest memory of any process this one waited for (MB)."""
    started = time.perf_counter()
    argv = ["nice", "-n", "10", str(binary), command, str(road), ",".join(map(str, homes))]
    argv += [str(table)] if table is not None else []
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
