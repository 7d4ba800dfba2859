"""What every feature cog shares: the `/puluc` command group and where an interaction happens.

discord.py lets one cog own an `app_commands.Group`; ours is spread over several cogs (games, info,
ladders...), so the group lives on the bot's command tree and each `PulucCog` moves its own slash
commands into it when it loads (and out again when it unloads). Must never hold command logic.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.sessions import Place
from bot.ui.i18n import command_description, command_name

GROUP_NAME = "puluc"


def puluc_group(bot: commands.Bot) -> app_commands.Group:
    """The bot's `/puluc` group, created and added to the tree on first use."""
    existing = bot.tree.get_command(GROUP_NAME)
    if isinstance(existing, app_commands.Group):
        return existing
    group = app_commands.Group(
        name=command_name(GROUP_NAME), description=command_description(GROUP_NAME), guild_only=True
    )
    bot.tree.add_command(group)
    return group


class PulucCog(commands.Cog):
    """A cog whose slash commands are subcommands of `/puluc`; its persistent components (`dynamic_items`)
    are registered with the bot while it is loaded."""

    dynamic_items: tuple[type[discord.ui.DynamicItem[Any]], ...] = ()

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self._moved: list[app_commands.Command[Any, ..., Any] | app_commands.Group] = []

    async def cog_load(self) -> None:
        group = puluc_group(self.bot)
        for command in self.__cog_app_commands__:
            # A subcommand, or a group of them (`/puluc tournament create`).
            if isinstance(command, app_commands.Command | app_commands.Group):
                group.add_command(command, override=True)
                self._moved.append(command)
        # The commands now live in the group; the cog must not also add them as top-level commands.
        self.__cog_app_commands__ = [c for c in self.__cog_app_commands__ if c not in self._moved]
        self.bot.add_dynamic_items(*self.dynamic_items)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*self.dynamic_items)
        group = puluc_group(self.bot)
        for command in self._moved:
            group.remove_command(command.name)
        self._moved.clear()


def place_of(interaction: discord.Interaction[Any]) -> Place:
    """Where a game command was used; games are played in servers only."""
    if interaction.guild_id is None or interaction.channel_id is None:
        raise app_commands.NoPrivateMessage
    return Place(interaction.guild_id, interaction.channel_id, isinstance(interaction.channel, discord.Thread))
