"""The one shared toolbox of the test suite: fakes, clocks, seeded games and the SimCord world.

Test modules import what they need from here and never from each other (nor from a conftest). Fixtures that
wrap these live in `tests/conftest.py` (and in `tests/bot/sessions/conftest.py` for the session layer's
repositories). Sections:

- `present`, a value that may be None read as the value it must be;
- time: `FakeClock`, a clock the test moves by hand;
- seeds: `seed_sequence`, the hook for reproducible games (`PulucBot(seeds=...)`, `SessionManager(seeds=...)`);
- positions built from a few cells (`at`, `ppn`), moves played by their notation, seeded random games;
- images: decoding PNGs and reading their pixels;
- storage: a SQLite database in a file (`open_sqlite`), and one that fails on demand (`FailingDatabase`);
- the session layer: players, places, a stand-in for the AI, a manager, a started duel, a game played out;
- the bot's log: `ErrorLog`, the ERROR records a test did not declare (see `tests/conftest.py`);
- SimCord: `World` (a server with five members), reading messages as a player does, and clicking;
- catalogues: `reword`, a language whose messages say things in another order;
- the Discord Activity: `FakeDiscord`, Discord's OAuth2 and API as the Activity's backend calls them.
"""

from __future__ import annotations

import io
import logging
import random
import re
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar

import discord
import pytest
import simcord
import simcord.interactions as sim_interactions
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from discord import app_commands
from PIL import Image
from simcord.backend import serializers
from simcord.enums import AppCommandType, ComponentType, InteractionType

from bot.activity.routes import Activity, ActivitySettings, BoardDrawer, add_activity_routes
from bot.app import PulucBot, bot_for
from bot.compute import ComputeBusy
from bot.config import ActivityClient, Config
from bot.limits import RateLimited
from bot.services import services
from bot.sessions import GameOptions, GameSession, GameState, Limits, Place, Player, SessionError, SessionManager
from bot.sessions.ports import GameRecords
from bot.sessions.session import Advisor, MovePicker
from bot.storage import Storage, open_storage
from bot.storage.changes import ChangeFeed, OnChange, OnResync
from bot.storage.shards import Shards
from bot.storage.sql.port import Clock, Database, Dialect, Row, Transaction
from bot.storage.urls import SqliteUrl
from bot.ui import i18n
from bot.ui.links import WebLinks
from bot.web.context import WebContext
from bot.web.server import build_app
from puluc import GameRecord, Move, Position, Rules
from renderer.sample import random_game

T = TypeVar("T")


def present(value: T | None) -> T:
    """`value`, failing the test where it is None: for a step whose result a test goes on to read
    (`present(result.response).content`, `present(state.seat("A1")).timeouts`)."""
    assert value is not None, "expected a value, got None"
    return value


# -- time ---------------------------------------------------------------------------------------------------

START = 1_800_000_000.0  # a fixed "now" (2027-01-15) so time-based rules are reproducible
DAY = 86_400.0


class FakeClock:
    """Wall-clock seconds that move only when the test says so: `clock.advance(90)`, `clock.advance(days=31)`.
    With `tick`, every reading moves the clock on by that many seconds (so each write gets its own time)."""

    def __init__(self, now: float = START, *, tick: float = 0.0) -> None:
        self.now = now
        self.tick = tick

    def __call__(self) -> float:
        self.now += self.tick
        return self.now

    def advance(self, seconds: float = 0.0, *, days: float = 0.0) -> None:
        self.now += days * DAY + seconds


# -- seeds --------------------------------------------------------------------------------------------------

GAME_SEED = 2026  # the seed of the seed sequence every test bot uses


def seed_sequence(seed: int = GAME_SEED) -> Callable[[], int]:
    """Game seeds (throw-offs and throws) from a fixed sequence instead of the system's randomness, so a
    test sees the same games on every run. Pass it as `seeds=` to `PulucBot` or `SessionManager`."""
    rng = random.Random(seed)
    return lambda: rng.getrandbits(63)


