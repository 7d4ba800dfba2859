"""A season start and a ranked game finishing at the same moment, on PostgreSQL (issue 17).

Each write there is a READ COMMITTED transaction, so two of them interleave statement by statement unless they
wait for a common lock. A season start archives the server's ratings and deletes them; a finishing game reads
its players' ratings and writes new ones. Whichever way the two meet, the result must be one of the two serial
orders: the game counted in the closed season (and its archive), or the game counted as the first of the new
season from newcomer ratings. Each test pauses one of them half-way, with a third connection holding rows it
is about to write, and lets the other run into it; the database then says who waits (pg_stat_activity).
SQLite needs no such test: its write transactions (BEGIN IMMEDIATE) exclude each other as a whole.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator

import asyncpg
import pytest

from bot.ratings import NEWCOMER, PROVISIONAL_GAMES
from bot.storage import Storage, open_storage
from tests.bot.storage.games import GUILD, finish, play_many, started
from tests.helpers import FakeClock

POLLS = 1000  # 10 ms apart: a wait that never comes fails the test after ~10 s instead of hanging it


@pytest.fixture
async def name() -> str:
    """The application_name of the store's connections, so the test counts only its own waiters."""
    return f"season_race_{secrets.token_hex(4)}"


@pytest.fixture
async def storage(postgres_url: str, name: str, clock: FakeClock) -> AsyncIterator[Storage]:
    opened = await open_storage(f"{postgres_url}&application_name={name}", clock=clock)
    # Two listed players on the server's 1 v 1 ladder, both with PROVISIONAL_GAMES games.
    await play_many(opened, clock, [1, 2], "A", PROVISIONAL_GAMES)
    yield opened
    await opened.close()


@pytest.fixture
async def holder(postgres_url: str) -> AsyncIterator[asyncpg.Connection]:
    conn = await asyncpg.connect(postgres_url)
    yield conn
    await conn.close()


async def until_waiting(conn: asyncpg.Connection, name: str, count: int) -> None:
    """Return once `count` of the store's connections wait for a lock."""
    for _ in range(POLLS):
        # pg_stat_clear_snapshot: inside a transaction, pg_stat_activity would show the first reading again.
        waiting = await conn.fetchval(
            "SELECT count(*) FROM pg_stat_activity, pg_stat_clear_snapshot() "
            "WHERE application_name = $1 AND wait_event_type = 'Lock'", name)
        if waiting >= count:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"{count} of the store's transactions never came to wait for a lock")


async def test_a_game_finishing_while_a_season_closes_counts_in_the_new_season(
    storage: Storage, holder: asyncpg.Connection, name: str
) -> None:
    game_id = await started(storage, [1, 2])
    async with holder.transaction():
        # The season start will stop at its last statement (deleting the server's rating history), after
        # archiving and deleting the ratings, with its transaction open.
        await holder.execute("SELECT 1 FROM rating_history WHERE scope = $1 FOR UPDATE", GUILD)
        season = asyncio.create_task(storage.seasons.start_season(GUILD))
        await until_waiting(holder, name, 1)
        game = asyncio.create_task(finish(storage, game_id, "A"))
        await until_waiting(holder, name, 2)  # the game waits for the season start too
    closed = await season
    report = await game

    # Season first, then the game: the archive has five games each, the game starts the new season's ratings.
    archived = await storage.seasons.season_leaderboard(GUILD, closed.number, "duel")
    assert [(e.user_id, e.games) for e in archived.entries] == [(1, PROVISIONAL_GAMES), (2, PROVISIONAL_GAMES)]
    server = {c.user_id: c for c in report.changes if c.scope == GUILD}
    assert server[1].before == server[2].before == NEWCOMER.display
    standing = await storage.ladders.standing(1, "duel", GUILD)
    assert standing is not None and (standing.games, standing.wins) == (1, 1)
    assert [p.game_id for p in await storage.ladders.rating_history(1, "duel", GUILD)] == [game_id]
    assert await storage.integrity_check() == "ok"


async def test_a_season_closing_while_a_game_is_rated_archives_that_game(
    storage: Storage, holder: asyncpg.Connection, name: str
) -> None:
    game_id = await started(storage, [1, 2])
    async with holder.transaction():
        # The game will stop at its last statements (the server's rank counts), after writing its ratings.
        await holder.execute("SELECT 1 FROM ladder_counts WHERE scope = $1 FOR UPDATE", GUILD)
        game = asyncio.create_task(finish(storage, game_id, "A"))
        await until_waiting(holder, name, 1)
        season = asyncio.create_task(storage.seasons.start_season(GUILD))
        await until_waiting(holder, name, 2)  # the season start waits for the game
    report = await game
    closed = await season

    # The game first, then the season: the game is in the archive, and nothing of it is left on the server.
    assert {c.user_id for c in report.changes if c.scope == GUILD} == {1, 2}
    archived = await storage.seasons.season_leaderboard(GUILD, closed.number, "duel")
    assert [(e.user_id, e.games) for e in archived.entries] == [
        (1, PROVISIONAL_GAMES + 1), (2, PROVISIONAL_GAMES + 1)]
    assert await storage.ladders.standing(1, "duel", GUILD) is None
    assert await storage.ladders.rating_history(1, "duel", GUILD) == ()
    assert (await storage.ladders.leaderboard("duel", GUILD)).entries == ()
    assert await storage.integrity_check() == "ok"
