"""Exact solutions of 1 v 1 Puluc, and what they say about the AI: run by hand, prints numbers.

`python research/exact_1v1.py --variant eagle` compiles research/exact_1v1.c with the machine's C compiler
(cc), solves the variant (every position a seat can face before its throw, by value iteration), and prints the
exact cost of each level's decisions: over turns with a choice that matters (from games of perfect play with
some random moves), the mean loss of winning chance against the best way to play the turn, and how often the
choice is not a best one (hard at --budget-ms). Further, each instead of the decision costs:

- `--versus hard medium`: X's chance against Y measured in games (pairs share their throws, sides swapped) with
  the luck taken out: a game counts as the first player's exact chance plus the exact losses of Y's turns minus
  X's. Its mean is X's true chance; 40 games give an interval of about +-1 point where won and lost games need
  thousands (checked against the exact match value of medium against easy on ants-traditional: 73.9% +- 1.7
  from 1,000 games, exactly 74.5%).
- `--matches`: exact match values (no sampling) between perfect play, the best response to a fixed player (the
  most that any player at all can win against it) and puluc.ai's own easy and medium, whose every choice is
  exported from Python (cached by the hash of puluc/'s sources; minutes for a few million positions).
- `--fit GAMES`: refit the hard player's evaluation (puluc/ai/features.py) to the exact values of positions
  from games between medium and perfect players with 0-40% random moves; prints the weights with their error on
  held-out positions.

Variants: 1 v 1 names as benchmarks/ai.py reads them on the army and ants routes with bell sticks (bell, ants,
eagle, scorpion, fire and their flags, `-traditional` for two throws and one active piece); `--road N` solves a
traditional setup on a road of N cells (the road of team games is 19 to 29). Sizes: bell 9,830,420 positions,
ants 87,087,690, eagle 2,782,988, bell-traditional 29,843, ants-traditional 50,261.

Files go to --work (default: a folder in the system's temporary directory). Needs a C compiler; nothing of this
is part of the product or its tests.
"""

from __future__ import annotations

import argparse
import bisect
import dataclasses
import hashlib
import math
import os
import random
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from array import array
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))  # the shared helpers below
from ai import variant_rules
from percentiles import percentile

import puluc.ai
from puluc import Position, Rules, Throw
from puluc.ai import choose_move, medium_moves
from puluc.ai.evaluate import model_for
from puluc.ai.features import FEATURES, WIN_WEIGHTS, features
from puluc.ai.search import turn_ends
from puluc.routes import INBOUND

# No wall-clock cut-off here: every search runs to its node budget whatever the machine's load, so the numbers
# depend on the seeds alone (move times are still measured, and printed with the CPU time beside them).
puluc.ai.SAFETY_FACTOR = math.inf

HERE = Path(__file__).resolve().parent
MATCHES = (("perfect", "easy"), ("br", "easy"), ("perfect", "medium"), ("br", "medium"), ("medium", "easy"))
#: The ends of a turn that finish the game, by the mover's result (exact_1v1.c's WIN_KEY, DRAW_KEY, LOSS_KEY).
WIN_KEY, DRAW_KEY, LOSS_KEY = (1 << 64) - 1, (1 << 64) - 2, (1 << 64) - 3


def rules_of(name: str) -> Rules:
    """The rules of a variant name as benchmarks/ai.py reads it (1 v 1), optionally with `@ROAD`: a traditional
    setup on a road of ROAD cells."""
    variant, _, road = name.partition("@")
    rules = variant_rules(variant)
    return dataclasses.replace(rules, road_length=int(road)) if road else rules


def c_rules(rules: Rules) -> str:
    """The rules as exact_1v1.c reads them; raises SystemExit for rules it does not solve."""
    if rules.team_size != 1 or rules.route not in ("army", "ants") or rules.sticks != "bell":
        sys.exit("exact_1v1 solves 1 v 1 on the army and ants routes with bell sticks")
    words = ["army" if rules.route == "army" else "ants", rules.setup]
    words += [
        word
        for word, on in (
            ("eagle", rules.capture == "eagle"),
            ("returns", rules.eagle_returns),
            ("scorpion", rules.scorpion),
            ("fire", rules.fire),
        )
        if on
    ]
    return ",".join(words)


