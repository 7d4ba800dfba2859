"""What one member, or one server, may ask of the bot's CPU: the kinds of costly answer, their compute lanes and
their rate limits (token buckets), and a small cache for the answers that never change.

Each kind of costly answer (a replay, a hint, `/puluc board`, a profile chart, a rules or help picture) is one
`Kind`: the compute lane its job runs in (`bot.compute.Lane`: how many may wait before the bot says it is busy)
and the two settings that limit it, per member and per server (bot/config_spec.py). Adding a kind is one
`Kind(...)` line here and its two settings; the cogs ask `RateLimits.take(kind, member, server)` before they
acknowledge, so a refusal is private and changes nothing, and `RateLimited.retry_at` says when to ask again.

The buckets live in this process (like the command cooldowns): a server's members are all on its own shard's
process, so a server's limit holds as it is; a member active on servers of several processes gets one bucket
per process. This module must never import discord, render or read settings from the environment.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

from bot.compute import GAME_LANE, Lane
from bot.config_spec import (
    BOARDS_PER_MEMBER,
    BOARDS_PER_SERVER,
    CHARTS_PER_MEMBER,
    CHARTS_PER_SERVER,
    HINTS_PER_MEMBER,
    HINTS_PER_SERVER,
    REPLAYS_PER_MEMBER,
    REPLAYS_PER_SERVER,
    REVIEWS_PER_MEMBER,
    REVIEWS_PER_SERVER,
    RULES_PICTURES_PER_MEMBER,
    RULES_PICTURES_PER_SERVER,
    NumberSetting,
)

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

#: A limit of N per minute is a bucket of N tokens that refills evenly over this many seconds.
WINDOW_SECONDS = 60.0
#: Buckets kept before the full ones (as good as none) are dropped.
MAX_BUCKETS = 10_000


@dataclass(frozen=True, slots=True)
class Kind:
    """A kind of costly answer: its compute lane and its per-member and per-server limits (settings)."""

    name: str
    lane: Lane
    per_member: NumberSetting[int]
    per_server: NumberSetting[int]


# A replay of a long team game is seconds of CPU and megabytes to upload: few may wait.
REPLAY = Kind("replay", Lane("replay", waiting=4), REPLAYS_PER_MEMBER, REPLAYS_PER_SERVER)
HINT = Kind("hint", Lane("hint", waiting=16), HINTS_PER_MEMBER, HINTS_PER_SERVER)
# `/puluc board` redraws a game's board like a move does: the games' lane, limited by rate only.
BOARD = Kind("board", GAME_LANE, BOARDS_PER_MEMBER, BOARDS_PER_SERVER)
CHART = Kind("chart", Lane("chart", waiting=8), CHARTS_PER_MEMBER, CHARTS_PER_SERVER)
RULES = Kind("rules", Lane("rules", waiting=8), RULES_PICTURES_PER_MEMBER, RULES_PICTURES_PER_SERVER)
# A game's review (/puluc review): a search per decision and four pictures, up to a few hundred ms of CPU.
REVIEW = Kind("review", Lane("review", waiting=4), REVIEWS_PER_MEMBER, REVIEWS_PER_SERVER)

KINDS: tuple[Kind, ...] = (REPLAY, HINT, BOARD, CHART, RULES, REVIEW)

# Lanes of the bot's own background work, limited elsewhere and never refused: finished games' advantage charts
# (at most one per worker but one, bot.cogs.games.charts) and tournament adjudications.
END_CHART_LANE = Lane("end_chart")
ADJUDICATION_LANE = Lane("adjudication")


# The web pages' pictures (bot/web): spectators' and replays' boards and the advantage chart's points, then the
# replay GIFs, which take seconds each. Behind the players' own work; a full line is a page "busy, try again".
WEB_LANE = Lane("web", waiting=64)
WEB_REPLAY_LANE = Lane("web_replay", waiting=4)
# The live pages' boards after each move: never refused, since each watched game or tournament draws one at a
# time (bot.web.hub), so the line is at most one job per watched page and language, however many watch.
WEB_LIVE_LANE = Lane("web_live")


def lanes() -> tuple[Lane, ...]:
    """Every lane the bot's compute pool runs besides the games' own."""
    found = {kind.lane.name: kind.lane for kind in KINDS if not kind.lane.urgent}
    return (*found.values(), END_CHART_LANE, ADJUDICATION_LANE, WEB_LANE, WEB_REPLAY_LANE, WEB_LIVE_LANE)


class RateLimited(Exception):
    """A member or their server used up a limit: ask again at `retry_at` (seconds since the epoch)."""

    def __init__(self, kind: str, retry_at: float, scope: str) -> None:
        super().__init__(f"{kind} limit of this {scope} reached; ask again at {retry_at:.0f}")
        self.kind = kind
        self.retry_at = retry_at
        self.scope = scope  # "member" or "server"


@dataclass(slots=True)
class TokenBucket:
    """`capacity` tokens, refilled at `capacity` per `WINDOW_SECONDS`, evenly."""

    capacity: int
    tokens: float
    updated: float

    def level(self, now: float) -> float:
        refill = (now - self.updated) * self.capacity / WINDOW_SECONDS
        return min(float(self.capacity), self.tokens + max(0.0, refill))

    def ready_at(self, now: float) -> float:
        """When a whole token is there (now when it is already)."""
        missing = 1.0 - self.level(now)
        return now if missing <= 0 else now + missing * WINDOW_SECONDS / self.capacity

    def take(self, now: float) -> None:
        self.tokens = self.level(now) - 1.0
        self.updated = now


class RateLimits:
    """The token buckets of every kind, member and server. `rates` maps a setting's name to its value (per
    minute; 0: no limit), as `Config.limits` holds them."""

    def __init__(self, rates: Mapping[str, int], clock: Callable[[], float]) -> None:
        self._rates = dict(rates)
        self._clock = clock
        self._buckets: dict[tuple[str, str, int], TokenBucket] = {}

    def rate(self, spec: NumberSetting[int]) -> int:
        return self._rates.get(spec.name, spec.default)

    def take(self, kind: Kind, member_id: int, server_id: int | None) -> None:
        """Count one `kind` answer for this member and server, or raise `RateLimited` (and count nothing)
        when either has none left."""
        now = self._clock()
        wanted = [("member", member_id, self.rate(kind.per_member))]
        if server_id is not None:
            wanted.append(("server", server_id, self.rate(kind.per_server)))
        buckets = []
        for scope, owner, rate in wanted:
            if rate <= 0:
                continue
            bucket = self._bucket(kind.name, scope, owner, rate, now)
            ready = bucket.ready_at(now)
            if ready > now:
                raise RateLimited(kind.name, ready, scope)
            buckets.append(bucket)
        for bucket in buckets:
            bucket.take(now)

    def _bucket(self, kind: str, scope: str, owner: int, rate: int, now: float) -> TokenBucket:
        key = (kind, scope, owner)
        bucket = self._buckets.get(key)
        if bucket is None or bucket.capacity != rate:
            if len(self._buckets) >= MAX_BUCKETS:
                self._buckets = {k: b for k, b in self._buckets.items() if b.level(now) < b.capacity}
            bucket = self._buckets[key] = TokenBucket(rate, float(rate), now)
        return bucket


def retry_timestamp(retry_at: float) -> str:
    """When to ask again, as Discord shows it in each reader's own time ("in 20 seconds")."""
    return f"<t:{math.ceil(retry_at)}:R>"


