"""Tournaments: `/puluc tournament create|join|leave|start|standings|cancel` and the card's buttons.

Glue only: read the options, check the bot's permissions and the caller's rights (the organiser is the
creator or a member with Manage Server), ask the tournament manager, and answer the caller in their language;
everyone else sees the change on the card and in the channel (the tournament presenter shows it). Refusals
are one ephemeral sentence. Pairings, results and round times are the tournament manager's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.base import PulucCog
from bot.cogs.games.lobby import player_of
from bot.cogs.games.texts import turn_timer_choices
from bot.cogs.tournaments.texts import standings_embed
from bot.cogs.tournaments.views import DYNAMIC_ITEMS, cancel_tournament, confirm, start_tournament, where
from bot.services import GameServices, services
from bot.sessions import DEFAULT_VARIANT
from bot.tournaments.errors import TournamentNotOpen
from bot.tournaments.manager import TournamentManager
from bot.tournaments.types import FORMATS, Tournament, TournamentFormat, TournamentSettings
from bot.ui.i18n import choices, command_description, command_name, option_description, option_name
from bot.ui.replies import AckGrace, Refusal, acknowledge, answer, check_bot_permissions

GROUP = "tournament"
CREATE_OPTIONS = ("name", "format", "variant", "setup", "turn_timer", "round_limit", "ranked")
HOURS = 3600
MAX_CHOICES = 25


def _names(command: str, options: tuple[str, ...]) -> dict[str, app_commands.locale_str]:
    return {option: option_name(command, option, GROUP) for option in options}


def _descriptions(command: str, options: tuple[str, ...]) -> dict[str, app_commands.locale_str]:
    return {option: option_description(command, option, GROUP) for option in options}


_Command = TypeVar("_Command", bound=Callable[..., Any])


def _which(command: str) -> Callable[[_Command], _Command]:
    """The `tournament` option every command but create shares: rename and describe it per command."""
    def decorate(func: _Command) -> _Command:
        func = app_commands.rename(tournament=option_name(command, "tournament", GROUP))(func)
        return app_commands.describe(tournament=option_description(command, "tournament", GROUP))(func)
    return decorate


class Tournaments(PulucCog):
    """Creating, entering, running and showing tournaments."""

    tournament = app_commands.Group(name=command_name(GROUP), description=command_description(GROUP))

    dynamic_items = DYNAMIC_ITEMS

    @property
    def games(self) -> GameServices:
        return services(self.bot)

    @property
    def manager(self) -> TournamentManager:
        return self.games.tournaments

    # -- commands ---------------------------------------------------------------------------------------

    @tournament.command(name=command_name("create", GROUP), description=command_description("create", GROUP))
    @app_commands.rename(**_names("create", CREATE_OPTIONS))
    @app_commands.describe(**_descriptions("create", CREATE_OPTIONS))
    @app_commands.choices(format=choices("format"), variant=choices("variant"), setup=choices("setup"))
    @app_commands.choices(turn_timer=turn_timer_choices())
    async def create(
        self,
        interaction: discord.Interaction[Any],
        name: app_commands.Range[str, 1, 60],
        format: str,
        variant: str | None = None,
        setup: str | None = None,
        turn_timer: int | None = None,
        round_limit: app_commands.Range[int, 1, 168] = 24,
        ranked: bool | None = None,
    ) -> None:
        guild_id, channel_id = where(interaction)
        check_bot_permissions(interaction, new_thread=True)
        if not isinstance(interaction.channel, discord.TextChannel):
            raise Refusal("error.tournament.channel")
        self.games.cooldowns.hit(interaction.user.id)
        await acknowledge(interaction, ephemeral=True)
        storage = self.games.storage
        guild = await storage.server_settings.guild_settings(guild_id)
        channel_ranked = await storage.server_settings.channel_ranked(channel_id)
        if ranked and channel_ranked is False:
            raise Refusal("error.ranked_off")
        settings = TournamentSettings(
            name=name, format=_format(format), variant=variant or guild.default_variant or DEFAULT_VARIANT,
            setup=setup,
            turn_timer_seconds=turn_timer or guild.turn_timer_seconds or self.games.config.turn_timer_seconds,
            round_seconds=round_limit * HOURS, ranked=bool(channel_ranked) if ranked is None else ranked,
        )
        update = await self.manager.create(player_of(interaction.user), guild_id, channel_id, settings)
        await confirm(interaction, "tournament.done.created", update.tournament)

    @tournament.command(name=command_name("join", GROUP), description=command_description("join", GROUP))
    @_which("join")
    async def join(self, interaction: discord.Interaction[Any], tournament: int | None = None) -> None:
        found = self._pick(interaction, tournament)
        await interaction.response.defer(ephemeral=True, thinking=True)
        update = await self.manager.join(found.tournament_id, player_of(interaction.user))
        await confirm(interaction, "tournament.done.joined", update.tournament)

    @tournament.command(name=command_name("leave", GROUP), description=command_description("leave", GROUP))
    @_which("leave")
    async def leave(self, interaction: discord.Interaction[Any], tournament: int | None = None) -> None:
        found = self._pick(interaction, tournament)
        await interaction.response.defer(ephemeral=True, thinking=True)
        update = await self.manager.leave(found.tournament_id, interaction.user.id)
        await confirm(interaction, "tournament.done.left", update.tournament)

    @tournament.command(name=command_name("start", GROUP), description=command_description("start", GROUP))
    @_which("start")
    async def start(self, interaction: discord.Interaction[Any], tournament: int | None = None) -> None:
        found = self._pick(interaction, tournament)
        await start_tournament(interaction, found.tournament_id)

    @tournament.command(name=command_name("cancel", GROUP), description=command_description("cancel", GROUP))
    @_which("cancel")
    async def cancel(self, interaction: discord.Interaction[Any], tournament: int | None = None) -> None:
        found = self._pick(interaction, tournament)
        await cancel_tournament(interaction, found.tournament_id)

    @tournament.command(name=command_name("standings", GROUP), description=command_description("standings", GROUP))
    @_which("standings")
    async def standings(self, interaction: discord.Interaction[Any], tournament: int | None = None) -> None:
        guild_id, _ = where(interaction)
        grace = AckGrace(interaction)
        if tournament is None:
            found = self._pick(interaction, None)
        else:
            found = await grace.run(self.manager.find(tournament, guild_id))
        lang = await grace.run(self.games.languages.get(guild_id))
        await answer(interaction, embed=standings_embed(found, lang))

    @join.autocomplete("tournament")
    @leave.autocomplete("tournament")
    @start.autocomplete("tournament")
    @cancel.autocomplete("tournament")
    async def open_choices(self, interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[int]]:
        found = self.manager.open_in(interaction.guild_id or 0)
        return _choices(found, current)

    @standings.autocomplete("tournament")
    async def any_choices(self, interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[int]]:
        found = await self.games.storage.tournaments.guild_tournaments(interaction.guild_id or 0, MAX_CHOICES)
        return _choices(found, current)

    # -- internals --------------------------------------------------------------------------------------

    def _pick(self, interaction: discord.Interaction[Any], tournament_id: int | None) -> Tournament:
        """The tournament named, or the one open tournament of this server when none is named."""
        guild_id, _ = where(interaction)
        if tournament_id is not None:
            found = self.manager.get(tournament_id)
            if found.guild_id != guild_id:
                raise TournamentNotOpen(f"tournament {tournament_id} is another server's", tournament_id=tournament_id)
            return found
        here = self.manager.open_in(guild_id)
        if not here:
            raise Refusal("error.tournament.none_here")
        if len(here) > 1:
            raise Refusal("error.tournament.which")
        return here[0]


def _format(value: str) -> TournamentFormat:
    """The format a choice names (the option offers only these)."""
    for known in FORMATS:
        if known == value:
            return known
    raise ValueError(f"unknown tournament format {value!r}; the choices are {FORMATS}")


def _choices(found: tuple[Tournament, ...], current: str) -> list[app_commands.Choice[int]]:
    typed = current.strip().lower()
    return [app_commands.Choice(name=f"#{t_.tournament_id} {t_.settings.name}"[:100], value=t_.tournament_id)
            for t_ in found if typed in f"#{t_.tournament_id} {t_.settings.name}".lower()][:MAX_CHOICES]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Tournaments(bot))
