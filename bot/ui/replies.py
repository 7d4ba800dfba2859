"""Refusals and failures as one friendly ephemeral sentence (the bot's one error-to-text mapping), and the
checks and acknowledgements every command shares.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Awaitable
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.compute import ComputeBusy
from bot.limits import RateLimited, retry_timestamp
from bot.ops import metrics
from bot.sessions import SessionError
from bot.sessions.errors import ChannelBusy, InvalidOptions, NotSaved
from bot.storage.errors import StorageUnavailable
from bot.ui.i18n import language_for, t
from puluc import ErrorCode

log = logging.getLogger(__name__)

T = TypeVar("T")

# The permissions a game needs from the bot where it is played, in the order they are named.
GAME_PERMISSIONS = ("send_messages", "embed_links", "attach_files")
THREAD_PERMISSIONS = ("create_public_threads", "send_messages_in_threads")


class BotLacksPermissions(app_commands.CheckFailure):
    """The bot is missing permissions in this channel; `missing` are `discord.Permissions` flag names."""

    def __init__(self, missing: list[str]) -> None:
        super().__init__(f"missing bot permissions: {', '.join(missing)}")
        self.missing = missing


class Refusal(app_commands.CheckFailure):
    """A check that failed for a reason with its own message key."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


def missing_bot_permissions(permissions: discord.Permissions, *, in_thread: bool, new_thread: bool) -> list[str]:
    """Which permissions a game needs here that `permissions` (interaction.app_permissions) lacks."""
    needed = list(GAME_PERMISSIONS)
    if in_thread:
        needed[0] = "send_messages_in_threads"
    if new_thread:
        needed += [p for p in THREAD_PERMISSIONS if p not in needed]
    return [name for name in needed if not getattr(permissions, name)]


def check_bot_permissions(interaction: discord.Interaction[Any], *, new_thread: bool = False) -> None:
    in_thread = isinstance(interaction.channel, discord.Thread)
    missing = missing_bot_permissions(interaction.app_permissions, in_thread=in_thread, new_thread=new_thread)
    if missing:
        raise BotLacksPermissions(missing)


# Why the engine refuses a set of game options, by its code and the field at fault, and the sentence that says
# so; a refusal not listed here gets the general "these options do not make a game" (never the engine's English).
RULES_REFUSALS: dict[tuple[str, str], str] = {
    (ErrorCode.UNKNOWN_CHOICE, "preset"): "error.rules.unknown_variant",
    (ErrorCode.UNKNOWN_CHOICE, "setup"): "error.rules.unknown_setup",
    (ErrorCode.OUT_OF_RANGE, "team_size"): "error.rules.team_size",
    (ErrorCode.OUT_OF_RANGE, "turn_timer"): "error.rules.turn_timer",
    (ErrorCode.SCORPION_ON_CULIN, "scorpion"): "error.rules.scorpion_on_culin",
    (ErrorCode.EAGLE_RETURNS_WITHOUT_EAGLE, "eagle_returns"): "error.rules.eagle_returns_without_eagle",
}


def rules_refusal(error: InvalidOptions, lang: str) -> str:
    """The sentence for game options the rules refuse, chosen by the engine's code and filled with its fields."""
    params = error.params
    key = RULES_REFUSALS.get((str(params.get("code")), str(params.get("field"))), "error.invalid_rules")
    return t(key, lang, value=params.get("value"), low=params.get("low"), high=params.get("high"))


def game_link(guild_id: int | None, channel_id: int, message_id: int | None) -> str:
    if guild_id is not None and message_id is not None:
        return f"https://discord.com/channels/{guild_id}/{channel_id}/{message_id}"
    return f"<#{channel_id}>"


def permission_names(flags: list[str], lang: str) -> str:
    """Discord permissions by the labels its client shows in `lang`, quoted as that language quotes them."""
    return ", ".join(t("perm.quoted", lang, name=t(f"perm.{flag}", lang)) for flag in flags)


def error_text(error: BaseException, lang: str, guild_id: int | None = None) -> str | None:
    """The sentence for a known refusal, or None for an unexpected error."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, ChannelBusy):
        return t(error.key, lang, link=game_link(guild_id, error.channel_id, error.message_id))
    if isinstance(error, InvalidOptions):
        return rules_refusal(error, lang)
    if isinstance(error, SessionError):
        return t(error.key, lang, **error.params)
    if isinstance(error, Refusal):
        return t(error.key, lang, **error.params)
    if isinstance(error, BotLacksPermissions):
        return t("error.missing_permissions", lang, permissions=permission_names(error.missing, lang))
    if isinstance(error, RateLimited):
        return t(f"limits.{error.scope}", lang, when=retry_timestamp(error.retry_at))
    if isinstance(error, ComputeBusy):
        return t("limits.busy", lang)
    if isinstance(error, app_commands.CommandOnCooldown):
        return t("error.cooldown", lang, count=max(1, math.ceil(error.retry_after)))
    if isinstance(error, app_commands.MissingPermissions):
        return t("error.user_missing_permissions", lang, permissions=permission_names(error.missing_permissions, lang))
    if isinstance(error, app_commands.NoPrivateMessage):
        return t("error.guild_only", lang)
    if isinstance(error, StorageUnavailable):
        return t("error.storage_unavailable", lang)
    return None


def storage_failure(error: BaseException) -> NotSaved | StorageUnavailable | None:
    """The database outage behind an error, if that is what it was."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    return error if isinstance(error, NotSaved | StorageUnavailable) else None


