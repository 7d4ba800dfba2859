"""The `puluc-bot` entry point, run in-process (`main`) and as the installed program: a first run that cannot
go wrong silently. `--check` says which `.env` it read, which database (new, or existing with how many games
and players) and which font, and changes nothing on disk; every mistake is one line on stderr and exit 1."""

from __future__ import annotations

import asyncio
import hashlib
import io
import json
import logging
import os
import re
import secrets
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import discord
import pytest
from PIL import GifImagePlugin, Image

from bot.__main__ import main
from bot.cli.preflight import database_problem
from bot.config import load_config
from bot.config_spec import SETTINGS
from bot.storage import SchemaTooNew, StorageUnavailable, open_storage
from bot.storage.postgres import schema as postgres_schema
from bot.storage.postgres.errors import translate
from bot.storage.sql import migrations
from bot.storage.sqlite.schema import LATEST_VERSION
from bot.storage.types import SeatSpec
from renderer.fonts import find_font
from tests.helpers import TOKEN
from tests.postgres import admin_connection, server_url

SETTING_NAMES = tuple(setting.name for setting in SETTINGS)
TOKEN_PARTS = TOKEN.split(".")  # even the public first part (the bot's id in base64) is never printed


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty working directory (so no stray .env is read) and an environment with no bot settings."""
    for name in (*SETTING_NAMES, "NO_COLOR"):
        monkeypatch.delenv(name, raising=False)
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    return cwd


def run_program(command: list[str], cwd: Path, **settings: str) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key not in SETTING_NAMES}
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
    for part in TOKEN_PARTS:
        assert part not in out + err
    return code, out, err


def failed_check(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    code, out, err = check(capsys, *args)
    assert code == 1
    assert out == ""
    return one_error_line(err)


def configure(monkeypatch: pytest.MonkeyPatch, **settings: str) -> None:
    """The environment holds a well-formed token and `settings`."""
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    for name, value in settings.items():
        monkeypatch.setenv(name, value)


def snapshot(folder: Path) -> dict[str, tuple[str, int]]:
    """Every file under `folder` with its content hash and modification time: what "changes nothing" means."""
    return {
        str(path.relative_to(folder)): (
            hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "dir",
            path.stat().st_mtime_ns,
        )
        for path in sorted(folder.rglob("*"))
    }


def make_database(path: Path, games: int, players_per_game: int = 2) -> None:
    """A database the bot has used: `games` games, each with its own human players."""

    async def fill() -> None:
        storage = await open_storage(f"sqlite:///{path}")
        user = 1000
        try:
            for _ in range(games):
                seats = []
                for index in range(players_per_game):
                    user += 1
                    seats.append(SeatSpec(f"{'AB'[index % 2]}{index // 2 + 1}", f"player{user}", user_id=user))
                await storage.games.create_game(
                    guild_id=1, channel_id=2, host_id=seats[0].user_id, variant="bell", rules={},
                    turn_timer_seconds=600, seats=seats,
                )
        finally:
            await storage.close()

    asyncio.run(fill())


# -- --check: what it reads and what it says ---------------------------------------------------------------


def test_check_reports_a_new_database_and_creates_nothing(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    configure(monkeypatch)
    target = workdir / "nonexistent_dir" / "sub" / "x.db"
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{target}")
    code, out, err = check(capsys)
    assert code == 0, err
    assert (
        f"puluc-bot: database {target}: new: start-up will create the folder {workdir / 'nonexistent_dir'}, "
        f"the folder {target.parent} and the database file x.db (nothing was created now)"
    ) in out.splitlines()
    assert out.splitlines()[-1].startswith("puluc-bot: configuration OK")
    assert list(workdir.iterdir()) == []


def test_check_reports_an_existing_database_with_its_games_and_players_and_changes_nothing(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    database = workdir / "state" / "puluc.db"
    make_database(database, games=2, players_per_game=2)
    before = snapshot(workdir)
    configure(monkeypatch, DATABASE_URL=f"sqlite:///{database}")
    code, out, err = check(capsys)
    assert code == 0, err
    expected = f"existing, 2 games and 4 players, schema version {LATEST_VERSION}, intact"
    assert f"puluc-bot: database {database}: {expected}" in out
    assert snapshot(workdir) == before


def test_check_reads_the_database_of_a_running_bot_without_disturbing_it(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    database = workdir / "puluc.db"
    make_database(database, games=1)
    running = sqlite3.connect(database)  # as the bot holds it: WAL mode, -wal and -shm beside the file
    try:
        running.execute("INSERT INTO players (user_id, display_name, last_active, created_at) VALUES (7, 'x', 0, 0)")
        running.commit()
        names = sorted(path.name for path in workdir.iterdir())
        assert names == ["puluc.db", "puluc.db-shm", "puluc.db-wal"]
        configure(monkeypatch)
        monkeypatch.setenv("DATABASE_URL", f"sqlite:///{database}")
        code, out, err = check(capsys)
        assert code == 0, err
        assert "existing, 1 game and 3 players" in out, "committed rows still in the WAL are counted"
        assert sorted(path.name for path in workdir.iterdir()) == names
    finally:
        running.close()


def test_an_existing_empty_file_is_reported_as_empty(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (workdir / "puluc.db").write_bytes(b"")
    configure(monkeypatch, DATABASE_URL="sqlite:///puluc.db")
    code, out, err = check(capsys)
    assert code == 0, err
    expected = ("existing but empty, 0 games and 0 players, "
                f"schema version 0; start-up will migrate it to {LATEST_VERSION}")
    assert expected in out
    assert (workdir / "puluc.db").read_bytes() == b""


def test_check_from_another_folder_reads_the_named_env_file_and_its_database(
    tmp_path: Path, workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = tmp_path / "srv" / "puluc"
    make_database(home / "data" / "puluc.db", games=3)
    env_file = home / ".env"
    env_file.write_text(f"DISCORD_TOKEN={TOKEN}\nDATABASE_URL=sqlite:///data/puluc.db\n", encoding="utf-8")
    code, out, err = check(capsys, "--env-file", str(env_file))
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == f"puluc-bot: settings from {env_file} and the environment (the environment wins)"
    assert lines[1].startswith(f"puluc-bot: database {home / 'data' / 'puluc.db'}: existing, 3 games and 6 players")
    assert list(workdir.iterdir()) == [], "nothing is created in the folder the bot was started from"


def test_check_without_an_env_file_says_where_it_looked(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    configure(monkeypatch)
    code, out, err = check(capsys)
    assert code == 0, err
    assert out.splitlines()[0] == f"puluc-bot: no .env file at {workdir / '.env'}; settings from the environment only"
    assert f"database {workdir / 'data' / 'puluc.db'}: new" in out


def test_check_notes_a_misspelt_setting(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (workdir / ".env").write_text(f"DISCORD_TOKEN={TOKEN}\nTURN_TIMER_SECOND=60\n", encoding="utf-8")
    code, out, err = check(capsys)
    assert code == 0, err
    assert "sets TURN_TIMER_SECOND, which is no setting of the bot (ignored); did you mean TURN_TIMER_SECONDS?" in out


def test_missing_token_names_the_env_file_it_looked_for(workdir: Path) -> None:
    done = run_program([console_script(), "--check"], workdir)
    assert done.returncode == 1
    line = one_error_line(done.stderr)
    assert "DISCORD_TOKEN is not set" in line
    assert f"no .env file at {workdir / '.env'}" in line
    assert done.stdout == ""


def test_starting_without_a_token_ends_in_one_line_not_a_traceback(workdir: Path) -> None:
    done = run_program([sys.executable, "-m", "bot"], workdir)
    assert done.returncode == 1
    assert "DISCORD_TOKEN is not set" in one_error_line(done.stderr)


def test_python_m_bot_check_succeeds(workdir: Path) -> None:
    done = run_program([sys.executable, "-m", "bot", "--check"], workdir, DISCORD_TOKEN=TOKEN)
    assert done.returncode == 0, done.stderr
    assert "configuration OK" in done.stdout
    for part in TOKEN_PARTS:
        assert part not in done.stdout + done.stderr


@pytest.mark.parametrize("named", ["typo/.env", "."])
def test_a_named_env_file_that_is_missing_or_a_folder_is_an_error(workdir: Path, named: str) -> None:
    done = run_program([console_script(), "--check", "--env-file", named], workdir, DISCORD_TOKEN=TOKEN)
    assert done.returncode == 1
    line = one_error_line(done.stderr)
    assert line.startswith(f"puluc-bot: error: --env-file {(workdir / named).resolve()}")
    assert "no such file" in line if named != "." else "is a folder" in line


def test_the_env_file_in_the_current_folder_is_read_and_the_environment_overrides_it(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (workdir / ".env").write_text(f"DISCORD_TOKEN={TOKEN}\nDATABASE_URL=mysql://nowhere/puluc\n")
    assert failed_check(capsys).startswith("puluc-bot: error: DATABASE_URL ")
    monkeypatch.setenv("DATABASE_URL", "sqlite:///ok.db")
    code, out, err = check(capsys)
    assert code == 0, err
    assert f"database {workdir / 'ok.db'}: new" in out


# -- --check: what it refuses ------------------------------------------------------------------------------


def test_an_in_memory_database_is_refused(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    configure(monkeypatch, DATABASE_URL="sqlite:///:memory:")
    assert "in-memory database, which keeps nothing" in failed_check(capsys)


def test_a_token_with_short_parts_is_refused_without_being_printed(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "abc.def.ghi")
    line = failed_check(capsys)
    assert "its first, second and third parts are too short" in line
    for part in ("abc", "def", "ghi"):
        assert part not in line


def test_a_malformed_token_fails_without_echoing_it(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN.replace(".", "", 1))
    assert "DISCORD_TOKEN does not look like a bot token" in failed_check(capsys)


@pytest.mark.parametrize(
    ("name", "value"), [("TURN_TIMER_SECONDS", "700000"), ("TURN_TIMER_SECONDS", "5"), ("AI_BUDGET_MS", "600000")]
)
def test_a_value_the_commands_would_refuse_fails_the_check(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], name: str, value: str
) -> None:
    configure(monkeypatch, **{name: value})
    line = failed_check(capsys)
    assert line.startswith(f"puluc-bot: error: {name} must be a whole number of ")
    assert f"Write for example {name}=" in line


def test_log_level_warn_passes_the_check(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    configure(monkeypatch, LOG_LEVEL="warn")
    code, _, err = check(capsys)
    assert code == 0, err


def test_a_bad_database_url_scheme_fails_in_one_line(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    configure(monkeypatch, DATABASE_URL="mysql://db.example/puluc")
    assert failed_check(capsys).startswith("puluc-bot: error: DATABASE_URL ")


def test_a_database_under_a_regular_file_cannot_be_created(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A path whose parent is a file can never be created, even by root (unlike a chmod-ed directory).
    (workdir / "occupied").write_text("not a directory")
    configure(monkeypatch, DATABASE_URL=f"sqlite:///{workdir}/occupied/sub/puluc.db")
    line = failed_check(capsys)
    assert f"cannot use the database at {workdir}/occupied/sub/puluc.db" in line
    assert f"{workdir}/occupied is a file" in line


def test_a_file_that_is_not_a_database_fails_the_check(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (workdir / "puluc.db").write_bytes(b"this is not an SQLite file" * 200)
    configure(monkeypatch, DATABASE_URL=f"sqlite:///{workdir}/puluc.db")
    assert str(workdir / "puluc.db") in failed_check(capsys)


def test_a_database_from_a_newer_bot_is_refused(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    conn = sqlite3.connect(workdir / "future.db")
    conn.execute("PRAGMA user_version = 999")
    conn.close()
    configure(monkeypatch, DATABASE_URL=f"sqlite:///{workdir}/future.db")
    assert "upgrade the bot" in failed_check(capsys)


@pytest.mark.parametrize("font", ["/etc/passwd", "not-a-font.ttf"])
def test_a_file_that_is_not_a_font_fails_the_check(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], font: str
) -> None:
    (workdir / "not-a-font.ttf").write_text("hello")
    configure(monkeypatch, FONT_PATH=font)
    line = failed_check(capsys)
    assert line.startswith(f"puluc-bot: error: FONT_PATH {(workdir / font).resolve()} cannot draw the board images")


def test_check_draws_a_board_with_the_configured_font(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    font = find_font()
    if font is None:
        pytest.skip("no DejaVu Sans on this machine to configure")
    configure(monkeypatch, FONT_PATH=font)
    code, out, err = check(capsys)
    assert code == 0, err
    assert f"puluc-bot: board font: {font}" in out.splitlines()


# -- --check: every mistake at once -----------------------------------------------------------------------


def failed_lines(capsys: pytest.CaptureFixture[str], *args: str) -> list[str]:
    """Every line a failed `--check` printed (all on stderr), without the program's name."""
    code, out, err = check(capsys, *args)
    assert code == 1
    assert out == "", "nothing is reported as found when something is wrong"
    lines = err.strip().splitlines()
    assert all(line.startswith(("puluc-bot: error: ", "puluc-bot: hint: ")) for line in lines), lines
    return [line.removeprefix("puluc-bot: ") for line in lines]


