"""Smoke test of the real entry point, `python -m bot`, run as a server owner would run it.

Without a network only two paths can be proven end to end: a malformed token is refused in one clear line
before anything connects, and `--check` migrates and verifies a fresh database and exits 0.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

# Shaped like nothing Discord issues (no dots): a client secret pasted by mistake.
MALFORMED_TOKEN = "s3cr3tClientSecretPastedByMistake0123456789"
WELL_FORMED_TOKEN = "MTA1NzQ4OTk4NzY1NDMyMTAxMg.GhXyZw.s3cr3tPartThatMustNeverBePrinted0"


def run_bot(workdir: Path, *args: str, **settings: str) -> subprocess.CompletedProcess[str]:
    # Only the settings given here: no DISCORD_TOKEN or DATABASE_URL leaks in from the developer's shell,
    # and the working directory has no .env.
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DATABASE_URL", "DEV_GUILD_ID")}
    env.update(settings)
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=workdir, env=env, capture_output=True,
                          text=True, timeout=120, check=False)


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    path = tmp_path / "server"
    path.mkdir()
    return path


def test_malformed_token_stops_the_bot_with_one_clear_line(workdir: Path) -> None:
    run = run_bot(workdir, DISCORD_TOKEN=MALFORMED_TOKEN, DATABASE_URL="sqlite:///data/puluc.db")

    assert run.returncode != 0
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr
    assert "DISCORD_TOKEN" in lines[0] and "Traceback" not in run.stderr
    assert MALFORMED_TOKEN not in run.stderr + run.stdout
    assert MALFORMED_TOKEN[:12] not in run.stderr + run.stdout  # not even a prefix of the secret
    assert not (workdir / "data").exists()  # refused before touching the database


def test_check_migrates_a_fresh_database_and_succeeds(workdir: Path) -> None:
    db = workdir / "fresh" / "puluc.db"
    run = run_bot(workdir, "--check", DISCORD_TOKEN=WELL_FORMED_TOKEN, DATABASE_URL=f"sqlite:///{db}")

    assert run.returncode == 0, run.stderr
    assert run.stderr == ""
    (line,) = run.stdout.strip().splitlines()
    assert "configuration OK" in line and str(db) in line
    assert WELL_FORMED_TOKEN not in run.stdout
    with closing(sqlite3.connect(db)) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert conn.execute("PRAGMA user_version").fetchone()[0] >= 1
        assert conn.execute("SELECT count(*) FROM games").fetchone() == (0,)
