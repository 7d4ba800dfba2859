"""PostgreSQL for tests: a fresh, empty schema per test on the server `PULUC_TEST_POSTGRES_URL` names.

    async with fresh_schema("bugs") as url:      # url = DATABASE_URL whose search_path is the new schema
        storage = await open_storage(url)

The `postgres_url` fixture (tests/conftest.py) does this for one test. Schemas are named
`<prefix>_test_<random>` and dropped afterwards, so tests never touch what others keep in the database.
When the server cannot be reached the test is skipped with one reason that says how to point it at one,
unless `PULUC_REQUIRE_POSTGRES=1` (set by .ci/run), which makes that a failure instead.
"""

from __future__ import annotations

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
