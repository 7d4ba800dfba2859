"""Shard leases, for every backend: a store that claimed its shards writes only the games and tournaments of
servers on them, a second live process can never hold the same shard, and a shard whose holder is gone is
taken over at once.

Servers: SHARD_0 is on shard 0 of 2, SHARD_1 on shard 1 (Discord's `(guild_id >> 22) % shard_count`)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from bot.storage import Storage, open_storage
from bot.storage.errors import HostLimitReached, ShardNotHeld, ShardsTaken
from bot.storage.postgres import leases as postgres_leases
from bot.storage.postgres.database import PostgresDatabase
from bot.storage.shards import Shards, shard_of
from bot.storage.types import SeatSpec
from bot.tournaments.types import Match, TournamentSettings
from tests.bot.storage.backends import Backend
from tests.bot.storage.games import AFTER_PPN, append, new_duel, running_duel

ROOT = Path(__file__).resolve().parents[3]

SHARD_0 = 1000 << 22
SHARD_1 = 1001 << 22
FIRST_OF_TWO = Shards(2, (0,))
SECOND_OF_TWO = Shards(2, (1,))


def test_the_test_servers_are_on_the_shards_they_say() -> None:
    assert (shard_of(SHARD_0, 2), shard_of(SHARD_1, 2), shard_of(None, 2)) == (0, 1, 0)


async def test_a_claimed_store_writes_the_games_of_its_shards(storage: Storage) -> None:
    await storage.claim_shards(FIRST_OF_TWO)
    game_id = await running_duel(storage, guild_id=SHARD_0)
    await append(storage, game_id, 1, "move", {"move": "1:H"}, snapshot_ppn=AFTER_PPN)
    await storage.games.set_message(game_id, 55)
    assert (await storage.games.game_log(game_id)).game.last_seq == 1


async def test_a_claimed_store_opens_no_game_on_another_shard(storage: Storage) -> None:
    await storage.claim_shards(FIRST_OF_TWO)
    with pytest.raises(ShardNotHeld):
        await running_duel(storage, guild_id=SHARD_1)
    assert await storage.games.open_games() == ()


async def test_a_claimed_store_writes_nothing_to_a_game_of_another_shard(storage: Storage) -> None:
    game_id = await running_duel(storage, guild_id=SHARD_1)  # written before the claim, as another process would
    await storage.claim_shards(FIRST_OF_TWO)
    with pytest.raises(ShardNotHeld):
        await append(storage, game_id, 1, "move", {"move": "1:H"}, snapshot_ppn=AFTER_PPN)
    with pytest.raises(ShardNotHeld):
        await storage.games.set_message(game_id, 55)
    with pytest.raises(ShardNotHeld):
        await storage.games.finish_game(game_id, winner="A", scores={"A": 1, "B": 0}, end_reason="resign")
    with pytest.raises(ShardNotHeld):
        await storage.games.cancel_game(game_id)
    log = await storage.games.game_log(game_id)
    assert (log.game.status, log.game.last_seq, log.game.message_id, log.events) == ("running", 0, None, ())


async def test_a_claimed_store_changes_no_lobby_of_another_shard(storage: Storage) -> None:
    game_id = await new_duel(storage, guild_id=SHARD_1)  # written before the claim, as another process would
    await storage.claim_shards(FIRST_OF_TWO)
    with pytest.raises(ShardNotHeld):
        await storage.games.set_seat(game_id, SeatSpec("B1", "Cy", user_id=3))
    with pytest.raises(ShardNotHeld):
        await storage.games.remove_seat(game_id, "B1")
    with pytest.raises(ShardNotHeld):
        await storage.games.start_game(game_id, first_team="A", throw_off=[["1000", "0000"]], seed=7,
                                 snapshot_ppn=AFTER_PPN, turn_deadline=None)
    log = await storage.games.game_log(game_id)
    assert log.game.status == "lobby"
    assert [(s.seat, s.user_id) for s in log.game.seats] == [("A1", 1), ("B1", 2)]


async def test_the_host_limit_counts_every_open_game_of_the_host(storage: Storage) -> None:
    seats = [SeatSpec("A1", "Ana", user_id=1)]
    for guild in (SHARD_0, SHARD_1):
        await storage.games.create_game(guild_id=guild, channel_id=guild + 1, host_id=1, variant="bell", rules={},
                                  turn_timer_seconds=60, seats=seats, host_limit=2)
    with pytest.raises(HostLimitReached) as refused:
        await storage.games.create_game(guild_id=SHARD_0, channel_id=3, host_id=1, variant="bell", rules={},
                                  turn_timer_seconds=60, seats=seats, host_limit=2)
    assert refused.value.limit == 2
    assert len(await storage.games.open_games()) == 2


async def test_postgres_a_second_process_on_a_held_shard_is_refused_and_writes_nothing(
    postgres_backend: Backend,
) -> None:
    first, second = await postgres_backend.open(), await postgres_backend.open()
    await first.claim_shards(FIRST_OF_TWO)
    game_id = await running_duel(first, guild_id=SHARD_0)
    with pytest.raises(ShardsTaken, match="shard 0 of 2 is held by the live process"):
        await second.claim_shards(Shards(2, (0, 1)))
    with pytest.raises(ShardNotHeld):  # refused, it holds nothing: the store of a process that should exit
        await append(second, game_id, 1, "move", {"move": "1:H"}, snapshot_ppn=AFTER_PPN)
    await append(first, game_id, 1, "move", {"move": "1:H"}, snapshot_ppn=AFTER_PPN)
    assert (await second.games.game_log(game_id)).game.last_seq == 1


async def test_sqlite_refuses_a_second_process_on_the_same_file(tmp_path: Path) -> None:
    store = await open_storage(f"sqlite:///{tmp_path / 'puluc.db'}")
    try:
        await store.claim_shards(Shards.whole())
        child = await asyncio.create_subprocess_exec(
            sys.executable, "-c", CLAIM_IN_A_CHILD, str(tmp_path / "puluc.db"), cwd=ROOT,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )
        out, err = await child.communicate()
        assert child.returncode == 0, err.decode()
        assert out.decode().startswith("ShardsTaken: another bot process is using the SQLite database")
    finally:
        await store.close()


CLAIM_IN_A_CHILD = """
import asyncio, sys
from bot.storage import ShardsTaken, Shards, open_storage

