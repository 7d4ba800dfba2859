"""The bot's counters and latency histograms, and the small hooks that move them.

One registry per process (`REGISTRY`), served at `/metrics` by `bot.ops.health` beside the gauges it reads
from the running bot at each scrape (open games, workers, timer lag). The hooks are called by the few places
that see each event:
- `interaction_admitted` by `PulucBot.admit` (every command, click and autocomplete the bot takes): counts it by
  kind and outcome once its task ends, notes when it arrived, and binds its ids to the log records it causes;
- `interaction_outcome` by `bot.ui.replies.report_error`: a refusal, a database outage or an error;
- `board_shown` by the game presenter once a click's board is on screen;
- `discord_response` by the HTTP trace `bot.ops.health` installs on discord.py's session: acknowledgements,
  429s and 5xx from Discord.

Hooks take discord.py's objects as they come (duck-typed) and never raise: metrics must not break a game.
This module imports no Discord, no web server and nothing of ours but `bot.logs`, so any layer may call it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram

from bot.logs import bind

__all__ = [
    "ACKNOWLEDGED",
    "BOARD_VISIBLE",
    "DATABASE_ERRORS",
    "DISCORD_ERRORS",
    "INTERACTIONS",
    "REGISTRY",
    "board_shown",
    "database_error",
    "discord_response",
    "interaction_admitted",
    "interaction_kind",
    "interaction_outcome",
]

log = logging.getLogger(__name__)

REGISTRY = CollectorRegistry(auto_describe=True)

# Seconds. Discord's deadline for an acknowledgement is 3 s; the goal for a board is 1 s after a click.
_LATENCY_BUCKETS = (0.025, 0.05, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0)

INTERACTIONS = Counter(
    "puluc_interactions", "Interactions the bot took, by kind (a command, a button, a menu, an autocomplete) and "
    "outcome (ok, refused: the user was told why; unavailable: the database was; error: a bug, logged)",
    ["kind", "outcome"], registry=REGISTRY,
)
ACKNOWLEDGED = Histogram(
    "puluc_acknowledge_seconds", "From an interaction's creation (its id's time) to Discord accepting its "
    "first response; Discord fails the interaction after 3 s", buckets=_LATENCY_BUCKETS, registry=REGISTRY,
)
BOARD_VISIBLE = Histogram(
    "puluc_board_visible_seconds", "From the bot receiving a click to that game's new board being on screen",
    buckets=_LATENCY_BUCKETS, registry=REGISTRY,
)
DISCORD_ERRORS = Counter(
    "puluc_discord_http_errors", "Discord's REST API answering 429 (rate limited) or 5xx (its own failure)",
    ["status"], registry=REGISTRY,
)
DATABASE_ERRORS = Counter(
    "puluc_database_errors", "Database failures met by interactions and health checks, by reason "
    "(unreachable, busy, disk_full, read_only, io, damaged)", ["reason"], registry=REGISTRY,
)

_ADMITTED = "puluc_admitted"  # interaction.extras: the event loop's time when the bot took it
_OUTCOME = "puluc_outcome"  # interaction.extras: set by interaction_outcome
OUTCOMES = ("ok", "refused", "unavailable", "error")
_CUSTOM_ID_KIND = re.compile(r"[A-Za-z_]+(?::[A-Za-z_]+)?")
_GAME_ID = re.compile(r"puluc:[a-z]+:(\d{1,20}):")  # bot.ui.views.ids: puluc:<kind>:<game_id>:<turn>:<arg>
# An interaction's callback: POST /api/v10/interactions/{id}/{token}/callback.
_CALLBACK = re.compile(r"/interactions/(\d+)/[^/]+/callback$")
_DISCORD_EPOCH_MS = 1_420_070_400_000


def interaction_kind(interaction: Any) -> str:
    """"/puluc new", "/puluc move autocomplete", "button puluc:move", "modal_submit ...": a small, fixed set of
    labels (a custom_id contributes only its leading words, never its ids)."""
    kind = getattr(getattr(interaction, "type", None), "name", "unknown")
    if kind in ("application_command", "autocomplete"):
        command = getattr(interaction, "command", None)
        name = getattr(command, "qualified_name", None) or "unknown command"
        return f"/{name}" + (" autocomplete" if kind == "autocomplete" else "")
    data = getattr(interaction, "data", None) or {}
    found = _CUSTOM_ID_KIND.match(str(data.get("custom_id", "")))
    what = "button" if data.get("component_type") == 2 else "menu" if kind == "component" else kind
    return f"{what} {found[0]}" if found else what


def interaction_admitted(interaction: Any, task: asyncio.Task[Any] | None) -> None:
    """The bot took `interaction`, handled by `task` (the current one): count it when the task ends, and give
    every record logged while handling it the ids of its server, channel and game (`bot.logs.bind`)."""
    with contextlib.suppress(Exception):
        game = _GAME_ID.match(str((getattr(interaction, "data", None) or {}).get("custom_id", "")))
        bind(server_id=interaction.guild_id, channel_id=interaction.channel_id, game_id=int(game[1]) if game else None)
    with contextlib.suppress(Exception):
        extras = interaction.extras
        extras.setdefault(_ADMITTED, asyncio.get_running_loop().time())
        if task is not None:
            task.add_done_callback(lambda done: _count(interaction, done))


def _count(interaction: Any, task: asyncio.Task[Any]) -> None:
    try:
        outcome = interaction.extras.get(_OUTCOME)
        if outcome is None:
            failed = task.cancelled() or task.exception() is not None
            outcome = "error" if failed else "ok"
        INTERACTIONS.labels(interaction_kind(interaction), outcome).inc()
    except Exception:  # a metric must never break the bot
        log.debug("could not count an interaction", exc_info=True)


def interaction_outcome(interaction: Any, outcome: str, *, reason: str | None = None) -> None:
    """How `interaction` ended when not plainly "ok": "refused", "unavailable" (the database, `reason` its code)
    or "error"."""
    with contextlib.suppress(Exception):
        interaction.extras[_OUTCOME] = outcome
    if reason is not None:
        database_error(reason)


def board_shown(interaction: Any | None) -> None:
    """The board `interaction` (a click, or None for a timer or the AI) asked for is on screen."""
    if interaction is None:
        return
    with contextlib.suppress(Exception):
        admitted = interaction.extras.get(_ADMITTED)
        if admitted is not None:
            BOARD_VISIBLE.observe(max(0.0, asyncio.get_running_loop().time() - admitted))


def database_error(reason: str) -> None:
    DATABASE_ERRORS.labels(reason).inc()


def discord_response(method: str, path: str, status: int, now_ms: float) -> None:
    """Discord answered `method path` with `status` at `now_ms` (Unix time in milliseconds)."""
    if status == 429:
        DISCORD_ERRORS.labels("429").inc()
    elif 500 <= status <= 599:
        DISCORD_ERRORS.labels("5xx").inc()
    callback = _CALLBACK.search(path)
    if method == "POST" and callback is not None and status < 300:
        created_ms = (int(callback[1]) >> 22) + _DISCORD_EPOCH_MS
        ACKNOWLEDGED.observe(max(0.0, (now_ms - created_ms) / 1000))
