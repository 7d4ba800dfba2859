"""Turn calls on Discord: the ping or reminder that `bot.sessions.calls.TurnCaller` decided to send, as each
member chose (`/puluc notifications`): a message in the game's channel that mentions only them, a direct
message, or nothing; and the note, at their next interaction, that their DMs are closed.

Discord notifies a member of a mention only in a message that is created, never in an edit, so a call is
always a new message, deleted again once the member has acted. Failures never reach the game: a call is
retried like every delivery (`bot.cogs.games.delivery.retrying`), then given up and logged.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.cogs.games.delivery import DISCORD_FAILURES, Publisher, describe, retrying
from bot.cogs.games.texts import game_title
from bot.sessions.calls import CallMessage, Notice
from bot.storage import Storage
from bot.storage.errors import StorageError
from bot.storage.types import MemberSettings, NotifyMode
from bot.ui.i18n import language_for, t
from bot.ui.languages import GuildLanguages
from bot.ui.safe import pings, plain

log = logging.getLogger(__name__)

# Discord's code for a direct message it refuses: the member closed their DMs (or blocked the bot).
CANNOT_DM = 50_007
JUMP = "https://discord.com/channels/{guild}/{channel}{message}"
MINUTE, HOUR, DAY = 60, 3_600, 86_400
MODE_NAMES: dict[NotifyMode, str] = {"channel": "choice.notify_mode.channel", "dm": "choice.notify_mode.dm",
                                     "off": "choice.notify_mode.off"}


def mode_name(mode: NotifyMode | None, lang: str) -> str:
    """A member's way of being called, in words (the default, in the channel, when they never chose)."""
    return t(MODE_NAMES[mode or "channel"], lang)


def jump_link(guild_id: int | None, channel_id: int, message_id: int | None) -> str:
    """A link that opens the game's board (or its channel, before the board has a message)."""
    return JUMP.format(guild=guild_id if guild_id is not None else "@me", channel=channel_id,
                       message="" if message_id is None else f"/{message_id}")


