"""The SQLite backend: one file in WAL mode, a writer and a reader connection.

Writes go through one connection under an asyncio.Lock, each in a BEGIN IMMEDIATE transaction that also
excludes writers in other processes (they wait up to the busy timeout); reads use a second, read-only
connection, so they never wait for a write. Every sqlite3 error leaves as a `bot.storage.errors` error.
"""

from __future__ import annotations

import asyncio
import errno
import fcntl
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

import aiosqlite

from bot.storage.changes import ChangeFeed, OnChange, OnResync
from bot.storage.errors import ShardsTaken, StorageUnavailable, UnavailableReason
from bot.storage.shards import Shards
from bot.storage.sql import migrations
from bot.storage.sql.leases import put_leases
from bot.storage.sql.port import SQLITE, Clock, Row, Transaction
from bot.storage.sqlite import schema
from bot.storage.sqlite.connection import SqliteTransaction, run
from bot.storage.sqlite.errors import translate

BUSY_TIMEOUT_MS = 5000
_OS_REASONS: dict[int, UnavailableReason] = {
    errno.ENOSPC: "disk_full", errno.EDQUOT: "disk_full", errno.EACCES: "read_only", errno.EPERM: "read_only",
    errno.EROFS: "read_only",
}


def _prepare_file(path: Path, read_only: bool) -> int:
    """Create the directory and file, switch to WAL and migrate (runs in a worker thread); return the
    schema version. A read-only open creates and migrates nothing: the file must exist at the latest version."""
    if read_only:
        if not path.is_file():
            raise StorageUnavailable(f"there is no database file at {path.absolute()}", reason="io")
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)
        try:
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        finally:
            conn.close()
        migrations.check_current(version, schema.LATEST_VERSION)
        return version
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
        conn.execute("PRAGMA foreign_keys = ON")
        # WAL is persistent in the file; readers never block the writer and vice versa.
        conn.execute("PRAGMA journal_mode = WAL")
        return schema.migrate_sync(conn)
    finally:
        conn.close()


async def open_database(
    path: Path, *, clock: Clock = time.time, busy_timeout_ms: int = BUSY_TIMEOUT_MS, read_only: bool = False
) -> SqliteDatabase:
    """Open (creating directory and file on first start) and migrate the database at `path`.

    `StorageUnavailable` when the file cannot be created, opened or migrated (permissions, a full disk, not
    a database); `SchemaTooNew` when a newer bot wrote it. `read_only` opens an existing file as it is (no
    migration; `SchemaTooOld` if it needs one) and refuses every write.
    """
    try:
        return await _open(path, clock, busy_timeout_ms, read_only)
    except sqlite3.Error as exc:
        raise translate(exc) from exc
    except OSError as exc:
        reason = _OS_REASONS.get(exc.errno or 0, "io")
        raise StorageUnavailable(
            f"{exc.strerror or exc} (check that the directory is writable by this user)", reason=reason
        ) from exc


async def _open(path: Path, clock: Clock, busy_timeout_ms: int, read_only: bool) -> SqliteDatabase:
    await asyncio.to_thread(_prepare_file, path, read_only)
    writer = await aiosqlite.connect(path, isolation_level=None)
    reader = await aiosqlite.connect(path, isolation_level=None)
    for conn in (writer, reader):
        conn.row_factory = sqlite3.Row
        await run(conn, f"PRAGMA busy_timeout = {busy_timeout_ms:d}")
        await run(conn, "PRAGMA foreign_keys = ON")
        # FULL, not NORMAL: in WAL mode NORMAL already survives a crash of this process, but a commit may
        # be lost on power failure. We answer "your move is in" only after the commit, so the fsync per
        # commit is the price of keeping that promise; moves are rare enough that it costs nothing visible.
        await run(conn, "PRAGMA synchronous = FULL")
    await run(reader, "PRAGMA query_only = ON")
    if read_only:
        await run(writer, "PRAGMA query_only = ON")
    return SqliteDatabase(path, writer, reader, clock, read_only=read_only)


# Lock files this process holds: path -> (descriptor, databases using it). One opened again in the same
# process (a bot restarted in place, as the tests do) shares the lock; the latest claim holds the leases.
_HELD: dict[str, tuple[int, int]] = {}


def _lock_file(path: Path) -> str:
    """Hold an exclusive flock on `path` for this process (released by `_unlock_file` or the process's end,
    SIGKILL included); ShardsTaken when another process holds it. Returns the key to release it with."""
    key = os.path.realpath(path)
    if key in _HELD:
        fd, users = _HELD[key]
        _HELD[key] = (fd, users + 1)
        return key
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise StorageUnavailable(f"cannot create the lock file {path}: {exc.strerror or exc}", reason="io") from exc
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise ShardsTaken(
            f"another bot process is using the SQLite database {path.with_suffix('')} (it holds {path}); a SQLite "
            "file serves one process: stop the other one, or move to PostgreSQL to run several (docs/OPERATIONS.md, "
            "Scaling)"
        ) from None
    _HELD[key] = (fd, 1)
    return key


