"""Live pages: who watches which game or tournament, and pushing each change to them within a moment.

A watcher is one open Server-Sent Events stream. Each watched thing (`Topic`: a game or a tournament) keeps
its newest rendering per language; a change is loaded and rendered ONCE per language however many watch
(a thousand spectators cost one database read and one board per move), then handed to every watcher, who
keeps only the newest (a slow reader skips to the present rather than queueing the past). How many watch is
sent too, at most once per `COUNT_EVERY` seconds per topic.

Changes arrive from this process's sessions (`note_state`, with the new state in hand) or from the database's
change feed (`note_change`: another process played; the state is read back). Nothing here writes anything.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import logging
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from bot.storage import Change

__all__ = ["COUNT_EVERY", "Hub", "Rendered", "Topic", "Watcher"]

log = logging.getLogger(__name__)

COUNT_EVERY = 1.0  # seconds between two watcher counts sent for one topic
MAX_FAILURES = 3  # tries to load and draw one change before the topic waits for the next change
RETRY_SECONDS = 1.0


@dataclass(frozen=True, slots=True)
class Topic:
    kind: str  # "game" or "tournament"
    id: int


@dataclass(frozen=True)
class Rendered:
    """One rendering of a topic for one language: the HTML fragment the page swaps in, and its version."""

    version: Hashable
    seq: int
    html: str

    @cached_property
    def event(self) -> bytes:
        """The Server-Sent Event carrying it, encoded once for all its watchers."""
        data = json.dumps({"seq": self.seq, "html": self.html}, separators=(",", ":"))
        return f"id: {self.seq}\nevent: board\ndata: {data}\n\n".encode()


class Watcher:
    """One open stream: the newest fragment and count not yet sent, and a flag that wakes its writer."""

    __slots__ = ("count", "fragment", "lang", "topic", "wake")

    def __init__(self, topic: Topic, lang: str) -> None:
        self.topic = topic
        self.lang = lang
        self.fragment: Rendered | None = None
        self.count: int | None = None
        self.wake = asyncio.Event()

    def take(self) -> tuple[Rendered | None, int | None]:
        """What to send now (each at most once), clearing it."""
        fragment, count = self.fragment, self.count
        self.fragment = self.count = None
        self.wake.clear()
        return fragment, count


# Loads the thing a topic names (None: it is gone) and renders it for a language; `version` tells renderings
# of the same state apart from new ones.
Loader = Callable[[Topic], Awaitable[Any]]
Render = Callable[[Topic, Any, str], Awaitable[Rendered]]
Version = Callable[[Any], Hashable]


@dataclass
class _Feed:
    topic: Topic
    watchers: set[Watcher] = field(default_factory=set)
    state: Any = None
    version: Hashable = None
    seq: int = -1
    rendered: dict[str, Rendered] = field(default_factory=dict)
    pending: Any = None  # a state handed in while a refresh ran
    dirty: bool = False  # a change to load once the running refresh ends
    task: asyncio.Task[None] | None = None
    count_due: asyncio.TimerHandle | None = None


class Hub:
    """The live topics of one web server."""

    def __init__(self, load: Loader, render: Render, version: Version) -> None:
        self._load = load
        self._render = render
        self._version = version
        self._feeds: dict[Topic, _Feed] = {}
        # The context the hub was made in (the web server's): each refresh runs in a copy of it, not in the
        # context of whichever session noted the change, whose log ids (`bot.logs.bind`: that server, channel
        # and game) would otherwise label the refresh's lines, and the later changes' it goes on to show.
        self._context = contextvars.copy_context()
        self.renders = 0  # renderings made (tests and the benchmark check one per change and language)

    # -- watchers --------------------------------------------------------------------------------------

    def watch(self, topic: Topic, lang: str) -> Watcher:
        feed = self._feeds.get(topic)
        if feed is None:
            feed = self._feeds[topic] = _Feed(topic)
        watcher = Watcher(topic, lang)
        feed.watchers.add(watcher)
        self._count_soon(feed)
        return watcher

    def leave(self, watcher: Watcher) -> None:
        feed = self._feeds.get(watcher.topic)
        if feed is None:
            return
        feed.watchers.discard(watcher)
        if feed.watchers:
            self._count_soon(feed)
            return
        if feed.count_due is not None:
            feed.count_due.cancel()
        if feed.task is None or feed.task.done():
            del self._feeds[watcher.topic]

    def watching(self, topic: Topic) -> int:
        feed = self._feeds.get(topic)
        return 0 if feed is None else len(feed.watchers)

    @property
    def watchers(self) -> int:
        return sum(len(feed.watchers) for feed in self._feeds.values())

    def state(self, topic: Topic) -> Any:
        """The newest state of a watched topic (kept current by the changes), or None."""
        feed = self._feeds.get(topic)
        return None if feed is None or not feed.watchers else feed.state

    def current(self, topic: Topic, lang: str) -> Rendered | None:
        """The newest rendering a watcher of `topic` in `lang` was sent, if any."""
        feed = self._feeds.get(topic)
        return None if feed is None else feed.rendered.get(lang)

    def seed(self, topic: Topic, state: Any) -> None:
        """Remember the state a page was just rendered from, so the first change is compared with it."""
        feed = self._feeds.get(topic)
        if feed is not None and feed.state is None:
            feed.state, feed.version = state, self._version(state)
            feed.seq = getattr(state, "seq", 0)

    def _count_soon(self, feed: _Feed) -> None:
        if feed.count_due is None:
            feed.count_due = asyncio.get_running_loop().call_later(COUNT_EVERY, self._send_count, feed)

    def _send_count(self, feed: _Feed) -> None:
        feed.count_due = None
        count = len(feed.watchers)
        for watcher in feed.watchers:
            watcher.count = count
            watcher.wake.set()

    # -- changes ---------------------------------------------------------------------------------------

    def note_state(self, topic: Topic, state: Any) -> None:
        """This process changed `topic` and has its new state: show it to its watchers (if any)."""
        feed = self._feeds.get(topic)
        if feed is None or not feed.watchers:
            return
        feed.pending = state
        self._refresh_soon(feed)

    def note_change(self, change: Change) -> None:
        """Some process (perhaps this one) committed a change: load and show it unless it is shown already."""
        topic = Topic(change.kind, change.id)
        feed = self._feeds.get(topic)
        if feed is None or not feed.watchers:
            return
        if change.kind == "game" and change.seq < feed.seq:
            return  # older than what the page shows already
        feed.dirty = True
        self._refresh_soon(feed)

    async def resync(self) -> None:
        """Reload every watched topic (after the change feed missed notifications)."""
        for feed in list(self._feeds.values()):
            if feed.watchers:
                feed.dirty = True
                self._refresh_soon(feed)

    def _refresh_soon(self, feed: _Feed) -> None:
        if feed.task is None or feed.task.done():
            feed.task = self._context.copy().run(asyncio.get_running_loop().create_task, self._refresh(feed),
                                                 name=f"puluc-web-{feed.topic}")

    async def _refresh(self, feed: _Feed) -> None:
        # One refresh at a time per topic; changes arriving meanwhile are picked up by the next loop. A failed
        # load (the database away a moment) is tried again a few times, a second apart.
        failures = 0
        while feed.watchers and (feed.pending is not None or feed.dirty) and failures < MAX_FAILURES:
            state, feed.pending = feed.pending, None
            try:
                if state is None:
                    feed.dirty = False
                    state = await self._load(feed.topic)
                    if state is None:
                        break
                version = self._version(state)
                if version == feed.version and feed.rendered:
                    continue
                seq = getattr(state, "seq", 0)
                if feed.topic.kind == "game" and seq < feed.seq:
                    continue
                rendered: dict[str, Rendered] = {}
                for lang in sorted({watcher.lang for watcher in feed.watchers}):
                    rendered[lang] = await self._render(feed.topic, state, lang)
                    self.renders += 1
                feed.state, feed.version, feed.seq, feed.rendered = state, version, seq, rendered
                for watcher in feed.watchers:
                    fragment = rendered.get(watcher.lang)
                    if fragment is None:  # joined during the rendering: render its language next time
                        feed.dirty = True
                        continue
                    watcher.fragment = fragment
                    watcher.wake.set()
            except Exception:
                failures += 1
                log.warning("could not refresh the live page of %s (try %d of %d)", feed.topic, failures,
                            MAX_FAILURES, exc_info=True)
                feed.dirty = True
                await asyncio.sleep(RETRY_SECONDS)
            else:
                failures = 0
        if not feed.watchers:
            self._feeds.pop(feed.topic, None)
