"""Reading about the game: `/puluc rules [variant]` (an embed with a picture of the starting board) and
`/puluc help`. Both answer only the caller. This module must never hold rules text: the catalogues do.
"""

from __future__ import annotations

import asyncio
import io
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.base import PulucCog
from bot.sessions import DEFAULT_VARIANT
from bot.ui import messages
from bot.ui.i18n import (
    choices,
    command_description,
    command_name,
    language_for,
    option_description,
    option_name,
    rules_page,
)
from puluc import Position, Rules


def _start_board(variant: str) -> bytes:
    from renderer import render_board

    return render_board(Position.start(Rules.preset(variant)), last_move=False)


class Info(PulucCog):
    """Rules and help."""

    @app_commands.command(name=command_name("rules"), description=command_description("rules"))
    @app_commands.rename(variant=option_name("rules", "variant"))
    @app_commands.describe(variant=option_description("rules", "variant"))
    @app_commands.choices(variant=choices("variant"))
    async def rules(self, interaction: discord.Interaction[Any], variant: str | None = None) -> None:
        lang = language_for(interaction.locale)
        page = rules_page(lang, variant)
        await interaction.response.defer(ephemeral=True, thinking=True)
        picture = await asyncio.to_thread(_start_board, variant or DEFAULT_VARIANT)
        embed = messages.rules_embed(lang, page.title, page.description, page.fields, page.footer, image=True)
        await interaction.followup.send(
            embed=embed, file=discord.File(io.BytesIO(picture), filename=messages.BOARD_FILE), ephemeral=True
        )

    @app_commands.command(name=command_name("help"), description=command_description("help"))
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(embeds=messages.help_embeds(language_for(interaction.locale)),
                                                ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Info(bot))
