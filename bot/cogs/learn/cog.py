"""`/puluc learn [lesson]`: the tutorial, from its first lesson or the one chosen; `/puluc review game: [seat:]`:
where a finished game was won and lost, for the caller's seat (or the one named)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.base import PulucCog
from bot.cogs.learn.reviews import Reviews, review_answer, reviewable, seat_to_review
from bot.cogs.learn.tutorial import LearnButton, lesson_screen
from bot.learning.lessons import LESSON_KEYS
from bot.limits import REVIEW, RULES
from bot.services import compute_of, limits_of, storage_of, theme_of
from bot.sessions.rebuild import read_game
from bot.storage.errors import GameNotFound
from bot.ui.i18n import choices, command_description, command_name, language_for, option_description, option_name, t
from bot.ui.replies import AckGrace, answer


class Learn(PulucCog):
    """The tutorial and the game review."""

    dynamic_items = (LearnButton,)

    def __init__(self, bot: commands.Bot) -> None:
        super().__init__(bot)
        self.reviews = Reviews(lambda: compute_of(self.bot))

    @app_commands.command(name=command_name("learn"), description=command_description("learn"))
    @app_commands.rename(lesson=option_name("learn", "lesson"))
    @app_commands.describe(lesson=option_description("learn", "lesson"))
    @app_commands.choices(lesson=choices("lesson"))
    async def learn(self, interaction: discord.Interaction[Any], lesson: str | None = None) -> None:
        lang = language_for(interaction.locale)
        index = LESSON_KEYS.index(lesson) if lesson in LESSON_KEYS else 0
        limits_of(self.bot).take(RULES, interaction.user.id, interaction.guild_id)  # a lesson is a rules page
        await interaction.response.defer(ephemeral=True, thinking=True)
        screen = await lesson_screen(interaction, index, lang)
        await interaction.followup.send(embed=screen.embed, files=screen.files(), view=screen.view, ephemeral=True,
                                        allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name=command_name("review"), description=command_description("review"))
    @app_commands.rename(game_id=option_name("review", "game_id"), seat=option_name("review", "seat"))
    @app_commands.describe(game_id=option_description("review", "game_id"), seat=option_description("review", "seat"))
    async def review(self, interaction: discord.Interaction[Any], game_id: app_commands.Range[int, 1, 2**53],
                     seat: app_commands.Range[str, 2, 3] | None = None) -> None:
        lang = language_for(interaction.locale)
        grace = AckGrace(interaction, ephemeral=True)
        refusal = await grace.run(self._refusal(interaction, game_id))
        if refusal is not None:
            await answer(interaction, content=t(refusal, lang, game_id=game_id), ephemeral=True,
                         allowed_mentions=discord.AllowedMentions.none())
            return
        await grace.now()  # the review runs in the workers next
        state = await read_game(storage_of(self.bot).games, game_id)
        try:
            reviewed = seat_to_review(state, interaction.user.id, seat)
        except ValueError:
            seats = ", ".join(s.seat for s in state.seats)
            asked = discord.utils.escape_markdown(discord.utils.escape_mentions((seat or "")[:3]))
            await answer(interaction, content=t("review.no_seat", lang, seat=asked, seats=seats), ephemeral=True,
                         allowed_mentions=discord.AllowedMentions.none())
            return
        theme = await theme_of(self.bot, interaction.guild_id)
        if not self.reviews.kept(game_id, reviewed, lang, theme):
            limits_of(self.bot).take(REVIEW, interaction.user.id, interaction.guild_id)
        result = await self.reviews.of(state, reviewed, lang, theme)
        embeds, files = review_answer(state, result, lang)
        await interaction.followup.send(embeds=embeds, files=files, ephemeral=True,
                                        allowed_mentions=discord.AllowedMentions.none())

    @commands.Cog.listener()
    async def on_puluc_forgotten(self, user_id: int) -> None:
        """A member was forgotten (`/puluc forget-me`): the reviews kept in memory that name them go too."""
        self.reviews.forget(user_id)

    async def _refusal(self, interaction: discord.Interaction[Any], game_id: int) -> str | None:
        """The message key of why this game cannot be reviewed here, or None if it can."""
        try:
            game = await storage_of(self.bot).games.get_game(game_id)
        except GameNotFound:
            return "review.unknown"
        if not reviewable(game, interaction.guild_id, interaction.user.id):
            return "review.unknown"  # another server's game: say no more than that it is not here
        if game.status != "finished":
            return "review.unfinished"
        return None


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Learn(bot))