def scored(rules: Rules) -> bool:
    """Whether the kills are part of exact_1v1.c's state: the score, not who runs out, can decide."""
    return rules.capture == "eagle" or rules.fire


class Table:
    """The solved values: W(position) = the chance that the seat about to throw wins with perfect play."""

    def __init__(self, path: Path) -> None:
        data = path.read_bytes()
        n = int.from_bytes(data[:4], "little")
        self.keys = array("Q")
        self.keys.frombytes(data[4 : 4 + 8 * n])
        self.values = array("f")
        self.values.frombytes(data[4 + 8 * n : 4 + 12 * n])
        self.size = n

    @staticmethod
    def key(pos: Position) -> int:
        """exact_1v1.c's key of `pos` (which must throw) seen from its seat: see encode() there."""
        me = pos.turn_index & 1
        board = pos.raw_board if me == 0 else pos.raw_board[::-1]
        home = pos.raw_home
        key = shift = 0
        if len(board) != 9:  # encode_sparse() there
            for i, stack in enumerate(board):
                if stack is not None:
                    key |= i << shift | stack[0] << (shift + 6) | (len(stack) - 1) << (shift + 7)
                    for j, seat in enumerate(stack[1:]):
                        key |= (seat & 1 != me) << (shift + 11 + j)
                    shift += 10 + len(stack)
            return key | 63 << shift | home[me] << 56 | home[1 - me] << 60
        for stack in board:
            if stack is not None:
                for seat in stack[1:]:
                    key |= (1 if seat & 1 == me else 2) << shift
                    shift += 2
            if stack is None or stack[0] != INBOUND:
                key |= 3 << shift
            shift += 2
        if scored(pos.rules):
            kills = pos.raw_kills
            key |= kills[me] << 48 | kills[1 - me] << 52
        return key | home[me] << 40 | home[1 - me] << 44

    def index(self, pos: Position) -> int:
        key = self.key(pos)
        i = bisect.bisect_left(self.keys, key)
        if i == self.size or self.keys[i] != key:
            raise KeyError(f"not a reachable position: {pos.to_ppn()}")
        return i

    def chance(self, pos: Position) -> float:
        return self.values[self.index(pos)]

    def end_value(self, end: Position, team: int) -> float:
        """`team`'s exact chance to win from the end of its turn (the other seat throws next, or it is over)."""
        if end.is_over:
            winner = end.outcome().winner  # type: ignore[union-attr]
            return 0.5 if winner is None else float(winner == "AB"[team])
        return 1.0 - self.chance(end)

    def end_values(self, pos: Position) -> list[tuple[Position, float]]:
        """Every distinct end of the turn of `pos` (throws in hand) with the mover's exact chance after it."""
        team = pos.turn_index & 1
        return [(end, self.end_value(end, team)) for end in turn_ends(pos)]


def throw_turn(pos: Position, rng: random.Random) -> Position:
    return pos.throw([Throw.roll(rng, pos.rules.sticks).value for _ in range(pos.rules.throws_per_turn)])


def play_turn(pos: Position, choose: object) -> Position:
    """Play the turn of `pos` (throws in hand) to its end, each move by `choose(position)`."""
    seat = pos.turn_index
    while not pos.is_over and pos.pending and pos.turn_index == seat:
        pos = pos.play(choose(pos))  # type: ignore[operator]
    return pos


# -- the levels' decisions ------------------------------------------------------------------------------


def decisions(table: Table, rules: Rules, count: int, seed: int) -> list[str]:
    """PPNs of turns with a choice that matters, from games of perfect play with 0-50% random moves."""
    rng = random.Random(seed)
    found: list[str] = []
    while len(found) < count:
        pos = Position.start(rules, rng.choice("AB"))
        noise = rng.choice((0.0, 0.2, 0.5))
        while not pos.is_over and len(found) < count:
            if pos.must_throw:
                pos = throw_turn(pos, rng)
                continue
            values = table.end_values(pos)
            low, high = min(v for _, v in values), max(v for _, v in values)
            if high - low > 1e-6:
                found.append(pos.to_ppn())
            if rng.random() < noise:
                pos = play_turn(pos, lambda p: rng.choice(p.legal_moves()))
            else:
                pos = next(e for e, v in values if v >= high - 1e-7)
    return found


