"""A small, untimed run of `benchmarks/load.py` (3 games, 15 interactions each, the opening `/puluc challenge`
included, players not thinking): the harness works, sees every effect it waits for, and the bot answers every
interaction without errors. Its numbers are read from the full benchmark's output, never asserted here:
wall-clock goals belong to the benchmark."""

from __future__ import annotations

import json
import os
import re
import socket
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
    # The timeline splits the same samples by when their click was made, window by window in order.
    windows = result["board_visible_timeline"]
    assert sum(window["count"] for window in windows) == result["board_visible_ms"]["count"]
    assert [window["from_s"] for window in windows] == sorted({window["from_s"] for window in windows})
    assert max(window["max"] for window in windows) == result["board_visible_ms"]["max"]
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


def test_load_benchmark_with_the_pages_in_a_process_beside_it(postgres_url: str) -> None:
    """`--web-process`: `puluc-bot web` serves the pages beside the bot on PostgreSQL, and spectators from
    `benchmarks/web.py --spectate` watching every game get the moves as they are played."""
    secret = "smoke-test-secret-0123456789-abcdefghij"
    port = free_port()
    env = {**CHECKOUT, "WEB_SECRET": secret, "WEB_TRUST_FORWARDED": "yes", "WORKERS": "1"}
    env.pop("WEB_PORT", None)
    load = subprocess.Popen(
        [sys.executable, "benchmarks/load.py", "--games", str(GAMES), "--clicks", "30", "--think", "0.3-0.5",
         "--stall", "120", "--database-url", postgres_url, "--web-process", str(port), "--json"],
        cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )
    try:
        spectators = subprocess.run(
            [sys.executable, "benchmarks/web.py", "--spectate", f"http://127.0.0.1:{port}", "--secret", secret,
             "--game-ids", f"1-{GAMES}", "--watchers", "2", "--seconds", "20"],
            cwd=REPO_ROOT, capture_output=True, text=True, timeout=120, check=False, env=CHECKOUT,
        )
        out, err = load.communicate(timeout=600)
    finally:
        if load.poll() is None:
            load.kill()
    assert load.returncode == 0, err[-3000:]
    result = json.loads(out.strip().splitlines()[-1])
    assert result["database"] == "postgresql" and result["errors"] == 0, result["error_detail"]
    assert result["interactions"] == GAMES * 30 and result["stalled"] == 0
    assert spectators.returncode == 0, spectators.stderr[-3000:]
    _opened, events = (int(found) for found in re.findall(
        r"\((\d+) open at the end\): (\d+) board events", spectators.stdout)[0])
    assert events >= GAMES * 2  # every stream saw the game it watches move at least once


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
