"""The persistent buttons and the move menu: `DynamicItem`s that rebuild themselves from their custom_id.

A click is parsed into a `ComponentId` and handed to the cog that owns that kind of component (lobby and
challenge buttons to the Lobby cog, moves, resign and replay to the Play cog). No state lives in memory
here, so old messages keep working after a restart. This module must never hold game logic.
"""

from __future__ import annotations

import contextlib
import logging
import re
from typing import Any, Protocol

import discord

from bot.ui.i18n import t
from bot.ui.views import ids

log = logging.getLogger(__name__)

# Which cog answers which kind of component.
HANDLER_COG: dict[str, str] = {
    **{kind: "Lobby" for kind in (*ids.LOBBY_KINDS, *ids.CHALLENGE_KINDS, "rematch")},
    **{kind: "Play" for kind in (*ids.PLAY_KINDS, "replay")},
}


class ComponentHandler(Protocol):
    async def handle_component(
        self, interaction: discord.Interaction[Any], component: ids.ComponentId, values: list[str]
    ) -> None: ...


async def admitted(interaction: discord.Interaction[Any]) -> bool:
    """Whether the bot takes this click: it turns interactions away while it shuts down (PulucBot.admit).
    Every persistent component's `interaction_check` asks this first (here and in bot.cogs.ladders.views)."""
    admit = getattr(interaction.client, "admit", None)
    return True if admit is None else bool(await admit(interaction))


async def _dispatch(interaction: discord.Interaction[Any], component: ids.ComponentId, values: list[str]) -> None:
    cog: ComponentHandler | None = interaction.client.get_cog(HANDLER_COG[component.kind])
    if cog is None:
        log.error("no cog handles %s components; is its extension loaded?", component.kind)
        return
    await cog.handle_component(interaction, component, values)


class GameButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ids.pattern(ids.BUTTON_KINDS)):
    """Any Puluc button: lobby seats, challenge answers, moves, resign, rematch, replay."""

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

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _dispatch(interaction, self.component, [])


class MoveMenu(discord.ui.DynamicItem[discord.ui.Select[Any]], template=ids.pattern(ids.SELECT_KINDS)):
    """The move menu shown instead of buttons when a player has more moves than buttons fit."""

    def __init__(
        self,
        component: ids.ComponentId,
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
        menu = cls(ids.ComponentId.from_match(match))
        if isinstance(item, discord.ui.Select):
            menu.item = item
        return menu

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return await admitted(interaction)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _dispatch(interaction, self.component, list(self.item.values))


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (GameButton, MoveMenu)


def _still_on_message(interaction: discord.Interaction[Any], custom_id: str) -> bool:
    """Whether the clicked component is among the message's current components (as discord.py looks)."""
    message = interaction.message
    if message is None:
        return False
    view = discord.ui.View.from_message(message, timeout=None)
    return any(getattr(item, "custom_id", None) == custom_id for item in view.walk_children())


async def answer_orphaned_click(interaction: discord.Interaction[Any]) -> None:
    """Answer a click on a Puluc component that the message no longer carries.

    discord.py builds a `DynamicItem` only from a component still on the message, and silently drops the
    click otherwise; that happens whenever a second click arrives after the first one's answer edited the
    game message (two players clicking at once, or a client showing an old copy). Without this listener
    the user would see "This interaction failed"; with it they get the stale-button explanation and nothing
    changes.
    """
    if interaction.type is not discord.InteractionType.component or interaction.response.is_done():
        return
    custom_id = interaction.data.get("custom_id") if interaction.data is not None else None
    if not isinstance(custom_id, str) or not custom_id.startswith("puluc:"):
        return
    if _still_on_message(interaction, custom_id):
        return
    with contextlib.suppress(discord.InteractionResponded):
        await interaction.response.send_message(t("error.stale_button", interaction.locale), ephemeral=True)
