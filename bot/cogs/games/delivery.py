"""Getting game messages onto Discord when Discord stumbles: retries with backoff, then a fresh message at the
bottom of the channel, then the game shown again later; a saved move is never reported as an error.
"""

from __future__ import annotations

import asyncio
import enum
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

import aiohttp
import discord

from bot.ui.views.ids import ComponentId

log = logging.getLogger(__name__)

T = TypeVar("T")
Sleep = Callable[[float], Awaitable[None]]

# What a call to Discord can fail with: an HTTP error answer, or no answer at all (a timeout is an OSError).
DISCORD_FAILURES: tuple[type[BaseException], ...] = (discord.HTTPException, aiohttp.ClientError, OSError)
# The pauses before each new attempt of one call: five attempts within 7.5 s.
RETRY_DELAYS: tuple[float, ...] = (0.5, 1.0, 2.0, 4.0)
# How far up the channel a fresh game message looks for older messages of the same game to strip.
SWEEP_DEPTH = 25
# When Discord refused every attempt to show a game, it is shown again after these pauses.
HEAL_DELAYS: tuple[float, ...] = (15.0, 60.0, 300.0)


class Shown(enum.Enum):
    """Where a game's new state ended up."""

    CLICKED = "clicked"  # the message the player clicked, edited through their interaction
    EDITED = "edited"  # the game message, edited in place
    POSTED = "posted"  # a fresh game message at the bottom of the channel
    NOT_SHOWN = "not shown"  # Discord refused every attempt; the presenter tries again later
    SUPERSEDED = "superseded"  # a newer state of the game was waiting to be shown and is shown instead


@dataclass(frozen=True, slots=True)
class Delivered:
    """How a game's new state was shown, and the message that shows it (None when it was not shown)."""

    shown: Shown
    message: discord.Message | None = None


def transient(error: BaseException) -> bool:
    """Whether a later attempt of the same call may succeed: server errors, rate limits, no answer."""
    if isinstance(error, discord.HTTPException):
        return error.status >= 500 or error.status == 429
    return isinstance(error, aiohttp.ClientError | OSError)


def describe(error: BaseException) -> str:
    """A short, secret-free description of a Discord failure for the log."""
    if isinstance(error, discord.HTTPException):
        return f"HTTP {error.status}"
    return type(error).__name__


async def retrying(action: Callable[[], Awaitable[T]], what: str, *, sleep: Sleep = asyncio.sleep,
                   delays: tuple[float, ...] = RETRY_DELAYS) -> T:
    """`action()`, tried again after each of `delays` while it fails transiently; the last failure is raised.

    `action` must build its request anew on every call (discord.py closes the files it sent).
    """
    for delay in delays:
        try:
            return await action()
        except DISCORD_FAILURES as error:
            if not transient(error):
                raise
            log.warning("%s failed (%s); trying again in %gs", what, describe(error), delay)
        await sleep(delay)
    return await action()


def partial_message(channel: discord.abc.Messageable, message_id: int) -> discord.PartialMessage:
    """A message of `channel` by its id, without fetching it (every channel `Publisher.channel` gives can)."""
    if not isinstance(channel, PARTIAL_MESSAGES):
        raise TypeError(f"{type(channel).__name__} cannot name a message by its id")
    return channel.get_partial_message(message_id)


# The channels whose messages can be named by id: where games are shown (not group DMs, forums or categories).
PARTIAL_MESSAGES = (discord.TextChannel, discord.VoiceChannel, discord.StageChannel, discord.Thread,
                    discord.DMChannel, discord.PartialMessageable)


def game_of(message: discord.Message) -> int | None:
    """The game whose enabled Puluc components this message carries, if any."""
    for row in message.components:
        for child in getattr(row, "children", ()):
            custom_id = getattr(child, "custom_id", None)
            if not isinstance(custom_id, str) or getattr(child, "disabled", False):
                continue
            try:
                return ComponentId.parse(custom_id).game_id
            except ValueError:
                continue
    return None


class Post(Protocol):
    """A game message to send or to edit in: each call builds its arguments anew (files are read once)."""

    def send_kwargs(self) -> dict[str, Any]: ...

    def edit_kwargs(self) -> dict[str, Any]: ...


