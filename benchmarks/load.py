"""Load benchmark: N games at once in N channels, players clicking as fast as the bot answers.

Run by hand: `python benchmarks/load.py [--games 200] [--seconds 60] [--json]`. Prints numbers; the goals
(issue 9) are checked by reading them: no interaction answered later than 3 s, p99 time to the first
response <= 250 ms at 200 concurrent games, peak RSS <= 300 MB. `--clicks N` replaces the timed load phase
by N clicks per game (the test suite's smoke run, tests/e2e/test_load_smoke.py, which asserts no timing).

What runs: the real `PulucBot` (bot/app.py: cogs, session layer, SQLite store in a temporary directory,
renderer) inside SimCord's in-memory Discord, in this one process and one event loop, as the bot runs in
production. Set-up uses SimCord's actors (`/puluc new`, Join, Start), one at a time, and is not timed: it
also warms what a running bot has warm (imports, the database, the renderer's caches). Each table's players
choose with their own seeded generator, so the games differ and no cache sees the same position twice.

What "concurrent" means here: SimCord's actor verbs cannot overlap, so the load phase injects each click
the way Discord's gateway would (an INTERACTION_CREATE built by SimCord's own payload builder) without
waiting for the bot to settle. Every channel has one scripted player loop: it reads the channel's game
message as a user sees it (whose turn the mention names, which move buttons are there), clicks one move as
the player named, and clicks again as soon as the bot has edited the message. After a game ends the
players click Rematch, Join and Start and play on. So up to N interactions are in flight at any moment.

Measured: for every click, the wall-clock time from the injection of the interaction to the bot's first
response (SimCord marks an interaction answered when the bot's callback request arrives: defer, message,
update), and to the edited game message. Errors: exceptions SimCord captured, ERROR log records of the
bot, clicks never answered, and game messages not updated within `--stall` seconds. Peak RSS is the whole
process (bot plus the simulated Discord); to keep the simulator from counting against the bot, its
transcript is bounded and it keeps only each channel's newest uploaded image (Discord keeps those, not
the bot). This script must never tune the bot: it uses the bot's code and settings as they are.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import random
import re
import resource
import sys
import tempfile
import time
import traceback
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import simcord
import simcord.interactions as sim_interactions
from percentiles import percentile  # benchmarks/percentiles.py: the one definition
from simcord.backend import serializers
from simcord.backend.models import interaction as interaction_model
from simcord.enums import ComponentType, InteractionType

from bot.app import PulucBot
from bot.config import Settings
from bot.storage.urls import SqliteUrl

TOKEN = "MTA1NzQ4OTk4NzY1NDMyMTAxMg.GhXyZw.loadBenchmarkTokenNotReal0000"
MENTION = re.compile(r"<@!?(\d+)>")
FIRST_RESPONSE_GOAL = 3.0
P99_GOAL_MS = 250.0
RSS_GOAL_MB = 300.0
ANSWERS = ("respond_with_message", "defer", "defer_update", "update_source", "show_modal")


def settings_for(db: Path) -> Settings:
    # The production defaults, except what a benchmark must not wait for: the AI's pause (no AI seats
    # here anyway) and the per-user command cooldown (set-up runs hundreds of commands in a second).
    return Settings(discord_token=TOKEN, database=SqliteUrl(db),
                    ai_move_delay_seconds=0.0, command_cooldown_seconds=0.0)


# -- measuring ----------------------------------------------------------------------------------------------


class FirstResponses:
    """Wall-clock time at which the bot first answered each interaction (by SimCord interaction id)."""

    def __init__(self) -> None:
        self.at: dict[int, float] = {}
        self._originals: dict[str, Any] = {}

    @contextlib.contextmanager
    def installed(self) -> Iterator[FirstResponses]:
        model = interaction_model.Interaction
        for name in ANSWERS:
            original = getattr(model, name)
            self._originals[name] = original
            setattr(model, name, self._wrap(original))
        try:
            yield self
        finally:
            for name, original in self._originals.items():
                setattr(model, name, original)

    def _wrap(self, original: Any) -> Any:
        seen = self.at

        def answered(record: Any, *args: Any, **kwargs: Any) -> Any:
            seen.setdefault(record.id, time.perf_counter())
            return original(record, *args, **kwargs)

        return answered


class ErrorLog(logging.Handler):
    """Counts ERROR records of the bot and discord.py (a handler that failed logs one)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        cause = ""
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            frames = traceback.extract_tb(error.__traceback__)
            ours = [f for f in frames if "/bot/" in f.filename] or frames
            where = ""
            if ours:
                folder, name = ours[-1].filename.rsplit("/", 2)[-2:]
                where = f" at {folder}/{name}:{ours[-1].lineno}"
            cause = f" ({type(error).__name__}: {error}{where})"
        self.records.append(f"{record.name}: {record.getMessage()}{cause}")


