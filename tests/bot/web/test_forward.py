"""Forwarding the Activity to a Unix socket (bot/web/forward.py): an upstream aiohttp server on a socket, a front
server with `forward_to` on a TCP port, and a browser's requests through the front."""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import json
import logging
import shutil
import socket
import tempfile
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web
from multidict import CIMultiDictProxy
from yarl import URL

from bot.web.forward import BODY_LIMIT, UNAVAILABLE, forward_to
from bot.web.security import CSP, headers_middleware

TICKET = "Bearer ticket-that-must-never-be-logged"
UPSTREAM_CSP = "default-src 'none'; frame-ancestors https://discord.com"
WAIT = 10.0  # generous: each wait ends as soon as what it waits for happens


@dataclass
class Seen:
    method: str
    raw_path: str
    headers: CIMultiDictProxy[str]
    body: bytes


@dataclass
class Upstream:
    """The bot's side: what it was asked, and the live stream's moments for a test to wait on or to set."""

    seen: list[Seen] = field(default_factory=list)
    release: asyncio.Event = field(default_factory=asyncio.Event)  # the live stream's second event may go
    heartbeats: bool = False  # the live stream writes a comment every few milliseconds while it waits
    stream_ended: asyncio.Event = field(default_factory=asyncio.Event)  # the live stream's handler ended

    async def echo(self, request: web.Request) -> web.Response:
        body = await request.read()
        self.seen.append(Seen(request.method, request.raw_path, request.headers, body))
        return web.json_response({"seen": request.raw_path}, status=403, headers={
            "Content-Security-Policy": UPSTREAM_CSP, "Cache-Control": "no-store", "X-Upstream": "yes"})

    async def live(self, request: web.Request) -> web.StreamResponse:
        answer = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store"})
        try:
            await answer.prepare(request)
            await answer.write(b"data: first\n\n")
            while self.heartbeats and not self.release.is_set():
                await answer.write(b": heartbeat\n\n")
                await asyncio.sleep(0.01)
            await self.release.wait()
            await answer.write(b"data: second\n\n")
        except ConnectionError:
            pass  # a write after the front closed this connection: the end this stream's tests wait for
        finally:
            self.stream_ended.set()
        return answer

    async def cookie(self, request: web.Request) -> web.Response:
        answer = await self.echo(request)
        answer.set_cookie("member", "alice")
        return answer

    async def moved(self, request: web.Request) -> web.Response:
        await self.echo(request)
        raise web.HTTPFound("/activity/api/elsewhere")

    async def gzipped(self, request: web.Request) -> web.Response:
        return web.Response(body=gzip.compress(b"a board, compressed"),
                            headers={"Content-Encoding": "gzip", "Content-Type": "text/plain"})

    async def broken(self, request: web.Request) -> web.StreamResponse:
        answer = web.StreamResponse()
        await answer.prepare(request)
        await answer.write(b"half of an answer")
        assert request.transport is not None
        request.transport.close()  # the bot's process dies mid-answer
        return answer

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/activity/api/live", self.live)
        app.router.add_get("/activity/api/gzipped", self.gzipped)
        app.router.add_get("/activity/api/cookie", self.cookie)
        app.router.add_get("/activity/api/moved", self.moved)
        app.router.add_get("/activity/api/broken", self.broken)
        app.router.add_route("*", "/{tail:.*}", self.echo)
        return app


@pytest.fixture
def socket_path(tmp_path: Path) -> Iterator[Path]:
    """A path for the upstream's socket, short enough for one (under 108 bytes)."""
    if len(str(tmp_path)) < 80:
        yield tmp_path / "up.sock"
        return
    short = Path(tempfile.mkdtemp(dir="/tmp", prefix="fwd-"))
    yield short / "up.sock"
    shutil.rmtree(short, ignore_errors=True)


@pytest.fixture
async def upstream(socket_path: Path) -> AsyncIterator[Upstream]:
    """The upstream listening on `socket_path`; its handlers end when their client leaves (handler_cancellation)."""
    bot_side = Upstream()
    runner = web.AppRunner(bot_side.app(), handle_signals=False, access_log=None, shutdown_timeout=1.0,
                           handler_cancellation=True)
    await runner.setup()
    await web.UnixSite(runner, str(socket_path)).start()
    yield bot_side
    bot_side.release.set()
    await runner.cleanup()


@dataclass
class Browser:
    """A browser's session and the address of the front server it talks to."""

    session: aiohttp.ClientSession
    base: str

    def url(self, target: str) -> URL:
        return URL(self.base + target, encoded=True)  # exactly as written: no quoting of the query