# -- positions, in the words of RULES.md ---------------------------------------------------------------------


def ppn(length: int, cells: dict[int, str], home: str, kills: str, turn: str, pending: str = "-") -> str:
    """A PPN text from a few cells (the others empty)."""
    board = "/".join(cells.get(i, ".") for i in range(1, length + 1))
    return f"{board} {home} {kills} {turn} {pending}"


def at(rules: Rules, cells: dict[int, str], home: str, kills: str, turn: str, pending: str = "-") -> Position:
    """The position with these cells, pieces waiting at home, kills, seat to move and pending throws."""
    return Position.from_ppn(rules, ppn(rules.road_length, cells, home, kills, turn, pending))


def play(pos: Position, *moves: str) -> Position:
    for text in moves:
        pos = pos.play(Move.parse(text))
    return pos


def legal(pos: Position) -> set[str]:
    return {str(m) for m in pos.legal_moves()}


def random_record(rules: Rules, seed: int, moves: int) -> GameRecord:
    """A seeded game of random legal moves, stopped after `moves` moves or at its end."""
    return random_game(rules, seed, max_moves=moves)


def played(rules: Rules, seed: int, moves: int) -> Position:
    return random_record(rules, seed, moves).replay()


# -- images -------------------------------------------------------------------------------------------------


def decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def rgb(data: bytes) -> Image.Image:
    return decode(data).convert("RGB")


def pixels(image: Image.Image) -> list[tuple[int, ...]]:
    """Every pixel of an image, row by row."""
    flat = getattr(image, "get_flattened_data", None)  # Pillow 12+; getdata is deprecated there
    return list(flat() if flat is not None else image.getdata())



# -- storage ------------------------------------------------------------------------------------------------


async def open_sqlite(path: Path, *, clock: Callable[[], float] = time.time) -> Storage:
    """The bot's storage on a SQLite file at `path` (created and migrated)."""
    return await open_storage(SqliteUrl(path), clock=clock)


class FailingDatabase:
    """A database that fails on demand: `fail_next_write(error)` makes the next write transaction raise `error`
    before anything of it is written (a full disk, a lost server); otherwise it is the database it wraps.
    `Storage(FailingDatabase(storage.database))` is a storage on the same data that fails so."""

    def __init__(self, database: Database) -> None:
        self._database = database
        self._failure: BaseException | None = None
        self.dialect: Dialect = database.dialect
        self.clock: Clock = database.clock

    def fail_next_write(self, error: BaseException) -> None:
        self._failure = error

    @property
    def where(self) -> str:
        return self._database.where

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Transaction]:
        if self._failure is not None:
            failure, self._failure = self._failure, None
            raise failure
        async with self._database.write() as tx:
            yield tx

    def read(self) -> AbstractAsyncContextManager[Transaction]:
        return self._database.read()

    async def fetch(self, sql: str, *args: object) -> Sequence[Row]:
        return await self._database.fetch(sql, *args)

    async def close(self) -> None:
        await self._database.close()

    async def schema_version(self) -> int:
        return await self._database.schema_version()

    async def engine_problems(self) -> list[str]:
        return await self._database.engine_problems()

    async def claim_shards(self, shards: Shards, owner: str) -> None:
        await self._database.claim_shards(shards, owner)

    async def after_bulk_load(self, tx: Transaction) -> None:
        await self._database.after_bulk_load(tx)

    async def watch(self, on_change: OnChange, on_resync: OnResync) -> ChangeFeed | None:
        return await self._database.watch(on_change, on_resync)


# -- the session layer --------------------------------------------------------------------------------------

ALICE = Player(101, "alice")
BOB = Player(102, "bob")
CAROL = Player(103, "carol")
DAVE = Player(104, "dave")
EVE = Player(105, "eve")
CHANNEL = Place(guild_id=9, channel_id=500)
OTHER_CHANNEL = Place(guild_id=9, channel_id=501)
AI_DELAY = 1.5


