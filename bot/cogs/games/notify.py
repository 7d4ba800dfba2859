"""Slow games and turn calls: `/puluc notifications` (how the bot calls you to your turn: in the game's channel,
by DM, or not at all, kept per member for every server) and `/puluc games` (your open games and lobbies on
this server, newest first, each with whose turn it is, its deadline and a link to its board). Both answer
only the caller. Also gives the one-time note that a member's DMs are closed, once any command of theirs is
done (the game buttons give it in `bot.cogs.games.play` and `lobby`).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.base import PulucCog, place_of
from bot.cogs.games.calls import jump_link
from bot.cogs.games.texts import game_title, seat_name
from bot.services import GameServices, services
from bot.sessions import GameState, SeatState
from bot.storage.types import NOTIFY_MODES, NotifyMode
from bot.ui.i18n import choices, command_description, command_name, language_for, option_description, option_name, t
from bot.ui.replies import Refusal, acknowledge
from bot.ui.safe import plain

MAX_LISTED = 25  # games shown by /puluc games; the rest are counted
MAX_DESCRIPTION = 4_000  # an embed's description holds 4,096 characters: room for the count of the rest
SAVED: dict[NotifyMode, str] = {"channel": "call.saved_channel", "dm": "call.saved_dm", "off": "call.saved_off"}
COLOUR_GAMES = discord.Colour.dark_green()


def shown_name(seat: SeatState, lang: str) -> str:
    return seat_name(seat, lang)  # made plain there (bot.ui.safe)


def players_text(state: GameState, user_id: int, lang: str) -> str:
    """Who the caller plays with and against: "against bob", "with carol, against bob and dave"."""
    mine = state.seat_of(user_id)
    team = mine.team if mine is not None else "A"
    mates = [shown_name(s, lang) for s in state.seats if s.team == team and s.user_id != user_id]
    others = [shown_name(s, lang) for s in state.seats if s.team != team]
    names = ", ".join(others) or "?"
    if mates:
        return t("games.with_vs", lang, mates=", ".join(mates), names=names)
    return t("games.vs", lang, names=names)


def game_line(state: GameState, user_id: int, lang: str) -> str:
    """One open game or lobby as `/puluc games` lists it."""
    link = jump_link(state.place.guild_id, state.place.channel_id, state.message_id)
    game = f"**{game_title(state, lang)}**"
    if state.status != "running":
        return t("games.lobby", lang, game=game, seated=len(state.seats), seats=len(state.rules.seats), link=link)
    seat = state.to_move
    if seat is not None and seat.user_id == user_id and not seat.played_by_ai:
        turn = t("games.your_turn", lang)
    else:
        turn = t("games.turn_of", lang, player=shown_name(seat, lang) if seat is not None else "?")
    when = f"<t:{int(state.deadline)}:R>" if state.deadline is not None else "?"
    return t("games.running", lang, game=game, players=players_text(state, user_id, lang), turn=turn, when=when,
             link=link)


def games_of(games: GameServices, guild_id: int | None, user_id: int) -> list[GameState]:
    """The member's open games and lobbies on this server (those they sit in or are invited to), newest first."""
    found = [s.state for s in games.manager.sessions
             if s.state.place.guild_id == guild_id and (user_id in s.state.humans or s.state.invited_id == user_id)]
    return sorted(found, key=lambda state: state.game_id, reverse=True)


def games_embed(states: list[GameState], user_id: int, lang: str) -> discord.Embed:
    """The list: at most MAX_LISTED games, as many as the embed holds, and how many more there are."""
    embed = discord.Embed(title=t("games.title", lang), colour=COLOUR_GAMES)
    if not states:
        embed.description = t("games.none", lang)
        return embed
    lines: list[str] = []
    size = 0
    for state in states[:MAX_LISTED]:
        line = game_line(state, user_id, lang)
        if size + len(line) + 1 > MAX_DESCRIPTION - 100:
            break
        lines.append(line)
        size += len(line) + 1
    rest = len(states) - len(lines)
    if rest:
        lines.append(t("games.more", lang, count=rest))
    embed.description = "\n".join(lines)
    return embed


class Notify(PulucCog):
    """How members are called to their turns, and the list of their games."""

    @property
    def games(self) -> GameServices:
        return services(self.bot)

    @app_commands.command(name=command_name("notifications"), description=command_description("notifications"))
    @app_commands.rename(mode=option_name("notifications", "mode"))
    @app_commands.describe(mode=option_description("notifications", "mode"))
    @app_commands.choices(mode=choices("notify_mode"))
    async def notifications(self, interaction: discord.Interaction[Any], mode: str) -> None:
        chosen = next((m for m in NOTIFY_MODES if m == mode), None)
        if chosen is None:  # Discord offers only the choices, but a client may send anything
            raise Refusal("call.bad_mode", value=plain(mode)[:100])
        await acknowledge(interaction, ephemeral=True)
        await self.games.storage.calls.set_notify_mode(interaction.user.id, chosen, interaction.locale.value)
        self.games.notes.forget(interaction.user.id)  # a new choice starts afresh (DMs are tried again)
        await interaction.followup.send(t(SAVED[chosen], language_for(interaction.locale)), ephemeral=True)

    @app_commands.command(name=command_name("games"), description=command_description("games"))
    async def list_games(self, interaction: discord.Interaction[Any]) -> None:
        place = place_of(interaction)
        await acknowledge(interaction, ephemeral=True)
        states = games_of(self.games, place.guild_id, interaction.user.id)
        embed = games_embed(states, interaction.user.id, language_for(interaction.locale))
        await interaction.followup.send(embed=embed, ephemeral=True)

    @commands.Cog.listener()
    async def on_app_command_completion(self, interaction: discord.Interaction[Any], _command: object) -> None:
        await self.games.notes.deliver(interaction)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Notify(bot))
