"""The bot's settings: one typed, frozen object read from the environment and a `.env` file.

`load_settings` is the only place that reads configuration. Every problem becomes a `ConfigError` whose
message is one line saying which setting is wrong and what to do. This module must never log, print or
repeat the Discord token: it is checked for shape only, and kept out of `repr`.
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from dotenv import dotenv_values

from bot.storage.errors import UnsupportedDatabaseUrl
from bot.storage.urls import DEFAULT_DATABASE_URL, DatabaseUrl, SqliteUrl, parse_database_url

__all__ = ["DEFAULT_DATABASE_URL", "ConfigError", "Settings", "load_settings"]

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")

# A bot token is three base64url segments: the bot's user id, a timestamp, an HMAC. The lengths are loose
# lower bounds so that a future token format with longer parts still passes; Discord has the last word.
_TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}")
_WHERE_TOKENS_LIVE = "copy it from the Discord developer portal, Bot page, Reset Token"

T = TypeVar("T", int, float)


class ConfigError(ValueError):
    """A setting is missing or malformed; the message is one line a server owner can act on."""


@dataclass(frozen=True)
class Settings:
    """Everything the bot can be configured with. Built by `load_settings`, never mutated."""

    discord_token: str = field(repr=False)
    database: DatabaseUrl = field(default_factory=lambda: SqliteUrl(Path("data/puluc.db")))  # DATABASE_URL
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    turn_timer_seconds: int = 600
    ai_budget_ms: int = 300
    advantage_bar_ms: int = 10
    ai_move_delay_seconds: float = 1.0
    command_cooldown_seconds: float = 3.0
    max_open_games_per_user: int = 3
    font_path: Path | None = None

    @property
    def log_level_number(self) -> int:
        """The `logging` level matching `log_level`."""
        return logging.getLevelNamesMapping()[self.log_level]


def load_settings(environ: Mapping[str, str], env_file: Path | None = Path(".env")) -> Settings:
    """Build `Settings` from `env_file` (if it exists) overridden by `environ`.

    Empty values count as unset, so a copied `.env.example` with `DEV_GUILD_ID=` works as is.
    Raises `ConfigError` with one line naming the setting and the fix.
    """
    values = _merge(_read_env_file(env_file), environ)

    token = values.get("DISCORD_TOKEN", "")
    _check_token(token)

    try:
        database = parse_database_url(values.get("DATABASE_URL", DEFAULT_DATABASE_URL))
    except UnsupportedDatabaseUrl as exc:
        reason = str(exc)
        raise ConfigError(reason if "DATABASE_URL" in reason else f"DATABASE_URL is invalid: {reason}") from None

    log_level = values.get("LOG_LEVEL", "INFO").upper()
    if log_level not in LOG_LEVELS:
        raise ConfigError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}; got {log_level!r}.")

    font_path = None
    if "FONT_PATH" in values:
        font_path = Path(values["FONT_PATH"]).expanduser()
        if not font_path.is_file():
            raise ConfigError(
                f"FONT_PATH points to {str(font_path)!r}, which is not a file; "
                "give the path of a .ttf font or leave FONT_PATH empty to use the default font."
            )

    dev_guild_id = None
    if "DEV_GUILD_ID" in values:
        dev_guild_id = _number(
            values,
            "DEV_GUILD_ID",
            int,
            minimum=1,
            hint="a server id (Developer Mode, right-click the server, Copy Server ID), or leave it empty",
        )

    return Settings(
        discord_token=token,
        database=database,
        dev_guild_id=dev_guild_id,
        log_level=log_level,
        turn_timer_seconds=_number(values, "TURN_TIMER_SECONDS", int, 600, minimum=30),
        ai_budget_ms=_number(values, "AI_BUDGET_MS", int, 300, minimum=10),
        advantage_bar_ms=_number(values, "ADVANTAGE_BAR_MS", int, 10, minimum=0),
        ai_move_delay_seconds=_number(values, "AI_MOVE_DELAY_SECONDS", float, 1.0, minimum=0),
        command_cooldown_seconds=_number(values, "COMMAND_COOLDOWN_SECONDS", float, 3.0, minimum=0),
        max_open_games_per_user=_number(values, "MAX_OPEN_GAMES_PER_USER", int, 3, minimum=1),
        font_path=font_path,
    )


def _read_env_file(env_file: Path | None) -> dict[str, str]:
    if env_file is None or not env_file.exists():
        return {}
    try:
        # dotenv_values parses without touching os.environ, so the merge order below stays explicit.
        raw = dotenv_values(env_file)
    except OSError as exc:
        raise ConfigError(f"cannot read {env_file}: {exc.strerror}; fix its permissions or remove it.") from None
    return {key: value for key, value in raw.items() if value is not None}


def _merge(file_values: Mapping[str, str], environ: Mapping[str, str]) -> dict[str, str]:
    """The environment wins over the file; blank values are dropped so defaults apply."""
    merged = {**file_values, **environ}
    return {key: value.strip() for key, value in merged.items() if value.strip()}


def _check_token(token: str) -> None:
    # Messages describe the token's shape and never include any part of it.
    if not token:
        raise ConfigError(
            "DISCORD_TOKEN is not set: put your bot token in .env (see .env.example) or in the environment; "
            f"{_WHERE_TOKENS_LIVE}."
        )
    if token.lower().startswith("bot "):
        raise ConfigError("DISCORD_TOKEN must be the token alone: remove the leading 'Bot ' prefix.")
    if any(char.isspace() for char in token):
        raise ConfigError("DISCORD_TOKEN contains whitespace; paste the token as one unbroken line, without spaces.")
    if not _TOKEN_SHAPE.fullmatch(token):
        hint = (
            "it has no dots, so it may be the client secret or public key"
            if "." not in token
            else "it should be three dot-separated parts of letters, digits, '-' and '_'"
        )
        raise ConfigError(f"DISCORD_TOKEN does not look like a bot token ({hint}); {_WHERE_TOKENS_LIVE}.")


def _number(
    values: Mapping[str, str],
    name: str,
    kind: Callable[[str], T],
    default: T | None = None,
    *,
    minimum: float,
    hint: str | None = None,
) -> T:
    text = values.get(name)
    if text is None:
        if default is None:
            raise ConfigError(f"{name} is required.")
        return default
    what = "a whole number" if kind is int else "a number"
    try:
        number = kind(text)
    except ValueError:
        raise ConfigError(f"{name} must be {hint or what}; got {text!r}.") from None
    if not math.isfinite(number) or number < minimum:
        raise ConfigError(f"{name} must be {hint or f'{what} of at least {minimum:g}'}; got {text!r}.")
    return number
