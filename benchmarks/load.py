"""Load benchmark: many games at once, opened within a few seconds, played by people who think or by
players who click as fast as the bot answers; in one bot process or split over several sharing PostgreSQL.

Run by hand (issue 21's goals; README, Scaling):
  (a) python benchmarks/load.py --games 200 --think 2-4 --seconds 120
      200 games opened with `/puluc challenge` within --open-within seconds, each player thinking 2-4 s
      (uniformly, seeded) before every click. Goals: every interaction acknowledged within 3 s, first
      response p99 <= 250 ms, board visible p99 <= 1,000 ms including end screens, RSS <= 300 MB per
      process plus its workers.
  (b) WORKERS=1 python benchmarks/load.py --games 50 --think 0 --seconds 60   (then WORKERS=2)
      Clicking as fast as the boards come: boards per second (goal: WORKERS=2 at least 1.8x WORKERS=1).
  (c) python benchmarks/load.py --games 200 --think 2-4 --processes 2 \\
          --database-url postgresql://postgres@127.0.0.1:5432/test
      The same load split over two bot processes, SHARD_COUNT=2 with SHARD_IDS=0 and 1, one PostgreSQL
      database (a fresh schema, dropped afterwards); the figures of both are pooled. Goals as in (a).
  (d) python benchmarks/load.py --games 200 --think 2-4 --seconds 120 --spammers 4
      As (a), plus 4 members (benchmarks/load_spammers.py) asking for hints and replays as fast as the bot lets
      them (issue 27). Goal: the players' board visible p99 stays within 1,000 ms, as in (a) without them.
  (e) WEB_SECRET=... python benchmarks/load.py --games 200 --think 2-4 --seconds 120 \
          --database-url postgresql://postgres@127.0.0.1:5432/test --web-process 8082
      As (a) on PostgreSQL with `puluc-bot web` serving the pages beside the bot (issue 30), for spectators from
      `benchmarks/web.py --spectate`. With WEB_PORT=8081 instead (SQLite or PostgreSQL), the bot serves them,
      from a process of their own that it starts (WEB_PROCESS=OWN, the default) or from its own (BOT). Goal:
      the players' board visible as without pages.
`--timeline` adds board visible per 10 s window of the run (a burst shows where it happened).
`--json` prints one JSON object instead of the table; `--clicks N` replaces the timed run by N interactions
per game, the opening command included (tests/e2e/test_load_smoke.py, which asserts no timing).

What runs: per process, the real `PulucBot` (bot/app.py: cogs, sessions, storage, renderer) with the
settings read from the environment as `puluc-bot` reads them (WORKERS, SHARD_COUNT, SHARD_IDS, ...), except
the database (a temporary SQLite file, or --database-url), the per-user command cooldown and the AI's pause
(both 0: these players are scripted), inside SimCord's in-memory Discord in the same event loop. SimCord
therefore costs CPU and memory that real Discord would not: the figures are a bound from above. While the
load runs, the bot's clock and timers follow the wall clock, as against Discord (SimCord's virtual clock would
hold every timer of a busy bot: load_players.wall_clock). In (c) each bot process has its own SimCord with its
own servers, whose ids Discord would route to that process's shard; this script starts them as children of
itself (`--child`), starts their load together and pools the samples.

Each table is one channel with two players. Its host sends `/puluc challenge opponent:<guest>` at its slot in
the opening window, the guest accepts, they play, and after the end screen the host presses Rematch, the guest
Join and the host Start, until --seconds are over. Moves are chosen with a generator seeded per table.
Interactions are injected the way Discord's gateway delivers them, without waiting for the bot to settle
(benchmarks/load_players.py tells how what a player sees is detected).

Measured per interaction, from its injection: the first response (the bot's acknowledgement: a defer, a
message or an update), the game message updated, and for a move, Accept or Start the new board visible (the
message carrying the new position's image; end screens included and also shown on their own); a game's
advantage chart from its last move. Counted: interactions, boards uploaded (per second: the throughput of the
drawing), games started and finished, acknowledgements later than 3 s (unanswered ones included), stalls
(an effect not visible within --stall s), ERROR log records and exceptions SimCord captured. Percentiles are
benchmarks/percentiles.py's. Memory: peak RSS of each bot process plus the processes below it (workers),
sampled from /proc (benchmarks/load_probes.py). CPU: the time each bot process (SimCord included) and its
workers spent during the load, per board drawn, and for one process what that CPU allows on idle cores with one
worker and with two (load_probes.board_rate_bound: why (b)'s ratio is bounded on 2 cores). The machine's load
average is printed with the figures; read them with it. This script must never tune the bot: it uses the
bot's code and settings as they are.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import secrets
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import asdict
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import discord
import simcord
from load_players import (
    Record,
    Table,
    bound_the_simulator,
    create_guild,
    drop_old_messages,
    emit_click,
    emit_slash,
    partition_ids,
    signature,
    uploads,
    wall_clock,
    web_outside_the_simulator,
)
from load_probes import CpuMeter, ErrorLog, FirstResponses, MemorySampler, board_rate_bound, machine_load
from load_spammers import Spammer, SpamRecord
from percentiles import percentile  # benchmarks/percentiles.py: the one definition

from bot.cogs.games.texts import BOARD_FILE
from bot.compute import ComputeBusy
from bot.config import Config, load_config
from bot.limits import RateLimited

SCRIPT = Path(__file__).resolve()  # each child process runs this file again
TOKEN = "MTA1NzQ4OTk4NzY1NDMyMTAxMg.GhXyZw.loadBenchmarkTokenNotReal0000"
ACK_DEADLINE_S = 3.0
FIRST_RESPONSE_P99_GOAL_MS = 250.0
BOARD_VISIBLE_P99_GOAL_MS = 1000.0
RSS_GOAL_MB = 300.0
CHANNELS_PER_GUILD = 25
READY, GO = "READY", "GO"
# discord.py's names for the tasks that run interaction handlers (app commands, views, dynamic items, events).
HANDLER_TASKS = ("CommandTree-invoker", "discord-ui-view-dispatch", "discord-ui-dynamic-item", "discord.py: ")
HANDLERS_GRACE_S = 30.0
SETUP_TIMEOUT_S = 120.0


def settings_for(database_url: str) -> Config:
    """The settings `puluc-bot` would read from this environment, with the benchmark's database and without
    the pauses meant for people (the per-user command cooldown, the AI's delay)."""
    environ = {**os.environ, "DISCORD_TOKEN": TOKEN, "DATABASE_URL": database_url,
               "COMMAND_COOLDOWN_SECONDS": "0", "AI_MOVE_DELAY_SECONDS": "0"}
    return load_config(environ, None)


def think_range(text: str) -> tuple[float, float]:
    """`2-4` -> (2.0, 4.0); `0` -> (0.0, 0.0)."""
    low, _, high = text.partition("-")
    try:
        pair = (float(low), float(high or low))
    except ValueError:
        raise argparse.ArgumentTypeError(f"--think takes seconds like 0 or 2-4, not {text!r}") from None
    if not 0 <= pair[0] <= pair[1]:
        raise argparse.ArgumentTypeError(f"--think {text}: the range must be 0 <= low <= high")
    return pair


# -- one bot process under load ----------------------------------------------------------------------------


async def set_up(bot: discord.Client, env: simcord.Env, games: int, shard: tuple[int, int] | None,
                 label: str, guilds: list[simcord.GuildHandle] | None = None) -> list[Table]:
    """The servers (added to `guilds`), channels and players, once the bot has the channels in its cache; no
    game yet (the load opens them)."""
    tables: list[Table] = []
    guild = None
    for index in range(games):
        if index % CHANNELS_PER_GUILD == 0:
            guild = create_guild(env, f"Load {label} {index // CHANNELS_PER_GUILD}", shard)
            if guilds is not None:
                guilds.append(guild)
        assert guild is not None
        channel = guild.create_text_channel(f"table{label}-{index}")
        host = guild.add_member(env.create_user(f"host{label}-{index}"))
        guest = guild.add_member(env.create_user(f"guest{label}-{index}"))
        tables.append(Table(env, channel, host, guest, seed=index))
    # Not env.settle(): it would also wait for the bot's turn timer loop, which sleeps for minutes.
    deadline = time.perf_counter() + SETUP_TIMEOUT_S
    while not all(seen_by(bot, table) for table in tables):
        if time.perf_counter() > deadline:
            raise RuntimeError(f"the bot did not see the servers, channels and players within {SETUP_TIMEOUT_S:g} s")
        await asyncio.sleep(0.05)
    return tables


def seen_by(bot: discord.Client, table: Table) -> bool:
    """Whether the bot's cache holds the table's channel (its players come with each interaction: the bot asks
    for no member intent)."""
    return bot.get_channel(table.channel.id) is not None


async def play(table: Table, record: Record, answers: FirstResponses, opens_at: float, until: float,
               think: tuple[float, float], stall: float, clicks: int | None) -> None:
    """One table's players: open at `opens_at`, then click until `until` (or `clicks` interactions)."""
    env = table.env
    made = 0

    def more() -> bool:
        return made < clicks if clicks is not None else time.perf_counter() < until

    await asyncio.sleep(max(0.0, opens_at - time.perf_counter()))
    while more():
        if made == 0:
            kind = "open"
            before, known = signature(table.game_message()), uploads(table.recent(), BOARD_FILE)
            started = time.perf_counter()
            interaction_id = emit_slash(env, table.host, table.channel, "puluc challenge", {"opponent": table.guest})
        else:
            if think[1] > 0:
                await asyncio.sleep(table.thinking.uniform(*think))
                if not more():
                    break
            click = table.next_click()
            if click is None:
                record.problems.append(f"{table.channel.name}: nothing to press after {made} interactions")
                return
            actor, stored, custom_id, values = click
            kind = custom_id.split(":")[1]
            before, known = signature(stored), uploads(table.recent(), BOARD_FILE)
            started = time.perf_counter()
            interaction_id = emit_click(env, actor, stored, custom_id, values)
        made += 1
        sample = table.begin(kind, interaction_id, started, before, known)
        settled = await table.wait(sample, stall, record)
        record.add(sample, answers.at.get(interaction_id))
        if not settled:
            record.stalled += 1
            what = "its board" if sample.updated_at is not None else "anything"
            record.problems.append(f"{table.channel.name}: {kind} showed {what} not within {stall:g} s")
            return


async def handlers_done(timeout: float) -> list[str]:  # noqa: ASYNC109 - names the handlers still running at the end
    """Wait until the bot's interaction handlers have all returned: a player may see a click's effect (and stop
    playing) while its handler still tidies up (strips an old message's buttons, records a new message).
    Returns the names of those still running after `timeout` seconds (each an error: a handler that hangs)."""
    deadline = time.perf_counter() + timeout
    while True:
        running = [task for task in asyncio.all_tasks()
                   if task.get_name().startswith(HANDLER_TASKS) and not task.done()]
        remaining = deadline - time.perf_counter()
        if not running or remaining <= 0:
            return [f"handler {task.get_name()} still running {timeout:g} s after the load" for task in running]
        await asyncio.wait(running, timeout=remaining)


async def load_one_process(games: int, database_url: str, think: tuple[float, float], seconds: float,
                           open_within: float, stall: float, clicks: int | None,
                           shard: tuple[int, int] | None = None, wait_for_go: bool = False,
                           spammers: int = 0, web_port: int | None = None) -> dict[str, Any]:
    """Run the bot with `games` tables under load and return the raw figures (lists of seconds, counts)."""
    errors = ErrorLog()
    config = settings_for(database_url)
    from bot.app import PulucBot

    label = "" if shard is None else f"-s{shard[0]}"
    with errors.installed(), MemorySampler() as memory, web_outside_the_simulator():
        bot = PulucBot(config)
        async with simcord.run(bot, check_errors=False) as env, contextlib.AsyncExitStack() as beside:
            if shard is not None:
                partition_ids(env, *shard)
            bound_the_simulator(env)
            if web_port is not None:  # the bot has migrated the database: the pages may open it
                await beside.enter_async_context(web_process(web_port, database_url))
            guilds: list[simcord.GuildHandle] = []
            tables = await set_up(bot, env, games, shard, label, guilds)
            # Spammers in the first servers, one a server in turn; each replays its own server's games.
            spam = SpamRecord()
            spamming = [Spammer(env, guilds[i % len(guilds)], i,
                                tables[(i % len(guilds)) * CHANNELS_PER_GUILD:][:CHANNELS_PER_GUILD])
                        for i in range(spammers)]
            for spammer in spamming:
                await spammer.set_up()
            by_channel = {table.channel.id: table for table in tables}
            record = Record()
            board_uploads: list[float] = []
            store = env.backend.cdn.store_attachment

            def counted(attachment_id: int, channel_id: int, filename: str, data: bytes,
                        description: str | None) -> dict[str, Any]:
                if filename == BOARD_FILE:
                    board_uploads.append(time.perf_counter())
                return store(attachment_id, channel_id, filename, data, description)

            env.backend.cdn.store_attachment = counted  # type: ignore[method-assign]

            def wake(event: str, payload: Any) -> None:
                if event in ("MESSAGE_CREATE", "MESSAGE_UPDATE"):
                    table = by_channel.get(int(payload.get("channel_id", 0)))
                    if table is not None:
                        now = time.perf_counter()
                        if event == "MESSAGE_CREATE":
                            drop_old_messages(env, table.channel.id)
                        table.observe(now, record)

            env.backend.subscribers.append(wake)
            if wait_for_go:  # the parent starts every process's load at once
                print(READY, flush=True)
                line = await asyncio.to_thread(sys.stdin.readline)
                if line.strip() != GO:
                    raise SystemExit("the parent process went away before the load started")
            answers = FirstResponses()
            load_before = machine_load()
            cpu = CpuMeter()
            with answers.installed(), wall_clock(env):
                cpu.start()
                started = time.perf_counter()
                until = started + seconds
                slot = open_within / games
                spam_tasks = [asyncio.ensure_future(spammer.run(spam, until if clicks is None else float("inf")))
                              for spammer in spamming]
                await asyncio.gather(*(play(table, record, answers, started + index * slot, until, think, stall,
                                            clicks) for index, table in enumerate(tables)))
                ended = time.perf_counter()
                for task in spam_tasks:  # with --clicks the spam ends with the tables' last click
                    task.cancel()
                spam_failures = [repr(found) for found in await asyncio.gather(*spam_tasks, return_exceptions=True)
                                 if isinstance(found, Exception)]
                used = cpu.stop()
                # The bot's own shutdown (as on SIGTERM): what is in flight finishes, the timers stop, the
                # database closes.
                hung = await handlers_done(HANDLERS_GRACE_S)
                # The bot's own shutdown (as on SIGTERM): what is in flight finishes, the timers stop, the
                # database closes.
                await bot.shutdown()
                with contextlib.suppress(TimeoutError):
                    # SimCord may still count handlers that have returned (handlers_done checked they have).
                    await env.settle(timeout=10.0)
            load_after = machine_load()
            # The spammers' refusals (a limit reached, a busy line) are answers, counted with the spam.
            captured = [repr(error) for error in env.errors if not fair_use_refusal(error)]
    record.charts_missing = sum(1 for table in tables if table.charts is not None)
    return {
        "games": games,
        "seconds": ended - started,
        "boards_uploaded": sum(1 for at in board_uploads if started <= at <= ended),
        "record": asdict(record),
        "errors": errors.records + captured + hung + spam_failures,
        "spam": asdict(spam),
        "spammers": spammers,
        "memory": asdict(memory.peaks),
        "cpu_s": asdict(used),
        "load_before": load_before,
        "load_after": load_after,
        "workers": getattr(config, "workers", None),
        "shards": None if getattr(config, "shards", None) is None else str(getattr(config, "shards", None)),
        "pid": os.getpid(),
    }


WEB_READY_S = 30.0  # how long `puluc-bot web` may take to answer /healthz


@asynccontextmanager
async def web_process(port: int, database_url: str) -> AsyncIterator[None]:
    """`puluc-bot web` on `port` beside the bot, on its PostgreSQL database (--web-process): the pages in their
    own process, hearing the moves through LISTEN/NOTIFY, as a server with a large audience runs them."""
    import aiohttp

    env = {**os.environ, "DATABASE_URL": database_url, "WEB_PORT": str(port)}
    child = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", "web", env=env,
                                                 stdout=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + WEB_READY_S
        async with aiohttp.ClientSession() as client:
            while True:
                if child.returncode is not None:
                    raise SystemExit(f"puluc-bot web stopped at once (exit code {child.returncode}): see above")
                try:
                    async with client.get(f"http://127.0.0.1:{port}/healthz") as answer:
                        if answer.status == 200:
                            break
                except aiohttp.ClientError:
                    pass
                if time.monotonic() > deadline:
                    raise SystemExit(f"puluc-bot web did not answer on port {port} within {WEB_READY_S:g} s")
                await asyncio.sleep(0.2)
        yield
    finally:
        if child.returncode is None:
            child.terminate()
        await child.wait()


def fair_use_refusal(error: BaseException) -> bool:
    """A refusal the bot answers with a sentence when a member asks too much (bot.limits, bot.compute)."""
    return isinstance(getattr(error, "original", error), RateLimited | ComputeBusy)


# -- several processes ---------------------------------------------------------------------------------------


def with_schema(url: str, schema: str) -> str:
    """`url` with its search_path set to `schema` (the bot passes URL parameters to the server)."""
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k != "search_path"] + [("search_path", schema)]
    return urlunsplit(parts._replace(query=urlencode(query)))


