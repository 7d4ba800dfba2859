"""Hearing other processes' writes: a connection of its own that LISTENs to `bot.storage.changes`' channels.

When the connection drops (a restart of PostgreSQL, a network cut) it reconnects with growing pauses and then
calls `on_resync`, since notifications sent meanwhile are lost: the listener reloads whatever it shows.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import asyncpg

from bot.storage.changes import GAMES_CHANNEL, TOURNAMENTS_CHANNEL, OnChange, OnResync, parse_change
from bot.storage.postgres.errors import DRIVER_ERRORS
from bot.storage.urls import PostgresUrl

log = logging.getLogger(__name__)

CONNECT_TIMEOUT_S = 10.0
RETRY_FIRST_S = 0.5
RETRY_MAX_S = 15.0
CHANNELS = (GAMES_CHANNEL, TOURNAMENTS_CHANNEL)
RECONNECT_ERRORS: tuple[type[BaseException], ...] = (OSError, TimeoutError, *DRIVER_ERRORS)


class PostgresChangeFeed:
    """LISTEN on one dedicated connection, reconnecting until `close`."""

    def __init__(self, url: PostgresUrl, on_change: OnChange, on_resync: OnResync,
                 server_settings: dict[str, str]) -> None:
        self._url = url
        self._on_change = on_change
        self._on_resync = on_resync
        # LISTEN is refused in a read-only transaction: a read-only storage (puluc-bot web) still listens.
        settings = {k: v for k, v in server_settings.items() if k != "default_transaction_read_only"}
        self._settings = {**settings, "application_name": "puluc-bot change feed"}
        self._lost = asyncio.Event()
        self._conn: asyncpg.Connection | None = None
        self._task: asyncio.Task[None] | None = None
        self.connected = asyncio.Event()

    async def start(self) -> None:
        """Connect and LISTEN once (raising the driver's error when that fails), then keep it up in a task."""
        await self._connect()
        self._task = asyncio.get_running_loop().create_task(self._keep(), name="puluc-change-feed")

    async def _connect(self) -> None:
        conn = await asyncpg.connect(self._url.dsn, timeout=CONNECT_TIMEOUT_S, server_settings=self._settings)
        conn.add_termination_listener(self._terminated)
        for channel in CHANNELS:
            await conn.add_listener(channel, self._heard)
        self._conn = conn
        self._lost.clear()
        self.connected.set()

    def _heard(self, conn: Any, pid: int, channel: str, payload: str) -> None:
        change = parse_change(channel, payload)
        if change is None:
            log.warning("ignored a notification on %s that this bot does not send: %r", channel, payload[:80])
            return
        self._on_change(change)

    def _terminated(self, conn: Any) -> None:
        self.connected.clear()
        self._lost.set()

    async def _keep(self) -> None:
        while True:
            await self._lost.wait()
            log.warning("the change feed lost its PostgreSQL connection; reconnecting")
            pause = RETRY_FIRST_S
            while True:
                try:
                    await self._connect()
                    break
                except RECONNECT_ERRORS as exc:
                    log.warning("the change feed cannot reconnect yet (%s); trying again in %gs", exc, pause)
                    await asyncio.sleep(pause)
                    pause = min(pause * 2, RETRY_MAX_S)
            log.info("the change feed is listening again; reloading what it shows")
            try:
                await self._on_resync()
            except Exception:
                log.exception("reloading after the change feed reconnected failed")

    async def close(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        conn, self._conn = self._conn, None
        if conn is not None and not conn.is_closed():
            with contextlib.suppress(*DRIVER_ERRORS, OSError):
                await conn.close(timeout=2)
