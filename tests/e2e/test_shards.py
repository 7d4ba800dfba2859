"""Two bot processes on two shards of one PostgreSQL database: each plays its own server's ranked games, the
all-servers ladder holds both servers' players, a process killed with SIGKILL mid-game comes back to its game
while the other plays on, and a process started by mistake on shards that live processes hold is refused
before it writes anything. The processes are `tests/e2e/shard_child.py` (the real session layer and store)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.storage import open_storage
from bot.storage.shards import shard_of
from bot.storage.types import GLOBAL_SCOPE

REPO_ROOT = Path(__file__).resolve().parents[2]
GUILD_0, GUILD_1, GUILD_2 = 1000 << 22, 1001 << 22, 1002 << 22  # on shards 0, 1 and 0 of 2
READ_TIMEOUT = 60.0

Line = dict[str, Any]


class Child:
    """One bot process, and the JSON lines it printed."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.lines: list[Line] = []

    @classmethod
    async def start(cls, url: str, shard_ids: str, guild_id: int, player_base: int, seed: int) -> Child:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.e2e.shard_child", url, "2", shard_ids, str(guild_id), str(player_base),
            str(seed), cwd=REPO_ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )
        return cls(process)

    async def until(self, wanted: Callable[[Line], bool]) -> Line:
        """Read lines until one is `wanted`; fail with the child's stderr if it stops first."""
        assert self.process.stdout is not None and self.process.stderr is not None
        while True:
            raw = await asyncio.wait_for(self.process.stdout.readline(), READ_TIMEOUT)
            if not raw:
                error = (await self.process.stderr.read()).decode(errors="replace")
                raise AssertionError(f"the child stopped (exit {await self.process.wait()}):\n{error}")
            line: Line = json.loads(raw)
            self.lines.append(line)
            if wanted(line):
                return line

    async def kill(self) -> None:
        if self.process.returncode is None:
            os.kill(self.process.pid, signal.SIGKILL)
        await self.process.wait()


@pytest.fixture
async def children() -> AsyncIterator[list[Child]]:
    started: list[Child] = []
    yield started
    for child in started:
        await child.kill()


def test_the_servers_are_on_the_shards_they_say() -> None:
    assert [shard_of(g, 2) for g in (GUILD_0, GUILD_1, GUILD_2)] == [0, 1, 0]


async def test_two_processes_on_two_shards_play_their_own_servers_on_one_database(
    postgres_url: str, children: list[Child]
) -> None:
    first = await Child.start(postgres_url, "0", GUILD_0, 100, 1)
    second = await Child.start(postgres_url, "1", GUILD_1, 200, 2)
    children += [first, second]
    await asyncio.gather(first.until(lambda m: "ready" in m), second.until(lambda m: "ready" in m))

    # Both play ranked games at the same time; each finishes one.
    await asyncio.gather(*(c.until(lambda m: m.get("status") == "finished") for c in (first, second)))
    store = await open_storage(postgres_url)
    try:
        # The all-servers ladder is one table: every process (and every server) reads both servers' players.
        for user in (100, 101, 200, 201):
            standing = await store.standing(user, "duel", GLOBAL_SCOPE)
            assert standing is not None and standing.games >= 1, user
        # Each server's ladder holds its own players only.
        assert await store.standing(100, "duel", GUILD_1) is None
        assert await store.standing(200, "duel", GUILD_0) is None
        games = {log.game.game_id: log.game.guild_id for log in await store.open_games()}
    finally:
        await store.close()
    assert set(games.values()) <= {GUILD_0, GUILD_1}

    # The first process dies mid-game; the second plays on meanwhile; the first comes back to the same game.
    moving = await first.until(lambda m: m.get("status") == "running" and m.get("seq", 0) > 3)
    await first.kill()
    played = len(second.lines)
    restarted = await Child.start(postgres_url, "0", GUILD_0, 100, 3)
    children.append(restarted)
    ready = await restarted.until(lambda m: "ready" in m)
    assert moving["game"] in ready["games"]  # its shard's open game, reloaded; the other shard's is not
    assert all(games[g] == GUILD_0 for g in ready["games"] if g in games)
    on = await restarted.until(lambda m: m.get("game") == moving["game"])
    assert on["seq"] > moving["seq"]
    await second.until(lambda m: "game" in m)
    assert len(second.lines) > played

    # A third process started by mistake on both shards is refused and writes nothing.
    mistaken = await Child.start(postgres_url, "0-1", GUILD_2, 300, 4)
    children.append(mistaken)
    refused = await mistaken.until(lambda m: "refused" in m)
    assert "is held by the live process" in refused["refused"]
    assert await mistaken.process.wait() == 3
    store = await open_storage(postgres_url)
    try:
        assert await store.standing(300, "duel", GLOBAL_SCOPE) is None
        assert all(log.game.guild_id != GUILD_2 for log in await store.open_games())
        assert (await store.game_history(300)) == ()
    finally:
        await store.close()
