"""The Discord client: start-up, the services every cog shares, and graceful shutdown.

`PulucBot` opens the database, loads the feature cogs named in `EXTENSIONS` and syncs the slash commands.
`run_bot` runs it until Discord rejects the token or SIGINT/SIGTERM asks it to stop, and returns the
process exit code. On a signal the bot stops admitting interactions, lets those in flight finish (bounded),
then closes the cogs, the gateway and the database, in that order. Game rules and flow live in `puluc` and
`bot.sessions`.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import socket
import sys
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

import renderer
from bot.compute import ComputePool, default_workers
from bot.config import Config
from bot.limits import lanes
from bot.ops import metrics
from bot.ops.health import HealthUnavailable, start_health
from bot.services import GameServices
from bot.sessions.manager import system_seed
from bot.storage import SchemaTooNew, Shards, ShardsTaken, Storage, StorageUnavailable, open_storage
from bot.ui.commands import CommandMentions
from bot.ui.i18n import PulucTranslator
from bot.ui.links import WebLinks, configure_links
from bot.ui.pictures import warm_up
from bot.ui.replies import ACK_GRACE_SECONDS, DISCORD_ACK_DEADLINE_SECONDS, report_error
from bot.ui.views.components import answer_orphaned_click
from bot.wiring import start_game_services, stop_game_services

if TYPE_CHECKING:
    from bot.web.own_process import PagesBeside
    from bot.web.server import WebServer

__all__ = [
    "EXTENSIONS",
    "INVITE_PERMISSIONS",
    "SHUTDOWN_GRACE_SECONDS",
    "SHUTTING_DOWN_MESSAGE",
    "PulucBot",
    "PulucTree",
    "ShardedPulucBot",
    "StartupError",
    "bot_for",
    "install_signal_handlers",
    "invite_url",
    "run_bot",
]

log = logging.getLogger(__name__)

# Feature cogs loaded by `setup_hook`, in order (dotted module paths with an async `setup(bot)`).
EXTENSIONS: tuple[str, ...] = (
    "bot.cogs.games.lobby",
    "bot.cogs.games.play",
    "bot.cogs.games.notify",
    "bot.cogs.info",
    "bot.cogs.server_settings.cog",
    "bot.cogs.seasons.cog",  # after server_settings: it joins the /puluc-admin group
    "bot.cogs.ladders.cog",
    "bot.cogs.tournaments.cog",
    "bot.cogs.learn.cog",
)

# `docker stop` sends SIGTERM and waits 10 s before SIGKILL: finish in-flight work well inside that.
SHUTDOWN_GRACE_SECONDS = 8.0

SHUTTING_DOWN_MESSAGE = "Puluc is restarting right now; please try again in a minute."

# What the bot needs where it plays, and nothing more (README, Setting up the bot, step 3).
INVITE_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    create_public_threads=True,
    send_messages_in_threads=True,
)
INVITE_SCOPES = ("bot", "applications.commands")


def invite_url(application_id: int) -> str:
    """The link that adds the bot to a server with its slash commands and exactly `INVITE_PERMISSIONS`."""
    return discord.utils.oauth_url(application_id, permissions=INVITE_PERMISSIONS, scopes=INVITE_SCOPES)


class StartupError(RuntimeError):
    """The bot cannot start for a reason the server owner must fix; the message is one actionable line."""


# Discord's Entry Point command (PRIMARY_ENTRY_POINT): the Activity's own launcher, which Discord creates when
# Activities are turned on for the application. discord.py's tree knows no such command type.
ENTRY_POINT = 4
# What of a stored Entry Point command a bulk overwrite sends back (its id keeps it the same command).
ENTRY_POINT_FIELDS = ("id", "type", "name", "name_localizations", "description", "description_localizations",
                      "handler", "integration_types", "contexts", "default_member_permissions", "nsfw")


class PulucTree(app_commands.CommandTree["PulucBot"]):
    """The command tree; every application command and autocomplete passes `PulucBot.admit` first."""

    async def sync(self, *, guild: discord.abc.Snowflake | None = None) -> list[app_commands.AppCommand]:
        """`CommandTree.sync`, keeping the application's Entry Point command in a global sync: with the
        Discord Activity turned on in the developer portal Discord refuses any bulk overwrite without it
        (error 50240), and then none of the bot's commands would be published."""
        application_id = self.client.application_id
        if guild is not None or application_id is None:
            return await super().sync(guild=guild)
        http = self.client.http
        stored: list[dict[str, Any]] = [dict(found) for found in await http.get_global_commands(application_id)]
        kept = [{key: command[key] for key in ENTRY_POINT_FIELDS if key in command}
                for command in stored if command.get("type") == ENTRY_POINT]
        if not kept:
            return await super().sync()
        translator = self.translator
        commands = self.get_commands()
        payload: list[Any] = [await command.get_translated_payload(self, translator) if translator is not None
                              else command.to_dict(self) for command in commands]
        try:
            data = await http.bulk_upsert_global_commands(application_id, payload=[*payload, *kept])
        except discord.HTTPException as exc:
            if exc.status == 400 and exc.code == 50035:
                raise app_commands.CommandSyncFailure(exc, commands) from None
            raise
        state = self.client._connection
        return [app_commands.AppCommand(data=found, state=state) for found in data if found.get("type") != ENTRY_POINT]

    async def interaction_check(self, interaction: discord.Interaction[PulucBot], /) -> bool:
        return await self.client.admit(interaction)

    async def on_error(
        self, interaction: discord.Interaction[PulucBot], error: app_commands.AppCommandError, /
    ) -> None:
        # One friendly ephemeral sentence for known refusals; unexpected errors are logged with a traceback.
        await report_error(interaction, error)