class Cache(Generic[K, V]):
    """The newest answers that never change (a finished game's replay, a position's hint, a rules picture),
    up to `max_items` of them and, when `size` measures them, `max_size` in all; the least recently used go
    first."""

    def __init__(self, max_items: int, max_size: int = 0, size: Callable[[V], int] | None = None) -> None:
        self._items: OrderedDict[K, V] = OrderedDict()
        self._max_items = max_items
        self._max_size = max_size
        self._size = size
        self._total = 0
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: K) -> V | None:
        found = self._items.get(key)
        if found is None:
            self.misses += 1
            return None
        self.hits += 1
        self._items.move_to_end(key)
        return found

    def put(self, key: K, value: V) -> None:
        size = self._size(value) if self._size is not None else 0
        if self._max_size and size > self._max_size:
            return  # larger than the whole cache: never kept
        old = self._items.pop(key, None)
        if old is not None and self._size is not None:
            self._total -= self._size(old)
        self._items[key] = value
        self._total += size
        while len(self._items) > self._max_items or (self._max_size and self._total > self._max_size):
            _, dropped = self._items.popitem(last=False)
            if self._size is not None:
                self._total -= self._size(dropped)

    def clear(self) -> None:
        """Forget everything (forget-me: a cached answer may hold a name)."""
        self._items.clear()
        self._total = 0