class RandomPicker:
    """Stands in for the AI: a legal move chosen by the game's own AI generator, counting its calls."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    async def __call__(self, position: Position, level: str, rng: random.Random) -> Move:
        self.calls.append(level)
        return rng.choice(position.legal_moves())


async def first_legal(position: Position, level: str, rng: random.Random) -> Move:
    """Stands in for the AI: always the first legal move."""
    return position.legal_moves()[0]


def make_manager(games: GameRecords, clock: FakeClock, picker: MovePicker, seed: int = 7, *,
                 advisor: Advisor | None = None) -> SessionManager:
    """A manager on `games` (`storage.games`) whose games take the seeds seed, seed + 1, ... in order."""
    seeds = iter(range(seed, seed + 10_000))
    return SessionManager(games, picker=picker, advisor=advisor, clock=clock, seeds=lambda: next(seeds),
                          limits=Limits(max_open_per_host=3, ai_delay=AI_DELAY))


async def started_duel(manager: SessionManager, options: GameOptions | None = None) -> GameSession:
    """alice (A1) against bob (B1), started."""
    lobby = await manager.open_lobby(ALICE, CHANNEL, options or GameOptions())
    session = manager.get(lobby.game_id)
    await session.join(BOB)
    await session.start(ALICE.user_id, manager.seeds())
    return session


async def play_out(session: GameSession, manager: SessionManager, clock: FakeClock, *, seed: int = 1,
                   max_actions: int = 20_000) -> None:
    """Play random legal moves for the humans (and let the AI seats move) until the game ends."""
    rng = random.Random(seed)
    for _ in range(max_actions):
        state = session.state
        if state.status != "running":
            return
        mover = state.to_move
        assert mover is not None
        if mover.played_by_ai:
            clock.advance(AI_DELAY)
            await manager.fire_due()
            continue
        assert mover.user_id is not None
        option = rng.choice(state.legal_options())
        await session.play(mover.user_id, option.notation, turn=state.seq)
    raise AssertionError("the game did not end")


async def finished_bell_game(moves: int | None = None) -> GameState:
    """alice against bob on Bell, both playing their first legal move, to the end (or resigned by alice
    after `moves` moves)."""
    with tempfile.TemporaryDirectory() as folder:
        storage = await open_sqlite(Path(folder) / "puluc.db")
        try:
            return await _play_first_legal(SessionManager(storage.games, picker=first_legal, seeds=lambda: 11), moves)
        finally:
            await storage.close()


async def _play_first_legal(manager: SessionManager, moves: int | None) -> GameState:
    alice, bob = Player(1, "alice"), Player(2, "bob")
    lobby = await manager.open_lobby(alice, Place(guild_id=1, channel_id=1), GameOptions())
    session = manager.get(lobby.game_id)
    await session.join(bob)
    result = await session.start(alice.user_id, manager.seeds())
    played = 0
    while result.state.status == "running":
        state = result.state
        if moves is not None and played >= moves:
            return (await session.resign(alice.user_id)).state
        seat = state.to_move
        assert seat is not None and seat.user_id is not None
        result = await session.play(seat.user_id, str(state.legal_options()[0].move))
        played += 1
    return result.state


# -- the bot's log ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Logged:
    logger: str
    message: str
    error: BaseException | None

    def __str__(self) -> str:
        cause = f" ({type(self.error).__name__}: {self.error})" if self.error is not None else ""
        return f"{self.logger}: {self.message}{cause}"


class ErrorLog(logging.Handler):
    """Collects every ERROR (and CRITICAL) record logged anywhere while a test runs.

    An ERROR means something went wrong that no player caused: an AI or renderer crash the bot survived by
    a fallback, a listener that failed. A test that provokes one on purpose declares it with
    `@pytest.mark.logs_error("pattern")`; any other ERROR fails the test (`tests/conftest.py`).
    """

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[Logged] = []

    def emit(self, record: logging.LogRecord) -> None:
        error = record.exc_info[1] if record.exc_info else None
        self.records.append(Logged(record.name, record.getMessage(), error))

    def unexpected(self, patterns: list[str]) -> list[Logged]:
        """The records no pattern matches (a pattern matches the message or the exception's text)."""
        return [r for r in self.records if not any(re.search(p, str(r)) for p in patterns)]

    def unseen(self, patterns: list[str]) -> list[str]:
        """The declared patterns that no record matched."""
        return [p for p in patterns if not any(re.search(p, str(r)) for r in self.records)]


# -- SimCord: the bot in a simulated Discord ----------------------------------------------------------------

# Shaped like a bot token, and not one; the part after the last dot is the secret no output may show.
TOKEN = "MTA1NzQ4OTk4NzY1NDMyMTAxMg.GhXyZw.s3cr3tPartThatMustNeverBePrinted0"
MENTION = re.compile(r"<@!?(\d+)>")


def make_config(path: Path, **overrides: Any) -> Config:
    """The bot's settings on a database file: the AI thinks for 10 ms and moves at once, no cooldown, and the
    boards and the AI run in threads of the bot's process (WORKERS=0): the same jobs through the same
    `ComputePool` calls, without starting two worker processes for every bot. `workers=None` runs the bot
    as deployed (the `worker_processes` marker of the tests of whole flows). The web pages (`web_port`) run
    in the bot's process, whose hub and caches the tests look into; `web_own_process=True` starts them in a
    process of their own, as deployed (tests/bot/web/test_own_process.py)."""
    values: dict[str, Any] = {
        "discord_token": TOKEN, "database": SqliteUrl(path),
        "ai_budget_ms": 10, "ai_move_delay_seconds": 0.0, "command_cooldown_seconds": 0.0, "workers": 0,
        "web_own_process": False,
    }
    values.update(overrides)
    return Config(**values)


def seeded_bot(config: Config, seed: int = GAME_SEED) -> PulucBot:
    """The real bot (sharded when the settings say so), with game seeds from `seed_sequence(seed)`."""
    return bot_for(config, seeds=seed_sequence(seed))


class MakeBot(Protocol):
    """The `bots` fixture: a seeded bot on the test's config, or on others (`bots(other)`)."""

    def __call__(self, config: Config | None = None) -> PulucBot: ...


class World:
    """A server with a games channel and five members."""

    def __init__(self, env: simcord.Env) -> None:
        self.env = env
        self.guild = env.create_guild("Puluc Club")
        self.games = self.guild.create_text_channel("games")
        self.alice = self.guild.add_member(env.create_user("alice"))
        self.bob = self.guild.add_member(env.create_user("bob"))
        self.carol = self.guild.add_member(env.create_user("carol"))
        self.dave = self.guild.add_member(env.create_user("dave"))
        self.eve = self.guild.add_member(env.create_user("eve"))
        self.members = (self.alice, self.bob, self.carol, self.dave, self.eve)

    @property
    def bot(self) -> PulucBot:
        """The bot under test, as the PulucBot it is (SimCord types it as any client)."""
        bot = self.env.bot
        assert isinstance(bot, PulucBot)
        return bot

    def member(self, user_id: int) -> simcord.MemberActor:
        return next(m for m in self.members if m.id == user_id)


def is_refusal(error: BaseException) -> bool:
    """A refusal the bot answered with a sentence (SimCord records those too, see its notes, P2)."""
    original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    return isinstance(original, SessionError | app_commands.CheckFailure | RateLimited | ComputeBusy)


# -- reading messages as a player does ----------------------------------------------------------------------


def components_of(message: Any) -> list[dict[str, Any]]:
    """Buttons and menus of a message as raw dicts (from a SimCord response or a discord.Message)."""
    rows = message.components
    found: list[dict[str, Any]] = []
    for row in rows:
        if isinstance(row, dict):
            found += row.get("components", [])
        else:
            found += [child.to_dict() for child in row.children]
    return found


def custom_ids(message: Any, prefix: str = "puluc:", *, enabled: bool = True) -> list[str]:
    """The custom_ids starting with `prefix`, in order; only the enabled ones unless `enabled=False`."""
    return [c["custom_id"] for c in components_of(message)
            if c.get("custom_id", "").startswith(prefix) and not (enabled and c.get("disabled"))]


def move_ids(message: Any) -> list[str]:
    return custom_ids(message, "puluc:move:")


def notation(custom_id: str) -> str:
    """The move a move button plays: `puluc:move:<game>:<turn>:<throw>:<source>` -> "<throw>:<source>"."""
    return custom_id.split(":", 4)[4]


def mentioned(message: Any) -> list[int]:
    return [int(found) for found in MENTION.findall(message.content or "")]


def game_message(channel: simcord.ChannelHandle) -> discord.Message:
    """The newest public message with Puluc buttons in the channel: the game as everyone sees it."""
    for message in reversed(channel.history()):
        if not message.flags.ephemeral and custom_ids(message, enabled=False):
            return message
    raise AssertionError(f"no game message in #{channel.name}")


def said(result: simcord.InteractionResult) -> str:
    """Everything the bot told only the person who acted (ephemeral answer and follow-ups)."""
    parts = [m.content for m in result.followups if m.ephemeral]
    if result.response is not None and result.response.ephemeral:
        parts.insert(0, result.response.content)
    return "\n".join(parts)


async def board_image(message: Any) -> Image.Image:
    """The board PNG attached to a game message, opened with Pillow."""
    (attachment,) = [a for a in message.attachments if a.filename == "board.png"]
    image = Image.open(io.BytesIO(await attachment.read()))
    image.load()
    return image


def embed_text(message: Any) -> str:
    """Title, description, fields and footer of every embed, as one text."""
    parts: list[str] = []
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or ""]
        parts += [f"{field.name}: {field.value}" for field in embed.fields]
        parts.append(embed.footer.text or "" if embed.footer else "")
    return "\n".join(parts)


