"""The bot's configuration: one typed, frozen object read from the environment and a `.env` file.

`find_env_file` decides which `.env` is read (the one `--env-file` names, which must exist, else `./.env`
if there is one) and `read_config` is the only place that reads configuration. Every value is checked
against its one definition in `bot/config_spec.py`, and every mistake is found in one pass: each is one line
saying which setting is wrong and what to write instead (a `.env` line that cannot be read: the file and the
line number). `load_config` raises them together as one `ConfigError`; `puluc-bot --check` and start-up print
each, with every typo hint (`TURN_TIMER=60` in `.env`: did you mean TURN_TIMER_SECONDS?), whatever else is
wrong.

Relative paths (a SQLite file in DATABASE_URL, FONT_PATH) are relative to the folder of the `.env` file
that was read, or to the current folder when none was, so the bot finds the same database wherever it is
started from. The Discord token is checked for shape only and kept out of `repr`, so no log shows it.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import difflib
import io
import ipaddress
import logging
import math
import os
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar
from urllib.parse import unquote, urlsplit

from dotenv import dotenv_values
from dotenv.parser import parse_stream

from bot.config_spec import (
    ADVANTAGE_BAR_MS,
    AI_BUDGET_MS,
    AI_MOVE_DELAY_SECONDS,
    COMMAND_COOLDOWN_SECONDS,
    DATABASE_URL,
    DEV_GUILD_ID,
    DISCORD_API_URL,
    DISCORD_CLIENT_ID,
    DISCORD_CLIENT_SECRET,
    FINISHED_GAME_RETENTION_DAYS,
    FONT_PATH,
    HEALTH_HOST,
    HEALTH_PORT,
    LIMIT_SETTINGS,
    LOBBY_EXPIRY_SECONDS,
    LOG_FORMAT,
    LOG_LEVEL,
    MAX_OPEN_GAMES_PER_USER,
    SETTINGS,
    SHARD_COUNT,
    SHARD_IDS,
    TURN_PING_AFTER_SECONDS,
    TURN_TIMER_SECONDS,
    WEB_BASE_URL,
    WEB_HOST,
    WEB_PORT,
    WEB_PROCESS,
    WEB_SECRET,
    WEB_SECRET_MIN_LENGTH,
    WEB_TRUST_FORWARDED,
    WORKERS,
    ChoiceSetting,
    N,
    NumberSetting,
)
from bot.storage.errors import UnsupportedDatabaseUrl
from bot.storage.shards import Shards, parse_shard_ids
from bot.storage.urls import DEFAULT_DATABASE_URL, DatabaseUrl, PostgresUrl, SqliteUrl, parse_database_url

__all__ = [
    "DEFAULT_DATABASE_URL", "Config", "ConfigError", "ConfigReport", "EnvFile", "find_env_file", "load_config",
    "read_config",
]

T = TypeVar("T")

ENV_FILE_NAME = ".env"

# A bot token is three base64url parts: the bot's user id, a timestamp, an HMAC. The lengths are loose lower
# bounds so that a future token format with longer parts still passes; Discord has the last word.
_TOKEN_PART = re.compile(r"[A-Za-z0-9_-]+")
_TOKEN_PART_MINIMUMS = (16, 4, 20)
_TOKEN_PART_NAMES = ("first", "second", "third")
_LABEL = r"[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?"
_HOST_NAME = re.compile(rf"(?=.{{1,253}}$){_LABEL}(\.{_LABEL})*")
_WHERE_TOKENS_LIVE = "copy it from the Discord developer portal, Bot page, Reset Token"


class ConfigError(ValueError):
    """Settings are missing or malformed: `problems` holds one line per mistake a server owner can act on (the
    message is those lines), `hints` the typo hints for names in `.env` that are close to a setting's."""

    def __init__(self, *problems: str, hints: Sequence[str] = ()) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems
        self.hints = tuple(hints)


