"""Schema migrations: each backend keeps numbered .sql files (`migrations/001_*.sql`, ...) and records the version.

Migration N takes a database at version N - 1 to version N and is never edited once released: a change is a
new file. A database newer than the code is refused (the bot would misread it); a read-only open (the source of
copy-data) also refuses an older one, since migrating it would change it.
"""

from __future__ import annotations

from importlib import resources

from bot.storage.errors import SchemaTooNew, SchemaTooOld


def load(package: str) -> tuple[str, ...]:
    """The scripts of `package`'s migrations folder in order: file N - 1 of the tuple takes a database to version N."""
    folder = resources.files(package) / "migrations"
    found = sorted((int(f.name.partition("_")[0]), f) for f in folder.iterdir() if f.name.endswith(".sql"))
    numbers = [number for number, _ in found]
    if numbers != list(range(1, len(found) + 1)):
        raise RuntimeError(f"{package}'s migrations are numbered {numbers}, not 1, 2, ... without a gap")
    return tuple(f.read_text(encoding="utf-8") for _, f in found)


def check_version(version: int, latest: int) -> None:
    """Refuse a database from the future with a message that says what to do."""
    if version > latest:
        raise SchemaTooNew(
            f"the database is at schema version {version}, but this bot knows only up to {latest}; upgrade "
            "the bot (or restore a matching backup) before starting it"
        )


def check_current(version: int, latest: int) -> None:
    """Refuse, for a read-only open, a database that is not at exactly this bot's schema version."""
    check_version(version, latest)
    if version < latest:
        raise SchemaTooOld(
            f"the database is at schema version {version} and needs migrating to {latest}; start the bot on "
            "it once (it migrates on start-up), then try again"
        )
