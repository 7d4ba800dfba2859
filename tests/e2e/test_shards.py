"""Two bot processes on two shards of one PostgreSQL database, each the real bot (bot/app.py with its cogs)
in its own offline Discord holding one server of its shard, played through slash commands and buttons:
ranked games at the same time in both servers; the all-servers leaderboard, asked in either server, lists
both servers' players; a process killed with SIGKILL mid-game and restarted takes a click on its old
message's button while the other plays on; a 30 s turn timer fires once, in the process that owns the
server, while the other process's clock runs past it too; and a process started by mistake on shards that
live processes hold is refused before it writes anything. The processes are `tests/e2e/shard_bot_child.py`.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.storage import open_storage
from bot.storage.shards import shard_of
from bot.storage.types import GLOBAL_SCOPE

REPO_ROOT = Path(__file__).resolve().parents[2]
GUILD_0, GUILD_1, GUILD_2 = 1000 << 22, 1001 << 22, 1002 << 22  # on shards 0, 1 and 0 of 2
READ_TIMEOUT = 60.0
# A player is listed on a leaderboard after 5 ranked games (bot/ratings/__init__.py); a game is ranked from 6
# moves on, and at most 3 a day between the same two players: alice plays bob 3 times, then carol twice.
OPPONENTS = ("bob", "bob", "bob", "carol", "carol")
RANKED_MOVES = 6

Line = dict[str, Any]


class Child:
    """One bot process, driven one command at a time over stdin and stdout."""

    def __init__(self, process: asyncio.subprocess.Process, guild_id: int) -> None:
        self.process = process
        self.guild_id = guild_id
        self.ready: Line = {}

    @classmethod
    async def start(cls, url: str, shard_ids: str, guild_id: int, index: int, state: Path) -> Child:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.e2e.shard_bot_child", url, "2", shard_ids, str(guild_id), str(index),
            str(state), cwd=REPO_ROOT, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        child = cls(process, guild_id)
        child.ready = await child.read()
        return child

    async def read(self) -> Line:
        assert self.process.stdout is not None and self.process.stderr is not None
        raw = await asyncio.wait_for(self.process.stdout.readline(), READ_TIMEOUT)
        if not raw:
            error = (await self.process.stderr.read()).decode(errors="replace")
            raise AssertionError(f"the child stopped (exit {await self.process.wait()}):\n{error}")
        line: Line = json.loads(raw)
        assert not line.get("errors"), line["errors"]
        return line

    async def do(self, op: str, **arguments: Any) -> Line:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps({"op": op, **arguments}).encode() + b"\n")
        await self.process.stdin.drain()
        return await self.read()

    async def kill(self) -> None:
        if self.process.returncode is None:
            os.kill(self.process.pid, signal.SIGKILL)
        await self.process.wait()

    async def stop(self) -> int:
        """Close its stdin: the bot shuts down cleanly."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        return await asyncio.wait_for(self.process.wait(), READ_TIMEOUT)


@pytest.fixture
async def children() -> AsyncIterator[list[Child]]:
    started: list[Child] = []
    yield started
    for child in started:
        await child.kill()


async def ranked_games(child: Child) -> list[int]:
    """alice's ranked games against OPPONENTS in the child's server, each RANKED_MOVES moves by button and
    then a resignation."""
    played = []
    for opponent in OPPONENTS:
        game = (await child.do("challenge", opponent=opponent))["game"]
        for _ in range(RANKED_MOVES):
            moved = await child.do("move")
            assert moved["game"] == game and not moved["said"], moved
        if moved["status"] == "running":
            assert (await child.do("resign"))["status"] == "finished"
        played.append(game)
    return played


def test_the_servers_are_on_the_shards_they_say() -> None:
    assert [shard_of(g, 2) for g in (GUILD_0, GUILD_1, GUILD_2)] == [0, 1, 0]


