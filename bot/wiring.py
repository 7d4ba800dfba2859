"""The composition root: builds the services every cog shares from the configuration and the database, and
stops them.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from discord.ext import commands

from bot.cogs.games.calls import DiscordMessenger, DmNotes
from bot.cogs.games.charts import Charts
from bot.cogs.games.delivery import Publisher
from bot.cogs.games.presenter import Presenter
from bot.cogs.tournaments.presenter import DiscordRooms, TournamentPresenter
from bot.compute import ComputePool
from bot.config import Config
from bot.config_spec import MAX_AI_GAMES_PER_SERVER, MAX_AI_GAMES_PER_USER, MAX_OPEN_GAMES_PER_SERVER
from bot.limits import Cache, RateLimits, lanes
from bot.retention import Retention
from bot.services import Cooldowns, GameServices, discord_clock, mentions_of
from bot.sessions import ActionResult, Limits, MovePicker, SessionManager, engine_picker
from bot.sessions.calls import PingDelays, TurnCaller
from bot.sessions.manager import engine_advisor, system_seed
from bot.storage import Storage
from bot.tournaments.manager import TournamentManager
from bot.tournaments.ports import ADJUDICATION_MOVES, engine_adjudicator
from bot.ui.languages import GuildLanguages
from bot.ui.pictures import CHART_POINT_BUDGET_MS

log = logging.getLogger(__name__)


async def start_game_services(
    bot: commands.Bot,
    config: Config,
    storage: Storage,
    *,
    picker: MovePicker | None = None,
    compute: ComputePool | None = None,
    clock: Callable[[], float] = discord_clock,
    seeds: Callable[[], int] = system_seed,
) -> GameServices:
    compute = compute or ComputePool(0, lanes=lanes())
    manager = SessionManager(
        storage.games,
        seeds=seeds,
        picker=picker or engine_picker(config.ai_budget_ms, compute),
        advisor=engine_advisor(config.ai_budget_ms, compute),
        clock=clock,
        limits=Limits(max_open_per_host=config.max_open_games_per_user, ai_delay=config.ai_move_delay_seconds,
                      max_open_per_server=config.limit(MAX_OPEN_GAMES_PER_SERVER),
                      max_ai_per_host=config.limit(MAX_AI_GAMES_PER_USER),
                      max_ai_per_server=config.limit(MAX_AI_GAMES_PER_SERVER),
                      lobby_expiry=config.lobby_expiry_seconds),
        shards=config.shards,
    )

    async def stored_locale(guild_id: int) -> str | None:
        return (await storage.server_settings.guild_settings(guild_id)).locale

    async def stored_palette(guild_id: int) -> str | None:
        return (await storage.server_settings.guild_settings(guild_id)).palette

    languages = GuildLanguages(bot, stored_locale, stored_palette)
    publisher = Publisher(bot)
    # A chart point never thinks longer than the AI may for a move (tests run the AI at 10 ms).
    charts = Charts(compute, publisher, min(CHART_POINT_BUDGET_MS, config.ai_budget_ms), languages.theme)
    presenter = Presenter(manager, languages=languages, publisher=publisher, charts=charts, compute=compute,
                          bar_ms=config.advantage_bar_ms, activity=config.activity_on and config.web_port is not None)

    async def show(result: ActionResult) -> None:
        await presenter.show(result)

    manager.add_listener(show)
    # Turn calls: planned as each action commits, sent once the move's board is shown (presenter.on_shown).
    notes = DmNotes(storage, await storage.calls.dm_refused())
    delays = PingDelays(config.turn_ping_after_seconds, await storage.server_settings.turn_ping_overrides())
    calls = TurnCaller(manager, storage.calls, DiscordMessenger(bot, storage, languages, notes, publisher), delays,
                       clock=clock)
    presenter.on_shown = calls.board_shown
    # An adjudication settles a match: it thinks as long as the AI may for a few moves.
    tournaments = TournamentManager(
        storage.tournaments, manager, rooms=DiscordRooms(publisher, languages), clock=clock,
        adjudicator=engine_adjudicator(ADJUDICATION_MOVES * config.ai_budget_ms, compute),
    )
    tournaments.add_listener(TournamentPresenter(presenter, tournaments, languages, mentions_of(bot)).show)
    loaded = await manager.load()
    await tournaments.load()  # after the games: it marks their match games
    await calls.load()  # after the games: it calls the players of the running ones
    calls.start()
    manager.start_timers()
    tournaments.start_timers()
    retention = Retention(storage.games, config.finished_game_retention_days, shards=config.shards)
    retention.start()
    log.info("game services started with %d open games", loaded)
    return GameServices(config, storage, manager, presenter, Cooldowns(config.command_cooldown_seconds, clock),
                        tournaments, compute, languages, calls=calls, notes=notes,
                        retention=retention, limits=RateLimits(config.limits, clock),
                        replays=Cache(REPLAYS_KEPT, REPLAY_BYTES_KEPT, replay_size),
                        pictures=Cache(PICTURES_KEPT))


# Replays kept: a long 8 v 8's GIF is about 2 MB, so the bytes bound the cache, not the count.
REPLAYS_KEPT = 64
REPLAY_BYTES_KEPT = 16 * 1024 * 1024
PICTURES_KEPT = 64  # the rules pages (one per variant) and the help page, in five languages


def replay_size(files: tuple[bytes, str]) -> int:
    gif, record = files
    return len(gif) + len(record)


async def stop_game_services(found: GameServices) -> None:
    await found.retention.stop()
    await found.tournaments.stop_timers()
    await found.manager.stop_timers()
    await found.calls.stop()
    await found.manager.settled()
    await found.presenter.close()
