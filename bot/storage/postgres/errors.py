"""asyncpg's exceptions in the storage layer's terms: every one leaves `bot/storage/postgres/` as a `StorageError`.

PostgreSQL says why a statement failed with a five-character SQLSTATE; a failure to reach the server at all
arrives as an OSError or a timeout. A lost, refusing, restarting or overloaded server becomes
`StorageUnavailable("unreachable")`, a full disk "disk_full", a lock or statement timeout (or a deadlock)
"busy", a read-only server "read_only"; a broken constraint becomes `ConstraintViolation`; anything else (a
bug in our SQL) a plain `StorageError`. Messages are the server's, which never include the password.
"""

from __future__ import annotations

import asyncpg

from bot.storage.errors import ConstraintViolation, StorageError, StorageUnavailable, UnavailableReason

# Exact SQLSTATEs first, then classes (the first two characters).
_BY_STATE: dict[str, tuple[UnavailableReason, str]] = {
    "57P01": ("unreachable", "the PostgreSQL server is shutting down"),
    "57P02": ("unreachable", "the PostgreSQL server crashed and is restarting"),
    "57P03": ("unreachable", "the PostgreSQL server is starting up or shutting down"),
    "57P04": ("unreachable", "the database was dropped"),
    "57014": ("busy", "a statement ran past the statement timeout"),
    "53300": ("unreachable", "the PostgreSQL server has too many connections"),
    "53100": ("disk_full", "the disk holding the PostgreSQL database is full"),
    "55P03": ("busy", "a row stayed locked past the lock timeout"),
    "40P01": ("busy", "two transactions deadlocked"),
    "40001": ("busy", "a concurrent transaction changed the same rows"),
    "25P03": ("busy", "the server ended a transaction left idle too long"),
    "25006": ("read_only", "the PostgreSQL server accepts no writes (read-only or a standby)"),
    "42501": ("read_only", "this database user may not do that (missing privileges)"),
    "3D000": ("unreachable", "the database does not exist"),
    "58030": ("io", "the PostgreSQL server failed to read or write a file"),
    "XX001": ("damaged", "the PostgreSQL server found damaged data"),
    "XX002": ("damaged", "the PostgreSQL server found a damaged index"),
}
_BY_CLASS: dict[str, tuple[UnavailableReason, str]] = {
    "08": ("unreachable", "the connection to PostgreSQL failed"),
    "28": ("unreachable", "PostgreSQL refused the login (user or password)"),
    "53": ("io", "the PostgreSQL server ran out of resources"),
}

# What a failure to reach the server looks like before (or instead of) any SQLSTATE.
DRIVER_ERRORS: tuple[type[BaseException], ...] = (
    asyncpg.PostgresError, asyncpg.InterfaceError, asyncpg.exceptions.InternalClientError, OSError, TimeoutError
)


def translate(error: BaseException) -> StorageError:
    """The storage error that stands for `error`; raise it `from error` to keep the driver's detail."""
    if isinstance(error, asyncpg.PostgresError):
        state = str(getattr(error, "sqlstate", "") or "")
        found = _BY_STATE.get(state) or _BY_CLASS.get(state[:2])
        if found is not None:
            reason, meaning = found
            return StorageUnavailable(f"{meaning} ({error})", reason=reason)
        if state.startswith("23"):
            return ConstraintViolation(f"the database refused the write: {error}")
        return StorageError(f"PostgreSQL failed: {error}")
    if isinstance(error, TimeoutError):
        return StorageUnavailable("PostgreSQL did not answer in time", reason="unreachable")
    if isinstance(error, OSError):
        return StorageUnavailable(f"cannot reach PostgreSQL ({error.strerror or error})", reason="unreachable")
    if isinstance(error, asyncpg.InterfaceError) and "closed" in str(error):
        return StorageUnavailable(f"the connection to PostgreSQL was closed ({error})", reason="unreachable")
    return StorageError(f"PostgreSQL client failed: {error}")
