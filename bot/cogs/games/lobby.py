"""Opening games: `/puluc new` (a lobby), `/puluc challenge`, `/puluc ai`, `/puluc cancel`, and the lobby
(Balance teams included), challenge and rematch buttons.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import ratings
from bot.cogs.base import PulucCog, place_of
from bot.cogs.games.components import GameButton
from bot.cogs.games.texts import turn_timer_choices
from bot.services import GameServices, services
from bot.sessions import DEFAULT_VARIANT, ActionResult, GameOptions, GameSession, Place, Player, SeatState
from bot.sessions.balance import Split, best_split
from bot.sessions.errors import HostOnly, NoGameHere
from bot.sessions.state import ADDED_RULES, server_rules
from bot.ui.i18n import choices, command_description, command_name, language_for, option_description, option_name, t
from bot.ui.replies import AckGrace, Refusal, acknowledge, check_bot_permissions, report_error
from bot.ui.views import ids
from bot.ui.views.ids import ComponentId

NEW_OPTIONS = ("variant", "team_size", "setup", "ranked", "turn_timer", "thread", *ADDED_RULES)
CHALLENGE_OPTIONS = ("opponent", "variant", "ranked")
AI_OPTIONS = ("difficulty", "variant")
LOBBY_BUTTONS = (*ids.LOBBY_KINDS, *ids.CHALLENGE_KINDS, "rematch")


def _names(command: str, options: tuple[str, ...]) -> dict[str, app_commands.locale_str]:
    return {option: option_name(command, option) for option in options}


def _descriptions(command: str, options: tuple[str, ...]) -> dict[str, app_commands.locale_str]:
    return {option: option_description(command, option) for option in options}


def player_of(user: discord.abc.User) -> Player:
    """The player a member is, under their global name: a server nickname stays in its server, while the stored
    name appears in global leaderboards, profiles and other servers' views."""
    return Player(user.id, global_name(user))


def global_name(user: discord.abc.User) -> str:
    """The member's name across Discord (their display name, else their username), never a server nickname."""
    return user.global_name or user.name


def split_by_skill(seats: list[str], teams: dict[str, str], skills: dict[str, ratings.Skill]) -> Split[str]:
    """The most even split of `seats` by their players' ratings (in a compute worker: plain data in, the
    split out; the win-chance function is built there, since a closure does not cross processes)."""
    return best_split(seats, teams, ratings.win_chances(skills))


def admit_creation(games: GameServices, interaction: discord.Interaction[Any], *, new_thread: bool = False) -> Place:
    """Where a new game would be, once the bot's permissions and the caller's cooldown allow one."""
    place = place_of(interaction)
    check_bot_permissions(interaction, new_thread=new_thread)
    games.cooldowns.hit(interaction.user.id)
    return place


class LobbyButton(GameButton, template=ids.pattern(LOBBY_BUTTONS)):
    """A lobby's seats, Start, Leave, Cancel and Balance; a challenge's Accept and Decline; Rematch."""

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await on_click(interaction, self.component)


