"""Ladders and players: `/puluc leaderboard` (a closed season's too), `profile`, `history`, `replay`, `privacy`
and `forget-me`, plus the leaderboards' Previous / Next buttons and forget-me's confirmation.

Glue only: read the storage, render charts and replays in a worker thread (after deferring, so Discord's
3-second window is kept), and answer in the caller's language. Refusals (an unknown game, a game not
finished) are one ephemeral sentence. This module must never compute ratings or ranks (the storage layer
does), never draw user text (names) into an image, and never decide game rules.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.base import PulucCog
from bot.cogs.games.boards import board_texts
from bot.cogs.games.replay_files import replay_of
from bot.cogs.ladders.embeds import (
    CHART_FILE,
    chart_ladder,
    chart_series,
    history_embed,
    leaderboard_embed,
    privacy_embed,
    profile_embed,
    season_embed,
)
from bot.cogs.ladders.views import DYNAMIC_ITEMS, forget_view, leaderboard_view, season_view
from bot.services import compute_of, storage_of
from bot.sessions.rebuild import read_game
from bot.storage import Storage
from bot.storage.errors import GameNotFound, PlayerInOpenGame
from bot.storage.types import GLOBAL_SCOPE, Game
from bot.ui.i18n import (
    choices,
    command_description,
    command_name,
    language_for,
    option_description,
    option_name,
    t,
)
from bot.ui.pictures import draw_rating_chart
from bot.ui.replies import AckGrace, Refusal, acknowledge, answer, report_error

log = logging.getLogger(__name__)

# A leaderboard page as one viewer sees it (their own place marked): the embed and its Previous / Next.
PageFor = Callable[[int], Awaitable[tuple[discord.Embed, discord.ui.View | None]]]

HISTORY_LENGTH = 10
FORGET_PROMPT_SECONDS = 15 * 60  # a confirmation older than this must be asked for again
CHART_THEME = "dark"




class Ladders(PulucCog):
    """Leaderboards, profiles, game history, replays and the player's own data."""

    dynamic_items = DYNAMIC_ITEMS

    @property
    def storage(self) -> Storage:
        return storage_of(self.bot)

    # -- leaderboard ------------------------------------------------------------------------------------

    @app_commands.command(name=command_name("leaderboard"), description=command_description("leaderboard"))
    @app_commands.rename(scope=option_name("leaderboard", "scope"), ladder=option_name("leaderboard", "ladder"),
                         season=option_name("leaderboard", "season"))
    @app_commands.describe(scope=option_description("leaderboard", "scope"),
                           ladder=option_description("leaderboard", "ladder"),
                           season=option_description("leaderboard", "season"))
    @app_commands.choices(scope=choices("scope"), ladder=choices("ladder"))
    async def leaderboard(
        self, interaction: discord.Interaction[Any], scope: str = "server", ladder: str = "duel",
        season: app_commands.Range[int, 1, 1_000_000] | None = None,
    ) -> None:
        scope_id = GLOBAL_SCOPE if scope == "global" or interaction.guild_id is None else interaction.guild_id
        if season is not None and scope_id == GLOBAL_SCOPE:
            raise Refusal("error.season.global")
        grace = AckGrace(interaction)
        if season is not None:
            current = await grace.run(self.storage.seasons.current_season(scope_id))
            if season > current:
                raise Refusal("error.season.unknown", season=season, current=current)
            if season < current:  # a closed season: its archived leaderboard
                embed, view = await grace.run(
                    self._season_page(interaction, season, ladder, 0, interaction.user.id))
                await answer(interaction, embed=embed, view=_or_missing(view))
                return
        embed, view = await grace.run(self._page(interaction, scope_id, ladder, 0, interaction.user.id))
        await answer(interaction, embed=embed, view=_or_missing(view))

    async def _season_page(
        self, interaction: discord.Interaction[Any], season: int, ladder: str, page: int, owner: int
    ) -> tuple[discord.Embed, discord.ui.View | None]:
        if interaction.guild_id is None:
            raise app_commands.NoPrivateMessage()
        lang = language_for(interaction.locale)
        seasons = self.storage.seasons
        found = await seasons.season_leaderboard(interaction.guild_id, season, ladder, page, caller_id=owner)
        view = season_view(season, ladder, page, owner, lang, has_previous=found.has_previous,
                           has_next=found.has_next)
        return season_embed(found, lang, owner), view

    async def show_season_page(
        self, interaction: discord.Interaction[Any], season: int, ladder: str, page: int, owner: int
    ) -> None:
        """Previous / Next on a closed season's leaderboard: turned as the live one is (`_turn`)."""
        await self._turn(interaction, owner,
                         lambda viewer: self._season_page(interaction, season, ladder, page, viewer))

    async def _page(
        self, interaction: discord.Interaction[Any], scope: int, ladder: str, page: int, owner: int
    ) -> tuple[discord.Embed, discord.ui.View | None]:
        lang = language_for(interaction.locale)
        found = await self.storage.ladders.leaderboard(ladder, scope, page, caller_id=owner)
        view = leaderboard_view(scope, ladder, page, owner, lang,
                                has_previous=found.has_previous, has_next=found.has_next)
        return leaderboard_embed(found, lang, owner), view

    async def show_page(
        self, interaction: discord.Interaction[Any], scope: int, ladder: str, page: int, owner: int
    ) -> None:
        """A Previous / Next press on a leaderboard (`_turn`)."""
        await self._turn(interaction, owner, lambda viewer: self._page(interaction, scope, ladder, page, viewer))

    async def _turn(self, interaction: discord.Interaction[Any], owner: int, page_for: PageFor) -> None:
        """The owner turns the page in place; anyone else gets their own copy of that page (only to them),
        showing their own place rather than the owner's."""
        try:
            if interaction.user.id == owner:
                embed, view = await AckGrace(interaction, update=True).run(page_for(owner))
                if interaction.response.is_done():
                    await interaction.edit_original_response(embed=embed, view=view)
                else:
                    await interaction.response.edit_message(embed=embed, view=view)
            else:
                embed, view = await AckGrace(interaction, ephemeral=True).run(page_for(interaction.user.id))
                await answer(interaction, embed=embed, view=_or_missing(view), ephemeral=True)
        except Exception as exc:
            await report_error(interaction, exc)

    # -- profile and history ----------------------------------------------------------------------------

    @app_commands.command(name=command_name("profile"), description=command_description("profile"))
    @app_commands.rename(user=option_name("profile", "user"))
    @app_commands.describe(user=option_description("profile", "user"))
    async def profile(self, interaction: discord.Interaction[Any], user: discord.User | None = None) -> None:
        lang = language_for(interaction.locale)
        target = user or interaction.user
        grace = AckGrace(interaction)
        found = await grace.run(self.storage.players.profile(target.id, interaction.guild_id))
        if found is None:
            await answer(interaction, content=t("profile.unknown", lang, player=target.mention), ephemeral=True)
            return
        ladder = chart_ladder(found)
        can_attach = interaction.app_permissions.attach_files
        ladders = self.storage.ladders
        points = await grace.run(ladders.rating_history(target.id, ladder)) if ladder and can_attach else ()
        if not points:
            await answer(interaction, embed=profile_embed(found, lang, chart=None))
            return
        await grace.now()  # the chart is drawn next
        png = await compute_of(self.bot).run(draw_rating_chart, chart_series(points), CHART_THEME, board_texts(lang))
        await interaction.followup.send(
            embed=profile_embed(found, lang, chart=ladder),
            file=discord.File(io.BytesIO(png), filename=CHART_FILE),
        )

    @app_commands.command(name=command_name("history"), description=command_description("history"))
    @app_commands.rename(user=option_name("history", "user"))
    @app_commands.describe(user=option_description("history", "user"))
    async def history(self, interaction: discord.Interaction[Any], user: discord.User | None = None) -> None:
        lang = language_for(interaction.locale)
        target = user or interaction.user
        games = await AckGrace(interaction).run(self.storage.players.game_history(target.id, HISTORY_LENGTH))
        await answer(interaction, embed=history_embed(target.display_name, games, lang))

    # -- replay -----------------------------------------------------------------------------------------

    @app_commands.command(name=command_name("replay"), description=command_description("replay"))
    @app_commands.rename(game_id=option_name("replay", "game_id"))
    @app_commands.describe(game_id=option_description("replay", "game_id"))
    async def replay(
        self, interaction: discord.Interaction[Any], game_id: app_commands.Range[int, 1, 2**53]
    ) -> None:
        lang = language_for(interaction.locale)
        grace = AckGrace(interaction)
        refusal = await grace.run(self._replay_refusal(interaction, game_id))
        if refusal is not None:
            text = t(refusal, lang, game_id=game_id, attach_files=t("perm.attach_files", lang))
            await answer(interaction, content=text, ephemeral=True)
            return
        await grace.now()  # the replay is drawn next
        replay = await replay_of(await read_game(self.storage.games, game_id), lang, interaction.filesize_limit,
                                 compute_of(self.bot))
        await interaction.followup.send(replay.text, files=replay.files)

    async def _replay_refusal(self, interaction: discord.Interaction[Any], game_id: int) -> str | None:
        """The message key of why this game cannot be replayed here, or None if it can."""
        if not interaction.app_permissions.attach_files:
            return "ladder.need_files"
        try:
            game = await self.storage.games.get_game(game_id)
        except GameNotFound:
            return "ladder.replay.unknown"
        if not _visible_to(game, interaction):
            return "ladder.replay.unknown"  # another server's game: say no more than that it is not here
        if game.status == "cancelled":
            return "ladder.replay.cancelled"
        if game.status != "finished":
            return "ladder.replay.unfinished"
        return None

    # -- privacy ----------------------------------------------------------------------------------------

    @app_commands.command(name=command_name("privacy"), description=command_description("privacy"))
    async def privacy(self, interaction: discord.Interaction[Any]) -> None:
        await acknowledge(interaction, ephemeral=True)
        data = await self.storage.players.personal_data(interaction.user.id)
        embed = privacy_embed(data, language_for(interaction.locale))
        await interaction.followup.send(embed=embed, ephemeral=True)

    @app_commands.command(name=command_name("forget-me"), description=command_description("forget-me"))
    async def forget_me(self, interaction: discord.Interaction[Any]) -> None:
        lang = language_for(interaction.locale)
        issued = int(discord.utils.utcnow().timestamp())
        await interaction.response.send_message(
            t("privacy.forget.prompt", lang), view=forget_view(interaction.user.id, issued, lang), ephemeral=True
        )

    async def answer_forget(
        self, interaction: discord.Interaction[Any], confirmed: bool, user_id: int, issued: int
    ) -> None:
        """The confirmation's buttons (already checked to be pressed by `user_id`)."""
        lang = language_for(interaction.locale)
        try:
            grace = AckGrace(interaction, update=True)
            if not confirmed:
                text = t("privacy.forget.kept", lang)
            elif discord.utils.utcnow().timestamp() - issued > FORGET_PROMPT_SECONDS:
                text = t("privacy.forget.expired", lang)
            else:
                try:
                    report = await grace.run(self.storage.players.forget_me(user_id))
                except PlayerInOpenGame:
                    text = t("privacy.forget.open_game", lang)
                else:
                    # Counts only: the log must not keep the id of someone who asked to be forgotten.
                    log.info("forget-me: %d seats anonymised, %d ratings deleted", report.seats_anonymised,
                             report.ratings_deleted)
                    text = t("privacy.forget.done", lang, count=report.seats_anonymised)
            if interaction.response.is_done():
                await interaction.edit_original_response(content=text, view=None)
            else:
                await interaction.response.edit_message(content=text, view=None)
        except Exception as exc:
            await report_error(interaction, exc)


def _or_missing(view: discord.ui.View | None) -> discord.ui.View:
    """discord.py's sends take a missing view, not None, for "no components"."""
    return discord.utils.MISSING if view is None else view


def _visible_to(game: Game, interaction: discord.Interaction[Any]) -> bool:
    """A game is replayable in the server it was played in, and anywhere by those who played it."""
    if game.guild_id == interaction.guild_id:
        return True
    return any(seat.user_id == interaction.user.id for seat in game.seats)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Ladders(bot))