@dataclass
class Stats:
    first_response: list[float] = field(default_factory=list)  # seconds
    board_updated: list[float] = field(default_factory=list)
    unanswered: int = 0
    stalled: int = 0
    games_finished: int = 0
    problems: list[str] = field(default_factory=list)


# -- the simulated players -------------------------------------------------------------------------------


def button_ids(stored: Any) -> list[tuple[str, bool]]:
    """(custom_id, disabled) of every button and menu on a stored SimCord message."""
    found = []
    for row in stored.components or []:
        for child in row.get("components", []):
            if child.get("custom_id"):
                found.append((child["custom_id"], bool(child.get("disabled"))))
    return found


def signature(stored: Any) -> tuple[object, ...]:
    """What a player sees change: which message, its text and its buttons."""
    if stored is None:
        return ()
    return stored.id, stored.content, tuple(button_ids(stored))


def emit_click(env: simcord.Env, actor: simcord.MemberActor, stored: Any, custom_id: str,
               values: list[str] | None = None) -> int:
    """Inject a click as the gateway would and return the interaction id, without waiting for the bot."""
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


class Table:
    """One channel and its two scripted players."""

    def __init__(self, env: simcord.Env, channel: simcord.ChannelHandle, host: simcord.MemberActor,
                 guest: simcord.MemberActor, seed: int) -> None:
        self.env = env
        self.channel = channel
        self.host = host
        self.guest = guest
        self.players = {host.id: host, guest.id: guest}
        self.changed = asyncio.Event()
        self.rng = random.Random(seed)

    def game_message(self) -> Any:
        """The newest public message with buttons: the game as the players see it."""
        for stored in reversed(self.env.backend.messages.get(self.channel.id, {}).values()):
            if stored.components and not stored.flags & 64:  # 64: ephemeral
                return stored
        return None

    def next_click(self) -> tuple[simcord.MemberActor, Any, str, list[str] | None] | None:
        """What a player would press now, reading the message like a user: the mention says whose turn."""
        stored = self.game_message()
        if stored is None:
            return None
        ids = button_ids(stored)
        enabled = [cid for cid, disabled in ids if not disabled]
        moves = [cid for cid in enabled if cid.startswith("puluc:move:")]
        menu = next((cid for cid in enabled if cid.startswith("puluc:pick:")), None)
        if moves or menu:
            mentioned = [int(m) for m in MENTION.findall(stored.content or "") if int(m) in self.players]
            if not mentioned:
                return None
            player = self.players[mentioned[0]]
            if menu is not None:
                options = next(c.get("options", []) for row in stored.components for c in row["components"]
                               if c.get("custom_id") == menu)
                return player, stored, menu, [self.rng.choice(options)["value"]]
            return player, stored, self.rng.choice(moves), None
        for prefix, player in (("puluc:rematch:", self.host), ("puluc:start:", self.host)):
            found = next((cid for cid in enabled if cid.startswith(prefix)), None)
            if found is not None:
                return player, stored, found, None
        join = next((cid for cid in enabled if cid.startswith("puluc:join:")), None)
        if join is not None:
            return self.guest, stored, join, None
        return None


