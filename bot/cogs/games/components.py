"""The game messages' persistent buttons: `GameButton`, rebuilt from its custom_id, which each cog subclasses
with the kinds it answers (`lobby.LobbyButton`, `play.PlayButton`).
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.ui.views import ids
from bot.ui.views.components import admitted


class GameButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ids.pattern(ids.BUTTON_KINDS)):
    """A Puluc button of a game message; a subclass names its kinds and answers them (`callback`)."""

    def __init__(
        self,
        component: ids.ComponentId,
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=str(component), emoji=emoji, disabled=disabled),
            row=row,
        )
        self.component = component

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> GameButton:
        button = item if isinstance(item, discord.ui.Button) else None
        return cls(
            ids.ComponentId.from_match(match),
            label=button.label if button else None,
            style=button.style if button else discord.ButtonStyle.secondary,
        )

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return await admitted(interaction)
