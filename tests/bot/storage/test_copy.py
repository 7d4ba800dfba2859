"""copy-data: SQLite to an empty PostgreSQL and back, checked row by row, the source untouched, a non-empty
target refused, and a copy that does not match the source leaving nothing behind."""

from __future__ import annotations

import asyncio
import hashlib
import io
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.__main__ import main
from bot.cli.copy_data import ProgressBar
from bot.storage import open_storage
from bot.storage.copy import CopyMismatch, CopyRefused, copy_data
from bot.storage.errors import SchemaTooOld
from bot.storage.sql.bulk import BulkLoad
from bot.storage.sql.tables import Table
from bot.storage.sqlite import schema as sqlite_schema
from tests.bot.storage.games import append, new_duel, play, running_duel
from tests.helpers import FakeClock


async def fill(url: str, clock: FakeClock) -> None:
    """A small server's life: settings, ranked and casual games, a team game, a lobby, a game in progress,
    and a player who asked to be forgotten."""
    storage = await open_storage(url, clock=clock)
    try:
        await storage.server_settings.update_guild_settings(10, default_variant="ants", locale="fr", fire=True,
                                                            scorpion=False)
        await storage.server_settings.set_channel_ranked(10, 70, True)
        for game in range(6):
            await play(storage, [1 + game % 3, 4], "A" if game % 2 else None, kills={"A1": game, "B1": 1})
            clock.advance(days=0.3)
        await play(storage, [1, 2, 3, 4], "B", variant="fire")
        await play(storage, [5, 6], "A", ranked=False, guild_id=None)
        await new_duel(storage)
        running = await running_duel(storage)
        await append(storage, running, 1, "throw", {"throw": [2], "faces": ["1100"]}, snapshot_ppn="after",
                     turn_deadline=clock.now + 60, timeouts={"B1": 1})
        await storage.players.forget_me(6)
    finally:
        await storage.close()


async def all_rows(url: str) -> list[tuple[str, tuple[Any, ...]]]:
    storage = await open_storage(url, read_only=True)
    try:
        return [(t.name, t.comparable(r)) async for t, rows in storage.tables.export_rows(7) for r in rows]
    finally:
        await storage.close()


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


async def test_sqlite_to_postgres_and_back_copies_every_row(
    tmp_path: Path, postgres_url: str, clock: FakeClock
) -> None:
    source_path = tmp_path / "source.db"
    source = f"sqlite:///{source_path}"
    await fill(source, clock)
    before = digest(source_path)
    seen: list[tuple[str, int, int]] = []

    report = await copy_data(source, postgres_url, lambda phase, done, total: seen.append((phase, done, total)))

    assert digest(source_path) == before  # the source was only read
    original = await all_rows(source)
    assert report.rows["games"] == 10 and sum(report.rows.values()) == len(original)
    assert await all_rows(postgres_url) == original
    assert seen[-1] == ("checking", len(original), len(original))
    assert {phase for phase, _, _ in seen} == {"copying", "checking"}

    back = f"sqlite:///{tmp_path / 'back.db'}"
    await copy_data(postgres_url, back)
    assert await all_rows(back) == original

    copied = await open_storage(postgres_url, clock=clock)
    try:
        assert await copied.integrity_check() == "ok"
        board = await copied.ladders.leaderboard("duel", 0)
        assert [e.user_id for e in board.entries] == [4]
        (open_log,) = [log for log in await copied.games.open_games() if log.events]
        assert (open_log.game.snapshot_ppn, open_log.game.seat("B1").consecutive_timeouts) == ("after", 1)
        assert await copied.games.create_game(guild_id=1, channel_id=1, host_id=None, variant="bell", rules={},
                                        turn_timer_seconds=60) == 11  # new games number on after the copied ones
    finally:
        await copied.close()


