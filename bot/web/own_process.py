"""The web pages in a process of their own (WEB_PROCESS=OWN, the default when WEB_PORT is set): the bot starts
`puluc-bot web --for-bot` beside itself, tells it of every move and tournament change, and stops it on the way
out; should it fail, it is started again.

Why: the pages' work for a crowd of spectators (a page and a board per move and language, a write to every open
stream) is about half a core at a thousand spectators. In the bot's process its loop share would queue before
the players' answers: `benchmarks/load.py` measured the players' board-visible p99 at 353-792 ms that way against
102-430 ms without pages, and 127-333 ms with the pages in a process of their own at a lower CPU priority
(docs/OPERATIONS.md, Capacity).

The pipe between the two carries what PostgreSQL's change feed carries (`bot.storage.changes`: the channel and
its payload, one line each), in one direction: the bot writes, the pages read the database (a SQLite file in
WAL mode lets a reader beside its writer) and never write. On PostgreSQL the pages hear every process's
changes by LISTEN themselves, so the bot sends nothing. The pages' process answers on its standard output, once:
`listening <port>`, or `error <one line>` when it cannot start; its log lines go to the bot's standard error.
Closing the pipe stops it, so it never outlives the bot, even one killed outright.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import contextvars
import dataclasses
import logging
import pickle
import shutil
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from aiohttp import web

from bot.storage import Change, PostgresUrl
from bot.storage.changes import GAMES_CHANNEL, TOURNAMENTS_CHANNEL

if TYPE_CHECKING:
    from bot.config import Config
    from bot.sessions import SessionManager
    from bot.tournaments.manager import TournamentManager
    from bot.tournaments.results import TournamentUpdate

__all__ = ["RESYNC", "PagesBeside", "PagesFailed", "PagesProcess", "change_line", "config_line", "read_config_line",
           "start_pages_beside"]

log = logging.getLogger(__name__)

START_SECONDS = 60.0  # for the pages' process to say it listens (it starts a board worker first)
STOP_SECONDS = 5.0  # for it to close its streams once told to stop, before it is terminated
RESTART_SECONDS = (1.0, 5.0, 30.0, 60.0)  # waits before each new start after a failure (the last repeats)
STEADY_SECONDS = 300.0  # a process that ran this long failed afresh: its next restart waits the shortest time
MAX_PENDING = 1 << 20  # bytes of changes the pipe may hold unread before the rest are dropped (then RESYNC)
RESYNC = b"resync\n"  # changes were dropped: read every watched game and tournament again


class PagesFailed(RuntimeError):
    """The pages' process could not start; the message is its one actionable line."""


def change_line(change: Change) -> bytes:
    """One change as the pipe carries it: the change feed's channel and payload."""
    if change.kind == "game":
        return f"{GAMES_CHANNEL} {change.id}:{change.seq}\n".encode()
    return f"{TOURNAMENTS_CHANNEL} {change.id}\n".encode()


def config_line(config: Config) -> bytes:
    """The settings for the pages' process, as the first line of its pipe (it reads no `.env` of its own: it
    serves exactly what this bot was started with, tests' settings included), less the secrets it has no use
    for: the bot's token and the Activity's client secret (the Activity stays in the bot's process)."""
    needed = dataclasses.replace(config, discord_token="", activity_client=None)
    return base64.b64encode(pickle.dumps(needed)) + b"\n"


def read_config_line(line: bytes) -> Config:
    """The settings `config_line` wrote (the pipe is the bot's own, from the process that started this one)."""
    return pickle.loads(base64.b64decode(line.strip()))  # type: ignore[no-any-return]


