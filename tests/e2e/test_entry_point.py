"""Smoke test of the real entry point, `python -m bot`, run as a server owner would run it.

Without a network, this proves that a malformed token is refused in one clear line before anything connects
or is created. `--check` and start-up (which report and create nothing before Discord answers) are proven
through the same entry point in tests/bot/test_main.py.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

# Shaped like nothing Discord issues (no dots): a client secret pasted by mistake.
MALFORMED_TOKEN = "s3cr3tClientSecretPastedByMistake0123456789"


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