async def test_two_bot_processes_on_two_shards_of_one_database(
    postgres_url: str, children: list[Child], tmp_path: Path
) -> None:
    first, second = await asyncio.gather(Child.start(postgres_url, "0", GUILD_0, 0, tmp_path / "discord0"),
                                         Child.start(postgres_url, "1", GUILD_1, 1, tmp_path / "discord1"))
    children += [first, second]
    players = {child.guild_id: child.ready["players"] for child in (first, second)}
    assert not set(players[GUILD_0]) & set(players[GUILD_1])  # other people in the other server

    # Both servers play ranked games at the same time, by slash commands and buttons.
    games = await asyncio.gather(ranked_games(first), ranked_games(second))
    assert not set(games[0]) & set(games[1])

    # The all-servers leaderboard lists both servers' alice (5 ranked games each), whichever server asks; bob
    # (3 games), asking, sees his own provisional place.
    for child in (first, second):
        shown = (await child.do("leaderboard"))["text"]
        assert shown.startswith("Leaderboard: 1 v 1, All servers"), shown
        assert "alice0" in shown and "alice1" in shown and "3 ranked games played" in shown, shown
    store = await open_storage(postgres_url)
    try:  # while each server's own ladder holds its own players only
        for guild, other in ((GUILD_0, GUILD_1), (GUILD_1, GUILD_0)):
            for user, count in zip(players[guild], (5, 3, 2), strict=True):
                own = await store.ladders.standing(user, "duel", guild)
                everywhere = await store.ladders.standing(user, "duel", GLOBAL_SCOPE)
                assert own is not None and everywhere is not None and own.games == everywhere.games == count
                assert await store.ladders.standing(user, "duel", other) is None
    finally:
        await store.close()

    # The first process dies mid-game; the second plays on meanwhile; the first comes back, and a click on
    # the message it posted before it died plays a move.
    game = (await first.do("challenge"))["game"]
    for _ in range(3):
        before = await first.do("move")
    await first.kill()
    await second.do("challenge")
    await second.do("move")
    first = await Child.start(postgres_url, "0", GUILD_0, 0, tmp_path / "discord0")
    children.append(first)
    assert first.ready["loaded"] == [game]  # its shard's open game, and not the other shard's
    revived, elsewhere = await asyncio.gather(first.do("move"), second.do("move"))
    assert revived["message"] == before["now"]  # the message from before the kill, with its old buttons
    assert revived["clicked"].startswith(f"puluc:move:{game}:{before['seq']}:")
    assert not revived["said"] and revived["seq"] > before["seq"] and revived["now"] == before["now"]
    assert elsewhere["seq"] > 1 and elsewhere["game"] not in (revived["game"], *first.ready["loaded"])

    # A 30 s turn timer in the second server: both processes' clocks run past it; it fires once, there.
    await second.do("resign")  # frees the channel
    timed = await second.do("timed")
    assert timed["game"] not in (await first.do("advance", seconds=0))["loaded"]
    fired, elsewhere = await asyncio.gather(second.do("advance", seconds=31), first.do("advance", seconds=31))
    assert fired["timeouts"][str(timed["mover"])] == 1 and fired["ran_out"] == 1
    assert timed["game"] not in elsewhere["loaded"]
    fired, elsewhere = await asyncio.gather(second.do("advance", seconds=20), first.do("advance", seconds=90))
    assert sum(fired["timeouts"].values()) == 1 and fired["ran_out"] == 1  # 51 s: the next turn still has time
    store = await open_storage(postgres_url)
    try:
        log = await store.games.game_log(timed["game"])
        assert [e.kind for e in log.events].count("timeout") == 1
    finally:
        await store.close()

    # A third process started by mistake on both shards is refused and writes nothing.
    mistaken = await Child.start(postgres_url, "0-1", GUILD_2, 2, tmp_path / "discord2")
    children.append(mistaken)
    assert "cannot run" in mistaken.ready["refused"] and "is held by the live process" in mistaken.ready["refused"]
    assert await mistaken.process.wait() == 3
    store = await open_storage(postgres_url)
    try:
        assert all(log.game.guild_id != GUILD_2 for log in await store.games.open_games())
    finally:
        await store.close()
    assert list(await asyncio.gather(first.stop(), second.stop())) == [0, 0]
