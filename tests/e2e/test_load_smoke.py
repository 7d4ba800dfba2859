"""A small, untimed run of `benchmarks/load.py` (3 games, 15 clicks each): the harness works and the bot
answers every click without errors. Its numbers are read from the full benchmark's output, never asserted
here: wall-clock goals belong to the benchmark."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
GAMES = 3
CLICKS = 15


def test_load_benchmark_smoke_run_answers_every_click() -> None:
    run = subprocess.run(
        # A generous stall: a slow machine may take long, but a click the bot never answers still counts.
        [sys.executable, "benchmarks/load.py", "--games", str(GAMES), "--clicks", str(CLICKS), "--stall", "120",
         "--json"],
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=600, check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    result = json.loads(run.stdout.strip().splitlines()[-1])
    assert result["games"] == GAMES
    assert result["interactions"] == GAMES * CLICKS  # every click was made and measured
    assert result["errors"] == 0, result["error_detail"]
    assert result["error_detail"] == []
    first = result["first_response_ms"]
    assert 0 <= first["p50"] <= first["p95"] <= first["p99"] <= first["max"]
    assert result["peak_rss_mb"] >= result["rss_after_setup_mb"] > 0
