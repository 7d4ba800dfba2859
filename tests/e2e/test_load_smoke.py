"""A small, untimed run of `benchmarks/load.py` (3 games, 15 interactions each, the opening `/puluc challenge`
included, players not thinking): the harness works, sees every effect it waits for, and the bot answers every
interaction without errors. Its numbers are read from the full benchmark's output, never asserted here:
wall-clock goals belong to the benchmark."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
GAMES = 3
CLICKS = 15
# The benchmark imports the bot of this checkout, whatever the environment has installed.
CHECKOUT = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, (str(REPO_ROOT), os.environ.get("PYTHONPATH"))))}


def test_load_benchmark_smoke_run_answers_every_click() -> None:
    run = subprocess.run(
        # A generous stall: a slow machine may take long, but a click the bot never answers still counts.
        [sys.executable, "benchmarks/load.py", "--games", str(GAMES), "--clicks", str(CLICKS), "--think", "0",
         "--stall", "120", "--json"],
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=600, check=False, env=CHECKOUT,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    result = json.loads(run.stdout.strip().splitlines()[-1])
    assert result["games"] == GAMES
    assert result["interactions"] == GAMES * CLICKS  # every click was made and measured
    assert result["errors"] == 0, result["error_detail"]
    assert result["error_detail"] == []
    assert result["later_than_3s"] == result["unanswered"] == result["stalled"] == 0
    first = result["first_response_ms"]
    assert first["count"] == GAMES * CLICKS
    assert 0 <= first["p50"] <= first["p95"] <= first["p99"] <= first["max"]
    assert result["opening_response_ms"]["count"] == GAMES
    assert result["updated_ms"]["count"] == GAMES * CLICKS  # every interaction changed the game message
    # Each accepted challenge and every move showed a new board; the lobby steps (the command, Rematch, Join) none.
    assert GAMES <= result["board_visible_ms"]["count"] <= GAMES * (CLICKS - 1)
    assert result["games_started"] == GAMES
    assert result["boards_uploaded"] >= result["board_visible_ms"]["count"]
    assert [peaks["total_mb"] > 0 for peaks in result["peak_rss_mb"]] == [True]
    # The bot process spent CPU on the boards (SimCord included); workers, if any, no less than nothing.
    [cost] = result["cpu_ms_per_board"]
    assert cost["process"] > 0 and cost["workers"] >= 0


def test_load_benchmark_spammers_ask_and_are_answered() -> None:
    """`--spammers`: members asking for hints and replays while the tables play get every answer (a hint, a
    replay, or when to ask again), and the tables' clicks are all answered as without them."""
    run = subprocess.run(
        [sys.executable, "benchmarks/load.py", "--games", str(GAMES), "--clicks", "10", "--think", "0",
         "--stall", "120", "--spammers", "2", "--json"],
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=600, check=False, env=CHECKOUT,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    result = json.loads(run.stdout.strip().splitlines()[-1])
    assert result["spammers"] == 2
    assert result["errors"] == 0, result["error_detail"]
    assert result["interactions"] == GAMES * 10 and result["stalled"] == 0
    for kind in ("hint", "replay"):
        spam = result["spam"][kind]
        assert spam["asked"] >= 1 and spam["other"] == 0, (kind, spam)
        assert spam["served"] + spam["limited"] + spam["busy"] <= spam["asked"]
        assert spam["answered_ms"]["count"] == spam["served"]
