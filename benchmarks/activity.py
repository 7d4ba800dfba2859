"""The Activity's live board: `python benchmarks/activity.py [--watchers N] [--moves M] [--languages K]`.

A 1 v 1 game on the real SQLite storage, N members watching it through the Activity's live stream (its real
aiohttp routes on a local port, each watcher its own connection reading Server-Sent Events, spread over K
languages), and moves played through `GameSession.play` as a button plays them. For every move and watcher:
the seconds from the start of the move to the watcher's reading of the new board (the SVG drawn once per
language in the compute pool, the view made per watcher). The issue's goal: within 1 s. Also the time of a move
made through the Activity's own API (POST /activity/api/move), from the request to its answer. One move is
played first and not timed. Prints numbers; never asserts.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import aiohttp
from aiohttp import web
from percentiles import summary  # benchmarks/percentiles.py: the one definition

from bot.activity.routes import ActivitySettings, add_activity_routes
from bot.activity.tickets import Signer, Ticket
from bot.compute import ComputePool
from bot.sessions import GameOptions, Place, Player, SessionManager
from bot.storage import open_storage
from bot.storage.urls import SqliteUrl
from puluc import Move, Position

GUILD, CHANNEL = 1, 2
LANGUAGES = ("en", "fr", "uk", "it", "es")


async def _random_move(position: Position, level: str, rng: random.Random) -> Move:
    return rng.choice(position.legal_moves())


class Watcher:
    """One member's live stream: when each event number arrived."""

    def __init__(self) -> None:
        self.arrived: dict[int, float] = {}
        self.changed = asyncio.Event()

    async def follow(self, http: aiohttp.ClientSession, url: str, ticket: str) -> None:
        async with http.get(url, headers={"Authorization": f"Bearer {ticket}"}, timeout=None) as response:
            name = ""
            async for raw in response.content:
                line = raw.decode().rstrip("\n")
                if line.startswith("event: "):
                    name = line[7:]
                elif line.startswith("data: ") and name == "game":
                    view: dict[str, Any] = json.loads(line[6:])
                    if "seq" in view:
                        self.arrived.setdefault(view["seq"], time.perf_counter())
                        self.changed.set()


async def _run(watchers: int, moves: int, languages: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        storage = await open_storage(SqliteUrl(Path(folder) / "bench.db"))
        compute = ComputePool(0)
        manager = SessionManager(storage.games, picker=_random_move, seeds=lambda: 7)
        lobby = await manager.open_lobby(Player(10, "alice"), Place(GUILD, CHANNEL), GameOptions())
        session = manager.get(lobby.game_id)
        await session.join(Player(11, "bob"))
        await session.start(10, 7)
        # What the Activity uses of the game services: the sessions, the workers, the bar's budget, and a
        # presenter that shows nothing (there is no Discord here; the channel's message is not what is measured).
        async def show(result: object) -> None:
            return None

        games: Any = SimpleNamespace(manager=manager, compute=compute, presenter=SimpleNamespace(show=show),
                                     config=SimpleNamespace(advantage_bar_ms=4))
        settings = ActivitySettings(1, "benchmark-secret", "benchmark.token.x", "http://127.0.0.1:9")
        app = web.Application()
        add_activity_routes(app, games, settings)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        base = f"http://127.0.0.1:{port}/activity/api"
        signer = Signer(settings.client_secret.encode())
        far = time.time() + 3600

        def ticket(user: int, lang: str) -> str:
            return signer.sign(Ticket(user, GUILD, CHANNEL, "bench", lang, far))

        connector = aiohttp.TCPConnector(limit=0)
        async with aiohttp.ClientSession(connector=connector) as http:
            crowd = [Watcher() for _ in range(watchers)]
            tasks = [asyncio.create_task(w.follow(http, f"{base}/live", ticket(1000 + i, LANGUAGES[i % languages])))
                     for i, w in enumerate(crowd)]
            await _all_have(crowd, session.state.seq)
            delays: list[float] = []
            api_times: list[float] = []
            rng = random.Random(1)
            for number in range(moves + 1):
                state = session.state
                if state.status != "running":
                    break
                mover = state.to_move
                assert mover is not None and mover.user_id is not None
                option = rng.choice(state.legal_options()).notation
                started = time.perf_counter()
                if number % 2:
                    async with http.post(f"{base}/move", json={"game_id": str(state.game_id), "seq": state.seq,
                                                               "move": option},
                                         headers={"Authorization": f"Bearer {ticket(mover.user_id, 'en')}"}) as r:
                        assert r.status == 200, await r.text()
                    answered = time.perf_counter() - started
                else:
                    await session.play(mover.user_id, option, turn=state.seq)
                    answered = None
                seq = session.state.seq
                await _all_have(crowd, seq)
                if number == 0:
                    continue  # the warm-up move: imports, the first drawing, Python's caches
                if answered is not None:
                    api_times.append(answered * 1000)
                delays += [(w.arrived[seq] - started) * 1000 for w in crowd]
            for task in tasks:
                task.cancel()
        await runner.cleanup()
        await compute.close()
        await storage.close()
    print(f"{watchers} watchers in {languages} language(s), {len(delays) // max(1, watchers)} moves")
    print(f"  move -> board read by a watcher, ms: {summary(delays)}")
    print(f"  move through the Activity's API, request -> answer, ms: {summary(api_times)}")


async def _all_have(crowd: list[Watcher], seq: int) -> None:
    for watcher in crowd:
        while seq not in watcher.arrived:
            watcher.changed.clear()
            await asyncio.wait_for(watcher.changed.wait(), 30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--watchers", type=int, default=100)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--languages", type=int, default=1, choices=range(1, len(LANGUAGES) + 1))
    options = parser.parse_args()
    asyncio.run(_run(options.watchers, options.moves, options.languages))


if __name__ == "__main__":
    main()
