"""A small, untimed run of `benchmarks/startup.py` (20 open games on this process's shard, 200 on the other):
the harness fills the database and the measured start-up reloads exactly this shard's games. Its times and
memory are read from the full benchmark's output, never asserted here."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]


def test_startup_benchmark_smoke_run_reloads_only_its_shards_games(tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, "benchmarks/startup.py", "--database-url", f"sqlite:///{tmp_path / 'startup.db'}",
         "--own", "20", "--others", "200", "--runs", "1"],
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=300, check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    (measured,) = re.findall(r"run 1: reloaded (\d+) games in [\d.]+ s; RSS \d+ MiB before, \d+ MiB after, peak",
                             run.stdout)
    assert int(measured) == 20, run.stdout