def several_mistakes(workdir: Path) -> Path:
    """A .env with a misspelt token name, two bad numbers, a font that is no font and a database under a file."""
    (workdir / "occupied").write_text("a file")
    (workdir / "not-a-font.ttf").write_text("hello")
    env_file = workdir / ".env"
    env_file.write_text(
        f"DISCORD_TOKN={TOKEN}\nTURN_TIMER_SECONDS=5\nAI_BUDGET_MS=fast\nFONT_PATH=not-a-font.ttf\n"
        "DATABASE_URL=sqlite:///occupied/puluc.db\n", encoding="utf-8")
    return env_file


def test_check_reports_every_mistake_in_one_run_then_every_hint(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    env_file = several_mistakes(workdir)
    lines = failed_lines(capsys)
    assert [line.split(":", 1)[0] for line in lines] == ["error"] * 5 + ["hint"]
    assert lines[0].startswith("error: DISCORD_TOKEN is not set")
    assert lines[1].startswith("error: TURN_TIMER_SECONDS must be")
    assert lines[2].startswith("error: AI_BUDGET_MS must be")
    assert lines[3].startswith(f"error: cannot use the database at {workdir / 'occupied' / 'puluc.db'}")
    assert lines[4].startswith(f"error: FONT_PATH {workdir / 'not-a-font.ttf'} cannot draw the board images")
    assert lines[5] == (
        f"hint: {env_file} sets DISCORD_TOKN, which is no setting of the bot (ignored); did you mean DISCORD_TOKEN?"
    )


def test_start_up_reports_the_same_lines_as_check_and_contacts_nothing(
    workdir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    restored_logging: logging.Logger,
) -> None:
    async def never(self: object, token: str) -> None:
        raise AssertionError("start-up must stop before it contacts Discord")

    monkeypatch.setattr(discord.http.HTTPClient, "static_login", never)
    several_mistakes(workdir)
    checked = failed_lines(capsys)
    assert main([]) == 1
    _, err = capsys.readouterr()
    assert [line.removeprefix("puluc-bot: ") for line in err.strip().splitlines()] == checked
    assert not (workdir / "data").exists()


def test_an_unreadable_env_line_fails_the_check_with_its_file_and_line(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (workdir / ".env").write_text(f"DISCORD_TOKEN={TOKEN}\nTURN TIMER=60\n", encoding="utf-8")
    (line,) = failed_lines(capsys)
    assert line.startswith(f"error: {workdir / '.env'}, line 2 (the one that starts with TURN), is not a setting")


def test_check_prints_the_invite_link_of_a_well_formed_token(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    configure(monkeypatch)
    code, out, err = check(capsys)
    assert code == 0, err
    invite = next(line for line in out.splitlines() if "invite link" in line)
    url = invite.split(": ", 2)[2]
    assert url == ("https://discord.com/oauth2/authorize?client_id=1057489987654321012&scope=bot+"
                   "applications.commands&permissions=309237763072")


# -- start-up ---------------------------------------------------------------------------------------------

LOG_LINE = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d (\x1b\[[0-9;]*m)?(DEBUG|INFO|WARNING|ERROR|CRITICAL) ")


class Terminal(io.StringIO):
    """Standard error as a terminal shows it."""

    def isatty(self) -> bool:
        return True


@pytest.fixture
def discord_rejects_the_token(monkeypatch: pytest.MonkeyPatch) -> None:
    """Discord answers the login with 401, as for a reset token: start-up runs up to the login, then stops."""

    async def reject(self: object, token: str) -> None:
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setattr(discord.http.HTTPClient, "static_login", reject)


def test_start_up_logs_its_settings_file_database_and_font_one_plain_line_each(
    tmp_path: Path, workdir: Path, capsys: pytest.CaptureFixture[str], restored_logging: logging.Logger,
    discord_rejects_the_token: None,
) -> None:
    home = tmp_path / "srv"
    make_database(home / "puluc.db", games=1)
    env_file = home / ".env"
    env_file.write_text(f"DISCORD_TOKEN={TOKEN}\nDATABASE_URL=sqlite:///puluc.db\nLOG_LEVEL=info\n")
    assert main(["--env-file", str(env_file)]) == 1
    out, err = capsys.readouterr()
    *logged, last = err.splitlines()
    assert last.startswith("puluc-bot: error: Discord rejected DISCORD_TOKEN")
    assert all(LOG_LINE.match(line) for line in logged), logged
    assert any(line.endswith(f"bot: settings from {env_file} and the environment (the environment wins)")
               for line in logged)
    expected = f"existing, 1 game and 2 players, schema version {LATEST_VERSION}, intact"
    assert any(line.endswith(f"bot: database {home / 'puluc.db'}: {expected}") for line in logged)
    assert any("bot: board font: " in line for line in logged)
    assert "\x1b[" not in err, "no colour codes when standard error is not a terminal"
    for part in TOKEN_PARTS:
        assert part not in out + err


def test_start_up_with_log_format_json_logs_one_json_object_per_line(
    workdir: Path, capsys: pytest.CaptureFixture[str], restored_logging: logging.Logger,
    discord_rejects_the_token: None,
) -> None:
    (workdir / ".env").write_text(f"DISCORD_TOKEN={TOKEN}\nLOG_FORMAT=json\nSHARD_COUNT=2\n")
    assert main([]) == 1
    _, err = capsys.readouterr()
    *logged, last = err.splitlines()
    assert last.startswith("puluc-bot: error: Discord rejected DISCORD_TOKEN")
    records = [json.loads(line) for line in logged]
    assert any(record["message"].startswith("settings from ") for record in records)
    assert all({"time", "level", "logger", "message"} <= set(record) for record in records)
    for part in TOKEN_PARTS:
        assert part not in err


@pytest.mark.parametrize(("no_color", "coloured"), [(None, True), ("1", False)])
def test_start_up_colours_its_log_only_on_a_terminal_without_no_color(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, restored_logging: logging.Logger,
    discord_rejects_the_token: None, no_color: str | None, coloured: bool,
) -> None:
    (workdir / ".env").write_text(f"DISCORD_TOKEN={TOKEN}\n")
    if no_color is not None:
        monkeypatch.setenv("NO_COLOR", no_color)
    monkeypatch.delenv("TERM", raising=False)
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main([]) == 1
    shown = terminal.getvalue()
    assert "settings from" in shown
    assert ("\x1b[32mINFO" in shown) is coloured
    assert ("\x1b[" in shown) is coloured


def test_start_up_stops_before_discord_on_a_font_that_cannot_draw(
    workdir: Path, capsys: pytest.CaptureFixture[str], restored_logging: logging.Logger,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def never(self: object, token: str) -> None:
        raise AssertionError("start-up must stop before it contacts Discord")

    monkeypatch.setattr(discord.http.HTTPClient, "static_login", never)
    (workdir / ".env").write_text(f"DISCORD_TOKEN={TOKEN}\nFONT_PATH=/etc/passwd\n")
    assert main([]) == 1
    assert "FONT_PATH /etc/passwd cannot draw the board images" in capsys.readouterr().err.splitlines()[-1]
    assert list(workdir.iterdir()) == [workdir / ".env"], "the database is not created either"


# -- the command line ---------------------------------------------------------------------------------------


def test_seed_without_demo_is_an_error(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--seed", "7"]) == 1
    assert "--seed chooses the game of --demo" in one_error_line(capsys.readouterr().err)
    assert main(["--check", "--seed", "7"]) == 1
    assert "--seed" in one_error_line(capsys.readouterr().err)


def test_env_file_with_demo_is_an_error(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--demo", "out", "--env-file", ".env"]) == 1
    assert "--demo needs no settings" in one_error_line(capsys.readouterr().err)
    assert not (workdir / "out").exists()


# -- --demo ------------------------------------------------------------------------------------------------


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
        assert isinstance(replay, GifImagePlugin.GifImageFile)
        assert replay.n_frames > 1

    record = json.loads((out / "record.json").read_text(encoding="utf-8"))
    assert record, "the record must describe the game"

    summary = done.stdout
    assert "replay.gif" in summary and "record.json" in summary
    assert f"{len(boards)} board images" in summary
    assert "Removed" not in summary


def test_demo_into_a_folder_with_other_files_writes_nothing(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = workdir / "photos"
    out.mkdir()
    (out / "holiday.png").write_bytes(b"mine")
    before = snapshot(out)
    assert main(["--demo", str(out)]) == 1
    line = one_error_line(capsys.readouterr().err)
    assert f"{out} holds files the demo did not write (holiday.png)" in line
    assert snapshot(out) == before


def test_demo_into_an_earlier_demo_replaces_it_and_says_so(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = workdir / "demo"
    assert main(["--demo", str(out), "--seed", "1"]) == 0
    first = sorted(path.name for path in out.iterdir())
    (out / "board_999.png").write_bytes(b"from a longer game")  # a board the new game will not overwrite
    capsys.readouterr()
    assert main(["--demo", str(out), "--seed", "2"]) == 0
    summary = capsys.readouterr().out
    assert summary.startswith(f"Removed the previous demo's {len(first) + 1} files from {out} first (board_000.png to ")
    assert "board_999.png" in summary
    boards = sorted(out.glob("board_*.png"))
    assert "board_999.png" not in [board.name for board in boards]
    assert f"Wrote {len(boards)} board images" in summary


def test_demo_into_a_file_fails_in_one_line(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (workdir / "taken").write_text("a file, not a directory")
    assert main(["--demo", str(workdir / "taken")]) == 1
    assert "is a file, not a folder" in one_error_line(capsys.readouterr().err)


# -- --version ---------------------------------------------------------------------------------------------


def test_version_names_the_installed_release_python_and_discord_py(workdir: Path) -> None:
    from importlib import metadata
    from platform import python_version

    done = run_program([console_script(), "--version"], workdir)
    assert done.returncode == 0, done.stderr
    assert done.stdout == (f"puluc-bot {metadata.version('puluc-bot')} (Python {python_version()}, "
                           f"discord.py {discord.__version__})\n")
    assert done.stderr == ""


def test_version_needs_no_settings_and_reads_none(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (workdir / ".env").write_text("DISCORD_TOKEN=not a token\nTURN_TIMER_SECONDS=1\n")
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("puluc-bot ")
    with pytest.raises(SystemExit) as refused:
        main(["--version", "--check"])
    assert refused.value.code == 2


# -- PostgreSQL: each failure one line with its fix ---------------------------------------------------------


@pytest.fixture
def role_without_create() -> Iterator[str]:
    """DATABASE_URL of a new role on a new database it does not own, where nobody but the owner may create in
    schema public (PostgreSQL 15's default, made explicit): as a server owner's bot user often is."""
    name = f"puluc_nocreate_{secrets.token_hex(4)}"

    async def admin(*statements: str, database: str | None = None) -> None:
        conn = await admin_connection() if database is None else await asyncpg.connect(
            urlunsplit(urlsplit(server_url())._replace(path=f"/{database}")), timeout=10)
        try:
            for statement in statements:
                await conn.execute(statement)
        finally:
            await conn.close()

    asyncio.run(admin(f'CREATE ROLE "{name}" LOGIN', f'CREATE DATABASE "{name}"'))
    try:
        asyncio.run(admin("REVOKE CREATE ON SCHEMA public FROM PUBLIC", database=name))
        host = urlsplit(server_url()).netloc.rsplit("@", 1)[-1]
        yield f"postgresql://{name}@{host}/{name}"
    finally:
        asyncio.run(admin(f'DROP DATABASE "{name}" WITH (FORCE)', f'DROP ROLE "{name}"'))


def test_a_role_without_create_gets_one_line_with_the_grant_from_check_and_from_start_up(
    workdir: Path, role_without_create: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    restored_logging: logging.Logger,
) -> None:
    role = urlsplit(role_without_create).username
    done = run_program([console_script(), "--check"], workdir, DISCORD_TOKEN=TOKEN, DATABASE_URL=role_without_create)
    assert done.returncode == 1
    line = one_error_line(done.stderr)
    assert line.startswith(f"puluc-bot: error: the PostgreSQL user {role} may not create the bot's tables in "
                           "schema public of ")
    assert line.endswith(f"run in database {role}: GRANT CREATE ON SCHEMA public TO {role};")

    async def never(self: object, token: str) -> None:
        raise AssertionError("start-up must stop before it contacts Discord")

    monkeypatch.setattr(discord.http.HTTPClient, "static_login", never)
    configure(monkeypatch, DATABASE_URL=role_without_create)
    assert main([]) == 1
    _, err = capsys.readouterr()
    assert [logged for logged in err.splitlines() if not LOG_LINE.match(logged)] == [line]


def test_migrating_without_create_reports_the_permission_not_the_aborted_transaction(role_without_create: str) -> None:
    async def migrate_in_a_transaction() -> None:
        conn = await asyncpg.connect(role_without_create, timeout=10)
        try:
            async with conn.transaction():
                await postgres_schema.migrate(conn)
        finally:
            await conn.close()

    with pytest.raises(asyncpg.InsufficientPrivilegeError, match="permission denied for schema public"):
        asyncio.run(migrate_in_a_transaction())


@pytest.mark.parametrize(("url", "expected"), [
    ("postgresql://postgres@127.0.0.1:1/test", "cannot reach PostgreSQL at 127.0.0.1:1 ("),
    ("postgresql://postgres@127.0.0.1:5432/puluc_no_such_database",
     ("PostgreSQL at 127.0.0.1:5432 has no database puluc_no_such_database: create it (as a superuser: CREATE "
      "DATABASE puluc_no_such_database OWNER postgres;) or correct its name in DATABASE_URL.")),
])
def test_an_unreachable_server_and_a_missing_database_are_one_line_each(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], url: str, expected: str,
) -> None:
    async def reachable() -> None:
        await (await admin_connection()).close()  # skips (or fails, in CI) without the test server

    asyncio.run(reachable())
    configure(monkeypatch, DATABASE_URL=url)
    assert expected in failed_check(capsys)


def test_a_refused_password_and_a_newer_schema_name_their_fix(tmp_path: Path) -> None:
    config = load_config({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": "postgresql://puluc:wrong@db.example.org/puluc"})
    driver = asyncpg.InvalidPasswordError('password authentication failed for user "puluc"')
    try:
        raise translate(driver) from driver
    except StorageUnavailable as refused:
        assert database_problem(config, refused) == (
            "PostgreSQL at db.example.org:5432 refused the password of user puluc: correct the password in "
            "DATABASE_URL (or PGPASSWORD).")
    try:
        migrations.check_version(99, 9)
    except SchemaTooNew as newer:
        line = database_problem(config, newer)
    assert line.startswith("db.example.org:5432/puluc: ") and "upgrade the bot" in line