#: How long a command may wait on the database before it is acknowledged. A read usually takes milliseconds,
#: and then the answer itself (or a private refusal) is the acknowledgement, in one call to Discord; a slower
#: one is acknowledged at this point, well inside Discord's 3 s however busy the database is, and inside the
#: 250 ms the bot aims for (issue 21: first response p99). Under a burst of openings (200 games opened within
#: 2 s on PostgreSQL) a grace of 1 s made the openings' first response p50 0.3-0.7 s, p99 1 s.
#: The bot's own grace (`PulucBot(ack_grace=...)`) is this unless it was built with another.
ACK_GRACE_SECONDS = 0.2
#: Discord's deadline for the first answer to an interaction; a grace must end well before it.
DISCORD_ACK_DEADLINE_SECONDS = 3.0


def ack_grace_of(client: discord.Client) -> float:
    """The grace period of a running bot (`PulucBot.ack_grace`), else `ACK_GRACE_SECONDS` (a bare client)."""
    found = getattr(client, "ack_grace", None)
    return found if isinstance(found, float) else ACK_GRACE_SECONDS


async def acknowledge(interaction: discord.Interaction[Any], *, ephemeral: bool = False,
                      update: bool = False) -> None:
    """Acknowledge now (if not yet done): a "thinking" answer, or with `update` a silent one for a click
    that edits its own message. Always before CPU work (a board, a chart, the AI)."""
    if interaction.response.is_done():
        return
    if update:
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)


class AckGrace:
    """One interaction's database work, acknowledged before the bot's grace period (`PulucBot.ack_grace`,
    `ACK_GRACE_SECONDS` unless the bot was built with another) has passed since it came.

    `await grace.run(work)` waits for `work` at most until the grace period ends, acknowledges the
    interaction then if it still has no answer, and returns `work`'s result. So a quick database answers
    directly (and a refusal found in it stays private), and a slow one can never make the bot miss Discord's
    deadline. Discord keeps an acknowledgement's visibility for the answer that follows: a refusal found
    after a public "thinking" answer is shown in its place."""

    def __init__(self, interaction: discord.Interaction[Any], *, ephemeral: bool = False, update: bool = False
                 ) -> None:
        self._interaction = interaction
        self._ephemeral = ephemeral
        self._update = update
        self._ends = asyncio.get_running_loop().time() + ack_grace_of(interaction.client)

    async def run(self, work: Awaitable[T]) -> T:
        task = asyncio.ensure_future(work)
        if not self._interaction.response.is_done():
            remaining = max(0.0, self._ends - asyncio.get_running_loop().time())
            try:
                await asyncio.wait({task}, timeout=remaining)
            except asyncio.CancelledError:
                task.cancel()
                raise
            if not task.done():
                await self.now()
        return await task

    async def now(self) -> None:
        """Acknowledge now if not yet done (before CPU work, or when the answer will take long)."""
        await acknowledge(self._interaction, ephemeral=self._ephemeral, update=self._update)


def or_missing(view: discord.ui.View | None) -> discord.ui.View:
    """discord.py's sends take a missing view, not None, for "no components"."""
    return discord.utils.MISSING if view is None else view


async def answer(interaction: discord.Interaction[Any], **kwargs: Any) -> None:
    """Send the answer: as the response, or as the follow-up once acknowledged."""
    if interaction.response.is_done():
        await interaction.followup.send(**kwargs)
    else:
        await interaction.response.send_message(**kwargs)


async def send_ephemeral(interaction: discord.Interaction[Any], text: str) -> None:
    """Answer only the person who acted, whether or not the interaction was already acknowledged."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException as exc:
        log.warning("could not deliver an error message: %s", exc)


async def report_error(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """Tell the user what went wrong in one sentence; log the detail of anything unexpected."""
    lang = language_for(interaction.locale)
    text = error_text(error, lang, interaction.guild_id)
    command = interaction.command.qualified_name if interaction.command else "component"
    outage = storage_failure(error)
    if text is None:
        log.error("unexpected error in %s", command, exc_info=error)
        text = t("error.internal", lang)
        metrics.interaction_outcome(interaction, "error")
    elif outage is not None:
        # Expected in an outage, and the user was told to try again; the log says what happened.
        log.warning("%s: the database is unavailable (%s), nothing was saved: %s", command, outage.reason, outage)
        metrics.interaction_outcome(interaction, "unavailable", reason=outage.reason)
    else:
        log.debug("refused %s: %s", interaction.data, error)
        metrics.interaction_outcome(interaction, "refused")
    await send_ephemeral(interaction, text)
