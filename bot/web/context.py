"""What the web server reads from, and the small caches that keep a busy page from reading it again.

`WebContext` is the one way from a request to the database: by the id its address names, through the stores'
ordinary methods, never a query of the request's making. Finished games, their steps and charts and GIFs, and
whether a server's pages are public, are remembered for a while (a finished game never changes); open games
come from this process's sessions when it runs them, else from the database (one read per change, by the hub).
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar, cast

from bot.compute import ComputePool
from bot.sessions import GameState
from bot.sessions.rebuild import read_game
from bot.storage import Storage
from bot.ui.links import Page, WebLinks
from bot.web.present import Tail

__all__ = ["PUBLIC_FOR", "REMEMBER_FOR", "Lru", "WebContext"]

PUBLIC_FOR = 30.0  # seconds a server's web:public setting is remembered (a change shows within this long)
REMEMBER_FOR = 600.0  # seconds a finished game and its pictures are remembered

K = TypeVar("K")
V = TypeVar("V")
T = TypeVar("T")


class Lru(Generic[K, V]):
    """A dict that keeps only its `size` most recently used entries, each for at most `ttl` seconds (so that a
    player who asked to be forgotten leaves the remembered pages too)."""

    def __init__(self, size: int, ttl: float = REMEMBER_FOR, clock: Callable[[], float] = time.monotonic) -> None:
        self.size = size
        self.ttl = ttl
        self._clock = clock
        self._items: OrderedDict[K, tuple[V, float]] = OrderedDict()

    def get(self, key: K) -> V | None:
        found = self._items.get(key)
        if found is None:
            return None
        if self._clock() - found[1] > self.ttl:
            del self._items[key]
            return None
        self._items.move_to_end(key)
        return found[0]

    def put(self, key: K, value: V) -> V:
        self._items[key] = (value, self._clock())
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)
        return value


@dataclass
class WebContext:
    """The web server's view of the bot: the database, the workers, the signing key, this process's games."""

    storage: Storage
    links: WebLinks
    compute: ComputePool
    bar_ms: float = 0.0
    live: Callable[[int], GameState | None] = lambda game_id: None  # an open game of this process
    watched: Callable[[int], GameState | None] = lambda game_id: None  # the live pages' newest state of a game
    clock: Callable[[], float] = time.monotonic
    public_for: float = PUBLIC_FOR
    finished: Lru[int, GameState] = field(default_factory=lambda: Lru(128))
    # A replay's steps, boards, chart and GIF, by game and language: a few games' worth of boards (about 10 KB each).
    pictures: Lru[tuple[object, ...], object] = field(default_factory=lambda: Lru(2048))
    gifs: Lru[tuple[int, str], bytes] = field(default_factory=lambda: Lru(8))  # a replay GIF is up to a few MB
    # The end of each watched game's story, by game and language, continued move by move (a position and a few
    # sentences each, about 3 KB).
    tails: Lru[tuple[int, str], Tail] = field(default_factory=lambda: Lru(4096))
    _public: dict[int, tuple[bool, float]] = field(default_factory=dict)
    _reads: dict[int, asyncio.Future[GameState]] = field(default_factory=dict)
    _making: dict[object, asyncio.Future[object]] = field(default_factory=dict)

    async def once(self, key: object, make: Callable[[], Awaitable[T]]) -> T:
        """`make()`, awaited by every request that asks for `key` at the same moment (a hundred people
        downloading one replay GIF draw it once)."""
        pending = self._making.get(key)
        if pending is not None:
            return cast(T, await asyncio.shield(pending))
        future: asyncio.Future[object] = asyncio.get_running_loop().create_future()
        self._making[key] = future
        try:
            made = await make()
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()
            raise
        finally:
            self._making.pop(key, None)
        future.set_result(made)
        return made

    async def game(self, game_id: int) -> GameState:
        """A game in any status: this process's session, a remembered finished game, or the database (one read
        shared by every request that asks at the same moment). GameNotFound, CorruptGame as `read_game`."""
        live = self.live(game_id) or self.watched(game_id)
        if live is not None:
            return live
        cached = self.finished.get(game_id)
        if cached is not None:
            return cached
        pending = self._reads.get(game_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[GameState] = asyncio.get_running_loop().create_future()
        self._reads[game_id] = future
        try:
            state = await read_game(self.storage.games, game_id)
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: no "never retrieved" warning when nobody else waited
            raise
        finally:
            self._reads.pop(game_id, None)
        if not state.is_open:
            self.finished.put(game_id, state)
        future.set_result(state)
        return state

    async def public(self, guild_id: int | None) -> bool:
        """Whether the server's managers made its pages public (`/puluc-admin settings web:public`)."""
        if guild_id is None:
            return False  # a game in direct messages is nobody else's business
        now = self.clock()
        known = self._public.get(guild_id)
        if known is not None and now - known[1] < self.public_for:
            return known[0]
        settings = await self.storage.server_settings.guild_settings(guild_id)
        if len(self._public) > 10_000:
            self._public.clear()
        self._public[guild_id] = (bool(settings.web_public), now)
        return bool(settings.web_public)

    async def may_see(self, page: Page, guild_id: int | None, key: str | None) -> bool:
        """A server's page opens with its signed key, or without one when the server's pages are public."""
        return self.links.opens(page, key) or await self.public(guild_id)