class Lobby(PulucCog):
    """Creating, joining, starting and cancelling games."""

    dynamic_items = (LobbyButton,)

    @property
    def games(self) -> GameServices:
        return services(self.bot)

    # -- places the bot loses: their games and lobbies close (unrated, logged once) ----------------------

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        await self.games.tournaments.close_where(guild_id=guild.id)
        await self._close(self.games.manager.close_where(guild_id=guild.id))

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.games.tournaments.close_where(channel_id=channel.id)
        await self._close(self.games.manager.close_where(channel_id=channel.id))

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self._close(self.games.manager.close_where(channel_id=payload.thread_id))

    async def _close(self, closing: Awaitable[list[ActionResult]]) -> None:
        # There is nowhere left to show them: the game messages are gone with their channel.
        for result in await closing:
            self.games.presenter.drop(result.game_id)

    # -- options ----------------------------------------------------------------------------------------

    async def _options(
        self,
        interaction: discord.Interaction[Any],
        variant: str | None,
        team_size: int,
        setup: str | None,
        ranked: bool | None,
        turn_timer: int | None,
        *,
        fire: bool | None = None,
        scorpion: bool | None = None,
        eagle_returns: bool | None = None,
    ) -> GameOptions:
        """The game options: what the caller chose, else the server's and channel's settings (the server's
        added rules only where the variant can take them: `server_rules`)."""
        if interaction.guild_id is None or interaction.channel_id is None:
            raise app_commands.NoPrivateMessage  # games are played in servers only
        storage = self.games.storage
        guild = await storage.server_settings.guild_settings(interaction.guild_id)
        channel_ranked = await storage.server_settings.channel_ranked(interaction.channel_id)
        if ranked and channel_ranked is False:
            raise Refusal("error.ranked_off")
        chosen = variant or guild.default_variant or DEFAULT_VARIANT
        defaults = server_rules(chosen, guild)
        return GameOptions(
            variant=chosen,
            team_size=team_size,
            setup=setup,
            ranked=bool(channel_ranked) if ranked is None else ranked,
            turn_timer=turn_timer or guild.turn_timer_seconds or self.games.config.turn_timer_seconds,
            fire=defaults["fire"] if fire is None else fire,
            scorpion=defaults["scorpion"] if scorpion is None else scorpion,
            eagle_returns=defaults["eagle_returns"] if eagle_returns is None else eagle_returns,
        )

    # -- commands ---------------------------------------------------------------------------------------

    @app_commands.command(name=command_name("new"), description=command_description("new"))
    @app_commands.rename(**_names("new", NEW_OPTIONS))
    @app_commands.describe(**_descriptions("new", NEW_OPTIONS))
    @app_commands.choices(variant=choices("variant"), setup=choices("setup"))
    @app_commands.choices(turn_timer=turn_timer_choices())
    async def new(
        self,
        interaction: discord.Interaction[Any],
        variant: str | None = None,
        team_size: app_commands.Range[int, 1, 8] = 1,
        setup: str | None = None,
        ranked: bool | None = None,
        turn_timer: int | None = None,
        thread: bool = False,
        fire: bool | None = None,
        scorpion: bool | None = None,
        eagle_returns: bool | None = None,
    ) -> None:
        place = admit_creation(self.games, interaction, new_thread=thread)
        host = player_of(interaction.user)
        manager = self.games.manager
        channel = interaction.channel
        if thread:
            manager.check_can_host(host.user_id, Place(place.guild_id, 0, True))
            if not isinstance(channel, discord.TextChannel):
                raise Refusal("error.thread_here")
        grace = AckGrace(interaction, ephemeral=thread)
        options = await grace.run(self._options(interaction, variant, team_size, setup, ranked, turn_timer,
                                                fire=fire, scorpion=scorpion, eagle_returns=eagle_returns))
        options.rules()  # refuse impossible rules before anything is created
        if not thread:
            result = await grace.run(manager.open_lobby(host, place, options))
            await self.games.presenter.post(result, interaction)
            return
        assert isinstance(channel, discord.TextChannel)
        await grace.now()
        lang = language_for(interaction.locale)
        new_thread = await channel.create_thread(
            name=t("lobby.thread_name", lang, name=host.name)[:100], type=discord.ChannelType.public_thread
        )
        result = await manager.open_lobby(host, Place(place.guild_id, new_thread.id, True), options)
        await self.games.presenter.post(result, interaction, channel=new_thread)
        await interaction.followup.send(t("lobby.in_thread", lang, thread=new_thread.mention), ephemeral=True)

    @app_commands.command(name=command_name("challenge"), description=command_description("challenge"))
    @app_commands.rename(**_names("challenge", CHALLENGE_OPTIONS))
    @app_commands.describe(**_descriptions("challenge", CHALLENGE_OPTIONS))
    @app_commands.choices(variant=choices("variant"))
    async def challenge(
        self,
        interaction: discord.Interaction[Any],
        opponent: discord.Member,
        variant: str | None = None,
        ranked: bool | None = None,
    ) -> None:
        place = admit_creation(self.games, interaction)
        if opponent.bot:
            raise Refusal("error.challenge_bot")
        grace = AckGrace(interaction)
        options = await grace.run(self._options(interaction, variant, 1, None, ranked, None))
        result = await grace.run(
            self.games.manager.challenge(player_of(interaction.user), player_of(opponent), place, options))
        await self.games.presenter.post(result, interaction)

    @app_commands.command(name=command_name("ai"), description=command_description("ai"))
    @app_commands.rename(**_names("ai", AI_OPTIONS))
    @app_commands.describe(**_descriptions("ai", AI_OPTIONS))
    @app_commands.choices(difficulty=choices("difficulty"), variant=choices("variant"))
    async def ai(
        self, interaction: discord.Interaction[Any], difficulty: str = "medium", variant: str | None = None
    ) -> None:
        place = admit_creation(self.games, interaction)
        grace = AckGrace(interaction)
        options = await grace.run(self._options(interaction, variant, 1, None, False, None))
        await grace.now()  # the first board is drawn next
        result = await self.games.manager.play_ai(player_of(interaction.user), place, options, difficulty)
        await self.games.presenter.post(result, interaction)

    @app_commands.command(name=command_name("cancel"), description=command_description("cancel"))
    async def cancel(self, interaction: discord.Interaction[Any]) -> None:
        place = place_of(interaction)
        session = self.games.manager.in_channel(place.channel_id)
        if session is None:
            raise NoGameHere(f"no game in channel {place.channel_id}")
        moderator = bool(interaction.permissions.manage_messages)
        await interaction.response.defer(ephemeral=True, thinking=True)
        result = await session.cancel(interaction.user.id, moderator=moderator)
        await self.games.presenter.show(result)
        await interaction.followup.send(t("lobby.cancelled", language_for(interaction.locale),
                                          game_id=result.game_id), ephemeral=True)


