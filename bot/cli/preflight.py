"""What the bot checks before it contacts Discord: which settings file it read, the database, the board font.

`preflight` runs for `puluc-bot --check`, which prints its findings and stops, and at start-up, which logs
the same findings and goes on. It changes nothing on disk: a database that does not exist yet is reported
with what start-up will create (`open_storage` creates it later), an existing one is read without writing.
Every problem is a `PreflightError` whose message is one line saying what to do. This module must never
print, log or repeat the token, and never connect to Discord.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path

from bot.config import Config
from bot.storage import (
    Inspection,
    SchemaTooNew,
    SqliteUrl,
    StorageUnavailable,
    UnsupportedDatabaseUrl,
    inspect_storage,
)

__all__ = ["BUILTIN_FONT", "Preflight", "PreflightError", "check_font", "preflight"]

BUILTIN_FONT = "Pillow's plain built-in font, as DejaVu Sans was not found (install fonts-dejavu-core)"


class PreflightError(Exception):
    """The bot cannot run as configured; the message is one line a server owner can act on."""


@dataclass(frozen=True, slots=True)
class Preflight:
    """What `preflight` found: every line is true of the setup as it is now."""

    config: Config
    database: Inspection
    font: str  # the font file the boards are drawn with, or BUILTIN_FONT

    @property
    def notes(self) -> tuple[str, ...]:
        """Things that work but are probably not what the owner meant."""
        return tuple(
            f"{self._env_name} sets {name}, which is no setting of the bot (ignored); did you mean {meant}?"
            for name, meant in self.config.misspelt
        )

    def findings(self, *, starting: bool = False) -> tuple[str, ...]:
        """One line each: the settings file, the database, the font (`starting`: said at start-up)."""
        env = self.config.env_file
        return (
            str(env) if env is not None else "settings from the environment only",
            f"database {self.database.where}: {self.database.describe(starting=starting)}",
            f"board font: {self.font}",
            describe_shards(self.config),
        )

    @property
    def _env_name(self) -> str:
        env = self.config.env_file
        return str(env.path) if env is not None else ".env"


async def preflight(config: Config) -> Preflight:
    """Check the shards, the database and the font `settings` name, changing nothing; `PreflightError` on a
    problem."""
    check_shards(config)
    database = await inspect_database(config)
    font = await asyncio.to_thread(check_font, config.font_path)
    return Preflight(config, database, font)


def check_shards(config: Config) -> None:
    """SHARD_IDS that leave shards to other processes need a database they can share: PostgreSQL."""
    shards = config.shards
    if shards is not None and not shards.is_whole and isinstance(config.database, SqliteUrl):
        raise PreflightError(
            f"SHARD_IDS runs {shards} in this process, so other processes would run the rest, but a SQLite "
            "file serves one process only: use PostgreSQL (README, Scaling) or leave SHARD_IDS empty."
        )


def describe_shards(config: Config) -> str:
    shards = config.shards
    if shards is None:
        return "shards: one process for every server (SHARD_COUNT and SHARD_IDS empty)"
    if shards.is_whole:
        return f"shards: this process runs all {shards.count} shards of SHARD_COUNT={shards.count}"
    return f"shards: this process runs {shards}; others on the same database run the rest"


async def inspect_database(config: Config) -> Inspection:
    where = config.database.where
    try:
        found = await inspect_storage(config.database)
    except SchemaTooNew as exc:
        raise PreflightError(f"{where}: {exc}.") from exc
    except StorageUnavailable as exc:
        raise PreflightError(f"cannot use the database at {where}: {exc}; check DATABASE_URL.") from exc
    except UnsupportedDatabaseUrl as exc:
        raise PreflightError(f"{exc}.") from exc
    if found.integrity != "ok":
        raise PreflightError(f"the database at {where} is damaged ({found.integrity}); restore it from a backup.")
    return found


def check_font(path: Path | None) -> str:
    """Draw a board with the font at `path` (None: DejaVu Sans, else Pillow's own); return what was used.

    Also makes it the font of every image from now on. `PreflightError` when the file is not a font.
    """
    # Imported here: the renderer and the engine load Pillow and the rule tables, which `--demo` and a
    # settings error never need.
    import renderer
    from puluc import Position, Rules
    from renderer.fonts import find_font

    try:
        renderer.use_font(str(path) if path is not None else None)
        renderer.render_board(Position.start(Rules.preset("bell")))
    except (OSError, ValueError) as exc:
        # Pillow says OSError("unknown file format") for a file that is no font; FontNotFound is a ValueError.
        renderer.use_font(None)
        what = f"FONT_PATH {path}" if path is not None else f"the font {find_font()}"
        raise PreflightError(
            f"{what} cannot draw the board images ({exc}); give a .ttf or .otf font file, or leave "
            "FONT_PATH empty to use DejaVu Sans."
        ) from exc
    return find_font() or BUILTIN_FONT