@contextlib.asynccontextmanager
async def front(socket_path: Path, *, handler_cancellation: bool = False) -> AsyncIterator[Browser]:
    """The front server, run as the web pages' process runs it (bot/web/server.py), its app forwarding /activity
    to `socket_path` (and serving /healthz); and a browser on it."""

    async def healthz(request: web.Request) -> web.Response:
        return web.Response(text="ok")

    app = web.Application(middlewares=[headers_middleware()])
    app.router.add_get("/healthz", healthz)
    forward_to(app, "/activity", socket_path)
    runner = web.AppRunner(app, handle_signals=False, access_log=None, shutdown_timeout=1.0,
                           handler_cancellation=handler_cancellation)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    try:
        async with aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) as session:  # it sends none back
            yield Browser(session, f"http://127.0.0.1:{port}")
    finally:
        await runner.cleanup()


@pytest.fixture
async def browser(upstream: Upstream, socket_path: Path) -> AsyncIterator[Browser]:
    async with front(socket_path) as client:
        yield client


async def test_a_get_passes_with_its_query_and_the_answer_comes_back_whole(
    browser: Browser, upstream: Upstream
) -> None:
    target = "/activity/api/game?channel=12&x=a%20b+c&x=%2F&empty="
    async with browser.session.get(browser.url(target), headers={
        "Authorization": TICKET, "Host": "app.discordsays.example", "X-Forwarded-For": "203.0.113.9",
    }) as answer:
        assert answer.status == 403
        assert answer.headers["Content-Security-Policy"] == UPSTREAM_CSP  # not the front app's CSP
        assert answer.headers["Cache-Control"] == "no-store" and answer.headers["X-Upstream"] == "yes"
        assert await answer.json() == {"seen": target}
    [seen] = upstream.seen
    assert (seen.method, seen.raw_path, seen.body) == ("GET", target, b"")
    assert seen.headers["Authorization"] == TICKET
    assert seen.headers["Host"] == "app.discordsays.example"
    assert seen.headers["X-Forwarded-For"] == "203.0.113.9, 127.0.0.1"


async def test_a_post_passes_its_json_body_and_end_to_end_headers_only(browser: Browser, upstream: Upstream) -> None:
    body = json.dumps({"game_id": 7, "seq": 3, "move": "a1"}).encode()
    async with browser.session.post(browser.url("/activity/api/move"), data=body, headers={
        "Authorization": TICKET, "Content-Type": "application/json", "Proxy-Authorization": "Basic c2VjcmV0",
        "Connection": "keep-alive, X-Hop", "X-Hop": "this connection only", "TE": "trailers",
    }) as answer:
        assert answer.status == 403
    [seen] = upstream.seen
    assert (seen.method, seen.raw_path, seen.body) == ("POST", "/activity/api/move", body)
    assert seen.headers["Authorization"] == TICKET and seen.headers["Content-Type"] == "application/json"
    assert seen.headers["Content-Length"] == str(len(body))
    for hop in ("Proxy-Authorization", "X-Hop", "TE"):
        assert hop not in seen.headers


@pytest.mark.parametrize("path", ["/activity", "/activity/", "/activity/static/app.js"])
async def test_the_prefix_and_all_under_it_pass(browser: Browser, upstream: Upstream, path: str) -> None:
    async with browser.session.delete(browser.url(path)) as answer:
        assert answer.status == 403
    assert [(seen.method, seen.raw_path) for seen in upstream.seen] == [("DELETE", path)]


@pytest.mark.parametrize("path", ["/activityx", "/other/activity/api", "/"])
async def test_a_path_outside_the_prefix_is_not_forwarded(browser: Browser, upstream: Upstream, path: str) -> None:
    async with browser.session.get(browser.url(path)) as answer:
        assert answer.status == 404
        assert answer.headers["Content-Security-Policy"] == CSP  # the front app's own answer
    assert upstream.seen == []


async def test_a_cookie_goes_to_the_browser_and_never_into_the_next_request(
    browser: Browser, upstream: Upstream
) -> None:
    for _ in range(2):
        async with browser.session.get(browser.url("/activity/api/cookie")) as answer:
            assert answer.cookies["member"].value == "alice"
    assert [seen.headers.get("Cookie") for seen in upstream.seen] == [None, None]


async def test_a_redirect_goes_to_the_browser_unfollowed(browser: Browser, upstream: Upstream) -> None:
    async with browser.session.get(browser.url("/activity/api/moved"), allow_redirects=False) as answer:
        assert answer.status == 302 and answer.headers["Location"] == "/activity/api/elsewhere"
    assert [seen.raw_path for seen in upstream.seen] == ["/activity/api/moved"]


