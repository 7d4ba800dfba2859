"""The errors of the storage layer, the same for every backend.

A backend turns its driver's exceptions into these before they leave `bot/storage/`, so no caller ever
catches `sqlite3.Error` or `asyncpg.PostgresError`. Two families:
- refusals of the request itself (no such game, an event number already taken, a game in the wrong state):
  the caller's view is wrong and retrying the same call cannot help;
- `StorageUnavailable`: the database could not do its job right now (disk full, server unreachable or
  restarting, a lock held too long). Nothing was written; the same call may succeed in a moment.
"""

from __future__ import annotations

from typing import Literal

# Why the database could not do its job (StorageUnavailable.reason), a stable code for logs and tests.
UnavailableReason = Literal[
    "disk_full",  # no space left for the write (or the database reached its size limit)
    "unreachable",  # no connection: server down, restarting, refusing connections, network gone
    "busy",  # a lock or statement timeout: other writers held the database too long
    "read_only",  # the file or server accepts no writes (permissions, read-only mount, hot standby)
    "io",  # the operating system failed to read or write the file
    "damaged",  # the database file is corrupt or not a database
]


class StorageError(Exception):
    """Base of every error the storage layer raises."""


class StorageUnavailable(StorageError):
    """The database could not complete the call now (disk full, unreachable, restarting, lock timeout).

    The transaction was rolled back: nothing of the call was stored. `reason` is a short code for logs (see
    `UnavailableReason`); the message never contains a password.
    """

    def __init__(self, message: str, *, reason: UnavailableReason) -> None:
        super().__init__(message)
        self.reason = reason


class ConstraintViolation(StorageError):
    """The database refused a write that breaks one of its constraints (a bug in the caller or the backend)."""


class UnsupportedDatabaseUrl(StorageError, ValueError):
    """DATABASE_URL names no backend this bot has, or is malformed."""


class SchemaTooNew(StorageError):
    """The database was migrated by a newer version of the bot than this one."""


class SchemaTooOld(StorageError):
    """The database needs migrating first, and it was opened read-only (e.g. as the source of copy-data)."""


class GameNotFound(StorageError):
    """No game has this id."""


class GameStateError(StorageError):
    """The game is not in a state that allows this (e.g. a move in a finished game)."""


class DuplicateEvent(StorageError):
    """An event with this sequence number is already recorded: somebody else acted first."""


class EventGap(StorageError):
    """The event's sequence number skips ahead of the log; the caller's view of the game is stale."""


class UnknownEventKind(StorageError, ValueError):
    """The event kind is not one the log accepts."""


class InvalidSeat(StorageError, ValueError):
    """A seat name or occupant that cannot be stored."""


class PlayerInOpenGame(StorageError):
    """forget-me refused: the player still sits in a lobby or running game."""


class TournamentNotFound(StorageError):
    """No tournament has this id."""


class TournamentStateError(StorageError):
    """The tournament is not in a state that allows this (e.g. joining one that has started)."""


class AlreadyEntered(StorageError):
    """The player is already an entrant of this tournament."""


class SeasonNotFound(StorageError):
    """The server has no closed season with this number."""


class ShardsTaken(StorageError):
    """claim_shards refused: another live process holds one of these shards (or runs another SHARD_COUNT, or
    uses this SQLite file). The message is one line saying which, and what to change."""


class ShardNotHeld(StorageError):
    """A write to a game or tournament of a server on a shard this process does not hold (any more): another
    process owns it, and nothing was written."""


class HostLimitReached(StorageError):
    """create_game refused: the host already hosts `limit` open lobbies or games (in any process)."""

    def __init__(self, message: str, *, limit: int) -> None:
        super().__init__(message)
        self.limit = limit
