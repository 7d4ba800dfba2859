"""Shows tournaments in Discord: the card, the rounds, the match rooms (a thread per match, `DiscordRooms`)
and the final standings, as the tournament manager's listener.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Final, Literal

import discord

from bot.cogs.games.delivery import Publisher, partial_message
from bot.cogs.games.presenter import Presenter
from bot.cogs.tournaments.texts import (
    card_embed,
    decision_text,
    final_text,
    match_call,
    match_players,
    room_name,
    round_embed,
    standings_embed,
    title_of,
)
from bot.cogs.tournaments.views import card_view
from bot.sessions.state import Place
from bot.tournaments.manager import TournamentManager
from bot.tournaments.ports import RoomUnavailable
from bot.tournaments.results import (
    Created,
    MatchDecided,
    MatchOpened,
    RoundStarted,
    TournamentCancelled,
    TournamentFinished,
    TournamentUpdate,
)
from bot.tournaments.types import Match, Tournament
from bot.ui.commands import Mention
from bot.ui.i18n import t
from bot.ui.languages import GuildLanguages
from bot.ui.replies import or_missing
from bot.ui.safe import pings

log = logging.getLogger(__name__)

# A match thread stays open (not auto-archived) for a day of quiet; a message wakes it again.
ROOM_ARCHIVE_MINUTES: Final[Literal[1440]] = 1440


class DiscordRooms:
    """`MatchRooms` in Discord: a public thread per match in the tournament's channel."""

    def __init__(self, publisher: Publisher, languages: GuildLanguages) -> None:
        self._publisher = publisher
        self._languages = languages

    async def open_room(self, tournament: Tournament, match: Match) -> Place:
        channel = await self._publisher.channel(tournament.channel_id)
        if not isinstance(channel, discord.TextChannel):
            raise RoomUnavailable(f"channel {tournament.channel_id} is gone or cannot hold threads")
        lang = await self._languages.get(tournament.guild_id)
        try:
            thread = await channel.create_thread(name=room_name(tournament, match, lang),
                                                 type=discord.ChannelType.public_thread,
                                                 auto_archive_duration=ROOM_ARCHIVE_MINUTES)
        except discord.HTTPException as exc:
            raise RoomUnavailable(f"Discord refused a thread: {exc}") from exc
        return Place(tournament.guild_id, thread.id, in_thread=True)


class TournamentPresenter:
    """Publishes every tournament update; the manager's listener."""

    def __init__(self, games: Presenter, manager: TournamentManager, languages: GuildLanguages,
                 mention: Mention) -> None:
        self._games = games
        self._manager = manager
        self._languages = languages
        self._mention = mention

    async def show(self, update: TournamentUpdate) -> None:
        tournament = update.tournament
        lang = await self._languages.get(tournament.guild_id)
        channel = await self._games.publisher.channel(tournament.channel_id)
        rounds: list[int] = []
        for happening in update.happenings:
            match happening:
                case Created():
                    tournament = await self._post_card(tournament, channel, lang)
                case MatchOpened(match=opened, game=game):
                    room = await self._games.publisher.channel(opened.thread_id or 0)
                    if room is not None:
                        # The call pings exactly the match's two players.
                        await room.send(match_call(tournament, opened, lang),
                                        allowed_mentions=pings(*match_players(tournament, opened)))
                        await self._games.post(game, None, channel=room)
                case MatchDecided(match=decided, stopped=stopped):
                    if stopped is not None:  # the game's own message shows it is over
                        await self._games.show(stopped)
                    await self._tell_room(tournament, decided, lang)
                case RoundStarted(round=number):
                    rounds.append(number)
                case TournamentFinished(winner=winner) if channel is not None:
                    await channel.send(final_text(tournament, winner, lang), embed=standings_embed(tournament, lang))
                case TournamentCancelled() if channel is not None:
                    await channel.send(t("tournament.cancelled", lang, name=title_of(tournament)))
        # Rounds are announced last, once their rooms exist, so the pairings can link to them.
        for number in rounds:
            if channel is not None and number <= tournament.round:
                await channel.send(embed=round_embed(tournament, number, lang))
        if not any(isinstance(h, Created) for h in update.happenings):
            await self._edit_card(tournament, channel, lang)

    async def _post_card(self, tournament: Tournament, channel: discord.abc.Messageable | None,
                         lang: str) -> Tournament:
        if channel is None:
            log.warning("tournament %d: channel %d is not reachable", tournament.tournament_id, tournament.channel_id)
            return tournament
        message = await channel.send(embed=card_embed(tournament, lang, self._mention),
                                     view=or_missing(card_view(tournament, lang)))
        await self._manager.set_message(tournament.tournament_id, message.id)
        return replace(tournament, message_id=message.id)

    async def _edit_card(self, tournament: Tournament, channel: discord.abc.Messageable | None, lang: str) -> None:
        if channel is None or tournament.message_id is None:
            return
        try:
            await partial_message(channel, tournament.message_id).edit(
                embed=card_embed(tournament, lang, self._mention), view=card_view(tournament, lang))
        except discord.NotFound:
            log.info("tournament %d: its card is gone", tournament.tournament_id)

    async def _tell_room(self, tournament: Tournament, decided: Match, lang: str) -> None:
        text = decision_text(tournament, decided, lang)
        if text is None or decided.thread_id is None:
            return
        room = await self._games.publisher.channel(decided.thread_id)
        if room is not None:
            await room.send(text)
