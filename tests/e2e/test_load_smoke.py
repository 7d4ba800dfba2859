"""A small run of `benchmarks/load.py` (5 games, a few seconds): the harness works and the bot answers
every click without errors. The numbers themselves are checked by reading the full benchmark's output."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]


def test_load_benchmark_smoke_run_answers_every_click() -> None:
    run = subprocess.run(
        [sys.executable, "benchmarks/load.py", "--games", "5", "--seconds", "3", "--json"],
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=300, check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    result = json.loads(run.stdout.strip().splitlines()[-1])
    assert result["games"] == 5
    assert result["interactions"] >= 20
    assert result["errors"] == 0, result["error_detail"]
    assert result["later_than_3s"] == 0
    assert result["first_response_ms"]["max"] < 3000
    assert result["peak_rss_mb"] > 0