# -- acting -------------------------------------------------------------------------------------------------


def emit_click(env: simcord.Env, actor: simcord.MemberActor, message: Any, custom_id: str) -> Any:
    """Deliver a click on `custom_id` the way the gateway would, without SimCord's checks; returns the
    interaction record.

    SimCord's `click` only presses buttons the message shows now, as the person it belongs to, and waits for
    the bot. Some behaviours need more: two clicks in flight at once, a click from a client still showing an
    old version of the message, a tampered client. This uses SimCord's own payload builder (private API, see
    the SimCord notes), carries the message as it is stored now, and does not wait: call `env.settle()`.
    """
    backend = env.backend
    stored = backend.get_message(message.channel.id, message.id)
    record, payload = sim_interactions.base_payload(
        backend,
        type=InteractionType.MESSAGE_COMPONENT,
        channel_id=stored.channel_id,
        guild_id=actor.guild.id,
        user_id=actor.id,
        data={"custom_id": custom_id, "component_type": ComponentType.BUTTON},
    )
    payload["message"] = dict(serializers.message_payload(backend, stored))
    record.source_message_id = stored.id
    backend.emit("INTERACTION_CREATE", payload)
    return record


def emit_slash(env: simcord.Env, actor: simcord.MemberActor, channel: simcord.ChannelHandle, name: str,
               **options: Any) -> Any:
    """Deliver a slash command (`"puluc hint"`) the way the gateway would, without waiting (as `emit_click`);
    returns the interaction record: call `env.settle()`, then read it with `simcord.InteractionResult`."""
    backend = env.backend
    root_name, *path = name.split()
    root = backend.find_command(root_name, actor.guild.id, type=AppCommandType.CHAT_INPUT)
    assert root is not None, f"the bot has not synced /{root_name}"
    leaf, nesting = sim_interactions.walk_to_subcommand(root, path)
    leaf_options, resolved = sim_interactions.build_options(actor, name, leaf, options, channel_id=channel.id)
    data: dict[str, Any] = {"id": root["id"], "name": root["name"], "type": root.get("type", AppCommandType.CHAT_INPUT),
                            "options": sim_interactions.nest_options(root, nesting, leaf_options)}
    if resolved:
        data["resolved"] = resolved
    if root.get("guild_id"):
        data["guild_id"] = root["guild_id"]
    record, payload = sim_interactions.base_payload(
        backend, type=InteractionType.APPLICATION_COMMAND, channel_id=channel.id, guild_id=actor.guild.id,
        user_id=actor.id, data=data,
    )
    backend.emit("INTERACTION_CREATE", payload)
    return record


