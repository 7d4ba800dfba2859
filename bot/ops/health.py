"""The health and metrics listener: a small HTTP server inside the bot's process, off unless HEALTH_PORT is set.

- `/healthz`: 200 whenever the event loop answers (liveness: a hung bot does not).
- `/readyz`: 200 when the bot can serve players: connected to Discord and ready (every shard it runs), its
  shards still its own in the database, the database answering, the compute workers answering a job; else 503 with
  a line per check naming what is not. Docker's and compose's health checks ask it (`bot.ops.probe`).
- `/metrics`: the Prometheus text format: `bot.ops.metrics`' counters and histograms, and gauges read from the
  running bot at each scrape (open games by variant, size and status; compute jobs by kind; the workers and
  their restarts; how late the earliest deadline is; the gateway's connection and latency).

It listens on HEALTH_HOST (127.0.0.1, this machine only, by default), answers nothing else, logs no request,
and never shows a token, a password or a player's data. `start_health` also hands discord.py an HTTP trace,
so that Discord's 429s and 5xx and the acknowledgement of every interaction are measured where they happen.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections import Counter as Tally
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
from aiohttp import web
from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, InfoMetricFamily
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.registry import Collector

from bot.ops import metrics
from bot.storage import Shards, StorageUnavailable

if TYPE_CHECKING:
    from bot.app import PulucBot

__all__ = ["READY_DATABASE_TIMEOUT", "READY_WORKER_TIMEOUT", "Check", "HealthServer", "HealthUnavailable",
           "discord_trace", "readiness", "start_health"]

log = logging.getLogger(__name__)

# A database that does not answer a one-row query within this long is not ready; nor are workers none of
# which answers a job within this long.
READY_DATABASE_TIMEOUT = 3.0
READY_WORKER_TIMEOUT = 5.0


class HealthUnavailable(RuntimeError):
    """The listener cannot listen where HEALTH_HOST and HEALTH_PORT say; the message is one actionable line."""


@dataclass(frozen=True, slots=True)
class Check:
    """One readiness check: its name, whether it passed, and what it found."""

    name: str
    ok: bool
    detail: str

    def __str__(self) -> str:
        return f"{self.name}: {'ok' if self.ok else 'failed'} ({self.detail})"


async def readiness(bot: PulucBot) -> list[Check]:
    """Every readiness check of `bot`, in order: gateway, shards, database, workers."""
    return [gateway_check(bot), await shards_check(bot), await database_check(bot), await workers_check(bot)]


def gateway_check(bot: PulucBot) -> Check:
    if bot.is_closed():
        return Check("gateway", False, "the client is closed")
    if not bot.is_ready():
        return Check("gateway", False, "connecting to Discord, not ready yet")
    if isinstance(bot, discord.AutoShardedClient):
        shards = bot.shards
        down = sorted(shard_id for shard_id, info in shards.items() if info.is_closed())
        if not shards or down:
            return Check("gateway", False, f"shard {', '.join(map(str, down))} disconnected" if down
                         else "no shard connected")
        return Check("gateway", True, f"{len(shards)} shards connected")
    ws = bot.ws
    if ws is None or not ws.open:
        return Check("gateway", False, "disconnected from Discord")
    return Check("gateway", True, "connected")


async def shards_check(bot: PulucBot) -> Check:
    """The shards this process claimed at start-up are still its own in the database (none taken over)."""
    shards = bot.config.shards
    which = "every server" if shards is None else str(shards)
    try:
        storage = bot.storage
    except RuntimeError:
        return Check("shards", False, f"{which}: not claimed (the database is not open)")
    try:
        held = await asyncio.wait_for(storage.shards_held(), READY_DATABASE_TIMEOUT)
    except (StorageUnavailable, TimeoutError):
        # Not a second failure for one cause: the database check says it does not answer.
        return Check("shards", True, f"{which} claimed; not rechecked, the database does not answer")
    claimed = (shards or Shards.whole()).ids
    lost = sorted(set(claimed) - set(held or ()))
    if held is None or lost:
        return Check("shards", False, f"{which}: shard {', '.join(map(str, lost))} no longer held by this process")
    return Check("shards", True, f"{which} claimed")


async def database_check(bot: PulucBot) -> Check:
    try:
        storage = bot.storage
    except RuntimeError:
        return Check("database", False, "not open")
    try:
        await asyncio.wait_for(storage.schema_version(), READY_DATABASE_TIMEOUT)
    except StorageUnavailable as exc:
        metrics.database_error(exc.reason)
        return Check("database", False, f"{exc.reason}: {exc}")
    except TimeoutError:
        metrics.database_error("unreachable")
        return Check("database", False, f"no answer within {READY_DATABASE_TIMEOUT:g} s")
    return Check("database", True, f"{storage.where} answers")


async def workers_check(bot: PulucBot) -> Check:
    """The workers answer a job, as every board and AI move finds them (one that waits behind a full queue for
    longer than READY_WORKER_TIMEOUT counts as not answering: the bot is then busier than its workers)."""
    compute = bot.compute
    if compute is None:
        return Check("workers", False, "not started")
    if compute.in_process:
        return Check("workers", True, "boards and the AI run in threads (WORKERS=0)")
    try:
        await asyncio.wait_for(compute.run(os.getpid), READY_WORKER_TIMEOUT)
    except TimeoutError:
        queued = sum(compute.queued.values())
        return Check("workers", False, f"none of {compute.workers} answered within {READY_WORKER_TIMEOUT:g} s, "
                                       f"{queued} jobs queued")
    except Exception as exc:  # noqa: BLE001 - a closed pool, a worker that died twice: reported, not raised
        return Check("workers", False, f"{type(exc).__name__}: {exc}")
    answer = "1 worker answers" if compute.workers == 1 else f"{compute.workers} workers answer"
    return Check("workers", True, answer)


class BotGauges(Collector):
    """What the running bot holds now, read at each scrape."""

    def __init__(self, bot: PulucBot) -> None:
        self.bot = bot

    def collect(self) -> Iterator[Any]:
        bot = self.bot
        info = InfoMetricFamily("puluc_build", "The bot's release and the discord.py it runs on")
        info.add_metric([], {"version": _version(), "discord_py": discord.__version__})
        yield info

        games = GaugeMetricFamily("puluc_open_games", "Open games (lobbies and running) this process plays, by "
                                  "variant, team size and status", labels=["variant", "size", "status"])
        lag = GaugeMetricFamily("puluc_timer_lag_seconds", "How far past its time the earliest game deadline "
                                "(a turn timer, an AI move) is; stays near 0 while the timer loop keeps up")
        services = bot.games
        if services is not None:
            tally = Tally((s.state.variant, f"{len(s.state.rules.seats) // 2}v{len(s.state.rules.seats) // 2}",
                           s.state.status) for s in services.manager.sessions)
            for (variant, size, status), count in sorted(tally.items()):
                games.add_metric([variant, size, status], count)
            upcoming = services.manager.deadlines.next_deadline()
            overdue = 0.0 if upcoming is None else max(0.0, discord.utils.utcnow().timestamp() - upcoming)
            lag.add_metric([], overdue)
        yield games
        yield lag

        jobs = GaugeMetricFamily("puluc_worker_jobs", "Jobs handed to the compute workers, running or waiting "
                                 "for one, by kind", labels=["kind"])
        workers = GaugeMetricFamily("puluc_workers", "Compute worker processes the pool keeps (0: WORKERS=0, "
                                    "threads of the bot's process)")
        restarts = CounterMetricFamily("puluc_worker_pool_restarts", "Times a worker died and the pool started "
                                       "its workers anew")
        waiting = GaugeMetricFamily("puluc_worker_waiting", "Jobs waiting for a worker, by lane (game: boards and AI "
                                    "moves; replay, hint, chart, rules, ...)", labels=["lane"])
        busy = CounterMetricFamily("puluc_worker_busy", "Jobs refused because their lane's waiting line was full "
                                   "(the member was told to try again in a minute), by lane", labels=["lane"])
        compute = bot.compute
        if compute is not None:
            for kind, count in sorted(compute.queued.items()):
                jobs.add_metric([kind], count)
            for lane in sorted(compute.lanes):
                waiting.add_metric([lane], compute.waiting_in[lane])
                busy.add_metric([lane], compute.refused[lane])
            workers.add_metric([], compute.workers)
            restarts.add_metric([], compute.rebuilds)
        yield jobs
        yield workers
        yield restarts
        yield waiting
        yield busy

        connected = GaugeMetricFamily("puluc_gateway_connected", "1 while the gateway connection is up, by shard",
                                      labels=["shard"])
        if isinstance(bot, discord.AutoShardedClient):
            for shard_id, shard in sorted(bot.shards.items()):
                connected.add_metric([str(shard_id)], 0.0 if shard.is_closed() else 1.0)
        else:
            connected.add_metric(["0"], 1.0 if bot.ws is not None and bot.ws.open else 0.0)
        yield connected
        latency = bot.latency
        heartbeat = GaugeMetricFamily("puluc_gateway_latency_seconds", "Discord's heartbeat round trip")
        if latency == latency and latency != float("inf"):  # NaN or inf before the first heartbeat
            heartbeat.add_metric([], latency)
        yield heartbeat


def _version() -> str:
    from importlib import metadata

    try:
        return metadata.version("puluc-bot")
    except metadata.PackageNotFoundError:
        return "unknown"


class HealthServer:
    """The listener of one bot: `start()` listens, `stop()` closes."""

    def __init__(self, bot: PulucBot, host: str, port: int) -> None:
        self.bot = bot
        self.host = host
        self.port = port
        self.gauges = CollectorRegistry(auto_describe=True)
        self.gauges.register(BotGauges(bot))
        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/readyz", self._readyz)
        app.router.add_get("/metrics", self._metrics)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)

    async def start(self) -> None:
        """Listen on `host`:`port` (port 0: any free one, then `port` says which); `HealthUnavailable` when it
        cannot."""
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port, reuse_address=True)
        try:
            await site.start()
        except OSError as exc:
            await self._runner.cleanup()
            raise HealthUnavailable(
                f"the health listener cannot listen on {self.host}:{self.port} ({exc.strerror or exc}): set "
                "HEALTH_PORT to a free port (or empty to turn it off), and HEALTH_HOST to an address of this "
                "machine."
            ) from exc
        server = getattr(site, "_server", None)
        sockets = getattr(server, "sockets", None) or ()
        if sockets:
            self.port = sockets[0].getsockname()[1]
        log.info("health listener on http://%s:%d (/healthz, /readyz, /metrics)", self.host, self.port)

    async def stop(self) -> None:
        await self._runner.cleanup()

    async def _healthz(self, request: web.Request) -> web.Response:
        return web.Response(text="ok\n")

    async def _readyz(self, request: web.Request) -> web.Response:
        checks = await readiness(self.bot)
        failed = [check.name for check in checks if not check.ok]
        head = "ready" if not failed else f"not ready: {', '.join(failed)}"
        body = "\n".join([head, *map(str, checks)]) + "\n"
        return web.Response(text=body, status=503 if failed else 200)

    async def _metrics(self, request: web.Request) -> web.Response:
        body = generate_latest(metrics.REGISTRY) + generate_latest(self.gauges)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})


def discord_trace(clock: Callable[[], float] = time.time) -> aiohttp.TraceConfig:
    """An aiohttp trace that hands every answer from Discord to `metrics.discord_response`."""

    async def ended(session: Any, context: Any, params: aiohttp.TraceRequestEndParams) -> None:
        metrics.discord_response(params.method, params.url.path, params.response.status, clock() * 1000)

    trace = aiohttp.TraceConfig()
    trace.on_request_end.append(ended)
    return trace


async def start_health(bot: PulucBot) -> HealthServer | None:
    """Measure Discord's answers to `bot` and, when HEALTH_PORT is set, start its listener; before `bot.start`.

    `HealthUnavailable` when the listener cannot listen."""
    http = bot.http
    if getattr(http, "http_trace", None) is None:
        http.http_trace = discord_trace()
    config = bot.config
    if config.health_port is None:
        return None
    server = HealthServer(bot, config.health_host, config.health_port)
    await server.start()
    return server