async def play(table: Table, stats: Stats, answers: FirstResponses, until: float, stall: float,
               clicks: int | None) -> None:
    """Click as the players would until `until` (wall clock) or, when `clicks` is given, that many clicks."""
    env = table.env
    done = 0
    while (time.perf_counter() < until) if clicks is None else (done < clicks):
        done += 1
        click = table.next_click()
        if click is None:
            stats.problems.append(f"channel {table.channel.name}: nothing to press")
            return
        actor, stored, custom_id, values = click
        before = signature(stored)  # a snapshot: SimCord edits the stored message in place
        table.changed.clear()
        started = time.perf_counter()
        interaction_id = emit_click(env, actor, stored, custom_id, values)
        # Wait like a player: until the game message changes (an edit, or a new message below it).
        deadline = started + stall
        while signature(table.game_message()) == before:
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                break
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(table.changed.wait(), remaining)
            table.changed.clear()
        ended = time.perf_counter()
        answered = answers.at.get(interaction_id)
        if answered is None:
            stats.unanswered += 1
        else:
            stats.first_response.append(answered - started)
        if ended - started >= stall:
            stats.stalled += 1
            stats.problems.append(f"channel {table.channel.name}: {custom_id} changed nothing in {stall:g}s")
            return
        stats.board_updated.append(ended - started)
        if custom_id.startswith("puluc:rematch:"):
            stats.games_finished += 1


# -- the run ---------------------------------------------------------------------------------------------


def bound_the_simulator(env: simcord.Env) -> None:
    """Keep SimCord's own memory flat: a short transcript and only the newest image of each channel."""
    backend = env.backend
    backend.transcript = deque(backend.transcript, maxlen=500)  # type: ignore[assignment]
    cdn = backend.cdn
    newest: dict[int, str] = {}
    store = cdn.store_attachment

    def store_newest(attachment_id: int, channel_id: int, filename: str, data: bytes,
                     description: str | None) -> dict[str, Any]:
        stored = store(attachment_id, channel_id, filename, data, description)
        old = newest.get(channel_id)
        if old is not None:
            cdn._blobs.pop(old, None)
        newest[channel_id] = stored["url"]
        return stored

    cdn.store_attachment = store_newest  # type: ignore[method-assign]


async def set_up(env: simcord.Env, games: int) -> list[Table]:
    """Per channel: the host opens a lobby with `/puluc new`, the guest joins team B, the host starts."""
    guild = env.create_guild("Load Test")
    tables = []
    for index in range(games):
        channel = guild.create_text_channel(f"table-{index}")
        host = guild.add_member(env.create_user(f"host{index}"))
        guest = guild.add_member(env.create_user(f"guest{index}"))
        opened = await host.slash(channel, "puluc new")
        if opened.response is None:
            raise RuntimeError(f"/puluc new was not answered: {env.errors}")
        table = Table(env, channel, host, guest, seed=index)
        for _ in range(2):  # join, then start
            click = table.next_click()
            if click is None:
                raise RuntimeError(f"the lobby in {channel.name} offers nothing to press")
            actor, _stored, custom_id, _values = click
            await actor.click(channel.last_message, custom_id=custom_id)  # type: ignore[arg-type]
        tables.append(table)
    return tables


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux reports KiB