class PagesProcess:
    """The pages' process: `start()` starts it and waits until it listens (PagesFailed when it cannot),
    `note()` tells it a change, `stop()` stops it. `port` is where it listens (WEB_PORT, or the port it was
    given for WEB_PORT=0, kept across restarts)."""

    def __init__(self, config: Config, *, activity_socket: Path | None = None,
                 command: Sequence[str] | None = None) -> None:
        self._config = config
        self._activity_socket = activity_socket
        self._command = list(command) if command is not None else [sys.executable, "-m", "bot", "web", "--for-bot"]
        self.port = config.web_port or 0
        # On PostgreSQL the pages hear every process's changes themselves (LISTEN/NOTIFY).
        self.tells = not isinstance(config.database, PostgresUrl)
        self.starts = 0  # processes started (tests and the log count restarts)
        self._proc: asyncio.subprocess.Process | None = None
        self._keeper: asyncio.Task[None] | None = None
        self._stopping = False
        self._behind = False  # changes were dropped while the pipe was full: say so once it drains

    @property
    def pid(self) -> int | None:
        return None if self._proc is None else self._proc.pid

    async def start(self) -> None:
        await self._spawn()
        # In a context of its own, as the pages in this process run (`bot.web.server.WebServer.start`): keeping
        # the pages' process is no part of whatever the bot was doing when it started them.
        self._keeper = contextvars.Context().run(asyncio.get_running_loop().create_task, self._keep(),
                                                 name="puluc-web-process")

    async def _spawn(self) -> None:
        args = [*self._command, "--port", str(self.port)]
        if self._activity_socket is not None:
            args += ["--activity-socket", str(self._activity_socket)]
        proc = await asyncio.create_subprocess_exec(*args, stdin=asyncio.subprocess.PIPE,
                                                    stdout=asyncio.subprocess.PIPE)
        self.starts += 1
        try:
            answer = await self._answer(proc)
        except BaseException:  # stopped while it started: it must not outlive us
            await self._end(proc)
            raise
        word, _, rest = answer.partition(" ")
        if word != "listening" or not rest.isdigit():
            await self._end(proc)
            why = rest if word == "error" and rest else f"it stopped at start (exit code {proc.returncode})"
            raise PagesFailed(f"the web pages' process could not start: {why}")
        self.port = int(rest)
        self._proc = proc
        log.info("web pages in their own process (pid %d) on http://%s:%d", proc.pid, self._config.web_host,
                 self.port)

    async def _answer(self, proc: asyncio.subprocess.Process) -> str:
        """Send the settings; the process's one-line answer (`listening <port>` or `error <why>`)."""
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(config_line(self._config))
        try:
            async with asyncio.timeout(START_SECONDS):
                return (await proc.stdout.readline()).decode(errors="replace").strip()
        except TimeoutError:
            return f"error it did not start listening within {START_SECONDS:.0f} s"

    async def _keep(self) -> None:
        """Start the process again whenever it ends without being told to, waiting longer after each quick
        failure; the pages are away meanwhile (their browsers reconnect by themselves)."""
        failures = 0
        loop = asyncio.get_running_loop()
        while not self._stopping:
            proc = self._proc
            assert proc is not None
            began = loop.time()
            code = await proc.wait()
            if self._stopping:
                return
            failures = 1 if loop.time() - began >= STEADY_SECONDS else failures + 1
            wait = RESTART_SECONDS[min(failures, len(RESTART_SECONDS)) - 1]
            log.error("the web pages' process stopped (exit code %s); starting it again in %.0f s", code, wait)
            while not self._stopping:
                await asyncio.sleep(wait)
                if self._stopping:
                    return
                try:
                    await self._spawn()
                    break
                except (PagesFailed, OSError) as exc:
                    failures += 1
                    wait = RESTART_SECONDS[min(failures, len(RESTART_SECONDS)) - 1]
                    log.error("%s; trying again in %.0f s", exc, wait)

    def note(self, change: Change) -> None:
        """Tell the pages of a committed change (on SQLite; on PostgreSQL they hear it from the database). A
        pipe the pages do not read for a while holds at most `MAX_PENDING` bytes; past that changes are dropped,
        and the next one that fits goes after a RESYNC, which makes the pages read everything they show again."""
        if not self.tells:
            return
        proc = self._proc
        if proc is None or proc.stdin is None or proc.returncode is not None or proc.stdin.is_closing():
            return
        pending = proc.stdin.transport.get_write_buffer_size()
        if pending > MAX_PENDING:
            self._behind = True
            return
        line = change_line(change)
        if self._behind:  # some changes never went: the pages read every watched game again
            self._behind = False
            line = RESYNC + line
        with contextlib.suppress(ConnectionError):
            proc.stdin.write(line)

    async def stop(self) -> None:
        """Stop the process: close its pipe (it closes its streams and ends), terminate it if it has not
        ended after `STOP_SECONDS`."""
        self._stopping = True
        keeper, self._keeper = self._keeper, None
        if keeper is not None:
            keeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await keeper
        proc, self._proc = self._proc, None
        if proc is not None:
            await self._end(proc)

    @staticmethod
    async def _end(proc: asyncio.subprocess.Process) -> None:
        """Close the pipe and wait `STOP_SECONDS` for the process to end; then terminate it, then kill it."""
        if proc.stdin is not None and not proc.stdin.is_closing():
            proc.stdin.close()
        for harder in (proc.terminate, proc.kill):
            try:
                async with asyncio.timeout(STOP_SECONDS):
                    await proc.wait()
                    return
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    harder()
        await proc.wait()



