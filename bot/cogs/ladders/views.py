"""The leaderboard pager and the forget-me confirmation: persistent `DynamicItem` buttons.

Every button carries its whole state in its custom_id, so it keeps working after a restart:
`puluc:lb:<scope>:<ladder>:<page>:<owner>` (scope 0 is the global ladder, else the guild id; page is the
0-based page the button leads to; owner is who asked for the leaderboard) and
`puluc:forget:<yes|no>:<user>:<issued>` (issued is the Unix second the prompt was shown, so a forgotten
prompt expires). A click is handed to the Ladders cog, which owns the store calls. This module must never
read or write the store itself.
"""

from __future__ import annotations

import logging
import re
from typing import Any, Protocol

import discord

from bot.ui.i18n import t
from bot.ui.views.components import admitted

log = logging.getLogger(__name__)

HANDLER_COG = "Ladders"
LEADERBOARD_TEMPLATE = (
    r"puluc:lb:(?P<scope>[0-9]{1,20}):(?P<ladder>duel|team):(?P<page>[0-9]{1,6}):(?P<owner>[0-9]{1,20})"
)
FORGET_TEMPLATE = r"puluc:forget:(?P<action>yes|no):(?P<user>[0-9]{1,20}):(?P<issued>[0-9]{1,12})"
# A closed season's leaderboard of the server the message is in: `puluc:lbs:<season>:<ladder>:<page>:<owner>`.
SEASON_TEMPLATE = (
    r"puluc:lbs:(?P<season>[0-9]{1,6}):(?P<ladder>duel|team):(?P<page>[0-9]{1,6}):(?P<owner>[0-9]{1,20})"
)


class LadderHandler(Protocol):
    async def show_page(
        self, interaction: discord.Interaction[Any], scope: int, ladder: str, page: int, owner: int
    ) -> None: ...

    async def answer_forget(
        self, interaction: discord.Interaction[Any], confirmed: bool, user_id: int, issued: int
    ) -> None: ...

    async def show_season_page(
        self, interaction: discord.Interaction[Any], season: int, ladder: str, page: int, owner: int
    ) -> None: ...


def _handler(interaction: discord.Interaction[Any]) -> LadderHandler | None:
    cog: LadderHandler | None = interaction.client.get_cog(HANDLER_COG)
    if cog is None:
        log.error("a ladder button was pressed but the %s cog is not loaded", HANDLER_COG)
    return cog


class LeaderboardButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=LEADERBOARD_TEMPLATE):
    """Previous or Next on a leaderboard: shows page `page` of one ladder."""

    def __init__(
        self,
        scope: int,
        ladder: str,
        page: int,
        owner: int,
        *,
        label: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label, style=discord.ButtonStyle.secondary, disabled=disabled,
                custom_id=f"puluc:lb:{scope}:{ladder}:{page}:{owner}",
            )
        )
        self.scope, self.ladder, self.page, self.owner = scope, ladder, page, owner

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LeaderboardButton:
        return cls(int(match["scope"]), match["ladder"], int(match["page"]), int(match["owner"]))

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return await admitted(interaction)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        handler = _handler(interaction)
        if handler is not None:
            await handler.show_page(interaction, self.scope, self.ladder, self.page, self.owner)


class SeasonButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=SEASON_TEMPLATE):
    """Previous or Next on a closed season's leaderboard: shows page `page` of it."""

    def __init__(self, season: int, ladder: str, page: int, owner: int, *, label: str | None = None,
                 disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label, style=discord.ButtonStyle.secondary, disabled=disabled,
                custom_id=f"puluc:lbs:{season}:{ladder}:{page}:{owner}",
            )
        )
        self.season, self.ladder, self.page, self.owner = season, ladder, page, owner

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> SeasonButton:
        return cls(int(match["season"]), match["ladder"], int(match["page"]), int(match["owner"]))

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return await admitted(interaction)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        handler = _handler(interaction)
        if handler is not None:
            await handler.show_season_page(interaction, self.season, self.ladder, self.page, self.owner)


class ForgetButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=FORGET_TEMPLATE):
    """Confirm or call off forget-me; only `user` (who asked) may press it."""

    def __init__(
        self, confirmed: bool, user_id: int, issued: int, *, label: str | None = None
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.danger if confirmed else discord.ButtonStyle.secondary,
                custom_id=f"puluc:forget:{'yes' if confirmed else 'no'}:{user_id}:{issued}",
            )
        )
        self.confirmed, self.user_id, self.issued = confirmed, user_id, issued

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ForgetButton:
        return cls(match["action"] == "yes", int(match["user"]), int(match["issued"]))

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        if interaction.user.id != self.user_id:
            # The prompt is ephemeral, so only a forged or relayed click gets here; answer, change nothing.
            await interaction.response.send_message(
                t("privacy.forget.not_yours", interaction.locale), ephemeral=True
            )
            return False
        return await admitted(interaction)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        handler = _handler(interaction)
        if handler is not None:
            await handler.answer_forget(interaction, self.confirmed, self.user_id, self.issued)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (LeaderboardButton, SeasonButton, ForgetButton)


def leaderboard_view(
    scope: int, ladder: str, page: int, owner: int, lang: str, *, has_previous: bool, has_next: bool
) -> discord.ui.View | None:
    """Previous / Next for a page (None when the ladder fits on one page)."""
    if not has_previous and not has_next:
        return None
    view = discord.ui.View(timeout=None)
    # On page 0 Previous points at page 0 (disabled), so the two custom_ids always differ.
    view.add_item(LeaderboardButton(scope, ladder, max(page - 1, 0), owner, label=t("ladder.previous", lang),
                                    disabled=not has_previous))
    view.add_item(LeaderboardButton(scope, ladder, page + 1, owner, label=t("ladder.next", lang),
                                    disabled=not has_next))
    return view


def forget_view(user_id: int, issued: int, lang: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ForgetButton(True, user_id, issued, label=t("privacy.forget.confirm", lang)))
    view.add_item(ForgetButton(False, user_id, issued, label=t("privacy.forget.cancel", lang)))
    return view


def season_view(
    season: int, ladder: str, page: int, owner: int, lang: str, *, has_previous: bool, has_next: bool
) -> discord.ui.View | None:
    """Previous / Next for a closed season's leaderboard (None when it fits on one page)."""
    if not has_previous and not has_next:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(SeasonButton(season, ladder, max(page - 1, 0), owner, label=t("ladder.previous", lang),
                               disabled=not has_previous))
    view.add_item(SeasonButton(season, ladder, page + 1, owner, label=t("ladder.next", lang), disabled=not has_next))
    return view