@dataclass(frozen=True, slots=True)
class EnvFile:
    """The `.env` file the settings were read from (`found`), or where one was looked for and not found."""

    path: Path  # absolute
    found: bool

    def __str__(self) -> str:
        if self.found:
            return f"settings from {self.path} and the environment (the environment wins)"
        return f"no .env file at {self.path}; settings from the environment only"


@dataclass(frozen=True)
class ActivityClient:
    """The application's OAuth2 client, with which the Activity's backend exchanges a member's code."""

    client_id: int
    secret: str = field(repr=False)


@dataclass(frozen=True)
class Config:
    """Everything the bot can be configured with. Built by `load_config`, never mutated."""

    discord_token: str = field(repr=False)
    database: DatabaseUrl = field(default_factory=lambda: parse_database_url(DEFAULT_DATABASE_URL))
    dev_guild_id: int | None = None
    log_level: str = LOG_LEVEL.default
    log_format: str = LOG_FORMAT.default  # "TEXT" or "JSON"
    turn_timer_seconds: int = TURN_TIMER_SECONDS.default
    turn_ping_after_seconds: int = TURN_PING_AFTER_SECONDS.default
    ai_budget_ms: int = AI_BUDGET_MS.default
    advantage_bar_ms: int = ADVANTAGE_BAR_MS.default
    ai_move_delay_seconds: float = AI_MOVE_DELAY_SECONDS.default
    command_cooldown_seconds: float = COMMAND_COOLDOWN_SECONDS.default
    max_open_games_per_user: int = MAX_OPEN_GAMES_PER_USER.default
    # Every setting of LIMIT_SETTINGS by name (caps on games, rates of costly answers); `limit(spec)` reads one.
    limits: Mapping[str, int] = field(default_factory=lambda: {spec.name: spec.default for spec in LIMIT_SETTINGS})
    lobby_expiry_seconds: int = LOBBY_EXPIRY_SECONDS.default
    finished_game_retention_days: int = FINISHED_GAME_RETENTION_DAYS.default  # 0: keep every finished game's moves
    workers: int | None = None  # None: one worker process per core (bot.compute.default_workers)
    font_path: Path | None = None
    # SHARD_COUNT and SHARD_IDS; None (neither set): one process runs every server, as discord.py shards it.
    shards: Shards | None = None
    health_port: int | None = None  # None: no health listener
    health_host: str = HEALTH_HOST.default or "127.0.0.1"
    web_port: int | None = None  # None: no web companion in this process (`puluc-bot web` serves it alone)
    web_host: str = WEB_HOST.default or "127.0.0.1"
    web_base_url: str | None = None  # None: no link buttons to the web pages
    web_secret: str | None = field(default=None, repr=False)
    web_trust_forwarded: bool = False
    # WEB_PROCESS: True (OWN), the pages run in a process of their own that the bot starts; False (BOT), in the bot's.
    web_own_process: bool = True
    # The Discord Activity's OAuth2 client (bot/activity); None: the Activity is off.
    activity_client: ActivityClient | None = field(default=None, repr=False)
    discord_api_url: str = DISCORD_API_URL.default or "https://discord.com/api/v10"
    env_file: EnvFile | None = None  # None: no .env was looked for (tests build settings from a mapping)
    # Names in the .env file that are no setting but close to one (a typo that would otherwise go unnoticed).
    misspelt: tuple[tuple[str, str], ...] = ()

    def limit(self, spec: NumberSetting[int]) -> int:
        """The value of one of LIMIT_SETTINGS (its default when `limits` does not name it)."""
        return self.limits.get(spec.name, spec.default)

    @property
    def activity_on(self) -> bool:
        """Whether the Discord Activity is configured (DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET)."""
        return self.activity_client is not None

    @property
    def secrets(self) -> tuple[str, ...]:
        """What no log line may show: the token, its signature (the last part) on its own, and the database's
        password (one of at least 4 characters: hiding a shorter one everywhere would garble the log)."""
        found = [self.discord_token, self.discord_token.rsplit(".", 1)[-1]]
        if self.web_secret:
            found.append(self.web_secret)
        if self.activity_client is not None:
            found.append(self.activity_client.secret)
        if isinstance(self.database, PostgresUrl):
            with contextlib.suppress(ValueError):
                password = urlsplit(self.database.dsn).password
                if password is not None and len(unquote(password)) >= 4:
                    found += [unquote(password), password]
        return tuple(dict.fromkeys(found))

    @property
    def log_level_number(self) -> int:
        """The `logging` level matching `log_level`."""
        return logging.getLevelNamesMapping()[self.log_level]

    @property
    def hints(self) -> tuple[str, ...]:
        """One line per name in `.env` that is no setting but close to one: "did you mean ...?"."""
        env = str(self.env_file.path) if self.env_file is not None else ".env"
        return tuple(
            f"{env} sets {name}, which is no setting of the bot (ignored); did you mean {meant}?"
            for name, meant in self.misspelt
        )

    @property
    def application_id(self) -> int | None:
        """The bot's application id, which a bot token's first part holds in base64; None when it does not."""
        return _token_application(self.discord_token)


