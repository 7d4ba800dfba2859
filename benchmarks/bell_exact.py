"""The exact solution of Bell 1 v 1, and what it says about the AI: run by hand, prints numbers.

`python benchmarks/bell_exact.py` compiles benchmarks/bell_exact.c with the machine's C compiler (cc),
solves the game (every one of the 9,835,155 positions a seat can face before its throw, by value
iteration: about 90 s and 120 MB), and then prints:

- exact match values (no sampling) between players, each side starting half the games: perfect play
  (maximin), the best response to a fixed player (the most that any player at all can win against it),
  and puluc.ai's own `easy` and `medium`, whose every choice is exported from Python (about 10 minutes on
  two cores, cached by the hash of puluc/'s sources), and a capture-greedy player (the issue's yardstick);
- the exact cost of each level's decisions: over positions with a real choice (from games of perfect
  play with some random moves), the mean loss of winning chance against the best move and how often the
  choice is not a best move. `hard` is measured here because its search is too slow to export for every
  position.

`--fit` instead refits the hard player's evaluation (puluc/ai/features.py WIN_WEIGHTS) to the exact
values of positions from games between medium and perfect players with 0-40% random moves, and prints the
weights with their error on held-out positions.

Files go to --work (default: a folder in the system's temporary directory). Needs a C compiler; nothing
of this is part of the product or its tests.
"""

from __future__ import annotations

import argparse
import bisect
import hashlib
import math
import random
import shutil
import subprocess
import sys
import tempfile
import time
from array import array
from multiprocessing import Pool
from pathlib import Path

from percentiles import percentile  # benchmarks/percentiles.py: the one definition

from puluc import Position, Rules, Throw
from puluc.ai import choose_move
from puluc.ai.evaluate import SIMPLE_WEIGHTS, evaluate, model_for
from puluc.ai.features import FEATURES, WIN_WEIGHTS, features
from puluc.routes import tables_for

HERE = Path(__file__).resolve().parent
RULES = Rules.preset("bell")
PIECES = 5
MATCHES = (
    ("perfect", "easy"),
    ("br", "easy"),
    ("perfect", "medium"),
    ("br", "medium"),
    ("medium", "easy"),
    ("perfect", "greedy"),
    ("br", "greedy"),
)


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
        """bell_exact.c's key of `pos` (which must throw) seen from its seat: see encode() there."""
        me = pos.turn_index & 1
        board = pos.raw_board if me == 0 else pos.raw_board[::-1]
        key = shift = 0
        for stack in board:
            if stack is not None:
                for seat in stack[1:]:
                    key |= (1 if seat & 1 == me else 2) << shift
                    shift += 2
            key |= 3 << shift
            shift += 2
        return key | pos.raw_home[me] << 40 | pos.raw_home[1 - me] << 44

    def index(self, pos: Position) -> int:
        key = self.key(pos)
        i = bisect.bisect_left(self.keys, key)
        if i == self.size or self.keys[i] != key:
            raise KeyError(f"not a reachable Bell position: {pos.to_ppn()}")
        return i

    def chance(self, pos: Position) -> float:
        return self.values[self.index(pos)]

    def move_values(self, pos: Position) -> list[tuple[object, float]]:
        """Each legal move of `pos` with the mover's exact chance to win after it."""
        out = []
        for move in pos.legal_moves():
            child = pos.play(move)
            if child.is_over:
                value = 1.0 if child.outcome().winner == pos.team_to_move else 0.0  # type: ignore[union-attr]
            else:
                value = 1.0 - self.chance(child)
            out.append((move, value))
        return out


# -- medium's every choice, for the exact match values ----------------------------------------------------


def _position(key: int, throw: int) -> Position:
    """The canonical state `key` as a puluc Position with A to move and `throw` pending."""
    board: list[tuple[int, ...] | None] = []
    on = [0, 0]
    shift = 0
    for _ in range(RULES.road_length):
        pieces = []
        while (sym := (key >> shift) & 3) != 3:
            pieces.append(sym - 1)
            on[sym - 1] += 1
            shift += 2
        shift += 2
        board.append((0, *pieces) if pieces else None)
    home = ((key >> 40) & 15, (key >> 44) & 15)
    killed = (PIECES - home[0] - on[0], PIECES - home[1] - on[1])
    # Built directly (PPN text would cost more than the choice itself, 49 million times).
    return Position._make(tables_for(RULES), tuple(board), home, (killed[1], killed[0]), killed, (0, 0), 0, (throw,))


def _medium_chunk(task: tuple[str, int, int]) -> bytes:
    path, lo, hi = task
    table = Table(Path(path))
    model = model_for(RULES)
    out = array("H")
    for q in range(lo, hi):
        for throw in range(1, 6):
            pos = _position(table.keys[q], throw)
            moves = pos.legal_moves()
            mask = 0
            if len(moves) == 1:
                mask = 1 << moves[0].source
            elif moves:  # exactly puluc.ai's medium: the best simple evaluation, ties shared
                scored = [(m, evaluate(model, pos.play(m), SIMPLE_WEIGHTS)) for m in moves]
                best = max(v for _, v in scored)
                for m, v in scored:
                    if v >= best - 1e-9:
                        mask |= 1 << m.source
            out.append(mask)
    return out.tobytes()