@asynccontextmanager
async def fresh_database(database_url: str | None) -> AsyncIterator[str]:
    """Where this run keeps its games: a temporary SQLite file, or a new schema in the PostgreSQL database
    `database_url` names; removed afterwards with everything in it."""
    if database_url is None:
        with tempfile.TemporaryDirectory(prefix="puluc-load-") as folder:
            yield f"sqlite:///{Path(folder) / 'puluc.db'}"
        return
    if not database_url.startswith(("postgresql://", "postgres://")):
        raise SystemExit("--database-url must be a postgresql:// URL (SQLite is the default without it)")
    import asyncpg

    schema = f"puluc_load_{secrets.token_hex(4)}"
    admin = await asyncpg.connect(database_url, timeout=10)
    try:
        await admin.execute(f'CREATE SCHEMA "{schema}"')
        try:
            yield with_schema(database_url, schema)
        finally:
            await admin.execute(f'DROP SCHEMA "{schema}" CASCADE')
    finally:
        await admin.close()


def split(games: int, processes: int) -> list[int]:
    return [games // processes + (1 if index < games % processes else 0) for index in range(processes)]


async def load_processes(args: argparse.Namespace, database_url: str) -> list[dict[str, Any]]:
    """Start one child per process (SHARD_COUNT = processes, SHARD_IDS = its index), start their load at
    once, and collect their raw figures."""
    count = args.processes
    children = []
    for index, games in enumerate(split(args.games, count)):
        env = {**os.environ, "SHARD_COUNT": str(count), "SHARD_IDS": str(index)}
        command = [sys.executable, str(SCRIPT), "--child", f"{index}/{count}",
                   "--database-url", database_url, "--games", str(games), "--seconds", str(args.seconds),
                   "--think", args.think_text, "--open-within", str(args.open_within), "--stall", str(args.stall)]
        if args.clicks is not None:
            command += ["--clicks", str(args.clicks)]
        children.append(await asyncio.create_subprocess_exec(
            *command, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE))
    try:
        for index, child in enumerate(children):
            assert child.stdout is not None
            line = (await child.stdout.readline()).decode().strip()
            if line != READY:
                raise SystemExit(f"bot process {index} did not start (exit {await child.wait()}); see its errors above")
        for child in children:
            assert child.stdin is not None
            child.stdin.write(f"{GO}\n".encode())
            await child.stdin.drain()
        results = []
        for index, child in enumerate(children):
            out, _ = await child.communicate()
            if child.returncode != 0:
                raise SystemExit(f"bot process {index} failed (exit {child.returncode}); see its errors above")
            results.append(json.loads(out.decode().strip().splitlines()[-1]))
        return results
    finally:
        for child in children:
            if child.returncode is None:
                child.kill()
                await child.wait()


# -- the figures ---------------------------------------------------------------------------------------------


def spread(values: list[float]) -> dict[str, float | int | None]:
    """Count, p50/p95/p99 (benchmarks/percentiles.py) and max, in milliseconds (None when nothing was measured)."""
    if not values:
        return {"count": 0, "p50": None, "p95": None, "p99": None, "max": None}
    return {"count": len(values),
            **{f"p{p}": round(percentile(values, p) * 1000, 1) for p in (50, 95, 99)},
            "max": round(max(values, default=float("nan")) * 1000, 1)}


TIMELINE_WINDOW_S = 10.0


def timeline(clicked_at: list[float], visible: list[float]) -> list[dict[str, float | int | None]]:
    """Board visible by `TIMELINE_WINDOW_S` windows of the run (by when the click was made): where a slow tail
    comes from, a burst at one moment or the whole run."""
    if not clicked_at:
        return []
    origin = min(clicked_at)
    windows: dict[int, list[float]] = {}
    for at, value in zip(clicked_at, visible, strict=True):
        windows.setdefault(int((at - origin) // TIMELINE_WINDOW_S), []).append(value)
    return [{"from_s": index * TIMELINE_WINDOW_S, **spread(windows[index])} for index in sorted(windows)]


def summarize(parts: list[dict[str, Any]], args: argparse.Namespace) -> dict[str, Any]:
    """Pool the raw figures of every process into the report."""
    pooled: dict[str, Any] = {}
    for part in parts:
        for key, value in part["record"].items():
            if isinstance(value, list):
                pooled.setdefault(key, []).extend(value)
            else:
                pooled[key] = pooled.get(key, 0) + value
    seconds = max(part["seconds"] for part in parts)
    first = pooled["first_response"]
    late = sum(1 for value in first if value > ACK_DEADLINE_S) + pooled["unanswered"]
    boards = sum(part["boards_uploaded"] for part in parts)
    errors = [e for part in parts for e in part["errors"]]
    problems = pooled["problems"]
    # The first few of each process in turn, so that the lines shown are not all one process's.
    detail = [line for lines in itertools.zip_longest(*(part["errors"] + part["record"]["problems"] for part in parts))
              for line in lines if line is not None]
    return {
        "games": args.games,
        "processes": len(parts),
        "think_s": list(args.think),
        "database": "postgresql" if args.database_url else "sqlite",
        "workers_env": os.environ.get("WORKERS"),
        "workers": [part["workers"] for part in parts],
        "shards": [part["shards"] for part in parts],
        "seconds": round(seconds, 2),
        "interactions": pooled["interactions"],
        "interactions_per_second": round(pooled["interactions"] / seconds, 1) if seconds else 0.0,
        "boards_uploaded": boards,
        "boards_per_second": round(boards / seconds, 2) if seconds else 0.0,
        "games_started": pooled["games_started"],
        "games_finished": pooled["games_finished"],
        "first_response_ms": spread(first),
        "opening_response_ms": spread(pooled["opening_response"]),
        "updated_ms": spread(pooled["updated"]),
        "board_visible_ms": spread(pooled["board_visible"]),
        "end_screen_ms": spread(pooled["end_screen"]),
        "chart_visible_ms": spread(pooled["chart_visible"]),
        "board_visible_timeline": timeline(pooled["board_clicked_at"], pooled["board_visible"]),
        "later_than_3s": late,
        "unanswered": pooled["unanswered"],
        "stalled": pooled["stalled"],
        "stalled_by_process": [part["record"]["stalled"] for part in parts],
        "charts_missing": pooled["charts_missing"],
        "peak_rss_mb": [{key: round(value, 1) for key, value in part["memory"].items()} for part in parts],
        "cpu_ms_per_board": [cpu_per_board(part) for part in parts],
        "cores": len(os.sched_getaffinity(0)),
        "load_average": {"before": parts[0]["load_before"], "after": parts[0]["load_after"]},
        # Every stall is one problem (an unanswered interaction stalls too), so each failure counts once.
        "errors": len(errors) + len(problems),
        "error_detail": detail[:20],
        "spammers": sum(part.get("spammers", 0) for part in parts),
        "spam": {kind: spam_figures([part["spam"][kind] for part in parts if "spam" in part])
                 for kind in ("hint", "replay")},
    }


def spam_figures(kinds: list[dict[str, Any]]) -> dict[str, Any]:
    """The spammers' asks of one kind, pooled: counts, and the served answers' times."""
    pooled = {key: sum(kind[key] for kind in kinds) for key in ("asked", "served", "limited", "busy", "other")}
    return {**pooled, "answered_ms": spread([value for kind in kinds for value in kind["answered"]])}


def cpu_per_board(part: dict[str, Any]) -> dict[str, float | None]:
    """The CPU milliseconds one bot process (SimCord included) and its workers spent per board drawn during the
    load (None when no board was drawn)."""
    boards = part["boards_uploaded"]
    if not boards:
        return {"process": None, "workers": None, "pages": None}
    return {"process": round(1000 * part["cpu_s"]["process_s"] / boards, 2),
            "workers": round(1000 * part["cpu_s"]["workers_s"] / boards, 2),
            "pages": round(1000 * part["cpu_s"]["pages_s"] / boards, 2)}


def cpu_lines(result: dict[str, Any]) -> list[str]:
    """Where each board's CPU went, and, for one process with workers, what that CPU allows on idle cores."""
    lines = []
    for index, cost in enumerate(result["cpu_ms_per_board"]):
        if cost["process"] is None or cost["workers"] is None:
            continue
        pages = f", {cost['pages']:.2f} ms the web pages' own process" if cost.get("pages") else ""
        lines.append(f"CPU per board, process {index}  {cost['process']:.2f} ms the process with SimCord, "
                     f"{cost['workers']:.2f} ms its workers{pages}")
    costs = result["cpu_ms_per_board"]
    if len(costs) == 1 and costs[0]["process"] and costs[0]["workers"]:
        main_ms, worker_ms, cores = costs[0]["process"], costs[0]["workers"], result["cores"]
        one, two = (board_rate_bound(cores, k, main_ms, worker_ms) for k in (1, 2))
        lines.append(f"  on {cores} idle cores that CPU allows at most {one:.0f} boards/s with WORKERS=1 and {two:.0f} "
                     f"with WORKERS=2 ({two / one:.2f}x; 1.8x needs the process <= {worker_ms / 9:.2f} ms a board)")
    return lines


def verdict(ok: bool) -> str:
    return "ok" if ok else "FAIL"


def within(row: dict[str, Any], goal_ms: float) -> bool:
    return row["p99"] is not None and row["p99"] <= goal_ms


def report(result: dict[str, Any]) -> str:
    think = result["think_s"]
    thinking = "as fast as the boards come" if think[1] == 0 else f"thinking {think[0]:g}-{think[1]:g} s a click"
    load = result["load_average"]
    lines = [
        (f"{result['games']} games, {thinking}, {result['processes']} bot process(es) on {result['database']}, "
         f"WORKERS={result['workers_env'] or '(unset)'} (effective: {', '.join(map(str, result['workers']))}), "
         f"shards: {', '.join(map(str, result['shards']))}"),
        (f"{result['seconds']} s of load; machine load average {' '.join(map(str, load['before']))} before, "
         f"{' '.join(map(str, load['after']))} after (1, 5, 15 min)"),
        "",
        f"{'(ms, from the interaction)':34s} {'count':>6s} {'p50':>8s} {'p95':>8s} {'p99':>8s} {'max':>8s}",
    ]
    rows = (("first response (acknowledged)", "first_response_ms"),
            ("  opening /puluc challenge", "opening_response_ms"),
            ("game message updated", "updated_ms"),
            ("board visible", "board_visible_ms"),
            ("  end screens", "end_screen_ms"),
            ("advantage chart (last move)", "chart_visible_ms"))
    for label, key in rows:
        row = result[key]
        figures = "".join(f" {'-' if row[p] is None else f'{row[p]:.1f}':>8s}" for p in ("p50", "p95", "p99", "max"))
        lines.append(f"{label:34s} {row['count']:6d}{figures}")
    if result.get("show_timeline"):
        lines.append(f"board visible by {TIMELINE_WINDOW_S:g} s window of the clicks (p50 / p99 / max, ms):")
        lines += [f"  {row['from_s']:6.0f} s  {row['count']:5d}  {row['p50']:8.1f} {row['p99']:8.1f} {row['max']:8.1f}"
                  for row in result["board_visible_timeline"]]
    lines += [
        "",
        f"interactions          {result['interactions']} ({result['interactions_per_second']} per second)",
        f"boards drawn          {result['boards_uploaded']} ({result['boards_per_second']} per second)",
        f"games                 {result['games_started']} started, {result['games_finished']} finished",
        f"acknowledged late     {result['later_than_3s']} later than 3 s (of them never: {result['unanswered']})",
        f"stalled               {result['stalled']}"
        + (f" (by process: {', '.join(map(str, result['stalled_by_process']))})" if result["processes"] > 1 else "")
        + f"; end screens without a chart: {result['charts_missing']}",
    ]
    for index, peaks in enumerate(result["peak_rss_mb"]):
        pages = (f"; besides, {peaks['pages_mb']} MB the web pages' own process and its worker"
                 if peaks.get("pages_mb") else "")
        lines.append(f"peak RSS, process {index}  {peaks['total_mb']} MB ({peaks['process_mb']} MB the process with "
                     f"SimCord, {peaks['workers_mb']} MB in up to {peaks['workers_seen']} processes below it{pages})")
    lines += cpu_lines(result)
    if result["spammers"]:
        lines.append(f"spammers              {result['spammers']} (issue 27), as fast as they are let:")
        for kind in ("hint", "replay"):
            spam = result["spam"][kind]
            row = spam["answered_ms"]
            times = "" if row["count"] == 0 else f"; answered p50 {row['p50']:.0f} ms, p99 {row['p99']:.0f} ms"
            lines.append(f"  {kind + 's':8s} asked {spam['asked']}, served {spam['served']}, "
                         f"limited {spam['limited']}, busy {spam['busy']}, other {spam['other']}{times}")
    lines.append(f"errors                {result['errors']}")
    first, board = result["first_response_ms"], result["board_visible_ms"]
    rss = max(peaks["total_mb"] for peaks in result["peak_rss_mb"])
    lines.append(
        f"goals: all acknowledged within 3 s [{verdict(result['later_than_3s'] == 0)}], first response p99 <= "
        f"{FIRST_RESPONSE_P99_GOAL_MS:g} ms [{verdict(within(first, FIRST_RESPONSE_P99_GOAL_MS))}], board visible "
        f"p99 <= {BOARD_VISIBLE_P99_GOAL_MS:g} ms [{verdict(within(board, BOARD_VISIBLE_P99_GOAL_MS))}], RSS <= "
        f"{RSS_GOAL_MB:g} MB per process [{verdict(rss <= RSS_GOAL_MB)}], no errors [{verdict(result['errors'] == 0)}]")
    lines += [f"  error: {detail}" for detail in result["error_detail"]]
    return "\n".join(lines)


# -- command line ---------------------------------------------------------------------------------------------


def parser() -> argparse.ArgumentParser:
    found = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0],
                                    formatter_class=argparse.RawDescriptionHelpFormatter)
    found.add_argument("--games", type=int, default=200, help="concurrent games, one per channel (default 200)")
    found.add_argument("--think", default="2-4", metavar="LOW-HIGH",
                       help="seconds a player thinks before each click, uniform in LOW-HIGH (default 2-4; 0: none)")
    found.add_argument("--seconds", type=float, default=60.0, help="length of the load, openings included (default 60)")
    found.add_argument("--open-within", type=float, default=2.0,
                       help="the games are opened one after another within this many seconds (default 2)")
    found.add_argument("--clicks", type=int, default=None,
                       help="instead of --seconds: this many interactions per game, the opening one included")
    found.add_argument("--stall", type=float, default=10.0,
                       help="seconds a player waits for an effect before counting an error (default 10)")
    found.add_argument("--processes", type=int, default=1,
                       help="bot processes sharing the load, SHARD_COUNT=N and SHARD_IDS=0..N-1 (default 1)")
    found.add_argument("--database-url", default=None,
                       help="a PostgreSQL database to play in (a fresh schema, dropped afterwards); default: SQLite")
    found.add_argument("--spammers", type=int, default=0,
                       help="members asking for hints and replays as fast as they are let (issue 27; default 0)")
    found.add_argument("--web-process", type=int, default=None, metavar="PORT",
                       help="also run `puluc-bot web` on PORT beside the bot, on --database-url (WEB_SECRET from the "
                            "environment; spectators: benchmarks/web.py --spectate)")
    found.add_argument("--timeline", action="store_true",
                       help=f"also print board visible by {TIMELINE_WINDOW_S:g} s windows of the run")
    found.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    found.add_argument("--child", default=None, help=argparse.SUPPRESS)  # "index/count": a bot process of --processes
    return found


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    found = parser()
    args = found.parse_args(argv)
    try:
        args.think_text, args.think = args.think, think_range(args.think)
    except argparse.ArgumentTypeError as exc:
        found.error(str(exc))
    if args.games < 1 or args.seconds <= 0 or args.open_within < 0 or (args.clicks is not None and args.clicks < 1):
        found.error("--games and --clicks must be at least 1, --seconds positive, --open-within not negative")
    if args.processes < 1 or args.processes > args.games:
        found.error("--processes must be from 1 to --games")
    if args.spammers < 0 or (args.spammers and args.processes > 1):
        found.error("--spammers takes a count (0 or more) and runs with one process")
    if args.web_process is not None and (args.database_url is None or args.processes > 1):
        found.error("--web-process serves the pages beside one bot process on PostgreSQL: give --database-url")
    if args.processes > 1 and args.database_url is None:
        found.error("several processes share one database: give --database-url postgresql://...")
    if args.child is not None:  # one bot process of a multi-process run: raw figures for the parent
        index, count = (int(part) for part in args.child.split("/"))
        part = asyncio.run(load_one_process(args.games, args.database_url, args.think, args.seconds, args.open_within,
                                            args.stall, args.clicks, shard=(index, count), wait_for_go=True))
        print(json.dumps(part))
        return 0

    async def run() -> list[dict[str, Any]]:
        async with fresh_database(args.database_url) as url:
            if args.processes == 1:
                return [await load_one_process(args.games, url, args.think, args.seconds, args.open_within,
                                               args.stall, args.clicks, spammers=args.spammers,
                                               web_port=args.web_process)]
            return await load_processes(args, url)

    result = summarize(asyncio.run(run()), args)
    result["show_timeline"] = args.timeline
    print(json.dumps(result) if args.json else report(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