class PulucBot(commands.Bot):
    """The bot subclass: owns the configuration, the database and the shutdown sequence."""

    def __init__(self, config: Config, *, seeds: Callable[[], int] = system_seed,
                 ack_grace: float = ACK_GRACE_SECONDS) -> None:
        """`seeds` gives each new game its seed (throw-off and throws); tests pass a fixed sequence.
        `ack_grace` is how long a command may wait on the database before it is acknowledged
        (`bot.ui.replies.AckGrace`); tests of a slow database shorten it."""
        if not 0.0 <= ack_grace < DISCORD_ACK_DEADLINE_SECONDS:
            raise ValueError(f"ack_grace must be at least 0 s and under Discord's "
                             f"{DISCORD_ACK_DEADLINE_SECONDS:g} s deadline, not {ack_grace!r}")
        # Puluc never joins voice: silence discord.py's start-up warnings about the missing voice libraries.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        # Slash commands and components need no privileged intent; `guilds` keeps channel and thread caches.
        intents = discord.Intents.none()
        intents.guilds = True
        shards = config.shards
        # With SHARD_COUNT (ShardedPulucBot): only this process's shards connect, so Discord sends it only
        # their servers' events and interactions.
        sharding: dict[str, Any] = {} if shards is None else {"shard_count": shards.count,
                                                               "shard_ids": list(shards.ids)}
        super().__init__(
            **sharding,
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            tree_cls=PulucTree,
            # Nobody is pinged unless a message names exactly whom it pings (`bot.ui.safe.pings`).
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.config = config
        self._seeds = seeds
        self._storage: Storage | None = None
        self.games: GameServices | None = None  # sessions, presenter and cooldowns; set in setup_hook
        self.compute: ComputePool | None = None  # the worker processes for pictures and the AI; set in setup_hook
        self.web: WebServer | PagesBeside | None = None  # the web pages (WEB_PORT); started in setup_hook
        self.mentions = CommandMentions()  # the synced commands' ids, for mentions in public messages
        self._accepting = True
        self._in_flight: set[asyncio.Task[object]] = set()
        self._shutdown_task: asyncio.Task[None] | None = None
        self.shutdown_grace = SHUTDOWN_GRACE_SECONDS
        self.ack_grace = float(ack_grace)
        self._invite_shown = False

    @property
    def storage(self) -> Storage:
        """The open database; available from `setup_hook` until `close`."""
        if self._storage is None:
            raise RuntimeError("the database is not open: it opens in setup_hook and closes in close()")
        return self._storage

    @property
    def accepting_interactions(self) -> bool:
        """False once shutdown has begun."""
        return self._accepting

    @property
    def shutdown_requested(self) -> bool:
        """True once SIGINT/SIGTERM (or `request_shutdown`) has asked the bot to stop."""
        return self._shutdown_task is not None

    async def setup_hook(self) -> None:
        where = self.config.database.where
        try:
            storage = await open_storage(self.config.database)
        except SchemaTooNew as exc:
            raise StartupError(f"{where}: {exc}.") from exc
        except StorageUnavailable as exc:
            raise StartupError(
                f"cannot open the database at {where}: {exc}; check DATABASE_URL (run `puluc-bot --check`)."
            ) from exc
        if self.is_closed():
            # A signal arrived while the database was opening: close() has already run without it.
            await storage.close()
            return
        # This process becomes the one writer of its shards' games (all of them without SHARD_COUNT), or stops.
        shards = self.config.shards or Shards.whole()
        try:
            await storage.claim_shards(shards)
        except (ShardsTaken, StorageUnavailable) as exc:
            await storage.close()
            raise StartupError(f"cannot run {shards} on the database at {where}: {exc}.") from exc
        self._storage = storage
        if self.config.font_path is not None:
            renderer.use_font(str(self.config.font_path))
        configure_links(web_links_of(self.config))  # the link buttons to the web pages (WEB_BASE_URL)
        await self.tree.set_translator(PulucTranslator())
        self.compute = await start_compute(self.config)
        # Open games are reloaded and their timers restarted before any command or button can reach them.
        self.games = await start_game_services(self, self.config, storage, seeds=self._seeds,
                                               compute=self.compute)
        self.web = await start_web(self.config, storage, self.compute, self.games)
        for name in EXTENSIONS:
            await self.load_extension(name)
        self.add_listener(answer_orphaned_click, "on_interaction")
        await self.sync_commands()

    async def on_ready(self) -> None:
        # on_ready comes again after every reconnect that could not resume; the invite is shown once.
        log.info("ready as %s (id %s) in %d servers", self.user, self.user.id if self.user else "?", len(self.guilds))
        if not self.guilds and not self._invite_shown and self.application_id is not None:
            self._invite_shown = True
            log.warning(
                "the bot is in no server yet: to add it to one you manage, open %s", invite_url(self.application_id)
            )

    async def sync_commands(self) -> list[app_commands.AppCommand]:
        """Publish the slash commands: to DEV_GUILD_ID at once when set, else globally."""
        guild_id = self.config.dev_guild_id
        try:
            if guild_id is None:
                synced = await self.tree.sync()
                log.info("synced %d global application commands", len(synced))
            else:
                guild = discord.Object(id=guild_id)
                self.tree.copy_global_to(guild=guild)
                synced = await self.tree.sync(guild=guild)
                log.info("synced %d application commands to DEV_GUILD_ID %d", len(synced), guild_id)
        except discord.Forbidden as exc:
            where = f"server {guild_id} (DEV_GUILD_ID)" if guild_id is not None else "Discord"
            raise StartupError(
                f"{where} refused the slash commands: invite the bot there with the applications.commands "
                "scope (README, Invite URL), or clear DEV_GUILD_ID."
            ) from exc
        self.mentions.learn(synced)
        return synced

    async def admit(self, interaction: discord.Interaction[PulucBot]) -> bool:
        """Admit an interaction and track it as in flight, or turn it away once shutdown has begun.

        The command tree calls this for every command; views and modals should call it from their own
        `interaction_check` so that a shutdown also waits for button presses in progress.
        """
        if not self._accepting:
            # Autocomplete cannot carry a message; Discord shows its own "loading failed" instead.
            if interaction.type is not discord.InteractionType.autocomplete and not interaction.response.is_done():
                try:
                    await interaction.response.send_message(SHUTTING_DOWN_MESSAGE, ephemeral=True)
                except discord.HTTPException as exc:
                    log.debug("could not tell a user the bot is restarting: %s", exc)
            return False
        task = asyncio.current_task()
        if task is not None and task not in self._in_flight:
            self._in_flight.add(task)
            task.add_done_callback(self._in_flight.discard)
            metrics.interaction_admitted(interaction, task)
        return True

    def request_shutdown(self) -> None:
        """Start the shutdown sequence (idempotent); called from the SIGINT/SIGTERM handlers."""
        if self._shutdown_task is None:
            self._shutdown_task = asyncio.get_running_loop().create_task(self.shutdown(), name="puluc-shutdown")
        else:
            log.info("shutdown already in progress")

    async def shutdown(self) -> None:
        """Stop admitting interactions, wait up to `shutdown_grace` seconds for those in flight, then close."""
        self._accepting = False
        grace = self.shutdown_grace
        current = asyncio.current_task()
        pending = {task for task in self._in_flight if task is not current and not task.done()}
        log.info("shutting down: waiting up to %gs for %d interactions in flight", grace, len(pending))
        if pending:
            _, late = await asyncio.wait(pending, timeout=grace)
            if late:
                log.warning("cancelling %d interactions still running after %gs", len(late), grace)
                for task in late:
                    task.cancel()
                await asyncio.gather(*late, return_exceptions=True)
        await self.close()

    async def wait_shut_down(self) -> None:
        """Return once a shutdown begun by a signal has finished (at once if none has begun)."""
        if self._shutdown_task is not None:
            await self._shutdown_task

    async def close(self) -> None:
        # The game timers stop first (no AI move or time-out may start now), then the cogs unload and the
        # gateway closes; the database goes last so that nothing can reach it once closed.
        self._accepting = False
        web, self.web = self.web, None
        if web is not None:
            await web.stop()
        games, self.games = self.games, None
        if games is not None:
            await stop_game_services(games)
        await super().close()
        compute, self.compute = self.compute, None
        if compute is not None:
            await compute.close()
        storage, self._storage = self._storage, None
        if storage is not None:
            await storage.close()
            log.info("database closed")


class ShardedPulucBot(PulucBot, commands.AutoShardedBot):
    """The bot with SHARD_COUNT set: discord.py's sharded client, running only SHARD_IDS (docs/OPERATIONS.md,
    Scaling)."""


def bot_for(config: Config, *, seeds: Callable[[], int] = system_seed,
            ack_grace: float = ACK_GRACE_SECONDS) -> PulucBot:
    """The bot class the settings ask for: sharded with SHARD_COUNT, else the plain one."""
    if config.shards is None:
        return PulucBot(config, seeds=seeds, ack_grace=ack_grace)
    return ShardedPulucBot(config, seeds=seeds, ack_grace=ack_grace)


# Imported once by the fork server, so every worker process starts with them loaded.
WORKER_PRELOAD = ("puluc.ai", "renderer", "bot.ui.pictures")


async def start_compute(config: Config) -> ComputePool:
    """The bot's worker pool (WORKERS processes, one per core when unset), with every worker started and
    warmed up before the first game is shown; its start-up time is logged."""
    workers = default_workers() if config.workers is None else config.workers
    font = None if config.font_path is None else str(config.font_path)
    pool = ComputePool(workers, warm_up=partial(warm_up, font), preload=WORKER_PRELOAD, lanes=lanes())
    seconds = await pool.start()
    if pool.in_process:
        log.info("boards and the AI run in threads of this process (WORKERS=0)")
    else:
        log.info("%d compute workers (%s) ready in %.2f s", workers, pool.method, seconds)
    return pool


async def start_web(config: Config, storage: Storage, compute: ComputePool,
                    games: GameServices) -> WebServer | PagesBeside | None:
    """The web pages when WEB_PORT is set, following this process's games live: in a process of their own
    (WEB_PROCESS=OWN, where Unix sockets exist) or in this one (BOT); StartupError when they cannot listen."""
    if config.web_port is None or config.web_secret is None:
        return None
    from aiohttp import web

    from bot.activity.routes import mount_activity
    from bot.web.security import busy_middleware, headers_middleware
    from bot.web.server import WebUnavailable, web_server

    if config.web_own_process and hasattr(socket, "AF_UNIX"):
        from bot.web.own_process import PagesFailed, start_pages_beside

        activity: web.Application | None = None
        if config.activity_on:  # the Activity's games are played here: it stays, reached through the pages
            activity = web.Application(middlewares=[headers_middleware(), busy_middleware()])
            mount_activity(activity, config, games)
        try:
            return await start_pages_beside(config, games.manager, games.tournaments, activity)
        except PagesFailed as exc:
            raise StartupError(str(exc)) from exc
    server = web_server(storage, web_links_of(config) or WebLinks(config.web_secret), compute,
                        host=config.web_host, port=config.web_port, bar_ms=config.advantage_bar_ms,
                        trust_forwarded=config.web_trust_forwarded, manager=games.manager,
                        tournaments=games.tournaments)
    mount_activity(server.app, config, games)  # the Discord Activity, when DISCORD_CLIENT_ID/SECRET are set
    try:
        await server.start()
    except (WebUnavailable, StorageUnavailable) as exc:
        raise StartupError(str(exc)) from exc
    return server


def web_links_of(config: Config) -> WebLinks | None:
    """The links the settings make: signed with WEB_SECRET, under WEB_BASE_URL (None without a secret)."""
    if config.web_secret is None:
        return None
    return WebLinks(config.web_secret, config.web_base_url)


async def run_bot(config: Config) -> int:
    """Run the bot until it stops; return the exit code: 0 after a clean shutdown, 1 on a fatal error."""
    bot = bot_for(config)
    try:
        health = await start_health(bot)  # bot.ops: off unless HEALTH_PORT
    except HealthUnavailable as exc:
        return _fatal(str(exc))
    loop = asyncio.get_running_loop()
    handled = install_signal_handlers(loop, bot)
    try:
        async with bot:
            await bot.start(config.discord_token)
        # start() returns as soon as the gateway closes; the shutdown sequence may still be closing the database.
        await bot.wait_shut_down()
    except discord.LoginFailure:
        return _fatal(
            "Discord rejected DISCORD_TOKEN (it was reset or mistyped): copy a fresh token from the "
            "developer portal, Bot page, Reset Token, into .env."
        )
    except StartupError as exc:
        return _fatal(str(exc))
    except OSError as exc:  # aiohttp's connection errors and timeouts are OSErrors
        if bot.shutdown_requested:
            return 0  # stopped by a signal while still connecting
        return _fatal(f"cannot reach Discord ({exc.__class__.__name__}: {exc}); check the network connection.")
    finally:
        for sig in handled:
            loop.remove_signal_handler(sig)
        if health is not None:
            await health.stop()
    log.info("stopped cleanly")
    return 0


def install_signal_handlers(loop: asyncio.AbstractEventLoop, bot: PulucBot) -> list[signal.Signals]:
    """Make SIGINT and SIGTERM start `bot`'s graceful shutdown; return the signals now handled."""
    handled = []
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, bot.request_shutdown)
        except (NotImplementedError, RuntimeError):
            # Windows event loops have no add_signal_handler: Ctrl-C falls back to KeyboardInterrupt.
            continue
        handled.append(sig)
    return handled


def _fatal(message: str) -> int:
    print(f"puluc-bot: error: {message}", file=sys.stderr)
    return 1
