"""Looking at a database without changing it: what `puluc-bot --check` and start-up report.

`inspect_storage(url)` says whether the database exists, what start-up would create or migrate, how many
games and players it holds, and whether it is intact, and writes nothing: no folder, no file, no
migration, no journal left behind. `open_storage` is what creates and migrates. This module must never
import a database driver; each backend inspects in its own package.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.errors import UnsupportedDatabaseUrl
from bot.storage.urls import DatabaseUrl, SqliteUrl, parse_database_url

__all__ = ["Inspection", "inspect_storage"]


@dataclass(frozen=True, slots=True)
class Inspection:
    """What a database holds now, and what opening it would change."""

    where: str  # absolute path, or host:port/database (never a password)
    exists: bool  # False: start-up creates it
    creates: tuple[str, ...]  # what start-up would create, outermost first (folders, then the file)
    schema_version: int  # 0 for a new or empty database
    latest_version: int  # the version this bot migrates to
    games: int
    players: int
    integrity: str  # "ok", or the problems found

    @property
    def empty(self) -> bool:
        return self.games == 0 and self.players == 0

    def describe(self, *, starting: bool = False) -> str:
        """One line: "existing, 12 games and 5 players, schema version 2, intact" and the like.

        `starting`: said by a bot that is about to open the database, not by `--check`, which only looks.
        """
        if not self.exists:
            *outer, last = self.creates
            made = f"{', '.join(outer)} and {last}" if outer else last
            if starting:
                return f"new: creating {made}"
            return f"new: start-up will create {made} (nothing was created now)"
        state = "existing but empty" if self.empty else "existing"
        counts = f"{_count(self.games, 'game')} and {_count(self.players, 'player')}"
        if self.schema_version < self.latest_version:
            migrate = "migrating it" if starting else "start-up will migrate it"
            version = f"schema version {self.schema_version}; {migrate} to {self.latest_version}"
        else:
            version = f"schema version {self.schema_version}"
        verdict = "intact" if self.integrity == "ok" else f"DAMAGED ({self.integrity})"
        return f"{state}, {counts}, {version}, {verdict}"


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


async def inspect_storage(url: str | DatabaseUrl) -> Inspection:
    """Inspect the database `url` names, changing nothing.

    Raises `UnsupportedDatabaseUrl` for a URL no backend takes, `SchemaTooNew` for a database written by a
    newer bot, `StorageUnavailable` when it can neither be read nor created (the message says why).
    """
    parsed = parse_database_url(url) if isinstance(url, str) else url
    if isinstance(parsed, SqliteUrl):
        from bot.storage.sqlite.inspect import inspect_file

        return await inspect_file(parsed.path)
    raise UnsupportedDatabaseUrl(
        f"DATABASE_URL names PostgreSQL ({parsed.where}), which this version cannot open yet; use sqlite:///"
    )