async def test_a_compressed_body_passes_unchanged(browser: Browser, upstream: Upstream) -> None:
    async with browser.session.get(browser.url("/activity/api/gzipped"), auto_decompress=False) as answer:
        assert answer.headers["Content-Encoding"] == "gzip"
        assert await answer.read() == gzip.compress(b"a board, compressed")


async def test_a_live_event_reaches_the_browser_before_the_stream_ends(browser: Browser, upstream: Upstream) -> None:
    async with browser.session.get(browser.url("/activity/api/live")) as answer:
        assert answer.status == 200 and answer.headers["Content-Type"] == "text/event-stream"
        assert "Content-Security-Policy" not in answer.headers  # the upstream set none, and nothing is added
        first = await asyncio.wait_for(answer.content.readuntil(b"\n\n"), WAIT)
        assert first == b"data: first\n\n"
        assert not upstream.release.is_set() and not upstream.stream_ended.is_set()
        upstream.release.set()
        assert await asyncio.wait_for(answer.content.read(), WAIT) == b"data: second\n\n"


@pytest.mark.parametrize(("heartbeats", "front_cancels"), [(False, False), (True, False), (False, True)],
                         ids=["quiet", "talking", "front-cancels-its-handlers"])
async def test_a_browser_that_leaves_mid_stream_frees_the_upstream(
    upstream: Upstream, socket_path: Path, heartbeats: bool, front_cancels: bool, caplog: pytest.LogCaptureFixture
) -> None:
    upstream.heartbeats = heartbeats
    async with front(socket_path, handler_cancellation=front_cancels) as browser:
        answer = await browser.session.get(browser.url("/activity/api/live"))
        assert await asyncio.wait_for(answer.content.readuntil(b"\n\n"), WAIT) == b"data: first\n\n"
        answer.close()  # the member closes the Activity
        await asyncio.wait_for(upstream.stream_ended.wait(), WAIT)
    assert not upstream.release.is_set()
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []


async def test_an_upstream_that_breaks_off_does_not_look_finished(browser: Browser, upstream: Upstream) -> None:
    async with browser.session.get(browser.url("/activity/api/broken")) as answer:
        with pytest.raises(aiohttp.ClientPayloadError):
            await asyncio.wait_for(answer.read(), WAIT)


@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
async def test_a_body_over_the_limit_is_refused_and_never_forwarded(
    browser: Browser, upstream: Upstream, chunked: bool
) -> None:
    big = b"x" * (BODY_LIMIT + 1)

    async def pieces() -> AsyncIterator[bytes]:
        for start in range(0, len(big), 4096):
            yield big[start:start + 4096]

    async with browser.session.post(browser.url("/activity/api/move"), data=pieces() if chunked else big) as answer:
        assert answer.status == 413
        text = await answer.text()
    assert text.endswith("\n") and text.count("\n") == 1 and "64 KiB" in text
    assert upstream.seen == []


async def test_a_body_at_the_limit_passes(browser: Browser, upstream: Upstream) -> None:
    async with browser.session.post(browser.url("/activity/api/move"), data=b"x" * BODY_LIMIT) as answer:
        assert answer.status == 403
    assert [len(seen.body) for seen in upstream.seen] == [BODY_LIMIT]


def refusing_socket(path: Path) -> socket.socket:
    """A socket file that nothing accepts on: a bot's process that died and left it behind."""
    bound = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    bound.bind(str(path))
    return bound


@pytest.mark.parametrize("left_behind", [False, True], ids=["missing", "refused"])
async def test_no_upstream_is_a_502_in_one_line_and_a_warning_without_secrets(
    socket_path: Path, left_behind: bool, caplog: pytest.LogCaptureFixture
) -> None:
    with contextlib.ExitStack() as stack:
        if left_behind:
            stack.enter_context(refusing_socket(socket_path))
        async with front(socket_path) as browser:
            with caplog.at_level(logging.DEBUG):
                async with browser.session.post(browser.url("/activity/api/move"), data=b"{}",
                                                headers={"Authorization": TICKET}) as answer:
                    status, text = answer.status, await answer.text()
    assert status == 502
    assert text == UNAVAILABLE and text.count("\n") == 1
    warnings = [r for r in caplog.records if r.name == "bot.web.forward" and r.levelno == logging.WARNING]
    assert len(warnings) == 1 and warnings[0].exc_info is None
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert "ticket-that-must-never-be-logged" not in caplog.text
