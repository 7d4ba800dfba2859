"""Seasons: `/puluc-admin season start` (Manage Server) closes this server's current season, archives its
final leaderboards (then `/puluc leaderboard season:N` shows them) and starts the next from fresh ratings.

The subcommand group joins the `/puluc-admin` group the Settings cog adds to the tree (that cog loads first;
no cog imports another). Closing a season cannot be undone, so it needs `confirm: True`; without it the
command says what would happen and changes nothing.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.seasons.embeds import podium, started_text
from bot.ratings.types import LADDERS
from bot.services import mentions_of, services, storage_of
from bot.ui.i18n import command_description, command_name, language_for, option_description, option_name, t
from bot.ui.replies import acknowledge

ADMIN_GROUP = "puluc-admin"
GROUP = "season"


class Seasons(commands.Cog):
    """Closing and starting seasons of a server's ladders."""

    season = app_commands.Group(name=command_name(GROUP), description=command_description(GROUP), guild_only=True)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        admin = self.bot.tree.get_command(ADMIN_GROUP)
        if not isinstance(admin, app_commands.Group):
            raise RuntimeError(
                f"the /{ADMIN_GROUP} group is missing: load bot.cogs.server_settings.cog before bot.cogs.seasons.cog"
            )
        admin.add_command(self.season, override=True)
        # It lives in /puluc-admin now; the cog must not also add it as a top-level command.
        self.__cog_app_commands__ = [c for c in self.__cog_app_commands__ if c is not self.season]

    async def cog_unload(self) -> None:
        admin = self.bot.tree.get_command(ADMIN_GROUP)
        if isinstance(admin, app_commands.Group):
            admin.remove_command(self.season.name)

    @season.command(name=command_name("start", GROUP), description=command_description("start", GROUP))
    @app_commands.rename(confirm=option_name("start", "confirm", GROUP))
    @app_commands.describe(confirm=option_description("start", "confirm", GROUP))
    @app_commands.checks.has_permissions(manage_guild=True)
    async def start(self, interaction: discord.Interaction[Any], confirm: bool = False) -> None:
        guild_id = interaction.guild_id
        if guild_id is None:
            raise app_commands.NoPrivateMessage
        storage = storage_of(self.bot)
        await acknowledge(interaction, ephemeral=not confirm)
        if not confirm:
            current = await storage.seasons.current_season(guild_id)
            await interaction.followup.send(
                t("season.confirm_needed", language_for(interaction.locale), season=current), ephemeral=True)
            return
        closed = await storage.seasons.start_season(guild_id)
        lang = await services(self.bot).languages.get(guild_id)  # the whole channel reads it
        podiums = [podium(await storage.seasons.season_leaderboard(guild_id, closed.number, ladder), lang)
                   for ladder in LADDERS]
        await interaction.followup.send(started_text(closed, podiums, lang, mentions_of(self.bot)))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Seasons(bot))
