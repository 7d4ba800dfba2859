"""The `puluc-bot web` command: the web pages alone, beside the bot's shard processes on one PostgreSQL database.

It reads the same settings as the bot (no DISCORD_TOKEN needed): WEB_PORT, WEB_HOST, WEB_SECRET (the same as the
bot's, or the bot's links do not open), DATABASE_URL (PostgreSQL: the pages hear every process's moves through
LISTEN/NOTIFY; a SQLite file is one bot's alone, so there the bot's WEB_PORT serves the pages, which it starts
in a process of their own, this command with `--for-bot`). It opens the database read-only and never writes.
SIGINT or SIGTERM stops it. Every failure is one line and exit code 1.

`--for-bot` is the same pages as the bot's own process of pages (WEB_PROCESS=OWN, `bot.web.own_process`): its
settings come down the pipe from the bot, and so do the bot's changes on SQLite; it answers `listening <port>`
or `error <line>` on its standard output, ignores SIGINT (a Ctrl-C in the bot's terminal is the bot's to
handle), and stops when the pipe closes, that is when the bot stops or dies.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import logging
import os
import signal
import sys
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from bot.config import Config, ConfigError, find_env_file, read_config
from bot.storage import PostgresUrl

if TYPE_CHECKING:
    from bot.web.server import WebServer

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
    parser.add_argument("--for-bot", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--activity-socket", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.for_bot:
        return for_bot(args.port, args.activity_socket)
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
        problems.append("DATABASE_URL is a SQLite file, which only one bot uses: set WEB_PORT in the bot's settings "
                        "instead, and the bot serves the pages beside itself (docs/OPERATIONS.md, Web pages).")
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
    niceness 10, instead of taking turns with them. On an idle or separate machine niceness changes nothing.
    (Not idle scheduling, SCHED_IDLE: measured, it kept the players' latency no lower, and on a machine busy
    for a while it would leave the spectators nothing at all, where niceness still gives them a share.)"""
    with contextlib.suppress(OSError):  # a platform without priorities: serve as we are
        os.nice(WEB_NICENESS)


def for_bot(port: int | None, activity_socket: Path | None) -> int:
    """The bot's own process of pages (`bot.web.own_process`): the settings are the pipe's first line."""
    from bot.logs import setup_logging
    from bot.web.own_process import read_config_line

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        config = read_config_line(_first_line(sys.stdin.fileno()))
    except Exception:  # noqa: BLE001 - whatever a broken pipe holds, the answer is the same line
        return _answer("error its settings did not arrive from the bot")
    setup_logging(config.log_level_number, secrets=config.secrets, json_lines=config.log_format == "JSON")
    yield_to_the_bot()
    return asyncio.run(serve(config, port or 0, workers=1,
                             activity_socket=activity_socket, for_bot=True))


def _first_line(fd: int) -> bytes:
    """The pipe's first line, read a byte at a time: nothing after it is taken from the pipe, whose changes
    the live pages read next."""
    line = bytearray()
    while not line.endswith(b"\n"):
        byte = os.read(fd, 1)
        if not byte:
            break
        line += byte
    return bytes(line)


async def serve(config: Config, port: int, stop: asyncio.Event | None = None, *, workers: int | None = None,
                activity_socket: Path | None = None, for_bot: bool = False) -> int:
    """Serve until `stop` is set (SIGINT or SIGTERM when None; with `for_bot`, the bot's pipe closing or
    SIGTERM); the exit code. `workers`: board workers (WORKERS, else one); `activity_socket`: where the bot's
    process serves the Discord Activity, which these pages pass its requests on to."""
    from bot.compute import ComputePool
    from bot.limits import lanes
    from bot.storage import SchemaTooOld, StorageUnavailable, open_storage
    from bot.ui.links import WebLinks
    from bot.ui.pictures import warm_up
    from bot.web.server import WebUnavailable, web_server

    assert config.web_secret is not None
    fail = _answer_error if for_bot else _fail
    try:
        storage = await open_storage(config.database, read_only=True)
    except SchemaTooOld:
        return fail(f"the database at {config.database.where} is older than this release: start the bot (which "
                    "migrates it) first, then puluc-bot web.")
    except StorageUnavailable as exc:
        return fail(f"cannot open the database at {config.database.where}: {exc}; check DATABASE_URL.")
    font = None if config.font_path is None else str(config.font_path)
    # The pages draw SVG boards (light) and, on request, a replay GIF: one worker unless told otherwise.
    if workers is None:
        workers = 1 if config.workers is None else config.workers
    # Here the pages' work is the only work: every lane runs on the pool's own workers, as the games' do in the
    # bot, and no background worker is started beside them for nothing to do (about 55 MB saved).
    compute = ComputePool(workers, warm_up=partial(warm_up, font),
                          preload=("renderer", "bot.ui.pictures", "bot.web.boards"),
                          lanes=[dataclasses.replace(lane, urgent=True) for lane in lanes()],
                          owner="the web pages' process")
    await compute.start()
    server = web_server(storage, WebLinks(config.web_secret, config.web_base_url), compute, host=config.web_host,
                        port=port, bar_ms=config.advantage_bar_ms, trust_forwarded=config.web_trust_forwarded)
    if activity_socket is not None:
        from bot.activity.routes import PREFIX
        from bot.web.forward import forward_to

        forward_to(server.app, PREFIX, activity_socket)
    listening: asyncio.Task[None] | None = None
    try:
        try:
            await server.start()
        except (WebUnavailable, StorageUnavailable) as exc:
            return fail(str(exc))
        if for_bot:
            stop = stop or _signalled(signal.SIGTERM)
            listening = asyncio.get_running_loop().create_task(_hear_the_bot(server, stop))
            _answer(f"listening {server.port}")  # the bot waits for this line, and reads no more:
            os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # anything printed later goes to the log
        stop = stop or _signalled()
        await stop.wait()
        log.info("stopping the web pages")
    finally:
        if listening is not None:
            listening.cancel()
        await server.stop()
        await compute.close()
        await storage.close()
    return 0


async def _hear_the_bot(server: WebServer, stop: asyncio.Event) -> None:
    """Pass the bot's changes (one `bot.storage.changes` channel and payload a line) to the live pages until
    the pipe closes, then set `stop`. On PostgreSQL the pages hear the database's own feed, and the bot
    sends nothing."""
    from bot.storage.changes import parse_change
    from bot.web.own_process import RESYNC

    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=1 << 16)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin.buffer)
    try:
        while line := await reader.readline():
            if line == RESYNC:
                await server.hub.resync()
                continue
            channel, _, payload = line.decode(errors="replace").strip().partition(" ")
            change = parse_change(channel, payload)
            if change is not None:
                server.hub.note_change(change)
    finally:
        stop.set()


def _signalled(*signals: signal.Signals) -> asyncio.Event:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in signals or (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    return stop


def _answer(line: str) -> int:
    """A line to the bot that started this process of pages (`bot.web.own_process`); exit code 1."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()
    return 1


def _answer_error(problem: str) -> int:
    return _answer(f"error {problem}")


def _fail(*problems: str) -> int:
    for problem in problems:
        print(f"{PROG}: error: {problem}", file=sys.stderr)
    return 1
