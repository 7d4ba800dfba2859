"""Shows games in Discord: renders the board, composes the game message and edits or reposts it.

Every change of a game, from a click or from the timers, ends here. The presenter always shows the game's
latest state (under a per-game lock), so updates that race each other can never leave an older board on
screen; recent narration lines are kept per game so a reader sees the last few things that happened.
Under a burst the board is never more than one edit behind: while one edit of a game is in flight, the
updates that arrive meanwhile are coalesced, and only the newest of them is drawn and sent once the lock
is free (the older ones add their narration and return `Shown.SUPERSEDED`); end screens are always sent.
Board images, and a finished game's advantage chart (team A's chance to win at the start of every turn),
are drawn by `bot.ui.pictures` in the bot's compute workers (`bot.compute`) from the requests `bot.cogs.games.boards`
makes. The chart takes many searches to draw, so a result is shown with its final board at once and the chart is
added to that message once drawn. This module must never change a game.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections import deque
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.cogs.games import texts as messages
from bot.cogs.games import views as builders
from bot.cogs.games.boards import CHART_MAX_POINTS, board_request, chart_request
from bot.cogs.games.delivery import DISCORD_FAILURES, Delivered, Publisher, Shown, Sleep, describe, retrying
from bot.compute import ComputePool
from bot.ops import metrics
from bot.sessions import ActionResult, Finished, GameState, Moved, SessionManager
from bot.sessions.errors import GameNotOpen, NotSaved
from bot.storage.errors import StorageUnavailable
from bot.ui.i18n import public_language
from bot.ui.pictures import CHART_POINT_BUDGET_MS, draw_board, draw_chart
from puluc import MoveEffect

log = logging.getLogger(__name__)

# A game message with more than this many newer messages below it is reposted at the bottom.
FRESH_AFTER = 8
NARRATION_LINES = 6
CHART_FILE = "advantage.png"
# When Discord refused every attempt to show a game, it is shown again after these pauses.
HEAL_DELAYS: tuple[float, ...] = (15.0, 60.0, 300.0)


@dataclass
class Composed:
    """One game message: text, embed, optional board PNG and components."""

    content: str
    embed: discord.Embed
    view: discord.ui.View
    png: bytes | None = None
    gif: bytes | None = field(default=None, repr=False)

    def files(self) -> list[discord.File]:
        return [] if self.png is None else [discord.File(io.BytesIO(self.png), filename=messages.BOARD_FILE)]

    def send_kwargs(self) -> dict[str, Any]:
        return {"content": self.content or None, "embed": self.embed, "view": self.view, "files": self.files()}

    def edit_kwargs(self) -> dict[str, Any]:
        return {"content": self.content or None, "embed": self.embed, "view": self.view,
                "attachments": self.files()}


class Presenter:
    """Composes and publishes game messages for one bot."""

    def __init__(self, client: discord.Client, manager: SessionManager, *,
                 chart_budget_ms: float = CHART_POINT_BUDGET_MS, bar_ms: float = 0, sleep: Sleep = asyncio.sleep,
                 compute: ComputePool | None = None) -> None:
        self._client = client
        self.compute = compute or ComputePool(0)
        self._manager = manager
        self._chart_budget_ms = chart_budget_ms
        self._bar_ms = bar_ms
        self._locks: dict[int, asyncio.Lock] = {}
        self._narration: dict[int, deque[str]] = {}
        self._last_move: dict[int, MoveEffect] = {}
        self._language_overrides: dict[int, str | None] = {}
        self._unshown: dict[int, tuple[GameState, Finished | None]] = {}  # states Discord refused, newest
        self._shown: dict[int, int] = {}  # the event number each open game's message shows
        self._heals: dict[int, asyncio.Task[None]] = {}
        self._charts: set[asyncio.Task[None]] = set()  # advantage charts being drawn for shown results
        # A chart keeps a worker busy for seconds: charts are drawn on all workers but one, so that the boards
        # of the games still being played always find a worker free (charts may come later; boards may not).
        self._chart_slots = asyncio.Semaphore(max(1, self.compute.workers - 1))
        self._newest: dict[int, int] = {}  # per game: the number of the newest `show` call (latest wins)
        self.publisher = Publisher(client, sleep=sleep)
        self.store_locale: Any = None  # async (guild_id) -> str | None, set by the bot when a store exists

    # -- language -------------------------------------------------------------------------------------

    async def language(self, state: GameState) -> str:
        """The language of messages everyone in the game's server sees."""
        return await self.guild_language(state.place.guild_id)

    async def guild_language(self, guild_id: int | None) -> str:
        """The language of public messages in a server (its /puluc-admin setting, else its Discord locale)."""
        if guild_id is None:
            return public_language(None)
        if guild_id not in self._language_overrides and self.store_locale is not None:
            try:
                self._language_overrides[guild_id] = await self.store_locale(guild_id)
            except StorageUnavailable as exc:  # not remembered: the setting is read again next time
                log.warning("server %d: its language setting cannot be read now (%s)", guild_id, exc.reason)
        guild = self._client.get_guild(guild_id)
        return public_language(guild.preferred_locale if guild else None, self._language_overrides.get(guild_id))

    def forget_language(self, guild_id: int) -> None:
        """Called when a server changes its language setting."""
        self._language_overrides.pop(guild_id, None)

    # -- composing ------------------------------------------------------------------------------------

    def _remember(self, result: ActionResult, lang: str) -> None:
        log_lines = self._narration.setdefault(result.game_id, deque(maxlen=NARRATION_LINES))
        log_lines.extend(messages.narrate(result.happenings, result.state, lang))
        for happening in result.happenings:
            if isinstance(happening, Moved):
                self._last_move[result.game_id] = happening.effect

    def latest(self, state: GameState) -> GameState:
        """The newest state of this game (the session's while it is open)."""
        try:
            current = self._manager.get(state.game_id).state
        except GameNotOpen:
            return state
        return current if current.seq >= state.seq else state

    async def compose(self, state: GameState, lang: str, finished: Finished | None = None) -> Composed:
        narration = list(self._narration.get(state.game_id, ()))
        if state.status == "lobby":
            if state.invited_id is not None:
                return Composed(messages.challenge_text(state, state.invited_id, lang),
                                messages.lobby_embed(state, lang),
                                builders.challenge_view(state, state.invited_id, lang))
            return Composed("", messages.lobby_embed(state, lang), builders.lobby_view(state, lang))
        png = None
        if state.position is not None:
            try:
                request = board_request(state, self.last_move(state.game_id), self._bar_ms, lang)
                png = await self.compute.run(draw_board, request)
            except Exception:
                # A drawing bug must not stop the game: the embed still says everything.
                log.exception("could not draw the board of game %d", state.game_id)
        if state.status == "running":
            return Composed(messages.turn_text(state, lang),
                            messages.game_embed(state, lang, narration, image=png is not None),
                            builders.game_view(state, lang), png)
        return Composed("", messages.end_embed(state, lang, narration, finished, image=png is not None),
                        builders.end_view(state, lang), png)

    async def _advantage_chart(self, state: GameState, lang: str) -> bytes | None:
        """The post-game chart, or None: a failure here must never cost the players their result."""
        try:
            request = chart_request(state, self._chart_budget_ms, CHART_MAX_POINTS, lang)
            return await self.compute.run(draw_chart, request)
        except Exception:
            log.exception("could not chart game %d", state.game_id)
            return None

    # -- publishing -----------------------------------------------------------------------------------

    async def show(self, result: ActionResult, interaction: discord.Interaction[Any] | None = None) -> Shown:
        """Show a saved result: edit the game message (through `interaction`, already acknowledged, when it
        came from a click on that message) or repost it at the bottom of the channel when it scrolled away
        or cannot be edited. Never raises for Discord's failures: when nothing gets through, the game is
        shown again later (see `bot.cogs.games.delivery`)."""
        game_id = result.game_id
        ticket = self._newest[game_id] = self._newest.get(game_id, 0) + 1
        lock = self._lock(game_id)
        async with lock:
            lang = await self.language(result.state)
            self._remember(result, lang)
            if self._newest.get(game_id, ticket) != ticket and result.state.is_open and result.finished is None:
                # A newer call waits for this lock: it shows the latest state, narration included.
                return Shown.SUPERSEDED
            state = self.latest(result.state)
            shown = await self._show(state, lang, result.finished, interaction)
            if shown in (Shown.CLICKED, Shown.EDITED, Shown.POSTED):
                metrics.board_shown(interaction)  # bot.ops: the board a click asked for is on screen
            return shown

    async def _show(self, state: GameState, lang: str, finished: Finished | None,
                    interaction: discord.Interaction[Any] | None) -> Shown:
        """Compose and deliver `state` (under the game's lock); remember it for a later try when Discord
        refused every attempt."""
        # Where to show it is asked of Discord while the board is drawn, rather than after.
        where = asyncio.ensure_future(self._where(state))
        try:
            composed = await self.compose(state, lang, finished)
        except BaseException:
            where.cancel()
            raise
        channel, near_bottom = await where
        delivered = await self._deliver(state, composed, interaction, channel, near_bottom)
        if delivered.shown is Shown.NOT_SHOWN:
            self._unshown[state.game_id] = (state, finished)
            self._heal_later(state.game_id)
        else:
            self._unshown.pop(state.game_id, None)
            self._shown[state.game_id] = state.seq
            if not state.is_open:
                self._forget(state.game_id)
            if state.status == "finished" and delivered.message is not None:
                self._chart_later(state, lang, delivered.message)
        return delivered.shown

    async def refresh(self, state: GameState) -> Shown | None:
        """Show the game as it stands if its message may be behind it (a click on that message was refused
        as out of date); None when the message already shows this state."""
        async with self._lock(state.game_id):
            state = self.latest(state)
            if self._shown.get(state.game_id) == state.seq:
                return None
            return await self._show(state, await self.language(state), None, None)

    async def post(self, result: ActionResult, interaction: discord.Interaction[Any] | None,
                   channel: discord.abc.Messageable | None = None) -> discord.Message:
        """Post a new game's first message (as the interaction's answer, or in `channel`) and remember it.

        When the message cannot be recorded (the database is unavailable) it is deleted again and the
        session's NotSaved is raised: no game message lives on that the bot does not track."""
        async with self._lock(result.game_id):
            lang = await self.language(result.state)
            self._remember(result, lang)
            state = self.latest(result.state)
            composed = await self.compose(state, lang, result.finished)
            if channel is not None:
                message = await retrying(lambda: channel.send(**composed.send_kwargs()),
                                         f"posting game {state.game_id}", sleep=self.publisher.sleep)
            elif interaction is not None:
                message = await self._answer(interaction, composed)
            else:
                raise ValueError(f"game {result.game_id}: post needs an interaction or a channel")
            await self._track(state, message)
            return message

    async def repost(self, state: GameState, interaction: discord.Interaction[Any]) -> None:
        """`/puluc board`: the game message again, as the answer to the command, at the bottom; the old one
        loses its buttons. NotSaved (and the new message deleted) when the database cannot record it."""
        async with self._lock(state.game_id):
            state = self.latest(state)
            lang = await self.language(state)
            composed = await self.compose(state, lang)
            message = await self._answer(interaction, composed)
            await self._track(state, message)
            channel = await self.channel(state.place.channel_id)
            if channel is not None:
                await self.publisher.sweep(channel, state.game_id, keep=message.id, old=state.message_id)
            self._unshown.pop(state.game_id, None)

    async def tell(self, interaction: discord.Interaction[Any], text: str) -> None:
        """An ephemeral note to the person who acted, retried like everything else; when Discord keeps
        refusing it is logged, since what they did is done and the game message shows it."""
        try:
            await retrying(lambda: interaction.followup.send(text, ephemeral=True), "an ephemeral note",
                           sleep=self.publisher.sleep)
        except DISCORD_FAILURES as error:
            log.warning("could not tell user %d that their action was done (%s)", interaction.user.id,
                        describe(error))

    async def _answer(self, interaction: discord.Interaction[Any], composed: Composed) -> discord.Message:
        """Send `composed` as the interaction's public answer (a follow-up once it was deferred)."""
        sleep = self.publisher.sleep
        if interaction.response.is_done():
            return await retrying(lambda: interaction.followup.send(wait=True, **composed.send_kwargs()),
                                  "answering with the game message", sleep=sleep)
        await interaction.response.send_message(**composed.send_kwargs())
        return await retrying(interaction.original_response, "reading the game message back", sleep=sleep)

    async def _track(self, state: GameState, message: discord.Message) -> None:
        """Record `message` as the game's message; if the database cannot, delete it and raise NotSaved."""
        try:
            await self._remember_message(state, message.id)
        except NotSaved:
            channel = await self.channel(message.channel.id)
            await self.publisher.remove(channel or message.channel, message)
            raise

    async def _where(self, state: GameState) -> tuple[Any, bool]:
        """The game's channel (None when Discord cannot give it now) and whether the game message is among its
        `FRESH_AFTER` newest (False when there is no message yet)."""
        channel = await self.channel(state.place.channel_id)
        if channel is None or state.message_id is None:
            return channel, False
        return channel, await self.publisher.near_bottom(channel, state.message_id, FRESH_AFTER)

    async def _deliver(self, state: GameState, composed: Composed, interaction: discord.Interaction[Any] | None,
                       channel: Any, near_bottom: bool) -> Delivered:
        """Edit the game message where it is when it is `near_bottom` of `channel`, else post it afresh."""
        publisher = self.publisher
        if channel is None:
            return Delivered(Shown.NOT_SHOWN)
        message_id = state.message_id
        clicked = (interaction if interaction is not None and interaction.message is not None
                   and interaction.message.id == message_id else None)
        edited = False
        if message_id is not None and near_bottom:
            delivered = await publisher.edit(channel, message_id, composed.edit_kwargs, clicked)
            if delivered is not None:
                return delivered
            edited = True
        posted = await self._post_fresh(state, channel, composed)
        if posted is not None:
            return Delivered(Shown.POSTED, posted)
        if message_id is not None and not edited:
            # It scrolled away and no fresh message could be posted: show the game where it is.
            delivered = await publisher.edit(channel, message_id, composed.edit_kwargs, clicked)
            if delivered is not None:
                return delivered
        return Delivered(Shown.NOT_SHOWN)

    async def _post_fresh(self, state: GameState, channel: Any, composed: Composed) -> discord.Message | None:
        """A new game message at the bottom, recorded, with the older ones stripped; None when it cannot be
        posted or recorded (then nothing new is left in the channel)."""
        message = await self.publisher.send(channel, composed.send_kwargs, f"posting game {state.game_id}")
        if message is None:
            return None
        try:
            await self._track(state, message)
        except NotSaved as exc:
            log.warning("game %d: its new message could not be recorded (%s); it was removed", state.game_id,
                        exc.reason)
            return None
        await self.publisher.sweep(channel, state.game_id, keep=message.id, old=state.message_id)
        return message

    # -- the advantage chart ----------------------------------------------------------------------------

    def _chart_later(self, state: GameState, lang: str, message: discord.Message) -> None:
        """Draw the finished game's chart and add it to `message`, which shows the result already."""
        task = asyncio.get_running_loop().create_task(self._add_chart(state, lang, message),
                                                      name=f"puluc-chart-{state.game_id}")
        self._charts.add(task)
        task.add_done_callback(self._charts.discard)

    async def _add_chart(self, state: GameState, lang: str, message: discord.Message) -> None:
        async with self._chart_slots:
            chart = await self._advantage_chart(state, lang)
        if chart is None:
            return
        channel = await self.channel(state.place.channel_id)
        if channel is None:
            log.warning("game %d: its advantage chart is not shown (the channel cannot be reached)", state.game_id)
            return
        shown = list(message.attachments)  # kept as they are: the final board stays, nothing is uploaded again

        def with_chart() -> dict[str, Any]:
            return {"attachments": [*shown, discord.File(io.BytesIO(chart), filename=CHART_FILE)]}

        # Only the attachments change: the text, the result and the Rematch button stay as they are.
        await self.publisher.edit(channel, message.id, with_chart)

    async def _remember_message(self, state: GameState, message_id: int) -> None:
        # A finished game's last message needs no bookkeeping.
        with contextlib.suppress(GameNotOpen):
            await self._manager.get(state.game_id).set_message(message_id)

    # -- healing ----------------------------------------------------------------------------------------

    def _heal_later(self, game_id: int) -> None:
        """Try showing the game again after growing pauses, until it works or a newer show did."""
        running = self._heals.get(game_id)
        if running is not None and not running.done():
            return
        task = asyncio.get_running_loop().create_task(self._heal(game_id), name=f"puluc-heal-{game_id}")
        self._heals[game_id] = task
        task.add_done_callback(lambda done: self._heals.pop(game_id, None) if self._heals.get(game_id) is done
                               else None)

    async def _heal(self, game_id: int) -> None:
        for delay in HEAL_DELAYS:
            await self.publisher.sleep(delay)
            async with self._lock(game_id):
                waiting = self._unshown.get(game_id)
                if waiting is None:
                    return  # a later action showed the game meanwhile
                stale, finished = waiting
                state = self.latest(stale)
                lang = await self.language(state)
                if await self._show(state, lang, finished, None) is not Shown.NOT_SHOWN:
                    log.info("game %d is shown again", game_id)
                    return
        # Discord has been refusing for minutes (or the channel is gone): the next action or /puluc board shows
        # the game; nothing of it is lost meanwhile.
        log.warning("game %d could not be shown for %g s; its next action or /puluc board will show it",
                    game_id, sum(HEAL_DELAYS))
        async with self._lock(game_id):
            waiting = self._unshown.pop(game_id, None)
            if waiting is not None and not waiting[0].is_open:
                self._forget(game_id)

    async def channel(self, channel_id: int) -> Any:
        """A channel or thread the bot can post in (from the cache, else fetched with retries), or None when
        Discord cannot give it now."""
        return await self.publisher.channel(channel_id)

    async def close(self) -> None:
        """Stop the pending retries and charts (at shutdown)."""
        tasks = [*self._heals.values(), *self._charts]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def _lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    def last_move(self, game_id: int) -> MoveEffect | None:
        """The move the game's board marks as the last one (kept across the throws that follow it)."""
        return self._last_move.get(game_id)

    def _forget(self, game_id: int) -> None:
        self._shown.pop(game_id, None)
        self._newest.pop(game_id, None)
        self._narration.pop(game_id, None)
        self._last_move.pop(game_id, None)
        self._locks.pop(game_id, None)
