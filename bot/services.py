"""The services every cog shares, and how a cog finds them on the client (`bot.wiring` builds them)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

import discord
from discord import app_commands

from bot.compute import ComputePool
from bot.config import Config
from bot.limits import Cache, RateLimits, lanes
from bot.retention import Retention
from bot.sessions import SessionManager
from bot.sessions.calls import TurnCaller
from bot.storage import Storage
from bot.ui.commands import CommandMentions
from bot.ui.languages import GuildLanguages

if TYPE_CHECKING:  # built by bot.wiring, above the cogs that use these services
    from bot.cogs.games.calls import DmNotes
    from bot.cogs.games.presenter import Presenter
    from bot.tournaments.manager import TournamentManager

log = logging.getLogger(__name__)


def discord_clock() -> float:
    """Seconds since the epoch, as discord.py sees them (the simulated clock under test)."""
    return discord.utils.utcnow().timestamp()


class Cooldowns:
    """A short per-user pause between game-creating commands, shared by all of them.

    Kept per process: with several processes (SHARD_IDS) a user gets one pause per process, so at most one
    new game per process per pause. That is enough for what it is for (a burst of clicks in one server), and
    the limit that must hold everywhere, open games per host, is counted by the storage across processes."""

    def __init__(self, seconds: float, clock: Callable[[], float] = discord_clock) -> None:
        self.seconds = seconds
        self._clock = clock
        self._last: dict[int, float] = {}

    def hit(self, user_id: int) -> None:
        """Record a use now, or raise `CommandOnCooldown` when the previous one was too recent."""
        if self.seconds <= 0:
            return
        now = self._clock()
        last = self._last.get(user_id)
        if last is not None and now - last < self.seconds:
            raise app_commands.CommandOnCooldown(app_commands.Cooldown(1, self.seconds), self.seconds - (now - last))
        self._last = {uid: t for uid, t in self._last.items() if now - t < self.seconds}  # keep it small
        self._last[user_id] = now

    def forget(self, user_id: int) -> None:
        self._last.pop(user_id, None)


@dataclass
class GameServices:
    config: Config
    storage: Storage
    manager: SessionManager
    presenter: Presenter
    cooldowns: Cooldowns
    tournaments: TournamentManager
    compute: ComputePool
    languages: GuildLanguages
    calls: TurnCaller  # turn pings and reminders (bot.sessions.calls)
    notes: DmNotes  # members to tell that their DMs are closed
    limits: RateLimits  # per-member and per-server rates of the costly answers (bot.limits)
    # Answers that never change, kept while they are asked for: a finished game's replay by (game, language,
    # names), a rules or help picture by (page, language).
    replays: Cache[tuple[int, str, tuple[str, ...]], tuple[bytes, str]]
    pictures: Cache[tuple[str, str, str], bytes]
    retention: Retention  # prunes old finished games' moves (bot.retention)
    # Whatever else keeps a member's id or name in memory (a cache) registers here to forget them.
    forget_hooks: list[Callable[[int], None]] = field(default_factory=list)

    async def forget(self, user_id: int) -> None:
        """Forget-me in memory, after the storage has forgotten the member: open tournaments (their cards are
        edited), cooldowns, DM notes, challenge pings and every registered cache."""
        await self.tournaments.forget(user_id)
        self.cooldowns.forget(user_id)
        self.notes.forget(user_id)
        self.presenter.forget_member(user_id)
        for hook in self.forget_hooks:
            hook(user_id)


def compute_of(client: discord.Client) -> ComputePool:
    """The worker pool of a running bot (`PulucBot.compute`), else threads of this process (a bare client)."""
    found = getattr(client, "compute", None)
    return found if isinstance(found, ComputePool) else ComputePool(0, lanes=lanes())


def limits_of(client: discord.Client) -> RateLimits:
    """The rate limits of a running bot's costly answers, else fresh ones (a bare client: nothing counted yet)."""
    found = getattr(client, "games", None)
    return found.limits if isinstance(found, GameServices) else RateLimits({}, discord_clock)


def replays_of(client: discord.Client) -> Cache[tuple[int, str, tuple[str, ...]], tuple[bytes, str]] | None:
    """The kept replays of a running bot (None: a bare client keeps none)."""
    found = getattr(client, "games", None)
    return found.replays if isinstance(found, GameServices) else None


def pictures_of(client: discord.Client) -> Cache[tuple[str, str, str], bytes] | None:
    """The kept rules and help pictures of a running bot (None: a bare client keeps none)."""
    found = getattr(client, "games", None)
    return found.pictures if isinstance(found, GameServices) else None


def mentions_of(client: discord.Client) -> CommandMentions:
    """The mentions of a running bot's synced commands (`PulucBot.mentions`), else names typed out (a bare client)."""
    found = getattr(client, "mentions", None)
    return found if isinstance(found, CommandMentions) else CommandMentions()


def storage_of(client: discord.Client) -> Storage:
    """The open database of a running bot (`PulucBot.storage`)."""
    found = getattr(client, "storage", None)
    if found is None:
        raise RuntimeError("the database is not open: bot.app.PulucBot.setup_hook opens it")
    return cast(Storage, found)


def services(client: discord.Client) -> GameServices:
    """The game services of a running bot."""
    found = getattr(client, "games", None)
    if not isinstance(found, GameServices):
        raise RuntimeError("the game services are not running: bot.app.PulucBot.setup_hook starts them")
    return found