async def click_concurrently(
    env: simcord.Env, clicks: list[tuple[simcord.MemberActor, discord.Message, str]]
) -> list[simcord.InteractionResult]:
    """Deliver several clicks before the bot handles any of them, then let it finish them all."""
    records = [emit_click(env, actor, message, custom_id) for actor, message, custom_id in clicks]
    await env.settle()
    return [simcord.InteractionResult(env, record) for record in records]



async def accepted_challenge(world: World, *, ranked: bool = False) -> GameSession:
    """alice challenges bob in #games and bob accepts: the session of the game that starts."""
    challenged = await world.alice.slash(world.games, "puluc challenge", opponent=world.bob, ranked=ranked)
    assert challenged.response is not None
    (accept,) = custom_ids(challenged.response, "puluc:accept:")
    await world.bob.click(challenged.response.message, custom_id=accept)
    session = services(world.env.bot).manager.in_channel(world.games.id)
    assert session is not None
    return session


async def logged_moves(world: World, game_id: int) -> list[str]:
    """The moves of a game as its stored log holds them, in order: what was played, each once."""
    stored = await services(world.env.bot).storage.games.game_log(game_id)
    return [e.payload["move"] for e in stored.events if e.kind == "move"]


# -- catalogues ---------------------------------------------------------------------------------------------


