"""`puluc-bot backup`: a copy of a SQLite database taken while games are played is one consistent moment of it,
and restoring it as docs/OPERATIONS.md says brings those games back exactly; for PostgreSQL the command prints
the pg_dump line to run, without the password."""

from __future__ import annotations

import asyncio
import re
import shlex
import shutil
import sqlite3
import subprocess
from dataclasses import replace
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest

from bot.__main__ import main
from bot.config import Config
from bot.config_spec import SETTINGS
from bot.services import services
from bot.storage import open_storage
from bot.storage.types import SeatSpec
from bot.storage.urls import SqliteUrl
from tests.helpers import MakeBot, World, accepted_challenge, game_message, mentioned, move_ids
from tests.postgres import admin_connection, fresh_schema, server_url
from tests.test_docs import sample_block

OPERATIONS = Path(__file__).parents[2] / "docs" / "OPERATIONS.md"


def words(line: str) -> str:
    """`line` with its paths and numbers as placeholders: what a sample and a real answer share."""
    line = re.sub(r"\d[\d,.]*", "N", re.sub(r"/\S+?(?=:? )", "PATH", line))
    return re.sub(r"\b(game|player)s?\b", r"\1s", re.sub(r"N (bytes|kB|MB|GB)\b", "N SIZE", line))


@pytest.fixture
def environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No bot setting from the developer's shell, and a working folder without a .env."""
    for setting in SETTINGS:
        monkeypatch.delenv(setting.name, raising=False)
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    return cwd


async def play(world: World, moves: int, positions: dict[int, str]) -> None:
    """Play `moves` clicks of the game in #games, noting the position after each (by the game's seq)."""
    for _ in range(moves):
        board = game_message(world.games)
        (mover,) = mentioned(board)
        await world.member(mover).click(board, custom_id=move_ids(board)[0])
        session = services(world.env.bot).manager.in_channel(world.games.id)
        assert session is not None and session.state.position is not None
        positions[session.state.seq] = session.state.position.to_ppn()


