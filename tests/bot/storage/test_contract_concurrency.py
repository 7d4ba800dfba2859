"""Concurrency and crashes, for every backend that has them: many writers on two handles, two raters of the
same players at once (in two processes for SQLite and PostgreSQL), and a writer killed mid-stream."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

from bot.ratings import NEWCOMER
from bot.storage import Storage
from tests.bot.storage.backends import Backend
from tests.bot.storage.child import RATED_USERS
from tests.bot.storage.games import append, play, running_duel

ROOT = Path(__file__).resolve().parents[3]


async def test_twenty_writers_on_two_handles_keep_every_log_whole(backend: Backend) -> None:
    first, second = await backend.open(), await backend.open()
    games = [await running_duel(first) for _ in range(20)]

    async def player(n: int, game_id: int) -> None:
        storage = first if n % 2 else second  # half the games written through each handle
        for seq in range(1, 26):
            await append(storage, game_id, seq, "move", {"move": f"{seq % 5 + 1}:H"}, snapshot_ppn=f"ppn {seq}")

    async def reader() -> None:
        for _ in range(30):
            for log in await second.games.open_games():  # readers see only committed, consistent states
                assert log.game.last_seq == len(log.events)
                if log.events:  # the snapshot was committed with the event that it follows
                    assert log.game.snapshot_ppn == f"ppn {log.game.last_seq}"
            await asyncio.sleep(0)

    await asyncio.gather(*(player(n, g) for n, g in enumerate(games)), reader())
    for game_id in games:
        log = await first.games.game_log(game_id)
        assert [e.seq for e in log.events] == list(range(1, 26))
        assert (log.game.last_seq, log.game.snapshot_ppn) == (25, "ppn 25")
    assert await first.integrity_check() == "ok"


async def test_two_raters_of_the_same_players_at_once_lose_no_game(backend: Backend) -> None:
    first, second = await backend.open(), await backend.open()
    # Every reading of the clock six hours later: the same two players meet at most REPEAT_LIMIT times in 24
    # hours, so every game is ranked (and it all stays within the 30 days a rating needs no absence).
    backend.clock.tick = 6 * 3600.0

    async def rater(storage: Storage, pairs: list[tuple[int, int]]) -> None:
        for a, b in pairs:
            await play(storage, [a, b], "A")

    pairs = [(1, 2), (2, 3), (3, 1), (1, 2), (2, 3), (3, 1)]
    await asyncio.gather(rater(first, pairs), rater(second, pairs[::-1]))
    for user in (1, 2, 3):
        standing = await first.ladders.standing(user, "duel", 0)
        assert standing is not None and standing.games == 8  # each user is in 4 of each rater's 6 games
        assert standing.wins + standing.losses == 8
    await assert_every_rating_is_one_chain(backend)
    assert await first.integrity_check() == "ok"


async def test_two_processes_rating_the_same_players_lose_no_update(backend: Backend) -> None:
    """Two bot processes finish ranked games among the same four players at the same time; every rating
    update must build on the one before it (none read a rating the other was about to replace)."""
    await (await backend.open()).close()  # migrate first, so both children only rate
    games = 15
    children = [
        subprocess.Popen(  # noqa: ASYNC220 - nothing else runs on this test's loop while the children work
            [sys.executable, "-m", "tests.bot.storage.child", "rate", backend.url, str(seed), str(games)],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        for seed in (1, 2)
    ]
    rated = 0
    for child in children:
        out, err = child.communicate(timeout=60)
        assert child.returncode == 0, err
        done, count = out.split()
        assert done == "done"
        rated += int(count)  # the same two players count three times a day; later games are unranked
    assert rated >= 2 * 6  # every pair of players is rated a few times over
    rows = await backend.fetch("SELECT user_id, games FROM ratings WHERE scope = 0")
    assert sum(games_played for _, games_played in rows) == rated * 2  # two seats per rated game
    assert {user for user, _ in rows} == set(RATED_USERS)
    await assert_every_rating_is_one_chain(backend)
    storage = await backend.open()
    assert await storage.integrity_check() == "ok"


async def assert_every_rating_is_one_chain(backend: Backend) -> None:
    """Each rating's history is one unbroken chain from a newcomer's rating to the stored one: no update was
    computed from a rating that another transaction had already replaced (a lost update forks the chain)."""
    history = await backend.fetch(
        "SELECT user_id, ladder, scope, mu_before, sigma_before, mu_after, sigma_after FROM rating_history"
    )
    stored = {
        (r[0], r[1], r[2]): ((r[3], r[4]), r[5])
        for r in await backend.fetch("SELECT user_id, ladder, scope, mu, sigma, games FROM ratings")
    }
    steps: dict[tuple[int, str, int], dict[tuple[float, float], tuple[float, float]]] = {}
    for user, ladder, scope, mu0, sigma0, mu1, sigma1 in history:
        links = steps.setdefault((user, ladder, scope), {})
        assert (mu0, sigma0) not in links, f"two updates of {user} on {ladder}/{scope} started from one rating"
        links[(mu0, sigma0)] = (mu1, sigma1)
    assert set(steps) == set(stored)
    for key, links in steps.items():
        rating = (NEWCOMER.mu, NEWCOMER.sigma)
        for _ in range(len(links)):
            rating = links[rating]
        assert (rating, len(links)) == stored[key]


async def test_a_writer_killed_mid_stream_loses_nothing_it_acknowledged(backend: Backend) -> None:
    await (await backend.open()).close()
    child = subprocess.Popen(  # noqa: ASYNC220 - nothing else runs on this test's loop while the child writes
        [sys.executable, "-m", "tests.bot.storage.child", "write", backend.url],
        cwd=ROOT, stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert child.stdout is not None
    acknowledged = 0
    while acknowledged < 40:
        acknowledged = int(child.stdout.readline())
    child.kill()  # SIGKILL: no cleanup, possibly in the middle of a transaction
    child.wait()
    storage = await backend.open()
    assert await storage.integrity_check() == "ok"
    (log,) = await storage.games.open_games()
    seqs = [e.seq for e in log.events]
    assert seqs == list(range(1, len(seqs) + 1))
    assert len(seqs) >= acknowledged  # nothing acknowledged is lost
    assert log.game.last_seq == len(seqs)
    assert log.game.snapshot_ppn == f"p{len(seqs)}"  # snapshot and log were committed together
