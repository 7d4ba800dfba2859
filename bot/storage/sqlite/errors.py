"""sqlite3's exceptions in the storage layer's terms: every one leaves `bot/storage/sqlite/` as a `StorageError`.

SQLite reports why a call failed as a result code (`sqlite_errorcode`; the low byte is the primary code):
a full disk, a lock held past the busy timeout, a read-only file, an I/O failure or a damaged file become
`StorageUnavailable` (nothing of the call was stored; it may succeed later); a broken constraint becomes
`ConstraintViolation`; anything else (a bug in our SQL) becomes a plain `StorageError`.
"""

from __future__ import annotations

import sqlite3

from bot.storage.errors import ConstraintViolation, StorageError, StorageUnavailable, UnavailableReason

_UNAVAILABLE: dict[int, tuple[UnavailableReason, str]] = {
    sqlite3.SQLITE_FULL: ("disk_full", "the disk holding the database is full"),
    sqlite3.SQLITE_BUSY: ("busy", "the database stayed locked by another writer past the busy timeout"),
    sqlite3.SQLITE_LOCKED: ("busy", "the database table is locked"),
    sqlite3.SQLITE_READONLY: ("read_only", "the database file is read-only"),
    sqlite3.SQLITE_PERM: ("read_only", "the database file may not be written"),
    sqlite3.SQLITE_IOERR: ("io", "reading or writing the database file failed"),
    sqlite3.SQLITE_CANTOPEN: ("io", "the database file cannot be opened"),
    sqlite3.SQLITE_NOMEM: ("io", "SQLite ran out of memory"),
    sqlite3.SQLITE_PROTOCOL: ("busy", "the database's lock protocol failed under contention"),
    sqlite3.SQLITE_CORRUPT: ("damaged", "the database file is damaged"),
    sqlite3.SQLITE_NOTADB: ("damaged", "the file is not a SQLite database"),
}


def primary_code(error: sqlite3.Error) -> int | None:
    """SQLite's primary result code of `error` (extended codes carry it in their low byte)."""
    code = getattr(error, "sqlite_errorcode", None)
    return None if code is None else code & 0xFF


def translate(error: sqlite3.Error) -> StorageError:
    """The storage error that stands for `error`; raise it `from error` to keep the driver's detail."""
    code = primary_code(error)
    if code in _UNAVAILABLE:
        reason, meaning = _UNAVAILABLE[code]
        return StorageUnavailable(f"{meaning} ({error})", reason=reason)
    if code == sqlite3.SQLITE_CONSTRAINT or isinstance(error, sqlite3.IntegrityError):
        return ConstraintViolation(f"the database refused the write: {error}")
    return StorageError(f"SQLite failed: {error}")
