"""Start-up of one bot process among several: `python benchmarks/startup.py --database-url URL`.

Fills an empty database with running games that have real puluc logs (about 40 events each): `--own` of them
(default 10,000) on this process's shard and `--others` (default 50,000) on the other shard of a deployment of
two. Then a fresh child process opens the database and reloads the open games of its shard exactly as the bot
does at start-up (`SessionManager.load` with `Shards(2, (0,))`), and prints:

  the reload's wall time, how many games it loaded, and the child's resident memory (RSS) before the reload,
  after it, and at its peak (ru_maxrss), with the load average.

`--code DIR` runs the fill and the measurement with the bot code of another checkout (the same database file
layout must be used by both: give each its own --database-url), so one command compares before and after:

    python benchmarks/startup.py --database-url sqlite:////tmp/startup_after.db
    python benchmarks/startup.py --database-url sqlite:////tmp/startup_before.db --code /path/to/main
    python benchmarks/startup.py --database-url postgresql://postgres@127.0.0.1:5432/bench_startup --reuse

`--reuse` measures an already filled database again (several runs; only the measurement). Run it niced
(`nice -n 10`); it prints numbers and never asserts. Speed is this script's business; the tests assert only
what start-up reads (tests/bot/storage/test_contract_startup.py).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

SHARD_COUNT = 2  # the deployment: this process runs shard 0, another process shard 1
GUILDS_PER_SHARD = 100
LOG_POOL = 300  # distinct game logs generated; the games reuse them (a replay does not care whose log it is)
CHUNK = 5_000  # games loaded at a time


def load_average() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.2f} {five:.2f}"


def rss_mb() -> float:
    """This process's resident memory now (VmRSS), in MiB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def guild_on(shard: int, n: int) -> int:
    """The n-th server of `shard` (Discord routes a server to (guild_id >> 22) % shard count)."""
    return ((n * SHARD_COUNT + shard) << 22) + 1


# --- filling ------------------------------------------------------------------------------------------------


def game_logs(count: int, seed: int = 27) -> list[dict[str, Any]]:
    """`count` running games' logs, made by real play (throws and moves), each still waiting for a move."""
    from played import running_log  # benchmarks/played.py

    from puluc import Game, Rules

    rng = random.Random(seed)
    logs: list[dict[str, Any]] = []
    while len(logs) < count:
        rules = Rules.preset(rng.choice(["bell", "ants", "fire"]))
        game = Game.new(rules, rng, seed=len(logs))
        log = running_log(game, rng)
        if log is None:
            continue
        logs.append({
            "rules": json.dumps(rules.to_dict()), "first": game.record.first,
            "throw_off": json.dumps([[a.code, b.code] for a, b in game.record.throw_off]),
            "ppn": game.position.to_ppn(), "events": [(kind, json.dumps(payload)) for kind, payload in log],
            "seats": rules.seats,
        })
    return logs


