"""A server's data stays in it, and retention prunes old finished games' moves (issue 27), on both backends."""

from __future__ import annotations

from bot.storage import Storage
from bot.storage.postgres import schema as postgres_schema
from bot.storage.shards import Shards
from bot.storage.sqlite import schema as sqlite_schema
from bot.storage.types import ALL_SERVERS
from tests.bot.storage.backends import Backend
from tests.bot.storage.games import play, running_duel
from tests.helpers import DAY, FakeClock

SERVER_A = 2 << 22  # shard 0 of 2
SERVER_B = 3 << 22  # shard 1 of 2
AGGREGATES = ("player_totals", "player_streaks")


async def test_history_of_a_server_holds_only_that_servers_games(storage: Storage) -> None:
    in_a, _ = await play(storage, [1, 2], "A", guild_id=SERVER_A)
    in_b, _ = await play(storage, [1, 3], "B", guild_id=SERVER_B)
    in_dm, _ = await play(storage, [1, 4], "A", guild_id=None, ranked=False)

    assert [g.game_id for g in await storage.players.game_history(1, guild_id=SERVER_A)] == [in_a]
    assert [g.game_id for g in await storage.players.game_history(1, guild_id=SERVER_B)] == [in_b]
    assert [g.game_id for g in await storage.players.game_history(1, guild_id=None)] == [in_dm]
    assert [g.game_id for g in await storage.players.game_history(1, guild_id=ALL_SERVERS)] == [in_dm, in_b, in_a]
    # Nothing of server B, not even the other player's name, when asked in server A.
    assert all("user3" not in g.opponents for g in await storage.players.game_history(1, guild_id=SERVER_A))


async def test_retention_prunes_old_finished_games_moves_and_keeps_their_results(
    storage: Storage, clock: FakeClock
) -> None:
    old, report = await play(storage, [1, 2], "A", guild_id=SERVER_A)
    assert report.changes  # rated
    clock.advance(days=10)
    recent, _ = await play(storage, [1, 2], "B", guild_id=SERVER_A)
    still_open = await running_duel(storage, guild_id=SERVER_A)
    clock.advance(days=1)
    kept = await storage.players.personal_data(1)

    assert await storage.games.prune_finished(5 * DAY) == 1
    pruned = await storage.games.game_log(old)
    assert pruned.events == () and pruned.game.pruned_at == clock.now
    assert pruned.game.winner == "A" and pruned.game.status == "finished"  # the result stays
    assert (await storage.games.game_log(recent)).events  # younger than the retention
    assert (await storage.games.game_log(still_open)).game.pruned_at is None
    assert [g.game_id for g in await storage.players.game_history(1, guild_id=SERVER_A)] == [recent, old]
    assert await storage.players.personal_data(1) == kept  # seats, ratings and rating history untouched
    assert await storage.games.prune_finished(5 * DAY) == 0  # once is enough


async def test_retention_prunes_only_the_shards_it_is_given(storage: Storage, clock: FakeClock) -> None:
    mine, _ = await play(storage, [1, 2], "A", guild_id=SERVER_A)
    theirs, _ = await play(storage, [1, 2], "A", guild_id=SERVER_B)
    clock.advance(days=3)

    assert await storage.games.prune_finished(DAY, Shards(2, (0,))) == 1
    assert (await storage.games.game_log(mine)).game.pruned_at is not None
    assert (await storage.games.game_log(theirs)).events


def backfill(backend: Backend) -> list[str]:
    """The INSERT statements of the migration that made the profile's aggregates (found by what it creates, so a
    renumbered migration is still found)."""
    scripts = sqlite_schema.MIGRATIONS if backend.name == "sqlite" else postgres_schema.MIGRATIONS
    (script,) = [s for s in scripts if "CREATE TABLE player_totals" in s]
    statements = [" ".join(line for line in part.splitlines() if not line.startswith("--")).strip()
                  for part in script.split(";")]
    return [s for s in statements if s.startswith("INSERT")]


async def test_the_migration_backfills_the_aggregates_the_store_keeps(backend: Backend, clock: FakeClock) -> None:
    storage = await backend.open()
    games: list[tuple[list[int | None], str | None, int]] = [
        ([1, 2], "A", SERVER_A), ([1, 3], "B", SERVER_B), ([2, 1], "A", SERVER_A), ([1, 2], "A", SERVER_A),
        ([3, 1], None, SERVER_B), ([1, 2], "B", SERVER_A),
    ]
    for n, (players, winner, guild) in enumerate(games):
        clock.advance(days=1)
        await play(storage, players, winner, guild_id=guild, kills={"A1": n, "B1": 1},
                   variant="bell" if n % 2 else "ants")
    kept = {name: await backend.fetch(f"SELECT * FROM {name} ORDER BY 1, 2, 3") for name in AGGREGATES}
    assert kept["player_totals"] and kept["player_streaks"]

    for name in AGGREGATES:
        await backend.raw(f"DELETE FROM {name}")
    for statement in backfill(backend):
        await backend.raw(statement)

    assert {name: await backend.fetch(f"SELECT * FROM {name} ORDER BY 1, 2, 3") for name in AGGREGATES} == kept
    await storage.tables.rebuild_player_totals()  # what a bulk load (benchmarks/storage.py) runs after it
    assert {name: await backend.fetch(f"SELECT * FROM {name} ORDER BY 1, 2, 3") for name in AGGREGATES} == kept
    profile = await storage.players.profile(1, SERVER_A)
    assert profile is not None and profile.finished_games == 4 and profile.favourite_variant is not None
