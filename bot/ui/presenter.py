"""Shows games in Discord: renders the board, composes the game message and edits or reposts it.

Every change of a game, from a click or from the timers, ends here. The presenter always shows the game's
latest state (under a per-game lock), so updates that race each other can never leave an older board on
screen; recent narration lines are kept per game so a reader sees the last few things that happened.
Board images, and a finished game's advantage chart (team A's chance to win at the start of every turn),
are drawn in a worker thread by `bot.ui.boards`. This module must never change a game.
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

from bot.sessions import ActionResult, Finished, GameState, Moved, SessionManager
from bot.sessions.errors import GameNotOpen
from bot.ui import messages
from bot.ui.boards import CHART_MAX_POINTS, render_advantage, render_game_replay, render_png, seat_names
from bot.ui.i18n import public_language
from bot.ui.views import builders
from puluc import MoveEffect

log = logging.getLogger(__name__)

# A game message with more than this many newer messages below it is reposted at the bottom.
FRESH_AFTER = 8
NARRATION_LINES = 6
# The post-game advantage chart: one win-probability estimate per turn, each with this thinking budget, and
# at most this many points (sampled evenly), so even a long team game is charted within a few seconds.
CHART_POINT_BUDGET_MS = 25.0
CHART_FILE = "advantage.png"


@dataclass
class Composed:
    """One game message: text, embed, optional board PNG and components."""

    content: str
    embed: discord.Embed
    view: discord.ui.View
    png: bytes | None = None
    gif: bytes | None = field(default=None, repr=False)
    chart: bytes | None = field(default=None, repr=False)  # a finished game's advantage chart

    def files(self) -> list[discord.File]:
        found = [] if self.png is None else [discord.File(io.BytesIO(self.png), filename=messages.BOARD_FILE)]
        if self.chart is not None:
            found.append(discord.File(io.BytesIO(self.chart), filename=CHART_FILE))
        return found

    def send_kwargs(self) -> dict[str, Any]:
        return {"content": self.content or None, "embed": self.embed, "view": self.view, "files": self.files()}

    def edit_kwargs(self) -> dict[str, Any]:
        return {"content": self.content or None, "embed": self.embed, "view": self.view,
                "attachments": self.files()}


class Presenter:
    """Composes and publishes game messages for one bot."""

    def __init__(self, client: discord.Client, manager: SessionManager, *,
                 chart_budget_ms: float = CHART_POINT_BUDGET_MS, bar_ms: float = 0) -> None:
        self._client = client
        self._manager = manager
        self._chart_budget_ms = chart_budget_ms
        self._bar_ms = bar_ms
        self._locks: dict[int, asyncio.Lock] = {}
        self._narration: dict[int, deque[str]] = {}
        self._last_move: dict[int, MoveEffect] = {}
        self._language_overrides: dict[int, str | None] = {}
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
            self._language_overrides[guild_id] = await self.store_locale(guild_id)
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
                png = await asyncio.to_thread(render_png, state, self.last_move(state.game_id), self._bar_ms, lang)
            except Exception:
                # A drawing bug must not stop the game: the embed still says everything.
                log.exception("could not draw the board of game %d", state.game_id)
        if state.status == "running":
            return Composed(messages.turn_text(state, lang),
                            messages.game_embed(state, lang, narration, image=png is not None),
                            builders.game_view(state, lang), png)
        chart = await self._advantage_chart(state, lang) if state.status == "finished" else None
        return Composed("", messages.end_embed(state, lang, narration, finished, image=png is not None),
                        builders.end_view(state, lang), png, chart=chart)

    async def _advantage_chart(self, state: GameState, lang: str) -> bytes | None:
        """The post-game chart, or None: a failure here must never cost the players their result."""
        try:
            return await asyncio.to_thread(render_advantage, state, self._chart_budget_ms, CHART_MAX_POINTS, lang)
        except Exception:
            log.exception("could not chart game %d", state.game_id)
            return None

    # -- publishing -----------------------------------------------------------------------------------

    async def show(self, result: ActionResult, interaction: discord.Interaction[Any] | None = None) -> None:
        """Show a result: edit the game message (through `interaction`, already acknowledged, when it came
        from a click on that message) or repost it at the bottom of the channel when it scrolled away."""
        lock = self._locks.setdefault(result.game_id, asyncio.Lock())
        async with lock:
            lang = await self.language(result.state)
            self._remember(result, lang)
            state = self.latest(result.state)
            composed = await self.compose(state, lang, result.finished)
            await self._deliver(state, composed, interaction)
        if not state.is_open:
            self._forget(state.game_id)

    async def post(self, result: ActionResult, interaction: discord.Interaction[Any] | None,
                   channel: discord.abc.Messageable | None = None) -> discord.Message:
        """Post a new game's first message (as the interaction's answer, or in `channel`) and remember it."""
        lang = await self.language(result.state)
        self._remember(result, lang)
        state = self.latest(result.state)
        composed = await self.compose(state, lang, result.finished)
        if channel is not None:
            message = await channel.send(**composed.send_kwargs())
        elif interaction is not None:
            message = await self._answer(interaction, composed)
        else:
            raise ValueError(f"game {result.game_id}: post needs an interaction or a channel")
        await self._remember_message(state, message.id)
        return message

    async def _answer(self, interaction: discord.Interaction[Any], composed: Composed) -> discord.Message:
        """Send `composed` as the interaction's public answer (a follow-up once it was deferred)."""
        if interaction.response.is_done():
            return await interaction.followup.send(wait=True, **composed.send_kwargs())
        await interaction.response.send_message(**composed.send_kwargs())
        return await interaction.original_response()

    async def repost(self, state: GameState, interaction: discord.Interaction[Any]) -> None:
        """`/puluc board`: the game message again, as the answer to the command, at the bottom."""
        lang = await self.language(state)
        composed = await self.compose(state, lang)
        old = state.message_id
        message = await self._answer(interaction, composed)
        await self._remember_message(state, message.id)
        await self._strip(state.place.channel_id, old)

    async def _deliver(
        self, state: GameState, composed: Composed, interaction: discord.Interaction[Any] | None
    ) -> None:
        channel = await self.channel(state.place.channel_id)
        message_id = state.message_id
        on_game_message = (interaction is not None and interaction.message is not None
                           and interaction.message.id == message_id)
        if message_id is not None and channel is not None and await self._near_bottom(channel, message_id):
            try:
                if on_game_message:
                    assert interaction is not None
                    await interaction.edit_original_response(**composed.edit_kwargs())
                else:
                    await channel.get_partial_message(message_id).edit(**composed.edit_kwargs())
                return
            except discord.NotFound:
                log.info("game %d: its message is gone; posting a new one", state.game_id)
        if channel is None:
            log.warning("game %d: channel %d is not reachable", state.game_id, state.place.channel_id)
            return
        message = await channel.send(**composed.send_kwargs())
        await self._remember_message(state, message.id)
        await self._strip(state.place.channel_id, message_id)

    async def _remember_message(self, state: GameState, message_id: int) -> None:
        # A finished game's last message needs no bookkeeping.
        with contextlib.suppress(GameNotOpen):
            await self._manager.get(state.game_id).set_message(message_id)

    async def _strip(self, channel_id: int, message_id: int | None) -> None:
        """Take the buttons off a game message that a newer one replaced."""
        channel = await self.channel(channel_id)
        if message_id is None or channel is None:
            return
        try:
            await channel.get_partial_message(message_id).edit(view=None)
        except discord.HTTPException as exc:
            log.debug("could not strip old game message %d: %s", message_id, exc)

    async def channel(self, channel_id: int) -> Any:
        """A channel or thread the bot can post in (from the cache, else fetched), or None when unreachable."""
        channel = self._client.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self._client.fetch_channel(channel_id)
            except discord.HTTPException:
                return None
        return channel if hasattr(channel, "get_partial_message") else None

    async def _near_bottom(self, channel: Any, message_id: int) -> bool:
        try:
            async for message in channel.history(limit=FRESH_AFTER):
                if message.id == message_id:
                    return True
        except discord.HTTPException:
            return True  # no read-history permission: keep editing in place
        return False

    def last_move(self, game_id: int) -> MoveEffect | None:
        """The move the game's board marks as the last one (kept across the throws that follow it)."""
        return self._last_move.get(game_id)

    def _forget(self, game_id: int) -> None:
        self._narration.pop(game_id, None)
        self._last_move.pop(game_id, None)
        self._locks.pop(game_id, None)

    async def replay_gif(self, state: GameState, lang: str) -> bytes:
        """The replay GIF of a finished game, captioned in `lang`, with the players' names as on its board."""
        return await asyncio.to_thread(render_game_replay, state.game_record(), "dark", lang, seat_names(state, lang))