def _token_application(token: str) -> int | None:
    """The application id a bot token's first part holds in base64; None when it does not."""
    first = token.split(".", 1)[0]
    try:
        decoded = base64.urlsafe_b64decode(first + "=" * (-len(first) % 4)).decode("ascii")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    return int(decoded) if decoded.isdigit() and 0 < len(decoded) <= 20 else None


@dataclass(frozen=True)
class ConfigReport:
    """What `read_config` found: `config` holds every setting that was well formed and the default in place of
    each one named in `failed`; `problems` says what is wrong, one line each (none: the configuration is good)."""

    config: Config
    problems: tuple[str, ...]
    failed: frozenset[str]  # the settings `problems` are about ("" for the .env file itself)

    def raise_problems(self) -> Config:
        """`config`, or `ConfigError` with every problem and hint when there is one."""
        if self.problems:
            raise ConfigError(*self.problems, hints=self.config.hints)
        return self.config


def find_env_file(named: Path | None = None) -> EnvFile:
    """The `.env` to read: `named` (from --env-file), which must be an existing file, else `./.env`.

    Raises `ConfigError` when `named` does not exist or is not a file, or when `./.env` is a directory.
    """
    if named is None:
        path = Path(os.path.abspath(ENV_FILE_NAME))
        if path.exists() and not path.is_file():
            raise ConfigError(f"{path} is a folder, not a settings file; remove it or name your .env with --env-file.")
        return EnvFile(path, path.is_file())
    path = Path(os.path.abspath(named.expanduser()))
    if not path.exists():
        raise ConfigError(
            f"--env-file {path}: no such file; give the path of your .env file (copy .env.example to make one)."
        )
    if not path.is_file():
        raise ConfigError(f"--env-file {path} is a folder; name the file itself, e.g. --env-file {path / '.env'}.")
    return EnvFile(path, True)


def load_config(environ: Mapping[str, str], env_file: EnvFile | Path | None = None) -> Config:
    """Build `Config` from `env_file` (if found) overridden by `environ`.

    `env_file` is what `find_env_file` returned, or a path that must exist (as with --env-file), or None to
    read the environment alone. Empty values count as unset, so a copied `.env.example` works as is.
    Raises `ConfigError` with one line per mistake, each naming the setting and what to write instead.
    """
    return read_config(environ, env_file).raise_problems()