async def test_a_backup_taken_while_games_are_played_restores_to_identical_games(
    world: World, bots: MakeBot, config: Config, tmp_path: Path, environment: Path,
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    session = await accepted_challenge(world)
    positions: dict[int, str] = {}
    await play(world, 2, positions)
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{config.database.where}")
    backups = tmp_path / "backups"
    backups.mkdir()

    # The backup runs in its own thread while the players go on clicking.
    taking = asyncio.ensure_future(asyncio.to_thread(main, ["backup", str(backups)]))
    await play(world, 4, positions)
    assert await taking == 0
    out = capsys.readouterr().out
    (backup,) = backups.iterdir()
    assert out.startswith(f"puluc-bot backup: copied {config.database.where} to {backup}: 1 game and 2 players")
    assert out.rstrip().endswith("s.") and ", intact, in " in out
    # docs/OPERATIONS.md shows such a line: the same words, its paths and numbers aside.
    (sample,) = sample_block(OPERATIONS, "checked before it is named:")
    assert words(out.strip()) == words(sample)
    assert sorted(path.name for path in backups.iterdir()) == [backup.name], "one self-contained file"

    live = await services(world.env.bot).storage.games.game_log(session.game_id)
    copy = await open_storage(f"sqlite:///{backup}")
    try:
        backed = await copy.games.game_log(session.game_id)
    finally:
        await copy.close()
    assert backed.events == live.events[: len(backed.events)], "the copy is the log as it was at one commit"
    moves = sum(1 for event in backed.events if event.kind == "move")
    assert moves >= 2

    # Restore (docs/OPERATIONS.md): the bot stopped, the backup copied in place of the database, started again.
    restored = tmp_path / "restored" / "puluc.db"
    restored.parent.mkdir()
    shutil.copy(backup, restored)
    await world.env.restart_bot(bots(replace(config, database=SqliteUrl(restored))))
    again = services(world.env.bot).manager.in_channel(world.games.id)
    assert again is not None and again.state.position is not None
    assert again.state.seq == backed.events[-1].seq
    assert again.state.position.to_ppn() == positions[again.state.seq]


def test_backing_up_into_an_existing_file_changes_nothing_and_says_so(
    environment: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    database = environment / "puluc.db"
    sqlite3.connect(database).close()
    (environment / "old.db").write_bytes(b"an earlier backup")
    monkeypatch.setenv("DATABASE_URL", "sqlite:///puluc.db")
    assert main(["backup", "old.db"]) == 1
    (line,) = capsys.readouterr().err.splitlines()
    assert line == (f"puluc-bot backup: error: nothing was backed up: {environment / 'old.db'} already exists; "
                    "give the backup a new name.")
    assert (environment / "old.db").read_bytes() == b"an earlier backup"


def test_a_missing_database_is_one_line(environment: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (environment / ".env").write_text("DATABASE_URL=sqlite:///data/puluc.db\n")
    assert main(["backup", "copy.db"]) == 1
    assert capsys.readouterr().err == (f"puluc-bot backup: error: nothing was backed up: there is no database file "
                                       f"at {environment / 'data' / 'puluc.db'}.\n")
    assert not (environment / "copy.db").exists()


def test_for_postgresql_it_prints_the_pg_dump_command_without_the_password(
    environment: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql://puluc:s%40cret@db.example.org:5433/puluc?search_path=bot")
    assert main(["backup", "/var/backups/puluc.dump"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[1] == ("pg_dump --format=custom --no-owner --file=/var/backups/puluc.dump --schema=bot "
                                   "postgresql://puluc@db.example.org:5433/puluc")
    assert "cret" not in out
    # The answer docs/OPERATIONS.md shows, for its URL.
    monkeypatch.setenv("DATABASE_URL", "postgresql://puluc:s%40cret@db.example.org:5432/puluc")
    assert main(["backup", "/var/backups/puluc.dump"]) == 0
    assert capsys.readouterr().out.splitlines() == sample_block(OPERATIONS, "`~/.pgpass` gives):")


async def test_the_printed_pg_dump_command_backs_up_what_pg_restore_brings_back_identically(
    environment: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    if shutil.which("pg_dump") is None or shutil.which("pg_restore") is None:
        pytest.skip("needs PostgreSQL's pg_dump and pg_restore")
    async with fresh_schema("backup") as url:
        storage = await open_storage(url)
        try:
            for channel in (2, 3):
                await storage.games.create_game(
                    guild_id=1, channel_id=channel, host_id=11, variant="bell", rules={}, turn_timer_seconds=600,
                    seats=[SeatSpec("A1", "alice", user_id=11), SeatSpec("B1", "bob", user_id=12)],
                )
            original = await storage.games.open_games()
        finally:
            await storage.close()
        monkeypatch.setenv("DATABASE_URL", url)
        dump = tmp_path / "puluc.dump"
        assert main(["backup", str(dump)]) == 0
        command = shlex.split(capsys.readouterr().out.splitlines()[1])
        assert command[0] == "pg_dump"
        done = await asyncio.to_thread(subprocess.run, command, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr

        # Restored as docs/OPERATIONS.md says, into a database without it: the dump holds the bot's schema
        # alone (the URL's search_path), so that schema dropped here is a database without it.
        schema = dict(parse_qsl(urlsplit(url).query))["search_path"]
        admin = await admin_connection()
        try:
            await admin.execute(f'DROP SCHEMA "{schema}" CASCADE')
        finally:
            await admin.close()
        restore = ["pg_restore", "--no-owner", f"--dbname={server_url()}", str(dump)]
        done = await asyncio.to_thread(subprocess.run, restore, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        restored = await open_storage(url)
        try:
            assert await restored.games.open_games() == original
        finally:
            await restored.close()
