"""Passing a path of the web server on to an aiohttp server on a Unix socket: the web pages' process forwards the
Discord Activity (`/activity`, bot/activity/routes.py) to the bot's process, where the Activity's games are
played, and streams each answer back as it comes (the Activity's live stream is Server-Sent Events, hours long).

What passes: the method, the request target exactly as it arrived (path and query), a body of up to BODY_LIMIT
bytes, and every end-to-end header (Host and Authorization among them; X-Forwarded-For gains the client's
address); back come the status, the end-to-end headers and the body, unchanged (never decompressed). Hop-by-hop
headers stop here, and so no WebSocket upgrade passes.

It must never log a header's value or a body (an Authorization header carries the member's ticket), never follow a
redirect, and never keep a cookie: one client session serves every member, so nothing of one request may stick to
the next.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import AsyncIterator

import aiohttp
from aiohttp import web
from multidict import CIMultiDict, CIMultiDictProxy
from yarl import URL

__all__ = ["BODY_LIMIT", "UNAVAILABLE", "forward_to"]

log = logging.getLogger(__name__)

# The Activity's requests are JSON of a few hundred bytes: anything near this is not one of them.
BODY_LIMIT = 64 * 1024
# The socket is on this machine: when it does not answer in this long, the bot's process is not serving it.
CONNECT_SECONDS = 5.0
# aiohttp tells a handler that its client left only when the handler writes, and a quiet live stream writes only
# at every heartbeat: so much longer may an upstream stream outlive the browser that opened it.
DISCONNECT_CHECK_SECONDS = 1.0

UNAVAILABLE = "The Activity is not available right now: try again in a moment.\n"
TOO_LARGE = f"Request body too large: the Activity takes {BODY_LIMIT // 1024} KiB at most.\n"

# RFC 9110, 7.6.1: headers about one connection, not the message. Content-Length too: aiohttp sets it for the
# body it sends, and an answer streamed back has none. Expect: the body is already read here (and aiohttp answered
# the browser's `100-continue` itself when it was read).
HOP_BY_HOP = frozenset({
    "connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "proxy-connection", "te", "trailer",
    "trailers", "transfer-encoding", "upgrade", "content-length",
})
REQUEST_ONLY = frozenset({"expect"})


def forward_to(app: web.Application, prefix: str, socket_path: str | os.PathLike[str]) -> None:
    """Mount on `app` (before it starts) routes for every method at `prefix` and everything under it (`prefix`,
    `prefix/`, `prefix/anything...`) that pass the request to the aiohttp server listening on the Unix socket
    `socket_path` and stream its answer back.

    The client session lives as long as `app` (its `cleanup_ctx`). An answer: the upstream's, or 413 for a body
    over BODY_LIMIT, or 502 (UNAVAILABLE, and a warning in the log) when nothing answers on the socket."""
    forwarder = _Forwarder(os.fspath(socket_path))
    app.cleanup_ctx.append(forwarder.session_lifetime)
    prefix = prefix.rstrip("/")
    app.router.add_route("*", prefix, forwarder.forward)
    app.router.add_route("*", prefix + "/{tail:.*}", forwarder.forward)


class _Forwarder:
    """One upstream socket and the client session that talks to it."""

    def __init__(self, socket_path: str) -> None:
        self.socket_path = socket_path
        self._session: aiohttp.ClientSession | None = None

    async def session_lifetime(self, app: web.Application) -> AsyncIterator[None]:
        # limit=0: every open live stream holds a connection for hours; aiohttp's default pool of 100 would make
        # the 101st member's requests wait for a slot, then fail as "not available".
        connector = aiohttp.UnixConnector(path=self.socket_path, limit=0)
        async with aiohttp.ClientSession(
            connector=connector,
            timeout=aiohttp.ClientTimeout(total=None, connect=CONNECT_SECONDS),
            auto_decompress=False,
            cookie_jar=aiohttp.DummyCookieJar(),
            # Only the browser's headers: none of aiohttp's own defaults added where the browser sent none.
            skip_auto_headers=("Accept", "Accept-Encoding", "User-Agent", "Content-Type"),
        ) as session:
            self._session = session
            try:
                yield
            finally:
                self._session = None

    async def forward(self, request: web.Request) -> web.StreamResponse:
        session = self._session
        if session is None:
            raise RuntimeError("forward_to's routes answered outside the lifetime of the application they are on")
        body = await _read_body(request)
        try:
            upstream = await session.request(
                request.method, _target(request), headers=_request_headers(request), data=body or None,
                allow_redirects=False)
        except (aiohttp.ClientError, TimeoutError) as exc:
            log.warning("the Activity is not available: %s %s not forwarded to %s (%s: %s)", request.method,
                        request.path, self.socket_path, type(exc).__name__, exc)
            raise web.HTTPBadGateway(text=UNAVAILABLE) from exc
        try:
            return await _relay(request, upstream)
        finally:
            upstream.release()  # back to the pool when read to its end, else closed


async def _read_body(request: web.Request) -> bytes:
    """The whole request body; 413 as soon as it is known to be over BODY_LIMIT (nothing more is read)."""
    if request.content_length is not None and request.content_length > BODY_LIMIT:
        raise web.HTTPRequestEntityTooLarge(BODY_LIMIT, request.content_length, text=TOO_LARGE)
    body = bytearray()
    while chunk := await request.content.readany():
        body += chunk
        if len(body) > BODY_LIMIT:  # chunked: no Content-Length said so beforehand
            raise web.HTTPRequestEntityTooLarge(BODY_LIMIT, len(body), text=TOO_LARGE)
    return bytes(body)


def _target(request: web.Request) -> URL:
    """The upstream URL of `request`: its target as it came, so the upstream routes it as this server did."""
    raw = request.raw_path
    if not raw.startswith("/"):  # the absolute form (`GET http://host/path`), which only proxies are sent
        raw = request.rel_url.raw_path_qs
    return URL(f"http://localhost{raw}", encoded=True)


def _request_headers(request: web.Request) -> CIMultiDict[str]:
    headers = _end_to_end(request.headers, REQUEST_ONLY)
    chain = [*headers.popall("X-Forwarded-For", ()), *([request.remote] if request.remote else [])]
    if chain:
        headers["X-Forwarded-For"] = ", ".join(chain)
    return headers


def _end_to_end(headers: CIMultiDictProxy[str], also: frozenset[str] = frozenset()) -> CIMultiDict[str]:
    """`headers` less the hop-by-hop ones: those of HOP_BY_HOP and `also`, and those its Connection header names."""
    named = {token.strip().lower() for value in headers.getall("Connection", ()) for token in value.split(",")}
    dropped = HOP_BY_HOP | also | named
    return CIMultiDict((name, value) for name, value in headers.items() if name.lower() not in dropped)


async def _relay(request: web.Request, upstream: aiohttp.ClientResponse) -> web.StreamResponse:
    """Send the upstream's answer on as it comes, each chunk at once (a Server-Sent Event must not wait for the
    next). Ends quietly when the browser goes away, closing the upstream's answer; cuts the browser's connection
    when the upstream breaks off, so that an unfinished answer never looks finished."""
    # Prepared with the upstream's headers, the answer is past every middleware's defaults (security.py).
    answer = web.StreamResponse(status=upstream.status, reason=upstream.reason, headers=_end_to_end(upstream.headers))
    try:
        await answer.prepare(request)
        while True:
            try:
                chunk = await _next_chunk(request, upstream.content)
            except aiohttp.ClientError as exc:
                log.warning("the Activity broke off its answer to %s %s (%s: %s)", request.method, request.path,
                            type(exc).__name__, exc)
                upstream.close()
                if request.transport is not None:
                    request.transport.abort()
                return answer
            if not chunk:
                return answer
            await answer.write(chunk)
    except ConnectionError:
        log.debug("the browser left %s %s before its answer ended", request.method, request.path)
        upstream.close()
        return answer


async def _next_chunk(request: web.Request, content: aiohttp.StreamReader) -> bytes:
    """The upstream's next bytes as soon as they come, b"" at their end; ConnectionResetError when the browser has
    gone meanwhile (looked at every DISCONNECT_CHECK_SECONDS while the upstream says nothing)."""
    while True:
        try:
            async with asyncio.timeout(DISCONNECT_CHECK_SECONDS):
                return await content.readany()
        except TimeoutError:
            if request.transport is None:
                raise ConnectionResetError("the browser went away") from None
