"""What only the PostgreSQL backend promises: one migrator among several starting processes, every driver
error translated (a server that is gone, a lock held too long, connections cut mid-game), a pool that heals,
and `puluc-bot --check` that names the database without its password."""

from __future__ import annotations

import asyncio
import secrets
from pathlib import Path

import asyncpg
import pytest

from bot.__main__ import main
from bot.storage import Storage, open_storage
from bot.storage.errors import ConstraintViolation, StorageError, StorageUnavailable
from bot.storage.postgres import schema
from bot.storage.postgres.database import numbered, open_database
from bot.storage.postgres.errors import translate
from bot.storage.types import NewEvent
from bot.storage.urls import PostgresUrl, parse_database_url
from tests.bot.storage.games import running_duel
from tests.helpers import TOKEN
from tests.postgres import admin_connection


def test_placeholders_are_numbered_in_order() -> None:
    assert numbered("SELECT ? WHERE a = ? AND b IN (?, ?)") == "SELECT $1 WHERE a = $2 AND b IN ($3, $4)"


@pytest.mark.parametrize(
    ("error", "reason"),
    [
        (asyncpg.exceptions.DiskFullError, "disk_full"),
        (asyncpg.exceptions.LockNotAvailableError, "busy"),
        (asyncpg.exceptions.QueryCanceledError, "busy"),
        (asyncpg.exceptions.DeadlockDetectedError, "busy"),
        (asyncpg.exceptions.AdminShutdownError, "unreachable"),
        (asyncpg.exceptions.CannotConnectNowError, "unreachable"),
        (asyncpg.exceptions.TooManyConnectionsError, "unreachable"),
        (asyncpg.exceptions.ConnectionDoesNotExistError, "unreachable"),
        (asyncpg.exceptions.InvalidPasswordError, "unreachable"),
        (asyncpg.exceptions.ReadOnlySQLTransactionError, "read_only"),
        (asyncpg.exceptions.DataCorruptedError, "damaged"),
    ],
)
def test_each_failure_of_the_server_has_its_reason(error: type[asyncpg.PostgresError], reason: str) -> None:
    translated = translate(error("the server's words"))
    assert isinstance(translated, StorageUnavailable) and translated.reason == reason
    assert "the server's words" in str(translated)


def test_a_broken_constraint_and_a_bug_are_storage_errors_but_not_unavailability() -> None:
    assert isinstance(translate(asyncpg.exceptions.UniqueViolationError("dup")), ConstraintViolation)
    assert type(translate(asyncpg.exceptions.PostgresSyntaxError("near SELEKT"))) is StorageError
    assert isinstance(translate(ConnectionRefusedError(111, "Connection refused")), StorageUnavailable)


async def test_a_server_that_is_not_there_is_unreachable_and_the_password_stays_secret() -> None:
    with pytest.raises(StorageUnavailable) as refused:
        await open_storage("postgresql://puluc:hunter2@127.0.0.1:1/puluc")  # nothing listens on port 1
    assert refused.value.reason == "unreachable"
    assert "hunter2" not in str(refused.value)


async def test_a_database_that_does_not_exist_is_unreachable(postgres_url: str) -> None:
    missing = postgres_url.replace("/test?", f"/storage_missing_{secrets.token_hex(4)}?")
    with pytest.raises(StorageUnavailable, match="does not exist") as refused:
        await open_storage(missing)
    assert refused.value.reason == "unreachable"


async def test_only_one_of_several_starting_processes_migrates(postgres_url: str) -> None:
    """Bots starting together queue on the migration lock; the first migrates and the others find it done."""
    holder = await asyncpg.connect(postgres_url)
    try:
        await holder.execute("SELECT pg_advisory_lock(1349872757, hashtext(current_schema()))")
        starting = [asyncio.create_task(open_storage(postgres_url)) for _ in range(3)]
        await asyncio.sleep(0.5)
        assert not any(task.done() for task in starting)  # all wait for the lock, none migrates beside it
        await holder.execute("SELECT pg_advisory_unlock(1349872757, hashtext(current_schema()))")
        opened = await asyncio.gather(*starting)
        versions = [r[0] for r in await holder.fetch("SELECT version FROM schema_migrations ORDER BY 1")]
        assert versions == list(range(1, schema.LATEST_VERSION + 1))  # each migration ran exactly once
        for storage in opened:
            assert await storage.schema_version() == schema.LATEST_VERSION
            await storage.close()
    finally:
        await holder.close()


