"""The Activity's HTTP surface, mounted on the web companion's aiohttp application by `add_activity_routes`.

    GET  {prefix}/             the page (its script and style under {prefix}/static/, built by activity/)
    POST {prefix}/api/session  {code, instance_id} -> the member, their access token, the Activity's ticket and
                               `api`, where the rest of the API is for their server:
    POST {prefix}/{api}renew   a fresh ticket for a ticket that has not run out
    GET  {prefix}/{api}game    the channel's game as the member sees it
    GET  {prefix}/{api}live    the same, again after every change (Server-Sent Events)
    POST {prefix}/{api}move    {game_id, seq, move}: play a move, as the game message's button would

`api` is `api/` when one process runs every server. With shards on several processes (SHARD_IDS) it is
`shard-N/api/` for a server of shard N: each process answers its own shards' paths (and any process signs in),
and the reverse proxy in front of them sends /activity/shard-N/ to the process that runs shard N, where that
server's games are played (docs/OPERATIONS.md, Discord Activity).

Discord maps the Activity's root (`https://<application>.discordsays.com/`) onto `{prefix}` of the web
companion (docs/OPERATIONS.md, Discord Activity), and the page calls the API through Discord's `/.proxy/`
path. Every request after sign-in carries the ticket as `Authorization: Bearer <ticket>`; every refusal is a
JSON `{error, message}` with the sentence in the member's language. No handler logs a code, a token or a ticket.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from importlib import resources
from typing import TYPE_CHECKING, Any

import aiohttp
from aiohttp import web

from bot.activity.board import draw_svg
from bot.activity.discord_api import DiscordApi
from bot.activity.errors import (
    ActivityRefusal,
    BadRequest,
    BadSession,
    Failed,
    NotThisGame,
    OtherServer,
    SessionExpired,
    TooFast,
    WrongInstance,
    WrongProcess,
)
from bot.activity.live import ChannelFeed
from bot.activity.signin import sign_in
from bot.activity.tickets import RENEW_BEFORE, TICKET_SECONDS, Signer, Ticket
from bot.activity.view import JsonObject, game_view, page_texts
from bot.sessions import ActionResult, GameState
from bot.sessions.errors import GameNotOpen, NoGameHere, SessionError, StaleAction
from bot.storage.shards import Shards, shard_of
from bot.ui.i18n import DEFAULT_LANGUAGE, language_for, t

if TYPE_CHECKING:
    from bot.config import Config
    from bot.services import GameServices

log = logging.getLogger(__name__)

PREFIX = "/activity"
# A live connection says something at least this often, so proxies (Discord's among them) keep it open.
HEARTBEAT_SECONDS = 15.0
# Boards drawn lately, by (game, event, language): every watcher of a move shares one drawing.
SVG_CACHE = 64
# Each sign-in is four calls to Discord: a crowd opening the Activity at once waits its turn rather than
# running into Discord's rate limits all together.
SIGN_INS_AT_ONCE = 8
# What one member may ask (requests behind Discord's proxy share its addresses, so the limit is per member): a
# burst of MEMBER_BURST requests, then MEMBER_RATE a second, and MEMBER_STREAMS live streams at once (a page
# holds one; a few more cover a reload or a second device).
MEMBER_BURST = 30
MEMBER_RATE = 2.0
MEMBER_STREAMS = 4
# Live events lately sent, by what makes them differ (channel, change, game, language, the member's seat).
EVENT_CACHE = 256
MAX_BODY = 4096  # the API's requests are a few short fields
STATIC = resources.files("bot.activity") / "static"

# Discord opens the Activity in a frame of its client (discord.com, its canary and ptb builds, the popout's
# discordsays.com); 'self' lets a page of the web companion frame it (the end-to-end test's stand-in).
FRAME_ANCESTORS = ("'self' https://discord.com https://*.discord.com https://discordapp.com "
                   "https://*.discordapp.com https://*.discordsays.com")
PAGE_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    f"base-uri 'none'; form-action 'none'; frame-ancestors {FRAME_ANCESTORS}"
)

# The language of a request's answers, once its ticket (or sign-in) has told it.
LANG = web.RequestKey("puluc_activity_lang", str)

BoardDrawer = Callable[[GameState, str], Awaitable[str | None]]


@dataclass(frozen=True)
class ActivitySettings:
    """What the Activity needs from the settings: the OAuth2 client, the bot token, Discord's API address."""

    client_id: int
    client_secret: str = field(repr=False)
    bot_token: str = field(repr=False)
    api_url: str = "https://discord.com/api/v10"
    # Signs the tickets; the client secret unless told another (the web companion's WEB_SECRET, when set).
    ticket_secret: bytes | None = field(default=None, repr=False)
    ticket_seconds: float = TICKET_SECONDS
    prefix: str = PREFIX
    shards: Shards | None = None  # this process's shards (SHARD_COUNT, SHARD_IDS); None: every server's

    @classmethod
    def from_config(cls, config: Config, ticket_secret: bytes | None = None) -> ActivitySettings | None:
        """The Activity's settings, or None when DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET are not set."""
        client = config.activity_client
        if client is None:
            return None
        return cls(client.client_id, client.secret, config.discord_token, config.discord_api_url, ticket_secret,
                   shards=config.shards)

    @property
    def split(self) -> bool:
        """Whether other processes run some servers' games (the API is then per shard)."""
        return self.shards is not None and not self.shards.is_whole

    def api_of(self, guild_id: int) -> str:
        """Where the API of a server's games is, relative to the page: `api/`, or `shard-N/api/`."""
        if self.shards is None or not self.split:
            return "api/"
        return f"shard-{shard_of(guild_id, self.shards.count)}/api/"




