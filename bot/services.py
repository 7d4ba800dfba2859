"""The composition root: the services every cog shares, built once per bot from the settings and the database.

`start_game_services` wires the session manager to the database, reloads every open game and then every
open tournament, registers the persistent components and starts the deadline loops; `stop_game_services`
stops them. The clock is
`discord.utils.utcnow`, so deadlines, cooldowns and Discord timestamps agree. This module must never hold
game rules or answer interactions.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.compute import ComputePool
from bot.config import Settings
from bot.sessions import ActionResult, Limits, MovePicker, SessionManager, engine_picker
from bot.sessions.manager import engine_advisor, system_seed
from bot.sessions.tournaments.manager import TournamentManager
from bot.sessions.tournaments.ports import ADJUDICATION_MOVES, engine_adjudicator
from bot.storage.protocol import Storage
from bot.ui.pictures import CHART_POINT_BUDGET_MS
from bot.ui.presenter import Presenter
from bot.ui.tournament_presenter import DiscordRooms, TournamentPresenter
from bot.ui.views.components import DYNAMIC_ITEMS

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


@dataclass
class GameServices:
    settings: Settings
    storage: Storage
    manager: SessionManager
    presenter: Presenter
    cooldowns: Cooldowns
    tournaments: TournamentManager
    compute: ComputePool


def compute_of(client: discord.Client) -> ComputePool:
    """The worker pool of a running bot (`PulucBot.compute`), else threads of this process (a bare client)."""
    found = getattr(client, "compute", None)
    return found if isinstance(found, ComputePool) else ComputePool(0)


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


async def start_game_services(
    bot: commands.Bot,
    settings: Settings,
    storage: Storage,
    *,
    picker: MovePicker | None = None,
    compute: ComputePool | None = None,
    clock: Callable[[], float] = discord_clock,
    seeds: Callable[[], int] = system_seed,
) -> GameServices:
    compute = compute or ComputePool(0)
    manager = SessionManager(
        storage,
        seeds=seeds,
        picker=picker or engine_picker(settings.ai_budget_ms, compute),
        advisor=engine_advisor(settings.ai_budget_ms, compute),
        clock=clock,
        limits=Limits(max_open_per_host=settings.max_open_games_per_user, ai_delay=settings.ai_move_delay_seconds),
        shards=settings.shards,
    )
    # A chart point never thinks longer than the AI may for a move (tests run the AI at 10 ms).
    presenter = Presenter(
        bot,
        manager,
        chart_budget_ms=min(CHART_POINT_BUDGET_MS, settings.ai_budget_ms),
        bar_ms=settings.advantage_bar_ms,
        compute=compute,
    )

    async def stored_locale(guild_id: int) -> str | None:
        return (await storage.guild_settings(guild_id)).locale

    async def show(result: ActionResult) -> None:
        await presenter.show(result)

    presenter.store_locale = stored_locale
    manager.add_listener(show)
    # An adjudication settles a match: it thinks as long as the AI may for a few moves.
    tournaments = TournamentManager(
        storage, manager, rooms=DiscordRooms(presenter), clock=clock,
        adjudicator=engine_adjudicator(ADJUDICATION_MOVES * settings.ai_budget_ms, compute),
    )
    tournaments.add_listener(TournamentPresenter(presenter, tournaments).show)
    loaded = await manager.load()
    await tournaments.load()  # after the games: it marks their match games
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    manager.start_timers()
    tournaments.start_timers()
    log.info("game services started with %d open games", loaded)
    return GameServices(settings, storage, manager, presenter, Cooldowns(settings.command_cooldown_seconds, clock),
                        tournaments, compute)


async def stop_game_services(found: GameServices) -> None:
    await found.tournaments.stop_timers()
    await found.manager.stop_timers()
    await found.manager.settled()
    await found.presenter.close()
