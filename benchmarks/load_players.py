"""The load benchmark's players and what they see: one table (channel) with two scripted people who open a
game with `/puluc challenge`, accept it, play it and ask for a rematch, reading the game message as a user
does. Used by benchmarks/load.py; never imported by the bot.

Clicks and commands are injected as Discord's gateway would deliver them (an INTERACTION_CREATE built by
SimCord's own payload builders) without waiting for the bot to settle, so hundreds can be in flight at once;
SimCord's actor verbs (`actor.click`) would wait for the bot after each one.

What a player sees is read from SimCord's state at the moment Discord would show it: SimCord calls the
benchmark back (a gateway subscriber) as the bot's message create or edit is applied, and the table then
looks at the newest messages of its channel:
- "updated": the game message (the newest public message with buttons) differs from the one clicked: its
  text or its buttons changed, or a new one was posted below it;
- "board visible": a public message in the channel carries a board image (`bot.cogs.games.texts.BOARD_FILE`)
  uploaded after the click, i.e. the position after the move is drawn and on screen, whether the bot edited
  the clicked message or posted a new one. An end screen is a board visible on a message offering Rematch;
  its advantage chart (`bot.cogs.games.charts.CHART_FILE`) is timed separately, since it may come later.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import random
import re
import time
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import simcord
import simcord._dpy_internals as sim_internals
import simcord._runtime as sim_runtime
import simcord.interactions as sim_interactions
from simcord.backend import serializers
from simcord.enums import AppCommandType, ComponentType, InteractionType

from bot.cogs.games.charts import CHART_FILE
from bot.cogs.games.texts import BOARD_FILE

MENTION = re.compile(r"<@!?(\d+)>")
EPHEMERAL = 64
RECENT = 6  # how many of a channel's newest messages a player looks at
KEEP_MESSAGES = 60  # older messages are dropped from the simulator (the bot looks back at most 25)
BOARD_KINDS = frozenset({"move", "pick", "accept", "start"})  # clicks whose answer is a new board


# -- reading messages --------------------------------------------------------------------------------------


def button_ids(stored: Any) -> list[tuple[str, bool]]:
    """(custom_id, disabled) of every button and menu on a stored SimCord message."""
    found = []
    for row in stored.components or []:
        for child in row.get("components", []):
            if child.get("custom_id"):
                found.append((child["custom_id"], bool(child.get("disabled"))))
    return found


def signature(stored: Any) -> tuple[object, ...]:
    """What a player sees change on the game message: which message, its text, its embeds, its buttons."""
    if stored is None:
        return ()
    return stored.id, stored.content, len(stored.embeds), tuple(button_ids(stored))


def uploads(messages: Iterable[Any], filename: str) -> set[str]:
    """Ids of the attachments named `filename` on these messages."""
    return {str(a.get("id")) for m in messages for a in m.attachments if a.get("filename") == filename}


def kind_of(custom_id: str) -> str:
    """`move` for `puluc:move:12:7:3:H`: the component's kind (bot/ui/views/ids.py)."""
    return custom_id.split(":", 2)[1]


# -- injecting interactions ----------------------------------------------------------------------------------


def emit_click(env: simcord.Env, actor: simcord.MemberActor, stored: Any, custom_id: str,
               values: list[str] | None = None) -> int:
    """Deliver a click as the gateway would and return the interaction id, without waiting for the bot."""
    backend = env.backend
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": ComponentType.BUTTON}
    if values is not None:
        data = {"custom_id": custom_id, "component_type": ComponentType.STRING_SELECT, "values": values}
    record, payload = sim_interactions.base_payload(
        backend, type=InteractionType.MESSAGE_COMPONENT, channel_id=stored.channel_id,
        guild_id=actor.guild.id, user_id=actor.id, data=data,
    )
    payload["message"] = dict(serializers.message_payload(backend, stored))
    record.source_message_id = stored.id
    backend.emit("INTERACTION_CREATE", payload)
    return int(record.id)


def emit_slash(env: simcord.Env, actor: simcord.MemberActor, channel: simcord.ChannelHandle, name: str,
               options: dict[str, Any]) -> int:
    """Deliver a slash command (`"puluc challenge"`, {"opponent": member}) as the gateway would, without
    waiting; SimCord's builders check the options against the commands the bot synced."""
    backend = env.backend
    root_name, *path = name.split()
    root = backend.find_command(root_name, actor.guild.id, type=AppCommandType.CHAT_INPUT)
    if root is None:
        raise RuntimeError(f"the bot has not synced /{root_name}")
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
    return int(record.id)