def reword(monkeypatch: pytest.MonkeyPatch, lang: str, messages: Mapping[str, str]) -> None:
    """`lang`'s catalogue with these messages in place of its own, for this test: a language whose sentences
    put their parts in another order. Every key must exist already."""
    original = i18n.catalogue
    assert set(messages) <= set(original(lang)), set(messages) - set(original(lang))
    changed = {**original(lang), **messages}
    monkeypatch.setattr(i18n, "catalogue", lambda code: changed if code == lang else original(code))


# -- the Discord Activity: a fake Discord (OAuth2 and the API calls the Activity makes) -----------------------


class FakeDiscord:
    """Discord's OAuth2 token endpoint, /users/@me, the activity-instances endpoint and a server's members, as a
    small aiohttp server (`FakeDiscord.serve`), answering as Discord does, for the Activity's backend. It checks
    what the backend must send: the client id and secret with a code, the member's token, the bot's token."""

    API = "/api/v10"

    def __init__(self, client_id: int, client_secret: str, bot_token: str) -> None:
        self.client_id = client_id
        self.client_secret = client_secret
        self.bot_token = bot_token
        self.users: dict[int, dict[str, Any]] = {}
        self.codes: dict[str, int] = {}  # each is good for one exchange
        self.tokens: dict[str, int] = {}
        self.instances: dict[str, dict[str, Any]] = {}
        self.members: set[tuple[int, int]] = set()  # (server, user)
        self.calls: list[str] = []  # "METHOD path", in order
        self._issued = 0

    def add_user(self, user_id: int, name: str, *, locale: str = "en-US", servers: Sequence[int] = ()) -> None:
        self.users[user_id] = {"id": str(user_id), "username": name, "global_name": name.title(),
                               "discriminator": "0", "avatar": None, "locale": locale}
        self.members.update((server, user_id) for server in servers)

    def code_for(self, user_id: int) -> str:
        """A fresh authorization code, as the SDK's `authorize` gives the page."""
        self._issued += 1
        code = f"code-{user_id}-{self._issued}"
        self.codes[code] = user_id
        return code

    def open_instance(self, instance_id: str, guild_id: int | None, channel_id: int, users: Sequence[int]) -> None:
        self.instances[instance_id] = {"guild_id": guild_id, "channel_id": channel_id, "users": list(users)}

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_post(f"{self.API}/oauth2/token", self._token)
        app.router.add_get(f"{self.API}/users/@me", self._me)
        app.router.add_get(f"{self.API}/applications/{{app}}/activity-instances/{{instance}}", self._instance)
        app.router.add_get(f"{self.API}/guilds/{{guild}}/members/{{user}}", self._member)
        return app

    @asynccontextmanager
    async def serve(self) -> AsyncIterator[str]:
        """Serve on a free local port; yields the API's base URL (DISCORD_API_URL)."""
        server = TestServer(self.app())
        await server.start_server()
        try:
            yield str(server.make_url(self.API))
        finally:
            await server.close()

    @staticmethod
    def _error(status: int, code: int, message: str) -> web.Response:
        return web.json_response({"code": code, "message": message}, status=status)

    async def _token(self, request: web.Request) -> web.Response:
        self.calls.append(f"POST {request.path}")
        form = await request.post()
        if (form.get("client_id"), form.get("client_secret")) != (str(self.client_id), self.client_secret):
            return web.json_response({"error": "invalid_client"}, status=401)
        user = self.codes.pop(str(form.get("code")), None)
        if form.get("grant_type") != "authorization_code" or user is None:
            return web.json_response({"error": "invalid_grant", "error_description": 'Invalid "code" in request.'},
                                     status=400)
        token = f"access-{user}-{self._issued}"
        self.tokens[token] = user
        return web.json_response({"access_token": token, "token_type": "Bearer", "expires_in": 604800,
                                  "refresh_token": "r", "scope": "identify"})

    async def _me(self, request: web.Request) -> web.Response:
        self.calls.append(f"GET {request.path}")
        scheme, _, token = request.headers.get("Authorization", "").partition(" ")
        user = self.tokens.get(token) if scheme == "Bearer" else None
        if user is None:
            return self._error(401, 0, "401: Unauthorized")
        return web.json_response(self.users[user])

    def _is_bot(self, request: web.Request) -> bool:
        return request.headers.get("Authorization") == f"Bot {self.bot_token}"

    async def _instance(self, request: web.Request) -> web.Response:
        self.calls.append(f"GET {request.path}")
        if not self._is_bot(request):
            return self._error(401, 0, "401: Unauthorized")
        found = self.instances.get(request.match_info["instance"])
        if request.match_info["app"] != str(self.client_id) or found is None:
            return self._error(404, 0, "404: Not Found")
        instance_id = request.match_info["instance"]
        return web.json_response({
            "application_id": str(self.client_id), "instance_id": instance_id, "launch_id": "1",
            "location": {"id": f"gc-{found['guild_id']}-{found['channel_id']}", "kind": "gc",
                         "channel_id": str(found["channel_id"]),
                         "guild_id": str(found["guild_id"]) if found["guild_id"] is not None else None},
            "users": [str(user) for user in found["users"]],
        })

    async def _member(self, request: web.Request) -> web.Response:
        self.calls.append(f"GET {request.path}")
        if not self._is_bot(request):
            return self._error(401, 0, "401: Unauthorized")
        key = (int(request.match_info["guild"]), int(request.match_info["user"]))
        if key not in self.members:
            return self._error(404, 10_007, "Unknown Member")
        user = self.users[key[1]]
        return web.json_response({"user": user, "roles": [], "joined_at": "2026-01-01T00:00:00+00:00",
                                  "deaf": False, "mute": False})