async def fill(url: str, own: int, others: int) -> None:
    from bot.storage import open_storage
    from bot.storage.sql.tables import table

    def rows(name: str, **values: Any) -> tuple[Any, ...]:
        return tuple(values.get(column) for column in table(name).columns)

    now = time.time()
    storage = await open_storage(url)
    try:
        if any((await storage.tables.row_counts()).values()):
            raise SystemExit(f"{storage.where} is not empty; give an empty database, or --reuse to measure it")
        started = time.perf_counter()
        logs = game_logs(LOG_POOL)
        guilds = [guild_on(shard, n) for shard in range(SHARD_COUNT) for n in range(GUILDS_PER_SHARD)]
        async with storage.tables.bulk_load() as bulk:
            await bulk.load(table("guilds"), [rows("guilds", guild_id=g, created_at=now) for g in guilds])
            users = 2 * 400
            await bulk.load(table("players"), [rows("players", user_id=u, display_name=f"player{u}",
                                                    last_active=now, created_at=now) for u in range(1, users + 1)])
            total = own + others
            for start in range(0, total, CHUNK):
                games, seats, events = [], [], []
                for game_id in range(start + 1, min(total, start + CHUNK) + 1):
                    shard = 0 if game_id <= own else 1
                    guild = guild_on(shard, game_id % GUILDS_PER_SHARD)
                    log = logs[game_id % len(logs)]
                    games.append(rows(
                        "games", game_id=game_id, guild_id=guild, channel_id=3_000_000 + game_id, in_thread=False,
                        message_id=9_000_000 + game_id, status="running", host_id=None, ranked=False,
                        variant="bell", rules_json=log["rules"], first_team=log["first"],
                        throw_off_json=log["throw_off"], seed=game_id, turn_timer_seconds=600,
                        turn_deadline=now + 600, last_seq=len(log["events"]), snapshot_ppn=log["ppn"],
                        snapshot_seq=len(log["events"]), created_at=now - 600, updated_at=now,
                    ))
                    for i, seat in enumerate(log["seats"]):
                        user = 1 + (game_id * 2 + i) % users
                        seats.append(rows("seats", game_id=game_id, seat=seat, user_id=user,
                                          display_name=f"player{user}", consecutive_timeouts=0, kills=0))
                    events += [rows("events", game_id=game_id, seq=seq, kind=kind, payload=payload, created_at=now)
                               for seq, (kind, payload) in enumerate(log["events"], start=1)]
                await bulk.load(table("games"), games)
                await bulk.load(table("seats"), seats)
                await bulk.load(table("events"), events)
                print(f"  filled {min(total, start + CHUNK):,} of {total:,} games "
                      f"({time.perf_counter() - started:.0f} s, {load_average()})", flush=True)
        print(f"filled {own:,} running games on this shard and {others:,} on the other "
              f"in {time.perf_counter() - started:.0f} s ({load_average()})", flush=True)
    finally:
        await storage.close()


# --- measuring (in a fresh child process) -------------------------------------------------------------------


async def measure(url: str) -> dict[str, Any]:
    from bot.sessions import SessionManager
    from bot.storage import open_storage
    from bot.storage.shards import Shards

    async def no_ai(*_: object) -> Any:
        raise AssertionError("start-up does not move")

    storage = await open_storage(url)
    try:
        before = rss_mb()
        manager = SessionManager(storage.games, picker=no_ai, shards=Shards(SHARD_COUNT, (0,)))
        started = time.perf_counter()
        loaded = await manager.load()
        seconds = time.perf_counter() - started
        after = rss_mb()
    finally:
        await storage.close()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"loaded": loaded, "seconds": seconds, "rss_before": before, "rss_after": after, "rss_peak": peak}


def run_child(args: argparse.Namespace, *extra: str) -> subprocess.CompletedProcess[str]:
    # The child imports `bot` from the checkout measured, ahead of any installed copy.
    code = Path(args.code or Path(__file__).resolve().parents[1]).resolve()
    env = {**os.environ, "PYTHONPATH": str(code)}
    command = [sys.executable, str(Path(__file__).resolve()), "--database-url", args.database_url, *extra]
    return subprocess.run(command, env=env, check=True, text=True, capture_output=extra[0] == "--measure-child",
                          cwd=code)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--own", type=int, default=10_000, help="running games on this process's shard")
    parser.add_argument("--others", type=int, default=50_000, help="running games on the other shard")
    parser.add_argument("--runs", type=int, default=3, help="measurements, each in a fresh process")
    parser.add_argument("--reuse", action="store_true", help="measure an already filled database")
    parser.add_argument("--code", help="a checkout whose bot code fills and measures (default: this one)")
    parser.add_argument("--fill-child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--measure-child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.fill_child:
        asyncio.run(fill(args.database_url, args.own, args.others))
        return
    if args.measure_child:
        print(json.dumps(asyncio.run(measure(args.database_url))))
        return
    who = f"the code of {args.code}" if args.code else "this checkout's code"
    print(f"start-up benchmark, {who}, {args.database_url}", flush=True)
    if not args.reuse:
        run_child(args, "--fill-child", "--own", str(args.own), "--others", str(args.others))
    for run in range(1, args.runs + 1):
        found = json.loads(run_child(args, "--measure-child").stdout.strip().splitlines()[-1])
        print(f"run {run}: reloaded {found['loaded']:,} games in {found['seconds']:.2f} s; RSS "
              f"{found['rss_before']:.0f} MiB before, {found['rss_after']:.0f} MiB after, peak "
              f"{found['rss_peak']:.0f} MiB ({load_average()})", flush=True)


if __name__ == "__main__":
    main()