def mount_activity(app: web.Application, config: Config, games: GameServices) -> Activity | None:
    """The Activity on the web companion's `app` when the settings turn it on (DISCORD_CLIENT_ID and
    DISCORD_CLIENT_SECRET), else nothing: the one call the web companion's start-up makes."""
    settings = ActivitySettings.from_config(config)
    if settings is None:
        return None
    log.info("the Discord Activity is served under %s/ (application %d)", settings.prefix, settings.client_id)
    return add_activity_routes(app, games, settings)


def add_activity_routes(app: web.Application, games: GameServices, settings: ActivitySettings, *,
                        clock: Callable[[], float] = time.time, draw: BoardDrawer | None = None) -> Activity:
    """Mount the Activity's page and API under `settings.prefix` of `app` (before `app` starts)."""
    activity = Activity(games, settings, clock=clock, draw=draw)
    app[ACTIVITY] = activity
    app.cleanup_ctx.append(activity.running)
    app.on_shutdown.append(activity.shutdown)
    prefix = settings.prefix
    app.router.add_get(prefix, activity.to_page)
    app.router.add_get(prefix + "/", activity.page)
    app.router.add_static(prefix + "/static", str(STATIC))
    app.router.add_post(prefix + "/api/session", activity.session)
    shards = settings.shards
    apis = [f"/shard-{shard}/api/" for shard in shards.ids] if shards is not None and settings.split else ["/api/"]
    for api in apis:
        app.router.add_post(prefix + api + "renew", activity.renew)
        app.router.add_get(prefix + api + "game", activity.game)
        app.router.add_get(prefix + api + "live", activity.live)
        app.router.add_post(prefix + api + "move", activity.move)
    if settings.split:
        # Another process's shard: the reverse proxy sent it to the wrong process; say so plainly.
        app.router.add_route("*", prefix + "/shard-{shard:[0-9]+}/api/{rest:.*}", activity.misrouted)
    return activity


def _json(data: JsonObject, status: int = 200) -> web.Response:
    return web.json_response(data, status=status, headers={"Cache-Control": "no-store"})


def refused(error: ActivityRefusal | SessionError, lang: str) -> web.Response:
    """The answer to a refused request: its key and its sentence in `lang`."""
    if isinstance(error, ActivityRefusal):
        return _json({"error": error.key, "message": t(error.key, lang)}, error.status)
    key = "activity.error.stale" if isinstance(error, StaleAction) else error.key
    status = 404 if isinstance(error, GameNotOpen | NoGameHere) else 409
    return _json({"error": key, "message": t(key, lang, **error.params)}, status)


