"""SQLite's failures leave the backend as storage errors, with the transaction rolled back and the storage usable."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from bot.storage import Storage
from bot.storage.errors import ConstraintViolation, StorageError, StorageUnavailable
from bot.storage.sqlite import database as database_module
from bot.storage.sqlite.connection import Done, run
from bot.storage.sqlite.database import open_database
from bot.storage.sqlite.errors import translate
from bot.storage.types import NewEvent, SeatSpec


async def running_game(storage: Storage) -> int:
    game_id = await storage.games.create_game(
        guild_id=1, channel_id=2, host_id=1, variant="bell", rules={}, turn_timer_seconds=60,
        seats=[SeatSpec("A1", "a", user_id=1), SeatSpec("B1", "b", user_id=2)],
    )
    await storage.games.start_game(game_id, first_team="A", throw_off=[], seed=1, snapshot_ppn="p0",
                                   turn_deadline=None)
    return game_id


def sqlite_error(kind: type[sqlite3.Error], message: str, code: int) -> sqlite3.Error:
    error = kind(message)
    error.sqlite_errorcode = code  # what the sqlite3 module sets on errors it raises
    return error


@pytest.mark.parametrize(
    ("code", "reason"),
    [
        (sqlite3.SQLITE_FULL, "disk_full"),
        (sqlite3.SQLITE_BUSY, "busy"),
        (sqlite3.SQLITE_BUSY | (2 << 8), "busy"),  # SQLITE_BUSY_SNAPSHOT, an extended code
        (sqlite3.SQLITE_READONLY, "read_only"),
        (sqlite3.SQLITE_IOERR | (3 << 8), "io"),  # SQLITE_IOERR_WRITE
        (sqlite3.SQLITE_CORRUPT, "damaged"),
    ],
)
def test_each_failure_of_the_database_has_its_reason(code: int, reason: str) -> None:
    translated = translate(sqlite_error(sqlite3.OperationalError, "boom", code))
    assert isinstance(translated, StorageUnavailable) and translated.reason == reason


def test_a_broken_constraint_and_a_bug_are_storage_errors_but_not_unavailability() -> None:
    assert isinstance(translate(sqlite_error(sqlite3.IntegrityError, "FOREIGN KEY", 787)), ConstraintViolation)
    bug = translate(sqlite_error(sqlite3.OperationalError, "no such table: gamez", 1))
    assert type(bug) is StorageError


async def test_a_full_database_refuses_the_move_and_keeps_the_log(tmp_path: Path) -> None:
    storage = Storage(await open_database(tmp_path / "full.db"))
    try:
        game_id = await running_game(storage)
        async with storage.database.write() as tx:  # the file may not grow any more: every new page is refused
            pages = (await tx.fetch("PRAGMA page_count"))[0][0]
            await tx.fetch(f"PRAGMA max_page_count = {pages}")
        big = [NewEvent("move", {"move": "1:H", "pad": "x" * 3000}) for _ in range(20)]
        with pytest.raises(StorageUnavailable) as caught:
            await storage.games.append_events(game_id, 1, big, snapshot_ppn="p20")
        assert caught.value.reason == "disk_full"
        log = await storage.games.game_log(game_id)
        assert (log.events, log.game.last_seq, log.game.snapshot_ppn) == ((), 0, "p0")
        async with storage.database.write() as tx:
            await tx.fetch("PRAGMA max_page_count = 1073741823")
        await storage.games.append_events(game_id, 1, big, snapshot_ppn="p20")  # the storage still works afterwards
        assert (await storage.games.get_game(game_id)).last_seq == 20
    finally:
        await storage.close()


async def test_a_lock_held_too_long_by_another_process_is_busy(tmp_path: Path) -> None:
    path = tmp_path / "locked.db"
    storage = Storage(await open_database(path, busy_timeout_ms=50))
    other = sqlite3.connect(path, isolation_level=None)
    try:
        game_id = await running_game(storage)
        other.execute("BEGIN IMMEDIATE")  # another bot process is writing and does not let go
        with pytest.raises(StorageUnavailable) as caught:
            await storage.games.append_events(game_id, 1, [NewEvent("move", {"move": "1:H"})])
        assert caught.value.reason == "busy"
        other.execute("ROLLBACK")
        await storage.games.append_events(game_id, 1, [NewEvent("move", {"move": "1:H"})])
        assert (await storage.games.get_game(game_id)).last_seq == 1
    finally:
        other.close()
        await storage.close()


@pytest.mark.parametrize(
    ("code", "reason"), [(sqlite3.SQLITE_FULL, "disk_full"), (sqlite3.SQLITE_BUSY, "busy")]
)
async def test_a_failed_commit_rolls_back_and_leaves_as_unavailable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: int, reason: str
) -> None:
    storage = Storage(await open_database(tmp_path / "commit.db"))
    try:
        game_id = await running_game(storage)

        async def failing_commit(db: Any, sql: str, params: Iterable[Any] = ()) -> Done:
            if sql == "COMMIT":  # SQLite failed writing the transaction out (the WAL frames) at COMMIT
                raise sqlite_error(sqlite3.OperationalError, "database or disk is full", code)
            return await run(db, sql, params)

        monkeypatch.setattr(database_module, "run", failing_commit)
        with pytest.raises(StorageUnavailable) as caught:
            await storage.games.append_events(game_id, 1, [NewEvent("move", {"move": "1:H"})], snapshot_ppn="p1")
        assert caught.value.reason == reason
        monkeypatch.setattr(database_module, "run", run)
        log = await storage.games.game_log(game_id)
        assert (log.events, log.game.last_seq, log.game.snapshot_ppn) == ((), 0, "p0")  # rolled back
        await storage.games.append_events(game_id, 1, [NewEvent("move", {"move": "1:H"})])  # lock released, usable
        assert (await storage.games.get_game(game_id)).last_seq == 1
    finally:
        await storage.close()


async def test_a_file_that_is_not_a_database_is_refused_as_damaged(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_bytes(b"these are my notes, not a database" * 200)
    with pytest.raises(StorageUnavailable) as caught:
        await open_database(path)
    assert caught.value.reason == "damaged"
