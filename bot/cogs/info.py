"""Reading about the game: `/puluc rules [variant]` (an embed with a mid-game board showing what is special
about the variant) and `/puluc help` (with a "reading the board" page and its labelled picture). Both
answer only the caller; the rules' text is in the catalogues.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any, ParamSpec

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.base import PulucCog
from bot.cogs.games import texts
from bot.cogs.games.boards import board_texts, rules_example
from bot.limits import RULES
from bot.services import compute_of, limits_of, pictures_of
from bot.sessions import DEFAULT_VARIANT
from bot.ui.i18n import (
    choices,
    command_description,
    command_name,
    language_for,
    option_description,
    option_name,
    rules_page,
    t,
)
from bot.ui.pictures import draw_legend, draw_position

P = ParamSpec("P")


class Info(PulucCog):
    """Rules and help."""

    @app_commands.command(name=command_name("rules"), description=command_description("rules"))
    @app_commands.rename(variant=option_name("rules", "variant"))
    @app_commands.describe(variant=option_description("rules", "variant"))
    @app_commands.choices(variant=choices("variant"))
    async def rules(self, interaction: discord.Interaction[Any], variant: str | None = None) -> None:
        lang = language_for(interaction.locale)
        page = rules_page(lang, variant)
        limits_of(self.bot).take(RULES, interaction.user.id, interaction.guild_id)
        await interaction.response.defer(ephemeral=True, thinking=True)
        example = variant or DEFAULT_VARIANT
        picture = await self._picture(("rules", example, lang), draw_position, rules_example(example),
                                      board_texts(lang))
        fields = [*page.fields, (t("board.example.title", lang), t(f"board.example.{example}", lang))]
        embed = texts.rules_embed(lang, page.title, page.description, fields, page.footer, image=True)
        await interaction.followup.send(
            embed=embed, file=discord.File(io.BytesIO(picture), filename=texts.BOARD_FILE), ephemeral=True
        )

    @app_commands.command(name=command_name("help"), description=command_description("help"))
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        lang = language_for(interaction.locale)
        limits_of(self.bot).take(RULES, interaction.user.id, interaction.guild_id)
        await interaction.response.defer(ephemeral=True, thinking=True)
        legend = await self._picture(("legend", "", lang), draw_legend, board_texts(lang))
        await interaction.followup.send(
            embeds=texts.help_embeds(lang),
            file=discord.File(io.BytesIO(legend), filename=texts.LEGEND_FILE),
            ephemeral=True,
        )

    async def _picture(self, key: tuple[str, str, str], draw: Callable[P, bytes], *args: P.args,
                       **kwargs: P.kwargs) -> bytes:
        """A rules or help picture: drawn once per page and language in the rules lane, then kept."""
        kept = pictures_of(self.bot)
        found = kept.get(key) if kept is not None else None
        if found is None:
            found = await compute_of(self.bot).run_in(RULES.lane.name, draw, *args, **kwargs)
            if kept is not None:
                kept.put(key, found)
        return found


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Info(bot))
