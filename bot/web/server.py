"""The web server: builds the aiohttp application (templates, static files, security, the live hub) and runs
it, inside the bot's process (`bot.app.start_web`, WEB_PROCESS=BOT) or alone (`bot.cli.web`: `puluc-bot web`,
and the bot's own process of pages, WEB_PROCESS=OWN, `bot.web.own_process`).

In the bot's process the live pages follow this process's sessions and tournaments directly; on PostgreSQL
they also hear every other process's writes through the database's change feed (LISTEN/NOTIFY), which is all
a web server running alone has.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import aiohttp_jinja2
import jinja2
from aiohttp import web

from bot.sessions import GameState, SessionManager
from bot.sessions.errors import GameNotOpen
from bot.sessions.rebuild import read_game
from bot.storage import ChangeFeed, Storage, StorageUnavailable
from bot.ui.links import WebLinks
from bot.web.common import CONTEXT, HUB, topic_version
from bot.web.context import WebContext
from bot.web.hub import Hub, Topic
from bot.web.live import LIMITER, TRUST_FORWARDED
from bot.web.pages import add_routes, render_topic
from bot.web.security import Limits, RateLimiter, busy_middleware, headers_middleware, limit_middleware

if TYPE_CHECKING:
    from bot.compute import ComputePool
    from bot.tournaments.manager import TournamentManager
    from bot.tournaments.results import TournamentUpdate

__all__ = ["WebServer", "WebUnavailable", "build_app", "follow_sessions"]

log = logging.getLogger(__name__)

_HERE = Path(__file__).parent
STATIC_MAX_AGE = 3600


class WebUnavailable(RuntimeError):
    """The web server cannot listen where WEB_HOST and WEB_PORT say; the message is one actionable line."""


def build_app(ctx: WebContext, *, limits: Limits | None = None, trust_forwarded: bool = False,
              manager: SessionManager | None = None) -> tuple[web.Application, Hub]:
    """The application and its live hub, reading through `ctx`; `manager`: this process's sessions, whose open
    games the hub reads from memory rather than from the database."""

    async def load(topic: Topic) -> Any:
        if topic.kind == "tournament":
            return await ctx.storage.tournaments.tournament(topic.id)
        if manager is not None:
            with contextlib.suppress(GameNotOpen):
                return manager.get(topic.id).state
        return await read_game(ctx.storage.games, topic.id)

    limiter = RateLimiter(limits or Limits())
    app = web.Application(middlewares=[headers_middleware(), limit_middleware(limiter, trust_forwarded),
                                       busy_middleware()])
    hub = Hub(load, render_topic(app), topic_version)
    app[CONTEXT] = ctx
    app[HUB] = hub
    app[LIMITER] = limiter
    app[TRUST_FORWARDED] = trust_forwarded
    if manager is not None:
        ctx.live = _open_state(manager)

    def watched(game_id: int) -> GameState | None:
        found = hub.state(Topic("game", game_id))
        return found if isinstance(found, GameState) else None

    ctx.watched = watched
    aiohttp_jinja2.setup(
        app,
        loader=jinja2.FileSystemLoader(str(_HERE / "templates")),
        autoescape=jinja2.select_autoescape(default=True),
        undefined=jinja2.StrictUndefined,
        auto_reload=False,  # the templates ship with the package: no stat() of the file at every rendering
    )
    add_routes(app)
    app.router.add_static("/static", _HERE / "static", append_version=True, name="static")
    aiohttp_jinja2.get_env(app).globals["static"] = lambda name: str(app.router["static"].url_for(filename=name))
    app.on_response_prepare.append(_static_cache)
    return app, hub


async def _static_cache(request: web.Request, response: web.StreamResponse) -> None:
    if request.path.startswith("/static/") and "v" in request.query:
        response.headers["Cache-Control"] = f"public, max-age={STATIC_MAX_AGE}"


def _open_state(manager: SessionManager) -> Callable[[int], GameState | None]:
    def live(game_id: int) -> GameState | None:
        try:
            return manager.get(game_id).state
        except GameNotOpen:
            return None

    return live


def follow_sessions(hub: Hub, manager: SessionManager, tournaments: TournamentManager | None) -> None:
    """Show this process's moves and tournament changes on the live pages as they happen."""
    manager.add_change_listener(lambda result: hub.note_state(Topic("game", result.game_id), result.state))
    if tournaments is not None:
        async def changed(update: TournamentUpdate) -> None:
            hub.note_state(Topic("tournament", update.tournament.tournament_id), update.tournament)

        tournaments.add_listener(changed)


@dataclass
class WebServer:
    """One listening web server: `start()` listens (and hears the change feed), `stop()` closes both."""

    app: web.Application
    hub: Hub
    storage: Storage
    host: str
    port: int
    _runner: web.AppRunner | None = None
    _feed: ChangeFeed | None = None
    _extra_close: list[Callable[[], Any]] = field(default_factory=list)

    async def start(self) -> None:
        """Listen on `host`:`port` (0: any free port, then `port` says which); WebUnavailable when it cannot,
        StorageUnavailable when the change feed cannot connect.

        The server and every request it serves run in a context of their own, not the caller's: a request is
        no part of whatever the bot was doing when it started the pages (its log fields, its bookkeeping)."""
        loop = asyncio.get_running_loop()
        await contextvars.Context().run(loop.create_task, self._start(), name="puluc-web-start")

    async def _start(self) -> None:
        self._feed = await self.storage.watch(self.hub.note_change, self.hub.resync)
        runner = web.AppRunner(self.app, handle_signals=False, access_log=None, shutdown_timeout=1.0)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port, reuse_address=True)
        try:
            await site.start()
        except OSError as exc:
            await runner.cleanup()
            await self._close_feed()
            raise WebUnavailable(
                f"the web pages cannot listen on {self.host}:{self.port} ({exc.strerror or exc}): set WEB_PORT to "
                "a free port (or empty to serve no pages here), and WEB_HOST to an address of this machine."
            ) from exc
        self._runner = runner
        server = getattr(site, "_server", None)
        sockets = getattr(server, "sockets", None) or ()
        if sockets:
            self.port = sockets[0].getsockname()[1]
        live = "this process's games" + (" and every process's (PostgreSQL)" if self._feed is not None else "")
        log.info("web pages on http://%s:%d (live: %s)", self.host, self.port, live)

    async def _close_feed(self) -> None:
        feed, self._feed = self._feed, None
        if feed is not None:
            try:
                await feed.close()
            except StorageUnavailable as exc:
                log.warning("closing the change feed: %s", exc)

    async def stop(self) -> None:
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()
        await self._close_feed()


def web_server(storage: Storage, links: WebLinks, compute: ComputePool, *, host: str, port: int, bar_ms: float,
               trust_forwarded: bool, manager: SessionManager | None = None,
               tournaments: TournamentManager | None = None, limits: Limits | None = None) -> WebServer:
    """A web server over `storage` (not started); with `manager`, following this process's games live."""
    ctx = WebContext(storage, links, compute, bar_ms=bar_ms)
    app, hub = build_app(ctx, limits=limits, trust_forwarded=trust_forwarded, manager=manager)
    if manager is not None:
        follow_sessions(hub, manager, tournaments)
    return WebServer(app, hub, storage, host, port)
