"""Shards: which servers' games one bot process owns when several processes share one database.

Discord sends each server's events and interactions to one shard, `(guild_id >> 22) % shard_count`, so a
channel's games belong to exactly one shard and one process. `Shards` is the part of the deployment a process
runs (`SHARD_COUNT`, `SHARD_IDS`); `Shards.whole()` is a deployment of one process with every server. A store
whose shards are claimed (`Storage.claim_shards`) writes only games of servers on them. Direct messages have no
server and belong to shard 0, as in Discord.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

__all__ = ["MAX_SHARD_COUNT", "Shards", "parse_shard_ids", "shard_of"]

# The storage keys a shard's lease by shard_count * 65536 + shard_id in a 32-bit integer.
MAX_SHARD_COUNT = 32_767


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard Discord routes a server to; direct messages (no server) go to shard 0."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


@dataclass(frozen=True, slots=True)
class Shards:
    """Shards `ids` of a deployment of `count` shards (ids sorted, unique, each below `count`)."""

    count: int
    ids: tuple[int, ...]

    def __post_init__(self) -> None:
        if not 1 <= self.count <= MAX_SHARD_COUNT:
            raise ValueError(f"a deployment has 1 to {MAX_SHARD_COUNT} shards, not {self.count}")
        if not self.ids or list(self.ids) != sorted(set(self.ids)) or not 0 <= self.ids[0] <= self.ids[-1] < self.count:
            raise ValueError(f"shard ids must be sorted, unique and from 0 to {self.count - 1}: {self.ids}")

    @classmethod
    def whole(cls, count: int = 1) -> Shards:
        """Every shard of a deployment of `count` shards (one process runs them all)."""
        return cls(count, tuple(range(count)))

    @property
    def is_whole(self) -> bool:
        return len(self.ids) == self.count

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process runs the server's shard (and so its games)."""
        return shard_of(guild_id, self.count) in self.ids

    def __str__(self) -> str:
        return f"shard{'s' if len(self.ids) > 1 else ''} {_ranges(self.ids)} of {self.count}"


def _ranges(ids: tuple[int, ...]) -> str:
    """0,1,2,5 -> "0-2,5"."""
    parts: list[str] = []
    start = previous = ids[0]
    for i in (*ids[1:], None):
        if i is not None and i == previous + 1:
            previous = i
            continue
        parts.append(str(start) if start == previous else f"{start}-{previous}")
        if i is not None:
            start = previous = i
    return ",".join(parts)


def parse_shard_ids(text: str, count: int) -> tuple[int, ...]:
    """`3`, `0-3` or `0,2,5` (ranges and single ids, comma-separated) as sorted ids; ValueError with one line
    saying what is wrong (not a number, a range backwards, an id not below `count`, an id given twice)."""
    ids: list[int] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            raise ValueError("has an empty item between commas")
        low, dash, high = part.partition("-")
        try:
            first, last = int(low), int(high) if dash else int(low)
        except ValueError:
            raise ValueError(f"has {part!r}, which is neither a shard id nor a range like 0-3") from None
        if first < 0 or last < first:
            raise ValueError(f"has {part!r}: a range goes from a lower id to a higher one, both 0 or more")
        if last >= count:
            raise ValueError(f"has {last}, but with SHARD_COUNT={count} the ids go from 0 to {count - 1}")
        ids.extend(range(first, last + 1))
    twice = sorted(i for i, n in Counter(ids).items() if n > 1)
    if twice:
        raise ValueError(f"names shard {', '.join(map(str, twice))} more than once")
    return tuple(sorted(ids))