async def run(games: int, seconds: float, stall: float, clicks: int | None = None) -> dict[str, Any]:
    errors = ErrorLog()
    for name in ("bot", "discord", "puluc", "renderer"):
        logging.getLogger(name).addHandler(errors)
    with tempfile.TemporaryDirectory(prefix="puluc-load-") as tmp:
        bot = PulucBot(settings_for(Path(tmp) / "puluc.db"))
        async with simcord.run(bot, check_errors=False) as env:
            bound_the_simulator(env)
            setup_started = time.perf_counter()
            tables = await set_up(env, games)
            setup_seconds = time.perf_counter() - setup_started
            rss_after_setup = peak_rss_mb()
            by_channel = {table.channel.id: table for table in tables}

            def wake(event: str, payload: Any) -> None:
                if event in ("MESSAGE_UPDATE", "MESSAGE_CREATE"):
                    table = by_channel.get(int(payload.get("channel_id", 0)))
                    if table is not None:
                        table.changed.set()

            env.backend.subscribers.append(wake)
            stats = Stats()
            answers = FirstResponses()
            with answers.installed():
                load_started = time.perf_counter()
                until = load_started + seconds
                await asyncio.gather(*(play(table, stats, answers, until, stall, clicks) for table in tables))
                load_seconds = time.perf_counter() - load_started
                # The bot's own shutdown: what is in flight finishes, the timers stop, the database closes.
                # (Settling with the turn timers still running would wait for their loop's next wake-up.)
                await bot.close()
                await env.settle(timeout=60.0)
            captured = env.errors
    first = stats.first_response
    interactions = len(first) + stats.unanswered
    return {
        "games": games,
        "seconds": round(load_seconds, 2),
        "setup_seconds": round(setup_seconds, 2),
        "interactions": interactions,
        "interactions_per_second": round(interactions / load_seconds, 1) if load_seconds else 0.0,
        "first_response_ms": {
            "p50": round(percentile(first, 50) * 1000, 1),
            "p95": round(percentile(first, 95) * 1000, 1),
            "p99": round(percentile(first, 99) * 1000, 1),
            "max": round(max(first, default=float("nan")) * 1000, 1),
        },
        "board_updated_ms": {
            "p50": round(percentile(stats.board_updated, 50) * 1000, 1),
            "p99": round(percentile(stats.board_updated, 99) * 1000, 1),
        },
        "later_than_3s": sum(1 for value in first if value > FIRST_RESPONSE_GOAL),
        "games_finished": stats.games_finished,
        "peak_rss_mb": round(peak_rss_mb(), 1),
        "rss_after_setup_mb": round(rss_after_setup, 1),
        "errors": len(captured) + len(errors.records) + stats.unanswered + stats.stalled,
        "error_detail": ([repr(e) for e in captured] + errors.records + stats.problems)[:20],
    }


def report(result: dict[str, Any]) -> str:
    first = result["first_response_ms"]
    verdict = []
    verdict.append("ok" if result["later_than_3s"] == 0 else "FAIL")
    verdict.append("ok" if first["p99"] <= P99_GOAL_MS else "FAIL")
    verdict.append("ok" if result["peak_rss_mb"] <= RSS_GOAL_MB else "FAIL")
    lines = [
        f"{result['games']} concurrent games, {result['seconds']} s of load "
        f"(set-up of the games {result['setup_seconds']} s)",
        f"interactions        {result['interactions']}  ({result['interactions_per_second']} per second)",
        f"first response      p50 {first['p50']} ms  p95 {first['p95']} ms  p99 {first['p99']} ms  "
        f"max {first['max']} ms",
        f"board updated       p50 {result['board_updated_ms']['p50']} ms  p99 {result['board_updated_ms']['p99']} ms",
        f"games finished      {result['games_finished']}",
        f"peak RSS            {result['peak_rss_mb']} MB (after set-up {result['rss_after_setup_mb']} MB)",
        f"errors              {result['errors']}",
        f"goals: none later than 3 s [{verdict[0]}], p99 <= {P99_GOAL_MS:g} ms [{verdict[1]}], "
        f"RSS <= {RSS_GOAL_MB:g} MB [{verdict[2]}]",
    ]
    lines += [f"  error: {detail}" for detail in result["error_detail"]]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="concurrent games, one per channel (default 200)")
    parser.add_argument("--seconds", type=float, default=60.0, help="length of the load phase (default 60)")
    parser.add_argument("--clicks", type=int, default=None,
                        help="instead of --seconds: a fixed number of clicks per game (a run that is not timed)")
    parser.add_argument("--stall", type=float, default=10.0,
                        help="seconds a player waits for the board to change before counting an error")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    args = parser.parse_args(argv)
    if args.games < 1 or args.seconds <= 0 or (args.clicks is not None and args.clicks < 1):
        parser.error("--games and --clicks must be at least 1 and --seconds positive")
    result = asyncio.run(run(args.games, args.seconds, args.stall, args.clicks))
    print(json.dumps(result) if args.json else report(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
