"""The exact Bell table the bot ships: exact_1v1.c's solution of Bell 1 v 1, packed for puluc.ai.exact.

`python research/exact_table.py` solves Bell with research/exact_1v1.py's solver when its table is not yet in
--work (about 3 minutes of CPU, 660 MB of memory, 118 MB of disk: 9,830,420 positions as 8-byte keys and 4-byte
chances), then reads every position's key, numbers it by `puluc.ai.exact.Ranker` (every board of the stacks
found in the solution, times the homes: 10,999,026 numbers; those no game reaches repeat the value before
them, which costs nothing compressed) and writes the 12-bit chances as `ExactTable.to_bytes` lays them out to
--out (default: bot/exact/bell.bin, where the bot loads it from). Then it checks a sample of positions
against the solver's values. Run by hand; pure Python apart from the solver: about 160 s of CPU and 1 GB of
memory after the solve, and the same bytes every time (rebuilt and compared with `cmp`).
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from exact_1v1 import Table, _position, rules_of  # noqa: E402

from puluc.ai.exact import SCALE, ExactTable, Ranker  # noqa: E402


def cells_of(key: int) -> tuple[list[tuple[int, int]], int, int]:
    """exact_1v1.c's key of a 9-cell position (see encode() there) as the ranker's cells and the two homes."""
    cells = []
    shift = 0
    for _ in range(9):
        size = bits = 0
        while True:
            sym = (key >> shift) & 3
            shift += 2
            if sym in (0, 3):  # the army route has no inbound stacks: 3 ends every cell
                break
            bits |= (sym == 2) << size
            size += 1
        cells.append((size, bits))
    return cells, (key >> 40) & 15, (key >> 44) & 15


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--work", type=Path, default=Path("/tmp/puluc-exact"), help="exact_1v1.py's tables")
    parser.add_argument("--out", type=Path, default=HERE.parent / "bot" / "exact" / "bell.bin")
    args = parser.parse_args()
    source = args.work / "bell.table"
    if not source.exists():
        subprocess.run([sys.executable, str(HERE / "exact_1v1.py"), "--work", str(args.work), "--levels"], check=True)
    started = time.process_time()
    table = Table(source)
    patterns = sorted({cell for key in table.keys for cell in cells_of(key)[0] if cell != (0, 0)})
    ranker = Ranker(patterns, 9)
    values = [-1.0] * ranker.size
    for key, value in zip(table.keys, table.values, strict=True):
        values[ranker.rank(*cells_of(key))] = value
    last = 0.5
    for i, value in enumerate(values):
        if value < 0:
            values[i] = last
        last = values[i]
    exact = ExactTable.from_values(rules_of("bell"), ranker, values)
    data = exact.to_bytes()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(data)
    print(
        f"{table.size:,} positions, {len(patterns)} stack patterns, {ranker.size:,} numbers: {len(data):,} bytes "
        f"to {args.out} ({time.process_time() - started:.0f} s of CPU)"
    )
    loaded = ExactTable.from_bytes(data)
    rng = random.Random(1)
    worst = 0.0
    for q in rng.sample(range(table.size), 20_000):
        position = _position(loaded.rules, table.keys[q])
        worst = max(worst, abs(loaded.seat_chance(position) - table.values[q]))
    print(f"checked 20,000 positions: at most {worst:.6f} from the solver's chance (a step is {1 / SCALE:.6f})")


if __name__ == "__main__":
    main()