# -- what a click does ------------------------------------------------------------------------------------


async def on_click(interaction: discord.Interaction[Any], component: ComponentId) -> None:
    try:
        await _click(services(interaction.client), interaction, component)
    except Exception as exc:  # noqa: BLE001 - a component's last resort: the member is told, the error logged
        await report_error(interaction, exc)
    # A member whose DM call bounced hears of it now, once (bot.cogs.games.calls.DmNotes).
    await services(interaction.client).notes.deliver(interaction)


async def _click(games: GameServices, interaction: discord.Interaction[Any], component: ComponentId) -> None:
    user = interaction.user
    kind = component.kind
    if kind == "rematch":
        await _rematch(games, interaction, component)
        return
    session = games.manager.get(component.game_id)
    await interaction.response.defer()
    result: ActionResult
    if kind == "join":
        result = await session.join(player_of(user), component.arg)
    elif kind == "addai":
        result = await session.add_ai(user.id, component.arg, "medium")
    elif kind == "leave":
        result = await session.leave(user.id)
    elif kind == "start":
        result = await session.start(user.id, games.manager.seeds())
    elif kind == "cancel":
        result = await session.cancel(user.id, moderator=bool(interaction.permissions.manage_messages))
    elif kind == "accept":
        result = await session.accept(player_of(user), int(component.arg), games.manager.seeds())
    elif kind == "decline":
        result = await session.decline(user.id, int(component.arg))
    elif kind == "balance":
        result, split = await _balance(games, session, user.id)
        await games.presenter.show(result, interaction)
        lang = await games.languages.get(result.state.place.guild_id)
        await interaction.followup.send(t("lobby.balanced", lang, a=round(split.chance_a * 100),
                                          b=round((1 - split.chance_a) * 100)))
        return
    else:
        raise ValueError(f"the lobby does not handle {kind} components")
    await games.presenter.show(result, interaction)


async def _balance(games: GameServices, session: GameSession, user_id: int) -> tuple[ActionResult, Split[str]]:
    """The host's Balance teams: every seat weighed by its rating (an AI seat by its level's), the most even
    split computed off the event loop, then the players seated so."""
    state = session.state
    if user_id != state.host_id:
        raise HostOnly(f"user {user_id} is not the host of game {state.game_id}")
    skills = {seat.seat: await _skill(games, seat) for seat in state.seats}
    split = await games.compute.run(split_by_skill, [s.seat for s in state.seats],
                                    {s.seat: s.team for s in state.seats}, skills)
    return await session.arrange(user_id, split.team_a, split.team_b), split


async def _skill(games: GameServices, seat: SeatState) -> ratings.Skill:
    """A human's rating on the all-servers team ladder, else their 1 v 1 one, else a newcomer's."""
    if seat.ai_level is not None:
        return ratings.AI_SKILLS[seat.ai_level]
    if seat.user_id is None:
        return ratings.NEWCOMER
    storage = games.storage
    found = await storage.ladders.skill(seat.user_id, "team") or await storage.ladders.skill(seat.user_id, "duel")
    return found or ratings.NEWCOMER


async def _rematch(games: GameServices, interaction: discord.Interaction[Any], component: ComponentId) -> None:
    place = admit_creation(games, interaction)
    finished = await AckGrace(interaction).run(games.manager.finished_state(component.game_id))
    if finished.place.channel_id != place.channel_id:
        raise Refusal("error.stale_button")
    await acknowledge(interaction)  # the new game may start at once and be drawn
    result = await games.manager.rematch(finished, player_of(interaction.user))
    await games.presenter.post(result, interaction)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Lobby(bot))
