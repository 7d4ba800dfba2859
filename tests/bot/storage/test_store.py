"""The repository against real SQLite files: round trips, the event guard, migrations, concurrency, crashes."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bot.storage.errors import (
    ConstraintViolation,
    DuplicateEvent,
    EventGap,
    GameNotFound,
    GameStateError,
    InvalidSeat,
    UnknownEventKind,
    UnsupportedDatabaseUrl,
)
from bot.storage.sqlite import schema
from bot.storage.sqlite.store import Store, open_store
from bot.storage.types import NewEvent, SeatSpec
from bot.storage.urls import SqliteUrl, parse_database_url

RULES = {"route": "army", "capture": "stack", "team_size": 1}
START_PPN = "././././././././. A1:5,B1:5 A1:0,B1:0 A1 -"
AFTER_PPN = "./A1+/././././././. A1:4,B1:5 A1:0,B1:0 B1 -"


async def new_duel(store: Store, *, guild_id: int | None = 10, ranked: bool = False) -> int:
    return await store.create_game(
        guild_id=guild_id, channel_id=20, host_id=1, variant="bell", rules=RULES, turn_timer_seconds=120,
        ranked=ranked, seats=[SeatSpec("A1", "Ana", user_id=1), SeatSpec("B1", "Bo", user_id=2)],
    )


async def running_duel(store: Store) -> int:
    game_id = await new_duel(store)
    await store.start_game(game_id, first_team="A", throw_off=[["1000", "0000"]], seed=7,
                           snapshot_ppn=START_PPN, turn_deadline=None)
    return game_id


def test_database_url_relative_and_absolute() -> None:
    assert parse_database_url("sqlite:///data/puluc.db") == SqliteUrl(Path("data/puluc.db"))
    assert parse_database_url("sqlite:////var/lib/puluc/puluc.db") == SqliteUrl(Path("/var/lib/puluc/puluc.db"))


@pytest.mark.parametrize("url", ["mysql://u@h/db", "postgresql://u@h", "data/puluc.db", "sqlite://host/x.db", "sqlite:///"])
def test_database_url_rejects_what_is_not_a_sqlite_file(url: str) -> None:
    with pytest.raises(UnsupportedDatabaseUrl):
        parse_database_url(url)


async def test_first_start_creates_directory_file_and_latest_schema(tmp_path: Path) -> None:
    path = tmp_path / "nested" / "dir" / "puluc.db"
    store = await open_store(path)
    try:
        assert path.exists()
        assert await store.schema_version() == schema.LATEST_VERSION
        assert await store.integrity_check() == "ok"
    finally:
        await store.close()
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()


async def test_foreign_keys_are_enforced(store: Store) -> None:
    with pytest.raises(ConstraintViolation):
        async with store._write() as db:
            await db.execute(
                "INSERT INTO events (game_id, seq, kind, payload, created_at) VALUES (999, 1, 'move', '{}', 0)"
            )


async def test_game_round_trip_keeps_every_field(store: Store) -> None:
    game_id = await new_duel(store, ranked=True)
    await store.set_message(game_id, 555, in_thread=True)
    await store.start_game(game_id, first_team="B", throw_off=[["1000", "1100"]], seed=42,
                           snapshot_ppn=START_PPN, turn_deadline=1234.5)
    game = await store.get_game(game_id)
    assert (game.guild_id, game.channel_id, game.message_id, game.in_thread) == (10, 20, 555, True)
    assert (game.status, game.host_id, game.ranked, game.variant) == ("running", 1, True, "bell")
    assert game.rules == RULES
    assert (game.first_team, game.throw_off, game.seed) == ("B", [["1000", "1100"]], 42)
    assert (game.turn_timer_seconds, game.turn_deadline, game.snapshot_ppn) == (120, 1234.5, START_PPN)
    assert [(s.seat, s.user_id, s.display_name) for s in game.seats] == [("A1", 1, "Ana"), ("B1", 2, "Bo")]


async def test_missing_game_is_a_clear_error(store: Store) -> None:
    with pytest.raises(GameNotFound):
        await store.get_game(404)


async def test_seat_needs_exactly_one_occupant() -> None:
    with pytest.raises(InvalidSeat):
        SeatSpec("A1", "nobody")
    with pytest.raises(InvalidSeat):
        SeatSpec("C1", "x", user_id=1)


async def test_guild_settings_and_channel_override_round_trip(store: Store) -> None:
    assert (await store.guild_settings(7)).default_variant is None
    await store.update_guild_settings(7, default_variant="ants", turn_timer_seconds=90)
    await store.update_guild_settings(7, locale="uk")
    settings = await store.guild_settings(7)
    assert (settings.default_variant, settings.turn_timer_seconds, settings.locale) == ("ants", 90, "uk")
    await store.set_channel_ranked(7, 70, False)
    assert await store.channel_ranked(70) is False
    await store.set_channel_ranked(7, 70, None)
    assert await store.channel_ranked(70) is None


async def test_move_and_next_throw_commit_together_with_snapshot(store: Store) -> None:
    game_id = await running_duel(store)
    await store.append_event(game_id, 1, "throw", {"throw": [2], "faces": ["1100"]})
    await store.append_events(
        game_id, 2, [NewEvent("move", {"move": "2:H"}), NewEvent("throw", {"throw": [3], "faces": ["1110"]})],
        snapshot_ppn=AFTER_PPN, turn_deadline=99.0, timeouts={"A1": 0, "B1": 1},
    )
    log = await store.game_log(game_id)
    assert [(e.seq, e.kind) for e in log.events] == [(1, "throw"), (2, "move"), (3, "throw")]
    assert log.events[1].payload == {"move": "2:H"}
    assert (log.game.last_seq, log.game.snapshot_seq, log.game.snapshot_ppn) == (3, 3, AFTER_PPN)
    assert log.game.turn_deadline == 99.0
    assert log.game.seat("B1").consecutive_timeouts == 1


async def test_an_event_number_can_be_used_only_once(store: Store) -> None:
    game_id = await running_duel(store)
    await store.append_event(game_id, 1, "move", {"move": "2:H"})
    with pytest.raises(DuplicateEvent):
        await store.append_event(game_id, 1, "move", {"move": "3:H"})
    log = await store.game_log(game_id)
    assert [e.payload for e in log.events] == [{"move": "2:H"}]


async def test_unique_constraint_guards_even_when_the_counter_is_wrong(store: Store) -> None:
    game_id = await running_duel(store)
    await store.append_event(game_id, 1, "move", {"move": "2:H"})
    async with store._write() as db:  # simulate a corrupted counter: the UNIQUE (game_id, seq) key still holds
        await db.execute("UPDATE games SET last_seq = 0 WHERE game_id = ?", (game_id,))
    with pytest.raises(DuplicateEvent):
        await store.append_event(game_id, 1, "move", {"move": "3:H"})
    assert len((await store.game_log(game_id)).events) == 1


async def test_a_skipped_event_number_is_refused(store: Store) -> None:
    game_id = await running_duel(store)
    with pytest.raises(EventGap):
        await store.append_event(game_id, 2, "move", {"move": "2:H"})


async def test_unknown_event_kind_is_refused(store: Store) -> None:
    game_id = await running_duel(store)
    with pytest.raises(UnknownEventKind):
        await store.append_event(game_id, 1, "teleport", {})


async def test_no_events_before_start_or_after_the_end(store: Store) -> None:
    lobby = await new_duel(store)
    with pytest.raises(GameStateError):
        await store.append_event(lobby, 1, "move", {"move": "2:H"})
    game_id = await running_duel(store)
    await store.cancel_game(game_id, {"by": "A1"})
    with pytest.raises(GameStateError):
        await store.append_event(game_id, 2, "move", {"move": "2:H"})
    game = await store.game_log(game_id)
    assert (game.game.status, game.game.end_reason, game.events[-1].kind) == ("cancelled", "cancelled", "cancel")


async def test_two_racing_clicks_apply_once(store: Store) -> None:
    game_id = await running_duel(store)
    results = await asyncio.gather(
        *(store.append_event(game_id, 1, "move", {"move": f"{n}:H"}) for n in range(1, 6)),
        return_exceptions=True,
    )
    assert sum(not isinstance(r, BaseException) for r in results) == 1
    assert all(isinstance(r, DuplicateEvent) for r in results if isinstance(r, BaseException))
    assert len((await store.game_log(game_id)).events) == 1


async def test_many_concurrent_writers_keep_every_log_whole(store: Store) -> None:
    games = [await running_duel(store) for _ in range(20)]

    async def player(game_id: int) -> None:
        for seq in range(1, 26):
            await store.append_event(game_id, seq, "move", {"move": f"{seq % 5 + 1}:H"}, snapshot_ppn=f"ppn {seq}")

    async def reader() -> None:
        for _ in range(50):
            for game in await store.open_games():  # readers see only committed, consistent states
                assert game.game.last_seq == len(game.events)
            await asyncio.sleep(0)

    await asyncio.gather(*(player(g) for g in games), reader())
    for game_id in games:
        log = await store.game_log(game_id)
        assert [e.seq for e in log.events] == list(range(1, 26))
        assert (log.game.last_seq, log.game.snapshot_ppn) == (25, "ppn 25")
    assert await store.integrity_check() == "ok"


async def test_open_games_returns_lobbies_and_running_games_with_logs(store: Store) -> None:
    lobby = await new_duel(store)
    running = await running_duel(store)
    done = await running_duel(store)
    await store.append_event(running, 1, "throw", {"throw": [2], "faces": ["1100"]})
    await store.cancel_game(done)
    logs = {log.game.game_id: log for log in await store.open_games()}
    assert set(logs) == {lobby, running}
    assert [e.kind for e in logs[running].events] == ["throw"]


_CRASHING_WRITER = textwrap.dedent("""
    import asyncio, sys
    from pathlib import Path
    from bot.storage.sqlite.store import open_store
    from bot.storage.types import SeatSpec

    async def main() -> None:
        store = await open_store(Path(sys.argv[1]))
        game_id = await store.create_game(guild_id=1, channel_id=2, host_id=1, variant="bell", rules={},
            turn_timer_seconds=60, seats=[SeatSpec("A1", "a", user_id=1), SeatSpec("B1", "b", user_id=2)])
        await store.start_game(game_id, first_team="A", throw_off=[], seed=None, snapshot_ppn="p0",
            turn_deadline=None)
        seq = 0
        while True:
            seq += 1
            await store.append_event(game_id, seq, "move", {"move": "1:H"}, snapshot_ppn=f"p{seq}")
            print(seq, flush=True)  # acknowledged: the commit has returned

    asyncio.run(main())