class Publisher:
    """Edits, posts and strips game messages, retrying what Discord fails transiently."""

    def __init__(self, client: discord.Client, *, sleep: Sleep = asyncio.sleep) -> None:
        self._client = client
        self.sleep = sleep

    async def channel(self, channel_id: int) -> discord.abc.Messageable | None:
        """The channel or thread (from the cache, else fetched with retries), or None when Discord cannot give
        it now."""
        found = self._client.get_channel(channel_id)
        if found is None:
            try:
                found = await retrying(lambda: self._client.fetch_channel(channel_id), f"fetching channel {channel_id}",
                                       sleep=self.sleep)
            except DISCORD_FAILURES as error:
                log.warning("channel %d is not reachable (%s)", channel_id, describe(error))
                return None
        return found if isinstance(found, PARTIAL_MESSAGES) else None

    async def deliver(self, channel: discord.abc.Messageable | None, game_id: int, message_id: int | None, post: Post,
                      keep: Callable[[discord.Message], Awaitable[bool]], *,
                      clicked: discord.Interaction[Any] | None, near_bottom: bool) -> Delivered:
        """Edit the game message where it is when it is `near_bottom` of `channel`, else post it afresh (and
        `keep` it, which records it or removes it again)."""
        if channel is None:
            return Delivered(Shown.NOT_SHOWN)
        edited = False
        if message_id is not None and near_bottom:
            delivered = await self.edit(channel, message_id, post.edit_kwargs, clicked)
            if delivered is not None:
                return delivered
            edited = True
        posted = await self._post_fresh(channel, game_id, message_id, post, keep)
        if posted is not None:
            return Delivered(Shown.POSTED, posted)
        if message_id is not None and not edited:
            # It scrolled away and no fresh message could be posted: show the game where it is.
            delivered = await self.edit(channel, message_id, post.edit_kwargs, clicked)
            if delivered is not None:
                return delivered
        return Delivered(Shown.NOT_SHOWN)

    async def _post_fresh(self, channel: discord.abc.Messageable, game_id: int, old: int | None, post: Post,
                          keep: Callable[[discord.Message], Awaitable[bool]]) -> discord.Message | None:
        """A new game message at the bottom, kept, with the older ones stripped; None when it cannot be posted
        or kept (then nothing new is left in the channel)."""
        message = await self.send(channel, post.send_kwargs, f"posting game {game_id}")
        if message is None or not await keep(message):
            return None
        await self.sweep(channel, game_id, keep=message.id, old=old)
        return message

    async def edit(self, channel: discord.abc.Messageable, message_id: int, kwargs: Callable[[], dict[str, Any]],
                   interaction: discord.Interaction[Any] | None = None) -> Delivered | None:
        """Edit the game message in place: through the clicking player's interaction first when given, else
        (or when that fails) as a channel message edit, with retries. None when it cannot be edited."""
        if interaction is not None:
            try:
                return Delivered(Shown.CLICKED, await interaction.edit_original_response(**kwargs()))
            except DISCORD_FAILURES as error:  # the channel edit below reaches the same message another way
                log.warning("editing game message %d through the interaction failed (%s)", message_id,
                            describe(error))
        try:
            edited = await retrying(lambda: partial_message(channel, message_id).edit(**kwargs()),
                                    f"editing game message {message_id}", sleep=self.sleep)
            return Delivered(Shown.EDITED, edited)
        except discord.NotFound:
            log.info("game message %d is gone", message_id)
        except DISCORD_FAILURES as error:
            log.warning("game message %d cannot be edited (%s)", message_id, describe(error))
        return None

    async def send(self, channel: discord.abc.Messageable, kwargs: Callable[[], dict[str, Any]],
                   what: str) -> discord.Message | None:
        """Post a message in the channel, with retries; None when Discord keeps refusing."""
        try:
            message: discord.Message = await retrying(lambda: channel.send(**kwargs()), what, sleep=self.sleep)
            return message
        except DISCORD_FAILURES as error:
            log.warning("%s failed for good (%s)", what, describe(error))
            return None

    async def strip(self, channel: discord.abc.Messageable, message_id: int) -> bool:
        """Take the buttons off a game message that a newer one replaced; whether that worked (or it is gone)."""
        try:
            await retrying(lambda: partial_message(channel, message_id).edit(view=None),
                           f"removing the buttons of message {message_id}", sleep=self.sleep)
            return True
        except discord.NotFound:
            return True
        except DISCORD_FAILURES as error:
            log.warning("could not remove the buttons of old game message %d (%s)", message_id, describe(error))
            return False

    async def remove(self, channel: discord.abc.Messageable, message: discord.Message) -> None:
        """Delete a message the bot posted but could not keep track of (or, failing that, strip its buttons)."""
        try:
            await retrying(message.delete, f"deleting message {message.id}", sleep=self.sleep)
        except discord.NotFound:
            return
        except DISCORD_FAILURES as error:
            log.warning("could not delete untracked game message %d (%s)", message.id, describe(error))
            await self.strip(channel, message.id)

    async def sweep(self, channel: discord.abc.Messageable, game_id: int, *, keep: int, old: int | None) -> None:
        """Strip the buttons of the game's `old` message and of every recent message of this game other than
        `keep` (a retried send may have posted twice, an earlier outage may have left one behind)."""
        stale = set() if old is None or old == keep else {old}
        try:
            recent = [m async for m in channel.history(limit=SWEEP_DEPTH)]
        except DISCORD_FAILURES as error:
            log.info("could not look for older messages of game %d (%s)", game_id, describe(error))
            recent = []
        me = self._client.user
        for message in recent:
            if message.id != keep and me is not None and message.author.id == me.id and game_of(message) == game_id:
                stale.add(message.id)
        for message_id in sorted(stale):
            await self.strip(channel, message_id)

    async def near_bottom(self, channel: discord.abc.Messageable, message_id: int, depth: int) -> bool:
        """Whether the message is among the channel's `depth` newest, i.e. fewer than `depth` came after it
        (True when history cannot be read). Only the messages after it are read: usually none or a few,
        where the channel's newest would be `depth` messages to download and parse before every board."""
        try:
            newer = [m async for m in channel.history(limit=depth, after=discord.Object(id=message_id))]
        except DISCORD_FAILURES:
            return True  # no read-history permission, or Discord down: keep editing in place
        return len(newer) < depth


