"""Start-up reads only its own shards' open games, in batches (issue 27, item 6), on both backends.

What is asserted is what the process reads (rows handed back by the database, and queries), never time: the
other shards' games are left out by the query itself, and each batch is bounded.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import cast

from bot.sessions import SessionManager
from bot.storage import Storage
from bot.storage.shards import Shards, shard_of
from bot.storage.sql.port import Database, Row, Transaction
from bot.storage.types import SeatSpec
from bot.tournaments.types import TournamentSettings
from puluc import Rules
from tests.bot.storage.games import play
from tests.helpers import FailingDatabase, FakeClock, first_legal

SHARDS = Shards(2, (0,))  # this process: shard 0 of 2
MINE = 2 << 22  # a server on shard 0
THEIRS = 3 << 22  # a server on shard 1
OTHERS = 50_000  # open games on the other shard
OWN = 30  # open games on this process's shard
BELL = Rules.preset("bell").to_dict()


@dataclass
class Reads:
    queries: int = 0
    rows: int = 0
    guilds: set[int | None] = field(default_factory=set)  # servers of the game rows read


class CountingTransaction:
    """A transaction that counts what the database hands back (and whose games rows it was)."""

    def __init__(self, tx: Transaction, reads: Reads) -> None:
        self._tx = tx
        self._reads = reads

    async def fetch(self, sql: str, *args: object) -> Sequence[Row]:
        rows = await self._tx.fetch(sql, *args)
        self._reads.queries += 1
        self._reads.rows += len(rows)
        if sql.startswith("SELECT * FROM games"):
            self._reads.guilds.update(r["guild_id"] for r in rows)
        return rows

    async def fetchrow(self, sql: str, *args: object) -> Row | None:
        self._reads.queries += 1
        return await self._tx.fetchrow(sql, *args)


class CountingDatabase(FailingDatabase):
    """The database it wraps, counting every read transaction's rows."""

    def __init__(self, storage: Storage) -> None:
        super().__init__(storage.database)
        self.reads = Reads()

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Transaction]:
        async with self._database.read() as tx:
            yield cast(Transaction, CountingTransaction(tx, self.reads))


async def fill(storage: Storage, clock: FakeClock) -> list[int]:
    """OWN open games (with seats and events) on this process's shard, OTHERS bare open games on the other."""
    assert shard_of(MINE, SHARDS.count) in SHARDS.ids and shard_of(THEIRS, SHARDS.count) not in SHARDS.ids
    mine = []
    for n in range(OWN):
        game_id = await storage.games.create_game(
            guild_id=MINE, channel_id=1000 + n, host_id=None, variant="bell", rules=BELL, turn_timer_seconds=600,
            seats=[SeatSpec("A1", "alice", user_id=11), SeatSpec("B1", "bob", user_id=12)])
        mine.append(game_id)
    await storage.games.create_game(guild_id=THEIRS, channel_id=1, host_id=None, variant="bell", rules=BELL,
                                    turn_timer_seconds=600)  # the server's row, for the bulk rows below
    now = clock()
    columns = ("guild_id", "channel_id", "in_thread", "status", "ranked", "variant", "rules_json",
               "turn_timer_seconds", "created_at", "updated_at")
    rows = [(THEIRS, 10_000 + n, False, "lobby", False, "bell", json.dumps(BELL), 600, now, now)
            for n in range(OTHERS - 1)]
    async with storage.database.write() as tx:
        await tx.copy_in("games", columns, rows)
    return mine


async def test_start_up_reads_none_of_the_50000_open_games_of_other_shards(storage: Storage, clock: FakeClock
                                                                            ) -> None:
    mine = await fill(storage, clock)
    counting = CountingDatabase(storage)
    watched = Storage(cast(Database, counting))

    batches = [batch async for batch in watched.games.open_game_batches(SHARDS, batch=8)]

    assert [log.game.game_id for batch in batches for log in batch] == mine
    assert max(len(batch) for batch in batches) == 8  # memory follows the batch, not the number of games
    reads = counting.reads
    assert reads.guilds == {MINE}  # not one game row of another shard was handed over
    # Each game row once, with its two seats: nothing else (these games have no events yet).
    assert reads.rows == OWN * 3
    assert reads.queries == 3 * len(batches)


async def test_a_manager_on_some_shards_loads_only_theirs(storage: Storage, clock: FakeClock) -> None:
    mine = await fill(storage, clock)
    counting = CountingDatabase(storage)
    manager = SessionManager(Storage(cast(Database, counting)).games, picker=first_legal, clock=clock, shards=SHARDS)

    assert await manager.load() == OWN
    assert sorted(s.game_id for s in manager.sessions) == mine
    assert counting.reads.guilds == {MINE}
    assert counting.reads.rows < OTHERS // 100  # what it read is its own games' rows, nothing of the 50,000
    assert manager.in_channel(1000) is not None and manager.open_count(11) == 0  # indexed (no host: matches)



async def test_a_profile_reads_a_few_counted_rows_not_the_players_history(storage: Storage, clock: FakeClock
                                                                          ) -> None:
    for n in range(60):  # a long history: wins, then losses, then three wins (the current streak)
        winner = "A" if n < 30 or n >= 57 else "B"
        clock.advance(days=1)  # every game ranked (the repeat limit counts games between a line-up in a day)
        await play(storage, [1, 2], winner, guild_id=MINE)
    await play(storage, [1, 3], "A", guild_id=THEIRS, ranked=False)
    counting = CountingDatabase(storage)

    profile = await Storage(cast(Database, counting)).players.profile(1, MINE)

    assert profile is not None and profile.streak is not None
    assert (profile.streak.result, profile.streak.length) == ("win", 3)
    assert profile.finished_games == 60  # this server's games only (the other server's game is not counted)
    assert counting.reads.rows < 20  # whatever the length of the history


async def test_start_up_reads_only_its_shards_open_tournaments(storage: Storage) -> None:
    settings = TournamentSettings("Cup", "swiss", "bell", None, 600, 86_400, True)
    mine = await storage.tournaments.create_tournament(guild_id=MINE, channel_id=5, creator_id=1, settings=settings)
    await storage.tournaments.create_tournament(guild_id=THEIRS, channel_id=6, creator_id=1, settings=settings)

    assert [t.tournament_id for t in await storage.tournaments.open_tournaments(SHARDS)] == [mine]
    assert len(await storage.tournaments.open_tournaments()) == 2