def read_config(environ: Mapping[str, str], env_file: EnvFile | Path | None = None, *,
                needs_token: bool = True) -> ConfigReport:
    """Read every setting as `load_config` does, and report every mistake instead of stopping at the first.
    `needs_token`: False for the commands that never reach Discord (`puluc-bot web`)."""
    env = find_env_file(env_file) if isinstance(env_file, Path) else env_file
    found = _Problems()
    nothing: tuple[dict[str, str], tuple[str, ...]] = ({}, ())
    file_values, unreadable = found.check("", lambda: _read_env_file(env), nothing)
    found.add("", unreadable)
    values = _merge(file_values, environ)
    base = env.path.parent if env is not None else Path.cwd()

    token = values.get("DISCORD_TOKEN", "")
    if needs_token:
        found.check("DISCORD_TOKEN", lambda: _check_token(token, env), None)
    config = Config(
        discord_token=token,
        database=found.check(DATABASE_URL.name, lambda: _database(values, base), _default_database(base)),
        dev_guild_id=found.check(DEV_GUILD_ID.name, lambda: _dev_guild_id(values), None),
        log_level=found.check(LOG_LEVEL.name, lambda: _choice(values, LOG_LEVEL), LOG_LEVEL.default),
        log_format=found.check(LOG_FORMAT.name, lambda: _choice(values, LOG_FORMAT), LOG_FORMAT.default),
        turn_timer_seconds=found.number(values, TURN_TIMER_SECONDS),
        turn_ping_after_seconds=found.number(values, TURN_PING_AFTER_SECONDS),
        ai_budget_ms=found.number(values, AI_BUDGET_MS),
        advantage_bar_ms=found.number(values, ADVANTAGE_BAR_MS),
        ai_move_delay_seconds=found.number(values, AI_MOVE_DELAY_SECONDS),
        command_cooldown_seconds=found.number(values, COMMAND_COOLDOWN_SECONDS),
        max_open_games_per_user=found.number(values, MAX_OPEN_GAMES_PER_USER),
        limits={spec.name: found.number(values, spec) for spec in LIMIT_SETTINGS},
        lobby_expiry_seconds=found.number(values, LOBBY_EXPIRY_SECONDS),
        finished_game_retention_days=found.number(values, FINISHED_GAME_RETENTION_DAYS),
        workers=found.check(WORKERS.name, lambda: _workers(values), None),
        font_path=found.check(FONT_PATH.name, lambda: _font_path(values, base), None),
        shards=found.check(SHARD_COUNT.name, lambda: _shards(values), None),
        health_port=found.check(HEALTH_PORT.name, lambda: _health_port(values), None),
        health_host=found.check(HEALTH_HOST.name, lambda: _health_host(values), Config.health_host),
        web_port=found.check(WEB_PORT.name, lambda: _web_port(values), None),
        web_host=found.check(WEB_HOST.name, lambda: _listen_host(values, WEB_HOST.name, Config.web_host),
                             Config.web_host),
        web_base_url=found.check(WEB_BASE_URL.name, lambda: _web_base_url(values), None),
        web_secret=found.check(WEB_SECRET.name, lambda: _web_secret(values), None),
        web_trust_forwarded=found.check(WEB_TRUST_FORWARDED.name,
                                        lambda: _choice(values, WEB_TRUST_FORWARDED) == "YES", False),
        web_own_process=found.check(WEB_PROCESS.name, lambda: _choice(values, WEB_PROCESS) == "OWN", True),
        activity_client=found.check(DISCORD_CLIENT_ID.name, lambda: _activity_client(values, token), None),
        discord_api_url=found.check(DISCORD_API_URL.name, lambda: _discord_api_url(values), Config.discord_api_url),
        env_file=env,
        misspelt=_misspelt(file_values),
    )
    return ConfigReport(config, tuple(found.lines), frozenset(found.failed))


