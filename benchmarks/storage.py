"""Storage speed at scale: `python benchmarks/storage.py [--players N] [--games N] [--running N]`.

Fills a fresh SQLite file through the bot's own schema with players, finished games (seats, results, ladder
ratings and rating history) and running games (real puluc logs with snapshots), then measures through the
async `Store` API and prints p50/p95 against the goals of issue 6:

  top-10 leaderboard query p95 <= 5 ms, a player's rank lookup p95 <= 5 ms,
  committing one move event p95 <= 3 ms (synchronous=FULL, i.e. fsync per commit),
  rebuilding 1,000 running games on start-up (load + replay + snapshot check) <= 2 s.

The bulk fill uses plain sqlite3 in big transactions (it is set-up, not what is measured). Finished games are
stored without their move-by-move logs; running games have full logs. Prints numbers; never asserts.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

from percentiles import percentile  # benchmarks/percentiles.py: the one definition

from bot.sessions import SessionManager, engine_picker
from bot.storage.ratings import PROVISIONAL_GAMES, display_rating
from bot.storage.sqlite.schema import REBUILD_LADDER_COUNTS
from bot.storage.sqlite.store import open_store
from puluc import Game, Rules

DAY = 86400.0
GOALS_MS = {"leaderboard top-10": 5.0, "rank lookup": 5.0, "commit one move event": 3.0}


def _chunks(n: int, size: int) -> Iterator[range]:
    for start in range(0, n, size):
        yield range(start, min(n, start + size))


def fill(path: Path, players: int, games: int, guilds: int, now: float, rng: random.Random) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA synchronous = OFF")  # bulk set-up only; the store itself runs with FULL
    conn.execute("PRAGMA cache_size = -400000")
    conn.execute("PRAGMA foreign_keys = OFF")  # rows are generated consistent; checked once at the end
    conn.execute("BEGIN")
    conn.executemany(
        "INSERT INTO guilds (guild_id, created_at) VALUES (?, ?)", [(g, now - 400 * DAY) for g in range(1, guilds + 1)]
    )
    conn.executemany(
        "INSERT INTO players VALUES (?, ?, ?, ?)",
        [(u, f"player{u}", now - rng.random() * 90 * DAY, now - 400 * DAY) for u in range(1, players + 1)],
    )
    members: dict[int, list[int]] = {}
    for u in range(1, players + 1):
        members.setdefault(u % guilds + 1, []).append(u)
    # (ladder, scope, user) -> [games, wins, draws, losses, last_played]
    tally: dict[tuple[str, int, int], list[float]] = {}
    span = 365 * DAY
    for chunk in _chunks(games, 50_000):
        game_rows, seat_rows, history_rows = [], [], []
        for game_id in (i + 1 for i in chunk):
            guild = rng.randint(1, guilds)
            team = rng.random() < 0.2
            users = rng.sample(members[guild], 4 if team else 2)
            finished = now - span + span * game_id / games
            winner = None if rng.random() < 0.02 else rng.choice("AB")
            ranked = rng.random() < 0.9
            game_rows.append(
                (
                    game_id,
                    guild,
                    1000 + guild,
                    0,
                    5_000_000 + game_id,
                    "finished",
                    users[0],
                    int(ranked),
                    rng.choice(("bell", "bell", "ants", "eagle", "fire")),
                    "{}",
                    "A",
                    120,
                    40,
                    rng.randint(0, 5),
                    rng.randint(0, 5),
                    winner,
                    "normal",
                    finished - 900,
                    finished,
                    finished,
                )
            )
            seats = ["A1", "B1", "A2", "B2"][: len(users)]
            for seat, user in zip(seats, users, strict=True):
                seat_rows.append((game_id, seat, user, f"player{user}", rng.randint(0, 5)))
                if not ranked:
                    continue
                result = "draw" if winner is None else ("win" if winner == seat[0] else "loss")
                ladder = "team" if team else "duel"
                for scope in (0, guild):
                    t = tally.setdefault((ladder, scope, user), [0, 0, 0, 0, 0.0])
                    t[0] += 1
                    t[{"win": 1, "draw": 2, "loss": 3}[result]] += 1
                    t[4] = finished
                    mu, sigma = 25 + rng.gauss(0, 3), max(0.9, 8.33 / (1 + t[0]) ** 0.5)
                    shown = display_rating(mu, sigma)
                    history_rows.append(
                        (
                            user,
                            ladder,
                            scope,
                            game_id,
                            finished,
                            result,
                            mu,
                            sigma,
                            mu,
                            sigma,
                            shown,
                            shown,
                            1500 + rng.randint(0, 700),
                        )
                    )
        conn.executemany(
            "INSERT INTO games (game_id, guild_id, channel_id, in_thread, message_id, status, host_id, ranked, "
            "variant, rules_json, first_team, turn_timer_seconds, last_seq, score_a, score_b, winner, end_reason, "
            "created_at, updated_at, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            game_rows,
        )
        conn.executemany(
            "INSERT INTO seats (game_id, seat, user_id, display_name, kills) VALUES (?, ?, ?, ?, ?)", seat_rows
        )
        conn.executemany("INSERT INTO rating_history VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", history_rows)
    rating_rows = []
    for (ladder, scope, user), (n, w, d, lo, last) in tally.items():
        mu, sigma = 25 + rng.gauss(0, 3), max(0.9, 8.33 / (1 + n) ** 0.5)
        rating_rows.append((ladder, scope, user, mu, sigma, mu - 3 * sigma, n, w, d, lo, last))
    conn.executemany("INSERT INTO ratings VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rating_rows)
    for statement in REBUILD_LADDER_COUNTS:
        conn.execute(statement, {"min_games": PROVISIONAL_GAMES} if ":min_games" in statement else {})
    conn.execute("COMMIT")
    conn.execute("ANALYZE")
    conn.close()


def fill_running(path: Path, running: int, first_id: int, now: float, rng: random.Random) -> None:
    """Running games with real puluc logs (throws and moves) and the snapshot after the last event."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA synchronous = OFF")
    conn.execute("BEGIN")
    for game_id in range(first_id, first_id + running):
        team = game_id % 5 == 0
        rules = Rules.preset(rng.choice(["bell", "ants", "fire"]), team_size=2 if team else 1)
        game = Game.new(rules, rng, seed=game_id)
        events: list[tuple[str, dict[str, Any]]] = []
        target = rng.randint(20, 60)
        while len(events) < target and game.outcome() is None:
            if game.position.must_throw:
                throws = game.roll(rng)
                events.append(("throw", {"throw": [t.value for t in throws], "faces": [t.code for t in throws]}))
            else:
                move = rng.choice(game.position.legal_moves())
                game.play(move)
                events.append(("move", {"move": str(move)}))
        seats = list(rules.seats)
        conn.execute(
            "INSERT INTO games (game_id, guild_id, channel_id, in_thread, message_id, status, host_id, ranked, "
            "variant, rules_json, first_team, throw_off_json, seed, turn_timer_seconds, turn_deadline, last_seq, "
            "snapshot_ppn, snapshot_seq, created_at, updated_at) "
            "VALUES (?, 1, 1001, 0, ?, 'running', 1, 1, 'bell', ?, ?, ?, ?, 120, ?, ?, ?, ?, ?, ?)",
            (
                game_id,
                9_000_000 + game_id,
                json.dumps(rules.to_dict()),
                game.record.first,
                json.dumps([[a.code, b.code] for a, b in game.record.throw_off]),
                game_id,
                now + 120,
                len(events),
                game.position.to_ppn(),
                len(events),
                now - 600,
                now,
            ),
        )
        for i, seat in enumerate(seats):
            conn.execute(
                "INSERT INTO seats (game_id, seat, user_id, display_name) VALUES (?, ?, ?, ?)",
                (game_id, seat, 1 + i + 4 * (game_id % 1000), f"player{1 + i}"),
            )
        conn.executemany(
            "INSERT INTO events VALUES (?, ?, ?, ?, ?)",
            [(game_id, seq, kind, json.dumps(payload), now) for seq, (kind, payload) in enumerate(events, start=1)],
        )
    conn.execute("COMMIT")
    conn.close()


