"""The `puluc-bot web` command: the web pages alone, beside the bot's shard processes on one PostgreSQL database.

It reads the same settings as the bot (no DISCORD_TOKEN needed): WEB_PORT, WEB_HOST, WEB_SECRET (the same as the
bot's, or the bot's links do not open), DATABASE_URL (PostgreSQL: the pages hear every process's moves through
LISTEN/NOTIFY; a SQLite file is the bot's alone, so there WEB_PORT in the bot's own process serves the pages).
It opens the database read-only and never writes. SIGINT or SIGTERM stops it. Every failure is one line and
exit code 1.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sys
from collections.abc import Sequence
from functools import partial
from pathlib import Path

from bot.config import Config, ConfigError, find_env_file, read_config
from bot.storage import PostgresUrl

PROG = "puluc-bot web"

log = logging.getLogger("bot.web")

# Above the bot's board workers' 10 (`bot.compute.WORKER_NICENESS`): the players' boards come first, the pages
# (whose goal is a second, not tens of milliseconds) next. Its own workers add theirs on top, up to 19.
WEB_NICENESS = 15


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Serve the web pages (live games, replays, leaderboards, profiles, tournaments) alone, beside "
        "the bot's processes on one PostgreSQL database. Settings as for the bot: WEB_PORT, WEB_HOST, WEB_SECRET, "
        "DATABASE_URL (see .env.example).",
    )
    parser.add_argument("--env-file", metavar="PATH", type=Path, help="the settings file to read (as for the bot)")
    parser.add_argument("--port", type=int, help="listen on this port instead of WEB_PORT")
    args = parser.parse_args(argv)
    try:
        report = read_config(os.environ, find_env_file(args.env_file), needs_token=False)
        config = report.raise_problems()
    except ConfigError as exc:
        return _fail(*exc.problems)
    port = args.port if args.port is not None else config.web_port
    problems = []
    if port is None or not 0 <= port <= 65_535:
        problems.append("set WEB_PORT (a TCP port from 1 to 65535), or give --port, to say where the pages listen.")
    if config.web_secret is None:
        problems.append("set WEB_SECRET to the same value as the bot's processes: it signs the links the bot hands "
                        "out, which these pages check.")
    if not isinstance(config.database, PostgresUrl):
        problems.append("DATABASE_URL is a SQLite file, which only the bot's own process uses: serve the pages from "
                        "it with WEB_PORT instead of puluc-bot web (docs/OPERATIONS.md, Web pages).")
    if problems:
        return _fail(*problems)
    assert port is not None
    from bot.logs import setup_logging

    setup_logging(config.log_level_number, secrets=config.secrets, json_lines=config.log_format == "JSON")
    yield_to_the_bot()
    return asyncio.run(serve(config, port))


def yield_to_the_bot() -> None:
    """Lower this process's CPU priority by `WEB_NICENESS`: on a machine it shares with the bot, the pages'
    work (a thousand spectators cost about half a core) waits for the players' boards, drawn by workers at
    niceness 10, instead of taking turns with them. On an idle or separate machine niceness changes nothing."""
    with contextlib.suppress(OSError):  # a platform without priorities: serve as we are
        os.nice(WEB_NICENESS)


async def serve(config: Config, port: int, stop: asyncio.Event | None = None) -> int:
    """Serve until `stop` is set (SIGINT or SIGTERM when None); the exit code."""
    from bot.compute import ComputePool
    from bot.limits import lanes
    from bot.storage import SchemaTooOld, StorageUnavailable, open_storage
    from bot.ui.links import WebLinks
    from bot.ui.pictures import warm_up
    from bot.web.server import WebUnavailable, web_server

    assert config.web_secret is not None
    try:
        storage = await open_storage(config.database, read_only=True)
    except SchemaTooOld:
        return _fail(f"the database at {config.database.where} is older than this release: start the bot (which "
                     "migrates it) first, then puluc-bot web.")
    except StorageUnavailable as exc:
        return _fail(f"cannot open the database at {config.database.where}: {exc}; check DATABASE_URL.")
    font = None if config.font_path is None else str(config.font_path)
    # The pages draw SVG boards (light) and, on request, a replay GIF: one worker unless WORKERS says otherwise.
    compute = ComputePool(1 if config.workers is None else config.workers, warm_up=partial(warm_up, font),
                          preload=("renderer", "bot.ui.pictures", "bot.web.boards"), lanes=lanes())
    await compute.start()
    server = web_server(storage, WebLinks(config.web_secret, config.web_base_url), compute, host=config.web_host,
                        port=port, bar_ms=config.advantage_bar_ms, trust_forwarded=config.web_trust_forwarded)
    try:
        try:
            await server.start()
        except (WebUnavailable, StorageUnavailable) as exc:
            return _fail(str(exc))
        stop = stop or _signalled()
        await stop.wait()
        log.info("stopping the web pages")
    finally:
        await server.stop()
        await compute.close()
        await storage.close()
    return 0


def _signalled() -> asyncio.Event:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    return stop


def _fail(*problems: str) -> int:
    for problem in problems:
        print(f"{PROG}: error: {problem}", file=sys.stderr)
    return 1