class _Problems:
    """Collects every setting's mistake: `check` runs one reader and keeps its `ConfigError`'s lines."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.failed: set[str] = set()

    def check(self, name: str, read: Callable[[], T], fallback: T) -> T:
        try:
            return read()
        except ConfigError as exc:
            self.lines.extend(exc.problems)
            self.failed.add(name)
            return fallback

    def add(self, name: str, lines: Sequence[str]) -> None:
        if lines:
            self.lines.extend(lines)
            self.failed.add(name)

    def number(self, values: Mapping[str, str], spec: NumberSetting[N]) -> N:
        return self.check(spec.name, lambda: _number(values, spec), spec.default)


def _read_env_file(env: EnvFile | None) -> tuple[dict[str, str], tuple[str, ...]]:
    """The values `env` sets, and one problem per line of it that cannot be read (python-dotenv skips those).

    `ConfigError` when the file cannot be read at all."""
    if env is None or not env.found:
        return {}, ()
    try:
        text = env.path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise ConfigError(f"cannot read {env.path}: {exc.strerror}; fix its permissions or remove it.") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{env.path} is not a UTF-8 text file; save it as plain text (see .env.example).") from None
    unreadable = [binding.original for binding in parse_stream(io.StringIO(text)) if binding.error]
    with _quiet_dotenv():
        # dotenv_values parses without touching os.environ, so the merge order below stays explicit.
        raw = dotenv_values(stream=io.StringIO(text))
    values = {key: value for key, value in raw.items() if value is not None}
    return values, tuple(_unreadable_line(env.path, original.line, original.string) for original in unreadable)


def _unreadable_line(path: Path, number: int, text: str) -> str:
    # Never the line itself: it may hold the token. Its name, when it starts with one, is no secret.
    name = re.match(r"\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)", text)
    which = f" (the one that starts with {name[1]})" if name else ""
    return (
        f"{path}, line {number}{which}, is not a setting: write NAME=value on one line, a value with spaces or # "
        "in quotes that close on the same line, and # only to start a comment; that line was ignored."
    )


@contextlib.contextmanager
def _quiet_dotenv() -> Iterator[None]:
    """python-dotenv logs its own warning for a line it cannot parse, without the file's name; the line is
    reported by `_unreadable_line` instead."""
    logger = logging.getLogger("dotenv.main")
    disabled, logger.disabled = logger.disabled, True
    try:
        yield
    finally:
        logger.disabled = disabled


def _merge(file_values: Mapping[str, str], environ: Mapping[str, str]) -> dict[str, str]:
    """The environment wins over the file; blank values are dropped so defaults apply."""
    merged = {**file_values, **environ}
    return {key: value.strip() for key, value in merged.items() if value.strip()}


def _misspelt(file_values: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    names = [setting.name for setting in SETTINGS]
    found = []
    for key in file_values:
        if key not in names:
            close = difflib.get_close_matches(key.upper(), names, n=1, cutoff=0.7)
            if close:
                found.append((key, close[0]))
    return tuple(found)


def _check_token(token: str, env: EnvFile | None) -> None:
    # Messages describe the token's shape and never include any part of it.
    if not token:
        if env is None:
            where = "it is not in the environment"
        elif env.found:
            where = f"neither {env.path} nor the environment sets it"
        else:
            where = (
                f"there is no .env file at {env.path} and the environment does not set it (copy .env.example "
                "to .env there, start from the folder that holds your .env, or name it with --env-file PATH)"
            )
        raise ConfigError(f"DISCORD_TOKEN is not set: {where}; {_WHERE_TOKENS_LIVE}.")
    if token.lower().startswith("bot "):
        raise ConfigError("DISCORD_TOKEN must be the token alone: remove the leading 'Bot ' prefix.")
    if token[0] in "\"'" or token[-1] in "\"'":
        raise ConfigError("DISCORD_TOKEN is wrapped in quotes; write the token alone, without quotes.")
    if any(char.isspace() for char in token):
        raise ConfigError("DISCORD_TOKEN contains whitespace; paste the token as one unbroken line, without spaces.")
    parts = token.split(".")
    if len(parts) == 1:
        problem = "it has no dots, so it may be the client secret or public key"
    elif len(parts) != 3:
        problem = f"it has {len(parts)} dot-separated parts, a bot token has three"
    elif any(part and not _TOKEN_PART.fullmatch(part) for part in parts):
        problem = "it contains characters a bot token never has: only letters, digits, '-' and '_' around two dots"
    else:
        short = [name for part, least, name in zip(parts, _TOKEN_PART_MINIMUMS, _TOKEN_PART_NAMES, strict=True)
                 if len(part) < least]
        if not short:
            return
        which = (
            f"its {short[0]} part is" if len(short) == 1 else f"its {', '.join(short[:-1])} and {short[-1]} parts are"
        )
        problem = (
            f"{which} too short: a bot token's three parts are at least 16, 4 and 20 characters long, about 70 "
            "in all, so it may have been cut off when copied"
        )
    raise ConfigError(f"DISCORD_TOKEN does not look like a bot token ({problem}); {_WHERE_TOKENS_LIVE}.")


def _database(values: Mapping[str, str], base: Path) -> DatabaseUrl:
    text = values.get(DATABASE_URL.name, DEFAULT_DATABASE_URL)
    if "://" not in text and ("@" in text or text.startswith("postgres")):
        # Never echoed: it may hold a password.
        raise ConfigError(
            "DATABASE_URL needs :// after its scheme: postgresql://user:password@host:5432/dbname."
        )
    if "://" not in text and not text.startswith("sqlite:"):
        # A bare path: the file the owner meant is almost certainly a SQLite one.
        raise ConfigError(
            f"DATABASE_URL={text} is a path, not a database URL: for a SQLite file write "
            f"DATABASE_URL=sqlite:///{text} (three slashes, relative to the .env folder; four for an absolute "
            "path), or postgresql://user:password@host:5432/dbname for PostgreSQL."
        )
    try:
        database = parse_database_url(text)
    except UnsupportedDatabaseUrl as exc:
        reason = str(exc)
        raise ConfigError(reason if "DATABASE_URL" in reason else f"DATABASE_URL is invalid: {reason}") from None
    except ValueError:
        # urllib's "Invalid IPv6 URL": a bracket that does not close, or brackets around something else.
        raise ConfigError(
            "DATABASE_URL has a malformed host: an IPv6 address goes in square brackets that close before the "
            "port, e.g. postgresql://user:password@[2001:db8::5]:5432/dbname."
        ) from None
    if not isinstance(database, SqliteUrl):
        return database
    if str(database.path) == ":memory:":
        raise ConfigError(
            "DATABASE_URL names an in-memory database, which keeps nothing: every game and rating would be lost "
            f"when the bot stops; write a file, e.g. DATABASE_URL={DEFAULT_DATABASE_URL}."
        )
    path = database.path.expanduser()
    return SqliteUrl(Path(os.path.normpath(path if path.is_absolute() else base / path)))


def _default_database(base: Path) -> DatabaseUrl:
    return _database({}, base)


def _dev_guild_id(values: Mapping[str, str]) -> int | None:
    text = values.get(DEV_GUILD_ID.name)
    if text is None:
        return None
    dev_guild_id = _whole_number(text)
    if dev_guild_id is None or not DEV_GUILD_ID.minimum <= dev_guild_id <= DEV_GUILD_ID.maximum:
        raise ConfigError(
            f"DEV_GUILD_ID must be {DEV_GUILD_ID.rule}; got {text!r}. Leave it empty to sync the commands "
            "to every server."
        )
    return dev_guild_id


def _choice(values: Mapping[str, str], spec: ChoiceSetting) -> str:
    text = values.get(spec.name)
    if text is None:
        return spec.default
    chosen = spec.choose(text)
    if chosen is None:
        aliases = "; WARN means WARNING" if spec.aliases else ""
        raise ConfigError(
            f"{spec.name} must be {spec.rule} (any case{aliases}); got {text!r}. Write for example "
            f"{spec.name}={spec.default}."
        )
    return chosen


def _health_port(values: Mapping[str, str]) -> int | None:
    text = values.get(HEALTH_PORT.name)
    if text is None:
        return None
    port = _whole_number(text)
    if port is None or not HEALTH_PORT.allows(port):
        raise ConfigError(
            f"{HEALTH_PORT.name} must be {HEALTH_PORT.rule}; got {text!r}. Write for example "
            f"{HEALTH_PORT.name}=8080, or leave it empty to keep the health listener off."
        )
    return port


def _health_host(values: Mapping[str, str]) -> str:
    return _listen_host(values, HEALTH_HOST.name, Config.health_host)


def _listen_host(values: Mapping[str, str], name: str, default: str) -> str:
    text = values.get(name, default)
    try:
        ipaddress.ip_address(text)
    except ValueError:
        if not _HOST_NAME.fullmatch(text):
            raise ConfigError(
                f"{name} must be an IP address or a host name of this machine to listen on; got "
                f"{text!r}. Write for example {name}=127.0.0.1 (this machine only, the default) or "
                f"{name}=0.0.0.0 (every network; inside a container)."
            ) from None
    return text


def _web_port(values: Mapping[str, str]) -> int | None:
    text = values.get(WEB_PORT.name)
    if text is None:
        return None
    port = _whole_number(text)
    if port is None or not WEB_PORT.allows(port):
        raise ConfigError(
            f"{WEB_PORT.name} must be {WEB_PORT.rule}; got {text!r}. Write for example "
            f"{WEB_PORT.name}=8081, or leave it empty to serve no web pages from the bot's process."
        )
    if values.get(WEB_SECRET.name) is None:
        raise ConfigError(
            f"{WEB_PORT.name} serves the web pages, which need {WEB_SECRET.name} to sign their links: set "
            f"{WEB_SECRET.name} to at least {WEB_SECRET_MIN_LENGTH} random characters (for example the output of "
            "python3 -c 'import secrets; print(secrets.token_urlsafe(32))'), or leave WEB_PORT empty."
        )
    return port


def _web_base_url(values: Mapping[str, str]) -> str | None:
    text = values.get(WEB_BASE_URL.name)
    if text is None:
        return None
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise ConfigError(
            f"{WEB_BASE_URL.name} must be the address people open the web pages at, http:// or https:// and a "
            f"host, with no ?query or #fragment; got {text!r}. Write for example "
            f"{WEB_BASE_URL.name}=https://puluc.example.org"
        )
    if values.get(WEB_SECRET.name) is None:
        raise ConfigError(
            f"{WEB_BASE_URL.name} makes the bot hand out links to the web pages, which {WEB_SECRET.name} signs: "
            f"set {WEB_SECRET.name} (the same in every process) to at least {WEB_SECRET_MIN_LENGTH} random "
            f"characters, or leave {WEB_BASE_URL.name} empty."
        )
    return text.rstrip("/")


def _web_secret(values: Mapping[str, str]) -> str | None:
    text = values.get(WEB_SECRET.name)
    if text is None:
        return None
    if len(text) < WEB_SECRET_MIN_LENGTH or len(set(text)) < 8:
        raise ConfigError(
            f"{WEB_SECRET.name} must be at least {WEB_SECRET_MIN_LENGTH} random characters (it signs the links "
            f"to private servers' pages); got {len(text)} characters. Write for example the output of "
            "python3 -c 'import secrets; print(secrets.token_urlsafe(32))'."
        )
    return text


def _activity_client(values: Mapping[str, str], token: str) -> ActivityClient | None:
    client_text, secret = values.get(DISCORD_CLIENT_ID.name), values.get(DISCORD_CLIENT_SECRET.name)
    if client_text is None and secret is None:
        return None
    if client_text is None or secret is None:
        given, missing = (DISCORD_CLIENT_ID, DISCORD_CLIENT_SECRET) if secret is None else (
            DISCORD_CLIENT_SECRET, DISCORD_CLIENT_ID)
        raise ConfigError(
            f"{given.name} is set but {missing.name} is not: the Discord Activity needs both (developer portal, "
            "OAuth2 page: Client ID and Client Secret), or leave both empty to keep it off."
        )
    client_id = _whole_number(client_text)
    if client_id is None or not DISCORD_CLIENT_ID.minimum <= client_id <= DISCORD_CLIENT_ID.maximum:
        raise ConfigError(f"{DISCORD_CLIENT_ID.name} must be {DISCORD_CLIENT_ID.rule}; got {client_text!r}.")
    # Never echoed: it is a secret. Only its shape is checked; Discord has the last word.
    if any(char.isspace() for char in secret) or secret[0] in "\"'" or secret[-1] in "\"'":
        raise ConfigError(
            f"{DISCORD_CLIENT_SECRET.name} contains spaces or quotes; paste the client secret alone, on one line."
        )
    if secret == token or "." in secret:
        raise ConfigError(
            f"{DISCORD_CLIENT_SECRET.name} looks like a bot token; it must be the OAuth2 client secret "
            "(developer portal, OAuth2 page, Reset Secret), not the bot's token."
        )
    owner = _token_application(token)
    if owner is not None and owner != client_id:
        raise ConfigError(
            f"{DISCORD_CLIENT_ID.name}={client_id} is not the application of DISCORD_TOKEN (application {owner}); "
            "copy the Client ID from the same application's OAuth2 page."
        )
    return ActivityClient(client_id, secret)


def _discord_api_url(values: Mapping[str, str]) -> str:
    text = values.get(DISCORD_API_URL.name, Config.discord_api_url)
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise ConfigError(
            f"{DISCORD_API_URL.name} must be an http(s) URL such as {Config.discord_api_url}; got {text!r}. "
            "Leave it empty to use Discord's."
        )
    return text.rstrip("/")


def _font_path(values: Mapping[str, str], base: Path) -> Path | None:
    text = values.get("FONT_PATH")
    if text is None:
        return None
    path = Path(text).expanduser()
    path = Path(os.path.normpath(path if path.is_absolute() else base / path))
    if not path.is_file():
        raise ConfigError(
            f"FONT_PATH points to {str(path)!r}, which is not a file; give the path of a .ttf or .otf font, "
            "or leave FONT_PATH empty to use DejaVu Sans."
        )
    return path


def _shards(values: Mapping[str, str]) -> Shards | None:
    count_text, ids_text = values.get(SHARD_COUNT.name), values.get(SHARD_IDS.name)
    if count_text is None:
        if ids_text is not None:
            raise ConfigError(
                f"SHARD_IDS={ids_text} needs SHARD_COUNT, the number of shards of the whole deployment (the same in "
                "every process), e.g. SHARD_COUNT=2 with SHARD_IDS=0 here and SHARD_IDS=1 in the other process."
            )
        return None
    count = _whole_number(count_text)
    if count is None or not 1 <= count <= SHARD_COUNT.maximum:
        raise ConfigError(
            f"SHARD_COUNT must be {SHARD_COUNT.rule}; got {count_text!r}. Leave it empty to run one process for "
            "every server."
        )
    if ids_text is None:
        return Shards.whole(count)
    try:
        ids = parse_shard_ids(ids_text, count)
    except ValueError as exc:
        raise ConfigError(
            f"SHARD_IDS={ids_text} {exc}; write {SHARD_IDS.rule}, each from 0 to {count - 1}."
        ) from None
    return Shards(count, ids)


def _whole_number(text: str) -> int | None:
    try:
        return int(text)
    except ValueError:
        return None


def _number(values: Mapping[str, str], spec: NumberSetting[N]) -> N:
    text = values.get(spec.name)
    if text is None:
        return spec.default
    try:
        number = spec.kind(text)
    except ValueError:
        number = None
    if number is None or not math.isfinite(number) or not spec.allows(number):
        raise ConfigError(
            f"{spec.name} must be {spec.rule}; got {text!r}. Write for example {spec.name}={spec.default} "
            "(the default), or leave it empty for the default."
        )
    return number


def _workers(values: Mapping[str, str]) -> int | None:
    text = values.get(WORKERS.name)
    if text is None:
        return None
    number = _whole_number(text)
    if number is None or not WORKERS.allows(number):
        raise ConfigError(
            f"{WORKERS.name} must be {WORKERS.rule}; got {text!r}. Write for example {WORKERS.name}=2, "
            f"{WORKERS.name}=0 to draw in threads of the bot's own process, or leave it empty for {WORKERS.auto}."
        )
    return number
