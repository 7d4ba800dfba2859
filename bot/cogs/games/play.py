"""Playing: `/puluc move` (with autocomplete of the caller's legal moves), `/puluc board`, `/puluc resign`,
`/puluc hint`, and the move buttons, move menu, resign and replay buttons.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.base import PulucCog, place_of
from bot.cogs.games.components import GameButton
from bot.cogs.games.delivery import Shown
from bot.cogs.games.replay_files import replay_of
from bot.cogs.games.texts import move_label
from bot.limits import BOARD, HINT, REPLAY
from bot.services import GameServices, services
from bot.sessions import ActionResult, GameSession, GameState
from bot.sessions.errors import NoGameHere, NotAPlayer, StaleAction
from bot.ui.i18n import command_description, command_name, language_for, option_description, option_name, t
from bot.ui.replies import report_error
from bot.ui.views import ids
from bot.ui.views.components import admitted
from bot.ui.views.ids import ComponentId

log = logging.getLogger(__name__)

MAX_CHOICES = 25  # Discord shows at most 25 autocomplete choices
PLAY_BUTTONS = tuple(kind for kind in (*ids.PLAY_KINDS, "replay") if kind not in ids.SELECT_KINDS)


def played_label(result: ActionResult, notation: str, lang: str) -> str:
    """The move just played, in words ("throw 3: ..."), or its notation when it cannot be found."""
    previous = result.previous.legal_options() if result.previous else []
    played = next((o for o in previous if o.notation == notation.strip()), None)
    return move_label(played.effect, lang) if played else notation.strip()


# -- the buttons and the move menu ------------------------------------------------------------------------


class PlayButton(GameButton, template=ids.pattern(PLAY_BUTTONS)):
    """A move, Resign and its confirmation, or Replay under a finished game."""

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await on_click(interaction, self.component, [])


class MoveMenu(discord.ui.DynamicItem[discord.ui.Select[Any]], template=ids.pattern(ids.SELECT_KINDS)):
    """The move menu shown instead of buttons when a player has more moves than buttons fit."""

    def __init__(
        self,
        component: ComponentId,
        options: list[discord.SelectOption] | None = None,
        *,
        placeholder: str | None = None,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(custom_id=str(component), options=options or [], placeholder=placeholder,
                              min_values=1, max_values=1),
            row=row,
        )
        self.component = component

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> MoveMenu:
        menu = cls(ComponentId.from_match(match))
        if isinstance(item, discord.ui.Select):
            menu.item = item
        return menu

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return await admitted(interaction)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await on_click(interaction, self.component, list(self.item.values))


def confirm_resign_view(state: GameState, lang: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(PlayButton(ComponentId("confirm", state.game_id, state.seq), label=t("button.confirm_resign", lang),
                             style=discord.ButtonStyle.danger))
    return view



class Play(PulucCog):
    """Moves, the board, resigning, hints and replays."""

    dynamic_items = (PlayButton, MoveMenu)

    @property
    def games(self) -> GameServices:
        return services(self.bot)

    def _session_here(self, interaction: discord.Interaction[Any]) -> GameSession:
        place = place_of(interaction)
        session = self.games.manager.in_channel(place.channel_id)
        if session is None:
            raise NoGameHere(f"no game in channel {place.channel_id}")
        return session

    # -- commands ---------------------------------------------------------------------------------------

    @app_commands.command(name=command_name("move"), description=command_description("move"))
    @app_commands.rename(move=option_name("move", "move"))
    @app_commands.describe(move=option_description("move", "move"))
    async def move(self, interaction: discord.Interaction[Any], move: str) -> None:
        session = self._session_here(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        result = await session.play(interaction.user.id, move)
        await self.games.presenter.show(result)
        lang = language_for(interaction.locale)
        await self.games.presenter.tell(interaction, t("play.done", lang, move=played_label(result, move, lang)))

    @move.autocomplete("move")
    async def move_autocomplete(self, interaction: discord.Interaction[Any],
                                current: str) -> list[app_commands.Choice[str]]:
        session = self.games.manager.in_channel(interaction.channel_id or 0)
        if session is None:
            return []
        lang = language_for(interaction.locale)
        typed = current.strip().lower()
        found = []
        for option in session.options_for(interaction.user.id):
            label = move_label(option.effect, lang)
            if typed in option.notation.lower() or typed in label.lower():
                found.append(app_commands.Choice(name=label[:100], value=option.notation))
        return found[:MAX_CHOICES]

    @app_commands.command(name=command_name("board"), description=command_description("board"))
    @app_commands.rename(text=option_name("board", "text"))
    @app_commands.describe(text=option_description("board", "text"))
    async def board(self, interaction: discord.Interaction[Any], text: bool = False) -> None:
        session = self._session_here(interaction)
        if text:
            # The board in words, as the picture's alt text says it, for the caller alone: nothing is reposted.
            description = await self.games.presenter.description(session.state)
            await interaction.response.send_message(description, ephemeral=True,
                                                    allowed_mentions=discord.AllowedMentions.none())
            return
        self.games.limits.take(BOARD, interaction.user.id, interaction.guild_id)
        await interaction.response.defer(thinking=True)
        await self.games.presenter.repost(session.state, interaction)

    @app_commands.command(name=command_name("resign"), description=command_description("resign"))
    async def resign(self, interaction: discord.Interaction[Any]) -> None:
        session = self._session_here(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        result = await session.resign(interaction.user.id)
        await self.games.presenter.show(result)
        await interaction.followup.send(t("play.resigned", language_for(interaction.locale)), ephemeral=True)

    @app_commands.command(name=command_name("hint"), description=command_description("hint"))
    async def hint(self, interaction: discord.Interaction[Any]) -> None:
        session = self._session_here(interaction)
        session.check_hint(interaction.user.id)  # a refusal first: it costs nothing and counts nothing
        self.games.limits.take(HINT, interaction.user.id, interaction.guild_id)
        await interaction.response.defer(ephemeral=True, thinking=True)
        suggestion = await session.suggest(interaction.user.id)
        lang = language_for(interaction.locale)
        await interaction.followup.send(
            t("play.hint", lang, move=move_label(suggestion.effect, lang), notation=suggestion.notation,
              chance=round(suggestion.chance * 100)),
            ephemeral=True,
        )


# -- what a click does ------------------------------------------------------------------------------------


async def on_click(interaction: discord.Interaction[Any], component: ComponentId, values: list[str]) -> None:
    try:
        await _click(services(interaction.client), interaction, component, values)
    except Exception as exc:  # noqa: BLE001 - a component's last resort: the member is told, the error logged
        await report_error(interaction, exc)
    # A member whose DM call bounced hears of it now, once (bot.cogs.games.calls.DmNotes).
    await services(interaction.client).notes.deliver(interaction)


async def _click(games: GameServices, interaction: discord.Interaction[Any], component: ComponentId,
                 values: list[str]) -> None:
    lang = language_for(interaction.locale)
    if component.kind == "replay":
        await _replay(games, interaction, component)
        return
    session = games.manager.get(component.game_id)
    if component.kind in ("move", "pick"):
        notation = component.arg if component.kind == "move" else (values[0] if values else "")
        await interaction.response.defer()
        try:
            result = await session.play(interaction.user.id, notation, turn=component.turn)
        except StaleAction:
            # Refused on the game's own message: that message shows an old position, so show the game.
            if interaction.message is not None and interaction.message.id == session.state.message_id:
                await games.presenter.refresh(session.state)
            raise
        shown = await games.presenter.show(result, interaction)
        if shown in (Shown.POSTED, Shown.NOT_SHOWN):
            # The message the player clicked did not change in front of them: say that the move counted.
            await games.presenter.tell(interaction, t("play.done", lang, move=played_label(result, notation, lang)))
    elif component.kind == "resign":
        if session.state.seat_of(interaction.user.id) is None:
            raise NotAPlayer(f"user {interaction.user.id} is not in game {component.game_id}")
        await interaction.response.send_message(
            t("play.confirm_resign", lang), view=confirm_resign_view(session.state, lang), ephemeral=True
        )
    elif component.kind == "launch":
        await _launch(interaction)
    elif component.kind == "confirm":
        await interaction.response.defer()
        result = await session.resign(interaction.user.id)
        await games.presenter.show(result)
        await interaction.edit_original_response(content=t("play.resigned", lang), view=None)
    else:
        raise ValueError(f"play does not handle {component.kind} components")


async def _launch(interaction: discord.Interaction[Any]) -> None:
    """Open the Discord Activity (the live board) for the member who clicked, where the game message is."""
    try:
        await interaction.response.launch_activity()
    except discord.HTTPException as error:
        # The application has no Activity (not enabled in the developer portal), or this client cannot open one.
        log.warning("Discord refused to launch the Activity (HTTP %d, code %d)", error.status, error.code)
        await interaction.response.send_message(t("activity.error.launch", language_for(interaction.locale)),
                                                ephemeral=True)


async def _replay(games: GameServices, interaction: discord.Interaction[Any], component: ComponentId) -> None:
    games.limits.take(REPLAY, interaction.user.id, interaction.guild_id)
    await interaction.response.defer(ephemeral=True, thinking=True)
    state = await games.manager.replay_state(component.game_id)
    replay = await replay_of(state, language_for(interaction.locale), interaction.filesize_limit,
                             games.compute, games.replays, await games.languages.theme(interaction.guild_id))
    await interaction.followup.send(replay.text, files=replay.files, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Play(bot))