def _cost_chunk(task: tuple[str, str, str, list[str], float]) -> tuple[float, int, list[float]]:
    path, variant, level, ppns, budget_ms = task
    table = Table(Path(path))
    rules = rules_of(variant)
    loss = 0.0
    wrong = 0
    times = []
    for i, text in enumerate(ppns):
        pos = Position.from_ppn(rules, text)
        team = pos.turn_index & 1
        best = max(v for _, v in table.end_values(pos))
        rng = random.Random(i)
        start = time.perf_counter()
        end = play_turn(pos, lambda p: choose_move(p, level, rng, budget_ms))  # noqa: B023
        times.append((time.perf_counter() - start) * 1000)
        cost = best - table.end_value(end, team)
        loss += cost
        wrong += cost > 1e-6
    return loss, wrong, times


def level_cost(table_path: Path, variant: str, level: str, ppns: list[str], workers: int, budget_ms: float) -> str:
    tasks = [(str(table_path), variant, level, ppns[i::workers], budget_ms) for i in range(workers)]
    with Pool(workers) as pool:
        parts = pool.map(_cost_chunk, tasks)
    loss = sum(p[0] for p in parts) / len(ppns)
    wrong = sum(p[1] for p in parts) / len(ppns)
    times = [t for p in parts for t in p[2]]
    return (
        f"{level:<7} mean loss {100 * loss:6.3f} points of winning chance per decision, not a best choice in "
        f"{100 * wrong:5.1f}%   (ms per turn p50 {percentile(times, 50):.2f}, p95 {percentile(times, 95):.2f})"
    )


# -- matches measured against the exact values ------------------------------------------------------------


def _luck_free_game(task: tuple[str, str, str, str, int, float, int]) -> float:
    """X's result in one game against Y with the luck taken out: the first player's exact chance, plus every
    exact loss of winning chance Y's turns made, minus X's. Its mean is X's true chance to win (the throws'
    effect has mean zero: a position's exact value is the mean over the throws of the value after them), and
    it varies far less than a won or lost game. Games 2k and 2k + 1 share their throws, sides swapped."""
    path, variant, x, y, index, budget_ms, seed = task
    table = _table(path)
    rules = rules_of(variant)
    pair, swapped = divmod(index, 2)
    dice = random.Random(seed * 1_000_003 + pair)
    minds = random.Random(seed * 7_000_003 + index)
    pos = Position.start(rules, "A" if pair % 2 == 0 else "B")
    x_team = 1 if swapped else 0
    first = table.chance(pos)
    adjusted = first if pos.turn_index & 1 == x_team else 1.0 - first
    while not pos.is_over:
        if pos.must_throw:
            pos = throw_turn(pos, dice)
            continue
        team = pos.turn_index & 1
        best = max(v for _, v in table.end_values(pos))
        level = x if team == x_team else y
        end = play_turn(pos, lambda p: choose_move(p, level, minds, budget_ms))  # noqa: B023
        loss = best - table.end_value(end, team)
        adjusted += -loss if team == x_team else loss
        pos = end
    return adjusted


_TABLES: dict[str, Table] = {}


def _table(path: str) -> Table:
    """One Table per process (a large one takes seconds to read)."""
    if path not in _TABLES:
        _TABLES[path] = Table(Path(path))
    return _TABLES[path]


