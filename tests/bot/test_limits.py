"""Rate limits (`bot.limits`): a member's and a server's token buckets, refused requests count nothing, a
refusal says when to ask again, and the caches keep what never changes within their bounds."""

from __future__ import annotations

import pytest

from bot.config_spec import HINTS_PER_MEMBER, HINTS_PER_SERVER, LIMIT_SETTINGS, SETTINGS
from bot.limits import HINT, KINDS, REPLAY, WINDOW_SECONDS, Cache, RateLimited, RateLimits, lanes, retry_timestamp
from tests.helpers import FakeClock

ALICE, BOB, CAROL = 1, 2, 3
SERVER, OTHER_SERVER = 100, 200


def test_a_member_gets_their_limit_then_a_time_to_ask_again(clock: FakeClock) -> None:
    limits = RateLimits({HINTS_PER_MEMBER.name: 3, HINTS_PER_SERVER.name: 100}, clock)
    for _ in range(3):
        limits.take(HINT, ALICE, SERVER)
    with pytest.raises(RateLimited) as refused:
        limits.take(HINT, ALICE, SERVER)
    assert refused.value.scope == "member" and refused.value.kind == "hint"
    # A bucket of 3 a minute gives one back every 20 s.
    assert refused.value.retry_at == pytest.approx(clock() + WINDOW_SECONDS / 3)
    limits.take(HINT, BOB, SERVER)  # another member is not held back
    clock.advance(WINDOW_SECONDS / 3)
    limits.take(HINT, ALICE, SERVER)  # exactly when she was told
    with pytest.raises(RateLimited):
        limits.take(HINT, ALICE, SERVER)


def test_a_server_shares_one_limit_between_its_members(clock: FakeClock) -> None:
    limits = RateLimits({HINTS_PER_MEMBER.name: 5, HINTS_PER_SERVER.name: 2}, clock)
    limits.take(HINT, ALICE, SERVER)
    limits.take(HINT, BOB, SERVER)
    with pytest.raises(RateLimited) as refused:
        limits.take(HINT, CAROL, SERVER)
    assert refused.value.scope == "server"
    limits.take(HINT, CAROL, OTHER_SERVER)  # another server is not held back


def test_a_refused_request_counts_against_nothing(clock: FakeClock) -> None:
    limits = RateLimits({HINTS_PER_MEMBER.name: 1, HINTS_PER_SERVER.name: 2}, clock)
    limits.take(HINT, ALICE, SERVER)
    for _ in range(5):  # Alice is refused, and her refusals must not use up the server's hints
        with pytest.raises(RateLimited):
            limits.take(HINT, ALICE, SERVER)
    limits.take(HINT, BOB, SERVER)


def test_each_kind_has_its_own_buckets_and_zero_lifts_a_limit(clock: FakeClock) -> None:
    limits = RateLimits({HINTS_PER_MEMBER.name: 1, HINTS_PER_SERVER.name: 0}, clock)
    limits.take(HINT, ALICE, SERVER)
    limits.take(REPLAY, ALICE, SERVER)  # hints used up, replays not
    unlimited = RateLimits({HINTS_PER_MEMBER.name: 0, HINTS_PER_SERVER.name: 0}, clock)
    for _ in range(1000):
        unlimited.take(HINT, ALICE, SERVER)


def test_direct_messages_count_only_the_member(clock: FakeClock) -> None:
    limits = RateLimits({HINTS_PER_MEMBER.name: 2, HINTS_PER_SERVER.name: 1}, clock)
    limits.take(HINT, ALICE, None)
    limits.take(HINT, ALICE, None)


def test_the_time_to_ask_again_is_a_discord_relative_timestamp() -> None:
    assert retry_timestamp(1_700_000_000.2) == "<t:1700000001:R>"


def test_every_kind_is_limited_by_two_settings_the_bot_reads() -> None:
    for kind in KINDS:
        assert kind.per_member in LIMIT_SETTINGS and kind.per_server in LIMIT_SETTINGS
        assert kind.per_member in SETTINGS and kind.per_server in SETTINGS
    names = [lane.name for lane in lanes()]
    assert len(names) == len(set(names)) and "game" not in names


def test_a_cache_drops_the_least_recently_used_first() -> None:
    cache: Cache[str, bytes] = Cache(2)
    cache.put("a", b"1")
    cache.put("b", b"2")
    assert cache.get("a") == b"1"  # a is now the newest
    cache.put("c", b"3")
    assert cache.get("b") is None and cache.get("a") == b"1" and cache.get("c") == b"3"


def test_a_cache_bounded_by_size_never_holds_more() -> None:
    cache: Cache[str, bytes] = Cache(100, max_size=10, size=len)
    cache.put("a", b"x" * 6)
    cache.put("b", b"x" * 6)
    assert cache.get("a") is None and cache.get("b") is not None
    cache.put("huge", b"x" * 11)
    assert cache.get("huge") is None and cache.get("b") is not None
    cache.clear()
    assert len(cache) == 0