class PagesBeside:
    """What the bot runs for its pages with WEB_PROCESS=OWN: the pages' process, told of this process's
    changes, and, when the Discord Activity is on, the Activity's own little server on a Unix socket, which
    the pages' process passes the Activity's requests on to (its games are played in this process)."""

    def __init__(self, process: PagesProcess, activity: web.AppRunner | None, socket_dir: Path | None) -> None:
        self.process = process
        self._activity = activity
        self._socket_dir = socket_dir

    @property
    def port(self) -> int:
        return self.process.port

    async def stop(self) -> None:
        await self.process.stop()
        if self._activity is not None:
            await self._activity.cleanup()
        if self._socket_dir is not None:
            shutil.rmtree(self._socket_dir, ignore_errors=True)


async def start_pages_beside(config: Config, manager: SessionManager, tournaments: TournamentManager | None,
                             activity: web.Application | None = None) -> PagesBeside:
    """Start the pages' process (and `activity`, the Activity's application, on a Unix socket for it), and tell
    it every change of this process's games and tournaments; PagesFailed when either cannot start."""
    runner: web.AppRunner | None = None
    socket_dir: Path | None = None
    socket_path: Path | None = None
    if activity is not None:
        # A directory only this user may enter: nobody else on the machine can reach the Activity's socket.
        socket_dir = Path(tempfile.mkdtemp(prefix="puluc-web-"))
        socket_path = socket_dir / "activity"  # a Unix socket
        runner = web.AppRunner(activity, handle_signals=False, access_log=None, shutdown_timeout=1.0)
        await runner.setup()
        try:
            await web.UnixSite(runner, str(socket_path)).start()
        except OSError as exc:
            await runner.cleanup()
            shutil.rmtree(socket_dir, ignore_errors=True)
            raise PagesFailed(f"the Discord Activity cannot listen on {socket_path} ({exc.strerror or exc})") from exc
    process = PagesProcess(config, activity_socket=socket_path)
    try:
        await process.start()
    except (PagesFailed, OSError) as exc:
        if runner is not None:
            await runner.cleanup()
        if socket_dir is not None:
            shutil.rmtree(socket_dir, ignore_errors=True)
        if isinstance(exc, PagesFailed):
            raise
        raise PagesFailed(f"the web pages' process could not start ({exc})") from exc
    manager.add_change_listener(lambda result: process.note(Change("game", result.game_id, result.state.seq)))
    if tournaments is not None:
        async def changed(update: TournamentUpdate) -> None:
            process.note(Change("tournament", update.tournament.tournament_id))

        tournaments.add_listener(changed)
    return PagesBeside(process, runner, socket_dir)