ACTIVITY_CLIENT_ID = 1057489987654321012  # the application TOKEN belongs to
ACTIVITY_SECRET = "fake-client-secret-0123456789abcd"
ACTIVITY_INSTANCE = "i-1057489987654321012-1"
ACTIVITY_WEB_SECRET = "a-long-random-web-secret-0123456789abcdef"
ACTIVITY_LOCALES = ("fr", "en-US", "uk", "es-ES", "it")  # alice's to eve's Discord clients


def activity_config(path: Path, **overrides: Any) -> Config:
    """`make_config` with the Discord Activity turned on (DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET) and the
    web pages it is mounted on served by the bot's process (on any free port)."""
    return make_config(path, activity_client=ActivityClient(ACTIVITY_CLIENT_ID, ACTIVITY_SECRET), web_port=0,
                       web_secret=ACTIVITY_WEB_SECRET, **overrides)


def fake_discord_for(world: World) -> FakeDiscord:
    """A fake Discord that knows the world's five members (in its server, each with a client language) and an
    Activity instance in #games with alice, bob and carol."""
    fake = FakeDiscord(ACTIVITY_CLIENT_ID, ACTIVITY_SECRET, TOKEN)
    for member, locale in zip(world.members, ACTIVITY_LOCALES, strict=True):
        fake.add_user(member.id, member.name, locale=locale, servers=[world.guild.id])
    fake.open_instance(ACTIVITY_INSTANCE, world.guild.id, world.games.id,
                       [world.alice.id, world.bob.id, world.carol.id])
    return fake