async def timed(samples: int, action: Callable[[int], Awaitable[object]]) -> list[float]:
    times = []
    for i in range(samples):
        start = time.perf_counter()
        await action(i)
        times.append((time.perf_counter() - start) * 1000)
    return times


def report(name: str, times: list[float]) -> None:
    p95 = percentile(times, 95)
    goal = GOALS_MS.get(name)
    verdict = "" if goal is None else f" (goal <= {goal:.0f} ms: {'met' if p95 <= goal else 'MISSED'})"
    print(f"{name:28s} p50 {percentile(times, 50):7.3f} ms   p95 {p95:7.3f} ms{verdict}")


async def measure(path: Path, players: int, running: int, guilds: int, now: float, rng: random.Random) -> None:
    store = await open_store(path, clock=lambda: now)
    try:
        # Exactly what the bot runs at start-up: the session manager reading and replaying every open game.
        manager = SessionManager(store, picker=engine_picker(10), clock=lambda: now)
        start = time.perf_counter()
        loaded = await manager.load()
        seconds = time.perf_counter() - start
        failed = running - loaded
        print(
            f"{'reload open games':28s} {loaded} games ({failed} failed) in {seconds:.3f} s "
            f"(goal <= 2 s for 1,000: {'met' if seconds <= 2 and not failed else 'MISSED'})"
        )
        eligible = await store.leaderboard("duel", 0)
        print(
            f"global duel leaderboard: {len(eligible.entries)} rows on page 1; eligible = >= "
            f"{PROVISIONAL_GAMES} ranked games and active in 30 days"
        )
        report("leaderboard top-10", await timed(300, lambda i: store.leaderboard("duel", 0)))
        report("leaderboard top-10 (team)", await timed(300, lambda i: store.leaderboard("team", 0)))
        report(
            "leaderboard top-10 (guild)", await timed(300, lambda i: store.leaderboard("duel", rng.randint(1, guilds)))
        )
        report("leaderboard page 50", await timed(100, lambda i: store.leaderboard("duel", 0, 49)))
        users = [rng.randint(1, players) for _ in range(500)]
        report("rank lookup", await timed(500, lambda i: store.standing(users[i], "duel", 0)))
        report("profile", await timed(100, lambda i: store.profile(users[i], 1)))
        # One real next event (throw or move) per running game, prepared outside the timing.
        pending = []
        for session in manager.sessions:
            pos = session.state.position
            if pos is None or pos.outcome() is not None:
                continue
            if pos.must_throw:
                values = [rng.choice([1, 2, 3, 4]) for _ in range(pos.rules.throws_per_turn)]
                kind, payload, nxt = "throw", {"throw": values}, pos.throw(values)
            else:
                move = rng.choice(pos.legal_moves())
                kind, payload, nxt = "move", {"move": str(move)}, pos.play(move)
            pending.append((session.game_id, session.state.seq + 1, kind, payload, nxt.to_ppn()))
        report(
            "commit one move event",
            await timed(
                min(500, len(pending)),
                lambda i: store.append_event(
                    pending[i][0],
                    pending[i][1],
                    pending[i][2],
                    pending[i][3],
                    snapshot_ppn=pending[i][4],
                    turn_deadline=now + 120,
                ),
            ),
        )
        print(f"integrity_check: {await store.integrity_check()}")
    finally:
        await store.close()


