"""Every setting's name, type, default and bounds, defined once.

The settings loader (`bot/config.py`) checks values against this table, the slash commands take their option
bounds from it (`/puluc new turn_timer`, `/puluc-admin settings turn_timer`) and the game rules
(`bot/sessions/state.py`) their limits, so a value the loader accepts is never refused later by a command.
`.env.example` and the README's configuration table list exactly these settings (a test holds them to it).

This module is data (it reads no environment), so every layer may import it: `bot.sessions` may not import
`bot.config`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, TypeVar

from bot.storage.shards import MAX_SHARD_COUNT
from bot.storage.urls import DEFAULT_DATABASE_URL

__all__ = [
    "ADVANTAGE_BAR_MS",
    "AI_BUDGET_MS",
    "AI_MOVE_DELAY_SECONDS",
    "BOARDS_PER_MEMBER",
    "BOARDS_PER_SERVER",
    "CHARTS_PER_MEMBER",
    "CHARTS_PER_SERVER",
    "COMMAND_COOLDOWN_SECONDS",
    "DATABASE_URL",
    "DEV_GUILD_ID",
    "DISCORD_API_URL",
    "DISCORD_CLIENT_ID",
    "DISCORD_CLIENT_SECRET",
    "DISCORD_TOKEN",
    "FINISHED_GAME_RETENTION_DAYS",
    "FONT_PATH",
    "HEALTH_HOST",
    "HEALTH_PORT",
    "HINTS_PER_MEMBER",
    "HINTS_PER_SERVER",
    "LIMIT_SETTINGS",
    "LOBBY_EXPIRY_SECONDS",
    "LOG_FORMAT",
    "LOG_LEVEL",
    "MAX_AI_GAMES_PER_SERVER",
    "MAX_AI_GAMES_PER_USER",
    "MAX_OPEN_GAMES_PER_SERVER",
    "MAX_OPEN_GAMES_PER_USER",
    "REPLAYS_PER_MEMBER",
    "REPLAYS_PER_SERVER",
    "REVIEWS_PER_MEMBER",
    "REVIEWS_PER_SERVER",
    "RULES_PICTURES_PER_MEMBER",
    "RULES_PICTURES_PER_SERVER",
    "SETTINGS",
    "SHARD_COUNT",
    "SHARD_IDS",
    "TURN_PING_AFTER_SECONDS",
    "TURN_TIMER_CHOICES",
    "TURN_TIMER_SECONDS",
    "WEB_BASE_URL",
    "WEB_HOST",
    "WEB_PORT",
    "WEB_SECRET",
    "WEB_SECRET_MIN_LENGTH",
    "WEB_TRUST_FORWARDED",
    "WORKERS",
    "ChoiceSetting",
    "CountSetting",
    "IdSetting",
    "NumberSetting",
    "PortSetting",
    "Setting",
    "ShardSetting",
    "TextSetting",
]

N = TypeVar("N", int, float)


@dataclass(frozen=True, slots=True)
class TextSetting:
    """A setting whose value is text checked by its own rules (a token, a URL, a path)."""

    name: str
    default: str | None  # None: required, or nothing by default


@dataclass(frozen=True, slots=True)
class ChoiceSetting:
    """One of a few words, in any case; `aliases` map other accepted spellings onto a choice."""

    name: str
    default: str
    choices: tuple[str, ...]
    aliases: dict[str, str] = field(default_factory=dict)

    def choose(self, text: str) -> str | None:
        """The choice `text` names (case-insensitive, aliases allowed), or None."""
        word = text.strip().upper()
        word = self.aliases.get(word, word)
        return word if word in self.choices else None

    @property
    def rule(self) -> str:
        """What a valid value is, in words: "one of DEBUG, INFO, WARNING, ERROR or CRITICAL"."""
        return f"one of {', '.join(self.choices[:-1])} or {self.choices[-1]}"


@dataclass(frozen=True, slots=True)
class NumberSetting(Generic[N]):
    """A whole number (`kind` int) or a decimal one (`kind` float) between `minimum` and `maximum` inclusive."""

    name: str
    kind: type[N]
    default: N
    minimum: N
    maximum: N
    unit: str  # "seconds", "milliseconds", "games"

    @property
    def rule(self) -> str:
        """What a valid value is, in words: "a whole number of seconds from 30 to 86400"."""
        number = "a whole number" if self.kind is int else "a number"
        return f"{number} of {self.unit} from {self.minimum:g} to {self.maximum:g}"

    def allows(self, value: N) -> bool:
        return self.minimum <= value <= self.maximum


@dataclass(frozen=True, slots=True)
class IdSetting:
    """A Discord id (a snowflake: a positive 64-bit integer); unset means "not used"."""

    name: str
    what: str
    minimum: int = 1
    maximum: int = 2**63 - 1

    @property
    def rule(self) -> str:
        return self.what


@dataclass(frozen=True, slots=True)
class CountSetting:
    """A whole number from `minimum` to `maximum` whose default depends on the machine (`auto` says how it is
    chosen), so it is unset by default."""

    name: str
    minimum: int
    maximum: int
    unit: str
    auto: str
    default: None = None

    @property
    def rule(self) -> str:
        return f"a whole number of {self.unit} from {self.minimum} to {self.maximum}"

    def allows(self, value: int) -> bool:
        return self.minimum <= value <= self.maximum


DISCORD_TOKEN = TextSetting("DISCORD_TOKEN", None)
DATABASE_URL = TextSetting("DATABASE_URL", DEFAULT_DATABASE_URL)
FONT_PATH = TextSetting("FONT_PATH", None)
DEV_GUILD_ID = IdSetting(
    "DEV_GUILD_ID", "a server id (Discord's Developer Mode, right-click the server, Copy Server ID)"
)
LOG_LEVEL = ChoiceSetting(
    "LOG_LEVEL", "INFO", ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"), {"WARN": "WARNING", "FATAL": "CRITICAL"}
)
# TEXT: one line per event for people; JSON: one JSON object per line for log collectors (bot/logs.py).
LOG_FORMAT = ChoiceSetting("LOG_FORMAT", "TEXT", ("TEXT", "JSON"))
# From half a minute to a week: a shorter turn is unplayable on a phone; a turn of days makes a correspondence
# game (its turn pings and reminders call the player back, bot/sessions/calls.py).
TURN_TIMER_SECONDS = NumberSetting("TURN_TIMER_SECONDS", int, 600, 30, 604_800, "seconds")
# The turn times the commands offer by name (`/puluc new turn_timer`, `/puluc-admin settings turn_timer`), from
# a blitz to a correspondence game; each is named in the catalogues (`choice.turn_timer.<seconds>`).
TURN_TIMER_CHOICES: tuple[int, ...] = (
    30, 60, 120, 300, 600, 900, 1_800, 3_600, 7_200, 21_600, 43_200, 86_400, 172_800, 259_200, 604_800,
)
# Discord notifies a member only of a message that mentions them when it is created (an edited game message
# never does): a player who has not acted this long after their turn began gets a short ping that does.
# 0 pings at once; an hour at most, since a ping later than that is a reminder (a quarter of the turn left).
TURN_PING_AFTER_SECONDS = NumberSetting("TURN_PING_AFTER_SECONDS", int, 30, 0, 3_600, "seconds")
# The AI thinks in the worker processes shared by every game (WORKERS); two seconds is already far past the
# point where hard plays almost perfectly (docs/AI.md), and a longer wait only looks like a stalled game.
AI_BUDGET_MS = NumberSetting("AI_BUDGET_MS", int, 300, 10, 2_000, "milliseconds")
# 0 hides the bar. Otherwise spent only on the 1 v 1 army-route games no exact table covers (puluc.ai.bar_chance:
# Bell is exact, other rules the learned evaluation, both well under 1 ms); there a search of 4 ms was 2.2 points
# of winning chance off Bell's exact chances on average (benchmarks/advantage.py), for about 5 ms of CPU.
ADVANTAGE_BAR_MS = NumberSetting("ADVANTAGE_BAR_MS", int, 4, 0, 250, "milliseconds")
AI_MOVE_DELAY_SECONDS = NumberSetting("AI_MOVE_DELAY_SECONDS", float, 1.0, 0.0, 30.0, "seconds")
COMMAND_COOLDOWN_SECONDS = NumberSetting("COMMAND_COOLDOWN_SECONDS", float, 3.0, 0.0, 600.0, "seconds")
MAX_OPEN_GAMES_PER_USER = NumberSetting("MAX_OPEN_GAMES_PER_USER", int, 3, 1, 25, "games")
# Games need people (bot/sessions/manager.py): a server's open lobbies and games together, and games with an AI
# seat (against the AI, or a lobby with AI seats) per host and per server. A game that plays itself costs the
# whole bot's Discord request budget; a tournament's matches are not counted.
MAX_OPEN_GAMES_PER_SERVER = NumberSetting("MAX_OPEN_GAMES_PER_SERVER", int, 100, 1, 10_000, "games")
MAX_AI_GAMES_PER_USER = NumberSetting("MAX_AI_GAMES_PER_USER", int, 2, 1, 25, "games")
MAX_AI_GAMES_PER_SERVER = NumberSetting("MAX_AI_GAMES_PER_SERVER", int, 20, 1, 10_000, "games")
# How many of each costly answer (bot/limits.py) one member, and all of a server's members together, may ask for
# a minute; a token bucket of that size refills evenly over the minute, and 0 lifts the limit. A replay of a long
# 8 v 8 costs about 2 s of CPU and a 2 MB upload; a hint up to AI_BUDGET_MS of search.
REPLAYS_PER_MEMBER = NumberSetting("REPLAYS_PER_MEMBER", int, 2, 0, 600, "replays a minute")
REPLAYS_PER_SERVER = NumberSetting("REPLAYS_PER_SERVER", int, 6, 0, 6_000, "replays a minute")
HINTS_PER_MEMBER = NumberSetting("HINTS_PER_MEMBER", int, 6, 0, 600, "hints a minute")
HINTS_PER_SERVER = NumberSetting("HINTS_PER_SERVER", int, 30, 0, 6_000, "hints a minute")
BOARDS_PER_MEMBER = NumberSetting("BOARDS_PER_MEMBER", int, 4, 0, 600, "boards a minute")
BOARDS_PER_SERVER = NumberSetting("BOARDS_PER_SERVER", int, 30, 0, 6_000, "boards a minute")
CHARTS_PER_MEMBER = NumberSetting("CHARTS_PER_MEMBER", int, 3, 0, 600, "profile charts a minute")
CHARTS_PER_SERVER = NumberSetting("CHARTS_PER_SERVER", int, 20, 0, 6_000, "profile charts a minute")
RULES_PICTURES_PER_MEMBER = NumberSetting(
    "RULES_PICTURES_PER_MEMBER", int, 6, 0, 600, "rules and help pages a minute"
)
RULES_PICTURES_PER_SERVER = NumberSetting(
    "RULES_PICTURES_PER_SERVER", int, 30, 0, 6_000, "rules and help pages a minute"
)
# A lobby (or challenge) nobody starts closes after this long, so it does not hold its channel and its host's
# open-game count for ever; from a minute to a week.
LOBBY_EXPIRY_SECONDS = NumberSetting("LOBBY_EXPIRY_SECONDS", int, 3600, 60, 604_800, "seconds")
# 0 keeps every finished game's moves for ever. Otherwise the moves (event logs) of games finished more than
# this many days ago are pruned once a day; results, ratings and history lines stay, replays of them do not.
FINISHED_GAME_RETENTION_DAYS = NumberSetting("FINISHED_GAME_RETENTION_DAYS", int, 0, 0, 36_500, "days")
# A review is a search of every decision of a game (exact for Bell 1 v 1) and four pictures; kept once made.
REVIEWS_PER_MEMBER = NumberSetting("REVIEWS_PER_MEMBER", int, 3, 0, 600, "game reviews a minute")
REVIEWS_PER_SERVER = NumberSetting("REVIEWS_PER_SERVER", int, 20, 0, 6_000, "game reviews a minute")
# Boards, charts, replays, AI moves and hints run in this many worker processes (bot/compute.py); 0 runs them
# in threads of the bot's own process (one core), for tiny hosts and tests. More workers than cores only
# adds memory (each worker holds its own fonts and tables).
WORKERS = CountSetting("WORKERS", 0, 64, "worker processes", "one per CPU core")

@dataclass(frozen=True, slots=True)
class ShardSetting:
    """Part of a deployment split over several processes (docs/OPERATIONS.md, Scaling); unset: one process, every
    server."""

    name: str
    what: str
    maximum: int = MAX_SHARD_COUNT
    default: None = None

    @property
    def rule(self) -> str:
        return self.what


# SHARD_COUNT alone: this one process runs every shard of that count. With SHARD_IDS: only those shards, and
# other processes (on one PostgreSQL database) run the rest. Neither: one process, discord.py's default.
SHARD_COUNT = ShardSetting("SHARD_COUNT", f"a whole number of shards from 1 to {MAX_SHARD_COUNT}")
SHARD_IDS = ShardSetting("SHARD_IDS", "this process's shards: one id (3), a range (0-3) or a list (0,2,5)")

@dataclass(frozen=True, slots=True)
class PortSetting:
    """A TCP port to listen on; unset means the listener is off."""

    name: str
    minimum: int = 1
    maximum: int = 65_535
    default: None = None

    @property
    def rule(self) -> str:
        return f"a TCP port from {self.minimum} to {self.maximum}"

    def allows(self, value: int) -> bool:
        return self.minimum <= value <= self.maximum


# The health and metrics listener (bot/ops/health.py: /healthz, /readyz, /metrics): off unless HEALTH_PORT is
# set, and only reachable from this machine unless HEALTH_HOST says where else to listen.
HEALTH_PORT = PortSetting("HEALTH_PORT")
HEALTH_HOST = TextSetting("HEALTH_HOST", "127.0.0.1")

# The Discord Activity (bot/activity, docs/OPERATIONS.md, Discord Activity): the application's OAuth2 client,
# from the developer portal's OAuth2 page. Both or neither: without them the Activity is off.
DISCORD_CLIENT_ID = IdSetting("DISCORD_CLIENT_ID", "the application id (developer portal, OAuth2 page, Client ID)")
DISCORD_CLIENT_SECRET = TextSetting("DISCORD_CLIENT_SECRET", None)
# Where Discord's HTTP API answers; only a test (a fake Discord server) or a Discord-compatible proxy changes it.
DISCORD_API_URL = TextSetting("DISCORD_API_URL", "https://discord.com/api/v10")
# The web companion (bot/web: live games, replays, leaderboards, tournaments): served by the bot when WEB_PORT is
# set (from the process WEB_PROCESS says), or alone by `puluc-bot web`. WEB_BASE_URL is the address people open
# (behind a reverse proxy with TLS), which the bot's link buttons point at; WEB_SECRET signs the links to a private
# server's pages (HMAC-SHA256, bot/ui/links.py), so it must be long and random. WEB_TRUST_FORWARDED: the proxy's
# X-Forwarded-For names the client (rate limits per client address), else every client is the proxy.
WEB_PORT = PortSetting("WEB_PORT")
WEB_HOST = TextSetting("WEB_HOST", "127.0.0.1")
WEB_BASE_URL = TextSetting("WEB_BASE_URL", None)
WEB_SECRET = TextSetting("WEB_SECRET", None)
WEB_SECRET_MIN_LENGTH = 32
WEB_TRUST_FORWARDED = ChoiceSetting("WEB_TRUST_FORWARDED", "NO", ("NO", "YES"))
# Which process serves the pages WEB_PORT sets: OWN, a process of their own that the bot starts, stops and
# restarts, at a lower CPU priority (spectators never slow the players' boards); BOT, the bot's own process.
WEB_PROCESS = ChoiceSetting("WEB_PROCESS", "OWN", ("OWN", "BOT"))

Setting = (
    TextSetting | ChoiceSetting | IdSetting | CountSetting | NumberSetting[int] | NumberSetting[float] | ShardSetting
    | PortSetting
)

#: Every setting, in the order `.env.example` lists them.
SETTINGS: tuple[Setting, ...] = (
    DISCORD_TOKEN,
    DATABASE_URL,
    DEV_GUILD_ID,
    LOG_LEVEL,
    LOG_FORMAT,
    TURN_TIMER_SECONDS,
    TURN_PING_AFTER_SECONDS,
    AI_BUDGET_MS,
    ADVANTAGE_BAR_MS,
    AI_MOVE_DELAY_SECONDS,
    COMMAND_COOLDOWN_SECONDS,
    MAX_OPEN_GAMES_PER_USER,
    MAX_OPEN_GAMES_PER_SERVER,
    MAX_AI_GAMES_PER_USER,
    MAX_AI_GAMES_PER_SERVER,
    REPLAYS_PER_MEMBER,
    REPLAYS_PER_SERVER,
    HINTS_PER_MEMBER,
    HINTS_PER_SERVER,
    BOARDS_PER_MEMBER,
    BOARDS_PER_SERVER,
    CHARTS_PER_MEMBER,
    CHARTS_PER_SERVER,
    RULES_PICTURES_PER_MEMBER,
    RULES_PICTURES_PER_SERVER,
    LOBBY_EXPIRY_SECONDS,
    FINISHED_GAME_RETENTION_DAYS,
    REVIEWS_PER_MEMBER,
    REVIEWS_PER_SERVER,
    WORKERS,
    FONT_PATH,
    SHARD_COUNT,
    SHARD_IDS,
    HEALTH_PORT,
    HEALTH_HOST,
    DISCORD_CLIENT_ID,
    DISCORD_CLIENT_SECRET,
    DISCORD_API_URL,
    WEB_PORT,
    WEB_HOST,
    WEB_BASE_URL,
    WEB_SECRET,
    WEB_TRUST_FORWARDED,
    WEB_PROCESS,
)

#: The limits on what one member or one server may use (caps on games, rates of costly answers): read into
#: `Config.limits` by name, so that a new limit is one setting here and one entry in this tuple.
LIMIT_SETTINGS: tuple[NumberSetting[int], ...] = (
    MAX_OPEN_GAMES_PER_SERVER,
    MAX_AI_GAMES_PER_USER,
    MAX_AI_GAMES_PER_SERVER,
    REPLAYS_PER_MEMBER,
    REPLAYS_PER_SERVER,
    HINTS_PER_MEMBER,
    HINTS_PER_SERVER,
    BOARDS_PER_MEMBER,
    BOARDS_PER_SERVER,
    CHARTS_PER_MEMBER,
    CHARTS_PER_SERVER,
    RULES_PICTURES_PER_MEMBER,
    RULES_PICTURES_PER_SERVER,
    REVIEWS_PER_MEMBER,
    REVIEWS_PER_SERVER,
)