async def main() -> None:
    store = await open_storage("sqlite:///" + sys.argv[1])
    try:
        await store.claim_shards(Shards.whole())
        print("claimed")
    except ShardsTaken as exc:
        print(f"ShardsTaken: {exc}")
    finally:
        await store.close()

asyncio.run(main())
"""


async def test_postgres_runs_two_processes_on_two_shards_each_writing_only_its_own(postgres_backend: Backend) -> None:
    first, second = await postgres_backend.open(), await postgres_backend.open()
    await first.claim_shards(FIRST_OF_TWO)
    await second.claim_shards(SECOND_OF_TWO)
    mine, theirs = await running_duel(first, guild_id=SHARD_0), await running_duel(second, guild_id=SHARD_1)
    with pytest.raises(ShardNotHeld):
        await append(first, theirs, 1, "move", {"move": "1:H"}, snapshot_ppn=AFTER_PPN)
    with pytest.raises(ShardNotHeld):
        await append(second, mine, 1, "move", {"move": "1:H"}, snapshot_ppn=AFTER_PPN)
    await append(first, mine, 1, "move", {"move": "1:H"}, snapshot_ppn=AFTER_PPN)
    await append(second, theirs, 1, "move", {"move": "1:H"}, snapshot_ppn=AFTER_PPN)
    assert [(await first.games.game_log(g)).game.last_seq for g in (mine, theirs)] == [1, 1]


async def test_postgres_refuses_a_process_with_another_shard_count(postgres_backend: Backend) -> None:
    first, second = await postgres_backend.open(), await postgres_backend.open()
    await first.claim_shards(FIRST_OF_TWO)
    with pytest.raises(ShardsTaken, match="SHARD_COUNT=2"):
        await second.claim_shards(Shards(3, (2,)))


# -- tournaments belong to their server's shard too ---------------------------------------------------------

CUP = TournamentSettings("Shard cup", "swiss", "bell", None, 600, 86_400, True)


async def tournament_on(storage: Storage, guild_id: int, *, running: bool) -> int:
    """A tournament in `guild_id` with two entrants; `running`: started, its round 1 (one match) drawn."""
    tournament_id = await storage.tournaments.create_tournament(guild_id=guild_id, channel_id=guild_id + 5,
                                                                creator_id=1, settings=CUP)
    for user in (1, 2):
        await storage.tournaments.join_tournament(tournament_id, user, f"p{user}")
    if running:
        await storage.tournaments.start_tournament(tournament_id, entrants=[], rounds=1)
        await storage.tournaments.add_round(tournament_id, 1, [Match(1, 1, 1, 2)], 1e12)
    return tournament_id


async def test_a_claimed_store_writes_the_tournaments_of_its_shards(storage: Storage) -> None:
    await storage.claim_shards(FIRST_OF_TWO)
    tournament_id = await tournament_on(storage, SHARD_0, running=True)
    assert await storage.tournaments.decide_match(tournament_id, 1, 1, outcome="a", decided_by="game")
    await storage.tournaments.finish_tournament(tournament_id)
    assert (await storage.tournaments.tournament(tournament_id)).status == "finished"


async def test_a_claimed_store_opens_no_tournament_on_another_shard(storage: Storage) -> None:
    await storage.claim_shards(FIRST_OF_TWO)
    with pytest.raises(ShardNotHeld):
        await storage.tournaments.create_tournament(guild_id=SHARD_1, channel_id=5, creator_id=1, settings=CUP)
    assert await storage.tournaments.open_tournaments() == ()


async def test_a_claimed_store_writes_nothing_to_a_tournament_of_another_shard(storage: Storage) -> None:
    # Written before the claim, as the process holding shard 1 would.
    lobby = await tournament_on(storage, SHARD_1, running=False)
    running = await tournament_on(storage, SHARD_1, running=True)
    before = {t: await storage.tournaments.tournament(t) for t in (lobby, running)}
    await storage.claim_shards(FIRST_OF_TWO)
    refused = [
        storage.tournaments.join_tournament(lobby, 3, "p3"),
        storage.tournaments.leave_tournament(lobby, 1),
        storage.tournaments.start_tournament(lobby, entrants=[], rounds=1),
        storage.tournaments.cancel_tournament(lobby),
        storage.tournaments.set_tournament_message(lobby, 77),
        storage.tournaments.set_match_game(running, 1, 1, game_id=1, thread_id=9),
        storage.tournaments.decide_match(running, 1, 1, outcome="a", decided_by="adjudication", chance_a=0.5),
        storage.tournaments.add_round(running, 2, [Match(2, 1, 1, 2)], 1e12),
        storage.tournaments.finish_tournament(running),
    ]
    for write in refused:
        with pytest.raises(ShardNotHeld):
            await write
    assert {t: await storage.tournaments.tournament(t) for t in (lobby, running)} == before


async def test_postgres_a_process_decides_no_match_of_another_shards_tournament(postgres_backend: Backend) -> None:
    first, second = await postgres_backend.open(), await postgres_backend.open()
    await first.claim_shards(FIRST_OF_TWO)
    await second.claim_shards(SECOND_OF_TWO)
    mine = await tournament_on(first, SHARD_0, running=True)
    with pytest.raises(ShardNotHeld):
        await second.tournaments.decide_match(mine, 1, 1, outcome="b", decided_by="adjudication", chance_a=0.1)
    assert await first.tournaments.decide_match(mine, 1, 1, outcome="a", decided_by="game")
    assert (await second.tournaments.tournament(mine)).matches[0].outcome == "a"


async def test_a_closed_holder_frees_its_shards_for_the_next_process(backend: Backend) -> None:
    first = await backend.open()
    await first.claim_shards(FIRST_OF_TWO)
    game_id = await running_duel(first, guild_id=SHARD_0)
    await first.close()
    second = await backend.open()
    await second.claim_shards(Shards(2, (0, 1)))
    await append(second, game_id, 1, "move", {"move": "1:H"}, snapshot_ppn=AFTER_PPN)


@pytest.mark.logs_error("shard 0 was taken over by another process")
async def test_postgres_a_shard_taken_over_while_the_holder_was_cut_off_refuses_the_old_holder(
    postgres_backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(postgres_leases, "RELOCK_AT_ONCE", False)  # the old holder must not win the race here
    first, second = await postgres_backend.open(), await postgres_backend.open()
    await first.claim_shards(FIRST_OF_TWO)
    game_id = await running_duel(first, guild_id=SHARD_0)
    await cut_lease_connection(postgres_backend, first)
    await second.claim_shards(FIRST_OF_TWO)  # the advisory lock went with the connection: taken over at once
    with pytest.raises(ShardNotHeld):
        await append(first, game_id, 1, "move", {"move": "1:H"}, snapshot_ppn=AFTER_PPN)
    await append(second, game_id, 1, "move", {"move": "1:H"}, snapshot_ppn=AFTER_PPN)
    assert (await second.games.game_log(game_id)).game.last_seq == 1


async def test_postgres_a_holder_cut_off_takes_its_shards_back_before_it_writes(
    postgres_backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(postgres_leases, "RELOCK_AT_ONCE", False)  # the write itself must take them back
    first, second = await postgres_backend.open(), await postgres_backend.open()
    await first.claim_shards(FIRST_OF_TWO)
    game_id = await running_duel(first, guild_id=SHARD_0)
    await cut_lease_connection(postgres_backend, first)
    await append(first, game_id, 1, "move", {"move": "1:H"}, snapshot_ppn=AFTER_PPN)  # reconnects and relocks
    with pytest.raises(ShardsTaken):
        await second.claim_shards(FIRST_OF_TWO)


async def cut_lease_connection(backend: Backend, storage: Storage) -> None:
    """Close the storage's lease connection from the server side, as a PostgreSQL restart or a cut cable would."""
    database = storage.database
    assert isinstance(database, PostgresDatabase) and database._keeper is not None
    assert database._keeper._conn is not None
    pid = database._keeper._conn.get_server_pid()
    await backend.fetch(f"SELECT pg_terminate_backend({pid:d})")
    for _ in range(100):  # the client learns of it from the closed socket
        if database._keeper._conn.is_closed():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the lease connection was not closed")