def luck_free_match(table_path: Path, variant: str, x: str, y: str, games: int, workers: int, budget_ms: float) -> str:
    tasks = [(str(table_path), variant, x, y, i, budget_ms, 2026) for i in range(games)]
    with Pool(workers) as pool:
        results = pool.map(_luck_free_game, tasks, chunksize=4)
    pairs = [(results[i] + results[i + 1]) / 2 for i in range(0, games - 1, 2)]
    mean = sum(pairs) / len(pairs)
    half = 1.96 * statistics.stdev(pairs) / math.sqrt(len(pairs))
    return f"{x:>7} vs {y:<7} {mean:7.2%}  (95% interval {mean - half:.2%} to {mean + half:.2%}, {games} games)"


# -- medium's every choice, for the exact match values ----------------------------------------------------


def _position(rules: Rules, key: int) -> Position:
    """The state `key` as a Position with A to throw (kills follow from the pieces left)."""
    cells: list[str] = ["."] * rules.road_length
    on = [0, 0]
    if rules.road_length == 9:
        shift = 0
        for cell in range(9):
            pieces = []
            while (sym := (key >> shift) & 3) not in (0, 3):
                pieces.append("A1" if sym == 1 else "B1")
                on[sym - 1] += 1
                shift += 2
            if pieces:
                cells[cell] = "".join(pieces) + ("-" if sym == 0 else "+")
            shift += 2
        home = ((key >> 40) & 15, (key >> 44) & 15)
        kills = ((key >> 48) & 15, (key >> 52) & 15)
    else:  # decode_sparse() in exact_1v1.c
        shift = 0
        while (cell := (key >> shift) & 63) != 63:
            size = (key >> (shift + 7)) & 15
            enemy = [(key >> (shift + 11 + j)) & 1 for j in range(size)]
            for e in enemy:
                on[e] += 1
            cells[cell] = "".join("B1" if e else "A1" for e in enemy) + "+-"[(key >> (shift + 6)) & 1]
            shift += 11 + size
        home = ((key >> 56) & 15, (key >> 60) & 15)
        kills = (0, 0)
    if not scored(rules):  # every piece off the road and out of home was killed
        kills = (5 - home[1] - on[1], 5 - home[0] - on[0])
    ppn = f"{'/'.join(cells)} A1:{home[0]},B1:{home[1]} A1:{kills[0]},B1:{kills[1]} A1 -"
    return Position.from_ppn(rules, ppn)


def turn_outcomes(rules: Rules) -> list[tuple[int, ...]]:
    """The throws of a turn in exact_1v1.c's order (outcomes() there)."""
    if rules.throws_per_turn == 1:
        return [(a,) for a in range(1, 6)]
    return [(a, b) for a in range(1, 6) for b in range(a, 6)]


def medium_ends(pos: Position) -> dict[int, float]:
    """The ends of the turn medium reaches from `pos`, by key (a finished game by its result: WIN_KEY, ...), with
    their chances (ties shared)."""
    out: dict[int, float] = {}
    layer = [(pos, 1.0)]
    seat = pos.turn_index
    while layer:
        here, p = layer.pop()
        if here.is_over or not here.pending or here.turn_index != seat:
            if here.is_over:
                winner = here.outcome().winner  # type: ignore[union-attr]
                key = DRAW_KEY if winner is None else WIN_KEY if winner == "AB"[seat & 1] else LOSS_KEY
            else:
                key = Table.key(here)
            out[key] = out.get(key, 0.0) + p
            continue
        chosen = medium_moves(here)  # medium picks one of these at random
        for move in chosen:
            layer.append((here.play(move), p / len(chosen)))
    return out


def _medium_chunk(task: tuple[str, str, int, int]) -> bytes:
    path, variant, lo, hi = task
    table = Table(Path(path))
    rules = rules_of(variant)
    out = bytearray()
    for q in range(lo, hi):
        before = _position(rules, table.keys[q])
        for throws in turn_outcomes(rules):
            pos = before.throw(list(throws))
            if pos.must_throw:  # no legal move: the throw passes
                out += struct.pack("<B", 0)
                continue
            ends = medium_ends(pos)
            out += struct.pack("<B", len(ends))
            for key, p in sorted(ends.items()):
                out += struct.pack("<Qf", key, p)
    return bytes(out)