def export_medium(table_path: Path, out: Path, workers: int) -> None:
    size = Table(table_path).size
    step = 50_000
    tasks = [(str(table_path), lo, min(size, lo + step)) for lo in range(0, size, step)]
    started = time.perf_counter()
    with Pool(workers) as pool, out.with_suffix(".part").open("wb") as f:
        for done, chunk in enumerate(pool.imap(_medium_chunk, tasks), 1):
            f.write(chunk)
            if done % 40 == 0:
                print(
                    f"  medium's choices: {done}/{len(tasks)} chunks, {time.perf_counter() - started:.0f} s", flush=True
                )
    out.with_suffix(".part").rename(out)


def check_medium(table: Table, policy: Path, games: int, seed: int) -> int:
    """Medium's real choices in games, against the exported ones: the number that disagree."""
    masks = array("H")
    masks.frombytes(policy.read_bytes())
    rng = random.Random(seed)
    wrong = 0
    for g in range(games):
        pos = Position.start(RULES, "AB"[g % 2])
        before = pos
        while not pos.is_over:
            if pos.must_throw:
                before = pos
                pos = pos.throw([Throw.roll(rng, RULES.sticks).value])
                continue
            moves = pos.legal_moves()
            move = choose_move(pos, "medium", rng)
            source = move.source if pos.turn_index & 1 == 0 or not move.source else RULES.road_length + 1 - move.source
            if not masks[table.index(before) * 5 + pos.pending[0] - 1] >> source & 1:
                wrong += 1
            pos = pos.play(rng.choice(moves))
    return wrong


# -- the levels' decisions ------------------------------------------------------------------------------


def decisions(table: Table, count: int, seed: int) -> list[str]:
    """PPNs of positions with a choice that matters, from games of perfect play with 0-50% random moves."""
    rng = random.Random(seed)
    found: list[str] = []
    while len(found) < count:
        pos = Position.start(RULES, rng.choice("AB"))
        noise = rng.choice((0.0, 0.2, 0.5))
        while not pos.is_over and len(found) < count:
            if pos.must_throw:
                pos = pos.throw([Throw.roll(rng, RULES.sticks).value])
                continue
            values = table.move_values(pos)
            low, high = min(v for _, v in values), max(v for _, v in values)
            if high - low > 1e-6:
                found.append(pos.to_ppn())
            if rng.random() < noise:
                pos = pos.play(rng.choice(pos.legal_moves()))
            else:
                pos = pos.play(next(m for m, v in values if v >= high - 1e-7))  # type: ignore[arg-type]
    return found


def _cost_chunk(task: tuple[str, str, list[str], float]) -> tuple[float, int, list[float]]:
    path, level, ppns, budget_ms = task
    table = Table(Path(path))
    loss = 0.0
    wrong = 0
    times = []
    for i, text in enumerate(ppns):
        pos = Position.from_ppn(RULES, text)
        values = dict(table.move_values(pos))
        best = max(values.values())
        start = time.perf_counter()
        move = choose_move(pos, level, random.Random(i), budget_ms)
        times.append((time.perf_counter() - start) * 1000)
        loss += best - values[move]
        wrong += best - values[move] > 1e-6
    return loss, wrong, times


def level_cost(table_path: Path, level: str, ppns: list[str], workers: int, budget_ms: float) -> str:
    tasks = [(str(table_path), level, ppns[i::workers], budget_ms) for i in range(workers)]
    with Pool(workers) as pool:
        parts = pool.map(_cost_chunk, tasks)
    loss = sum(p[0] for p in parts) / len(ppns)
    wrong = sum(p[1] for p in parts) / len(ppns)
    times = [t for p in parts for t in p[2]]
    p50, p95 = percentile(times, 50), percentile(times, 95)
    return (
        f"{level:<7} mean loss {100 * loss:6.3f} points of winning chance per decision, "
        f"not a best move in {100 * wrong:5.1f}%   (ms p50 {p50:.2f}, p95 {p95:.2f})"
    )


# -- refitting the evaluation ---------------------------------------------------------------------------