async def plain_board(state: GameState, lang: str) -> str:
    """A board the Activity's API tests tell apart by position (the real SVG is the renderer's, tested there
    and in the end-to-end test)."""
    return f'<svg xmlns="http://www.w3.org/2000/svg" data-game="{state.game_id}" data-seq="{state.seq}"></svg>'


@dataclass
class ActivityPage:
    """The Activity mounted on a web application of its own, as its page and Discord see it."""

    client: TestClient[Any, Any]
    activity: Activity
    discord: FakeDiscord
    world: World
    clock: FakeClock

    async def sign_in(self, user_id: int, instance: str = ACTIVITY_INSTANCE) -> tuple[int, dict[str, Any]]:
        """What POST /activity/api/session answers to a fresh code of `user_id`: (status, JSON)."""
        response = await self.client.post("/activity/api/session",
                                          json={"code": self.discord.code_for(user_id), "instance_id": instance})
        return response.status, await response.json()

    async def ticket(self, user_id: int) -> str:
        status, body = await self.sign_in(user_id)
        assert status == 200, body
        ticket: str = body["ticket"]
        return ticket

    async def call(self, method: str, path: str, ticket: str | None, **kwargs: Any) -> tuple[int, dict[str, Any]]:
        headers = {"Authorization": f"Bearer {ticket}"} if ticket is not None else {}
        response = await self.client.request(method, f"/activity/api/{path}", headers=headers, **kwargs)
        return response.status, await response.json()


@asynccontextmanager
async def activity_page(world: World, fake: FakeDiscord, clock: FakeClock, *, draw: BoardDrawer | None = None,
                        more: Callable[[web.Application], None] | None = None,
                        shards: Shards | None = None) -> AsyncIterator[ActivityPage]:
    """The Activity of the world's bot on a local web server (and Discord faked behind it); `more` adds
    routes of the test's own (the end-to-end test's stand-in for Discord's client); `shards`: the process's
    shards as the Activity sees them."""
    async with fake.serve() as api_url:
        settings = ActivitySettings(ACTIVITY_CLIENT_ID, ACTIVITY_SECRET, TOKEN, api_url, shards=shards)
        # The web companion's own application (its headers and limits), as the bot's start-up mounts it.
        games = services(world.env.bot)
        context = WebContext(games.storage, WebLinks(ACTIVITY_WEB_SECRET), games.compute)
        app, _ = build_app(context, manager=games.manager)
        activity = add_activity_routes(app, games, settings, clock=clock, draw=draw)
        if more is not None:
            more(app)
        async with TestClient(TestServer(app)) as client:
            yield ActivityPage(client, activity, fake, world, clock)
            await activity.settled()
