"""The leaderboards' pages with their Previous / Next buttons, and forget-me's confirmation: persistent buttons
whose custom_id holds their whole state, the views made of them, and what a press does.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands

from bot.cogs.ladders.embeds import leaderboard_embed, season_embed
from bot.services import GameServices, replays_of, storage_of
from bot.storage.errors import PlayerInOpenGame
from bot.ui.i18n import language_for, t
from bot.ui.replies import AckGrace, answer, or_missing, report_error
from bot.ui.views.components import admitted

log = logging.getLogger(__name__)

# A leaderboard page as one viewer sees it (their own place marked): the embed and its Previous / Next.
PageFor = Callable[[int], Awaitable[tuple[discord.Embed, discord.ui.View | None]]]

FORGET_PROMPT_SECONDS = 15 * 60  # a confirmation older than this must be asked for again
LEADERBOARD_TEMPLATE = (
    r"puluc:lb:(?P<scope>[0-9]{1,20}):(?P<ladder>duel|team):(?P<page>[0-9]{1,6}):(?P<owner>[0-9]{1,20})"
)
FORGET_TEMPLATE = r"puluc:forget:(?P<action>yes|no):(?P<user>[0-9]{1,20}):(?P<issued>[0-9]{1,12})"
# A closed season's leaderboard of the server the message is in: `puluc:lbs:<season>:<ladder>:<page>:<owner>`.
SEASON_TEMPLATE = (
    r"puluc:lbs:(?P<season>[0-9]{1,6}):(?P<ladder>duel|team):(?P<page>[0-9]{1,6}):(?P<owner>[0-9]{1,20})"
)


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
        await turn_page(interaction, self.owner,
                        lambda viewer: leaderboard_page(interaction, self.scope, self.ladder, self.page, viewer))


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
        await turn_page(interaction, self.owner,
                        lambda viewer: season_page(interaction, self.season, self.ladder, self.page, viewer))


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
        await answer_forget(interaction, self.confirmed, self.user_id, self.issued)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (LeaderboardButton, SeasonButton, ForgetButton)


# -- what a press shows --------------------------------------------------------------------------------------


async def leaderboard_page(
    interaction: discord.Interaction[Any], scope: int, ladder: str, page: int, owner: int
) -> tuple[discord.Embed, discord.ui.View | None]:
    lang = language_for(interaction.locale)
    found = await storage_of(interaction.client).ladders.leaderboard(ladder, scope, page, caller_id=owner)
    view = leaderboard_view(scope, ladder, page, owner, lang,
                            has_previous=found.has_previous, has_next=found.has_next)
    return leaderboard_embed(found, lang, owner), view


async def season_page(
    interaction: discord.Interaction[Any], season: int, ladder: str, page: int, owner: int
) -> tuple[discord.Embed, discord.ui.View | None]:
    """A page of a closed season's leaderboard of the server the interaction is in."""
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage
    lang = language_for(interaction.locale)
    found = await storage_of(interaction.client).seasons.season_leaderboard(interaction.guild_id, season, ladder, page,
                                                                    caller_id=owner)
    view = season_view(season, ladder, page, owner, lang, has_previous=found.has_previous,
                       has_next=found.has_next)
    return season_embed(found, lang, owner), view


async def turn_page(interaction: discord.Interaction[Any], owner: int, page_for: PageFor) -> None:
    """A Previous / Next press: the owner turns the page in place; anyone else gets their own copy of that
    page (only to them), showing their own place rather than the owner's."""
    try:
        if interaction.user.id == owner:
            embed, view = await AckGrace(interaction, update=True).run(page_for(owner))
            if interaction.response.is_done():
                await interaction.edit_original_response(embed=embed, view=view)
            else:
                await interaction.response.edit_message(embed=embed, view=view)
        else:
            embed, view = await AckGrace(interaction, ephemeral=True).run(page_for(interaction.user.id))
            await answer(interaction, embed=embed, view=or_missing(view), ephemeral=True)
    except Exception as exc:  # noqa: BLE001 - a component's last resort: the member is told, the error logged
        await report_error(interaction, exc)


async def forget_in_memory(client: discord.Client, user_id: int) -> None:
    """What the running bot holds in memory about a member who was just forgotten: open tournaments, caches."""
    found = getattr(client, "games", None)
    if isinstance(found, GameServices):
        await found.forget(user_id)


async def answer_forget(interaction: discord.Interaction[Any], confirmed: bool, user_id: int, issued: int) -> None:
    """The confirmation's buttons (already checked to be pressed by `user_id`)."""
    lang = language_for(interaction.locale)
    forgotten = False
    try:
        grace = AckGrace(interaction, update=True)
        if not confirmed:
            text = t("privacy.forget.kept", lang)
        elif discord.utils.utcnow().timestamp() - issued > FORGET_PROMPT_SECONDS:
            text = t("privacy.forget.expired", lang)
        else:
            try:
                report = await grace.run(storage_of(interaction.client).players.forget_me(user_id))
            except PlayerInOpenGame:
                text = t("privacy.forget.open_game", lang)
            else:
                # Counts only: the log must not keep the id of someone who asked to be forgotten.
                log.info("forget-me: %d seats anonymised, %d ratings deleted", report.seats_anonymised,
                         report.ratings_deleted)
                forgotten = True
                kept = replays_of(interaction.client)
                if kept is not None:
                    kept.clear()  # a kept replay shows the names of those who played it
                text = t("privacy.forget.done", lang, count=report.seats_anonymised)
        if interaction.response.is_done():
            await interaction.edit_original_response(content=text, view=None)
        else:
            await interaction.response.edit_message(content=text, view=None)
        if forgotten:  # after the answer: this may edit tournament cards, which can take longer than Discord waits
            await forget_in_memory(interaction.client, user_id)
    except Exception as exc:  # noqa: BLE001 - a component's last resort: the member is told, the error logged
        await report_error(interaction, exc)


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