# -- what one interaction did ---------------------------------------------------------------------------------


@dataclass
class Sample:
    """One interaction: when it was sent, when the bot acknowledged it, when its effect became visible."""

    kind: str  # "open" (the /puluc challenge command), or the component's kind: accept, move, rematch, ...
    started: float
    interaction_id: int
    expects_board: bool
    before: tuple[object, ...]
    known_boards: set[str]
    known_charts: set[str]
    updated_at: float | None = None
    board_at: float | None = None
    end_screen: bool = False

    @property
    def settled(self) -> bool:
        return self.updated_at is not None and (self.board_at is not None or not self.expects_board)


@dataclass
class Record:
    """Everything one process measured, as plain lists (so processes can send it to the parent as JSON)."""

    first_response: list[float] = field(default_factory=list)  # seconds, every answered interaction
    opening_response: list[float] = field(default_factory=list)  # the /puluc challenge commands only
    updated: list[float] = field(default_factory=list)  # click -> the game message changed
    board_visible: list[float] = field(default_factory=list)  # click -> the new position's board on screen
    end_screen: list[float] = field(default_factory=list)  # the same, for the moves that ended a game
    chart_visible: list[float] = field(default_factory=list)  # game-ending move -> its advantage chart
    board_clicked_at: list[float] = field(default_factory=list)  # when each `board_visible` click was made
    interactions: int = 0
    unanswered: int = 0
    stalled: int = 0
    games_started: int = 0
    games_finished: int = 0
    charts_missing: int = 0
    problems: list[str] = field(default_factory=list)

    def add(self, sample: Sample, answered: float | None) -> None:
        self.interactions += 1
        if answered is None:
            self.unanswered += 1
        else:
            self.first_response.append(answered - sample.started)
            if sample.kind == "open":
                self.opening_response.append(answered - sample.started)
        if sample.updated_at is not None:
            self.updated.append(sample.updated_at - sample.started)
        if sample.board_at is not None:
            self.board_visible.append(sample.board_at - sample.started)
            self.board_clicked_at.append(sample.started)
            if sample.kind in ("accept", "start"):
                self.games_started += 1
            if sample.end_screen:
                self.end_screen.append(sample.board_at - sample.started)
                self.games_finished += 1


# -- one table -----------------------------------------------------------------------------------------------


class Table:
    """One channel, its host and guest, and the interaction of theirs that is under way."""

    def __init__(self, env: simcord.Env, channel: simcord.ChannelHandle, host: simcord.MemberActor,
                 guest: simcord.MemberActor, seed: int) -> None:
        self.env = env
        self.channel = channel
        self.host = host
        self.guest = guest
        self.players = {host.id: host, guest.id: guest}
        self.moves = random.Random(seed)  # which move a player picks
        self.thinking = random.Random(seed + 1_000_003)  # how long they think: separate, so --think keeps the moves
        self.changed = asyncio.Event()
        self.pending: Sample | None = None
        self.charts: tuple[float, set[str]] | None = None  # an end screen waiting for its chart

    def recent(self) -> list[Any]:
        """The channel's newest public messages, newest first."""
        stored = self.env.backend.messages.get(self.channel.id, {})
        newest = itertools.islice(reversed(stored.values()), RECENT)
        return [m for m in newest if not m.flags & EPHEMERAL]

    def game_message(self) -> Any:
        """The newest public message with buttons: the game as the players see it."""
        return next((m for m in self.recent() if m.components), None)

    def observe(self, now: float, record: Record) -> None:
        """Called when a message of this channel was created or edited (and when a player gives up waiting)."""
        sample = self.pending
        if sample is not None:
            if sample.updated_at is None and signature(self.game_message()) != sample.before:
                sample.updated_at = now
            if sample.expects_board and sample.board_at is None:
                for message in self.recent():
                    if uploads([message], BOARD_FILE) - sample.known_boards:
                        sample.board_at = now
                        sample.end_screen = any(kind_of(cid) == "rematch" for cid, _ in button_ids(message))
                        if sample.end_screen:
                            self.charts = (sample.started, sample.known_charts)
                        break
        if self.charts is not None:
            started, known = self.charts
            if uploads(self.recent(), CHART_FILE) - known:
                record.chart_visible.append(now - started)
                self.charts = None
        self.changed.set()

    def next_click(self) -> tuple[simcord.MemberActor, Any, str, list[str] | None] | None:
        """What a player would press now, reading the message like a user: the mention says whose turn."""
        stored = self.game_message()
        if stored is None:
            return None
        enabled = [cid for cid, disabled in button_ids(stored) if not disabled]
        by_kind: dict[str, list[str]] = {}
        for cid in enabled:
            by_kind.setdefault(kind_of(cid), []).append(cid)
        if "move" in by_kind or "pick" in by_kind:
            mentioned = [int(m) for m in MENTION.findall(stored.content or "") if int(m) in self.players]
            if not mentioned:
                return None
            player = self.players[mentioned[0]]
            if "pick" in by_kind:
                menu = by_kind["pick"][0]
                options = next(c.get("options", []) for row in stored.components for c in row["components"]
                               if c.get("custom_id") == menu)
                return player, stored, menu, [self.moves.choice(options)["value"]]
            return player, stored, self.moves.choice(by_kind["move"]), None
        for kind, player in (("accept", self.guest), ("rematch", self.host), ("start", self.host),
                             ("join", self.guest)):
            if kind in by_kind:
                return player, stored, by_kind[kind][0], None
        return None

    def begin(self, kind: str, interaction_id: int, started: float, before: tuple[object, ...],
              known_boards: set[str]) -> Sample:
        self.changed.clear()
        self.pending = Sample(kind, started, interaction_id, kind in BOARD_KINDS, before, known_boards,
                              uploads(self.recent(), CHART_FILE))
        return self.pending

    async def wait(self, sample: Sample, stall: float, record: Record) -> bool:
        """Wait until the sample's effect is visible; False when it was not within `stall` seconds."""
        deadline = sample.started + stall
        while not sample.settled:
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                self.observe(time.perf_counter(), record)  # a change without an event would show here
                break
            # Re-check now and then: SimCord could apply a change without a gateway event.
            try:
                await asyncio.wait_for(self.changed.wait(), min(remaining, 1.0))
            except TimeoutError:
                self.observe(time.perf_counter(), record)
            self.changed.clear()
        self.pending = None
        return sample.settled


