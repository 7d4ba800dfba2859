"""A live page's stream: Server-Sent Events carrying the page's new fragment after every change, and how many
watch. The browser's EventSource reconnects by itself; the stream says every `KEEPALIVE` seconds that it lives,
so that proxies keep it open and a closed tab is noticed.

    event: board        data: {"seq": 41, "html": "<div ...>"}     (id: 41)
    event: watchers     data: {"count": 12, "text": "12 watching"}
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from aiohttp import web

from bot.web.common import HUB, lang_of
from bot.web.hub import Topic
from bot.web.i18n import wt
from bot.web.security import client_address

__all__ = ["KEEPALIVE", "LIMITER", "TRUST_FORWARDED", "stream"]

KEEPALIVE = 15.0
LIMITER: web.AppKey[Any] = web.AppKey("puluc_web_limiter", object)
TRUST_FORWARDED: web.AppKey[bool] = web.AppKey("puluc_web_trust_forwarded", bool)


def _event(name: str, data: dict[str, Any], event_id: int | None = None) -> bytes:
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {name}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode()


async def stream(request: web.Request, topic: Topic, since: int, state: Any) -> web.StreamResponse:
    """Stream `topic`'s changes to this request until it goes away; `since`: the event number its page shows."""
    limiter = request.app[LIMITER]
    address = client_address(request, request.app[TRUST_FORWARDED])
    if not limiter.open_stream(address):
        raise web.HTTPTooManyRequests(text="Too many live pages open from this address.\n",
                                      headers={"Retry-After": "30"})
    hub = request.app[HUB]
    lang = lang_of(request)
    last_id = request.headers.get("Last-Event-ID", "")
    if last_id.isdigit():
        since = max(since, int(last_id))
    response = web.StreamResponse(headers={
        "Content-Type": "text/event-stream; charset=utf-8",
        "Cache-Control": "no-store",
        "X-Accel-Buffering": "no",  # nginx: pass each event on at once
    })
    watcher = hub.watch(topic, lang)
    hub.seed(topic, state)
    try:
        await response.prepare(request)
        await response.write(b"retry: 2000\n\n")
        current = hub.current(topic, lang)
        if current is not None and current.seq != since:
            await response.write(current.event)
        elif current is None and topic.kind == "game" and getattr(state, "seq", since) != since:
            hub.note_state(topic, state)  # the page is behind already: render what it missed
        while True:
            try:
                async with asyncio.timeout(KEEPALIVE):  # a timer, not a task, per wait: a thousand streams wait
                    await watcher.wake.wait()
            except TimeoutError:
                await response.write(b": alive\n\n")
                continue
            fragment, count = watcher.take()
            if fragment is not None:
                await response.write(fragment.event)
            if count is not None:
                await response.write(_event("watchers", {"count": count, "text": wt("live.watching", lang,
                                                                                      count=count)}))
    except ConnectionError:  # the page was closed
        pass
    finally:
        hub.leave(watcher)
        limiter.close_stream(address)
    with contextlib.suppress(ConnectionError, RuntimeError):
        await response.write_eof()
    return response
