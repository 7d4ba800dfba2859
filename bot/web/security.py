"""What every answer of the web server carries and what every request must pass: security headers, and rate
limits per client address (requests per minute, open live streams at once).

The pages run no inline script and load nothing from elsewhere (the Content-Security-Policy says so); they may
be framed only by Discord (the Activity of a later release: https://discord.com and *.discordsays.com). No
cookie is ever set. A client over its limit gets 429 with Retry-After, and nothing is read for it.
"""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from aiohttp import web
from aiohttp.typedefs import Middleware

from bot.compute import ComputeBusy

__all__ = ["CSP", "FRAME_ANCESTORS", "Limits", "RateLimiter", "busy_middleware", "client_address",
           "headers_middleware", "limit_middleware"]

FRAME_ANCESTORS = "'self' https://discord.com https://*.discordsays.com"
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    f"base-uri 'none'; form-action 'self'; frame-ancestors {FRAME_ANCESTORS}"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # the signed key in an address never leaves in a Referer
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), interest-cohort=()",
}

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass(frozen=True, slots=True)
class Limits:
    """How much one client address may ask: `per_minute` requests (in bursts of up to `burst`), and
    `streams` live pages open at once; `streams_total` live pages for the whole server."""

    per_minute: float = 120.0
    burst: int = 40
    streams: int = 20
    streams_total: int = 20_000


def client_address(request: web.Request, trust_forwarded: bool) -> str:
    """The client's address: the TCP peer, or the last hop of X-Forwarded-For when a trusted proxy set it."""
    if trust_forwarded:
        forwarded = request.headers.get("X-Forwarded-For", "")
        last = forwarded.rsplit(",", 1)[-1].strip()
        if last:
            try:
                return str(ipaddress.ip_address(last))
            except ValueError:
                pass
    return request.remote or "unknown"


class RateLimiter:
    """A token bucket per client address, and a count of its open streams; forgets idle clients."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self._clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}  # address -> (tokens, when)
        self._streams: dict[str, int] = {}
        self.open_streams = 0

    def take(self, address: str) -> float:
        """0 when `address` may make a request now (one token spent), else the seconds until it may."""
        now = self._clock()
        rate = self.limits.per_minute / 60.0
        tokens, when = self._buckets.get(address, (float(self.limits.burst), now))
        tokens = min(float(self.limits.burst), tokens + (now - when) * rate)
        if tokens < 1.0:
            self._buckets[address] = (tokens, now)
            return (1.0 - tokens) / rate
        self._buckets[address] = (tokens - 1.0, now)
        if len(self._buckets) > 10_000:  # forget the clients whose buckets have refilled
            full = [a for a, (t, w) in self._buckets.items() if t + (now - w) * rate >= self.limits.burst]
            for gone in full:
                del self._buckets[gone]
        return 0.0

    def open_stream(self, address: str) -> bool:
        if self.open_streams >= self.limits.streams_total or self._streams.get(address, 0) >= self.limits.streams:
            return False
        self._streams[address] = self._streams.get(address, 0) + 1
        self.open_streams += 1
        return True

    def close_stream(self, address: str) -> None:
        left = self._streams.get(address, 0) - 1
        if left > 0:
            self._streams[address] = left
        else:
            self._streams.pop(address, None)
        self.open_streams = max(0, self.open_streams - 1)


def headers_middleware() -> Middleware:
    @web.middleware
    async def headers(request: web.Request, handler: Handler) -> web.StreamResponse:
        try:
            response = await handler(request)
        except web.HTTPException as exc:
            _secure(exc)
            raise
        _secure(response)
        return response

    return headers


def _secure(response: web.StreamResponse) -> None:
    if response.prepared:  # a stream already sent its headers (they were set before it began)
        return
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)


def busy_middleware() -> Middleware:
    """A picture refused because its workers' line is full (`ComputeBusy`): 503 with Retry-After, nothing
    logged as an error (the page works again in a moment)."""

    @web.middleware
    async def busy(request: web.Request, handler: Handler) -> web.StreamResponse:
        try:
            return await handler(request)
        except ComputeBusy as exc:
            raise web.HTTPServiceUnavailable(text=f"Busy drawing ({exc.lane}); try again in a moment.\n",
                                             headers={"Retry-After": "5"}) from exc

    return busy


def limit_middleware(limiter: RateLimiter, trust_forwarded: bool) -> Middleware:
    @web.middleware
    async def limit(request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.path.startswith(("/static/", "/activity/")):
            # Cached files cost nothing; the Activity's requests all come through Discord's proxy, so it limits
            # each member by their ticket instead (bot/activity/routes.py).
            return await handler(request)
        wait = limiter.take(client_address(request, trust_forwarded))
        if wait > 0:
            raise web.HTTPTooManyRequests(text="Too many requests: wait a little and reload.\n",
                                          headers={"Retry-After": str(max(1, round(wait)))})
        return await handler(request)

    return limit
