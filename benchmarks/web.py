"""Web companion speed: `python benchmarks/web.py [--spectators 1000] [--games 100] [--watchers 10] [--moves 20]`.

Two scenarios on the live pages' Server-Sent Events, each with the pages served as the bot serves them (the web
server in the process that plays the games, WEB_PORT, on SQLite; the boards drawn as SVG):
- one game watched by `--spectators` streams;
- `--games` games watched by `--watchers` streams each.
A server process plays the moves (`GameSession.play`, saved to the database, then shown); client processes (at
least two, so that reading a thousand streams is not what is measured) hold the streams and note when each
"board" event arrives. Printed: the time from the start of a move to its event arriving at each stream (p50,
p95, p99 and max over every stream and every move, `benchmarks/percentiles.py`), how many events arrived of how
many were due, and the server's resident memory per open stream (its RSS with the streams open minus before,
divided by their number). Prints numbers; never asserts. The clocks are CLOCK_MONOTONIC, the same in every
process of one machine.

The players' own latency (board visible after a click) is `benchmarks/load.py`'s. To see that watchers do not
move it, run the load once as usual, then once with the pages on and spectators on every game:
    WEB_PORT=8081 WEB_TRUST_FORWARDED=yes WEB_SECRET=<32+ characters> \
        python benchmarks/load.py --games 200 --think 2-4 --seconds 120 &
    python benchmarks/web.py --spectate http://127.0.0.1:8081 --secret <the same> --game-ids 1-200 --watchers 5 \
        --seconds 120
and compare load.py's "board visible" p99 between the two runs (`--timeline` shows it per 10 s window);
`--spectate` prints the events its streams got, and runs its clients at niceness 19 (they stand for browsers
on other machines). With the pages in a process of their own, beside the bot on PostgreSQL:
    WEB_SECRET=<...> WEB_TRUST_FORWARDED=yes python benchmarks/load.py --games 200 --think 2-4 --seconds 120 \
        --database-url postgresql://postgres@127.0.0.1:5432/test --web-process 8082 &
    python benchmarks/web.py --spectate http://127.0.0.1:8082 --secret <the same> --game-ids 1-200 --watchers 5 \
        --seconds 100
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from percentiles import summary  # benchmarks/percentiles.py: the one definition

ROOT = Path(__file__).resolve().parents[1]
SECRET = "benchmark-secret-0123456789-abcdefghij"


def rss_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


# -- the server: plays the moves and serves the pages --------------------------------------------------------


async def serve(games: int) -> None:
    from bot.compute import ComputePool
    from bot.limits import lanes
    from bot.sessions import GameOptions, Place, Player, SessionManager
    from bot.storage import open_storage
    from bot.storage.urls import SqliteUrl
    from bot.ui.links import Page, WebLinks
    from bot.web.security import Limits
    from bot.web.server import web_server
    from puluc import Move, Position

    async def pick(position: Position, level: str, rng: random.Random) -> Move:
        return rng.choice(position.legal_moves())

    folder = tempfile.mkdtemp(prefix="puluc-web-bench-")
    storage = await open_storage(SqliteUrl(Path(folder) / "puluc.db"))
    seeds = iter(range(1, 1_000_000))
    manager = SessionManager(storage.games, picker=pick, seeds=lambda: next(seeds))
    sessions = {}
    for number in range(games):
        lobby = await manager.open_lobby(Player(1 + 2 * number, f"a{number}"), Place(1, 100 + number), GameOptions())
        session = manager.get(lobby.game_id)
        await session.join(Player(2 + 2 * number, f"b{number}"))
        await session.start(1 + 2 * number, manager.seeds())
        sessions[lobby.game_id] = session
    links = WebLinks(SECRET)
    unlimited = Limits(per_minute=1e9, burst=10**9, streams=10**9, streams_total=10**9)
    compute = ComputePool(0, lanes=lanes())
    server = web_server(storage, links, compute, host="127.0.0.1", port=0, bar_ms=4, trust_forwarded=False,
                        manager=manager, limits=unlimited)
    await server.start()
    paths = {game_id: links.path(f"/g/{game_id}/events", Page("g", game_id), seq=s.state.seq)
             for game_id, s in sessions.items()}
    print(json.dumps({"port": server.port, "paths": paths, "rss": rss_kib()}), flush=True)
    rng = random.Random(7)
    reader = asyncio.StreamReader()
    await asyncio.get_running_loop().connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while line := await reader.readline():
        command = json.loads(line)
        if command["op"] == "rss":
            print(json.dumps({"rss": rss_kib(), "watchers": server.hub.watchers}), flush=True)
        elif command["op"] == "move":
            session = sessions[command["game"]]
            state = session.state
            if state.status != "running" or state.to_move is None:
                print(json.dumps({"game": command["game"], "over": True}), flush=True)
                continue
            option = rng.choice(state.legal_options())
            started = time.monotonic()
            await session.play(state.to_move.user_id or 0, option.notation, turn=state.seq)
            print(json.dumps({"game": command["game"], "seq": session.state.seq, "t": started}), flush=True)
        elif command["op"] == "stop":
            break
    await server.stop()
    await storage.close()


# -- a client process: holds streams, notes when each board event arrives ------------------------------------


async def clients(port: int, paths: list[str]) -> None:
    import aiohttp

    arrivals: list[tuple[str, int, float]] = []
    connected = 0
    all_connected = asyncio.Event()

    async def watch(client: aiohttp.ClientSession, path: str) -> None:
        nonlocal connected
        game = path.split("/")[2]
        async with client.get(f"http://127.0.0.1:{port}{path}", timeout=aiohttp.ClientTimeout(total=None)) as stream:
            connected += 1
            if connected == len(paths):
                all_connected.set()
            event = None
            async for raw in stream.content:
                line = raw.decode()
                if line.startswith("event: "):
                    event = line[7:].strip()
                elif line.startswith("data: ") and event == "board":
                    arrivals.append((game, json.loads(line[6:])["seq"], time.monotonic()))
                elif line == "\n":
                    event = None

    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as client:
        tasks = [asyncio.create_task(watch(client, path)) for path in paths]
        await asyncio.wait_for(all_connected.wait(), 120)
        print(json.dumps({"ready": len(paths)}), flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)  # "stop"
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    print(json.dumps({"arrivals": arrivals}), flush=True)


# -- the driver ----------------------------------------------------------------------------------------------


class Child:
    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process

    @classmethod
    async def start(cls, *args: str) -> Child:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
        process = await asyncio.create_subprocess_exec(
            sys.executable, __file__, *args, cwd=ROOT, env=env, stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE, limit=2**28)
        return cls(process)

    async def send(self, **command: Any) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write((json.dumps(command) + "\n").encode())
        await self.process.stdin.drain()

    async def read(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = await asyncio.wait_for(self.process.stdout.readline(), 300)
        if not line:
            raise RuntimeError("a benchmark process ended early")
        return json.loads(line)  # type: ignore[no-any-return]


async def scenario(name: str, games: int, watchers: int, moves: int, client_processes: int, pause: float) -> None:
    server = await Child.start("--serve", str(games))
    hello = await server.read()
    paths = [path for path in hello["paths"].values() for _ in range(watchers)]
    random.Random(1).shuffle(paths)
    shares = [paths[i::client_processes] for i in range(client_processes)]
    await server.send(op="rss")
    before = (await server.read())["rss"]
    readers = [await Child.start("--clients", str(hello["port"]), json.dumps(share)) for share in shares if share]
    for reader in readers:
        await reader.read()  # every stream of it is open
    await asyncio.sleep(1.5)  # the watcher counts go out
    await server.send(op="rss")
    after = await server.read()
    played: dict[tuple[str, int], float] = {}
    for _ in range(moves):
        for game in hello["paths"]:
            await server.send(op="move", game=int(game))
            answer = await server.read()
            if "seq" in answer:
                played[(str(answer["game"]), answer["seq"])] = answer["t"]
        await asyncio.sleep(pause)
    await asyncio.sleep(1.0)
    latencies: list[float] = []
    for reader in readers:
        await reader.send(op="stop")
        for game, seq, arrived in (await reader.read())["arrivals"]:
            start = played.get((game, seq))
            if start is not None:
                latencies.append((arrived - start) * 1000)
    await server.send(op="stop")
    await server.process.wait()
    for reader in readers:
        await reader.process.wait()
    due = len(played) * watchers
    per_stream = (after["rss"] - before) / max(1, len(paths))
    print(f"{name}: {games} game(s) x {watchers} streams, {len(played)} moves: move -> event ms "
          f"{summary(latencies)}; {len(latencies)} of {due} events arrived; "
          f"server memory {per_stream:.1f} KiB per stream ({after['watchers']} streams open)")


async def spectate(base: str, secret: str, game_ids: range, watchers: int, seconds: float) -> None:
    """Spectators on a running bot's pages (its games `game_ids`, opened as they are created)."""
    import aiohttp

    from bot.ui.links import Page, WebLinks

    links = WebLinks(secret)
    events = 0
    opened = 0
    # The spectators stand for browsers on other machines: on this one they yield the CPU to the bot, whose
    # players' latency (benchmarks/load.py) this run is there to measure.
    os.nice(19)

    async def watch(client: aiohttp.ClientSession, game_id: int, number: int) -> None:
        nonlocal events, opened
        path = links.path(f"/g/{game_id}/events", Page("g", game_id))
        # Each spectator its own address, as behind a reverse proxy (run the bot with WEB_TRUST_FORWARDED=yes):
        # from one address, all but 20 streams would be refused by the per-address limit.
        headers = {"X-Forwarded-For": f"10.{number >> 16 & 255}.{number >> 8 & 255}.{number & 255}"}
        while True:  # the game may not exist yet: try again until it does
            try:
                async with client.get(base + path, headers=headers,
                                      timeout=aiohttp.ClientTimeout(total=None)) as stream:
                    if stream.status != 200:
                        await asyncio.sleep(1.0)
                        continue
                    opened += 1
                    async for raw in stream.content:
                        if raw.startswith(b"event: board"):
                            events += 1
                    opened -= 1
            except aiohttp.ClientError:
                await asyncio.sleep(1.0)

    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as client:
        tasks = [
            asyncio.create_task(watch(client, game_id, number))
            for number, (game_id, _) in enumerate((g, w) for g in game_ids for w in range(watchers))
        ]
        started = time.monotonic()
        await asyncio.sleep(seconds)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    elapsed = time.monotonic() - started
    print(f"spectators: {len(tasks)} streams on {len(game_ids)} games ({opened} open at the end): {events} board "
          f"events in {elapsed:.0f} s ({events / elapsed:.1f} per second)")