def answering(handler: Callable[[Activity, web.Request], Awaitable[web.StreamResponse]]
              ) -> Callable[[Activity, web.Request], Awaitable[web.StreamResponse]]:
    """A handler whose refusals become their JSON answers, in the ticket's language when it has one."""

    async def answer(self: Activity, request: web.Request) -> web.StreamResponse:
        try:
            return await handler(self, request)
        except (ActivityRefusal, SessionError) as error:
            log.info("Activity refused %s %s: %s", request.method, request.path, error)
            return refused(error, request.get(LANG, DEFAULT_LANGUAGE))
        except web.HTTPException:
            raise
        except Exception:
            log.exception("the Activity failed to answer %s %s", request.method, request.path)
            return refused(Failed("an unexpected error"), request.get(LANG, DEFAULT_LANGUAGE))

    return answer


class Activity:
    """The Activity of one bot: its Discord API client, its ticket signer and what it knows of each channel."""

    def __init__(self, games: GameServices, settings: ActivitySettings, *, clock: Callable[[], float],
                 draw: BoardDrawer | None) -> None:
        self._games = games
        self.settings = settings
        self._clock = clock
        self.feed = ChannelFeed(games.manager)
        self._draw = draw or (lambda state, lang: draw_svg(games.compute, state, lang, self.feed.last_move(state),
                                                           games.config.advantage_bar_ms))
        self._signer = Signer(settings.ticket_secret or settings.client_secret.encode())
        self._api: DiscordApi | None = None
        self._events: OrderedDict[tuple[object, ...], bytes] = OrderedDict()
        self._svgs: OrderedDict[tuple[int, int, str], asyncio.Future[str | None]] = OrderedDict()
        self._showing: set[asyncio.Task[Any]] = set()
        self._closing = asyncio.Event()
        self._signing_in = asyncio.Semaphore(SIGN_INS_AT_ONCE)
        self._budgets: dict[int, tuple[float, float]] = {}  # member -> (requests left, when counted)
        self._streams: dict[int, int] = {}  # member -> live streams open
        self._page_template: str | None = None

    # -- lifecycle --------------------------------------------------------------------------------------

    async def running(self, app: web.Application) -> AsyncIterator[None]:
        """The Discord API client lives as long as the web application."""
        async with aiohttp.ClientSession() as http:
            self._api = DiscordApi(http, self.settings.api_url, client_id=self.settings.client_id,
                                   client_secret=self.settings.client_secret, bot_token=self.settings.bot_token)
            yield
            self._api = None
            await self.settled()

    async def shutdown(self, app: web.Application) -> None:
        """End the live connections, so the server can stop without waiting for them."""
        self._closing.set()

    async def settled(self) -> None:
        """Wait until every game message a move of the Activity asked for is shown (tests, and shutdown)."""
        while self._showing:
            await asyncio.gather(*self._showing, return_exceptions=True)

    @property
    def api(self) -> DiscordApi:
        if self._api is None:
            raise RuntimeError("the Activity's web application is not running")
        return self._api

    # -- the page ---------------------------------------------------------------------------------------

    async def to_page(self, request: web.Request) -> web.StreamResponse:
        query = f"?{request.query_string}" if request.query_string else ""  # Discord's frame_id, instance_id, ...
        raise web.HTTPPermanentRedirect(f"{self.settings.prefix}/{query}")

    async def page(self, request: web.Request) -> web.StreamResponse:
        """The page, in the language the browser asks for until the member's own is known."""
        if self._page_template is None:
            self._page_template = await asyncio.to_thread((STATIC / "index.html").read_text, "utf-8")
        lang = language_for(_first_language(request.headers.get("Accept-Language", "")))
        boot = json.dumps({"client_id": str(self.settings.client_id), "lang": lang, "texts": page_texts(lang)})
        # JSON inside a <script type="application/json">: only "</" could end it early, and JSON may escape "/".
        html = (self._page_template.replace("{{lang}}", lang)
                .replace("{{boot}}", boot.replace("</", "<\\/")))
        return web.Response(text=html, content_type="text/html", charset="utf-8", headers={
            "Content-Security-Policy": PAGE_POLICY,
            "Cache-Control": "no-store",
            "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "no-referrer",
        })

    # -- signing in -------------------------------------------------------------------------------------

    @answering
    async def session(self, request: web.Request) -> web.StreamResponse:
        """Sign the member in with the code of the SDK's `authorize` (`bot.activity.signin`)."""
        body = await _body(request)
        code, instance_id = body.get("code"), body.get("instance_id")
        if not isinstance(code, str) or not code or not isinstance(instance_id, str) or not instance_id:
            raise BadRequest("a sign-in needs a code and an instance_id")
        if len(code) > 200 or len(instance_id) > 200:
            raise BadRequest("a code or an instance_id longer than Discord's")
        async with self._signing_in:
            signed = await sign_in(self.api, code, instance_id, self._clock(), self.settings.ticket_seconds)
        request[LANG] = signed.ticket.lang
        return _json({
            "access_token": signed.access_token,
            "ticket": self._signer.sign(signed.ticket),
            "expires_in": self.settings.ticket_seconds,
            "renew_before": RENEW_BEFORE,
            "user": {"id": str(signed.user.id), "name": signed.user.name},
            "lang": signed.ticket.lang,
            "api": self.settings.api_of(signed.ticket.guild_id),
            "texts": page_texts(signed.ticket.lang),
            "game": await self._view(signed.ticket) if self._runs(signed.ticket) else None,
        })

    @answering
    async def renew(self, request: web.Request) -> web.StreamResponse:
        """A fresh ticket for a member who is still in the Activity's instance (Discord is asked again, so a
        member who left it, or was removed from the server with it, is not renewed)."""
        ticket = self._ticket(request)
        self._state(ticket)  # a ticket of another process's server is renewed where it is used
        instance = await self.api.activity_instance(ticket.instance_id)
        if ticket.user_id not in instance.users:
            raise WrongInstance(f"user {ticket.user_id} left activity instance {ticket.instance_id!r}")
        fresh = ticket.renewed(self._clock(), self.settings.ticket_seconds)
        return _json({"ticket": self._signer.sign(fresh), "expires_in": self.settings.ticket_seconds})

    @answering
    async def misrouted(self, request: web.Request) -> web.StreamResponse:
        self._ticket(request)  # a member's own request: refused in their language
        log.warning("the reverse proxy sent %s to a process that runs %s (docs/OPERATIONS.md, Discord Activity)",
                    request.path, self.settings.shards)
        raise WrongProcess(f"{request.path} is for a shard this process does not run ({self.settings.shards})")

    def _ticket(self, request: web.Request) -> Ticket:
        scheme, _, token = request.headers.get("Authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not token:
            raise BadSession("no ticket in the Authorization header")
        try:
            ticket = self._signer.check(token.strip(), self._clock())
        except SessionExpired as expired:
            request[LANG] = expired.lang
            raise
        request[LANG] = ticket.lang
        self._spend(ticket.user_id)
        return ticket

    def _spend(self, user_id: int) -> None:
        """Count one request of the member; TooFast past their budget (MEMBER_BURST, then MEMBER_RATE a second)."""
        now = time.monotonic()
        left, when = self._budgets.get(user_id, (float(MEMBER_BURST), now))
        left = min(float(MEMBER_BURST), left + (now - when) * MEMBER_RATE)
        if left < 1.0:
            self._budgets[user_id] = (left, now)
            raise TooFast(f"user {user_id} is over {MEMBER_RATE:g} requests a second")
        self._budgets[user_id] = (left - 1.0, now)
        if len(self._budgets) > 10_000:  # forget the members whose budgets have refilled
            self._budgets = {user: (tokens, at) for user, (tokens, at) in self._budgets.items()
                             if tokens + (now - at) * MEMBER_RATE < MEMBER_BURST}

    # -- the game ---------------------------------------------------------------------------------------

    def _runs(self, ticket: Ticket) -> bool:
        """Whether this process runs the games of the ticket's server."""
        shards = self.settings.shards
        return shards is None or shards.owns(ticket.guild_id)

    def _state(self, ticket: Ticket) -> GameState | None:
        if not self._runs(ticket):
            raise WrongProcess(f"server {ticket.guild_id} is not on this process's {self.settings.shards}")
        state = self.feed.state(ticket.channel_id)
        if state is not None and state.place.guild_id != ticket.guild_id:
            raise OtherServer(f"game {state.game_id} is not in server {ticket.guild_id}")
        return state

    async def _svg(self, state: GameState, lang: str) -> str | None:
        """The board of `state` in `lang`, drawn once however many watch it (every watcher of a move waits for
        the same drawing); None when the game has no board or the drawing failed."""
        if state.position is None:
            return None
        key = (state.game_id, state.seq, lang)
        drawing = self._svgs.get(key)
        if drawing is None:
            drawing = self._svgs[key] = asyncio.ensure_future(self._drawn(state, lang))
            while len(self._svgs) > SVG_CACHE:
                self._svgs.popitem(last=False)
        else:
            self._svgs.move_to_end(key)
        return await asyncio.shield(drawing)

    async def _drawn(self, state: GameState, lang: str) -> str | None:
        try:
            return await self._draw(state, lang)
        except Exception:
            # A drawing bug must not hide the game: the page still says everything in words.
            log.exception("could not draw the Activity's board of game %d", state.game_id)
            return None

    async def _view(self, ticket: Ticket, state: GameState | None = None) -> JsonObject:
        state = state if state is not None else self._state(ticket)
        if state is None:
            return game_view(None, ticket.user_id, ticket.lang, narration=[], svg=None)
        return game_view(state, ticket.user_id, ticket.lang, narration=self.feed.narration(state, ticket.lang),
                         svg=await self._svg(state, ticket.lang))

    async def _event(self, ticket: Ticket, state: GameState | None, version: int) -> bytes:
        """The live stream's event of the channel's game as `ticket`'s member sees it: made once for all who see
        the same (every spectator in one language shares one; each player has their own)."""
        seat = state.seat_of(ticket.user_id) if state is not None else None
        key = (ticket.channel_id, version, state.game_id if state is not None else None, ticket.lang,
               seat.seat if seat is not None else None)
        event = self._events.get(key)
        if event is None:
            view = await self._view(ticket, state)
            event = self._events[key] = f"event: game\ndata: {json.dumps(view)}\n\n".encode()
            while len(self._events) > EVENT_CACHE:
                self._events.popitem(last=False)
        return event

    @answering
    async def game(self, request: web.Request) -> web.StreamResponse:
        return _json(await self._view(self._ticket(request)))

    @answering
    async def live(self, request: web.Request) -> web.StreamResponse:
        """The game as the member sees it, sent again after every change of the channel, until the ticket
        runs out (the page reconnects with its renewed ticket) or the server stops."""
        ticket = self._ticket(request)
        self._state(ticket)  # refuses a ticket of another server before the stream starts
        if self._streams.get(ticket.user_id, 0) >= MEMBER_STREAMS:
            raise TooFast(f"user {ticket.user_id} has {MEMBER_STREAMS} live streams open")
        self._streams[ticket.user_id] = self._streams.get(ticket.user_id, 0) + 1
        try:
            return await self._stream(request, ticket)
        finally:
            left = self._streams.pop(ticket.user_id) - 1
            if left:
                self._streams[ticket.user_id] = left

    async def _stream(self, request: web.Request, ticket: Ticket) -> web.StreamResponse:
        response = web.StreamResponse(headers={
            "Content-Type": "text/event-stream", "Cache-Control": "no-store", "X-Accel-Buffering": "no",
        })
        await response.prepare(request)
        channel, shown = ticket.channel_id, None
        with contextlib.suppress(ConnectionResetError):
            while not self._closing.is_set():
                version, state = self.feed.version(channel), self.feed.state(channel)
                # A lobby opened since is noticed at the next heartbeat: the feed hears of a game when it starts.
                mark = (state.game_id if state is not None else None, version)
                if mark != shown:
                    await response.write(await self._event(ticket, state, version))
                    shown = mark
                left = ticket.expires - self._clock()
                if left <= 0:
                    await response.write(b"event: expired\ndata: {}\n\n")
                    break
                if await self._wait(channel, version, min(HEARTBEAT_SECONDS, left)) == version:
                    await response.write(b": still here\n\n")
        return response

    async def _wait(self, channel: int, seen: int, within: float) -> int:
        """The channel's version after a change, `within` seconds, or the server's shutdown (whichever is first)."""
        closing = asyncio.ensure_future(self._closing.wait())
        changed = asyncio.ensure_future(self.feed.wait(channel, seen, within))
        try:
            await asyncio.wait((closing, changed), return_when=asyncio.FIRST_COMPLETED)
        finally:
            closing.cancel()
            changed.cancel()
        return self.feed.version(channel)

    # -- playing ----------------------------------------------------------------------------------------

    @answering
    async def move(self, request: web.Request) -> web.StreamResponse:
        """Play a move through the game's session, with the checks of a button: the seat to move only, the
        position the page showed (`seq`), one move at a time (the game's lock); then show it in the channel
        as a button's move is shown."""
        ticket = self._ticket(request)
        body = await _body(request)
        game_id, seq, notation = body.get("game_id"), body.get("seq"), body.get("move")
        if (not isinstance(game_id, str) or not game_id.isdigit() or not isinstance(seq, int)
                or isinstance(seq, bool) or not isinstance(notation, str) or not 0 < len(notation) <= 20):
            raise BadRequest("a move needs game_id (text), seq (a number) and move (its notation)")
        if not self._runs(ticket):
            raise WrongProcess(f"server {ticket.guild_id} is not on this process's {self.settings.shards}")
        session = self._games.manager.in_channel(ticket.channel_id)
        if session is None:
            raise NoGameHere(f"no open game in channel {ticket.channel_id}")
        if session.game_id != int(game_id):
            raise NotThisGame(f"game {game_id} is not the game of channel {ticket.channel_id}")
        if session.state.place.guild_id != ticket.guild_id:
            raise OtherServer(f"game {game_id} is not in server {ticket.guild_id}")
        result = await session.play(ticket.user_id, notation, turn=seq)
        self._show(result)
        return _json(await self._view(ticket, result.state))

    def _show(self, result: ActionResult) -> None:
        """Show the move in the channel as a button's move is shown (`Presenter.show`), without making the page
        wait for Discord: the page's board follows the game at once (`ChannelFeed`)."""
        task = asyncio.get_running_loop().create_task(self._games.presenter.show(result),
                                                      name=f"puluc-activity-show-{result.game_id}")
        self._showing.add(task)
        task.add_done_callback(self._shown)

    def _shown(self, task: asyncio.Task[Any]) -> None:
        self._showing.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("showing a move of the Activity failed", exc_info=task.exception())


#: The application's Activity, for whoever needs it after mounting (the web companion, tests).
ACTIVITY: web.AppKey[Activity] = web.AppKey("puluc_activity", Activity)


async def _body(request: web.Request) -> dict[str, Any]:
    """The request's JSON object; BadRequest for anything else."""
    if request.content_length is not None and request.content_length > MAX_BODY:
        raise BadRequest("a request body larger than the API takes")
    try:
        body = json.loads(await request.content.read(MAX_BODY + 1) or b"null")
    except (ValueError, UnicodeDecodeError):
        raise BadRequest("a request body that is not JSON") from None
    if not isinstance(body, dict):
        raise BadRequest("a request body that is not a JSON object")
    return body


def _first_language(header: str) -> str | None:
    """The first language of an Accept-Language header ("fr-CH, fr;q=0.9, en;q=0.8" -> "fr-CH")."""
    first = header.split(",", 1)[0].split(";", 1)[0].strip()
    return first or None
