"""Schema versions: each backend numbers its migrations 1, 2, ... and records the version in the database.

A database newer than the code is refused (the bot would misread it); a read-only open (the source of
copy-data) also refuses an older one, since migrating it would change it. Must never import a driver.
"""

from __future__ import annotations

from bot.storage.errors import SchemaTooNew, SchemaTooOld


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
