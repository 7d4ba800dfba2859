"""Storage speed at scale, on SQLite or PostgreSQL: `python benchmarks/storage.py --database-url URL`.

Fills an empty database with 100,000 players, 1,000,000 finished games across 1,000 servers (seats, results,
ladder ratings and rating history; no move-by-move logs) and 1,000 running games (real puluc logs with
snapshots), through the bot's own bulk loader (PostgreSQL: COPY; SQLite: one prepared INSERT per table, all in
one transaction). Then it measures, through the code the bot runs, and prints p50/p95 (benchmarks/percentiles.py):

  start-up reload of the running games (SessionManager.load: open_games + replay of every log) <= 2 s;
  top-10 leaderboard with the caller's rank, a different server and caller on every call    p95 <= 5 ms;
  rank lookup (standing) of a different player on every call                                  p95 <= 5 ms;
  one real move (GameSession.play: the engine, the move and the next throw in one transaction)
                                                   p95 <= 3 ms on SQLite, <= 5 ms on PostgreSQL;
  and, for the record: a profile, a history page, and the move's transaction alone ("commit").

`--clients 4` runs the measurements in 4 processes at once (each with its own connections, each playing its
own quarter of the running games) and prints each client's numbers. Every line carries the load average.
Run it niced (`nice -n 10`); it prints numbers and never asserts.

    python benchmarks/storage.py --database-url postgresql://postgres@127.0.0.1:5432/bench_storage
    python benchmarks/storage.py --database-url sqlite:////tmp/bench_storage.db --clients 4
    python benchmarks/storage.py --database-url ... --reuse     # measure an already filled database again
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import sqlite3
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import asyncpg
from percentiles import percentile  # benchmarks/percentiles.py: the one definition
from played import running_log  # benchmarks/played.py

from bot.ratings import display_rating
from bot.sessions import SessionManager
from bot.storage import open_storage
from bot.storage.sql.bulk import BulkLoad
from bot.storage.sql.tables import table
from bot.storage.types import NewEvent
from bot.storage.urls import PostgresUrl, SqliteUrl, parse_database_url
from puluc import Game, Move, Position, Rules, Throw

DAY = 86400.0
RUNNING_FIRST_ID = 10_000_000  # running games' ids, above the finished ones
CHUNK = 50_000  # finished games generated and loaded at a time
SAMPLES = {"leaderboard": 400, "rank": 400, "profile": 100, "history": 100, "move": 400, "commit": 400}
MEASURED = tuple(SAMPLES)


def goals(backend: str) -> dict[str, float]:
    return {"leaderboard": 5.0, "rank": 5.0, "move": 3.0 if backend == "sqlite" else 5.0}


def load_average() -> str:
    return "load {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


def rows(name: str, **values: Any) -> tuple[Any, ...]:
    """A row of table `name` in its column order (columns not given are NULL)."""
    return tuple(values.get(column) for column in table(name).columns)


def _chunks(n: int, size: int) -> Iterator[range]:
    for start in range(0, n, size):
        yield range(start, min(n, start + size))


# --- filling ------------------------------------------------------------------------------------------------


class Filler:
    """Generates the benchmark's data (seeded) and loads it through the bot's bulk loader."""

    def __init__(self, players: int, games: int, guilds: int, running: int, now: float) -> None:
        self.players, self.games, self.guilds, self.running, self.now = players, games, guilds, running, now
        self.rng = random.Random(6)
        self.members: dict[int, list[int]] = {}
        for user in range(1, players + 1):
            self.members.setdefault(user % guilds + 1, []).append(user)
        # (ladder, scope, user) -> [games, wins, draws, losses, last_played]
        self.tally: dict[tuple[str, int, int], list[float]] = {}

    async def fill(self, bulk: BulkLoad, say: Callable[[str], None]) -> None:
        now = self.now
        await bulk.load(table("guilds"), [rows("guilds", guild_id=g, created_at=now - 400 * DAY)
                                          for g in range(1, self.guilds + 1)])
        await bulk.load(table("players"), [
            rows("players", user_id=u, display_name=f"player{u}", last_active=now - self.rng.random() * 90 * DAY,
                 created_at=now - 400 * DAY)
            for u in range(1, self.players + 1)
        ])
        for chunk in _chunks(self.games, CHUNK):
            await self._finished(bulk, chunk)
            say(f"{chunk.stop:,} of {self.games:,} finished games")
        await bulk.load(table("ratings"), [
            rows("ratings", ladder=ladder, scope=scope, user_id=user, mu=(mu := 25 + self.rng.gauss(0, 3)),
                 sigma=(sigma := max(0.9, 8.33 / (1 + n) ** 0.5)), conservative=mu - 3 * sigma, games=n, wins=w,
                 draws=d, losses=lo, last_played=last)
            for (ladder, scope, user), (n, w, d, lo, last) in self.tally.items()
        ])
        await self._running(bulk)

    async def _finished(self, bulk: BulkLoad, chunk: range) -> None:
        rng, now, span = self.rng, self.now, 365 * DAY
        games, seats, history = [], [], []
        for game_id in (i + 1 for i in chunk):
            guild = rng.randint(1, self.guilds)
            team = rng.random() < 0.2
            users = rng.sample(self.members[guild], 4 if team else 2)
            finished = now - span + span * game_id / self.games
            winner = None if rng.random() < 0.02 else rng.choice("AB")
            ranked = rng.random() < 0.9
            games.append(rows(
                "games", game_id=game_id, guild_id=guild, channel_id=1000 + guild, in_thread=False,
                message_id=5_000_000 + game_id, status="finished", host_id=users[0], ranked=ranked,
                variant=rng.choice(("bell", "bell", "ants", "eagle", "fire")), rules_json="{}", first_team="A",
                turn_timer_seconds=120, last_seq=0, snapshot_seq=0, winner=winner, score_a=rng.randint(0, 5),
                score_b=rng.randint(0, 5), end_reason="normal", created_at=finished - 900, updated_at=finished,
                finished_at=finished,
            ))
            for seat, user in zip(("A1", "B1", "A2", "B2"), users, strict=False):
                seats.append(rows("seats", game_id=game_id, seat=seat, user_id=user, display_name=f"player{user}",
                                  consecutive_timeouts=0, kills=rng.randint(0, 5)))
                if not ranked:
                    continue
                result = "draw" if winner is None else ("win" if winner == seat[0] else "loss")
                ladder = "team" if team else "duel"
                for scope in (0, guild):
                    t = self.tally.setdefault((ladder, scope, user), [0, 0, 0, 0, 0.0])
                    t[0] += 1
                    t[{"win": 1, "draw": 2, "loss": 3}[result]] += 1
                    t[4] = finished
                    mu, sigma = 25 + rng.gauss(0, 3), max(0.9, 8.33 / (1 + t[0]) ** 0.5)
                    shown = display_rating(mu, sigma)
                    history.append(rows(
                        "rating_history", user_id=user, ladder=ladder, scope=scope, game_id=game_id,
                        played_at=finished, result=result, mu_before=mu, sigma_before=sigma, mu_after=mu,
                        sigma_after=sigma, rating_before=shown, rating_after=shown,
                        opponent_rating=1500 + rng.randint(0, 700),
                    ))
        await bulk.load(table("games"), games)
        await bulk.load(table("seats"), seats)
        await bulk.load(table("rating_history"), history)

    async def _running(self, bulk: BulkLoad) -> None:
        """Running games with real puluc logs, each waiting for a human's move (the bot throws for the player
        after every move, so a stored game never waits for a throw)."""
        rng, now = self.rng, self.now
        games: list[tuple[Any, ...]] = []
        seats: list[tuple[Any, ...]] = []
        events: list[tuple[Any, ...]] = []
        game_id = RUNNING_FIRST_ID
        while len(games) < self.running:
            game_id += 1
            team = game_id % 5 == 0
            rules = Rules.preset(rng.choice(["bell", "ants", "fire"]), team_size=2 if team else 1)
            game = Game.new(rules, rng, seed=game_id)
            log = running_log(game, rng)
            if log is None:
                continue  # it ended on the way: only games still being played are stored as running
            guild = game_id % self.guilds + 1
            users = rng.sample(self.members[guild], len(rules.seats))
            games.append(rows(
                "games", game_id=game_id, guild_id=guild, channel_id=2_000_000 + game_id, in_thread=False,
                message_id=9_000_000 + game_id, status="running", host_id=users[0], ranked=True, variant="bell",
                rules_json=json.dumps(rules.to_dict()), first_team=game.record.first,
                throw_off_json=json.dumps([[a.code, b.code] for a, b in game.record.throw_off]), seed=game_id,
                turn_timer_seconds=600, turn_deadline=now + 600, last_seq=len(log),
                snapshot_ppn=game.position.to_ppn(), snapshot_seq=len(log), created_at=now - 600, updated_at=now,
            ))
            for seat, user in zip(rules.seats, users, strict=True):
                seats.append(rows("seats", game_id=game_id, seat=seat, user_id=user, display_name=f"player{user}",
                                  consecutive_timeouts=0))
            events += [rows("events", game_id=game_id, seq=seq, kind=kind, payload=json.dumps(payload),
                            created_at=now) for seq, (kind, payload) in enumerate(log, start=1)]
        await bulk.load(table("games"), games)
        await bulk.load(table("seats"), seats)
        await bulk.load(table("events"), events)


async def fill(url: str, args: argparse.Namespace, now: float) -> None:
    storage = await open_storage(url, clock=lambda: now)
    try:
        if any((await storage.tables.row_counts()).values()):
            raise SystemExit(f"{storage.where} is not empty; give an empty database, or --reuse to measure it")
        started = time.perf_counter()

        def say(progress: str) -> None:
            print(f"  filled {progress} ({time.perf_counter() - started:.0f} s, {load_average()})", flush=True)

        async with storage.tables.bulk_load() as bulk:
            await Filler(args.players, args.games, args.guilds, args.running, now).fill(bulk, say)
        await storage.tables.rebuild_ladder_counts()
        await storage.tables.rebuild_player_totals()
        print(f"filled {args.players:,} players, {args.games:,} finished games, {args.running:,} running games "
              f"in {time.perf_counter() - started:.0f} s ({load_average()})", flush=True)
    finally:
        await storage.close()
    started = time.perf_counter()
    await refresh_statistics(url)
    print(f"statistics refreshed in {time.perf_counter() - started:.0f} s (ANALYZE; PostgreSQL: VACUUM ANALYZE, "
          "so index-only scans see an up-to-date visibility map)", flush=True)


async def refresh_statistics(url: str) -> None:
    """What an operator (or autovacuum, later) does after a bulk load."""
    parsed = parse_database_url(url)
    if isinstance(parsed, SqliteUrl):
        conn = sqlite3.connect(parsed.path)
        conn.execute("ANALYZE")
        conn.close()
        return
    assert isinstance(parsed, PostgresUrl)
    pg = await asyncpg.connect(parsed.dsn)
    try:
        await pg.execute("VACUUM ANALYZE")
    finally:
        await pg.close()


# --- measuring ----------------------------------------------------------------------------------------------


async def _no_ai(position: Position, level: str, rng: random.Random) -> Move:
    raise AssertionError("the benchmark's running games have no AI seat")


async def timed(samples: int, action: Callable[[int], Awaitable[object]]) -> list[float]:
    """Milliseconds of each call, after one untimed call (imports, the first pages: a running bot has them)."""
    await action(samples)
    times = []
    for i in range(samples):
        started = time.perf_counter()
        await action(i)
        times.append((time.perf_counter() - started) * 1000)
    return times


async def measure(url: str, players: int, guilds: int, client: int, clients: int) -> dict[str, Any]:
    """Every measurement of one client; `client` of `clients` plays its own share of the running games."""
    rng = random.Random(1000 + client)
    storage = await open_storage(url)
    results: dict[str, Any] = {"load_before": load_average()}
    try:
        manager = SessionManager(storage.games, picker=_no_ai)
        started, cpu = time.perf_counter(), time.process_time()
        loaded = await manager.load()
        results["reload_s"] = time.perf_counter() - started
        results["reload_cpu_s"] = time.process_time() - cpu  # this process's own work, whatever the load
        results["reloaded"] = loaded

        def caller(scope: int) -> int:
            """A player of server `scope` (users u with u % guilds + 1 == scope), or anyone for the global one."""
            return rng.randrange((scope - 1) or guilds, players + 1, guilds) if scope else rng.randint(1, players)

        # Two in three calls ask a server's ladder, one the global one; one in four the team ladder.
        scopes = [0 if i % 3 == 0 else rng.randint(1, guilds) for i in range(SAMPLES["leaderboard"] + 1)]
        ladders = storage.ladders
        results["leaderboard"] = await timed(
            SAMPLES["leaderboard"],
            lambda i: ladders.leaderboard("team" if i % 4 == 0 else "duel", scopes[i], caller_id=caller(scopes[i])),
        )
        users = [rng.randint(1, players) for _ in range(SAMPLES["rank"] + 1)]
        results["rank"] = await timed(
            SAMPLES["rank"], lambda i: storage.ladders.standing(users[i], "duel", 0 if i % 2 else users[i] % guilds + 1)
        )
        results["profile"] = await timed(
            SAMPLES["profile"], lambda i: storage.players.profile(users[i], users[i] % guilds + 1)
        )
        results["history"] = await timed(SAMPLES["history"], lambda i: storage.players.game_history(users[i], 10))
        mine = [
            game_id for game_id, session in sorted(manager._sessions.items())
            if game_id % clients == client and session.state.to_move is not None
            and session.state.to_move.user_id is not None
        ]
        samples = min(SAMPLES["move"], len(mine) - 1)

        async def move(i: int) -> None:
            session = manager.get(mine[i])
            state = session.state
            mover = state.to_move
            assert mover is not None and mover.user_id is not None
            await session.play(mover.user_id, rng.choice(state.legal_options()).notation, turn=state.seq)

        results["move"] = await timed(samples, move)

        # The storage part of a move alone: the same transaction (a real move and the throws after it, as
        # the session records them, with snapshot and deadline) appended straight to the repository, on the
        # games this client played once above. The engine's work is done before the timing.
        pending = []
        for game_id in mine:
            state = manager.get(game_id).state if game_id in manager._sessions else None
            if state is not None and state.position is not None and not state.position.is_over:
                found = next_events(state.position, rng)
                if found is not None:
                    pending.append((game_id, state.seq, *found))

        async def commit(i: int) -> None:
            game_id, last_seq, events, snapshot = pending[i]
            await storage.games.append_events(game_id, last_seq + 1, events, snapshot_ppn=snapshot,
                                        turn_deadline=time.time() + 600)

        results["commit"] = await timed(min(samples, len(pending) - 1), commit)
        results["load_after"] = load_average()
    finally:
        await storage.close()
    return results


def next_events(position: Position, rng: random.Random) -> tuple[list[NewEvent], str] | None:
    """A random legal move that does not end the game and the throws that follow it until someone can move
    (as the session records them: bot/sessions/play.py), and the position after them; None if every move ends
    the game (finishing it is another transaction)."""
    going_on = [move for move in position.legal_moves() if not position.play(move).is_over]
    if not going_on:
        return None
    move = rng.choice(going_on)
    position = position.play(move)
    events = [NewEvent("move", {"move": str(move)})]
    while not position.is_over and position.must_throw:
        seat = position.to_move
        throws = [Throw.roll(rng, position.rules.sticks) for _ in range(position.rules.throws_per_turn)]
        position = position.throw(throws)
        events.append(NewEvent("throw", {"seat": seat, "faces": [t.code for t in throws],
                                         "values": [t.value for t in throws]}))
    return events, position.to_ppn()


def report(name: str, times: list[float], goal: float | None, who: str = "") -> None:
    p95 = percentile(times, 95)
    verdict = "" if goal is None else f"  goal p95 <= {goal:.0f} ms: {'met' if p95 <= goal else 'MISSED'}"
    print(f"{who}{name:12s} n={len(times):4d}  p50 {percentile(times, 50):7.3f} ms  p95 {p95:7.3f} ms{verdict}")


def print_results(results: dict[str, Any], backend: str, running: int, who: str = "") -> None:
    reload_ok = results["reload_s"] <= 2.0 and results["reloaded"] >= running * 0.9
    print(f"{who}reload       {results['reloaded']} running games in {results['reload_s']:.3f} s "
          f"({results['reload_cpu_s']:.3f} s of CPU in this process)  goal <= 2 s: {'met' if reload_ok else 'MISSED'}")
    for name in MEASURED:
        report(name, results[name], goals(backend).get(name), who)
    print(f"{who}({results['load_before']} before, {results['load_after']} after)")


_barrier: Any = None


def _start_client(barrier: Any) -> None:
    global _barrier
    _barrier = barrier


def _client(url: str, players: int, guilds: int, client: int, clients: int) -> dict[str, Any]:
    _barrier.wait()  # every client starts measuring at the same moment
    return asyncio.run(measure(url, players, guilds, client, clients))


def disk_sync_ms(directory: Path, samples: int = 200) -> list[float]:
    """Milliseconds of one 4 KiB write + fsync in `directory`: the floor under every durable commit there."""
    path = directory / f".storage_bench_fsync_{os.getpid()}"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    times = []
    try:
        for _ in range(samples):
            os.write(fd, b"x" * 4096)
            started = time.perf_counter()
            os.fsync(fd)
            times.append((time.perf_counter() - started) * 1000)
    finally:
        os.close(fd)
        path.unlink()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", required=True, help="an empty database (sqlite:///... or postgresql://...)")
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--running", type=int, default=1_000)
    parser.add_argument("--guilds", type=int, default=1_000)
    parser.add_argument("--clients", type=int, default=1, help="measure with this many processes at once")
    parser.add_argument("--reuse", action="store_true", help="measure an already filled database again")
    args = parser.parse_args()
    backend = "sqlite" if isinstance(parse_database_url(args.database_url), SqliteUrl) else "postgresql"
    print(f"{backend} at {parse_database_url(args.database_url).where}; python {sys.version.split()[0]}; "
          f"{os.cpu_count()} cpus; {load_average()}", flush=True)
    if not args.reuse:
        asyncio.run(fill(args.database_url, args, time.time()))
    database = parse_database_url(args.database_url)
    if isinstance(database, SqliteUrl):
        report("disk fsync", disk_sync_ms(database.path.absolute().parent), None)
    if args.clients == 1:
        print_results(asyncio.run(measure(args.database_url, args.players, args.guilds, 0, 1)), backend,
                      args.running)
        return
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(args.clients)
    with ProcessPoolExecutor(args.clients, mp_context=context, initializer=_start_client,
                             initargs=(barrier,)) as pool:
        futures = [pool.submit(_client, args.database_url, args.players, args.guilds, c, args.clients)
                   for c in range(args.clients)]
        every = [future.result() for future in futures]
    for client, results in enumerate(every):
        print_results(results, backend, args.running, f"[client {client + 1}/{args.clients}] ")
    for name in MEASURED:
        report(name, [t for results in every for t in results[name]], goals(backend).get(name), "[all clients] ")


if __name__ == "__main__":
    main()

