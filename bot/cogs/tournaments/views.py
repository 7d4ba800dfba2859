"""The tournament card's buttons: Join, Leave, Start and Cancel, persistent `DynamicItem`s.

Each carries its whole state in its custom_id, `puluc:tour:<kind>:<tournament id>`, so it keeps working
after a restart; a press on a card whose tournament has moved on (started, finished) is refused with the
reason, and changes nothing. A press is handed to the Tournaments cog. This module must never change a
tournament itself.
"""

from __future__ import annotations

import logging
import re
from typing import Any, Protocol

import discord

from bot.tournaments.types import Tournament
from bot.ui.i18n import t
from bot.ui.views.components import admitted

log = logging.getLogger(__name__)

HANDLER_COG = "Tournaments"
KINDS = ("join", "leave", "start", "cancel")
TEMPLATE = r"puluc:tour:(?P<kind>join|leave|start|cancel):(?P<tournament_id>[0-9]{1,20})"


class TournamentHandler(Protocol):
    async def press(self, interaction: discord.Interaction[Any], kind: str, tournament_id: int) -> None: ...


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
        handler: TournamentHandler | None = interaction.client.get_cog(HANDLER_COG)
        if handler is None:
            log.error("a tournament button was pressed but the %s cog is not loaded", HANDLER_COG)
            return
        await handler.press(interaction, self.kind, self.tournament_id)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (TournamentButton,)


def card_view(tournament: Tournament, lang: str) -> discord.ui.View | None:
    """Join, Leave, Start and Cancel while open; Cancel alone while running; nothing once it is over."""
    if not tournament.is_open:
        return None
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
    return view