def export_medium(table_path: Path, variant: str, out: Path, workers: int) -> None:
    size = Table(table_path).size
    step = 2_000
    tasks = [(str(table_path), variant, lo, min(size, lo + step)) for lo in range(0, size, step)]
    started = time.perf_counter()
    with Pool(workers) as pool, out.with_suffix(".part").open("wb") as f:
        for done, chunk in enumerate(pool.imap(_medium_chunk, tasks), 1):
            f.write(chunk)
            if done % 200 == 0:
                elapsed = time.perf_counter() - started
                print(f"  medium's choices: {done}/{len(tasks)} chunks, {elapsed:.0f} s", flush=True)
    out.with_suffix(".part").rename(out)


# -- refitting the evaluation ---------------------------------------------------------------------------


def _rows_chunk(task: tuple[str, str, int, int]) -> list[tuple[list[float], float]]:
    """(features, team A's exact chance) of every must-throw position of games lo..hi."""
    path, variant, lo, hi = task
    table = Table(Path(path))
    rules = rules_of(variant)
    model = model_for(rules)
    rows = []
    for game in range(lo, hi):
        rng = random.Random(game)
        noise = rng.choice((0.0, 0.1, 0.2, 0.4))
        perfect = rng.random() < 0.5
        pos = Position.start(rules, "AB"[game % 2])
        while not pos.is_over:
            if pos.must_throw:
                chance = table.chance(pos)
                rows.append((features(model, pos), chance if pos.turn_index & 1 == 0 else 1.0 - chance))
                pos = throw_turn(pos, rng)
                continue
            if rng.random() < noise:
                pos = play_turn(pos, lambda p: rng.choice(p.legal_moves()))  # noqa: B023
            elif perfect:
                values = table.end_values(pos)
                high = max(v for _, v in values)
                pos = rng.choice([e for e, v in values if v >= high - 1e-7])
            else:
                pos = play_turn(pos, lambda p: choose_move(p, "medium", rng))  # noqa: B023
    return rows


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-z)) if z > -700 else 0.0


def fit(rows: list[tuple[list[float], float]], start: tuple[float, ...], ridge: float = 1e-3) -> list[float]:
    """Logistic regression on soft targets by Newton's method (cross-entropy plus ridge * n * |w|^2 / 2).

    Needs numpy (`pip install -e '.[fit]'`): a few million rows would take the pure-Python loop hours.
    """
    import numpy as np

    x = np.array([r for r, _ in rows], dtype=float)
    y = np.array([t for _, t in rows], dtype=float)
    w = np.array(start, dtype=float)
    n, d = x.shape
    for _ in range(30):
        q = 1.0 / (1.0 + np.exp(-np.clip(x @ w, -50.0, 50.0)))
        grad = x.T @ (q - y) + ridge * n * w
        hess = (x * (q * (1.0 - q))[:, None]).T @ x + ridge * n * np.eye(d)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.max(np.abs(step)) < 1e-9:
            break
    return [float(v) for v in w]


def mean_error(rows: list[tuple[list[float], float]], w: tuple[float, ...] | list[float]) -> float:
    return sum(abs(_sigmoid(sum(a * b for a, b in zip(w, x, strict=True))) - t) for x, t in rows) / len(rows)


def refit(table_path: Path, variant: str, workers: int, games: int) -> None:
    started = time.perf_counter()
    step = 500
    total = games + games // 4  # the last fifth of the games is held out
    tasks = [(str(table_path), variant, lo, min(total, lo + step)) for lo in range(0, total, step)]
    with Pool(workers) as pool:
        parts = pool.map(_rows_chunk, tasks)
    cut = len([t for t in tasks if t[3] <= games])
    train = [r for p in parts[:cut] for r in p]
    held = [r for p in parts[cut:] for r in p]
    print(f"{len(train):,} training and {len(held):,} held-out positions ({time.perf_counter() - started:.0f} s)")
    w = fit(train, WIN_WEIGHTS)
    print(
        f"mean error of the chance to win on held-out positions: now {100 * mean_error(held, WIN_WEIGHTS):.2f} "
        f"points, refitted {100 * mean_error(held, w):.2f}"
    )
    print_weights("WIN_WEIGHTS", w)


