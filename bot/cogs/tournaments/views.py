"""The tournament card's persistent buttons (Join, Leave, Start, Cancel, `puluc:tour:<kind>:<id>`) and what
a press does, shared with the commands of the same names.
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands

from bot import ratings
from bot.cogs.games.lobby import player_of
from bot.cogs.tournaments.texts import title_of
from bot.services import GameServices, services
from bot.tournaments.types import Tournament
from bot.ui.i18n import language_for, t
from bot.ui.links import web_links
from bot.ui.replies import check_bot_permissions, report_error
from bot.ui.views.components import admitted
from bot.ui.views.web import with_link

KINDS = ("join", "leave", "start", "cancel")
TEMPLATE = r"puluc:tour:(?P<kind>join|leave|start|cancel):(?P<tournament_id>[0-9]{1,20})"


class TournamentButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    def __init__(self, kind: str, tournament_id: int, *, label: str | None = None,
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label, style=style,
                                           custom_id=f"puluc:tour:{kind}:{tournament_id}"))
        self.kind = kind
        self.tournament_id = tournament_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TournamentButton:
        return cls(match["kind"], int(match["tournament_id"]))

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return await admitted(interaction)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await press(interaction, self.kind, self.tournament_id)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (TournamentButton,)


def card_view(tournament: Tournament, lang: str) -> discord.ui.View | None:
    """Join, Leave, Start and Cancel while open; Cancel alone while running; nothing once it is over but the
    link to its web page (when WEB_BASE_URL is set)."""
    links = web_links()
    page = links.tournament(tournament.tournament_id) if links is not None else None
    if not tournament.is_open:
        return with_link(None, page, lang)
    view = discord.ui.View(timeout=None)
    tid = tournament.tournament_id
    if tournament.status == "open":
        view.add_item(TournamentButton("join", tid, label=t("tournament.button.join", lang),
                                       style=discord.ButtonStyle.success))
        view.add_item(TournamentButton("leave", tid, label=t("tournament.button.leave", lang)))
        view.add_item(TournamentButton("start", tid, label=t("tournament.button.start", lang),
                                       style=discord.ButtonStyle.primary))
    view.add_item(TournamentButton("cancel", tid, label=t("tournament.button.cancel", lang),
                                   style=discord.ButtonStyle.danger))
    return with_link(view, page, lang)


# -- what a press does ---------------------------------------------------------------------------------------


async def press(interaction: discord.Interaction[Any], kind: str, tournament_id: int) -> None:
    try:
        where(interaction)
        if kind == "start":
            await start_tournament(interaction, tournament_id)
            return
        if kind == "cancel":
            await cancel_tournament(interaction, tournament_id)
            return
        manager = services(interaction.client).tournaments
        await interaction.response.defer(ephemeral=True, thinking=True)
        if kind == "join":
            update = await manager.join(tournament_id, player_of(interaction.user))
            await confirm(interaction, "tournament.done.joined", update.tournament)
        else:
            update = await manager.leave(tournament_id, interaction.user.id)
            await confirm(interaction, "tournament.done.left", update.tournament)
    except Exception as exc:  # noqa: BLE001 - a component's last resort: the member is told, the error logged
        await report_error(interaction, exc)


async def start_tournament(interaction: discord.Interaction[Any], tournament_id: int) -> None:
    games = services(interaction.client)
    found = games.tournaments.get(tournament_id)
    check_bot_permissions(interaction, new_thread=True)
    await interaction.response.defer(ephemeral=True, thinking=True)
    seeds = {e.user_id: await _rating(games, e.user_id, found.guild_id) for e in found.entrants if e.user_id}
    update = await games.tournaments.start(tournament_id, interaction.user.id, organiser=_manages(interaction),
                                           ratings=seeds)
    await confirm(interaction, "tournament.done.started", update.tournament)


async def cancel_tournament(interaction: discord.Interaction[Any], tournament_id: int) -> None:
    manager = services(interaction.client).tournaments
    await interaction.response.defer(ephemeral=True, thinking=True)
    update = await manager.cancel(tournament_id, interaction.user.id, organiser=_manages(interaction))
    await confirm(interaction, "tournament.done.cancelled", update.tournament)


async def _rating(games: GameServices, user_id: int, guild_id: int) -> int:
    """The rating a player is seeded by: this server's 1 v 1 ladder, else all servers', else a newcomer's."""
    storage = games.storage
    skill = await storage.ladders.skill(user_id, "duel", guild_id) or await storage.ladders.skill(user_id, "duel")
    return (skill or ratings.NEWCOMER).display


def where(interaction: discord.Interaction[Any]) -> tuple[int, int]:
    """The server and channel of a tournament command or press; tournaments live in servers only."""
    if interaction.guild_id is None or interaction.channel_id is None:
        raise app_commands.NoPrivateMessage
    return interaction.guild_id, interaction.channel_id


async def confirm(interaction: discord.Interaction[Any], key: str, tournament: Tournament) -> None:
    text = t(key, language_for(interaction.locale), name=title_of(tournament),
             tournament_id=tournament.tournament_id)
    await interaction.followup.send(text, ephemeral=True)


def _manages(interaction: discord.Interaction[Any]) -> bool:
    return bool(interaction.permissions.manage_guild)