def main() -> None:
    if sys.argv[1:2] == ["--serve"]:
        asyncio.run(serve(int(sys.argv[2])))
        return
    if sys.argv[1:2] == ["--clients"]:
        asyncio.run(clients(int(sys.argv[2]), json.loads(sys.argv[3])))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--spectators", type=int, default=1000, help="streams on the one game of scenario 1")
    parser.add_argument("--games", type=int, default=100, help="games of scenario 2")
    parser.add_argument("--watchers", type=int, default=10, help="streams per game in scenario 2")
    parser.add_argument("--moves", type=int, default=20, help="moves per game")
    parser.add_argument("--client-processes", type=int, default=2, help="processes holding the streams")
    parser.add_argument("--pause", type=float, default=0.25, help="seconds between rounds of moves")
    parser.add_argument("--spectate", metavar="URL", help="instead: spectators on a running bot's pages at URL")
    parser.add_argument("--secret", help="with --spectate: the bot's WEB_SECRET")
    parser.add_argument("--game-ids", default="1-200", metavar="FIRST-LAST", help="with --spectate: which games")
    parser.add_argument("--seconds", type=float, default=60.0, help="with --spectate: how long")
    args = parser.parse_args()
    if args.spectate:
        first, _, last = args.game_ids.partition("-")
        asyncio.run(spectate(args.spectate.rstrip("/"), args.secret or "", range(int(first), int(last or first) + 1),
                             args.watchers, args.seconds))
        return
    print(f"load: {os.getloadavg()[0]:.2f} (1 min), {os.cpu_count()} CPUs")
    asyncio.run(scenario("one game", 1, args.spectators, args.moves, args.client_processes, args.pause))
    asyncio.run(scenario("many games", args.games, args.watchers, max(1, args.moves // 4), args.client_processes,
                         args.pause))


if __name__ == "__main__":
    main()
