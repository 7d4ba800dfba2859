"""Shows games in Discord: composes a game's message from its newest state, under a per-game lock, and hands
it to `bot.cogs.games.delivery`.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.cogs.games import texts, views
from bot.cogs.games.boards import board_description, board_request
from bot.cogs.games.charts import Charts
from bot.cogs.games.delivery import DISCORD_FAILURES, Healer, Publisher, Shown, describe, retrying
from bot.cogs.games.pings import ChallengePings
from bot.compute import ComputePool
from bot.ops import metrics
from bot.sessions import ActionResult, Finished, GameState, Moved, SessionManager
from bot.sessions.errors import GameNotOpen, NotSaved
from bot.ui.languages import GuildLanguages
from bot.ui.pictures import draw_board
from bot.ui.safe import pings
from puluc import MoveEffect

log = logging.getLogger(__name__)

# A game message with more than this many newer messages below it is reposted at the bottom.
FRESH_AFTER = 8
NARRATION_LINES = 6


@dataclass
class Composed:
    """One game message: text, embed, optional board PNG and components, and the members it may ping (those
    its text mentions on purpose; nobody else, whatever a name holds)."""

    content: str
    embed: discord.Embed
    view: discord.ui.View
    png: bytes | None = None
    gif: bytes | None = field(default=None, repr=False)
    mentions: discord.AllowedMentions = field(default_factory=discord.AllowedMentions.none)
    description: str | None = None  #: the board in words: the picture's alt text (bot.ui.describe)

    def files(self) -> list[discord.File]:
        if self.png is None:
            return []
        return [discord.File(io.BytesIO(self.png), filename=texts.BOARD_FILE, description=self.description)]

    def send_kwargs(self) -> dict[str, Any]:
        return {"content": self.content or None, "embed": self.embed, "view": self.view, "files": self.files(),
                "allowed_mentions": self.mentions}

    def edit_kwargs(self) -> dict[str, Any]:
        return {"content": self.content or None, "embed": self.embed, "view": self.view,
                "attachments": self.files(), "allowed_mentions": self.mentions}


@dataclass
class GameScreen:
    """What the bot shows of one game, kept while the game is open."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    # What happened lately, without words: said in the server's language of the moment each time it is shown.
    narration: deque[texts.Told] = field(default_factory=lambda: deque(maxlen=NARRATION_LINES))
    last_move: MoveEffect | None = None  # the move its board marks (kept across the throws that follow it)
    newest: int | None = None  # the number of the newest `show` call (the latest wins)
    shown: int | None = None  # the event number its message shows
    unshown: tuple[GameState, Finished | None] | None = None  # the newest state Discord refused, to show later


