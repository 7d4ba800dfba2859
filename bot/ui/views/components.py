"""What every feature's persistent components share: whether the bot takes a click now, and the answer to a
click on a component its message no longer carries."""

from __future__ import annotations

import contextlib
from typing import Any

import discord

from bot.ui.i18n import t


async def admitted(interaction: discord.Interaction[Any]) -> bool:
    """Whether the bot takes this click: it turns interactions away while it shuts down (PulucBot.admit).
    Every persistent component's `interaction_check` asks this first."""
    admit = getattr(interaction.client, "admit", None)
    return True if admit is None else bool(await admit(interaction))


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
