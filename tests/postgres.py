"""PostgreSQL for tests: a fresh, empty schema per test on the server `PULUC_TEST_POSTGRES_URL` names.

    async with fresh_schema("bugs") as url:      # url = DATABASE_URL whose search_path is the new schema
        storage = await open_storage(url)

The `postgres_url` fixture (tests/conftest.py) does this for one test. Schemas are named `<prefix>_test_<random>`
and dropped afterwards, so tests never touch what others keep in the database. `TcpProxy` stands between the
bot and the server, to stop and start "the server" (or cut a connection at a COMMIT) without touching the
shared one; `through(url, proxy)` is the DATABASE_URL that reaches the server through it.
When the server cannot be reached the test is skipped with one reason that says how to point it at one,
unless `PULUC_REQUIRE_POSTGRES=1` (set by .ci/run), which makes that a failure instead.
"""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import NoReturn
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import asyncpg
import pytest

from bot.storage.urls import PostgresUrl, parse_database_url

URL_VARIABLE = "PULUC_TEST_POSTGRES_URL"
REQUIRE_VARIABLE = "PULUC_REQUIRE_POSTGRES"
DEFAULT_URL = "postgresql://postgres@127.0.0.1:5432/test"
_unreachable: dict[str, str | None] = {}  # server URL -> why it cannot be used (None: it can), per test run


def server_url() -> str:
    return os.environ.get(URL_VARIABLE) or DEFAULT_URL


def where(url: str) -> str:
    parsed = parse_database_url(url)
    assert isinstance(parsed, PostgresUrl), f"{URL_VARIABLE} must be a postgresql:// URL"
    return parsed.where


def with_schema(url: str, schema: str) -> str:
    """`url` with its search_path set to `schema` (asyncpg sends unknown URL parameters as server settings)."""
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k != "search_path"] + [("search_path", schema)]
    return urlunsplit(parts._replace(query=urlencode(query)))


def unavailable(reason: str) -> NoReturn:
    """Skip the test for want of PostgreSQL, or fail it when PostgreSQL is required."""
    message = (
        f"PostgreSQL is not reachable at {where(server_url())} ({reason}); set {URL_VARIABLE} to a server "
        "where this user may create schemas"
    )
    if os.environ.get(REQUIRE_VARIABLE) == "1":
        pytest.fail(f"{message} ({REQUIRE_VARIABLE}=1)", pytrace=False)
    pytest.skip(message)


async def _check_server(url: str) -> str | None:
    try:
        conn = await asyncpg.connect(url, timeout=3)
    except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
        return f"{type(exc).__name__}: {exc}"
    await conn.close()
    return None


def through(url: str, proxy: TcpProxy) -> str:
    """`url`, reaching its server through `proxy` (started)."""
    parts = urlsplit(url)
    auth = f"{parts.username}@" if parts.username else ""
    return urlunsplit(parts._replace(netloc=f"{auth}127.0.0.1:{proxy.port}"))


async def admin_connection() -> asyncpg.Connection:
    """A plain connection to the test server (skips or fails the test when there is none)."""
    url = server_url()
    if url not in _unreachable:
        _unreachable[url] = await _check_server(url)
    reason = _unreachable[url]
    if reason is not None:
        unavailable(reason)
    return await asyncpg.connect(url, timeout=10)


@asynccontextmanager
async def fresh_schema(prefix: str = "storage") -> AsyncIterator[str]:
    """A new empty schema on the test server, as a DATABASE_URL; dropped with everything in it afterwards."""
    schema = f"{prefix}_test_{secrets.token_hex(6)}"
    admin = await admin_connection()
    try:
        await admin.execute(f'CREATE SCHEMA "{schema}"')
        try:
            yield with_schema(server_url(), schema)
        finally:
            await admin.execute(f'DROP SCHEMA "{schema}" CASCADE')
    finally:
        await admin.close()


class TcpProxy:
    """Forwards 127.0.0.1:`port` to the PostgreSQL server; can go down, come back, and cut at a COMMIT."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.port = 0
        self._server: asyncio.Server | None = None
        self._links: set[tuple[asyncio.StreamWriter, asyncio.StreamWriter]] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        # Once a client sends these bytes, the server's answer to them is held back and every connection cut.
        self.cut_at: bytes | None = None

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", self.port, reuse_address=True)
        self.port = self._server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        assert self._server is not None
        self._server.close()
        self._cut()

    async def close(self) -> None:
        if self._server is not None and self._server.is_serving():
            await self.stop()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._server is not None:
            await self._server.wait_closed()

    def _cut(self) -> None:
        for client, server in list(self._links):
            client.transport.abort()
            server.transport.abort()
        self._links.clear()

    def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.get_running_loop().create_task(self._link(reader, writer))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _link(self, client_reader: asyncio.StreamReader, client: asyncio.StreamWriter) -> None:
        try:
            server_reader, server = await asyncio.open_connection(*self.target)
        except OSError:
            client.transport.abort()
            return
        link = (client, server)
        self._links.add(link)
        sent_cut_at = asyncio.Event()  # this client sent `cut_at`: the server's next answer is never delivered
        await asyncio.gather(self._upstream(client_reader, server, sent_cut_at),
                             self._downstream(server_reader, client, sent_cut_at), return_exceptions=True)
        self._links.discard(link)
        for writer in link:
            writer.transport.abort()

    async def _upstream(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, sent_cut_at: asyncio.Event
                        ) -> None:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
            if self.cut_at is not None and self.cut_at in data:
                self.cut_at = None
                sent_cut_at.set()
        writer.close()  # one side hung up: so does the proxy towards the other

    async def _downstream(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                          sent_cut_at: asyncio.Event) -> None:
        while data := await reader.read(65536):
            if sent_cut_at.is_set():
                # The server answered the COMMIT (so it has committed); the client never hears back.
                self._cut()
                return
            writer.write(data)
            await writer.drain()
        writer.close()