class Presenter:
    """Composes and shows the game messages of one bot."""

    def __init__(self, manager: SessionManager, *, languages: GuildLanguages, publisher: Publisher, charts: Charts,
                 compute: ComputePool, bar_ms: float = 0, activity: bool = False) -> None:
        self._manager = manager
        self.languages = languages
        self.publisher = publisher
        self.charts = charts
        self.compute = compute
        self._bar_ms = bar_ms
        self.activity = activity  # the Discord Activity is configured: game messages offer "Play on the board"
        self._screens: dict[int, GameScreen] = {}
        self._challenge_pings = ChallengePings()
        self._healer = Healer(publisher, self._show_again, self._give_up)
        # Told (game id, event number) whenever a game's board is on screen: a turn ping waits for it.
        self.on_shown: Callable[[int, int], None] | None = None

    async def language(self, state: GameState) -> str:
        """The language of messages everyone in the game's server sees."""
        return await self.languages.get(state.place.guild_id)

    # -- composing ------------------------------------------------------------------------------------

    def _remember(self, result: ActionResult) -> None:
        screen = self._screen(result.game_id)
        screen.narration.extend(texts.told(result.happenings, result.state))
        for happening in result.happenings:
            if isinstance(happening, Moved):
                screen.last_move = happening.effect

    def latest(self, state: GameState) -> GameState:
        """The newest state of this game (the session's while it is open)."""
        try:
            current = self._manager.get(state.game_id).state
        except GameNotOpen:
            return state
        return current if current.seq >= state.seq else state

    def _narration(self, game_id: int, lang: str) -> list[str]:
        screen = self._screens.get(game_id)
        # Each thing told is one line or more: the last few things give the last NARRATION_LINES lines.
        return texts.narration(screen.narration, lang)[-NARRATION_LINES:] if screen is not None else []

    async def description(self, state: GameState) -> str:
        """The game's board in words as its message's picture carries them (`/puluc board text:true`)."""
        state = self.latest(state)
        lang = await self.language(state)
        narration = self._narration(state.game_id, lang)
        return board_description(state, lang, narration[-1] if narration else None)

    async def compose(self, state: GameState, lang: str, finished: Finished | None = None) -> Composed:
        narration = self._narration(state.game_id, lang)
        if state.status == "lobby":
            if state.invited_id is not None:
                # Only a challenge's first message pings, and not again for a while for the same host and member.
                ping = self._challenge_pings.allow(state.game_id, state.host_id, state.invited_id)
                return Composed(texts.challenge_text(state, state.invited_id, lang),
                                texts.lobby_embed(state, lang, self._manager.lobby_expires(state)),
                                views.challenge_view(state, state.invited_id, lang),
                                mentions=pings(state.invited_id) if ping else discord.AllowedMentions.none())
            return Composed("", texts.lobby_embed(state, lang, self._manager.lobby_expires(state)),
                            views.lobby_view(state, lang))
        png = None
        description = None
        if state.position is not None:
            description = board_description(state, lang, narration[-1] if narration else None)
            try:
                theme = await self.languages.theme(state.place.guild_id)
                request = board_request(state, self.last_move(state.game_id), self._bar_ms, lang, theme)
                png = await self.compute.run(draw_board, request)
            except Exception:
                # A drawing bug must not stop the game: the embed still says everything.
                log.exception("could not draw the board of game %d", state.game_id)
        if state.status == "running":
            return Composed(texts.turn_text(state, lang),
                            texts.game_embed(state, lang, narration, image=png is not None),
                            views.game_view(state, lang, activity=self.activity), png,
                            description=description)
        return Composed("", texts.end_embed(state, lang, narration, finished, image=png is not None),
                        views.end_view(state, lang), png, description=description)

    # -- showing --------------------------------------------------------------------------------------

    async def show(self, result: ActionResult, interaction: discord.Interaction[Any] | None = None) -> Shown:
        """Show a saved result: edit the game message (through `interaction`, already acknowledged, when it
        came from a click on that message) or repost it at the bottom of the channel when it scrolled away
        or cannot be edited. Never raises for Discord's failures: when nothing gets through, the game is
        shown again later (`bot.cogs.games.delivery.Healer`)."""
        game_id = result.game_id
        screen = self._screen(game_id)
        ticket = screen.newest = (screen.newest or 0) + 1
        async with screen.lock:
            lang = await self.language(result.state)
            self._remember(result)
            now = self._screens.get(game_id)
            newest = now.newest if now is not None and now.newest is not None else ticket
            if newest != ticket and result.state.is_open and result.finished is None:
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
        clicked = (interaction if interaction is not None and interaction.message is not None
                   and interaction.message.id == state.message_id else None)
        delivered = await self.publisher.deliver(
            channel, state.game_id, state.message_id, composed,
            lambda message: self._kept(state, message), clicked=clicked, near_bottom=near_bottom)
        if delivered.shown is Shown.NOT_SHOWN:
            self._screen(state.game_id).unshown = (state, finished)
            self._healer.later(state.game_id)
        else:
            screen = self._screen(state.game_id)
            screen.unshown = None
            screen.shown = state.seq
            if self.on_shown is not None:
                self.on_shown(state.game_id, state.seq)
            if not state.is_open:
                self._forget(state.game_id)
            if state.status == "finished" and delivered.message is not None:
                self.charts.add_later(state, lang, delivered.message)
        return delivered.shown

    async def refresh(self, state: GameState) -> Shown | None:
        """Show the game as it stands if its message may be behind it (a click on that message was refused
        as out of date); None when the message already shows this state."""
        async with self._lock(state.game_id):
            state = self.latest(state)
            screen = self._screens.get(state.game_id)
            if screen is not None and screen.shown == state.seq:
                return None
            return await self._show(state, await self.language(state), None, None)

    async def post(self, result: ActionResult, interaction: discord.Interaction[Any] | None,
                   channel: discord.abc.Messageable | None = None) -> discord.Message:
        """Post a new game's first message (as the interaction's answer, or in `channel`) and remember it.

        When the message cannot be recorded (the database is unavailable) it is deleted again and the
        session's NotSaved is raised: no game message lives on that the bot does not track."""
        async with self._lock(result.game_id):
            lang = await self.language(result.state)
            self._remember(result)
            state = self.latest(result.state)
            composed = await self.compose(state, lang, result.finished)
            if channel is not None:
                target = channel
                message = await retrying(lambda: target.send(**composed.send_kwargs()),
                                         f"posting game {state.game_id}", sleep=self.publisher.sleep)
            elif interaction is not None:
                message = await self._answer(interaction, composed)
            else:
                raise ValueError(f"game {result.game_id}: post needs an interaction or a channel")
            await self._track(state, message)
            if self.on_shown is not None:
                self.on_shown(state.game_id, state.seq)
            return message

    async def repost(self, state: GameState, interaction: discord.Interaction[Any]) -> None:
        """`/puluc board`: the game message again, as the answer to the command, at the bottom; the old one
        loses its buttons. NotSaved (and the new message deleted) when the database cannot record it."""
        async with self._lock(state.game_id):
            state = self.latest(state)
            lang = await self.language(state)
            composed = await self.compose(state, lang)
            # Anyone may ask for the board again: that must not ping a challenged member each time.
            composed.mentions = discord.AllowedMentions.none()
            message = await self._answer(interaction, composed)
            await self._track(state, message)
            channel = await self.publisher.channel(state.place.channel_id)
            if channel is not None:
                await self.publisher.sweep(channel, state.game_id, keep=message.id, old=state.message_id)
            self._screen(state.game_id).unshown = None

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
            # A finished game's last message needs no bookkeeping.
            with contextlib.suppress(GameNotOpen):
                await self._manager.get(state.game_id).set_message(message.id)
        except NotSaved:
            channel = await self.publisher.channel(message.channel.id)
            await self.publisher.remove(channel or message.channel, message)
            raise

    async def _where(self, state: GameState) -> tuple[discord.abc.Messageable | None, bool]:
        """The game's channel (None when Discord cannot give it now) and whether the game message is among its
        `FRESH_AFTER` newest (False when there is no message yet)."""
        channel = await self.publisher.channel(state.place.channel_id)
        if channel is None or state.message_id is None:
            return channel, False
        return channel, await self.publisher.near_bottom(channel, state.message_id, FRESH_AFTER)

    async def _kept(self, state: GameState, message: discord.Message) -> bool:
        """Whether a fresh game message is recorded (else it was removed again)."""
        try:
            await self._track(state, message)
        except NotSaved as exc:
            log.warning("game %d: its new message could not be recorded (%s); it was removed", state.game_id,
                        exc.reason)
            return False
        return True

    # -- showing again, after Discord refused ---------------------------------------------------------

    async def _show_again(self, game_id: int) -> Shown | None:
        """The game's newest refused state shown again (None when a later action showed the game meanwhile)."""
        async with self._lock(game_id):
            screen = self._screens.get(game_id)
            if screen is None or screen.unshown is None:
                return None
            stale, finished = screen.unshown
            state = self.latest(stale)
            return await self._show(state, await self.language(state), finished, None)

    async def _give_up(self, game_id: int) -> None:
        async with self._lock(game_id):
            screen = self._screens.get(game_id)
            waiting = screen.unshown if screen is not None else None
            if screen is not None:
                screen.unshown = None
            if waiting is not None and not waiting[0].is_open:
                self._forget(game_id)

    async def close(self) -> None:
        """Stop the pending tries and charts (at shutdown)."""
        await self._healer.close()
        await self.charts.close()

    # -- the games' screens ---------------------------------------------------------------------------

    def last_move(self, game_id: int) -> MoveEffect | None:
        """The move the game's board marks as the last one (kept across the throws that follow it)."""
        screen = self._screens.get(game_id)
        return screen.last_move if screen is not None else None

    def _screen(self, game_id: int) -> GameScreen:
        return self._screens.setdefault(game_id, GameScreen())

    def _lock(self, game_id: int) -> asyncio.Lock:
        return self._screen(game_id).lock

    def forget_member(self, user_id: int) -> None:
        """Forget-me: no record of whom this member challenged or was challenged by stays."""
        self._challenge_pings.forget(user_id)

    def drop(self, game_id: int) -> None:
        """Forget a game that ended where it cannot be shown (its channel or server is gone)."""
        self._forget(game_id)

    def _forget(self, game_id: int) -> None:
        self._screens.pop(game_id, None)