def time_left(seconds: float, lang: str) -> str:
    """Time left in a turn, in round words: "15 minutes", "2 hours", "3 days" (at least two of the unit
    shown, so a reminder never says "1 hour" for 119 minutes)."""
    whole = max(0, int(seconds))
    for unit, key in ((DAY, "time.days"), (HOUR, "time.hours"), (MINUTE, "time.minutes")):
        if whole >= 2 * unit:
            return t(key, lang, count=whole // unit)
    return t("time.seconds", lang, count=whole)


def call_mentions(user_id: int) -> discord.AllowedMentions:
    """A call notifies exactly the member it calls, whatever else its text holds."""
    return pings(user_id)


def channel_text(notice: Notice, lang: str) -> str:
    state = notice.state
    link = jump_link(state.place.guild_id, state.place.channel_id, state.message_id)
    game = game_title(state, lang)
    if notice.kind == "reminder":
        return t("call.reminder", lang, player=f"<@{notice.user_id}>", left=time_left(notice.left, lang), game=game,
                 link=link)
    return t("call.ping", lang, player=f"<@{notice.user_id}>", game=game, link=link)


def dm_text(notice: Notice, lang: str, server: str, channel: str) -> str:
    state = notice.state
    link = jump_link(state.place.guild_id, state.place.channel_id, state.message_id)
    game = game_title(state, lang)
    if notice.kind == "reminder":
        return t("call.dm_reminder", lang, left=time_left(notice.left, lang), game=game, server=plain(server),
                 channel=plain(channel), link=link)
    return t("call.dm_ping", lang, game=game, server=plain(server), channel=plain(channel), link=link)


class DmNotes:
    """Members whose DM call bounced, to be told once, ephemerally, at their next interaction (kept in the
    database, so a restart does not lose the note)."""

    def __init__(self, storage: Storage, refused: frozenset[int] = frozenset()) -> None:
        self._storage = storage
        self._waiting = set(refused)

    def __contains__(self, user_id: int) -> bool:
        return user_id in self._waiting

    def forget(self, user_id: int) -> None:
        """The member chose anew (`/puluc notifications` clears the stored mark too)."""
        self._waiting.discard(user_id)

    async def add(self, user_id: int) -> None:
        if user_id in self._waiting:
            return
        self._waiting.add(user_id)
        try:
            await self._storage.calls.set_dm_refused(user_id, True)
        except StorageError as exc:  # the note is still given by this process
            log.warning("could not store that a DM bounced (%s)", exc)

    async def deliver(self, interaction: discord.Interaction[Any]) -> None:
        """Tell the member who just interacted that their DMs are closed, if they were not told yet. Call it
        once the interaction has been answered: the note is a follow-up of its own."""
        user_id = interaction.user.id
        if user_id not in self._waiting or not interaction.response.is_done():
            return
        self._waiting.discard(user_id)
        lang = language_for(interaction.locale)
        try:
            await interaction.followup.send(t("call.dm_refused", lang), ephemeral=True)
        except DISCORD_FAILURES as error:
            self._waiting.add(user_id)  # told at the next interaction instead
            log.info("could not tell a member that their DMs are closed (%s)", describe(error))
            return
        try:
            await self._storage.calls.set_dm_refused(user_id, False)
        except StorageError as exc:
            log.warning("could not store that a member was told their DMs are closed (%s)", exc)


class DiscordMessenger:
    """Sends calls where each member chose, and deletes them again (`bot.sessions.calls.Messenger`)."""

    def __init__(self, client: discord.Client, storage: Storage, languages: GuildLanguages, notes: DmNotes,
                 publisher: Publisher) -> None:
        self._client = client
        self._storage = storage
        self._languages = languages
        self.notes = notes
        self._publisher = publisher  # its pauses between retries (tests shorten them)
        self._muted: set[int] = set()  # channels the bot could not post in, logged once each

    async def send(self, notice: Notice) -> CallMessage | None:
        try:
            member = await self._storage.calls.member(notice.user_id)
        except StorageError as exc:
            log.warning("could not read how a player wants to be called (%s); calling them in the channel", exc)
            member = MemberSettings(notice.user_id)
        if member.notify_mode == "off":
            return None
        if member.notify_mode == "dm" and notice.user_id not in self.notes:
            sent = await self._direct(notice, member)
            if sent is not None:
                return sent
        return await self._in_channel(notice)

    async def withdraw(self, message: CallMessage) -> None:
        partial = self._client.get_partial_messageable(message.channel_id).get_partial_message(message.message_id)
        try:
            await retrying(partial.delete, f"deleting call {message.message_id}", sleep=self._publisher.sleep)
        except discord.NotFound:
            return  # a moderator (or the member, in their DMs) deleted it already
        except DISCORD_FAILURES as error:
            log.info("could not delete call %d (%s)", message.message_id, describe(error))

    async def _in_channel(self, notice: Notice) -> CallMessage | None:
        state = notice.state
        channel_id = state.place.channel_id
        lang = await self._languages.get(state.place.guild_id)
        text = channel_text(notice, lang)
        channel = self._client.get_partial_messageable(channel_id, guild_id=state.place.guild_id)
        try:
            message = await retrying(lambda: channel.send(text, allowed_mentions=call_mentions(notice.user_id)),
                                     f"calling a player in game {state.game_id}", sleep=self._publisher.sleep)
        except discord.Forbidden as error:
            if channel_id not in self._muted:
                self._muted.add(channel_id)
                log.warning("cannot post turn calls in channel %d (%s); members who chose DMs still get them",
                            channel_id, describe(error))
            return None
        except DISCORD_FAILURES as error:
            log.warning("game %d: a turn call was lost (%s)", state.game_id, describe(error))
            return None
        self._muted.discard(channel_id)
        return CallMessage(channel_id, message.id)

    async def _direct(self, notice: Notice, member: MemberSettings) -> CallMessage | None:
        """The call as a DM in the member's language; None when it cannot go (closed DMs are noted)."""
        state = notice.state
        lang = language_for(member.locale) if member.locale else await self._languages.get(state.place.guild_id)
        guild = self._client.get_guild(state.place.guild_id) if state.place.guild_id is not None else None
        channel = self._client.get_channel(state.place.channel_id)
        text = dm_text(notice, lang, guild.name if guild is not None else "?",
                       f"#{getattr(channel, 'name', None) or state.place.channel_id}")
        pause = self._publisher.sleep
        try:
            dm = await retrying(lambda: self._client.create_dm(discord.Object(id=notice.user_id)),
                                "opening a DM", sleep=pause)
            message = await retrying(lambda: dm.send(text, allowed_mentions=discord.AllowedMentions.none()),
                                     f"calling a player by DM in game {state.game_id}", sleep=pause)
        except discord.Forbidden as error:
            if error.code == CANNOT_DM:
                await self.notes.add(notice.user_id)
            else:
                log.info("game %d: a DM call was refused (%s)", state.game_id, describe(error))
            return None
        except DISCORD_FAILURES as error:
            log.warning("game %d: a DM call was lost (%s); calling in the channel", state.game_id, describe(error))
            return None
        return CallMessage(dm.id, message.id)
