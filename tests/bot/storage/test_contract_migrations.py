"""Schema migrations, for SQLite and PostgreSQL: from empty, from every earlier version, never backwards, and a
read-only open (copy-data's source) that neither migrates nor writes."""

from __future__ import annotations

import pytest

from bot.storage import open_storage
from bot.storage.errors import SchemaTooNew, SchemaTooOld, StorageUnavailable
from bot.storage.types import GuildSettings
from tests.bot.storage.backends import Backend, backend_for
from tests.bot.storage.games import new_duel
from tests.helpers import FakeClock

# A game with a seat and one event, written as every schema version since 1 can hold it.
_OLD_GAME = (
    "INSERT INTO players (user_id, display_name, last_active, created_at) VALUES (1, 'Ana', 0, 0)",
    ("INSERT INTO games (game_id, guild_id, channel_id, in_thread, status, host_id, ranked, variant, rules_json, "
     "turn_timer_seconds, last_seq, created_at, updated_at) VALUES (5, 1, 2, FALSE, 'running', 1, TRUE, 'bell', "
     "'{}', 60, 1, 0, 0)"),
    "INSERT INTO seats (game_id, seat, user_id, display_name) VALUES (5, 'A1', 1, 'Ana')",
    "INSERT INTO events (game_id, seq, kind, payload, created_at) VALUES (5, 1, 'move', '{\"move\": \"2:H\"}', 0)",
    ("INSERT INTO guilds (guild_id, default_variant, turn_timer_seconds, locale, created_at) "
     "VALUES (1, 'eagle', 90, 'uk', 0)"),
)


async def schema_of(backend: Backend) -> list[tuple[object, ...]]:
    """Every table's columns and every index's definition, as the database reports them."""
    if backend.name == "sqlite":
        return await backend.fetch("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name")
    columns = await backend.fetch(
        "SELECT table_name, column_name, data_type, is_nullable, column_default, collation_name "
        "FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY 1, 2"
    )
    indexes = await backend.fetch(
        "SELECT indexname, replace(indexdef, current_schema() || '.', '') FROM pg_indexes "
        "WHERE schemaname = current_schema() ORDER BY 1"
    )
    return columns + indexes


async def test_a_new_database_gets_the_latest_schema(backend: Backend) -> None:
    storage = await backend.open()
    assert await storage.schema_version() == backend.latest_version >= 1
    assert await storage.integrity_check() == "ok"
    again = await backend.open()  # a second start finds nothing to do
    assert await again.schema_version() == backend.latest_version


@pytest.mark.parametrize("name", ["sqlite", "postgres"])
async def test_every_earlier_version_migrates_to_the_schema_of_a_new_database(
    name: str, tmp_path_factory: pytest.TempPathFactory, clock: FakeClock
) -> None:
    async with backend_for(name, tmp_path_factory.mktemp("fresh"), clock) as fresh:
        await fresh.open()
        expected = await schema_of(fresh)
        latest = fresh.latest_version
    for version in range(latest):
        async with backend_for(name, tmp_path_factory.mktemp(f"v{version}"), clock) as old:
            await old.create_at_version(version)
            if version >= 1:
                for statement in _OLD_GAME:
                    await old.raw(statement)
            storage = await old.open()
            assert await storage.schema_version() == latest, f"from version {version}"
            assert await schema_of(old) == expected, f"from version {version}"
            if version >= 1:
                log = await storage.games.game_log(5)
                assert (log.game.variant, log.game.ranked, log.events[0].payload) == ("bell", True, {"move": "2:H"})
                assert await storage.ladders.standing(1, "duel", 0) is None  # the ladder tables exist and are empty
                # A server's settings survive; the default added rules (SQLite 7, PostgreSQL 6) start unset.
                settings = storage.server_settings
                assert await settings.guild_settings(1) == GuildSettings(1, "eagle", 90, "uk", None, None, None)
                await settings.update_guild_settings(1, eagle_returns=True)
                assert (await settings.guild_settings(1)).eagle_returns is True
            assert await storage.integrity_check() == "ok"


async def test_a_database_from_a_newer_bot_is_refused(backend: Backend) -> None:
    await (await backend.open()).close()
    if backend.name == "sqlite":
        await backend.raw(f"PRAGMA user_version = {backend.latest_version + 1:d}")
    else:
        await backend.raw(f"INSERT INTO schema_migrations (version) VALUES ({backend.latest_version + 1:d})")
    with pytest.raises(SchemaTooNew, match="upgrade the bot"):
        await backend.open()


async def test_a_read_only_open_neither_migrates_nor_writes(backend: Backend) -> None:
    await backend.create_at_version(backend.latest_version - 1)
    with pytest.raises(SchemaTooOld, match="needs migrating"):
        await open_storage(backend.url, read_only=True)
    writer = await backend.open()  # migrates
    await new_duel(writer)
    reader = await open_storage(backend.url, read_only=True)
    try:
        assert (await reader.counts()).games == 1
        with pytest.raises(StorageUnavailable) as refused:
            await new_duel(reader)
        assert refused.value.reason == "read_only"
        assert (await writer.counts()).games == 1
    finally:
        await reader.close()