async def test_a_row_locked_past_the_lock_timeout_is_busy_and_nothing_is_written(postgres_url: str) -> None:
    storage = await open_storage(postgres_url + "&lock_timeout=200ms")  # DATABASE_URL's own setting wins
    other = await asyncpg.connect(postgres_url)
    try:
        game_id = await running_duel(storage)
        async with other.transaction():  # another process holds the game's row
            await other.execute("SELECT * FROM games WHERE game_id = $1 FOR UPDATE", game_id)
            with pytest.raises(StorageUnavailable) as refused:
                await storage.games.append_events(game_id, 1, [NewEvent("move", {"move": "1:H"})])
        assert refused.value.reason == "busy"
        assert (await storage.games.game_log(game_id)).events == ()
        await storage.games.append_events(game_id, 1, [NewEvent("move", {"move": "1:H"})])
    finally:
        await other.close()
        await storage.close()


async def test_connections_cut_between_calls_cost_no_call(postgres_url: str) -> None:
    """A server restart or a dropped network closes the pool's idle connections; a call that finds its connection
    dead at BEGIN, before it sent anything, runs on a fresh one."""
    name = f"storage_test_{secrets.token_hex(4)}"
    storage = await open_storage(f"{postgres_url}&application_name={name}")
    admin = await asyncpg.connect(postgres_url)
    try:
        game_id = await running_duel(storage)
        cut = await admin.fetchval(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = $1", name
        )
        assert cut >= 1
        # At once, before the client has read the server's goodbye: BEGIN fails and is retried.
        await storage.games.append_events(game_id, 1, [NewEvent("move", {"move": "1:H"})])
        assert (await storage.games.get_game(game_id)).last_seq == 1
        await admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1", name)
        settings = storage.server_settings
        assert (await settings.guild_settings(10)).guild_id == 10  # a one-statement read, retried the same way
    finally:
        await admin.close()
        await storage.close()


async def test_a_connection_cut_inside_a_transaction_is_unreachable_and_writes_nothing(postgres_url: str) -> None:
    storage = await open_storage(postgres_url)
    admin = await asyncpg.connect(postgres_url)
    try:
        game_id = await running_duel(storage)

        async def move_cut_short() -> None:
            async with storage.database.write() as tx:
                await tx.execute("UPDATE games SET last_seq = 1 WHERE game_id = ?", game_id)
                pid = (await tx.fetch("SELECT pg_backend_pid()"))[0][0]
                await admin.execute("SELECT pg_terminate_backend($1)", pid)  # the server goes away mid-move
                await asyncio.sleep(0.2)  # and the client has read its goodbye
                await tx.execute("UPDATE games SET snapshot_ppn = 'never' WHERE game_id = ?", game_id)

        with pytest.raises(StorageUnavailable) as cut:
            await move_cut_short()
        assert cut.value.reason == "unreachable"
        game = await storage.games.get_game(game_id)
        assert (game.last_seq, game.snapshot_ppn) != (1, "never") and game.last_seq == 0
    finally:
        await admin.close()
        await storage.close()


async def test_check_tries_the_migrations_changes_nothing_and_hides_the_password(
    postgres_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)  # no .env here: the settings come from the environment
    url = postgres_url.replace("postgresql://postgres@", "postgresql://postgres:hunter2@")  # trust: ignored
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("DATABASE_URL", url)
    assert await asyncio.to_thread(main, ["--check"]) == 0
    out, err = capsys.readouterr()
    assert "127.0.0.1:5432/test" in out and f"start-up will migrate it to {schema.LATEST_VERSION}" in out
    assert "hunter2" not in out + err
    storage = await open_storage(postgres_url)  # start-up migrates: --check had left the schema empty
    try:
        assert await storage.schema_version() == schema.LATEST_VERSION
    finally:
        await storage.close()
    assert await asyncio.to_thread(main, ["--check"]) == 0
    out, _ = capsys.readouterr()
    assert "existing but empty, 0 games and 0 players" in out and "intact" in out


async def test_a_pooled_connection_goes_back_without_a_reset_query(postgres_url: str) -> None:
    url = parse_database_url(postgres_url)
    assert isinstance(url, PostgresUrl)
    storage = Storage(await open_database(url, pool_size=1))
    admin = await admin_connection()
    try:
        (row,) = await storage.database.fetch("SELECT pg_backend_pid()")  # the pool's one connection
        await running_duel(storage)
        last = await admin.fetchval("SELECT query FROM pg_stat_activity WHERE pid = $1", row[0])
        assert last.strip().rstrip(";").upper() == "COMMIT", last  # the write's own end, nothing after it
    finally:
        await admin.close()
        await storage.close()

