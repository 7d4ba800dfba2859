"""Ladders and players: `/puluc leaderboard` (a closed season's too), `profile`, `history`, `replay`, `privacy`
and `forget-me`, plus the leaderboards' Previous / Next buttons and forget-me's confirmation.

Glue only: read the storage, render charts and replays in a worker thread (after deferring, so Discord's
3-second window is kept), and answer in the caller's language. Refusals (an unknown game, a game not
finished) are one ephemeral sentence. Ratings and ranks come from the storage; no name is drawn into an
image.
"""

from __future__ import annotations

import io
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
    privacy_embed,
    profile_embed,
)
from bot.cogs.ladders.views import DYNAMIC_ITEMS, forget_view, leaderboard_page, season_page
from bot.limits import CHART, REPLAY
from bot.services import compute_of, limits_of, mentions_of, replays_of, storage_of
from bot.sessions.rebuild import read_game
from bot.storage import Storage
from bot.storage.errors import GameNotFound
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
from bot.ui.links import web_links
from bot.ui.pictures import draw_rating_chart
from bot.ui.replies import AckGrace, Refusal, acknowledge, answer, or_missing
from bot.ui.views.web import with_link

HISTORY_LENGTH = 10
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
        lang = language_for(interaction.locale)
        if season is not None and scope_id == GLOBAL_SCOPE:
            raise Refusal("error.season.global")
        grace = AckGrace(interaction)
        if season is not None:
            current = await grace.run(self.storage.seasons.current_season(scope_id))
            if season > current:
                raise Refusal("error.season.unknown", season=season, current=current)
            if season < current:  # a closed season: its archived leaderboard
                embed, view = await grace.run(
                    season_page(interaction, season, ladder, 0, interaction.user.id))
                page = _web_leaderboard(scope_id, ladder, season)
                await answer(interaction, embed=embed, view=or_missing(with_link(view, page, lang)))
                return
        embed, view = await grace.run(leaderboard_page(interaction, scope_id, ladder, 0, interaction.user.id))
        page = _web_leaderboard(scope_id, ladder, None)
        await answer(interaction, embed=embed, view=or_missing(with_link(view, page, lang)))

    # -- profile and history ----------------------------------------------------------------------------

    @app_commands.command(name=command_name("profile"), description=command_description("profile"))
    @app_commands.rename(user=option_name("profile", "user"))
    @app_commands.describe(user=option_description("profile", "user"))
    async def profile(self, interaction: discord.Interaction[Any], user: discord.User | None = None) -> None:
        lang = language_for(interaction.locale)
        target = user or interaction.user
        limits_of(self.bot).take(CHART, interaction.user.id, interaction.guild_id)  # a profile draws its chart
        grace = AckGrace(interaction)
        found = await grace.run(self.storage.players.profile(target.id, interaction.guild_id))
        if found is None:
            await answer(interaction, content=t("profile.unknown", lang, player=target.mention), ephemeral=True)
            return
        ladder = chart_ladder(found)
        can_attach = interaction.app_permissions.attach_files
        history = self.storage.ladders.rating_history
        points = await grace.run(history(target.id, ladder)) if ladder and can_attach else ()
        links = web_links()
        page = with_link(None, links.profile(target.id) if links is not None else None, lang)
        if not points:
            await answer(interaction, embed=profile_embed(found, lang, chart=None), view=or_missing(page))
            return
        compute = compute_of(self.bot)
        compute.check_room(CHART.lane.name)  # refused before the public "thinking" answer: the refusal stays private
        await grace.now()  # the chart is drawn next
        png = await compute.run_in(CHART.lane.name, draw_rating_chart, chart_series(points), CHART_THEME,
                                   board_texts(lang))
        await interaction.followup.send(
            embed=profile_embed(found, lang, chart=ladder),
            file=discord.File(io.BytesIO(png), filename=CHART_FILE),
            view=or_missing(page),
        )

    @app_commands.command(name=command_name("history"), description=command_description("history"))
    @app_commands.rename(user=option_name("history", "user"))
    @app_commands.describe(user=option_description("history", "user"))
    async def history(self, interaction: discord.Interaction[Any], user: discord.User | None = None) -> None:
        lang = language_for(interaction.locale)
        target = user or interaction.user
        # This server's games only (in direct messages, those played there), told only to the one who asked.
        grace = AckGrace(interaction, ephemeral=True)
        games = await grace.run(self.storage.players.game_history(target.id, HISTORY_LENGTH,
                                                                  guild_id=interaction.guild_id))
        await answer(interaction, embed=history_embed(target.display_name, games, lang, mentions_of(self.bot)),
                     ephemeral=True)

    # -- replay -----------------------------------------------------------------------------------------

    @app_commands.command(name=command_name("replay"), description=command_description("replay"))
    @app_commands.rename(game_id=option_name("replay", "game_id"))
    @app_commands.describe(game_id=option_description("replay", "game_id"))
    async def replay(
        self, interaction: discord.Interaction[Any], game_id: app_commands.Range[int, 1, 2**53]
    ) -> None:
        lang = language_for(interaction.locale)
        limits_of(self.bot).take(REPLAY, interaction.user.id, interaction.guild_id)
        grace = AckGrace(interaction)
        refusal = await grace.run(self._replay_refusal(interaction, game_id))
        if refusal is not None:
            text = t(refusal, lang, game_id=game_id, attach_files=t("perm.attach_files", lang))
            await answer(interaction, content=text, ephemeral=True)
            return
        compute, kept = compute_of(self.bot), replays_of(self.bot)
        compute.check_room(REPLAY.lane.name)  # refused before the public "thinking" answer: the refusal stays private
        await grace.now()  # the replay is drawn next
        replay = await replay_of(await read_game(self.storage.games, game_id), lang, interaction.filesize_limit,
                                 compute, kept)
        links = web_links()
        page = with_link(None, links.game(game_id) if links is not None else None, lang)
        await interaction.followup.send(replay.text, files=replay.files, view=or_missing(page))

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
        if game.pruned_at is not None:
            return "retention.pruned"  # its moves are no longer kept (FINISHED_GAME_RETENTION_DAYS)
        return None

    # -- privacy ----------------------------------------------------------------------------------------

    @app_commands.command(name=command_name("privacy"), description=command_description("privacy"))
    async def privacy(self, interaction: discord.Interaction[Any]) -> None:
        await acknowledge(interaction, ephemeral=True)
        data = await self.storage.players.personal_data(interaction.user.id)
        embed = privacy_embed(data, language_for(interaction.locale), _retention_days(self.bot))
        await interaction.followup.send(embed=embed, ephemeral=True)

    @app_commands.command(name=command_name("forget-me"), description=command_description("forget-me"))
    async def forget_me(self, interaction: discord.Interaction[Any]) -> None:
        lang = language_for(interaction.locale)
        issued = int(discord.utils.utcnow().timestamp())
        await interaction.response.send_message(
            t("privacy.forget.prompt", lang), view=forget_view(interaction.user.id, issued, lang), ephemeral=True
        )


def _web_leaderboard(scope_id: int, ladder: str, season: int | None) -> str | None:
    """The leaderboard's web page (a server's, or every server's), when WEB_BASE_URL is set."""
    links = web_links()
    if links is None:
        return None
    return links.leaderboard(None if scope_id == GLOBAL_SCOPE else scope_id, ladder, season)


def _retention_days(client: discord.Client) -> int:
    """FINISHED_GAME_RETENTION_DAYS of a running bot (0, keep for ever, for a bare client)."""
    config = getattr(client, "config", None)
    return int(getattr(config, "finished_game_retention_days", 0))


def _visible_to(game: Game, interaction: discord.Interaction[Any]) -> bool:
    """A game is replayable in the server it was played in, and nowhere else: a server's games stay in it.
    A game of direct messages is replayed in direct messages, by those who played it."""
    if game.guild_id is not None:
        return game.guild_id == interaction.guild_id
    return interaction.guild_id is None and any(seat.user_id == interaction.user.id for seat in game.seats)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Ladders(bot))