# -- the simulated Discord --------------------------------------------------------------------------------------


def bound_the_simulator(env: simcord.Env) -> None:
    """Keep SimCord's own memory flat, since it shares the process (and its RSS) with the bot: short request
    logs, and only each channel's newest board and chart images (Discord keeps those, not the bot)."""
    backend = env.backend
    backend.transcript = deque(backend.transcript, maxlen=500)  # type: ignore[assignment]
    backend.http_requests = deque(backend.http_requests, maxlen=500)  # type: ignore[assignment]
    cdn = backend.cdn
    newest: dict[tuple[int, str], str] = {}
    store = cdn.store_attachment

    def store_newest(attachment_id: int, channel_id: int, filename: str, data: bytes,
                     description: str | None) -> dict[str, Any]:
        stored = store(attachment_id, channel_id, filename, data, description)
        old = newest.get((channel_id, filename))
        if old is not None:
            cdn._blobs.pop(old, None)
        newest[channel_id, filename] = stored["url"]
        return stored

    cdn.store_attachment = store_newest  # type: ignore[method-assign]


LOAD_SETTLE_TIMEOUT_S = 0.05  # how long SimCord waits for the busy bot to settle during the load (see wall_clock)


@contextlib.contextmanager
def wall_clock(env: simcord.Env) -> Iterator[None]:
    """While the load runs, the bot's timers and clock follow the wall clock, as they do against Discord.

    SimCord keeps the bot on a virtual clock (`time.monotonic`, hence `loop.time()`, and the timers behind
    `asyncio.sleep` and every timeout) that moves only once the bot has settled, i.e. has nothing runnable
    left: under load that never happens, so a timer fires only after SimCord has spent up to its settle
    timeout (5 s) scanning the bot's tasks, again and again. A bot waiting a moment on the database before it
    acknowledges (`bot.ui.replies.AckGrace`) would then look seconds late, and SimCord's scans would be
    counted as the bot's CPU. The date and time Discord gives (`discord.utils.utcnow`: the bot's rate limits
    refill by it, its turn deadlines are set by it) moves on with the wall clock too. SimCord's clocks are put
    back before the bot shuts down, the date and time from where the load left it.

    A virtual timer set before the load (a timer of the bot's start-up) still fires through SimCord, which first
    waits for the bot to settle; a busy bot never does, so SimCord spent its whole settle timeout (5 s) scanning
    the bot's tasks against every timer of the loop (`simcord._dpy_internals.is_sleep_waiter`) and gave up. With
    a thousand web pages open (a keep-alive timer each) that scan held the loop for those 5 s (seen with
    py-spy), a stall of the simulator's that Discord does not have. While the load runs SimCord gives up after
    `LOAD_SETTLE_TIMEOUT_S` instead: the same outcome, without the scan."""
    loop = asyncio.get_running_loop()
    runtime = env._runtime
    if runtime is None:
        raise RuntimeError("SimCord is not running a bot")
    virtual = loop.call_later, loop.call_at, time.monotonic
    # The loop's own timer methods (SimCord keeps them) and the real monotonic clock SimCord saved.
    loop.call_later, loop.call_at = runtime.call_later, runtime.call_at  # type: ignore[method-assign]
    time.monotonic = sim_internals._REAL_MONOTONIC
    clock = env.backend.clock
    began, elapsed = sim_internals._REAL_MONOTONIC(), clock.elapsed
    clock.now = lambda: clock._epoch + timedelta(seconds=elapsed + sim_internals._REAL_MONOTONIC() - began)  # type: ignore[method-assign]
    settle_timeout, env.settle_timeout = env.settle_timeout, LOAD_SETTLE_TIMEOUT_S
    try:
        yield
    finally:
        env.settle_timeout = settle_timeout
        loop.call_later, loop.call_at, time.monotonic = virtual  # type: ignore[method-assign]
        del clock.now
        clock.elapsed = max(clock.elapsed, elapsed + sim_internals._REAL_MONOTONIC() - began)