# When the game is shown again: None when nothing waits to be shown any more.
ShowAgain = Callable[[int], Awaitable[Shown | None]]


class Healer:
    """Shows a game again after growing pauses (`HEAL_DELAYS`) when Discord refused every attempt, until it
    is shown or a newer show did it; then `give_up` (the next action or /puluc board will show it)."""

    def __init__(self, publisher: Publisher, again: ShowAgain, give_up: Callable[[int], Awaitable[None]]) -> None:
        self._publisher = publisher
        self._again = again
        self._give_up = give_up
        self._healing: dict[int, asyncio.Task[None]] = {}

    def later(self, game_id: int) -> None:
        running = self._healing.get(game_id)
        if running is not None and not running.done():
            return
        task = asyncio.get_running_loop().create_task(self._heal(game_id), name=f"puluc-heal-{game_id}")
        self._healing[game_id] = task
        task.add_done_callback(lambda done: self._healing.pop(game_id, None) if self._healing.get(game_id) is done
                               else None)

    async def _heal(self, game_id: int) -> None:
        for delay in HEAL_DELAYS:
            await self._publisher.sleep(delay)
            shown = await self._again(game_id)
            if shown is None:
                return  # a later action showed the game meanwhile
            if shown is not Shown.NOT_SHOWN:
                log.info("game %d is shown again", game_id)
                return
        # Discord has been refusing for minutes (or the channel is gone): nothing of the game is lost meanwhile.
        log.warning("game %d could not be shown for %g s; its next action or /puluc board will show it",
                    game_id, sum(HEAL_DELAYS))
        await self._give_up(game_id)

    async def close(self) -> None:
        """Stop the pending tries (at shutdown)."""
        tasks = list(self._healing.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