def _unlock_file(key: str) -> None:
    fd, users = _HELD[key]
    if users > 1:
        _HELD[key] = (fd, users - 1)
        return
    del _HELD[key]
    os.close(fd)  # closing the descriptor releases the lock


class SqliteDatabase:
    """One SQLite file, open. Create with `open_database`; one per process."""

    dialect = SQLITE

    def __init__(
        self,
        path: Path,
        writer: aiosqlite.Connection,
        reader: aiosqlite.Connection,
        clock: Clock,
        *,
        read_only: bool = False,
    ) -> None:
        self.clock = clock
        self.path = path
        self.read_only = read_only
        self._writer = writer
        self._reader = reader
        self._write_lock = asyncio.Lock()
        self._read_lock = asyncio.Lock()
        self._closed = False
        self._process_lock: str | None = None  # the key of lock_path in _HELD, once claimed

    @property
    def lock_path(self) -> Path:
        """The file a bot process holds locked while it uses this database (beside it: puluc.db.lock)."""
        return self.path.with_name(self.path.name + ".lock")

    async def claim_shards(self, shards: Shards, owner: str) -> None:
        """Make this process the database's one bot process (a lock on `lock_path`, held until `close` or the
        process's end, however it ends) and `owner` the holder of `shards`. ShardsTaken when another process
        holds it: SQLite serves one bot process, whatever its shards. A second database opened in the same
        process takes the leases over (a bot restarted in place)."""
        if self._process_lock is None:
            self._process_lock = _lock_file(self.lock_path)
        async with self.write() as tx:
            await tx.execute("DELETE FROM shard_leases")  # the leases of processes that ran before this one
            await put_leases(tx, shards, owner, self.clock())

    @property
    def where(self) -> str:
        """The database file's absolute path."""
        return str(self.path.absolute())

    async def watch(self, on_change: OnChange, on_resync: OnResync) -> ChangeFeed | None:
        """None: only this process writes the file, and it tells its own listeners."""
        return None

    async def close(self) -> None:
        """Refresh the planner's statistics where they went stale, then close both connections (a second
        close does nothing)."""
        try:
            if not self.read_only and not self._closed:
                # In a write transaction of its own: ANALYZE writes, and a read that turns into a write while
                # another process writes fails at once instead of waiting out the busy timeout.
                async with self.write() as tx:
                    await tx.execute("PRAGMA optimize")
        finally:
            async with self._write_lock, self._read_lock:
                if not self._closed:
                    self._closed = True
                    await self._reader.close()
                    await self._writer.close()
                if self._process_lock is not None:
                    _unlock_file(self._process_lock)
                    self._process_lock = None

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Transaction]:
        """One write transaction; a driver error anywhere in it (COMMIT included) rolls it back and leaves
        as a `StorageError` (a full disk or a lock timeout as `StorageUnavailable`)."""
        async with self._write_lock:
            try:
                # BEGIN IMMEDIATE goes to the connection's thread with the first statement (one hand-over less).
                tx = SqliteTransaction(self._writer, begin="BEGIN IMMEDIATE")
                try:
                    yield tx
                    if tx.begun:
                        await run(self._writer, "COMMIT")
                except BaseException:
                    # Shielded so a cancelled task still rolls back before the lock is released (a failed
                    # COMMIT may already have ended the transaction, e.g. SQLITE_FULL rolls back by itself).
                    if self._writer.in_transaction:
                        await asyncio.shield(run(self._writer, "ROLLBACK"))
                    raise
            except sqlite3.Error as exc:
                raise translate(exc) from exc

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Transaction]:
        """A read transaction: several SELECTs that see one consistent snapshot."""
        async with self._read_lock:
            try:
                await run(self._reader, "BEGIN")
                try:
                    yield SqliteTransaction(self._reader)
                finally:
                    await asyncio.shield(run(self._reader, "COMMIT"))
            except sqlite3.Error as exc:
                raise translate(exc) from exc

    async def fetch(self, sql: str, *args: object) -> Sequence[Row]:
        """One statement on the reader, in autocommit: its own snapshot, without BEGIN and COMMIT around it."""
        async with self._read_lock:
            return await SqliteTransaction(self._reader).fetch(sql, *args)

    # --- health ------------------------------------------------------------------------------------------

    async def engine_problems(self) -> list[str]:
        """SQLite's verdict on the file and its foreign keys."""
        async with self.read() as tx:
            rows = await tx.fetch("PRAGMA integrity_check")
            fk = await tx.fetch("PRAGMA foreign_key_check")
        problems = [str(row[0]) for row in rows if row[0] != "ok"]
        return problems + [f"foreign key broken in {row[0]} row {row[1]}" for row in fk]

    async def schema_version(self) -> int:
        async with self.read() as tx:
            row = await tx.fetchrow("PRAGMA user_version")
        assert row is not None
        return int(row[0])

    async def after_bulk_load(self, tx: Transaction) -> None:
        """Nothing to do: SQLite's next rowid follows the largest one stored."""