async def create_schema(path: Path) -> None:
    await (await open_store(path)).close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--running", type=int, default=1_000)
    parser.add_argument("--guilds", type=int, default=500)
    parser.add_argument("--db", type=Path, help="database file (default: a temporary one, deleted after)")
    parser.add_argument("--reuse", action="store_true", help="measure an already filled --db file again")
    args = parser.parse_args()
    if args.reuse:
        if args.db is None or not args.db.exists():
            parser.error("--reuse needs an existing --db file")
        asyncio.run(measure(args.db, args.players, args.running, args.guilds, time.time(), random.Random(7)))
        return
    if args.db is not None and args.db.exists():
        parser.error(f"{args.db} exists; the benchmark fills a fresh file (or pass --reuse)")
    rng = random.Random(6)
    now = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        path = args.db or Path(tmp) / "bench.db"
        asyncio.run(create_schema(path))
        start = time.perf_counter()
        fill(path, args.players, args.games, args.guilds, now, rng)
        fill_running(path, args.running, args.games + 1, now, rng)
        size = path.stat().st_size / 1e6
        print(
            f"filled {args.players:,} players, {args.games:,} finished games, {args.running:,} running games "
            f"in {time.perf_counter() - start:.0f} s ({size:,.0f} MB)"
        )
        asyncio.run(measure(path, args.players, args.running, args.guilds, now, rng))


if __name__ == "__main__":
    main()