""")


async def test_a_crash_between_events_leaves_a_consistent_file(tmp_path: Path) -> None:
    path = tmp_path / "crash.db"
    child = subprocess.Popen([sys.executable, "-c", _CRASHING_WRITER, str(path)], stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    acknowledged = 0
    while acknowledged < 40:
        acknowledged = int(child.stdout.readline())
    child.kill()  # SIGKILL: no cleanup, possibly in the middle of a transaction
    child.wait()
    store = await open_store(path)
    try:
        assert await store.integrity_check() == "ok"
        (log,) = await store.open_games()
        seqs = [e.seq for e in log.events]
        assert seqs == list(range(1, len(seqs) + 1))
        assert len(seqs) >= acknowledged  # nothing acknowledged is lost
        assert log.game.last_seq == len(seqs)
        assert log.game.snapshot_ppn == f"p{len(seqs)}"  # snapshot and log were committed together
    finally:
        await store.close()


def _v1_database(path: Path) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    schema.migrate_sync(conn, target=1)
    conn.execute("INSERT INTO players VALUES (1, 'Ana', 0, 0)")
    conn.execute(
        "INSERT INTO games (game_id, guild_id, channel_id, in_thread, status, host_id, ranked, variant, rules_json,"
        " turn_timer_seconds, last_seq, created_at, updated_at) VALUES (5, 1, 2, 0, 'running', 1, 1, 'bell', '{}',"
        " 60, 1, 0, 0)"
    )
    conn.execute("INSERT INTO seats (game_id, seat, user_id, display_name) VALUES (5, 'A1', 1, 'Ana')")
    conn.execute("INSERT INTO events VALUES (5, 1, 'move', '{\"move\": \"2:H\"}', 0)")
    conn.close()


async def test_migration_from_version_1_keeps_games_and_adds_ladders(tmp_path: Path) -> None:
    path = tmp_path / "v1.db"
    _v1_database(path)
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == 1
    store = await open_store(path)
    try:
        assert await store.schema_version() == schema.LATEST_VERSION
        log = await store.game_log(5)
        assert (log.game.variant, log.events[0].payload) == ("bell", {"move": "2:H"})
        assert await store.standing(1, "duel", 0) is None  # the ladder tables exist and are empty
        assert await store.integrity_check() == "ok"
    finally:
        await store.close()


async def test_migrations_from_empty_equal_the_migrated_schema(tmp_path: Path) -> None:
    fresh, old = tmp_path / "fresh.db", tmp_path / "old.db"
    _v1_database(old)
    for path in (fresh, old):
        await (await open_store(path)).close()

    def tables(path: Path) -> list[tuple[str, str]]:
        conn = sqlite3.connect(path)
        rows = conn.execute("SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name").fetchall()
        conn.close()
        return rows

    assert tables(fresh) == tables(old)


async def test_a_database_from_a_newer_bot_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "future.db"
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {schema.LATEST_VERSION + 1}")
    conn.close()
    with pytest.raises(schema.SchemaTooNew, match="upgrade the bot"):
        await open_store(path)


async def test_seats_change_hands_only_in_the_lobby(store: Store) -> None:
    lobby = await new_duel(store)
    await store.set_seat(lobby, SeatSpec("B1", "AI", ai_level=3))
    await store.remove_seat(lobby, "A1")
    assert [(s.seat, s.ai_level) for s in (await store.get_game(lobby)).seats] == [("B1", 3)]
    game_id = await running_duel(store)
    with pytest.raises(GameStateError, match="lobby"):
        await store.set_seat(game_id, SeatSpec("B1", "AI", ai_level=3))


def test_database_url_with_one_slash_is_refused() -> None:
    from bot.storage.errors import UnsupportedDatabaseUrl

    with pytest.raises(UnsupportedDatabaseUrl, match="three slashes"):
        parse_database_url("sqlite:/puluc.db")
    assert parse_database_url("sqlite:///data/puluc.db") == SqliteUrl(Path("data/puluc.db"))
    assert parse_database_url("sqlite:////data/puluc.db") == SqliteUrl(Path("/data/puluc.db"))