async def test_a_target_that_holds_anything_is_refused_and_left_alone(
    tmp_path: Path, postgres_url: str, clock: FakeClock
) -> None:
    source = f"sqlite:///{tmp_path / 'source.db'}"
    await fill(source, clock)
    target = await open_storage(postgres_url)
    try:
        await target.server_settings.update_guild_settings(99, locale="it")
    finally:
        await target.close()
    with pytest.raises(CopyRefused, match="not empty \\(1 guilds\\)"):
        await copy_data(source, postgres_url)
    assert [name for name, _ in await all_rows(postgres_url)] == ["guilds"]
    with pytest.raises(CopyRefused, match="same database"):
        await copy_data(source, source)


async def test_a_source_an_older_bot_wrote_is_refused_untouched(tmp_path: Path, postgres_url: str) -> None:
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path, isolation_level=None)
    sqlite_schema.migrate_sync(conn, target=1)
    conn.close()
    before = digest(path)
    with pytest.raises(SchemaTooOld, match="start the bot on it once"):
        await copy_data(f"sqlite:///{path}", postgres_url)
    assert digest(path) == before


async def test_a_copy_that_differs_from_the_source_leaves_the_target_empty(
    tmp_path: Path, postgres_url: str, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = f"sqlite:///{tmp_path / 'source.db'}"
    await fill(source, clock)
    real_load = BulkLoad.load

    async def garbling_load(self: BulkLoad, table: Table, rows: list[tuple[Any, ...]]) -> None:
        if table.name == "events":  # one payload garbled on the way, as a broken driver might
            rows = [(*rows[0][:3], '{"move": "9:H"}', *rows[0][4:]), *rows[1:]]
        await real_load(self, table, rows)

    monkeypatch.setattr(BulkLoad, "load", garbling_load)
    with pytest.raises(CopyMismatch, match=r"events \(game_id \d+, seq 1\) differs"):
        await copy_data(source, postgres_url)
    target = await open_storage(postgres_url)
    try:
        assert not any((await target.tables.row_counts()).values())
    finally:
        await target.close()


async def test_the_command_copies_with_progress_and_says_what_it_did(
    tmp_path: Path, postgres_url: str, clock: FakeClock, capsys: pytest.CaptureFixture[str]
) -> None:
    source = f"sqlite:///{tmp_path / 'source.db'}"
    await fill(source, clock)
    # asyncio.run inside: the command runs in a thread of its own, as from a shell
    assert await asyncio.to_thread(main, ["copy-data", source, postgres_url]) == 0
    out, err = capsys.readouterr()
    assert "copied 10 games, 5 players and " in out and "every row checked" in out
    assert "copying: 100%" in err and "checking: 100%" in err  # plain lines, as stderr is not a terminal
    assert "postgres@" not in out + err  # places are shown as host:port/database
    assert await asyncio.to_thread(main, ["copy-data", source, postgres_url]) == 1
    assert "error: nothing was copied: the target database" in capsys.readouterr().err


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_progress_bar_redraws_in_place_on_a_terminal() -> None:
    screen, now = Terminal(), [0.0]
    bar = ProgressBar(screen, clock=lambda: now[0])
    bar("copying", 0, 200)
    bar("copying", 50, 200)  # too soon to redraw
    now[0] = 1.0
    bar("copying", 100, 200)
    bar("copying", 200, 200)  # the end is always drawn, and ends the line
    frames = screen.getvalue().split("\r")[1:]
    assert [f.split("]")[1].split()[0] for f in frames] == ["0%", "50%", "100%"]
    assert frames[1].startswith("copying  [" + "#" * 15 + "-" * 15 + "]") and frames[-1].endswith("\n")


def test_the_progress_is_plain_lines_in_a_log() -> None:
    log = io.StringIO()
    bar = ProgressBar(log)
    for done in range(0, 1001, 50):
        bar("checking", done, 1000)
    assert log.getvalue().splitlines()[:3] == [
        "checking: 0% (0 of 1,000 rows)", "checking: 10% (100 of 1,000 rows)", "checking: 20% (200 of 1,000 rows)"
    ]
    assert len(log.getvalue().splitlines()) == 11