def print_weights(name: str, weights: list[float]) -> None:
    """The weights as the Python source of puluc/ai/features.py, one feature a line."""
    print(f"{name} = (")
    for feature, value in zip(FEATURES, weights, strict=True):
        print(f"    {value:.3f},  # {feature}")
    print(")")


# -- driver ---------------------------------------------------------------------------------------------


def sources_hash() -> str:
    digest = hashlib.sha256()
    for path in sorted((HERE.parent / "puluc").rglob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", default="bell", help="a 1 v 1 name as in benchmarks/ai.py, e.g. eagle+fire")
    parser.add_argument("--road", type=int, default=9, help="cells of the road (not 9: traditional setups only)")
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "puluc-exact")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--decisions", type=int, default=4000, help="turns for the levels' decision cost")
    parser.add_argument("--levels", nargs="+", default=["easy", "medium", "hard"])
    parser.add_argument("--budget-ms", type=float, default=300.0)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--matches", action="store_true", help="exact match values (exports medium's choices)")
    parser.add_argument("--versus", nargs=2, metavar=("X", "Y"), help="play X against Y, luck taken out, and stop")
    parser.add_argument("--games", type=int, default=400, help="games for --versus (pairs share their throws)")
    parser.add_argument("--fit", type=int, metavar="GAMES", help="refit the evaluation on GAMES games and stop")
    args = parser.parse_args()
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        sys.exit("exact_1v1 needs a C compiler (cc or gcc) on the PATH")
    work: Path = args.work
    work.mkdir(parents=True, exist_ok=True)
    binary = work / "exact_1v1"
    source = HERE / "exact_1v1.c"
    if not binary.exists() or binary.stat().st_mtime < source.stat().st_mtime:
        subprocess.run([compiler, "-O2", "-o", str(binary), str(source), "-lm"], check=True)
    name = args.variant if args.road == 9 else f"{args.variant}@{args.road}"
    rules = rules_of(name)
    spec = c_rules(rules)
    if args.road != 9 and (rules.setup != "traditional" or scored(rules)):
        sys.exit("only traditional setups without eagle or fire are solved on other roads than 9 cells")
    environment = {**os.environ, "PULUC_ROAD": str(args.road)}
    table_path = work / f"{name}.table"
    if not table_path.exists():
        started = time.perf_counter()
        subprocess.run([str(binary), "solve", spec, str(table_path)], check=True, env=environment)
        print(f"solved in {time.perf_counter() - started:.0f} s")
    if args.fit:
        refit(table_path, name, args.workers, args.fit)
        return
    table = Table(table_path)
    start = Position.start(rules, "A")
    chance = table.chance(start)
    print(f"{name}: {table.size:,} positions; the first player's chance with perfect play: {chance:.4f}")

    if args.matches:
        policy = work / f"{name}-medium-{sources_hash()}.policy"
        if not policy.exists():
            print("exporting medium's choice in every position ...", flush=True)
            export_medium(table_path, name, policy, args.workers)
        print("\nexact match values (X's chance to win; X first / X second / each first half the games):")
        for x, y in MATCHES:
            line = subprocess.run(
                [str(binary), "match", spec, str(table_path), str(policy), x, y],
                check=True,
                env=environment,
                capture_output=True,
                text=True,
            ).stdout.split()
            print(f"  {x:>7} vs {y:<7} {float(line[2]):7.2%} {float(line[3]):7.2%} {float(line[4]):7.2%}", flush=True)

    if args.versus:
        x, y = args.versus
        print(f"\n{x} against {y}, luck taken out by the exact values (X's chance to win):")
        print("  " + luck_free_match(table_path, name, x, y, args.games, args.workers, args.budget_ms), flush=True)
        return

    print(f"\ncost of each level's decisions over {args.decisions} turns with a choice that matters:")
    ppns = decisions(table, rules, args.decisions, args.seed)
    for level in args.levels:
        print("  " + level_cost(table_path, name, level, ppns, args.workers, args.budget_ms), flush=True)


if __name__ == "__main__":
    main()
