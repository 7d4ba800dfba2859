"""The `puluc-bot` entry point: `--check` and `--demo`, run in-process and as the real installed program."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from bot.__main__ import main
from tests.helpers import TOKEN

# Shaped like a bot token (id . timestamp . hmac) but not a real one.
SETTINGS = (
    "DISCORD_TOKEN",
    "DATABASE_URL",
    "DEV_GUILD_ID",
    "LOG_LEVEL",
    "TURN_TIMER_SECONDS",
    "AI_BUDGET_MS",
    "AI_MOVE_DELAY_SECONDS",
    "COMMAND_COOLDOWN_SECONDS",
    "MAX_OPEN_GAMES_PER_USER",
    "FONT_PATH",
)
PUBLIC_PART = TOKEN.split(".")[0]  # the bot's id in base64: even this should not be printed


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty working directory (so no stray .env is read) and an environment with no bot settings."""
    for name in SETTINGS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run_program(command: list[str], cwd: Path, **settings: str) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key not in SETTINGS}
    env.update(settings)
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=300, check=False)


def console_script() -> str:
    # The console script sits beside the interpreter of the environment the package is installed in.
    script = Path(sys.executable).parent / "puluc-bot"
    assert script.exists(), "install the package (pip install '.[test]') so that the puluc-bot command exists"
    return str(script)


def one_error_line(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, f"expected one line, got: {stderr!r}"
    assert lines[0].startswith("puluc-bot: error: ")
    return lines[0]


def check(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["--check", *args])
    out, err = capsys.readouterr()
    assert PUBLIC_PART not in out + err
    return code, out, err


def test_check_passes_on_a_fresh_database(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{workdir}/state/puluc.db")
    code, out, err = check(capsys)
    assert code == 0, err
    assert out.strip().startswith("puluc-bot: configuration OK")
    assert len(out.strip().splitlines()) == 1
    assert (workdir / "state" / "puluc.db").is_file()


def test_check_passes_twice_on_the_same_database(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    assert check(capsys)[0] == 0
    code, _, err = check(capsys)
    assert code == 0, err
    assert (workdir / "data" / "puluc.db").is_file(), "the default database is data/puluc.db under the cwd"


def test_python_m_bot_check_succeeds(workdir: Path) -> None:
    done = run_program([sys.executable, "-m", "bot", "--check"], workdir, DISCORD_TOKEN=TOKEN)
    assert done.returncode == 0, done.stderr
    assert "configuration OK" in done.stdout
    assert PUBLIC_PART not in done.stdout + done.stderr


def test_console_script_check_reports_a_missing_token_in_one_line(workdir: Path) -> None:
    done = run_program([console_script(), "--check"], workdir)
    assert done.returncode == 1
    line = one_error_line(done.stderr)
    assert "DISCORD_TOKEN is not set" in line
    assert ".env" in line
    assert done.stdout == ""


def test_starting_without_a_token_ends_in_one_line_not_a_traceback(workdir: Path) -> None:
    done = run_program([sys.executable, "-m", "bot"], workdir)
    assert done.returncode == 1
    assert "DISCORD_TOKEN is not set" in one_error_line(done.stderr)


def test_malformed_token_fails_without_echoing_it(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN.replace(".", "", 1))
    code, _, err = check(capsys)
    assert code == 1
    assert "DISCORD_TOKEN does not look like a bot token" in one_error_line(err)


def test_bad_database_url_scheme_fails_in_one_line(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("DATABASE_URL", "mysql://db.example/puluc")
    code, _, err = check(capsys)
    assert code == 1
    assert one_error_line(err).startswith("puluc-bot: error: DATABASE_URL ")


def test_database_under_a_regular_file_cannot_be_created(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A path whose parent is a file can never be created, even by root (unlike a chmod-ed directory).
    (workdir / "occupied").write_text("not a directory")
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{workdir}/occupied/puluc.db")
    code, _, err = check(capsys)
    assert code == 1
    line = one_error_line(err)
    assert f"cannot open the database at {workdir}/occupied/puluc.db" in line


def test_a_file_that_is_not_a_database_fails_the_check(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (workdir / "puluc.db").write_bytes(b"this is not an SQLite file" * 200)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{workdir}/puluc.db")
    code, _, err = check(capsys)
    assert code == 1
    assert str(workdir / "puluc.db") in one_error_line(err)


def test_database_from_a_newer_bot_is_refused(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    conn = sqlite3.connect(workdir / "future.db")
    conn.execute("PRAGMA user_version = 999")
    conn.close()
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{workdir}/future.db")
    code, _, err = check(capsys)
    assert code == 1
    assert "upgrade the bot" in one_error_line(err)


def test_env_file_is_read_and_the_environment_overrides_it(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (workdir / ".env").write_text(f"DISCORD_TOKEN={TOKEN}\nDATABASE_URL=mysql://nowhere/puluc\n")
    code, _, err = check(capsys)
    assert code == 1, "the .env file in the working directory is read"
    assert one_error_line(err).startswith("puluc-bot: error: DATABASE_URL ")

    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{workdir}/ok.db")
    code, _, err = check(capsys)
    assert code == 0, err
    assert (workdir / "ok.db").is_file()


def test_env_file_option_names_another_file(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    other = workdir / "prod.env"
    other.write_text(f"DISCORD_TOKEN={TOKEN}\nDATABASE_URL=sqlite:///{workdir}/prod.db\n")
    code, _, err = check(capsys, "--env-file", str(other))
    assert code == 0, err
    assert (workdir / "prod.db").is_file()


def test_demo_plays_a_whole_game_and_writes_images_a_replay_and_a_record(workdir: Path) -> None:
    out = workdir / "demo"
    done = run_program([console_script(), "--demo", str(out)], workdir)
    assert done.returncode == 0, done.stderr

    boards = sorted(out.glob("board_*.png"))
    assert len(boards) >= 2
    assert boards[0].name == "board_000.png"
    for board in (boards[0], boards[-1]):
        with Image.open(board) as image:
            assert image.format == "PNG"
            assert image.width > 0 and image.height > 0
    with Image.open(out / "replay.gif") as replay:
        assert replay.format == "GIF"
        assert replay.n_frames > 1

    record = json.loads((out / "record.json").read_text(encoding="utf-8"))
    assert record, "the record must describe the game"

    summary = done.stdout
    assert "replay.gif" in summary and "record.json" in summary
    assert f"{len(boards)} board images" in summary


def test_demo_into_a_file_fails_in_one_line(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (workdir / "taken").write_text("a file, not a directory")
    assert main(["--demo", str(workdir / "taken")]) == 1
    assert "cannot write the demo" in one_error_line(capsys.readouterr().err)