@contextlib.contextmanager
def web_outside_the_simulator() -> Iterator[None]:
    """The web pages (WEB_PORT) started outside SimCord's bookkeeping of the bot's work.

    SimCord records every task and callback made inside the bot's scope, and while it settles it scans them all
    (`simcord._settlement._park_reason`): the web server's accepting socket, set up in the bot's `setup_hook`,
    would make every page's stream one of those tasks, and with a thousand spectators one scan took the loop
    for five seconds (seen with py-spy: the bot, web and all, idle meanwhile). That is a cost of the simulator,
    which Discord does not have; the pages' own work (loading, rendering, writing their streams) still runs on
    the bot's loop and is measured. The bot's code is not changed: only where SimCord looks."""
    import bot.app as app

    original = app.start_web

    async def start_web(*args: Any, **kwargs: Any) -> Any:
        token = sim_runtime._BOT_SCOPE.set(None)
        try:
            return await original(*args, **kwargs)
        finally:
            sim_runtime._BOT_SCOPE.reset(token)

    app.start_web = start_web
    try:
        yield
    finally:
        app.start_web = original


def drop_old_messages(env: simcord.Env, channel_id: int) -> None:
    """Forget a channel's messages beyond the newest `KEEP_MESSAGES` (the bot never looks that far up)."""
    stored = env.backend.messages.get(channel_id)
    while stored is not None and len(stored) > KEEP_MESSAGES:
        del stored[next(iter(stored))]


def partition_ids(env: simcord.Env, index: int, count: int) -> None:
    """Give this process's simulated Discord its own share of snowflakes.

    Each process of a multi-process run has its own SimCord, whose virtual clock starts at the same instant,
    so their users, channels and messages would get the same ids; in the one shared database that would
    merge players and channels of different servers. Process `index` of `count` takes every id whose
    sequence bits fall in its slice, and stops with an error rather than step into another's.
    """
    backend = env.backend
    span = (1 << 22) // count
    low, high = index * span, (index + 1) * span
    sequences: dict[int, int] = backend._sequences
    reserved: set[int] = backend._reserved_ids

    def allocate_at(milliseconds: int) -> int:
        sequence = max(sequences.get(milliseconds, 0), low)
        while sequence < high:
            value = (milliseconds << 22) | sequence
            sequence += 1
            if value not in reserved:
                sequences[milliseconds] = sequence
                reserved.add(value)
                return value
        raise RuntimeError(f"process {index} of {count} ran out of snowflakes at millisecond {milliseconds}")

    backend._allocate_at = allocate_at  # type: ignore[method-assign]


def create_guild(env: simcord.Env, name: str, shard: tuple[int, int] | None) -> simcord.GuildHandle:
    """A server; with `shard` (id, count) one whose id Discord routes to that shard, `(id >> 22) % count`."""
    if shard is None:
        return env.create_guild(name)
    shard_id, shard_count = shard
    guild_id = env.backend.snowflake_for_shard(shard_id, shard_count)
    env.backend._reserved_ids.discard(guild_id)  # create_guild reserves the id itself
    assert (guild_id >> 22) % shard_count == shard_id
    return env.create_guild(name, id=guild_id)