def _rows_chunk(task: tuple[str, int, int]) -> list[tuple[list[float], float]]:
    """(features, team A's exact chance) of every must-throw position of games lo..hi."""
    path, lo, hi = task
    table = Table(Path(path))
    model = model_for(RULES)
    rows = []
    for game in range(lo, hi):
        rng = random.Random(game)
        noise = rng.choice((0.0, 0.1, 0.2, 0.4))
        perfect = rng.random() < 0.5
        pos = Position.start(RULES, "AB"[game % 2])
        while not pos.is_over:
            if pos.must_throw:
                chance = table.chance(pos)
                rows.append((features(model, pos), chance if pos.turn_index & 1 == 0 else 1.0 - chance))
                pos = pos.throw([Throw.roll(rng, RULES.sticks).value])
                continue
            if rng.random() < noise:
                move = rng.choice(pos.legal_moves())
            elif perfect:
                values = table.move_values(pos)
                high = max(v for _, v in values)
                move = rng.choice([m for m, v in values if v >= high - 1e-7])  # type: ignore[assignment]
            else:
                move = choose_move(pos, "medium", rng)
            pos = pos.play(move)
    return rows


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-z)) if z > -700 else 0.0


def fit(rows: list[tuple[list[float], float]], start: tuple[float, ...], ridge: float = 1e-3) -> list[float]:
    """Logistic regression on soft targets by Newton's method (cross-entropy plus ridge * n * |w|^2 / 2)."""
    w = list(start)
    d = len(w)
    for _ in range(8):
        grad = [ridge * len(rows) * wi for wi in w]
        hess = [[ridge * len(rows) if i == j else 0.0 for j in range(d)] for i in range(d)]
        for x, target in rows:
            q = _sigmoid(sum(a * b for a, b in zip(w, x, strict=True)))
            r, s = q - target, q * (1.0 - q)
            for i in range(d):
                if x[i]:
                    grad[i] += r * x[i]
                    row = hess[i]
                    for j in range(d):
                        row[j] += s * x[i] * x[j]
        step = _solve(hess, grad)
        w = [a - b for a, b in zip(w, step, strict=True)]
        if max(abs(v) for v in step) < 1e-9:
            break
    return w


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (d is 15: no linear-algebra library needed)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        pivot = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[pivot] = m[pivot], m[c]
        for r in range(n):
            if r != c and m[r][c]:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def mean_error(rows: list[tuple[list[float], float]], w: tuple[float, ...] | list[float]) -> float:
    return sum(abs(_sigmoid(sum(a * b for a, b in zip(w, x, strict=True))) - t) for x, t in rows) / len(rows)


def refit(table_path: Path, workers: int, games: int) -> None:
    started = time.perf_counter()
    step = 500
    total = games + games // 4  # the last fifth of the games is held out
    tasks = [(str(table_path), lo, min(total, lo + step)) for lo in range(0, total, step)]
    with Pool(workers) as pool:
        parts = pool.map(_rows_chunk, tasks)
    cut = len([t for t in tasks if t[2] <= games])
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
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "puluc-bell-exact")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--decisions", type=int, default=4000, help="positions for the levels' decision cost")
    parser.add_argument("--budget-ms", type=float, default=300.0)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--skip-medium", action="store_true", help="no matches that need medium's choices")
    parser.add_argument("--fit", type=int, metavar="GAMES", help="refit the evaluation on GAMES games and stop")
    args = parser.parse_args()
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        sys.exit("bell_exact needs a C compiler (cc or gcc) on the PATH")
    work: Path = args.work
    work.mkdir(parents=True, exist_ok=True)
    binary = work / "bell_exact"
    source = HERE / "bell_exact.c"
    if not binary.exists() or binary.stat().st_mtime < source.stat().st_mtime:
        subprocess.run([compiler, "-O2", "-o", str(binary), str(source), "-lm"], check=True)
    table_path = work / "bell.table"
    if not table_path.exists():
        started = time.perf_counter()
        subprocess.run([str(binary), "solve", str(table_path)], check=True)
        print(f"solved in {time.perf_counter() - started:.0f} s")
    if args.fit:
        refit(table_path, args.workers, args.fit)
        return
    table = Table(table_path)
    start = Position.start(RULES, "A")
    print(f"{table.size:,} positions; the first player's chance with perfect play: {table.chance(start):.4f}")

    policy = work / f"medium-{sources_hash()}.policy"
    matches = [m for m in MATCHES if not (args.skip_medium and "medium" in m)]
    if not args.skip_medium and not policy.exists():
        print("exporting medium's choice in every position ...", flush=True)
        export_medium(table_path, policy, args.workers)
    if not args.skip_medium:
        print(f"medium's exported choices disagree with its play in {check_medium(table, policy, 200, 1)} cases")
    print("\nexact match values (X's chance to win; X first / X second / each first half the games):")
    for x, y in matches:
        line = subprocess.run(
            [str(binary), "match", str(table_path), str(policy), x, y], check=True, capture_output=True, text=True
        ).stdout.split()
        print(f"  {x:>7} vs {y:<7} {float(line[2]):7.2%} {float(line[3]):7.2%} {float(line[4]):7.2%}", flush=True)

    print(f"\ncost of each level's decisions over {args.decisions} positions with a choice that matters:")
    ppns = decisions(table, args.decisions, args.seed)
    for level in ("easy", "medium", "hard"):
        print("  " + level_cost(table_path, level, ppns, args.workers, args.budget_ms), flush=True)


if __name__ == "__main__":
    main()
