"""Ratings that mean something, for every backend: an absence makes a rating uncertain again (sigma grows per
inactive day, capped at a newcomer's, and the next game moves it more), and the same players count for the
ladders only three times in 24 hours."""

from __future__ import annotations

import math

import pytest

from bot import ratings
from bot.ratings import (
    INACTIVE_AFTER_DAYS,
    NEWCOMER,
    PROVISIONAL_SIGMA,
    REPEAT_LIMIT,
    REPEAT_WINDOW,
    SIGMA_PER_INACTIVE_DAY,
)
from bot.ratings.types import UnrankedReason
from bot.storage import Storage
from tests.bot.storage.games import play, play_many
from tests.helpers import FakeClock


async def test_inactivity_raises_uncertainty_day_by_day_up_to_a_newcomers(storage: Storage, clock: FakeClock) -> None:
    clock.now = (clock.now // ratings.DAY) * ratings.DAY + 3600  # early in a UTC day
    await play_many(storage, clock, [1, 2], "A", 9)
    played = await storage.ladders.skill(1, "duel")
    standing = await storage.ladders.standing(1, "duel", 0)
    assert played is not None and standing is not None and not standing.provisional

    clock.advance(days=INACTIVE_AFTER_DAYS)  # still active: nothing changes yet
    assert await storage.ladders.skill(1, "duel") == played
    clock.advance(days=10)  # ten days beyond the active window
    grown = await storage.ladders.skill(1, "duel")
    assert grown is not None and grown.mu == played.mu
    assert grown.sigma == pytest.approx(math.sqrt(played.sigma**2 + 10 * SIGMA_PER_INACTIVE_DAY**2))
    away = await storage.ladders.standing(1, "duel", 0)
    assert away is not None and not away.active and away.rating < standing.rating

    clock.advance(days=3650)  # ten years: as uncertain as a newcomer, never more
    assert await storage.ladders.skill(1, "duel") == ratings.Skill(played.mu, NEWCOMER.sigma)
    gone = await storage.ladders.standing(1, "duel", 0)
    assert gone is not None and gone.provisional and gone.rank is None  # provisional again
    assert NEWCOMER.sigma > PROVISIONAL_SIGMA


async def test_the_first_game_back_starts_from_the_grown_uncertainty(storage: Storage, clock: FakeClock) -> None:
    await play_many(storage, clock, [1, 2], "A", 6)
    await play_many(storage, clock, [3, 4], "A", 6)  # the same record: 1 and 3 have the same rating
    assert await storage.ladders.skill(1, "duel") == await storage.ladders.skill(3, "duel")

    async def mu_lost(user: int, newcomer: int) -> float:
        before = await storage.ladders.skill(user, "duel")
        _, report = await play(storage, [user, newcomer], "B")  # a loss against a newcomer
        after = await storage.ladders.skill(user, "duel")
        assert before is not None and after is not None
        assert next(c.before for c in report.changes if c.user_id == user and c.scope == 0) == before.display
        return before.mu - after.mu

    stayed = await mu_lost(3, 5)
    clock.advance(days=INACTIVE_AFTER_DAYS + 200)
    came_back = await mu_lost(1, 6)
    assert came_back > stayed  # the uncertain rating moves more


async def test_the_fourth_ranked_game_in_24_hours_against_the_same_opponent_is_unranked(
    storage: Storage, clock: FakeClock
) -> None:
    for _ in range(REPEAT_LIMIT):
        _, counted = await play(storage, [1, 2], "A")
        assert counted.unranked is None
        clock.advance(seconds=60)
    _, fourth = await play(storage, [2, 1], "A")  # sides swapped: still the same two players
    assert fourth.unranked is UnrankedReason.REPEAT and fourth.changes == ()
    standing = await storage.ladders.standing(1, "duel", 0)
    assert standing is not None and standing.games == REPEAT_LIMIT
    _, other = await play(storage, [1, 3], "A")  # another opponent counts
    assert other.unranked is None
    clock.advance(seconds=REPEAT_WINDOW - 3 * 60 + 1)  # the first of the three is over 24 hours old now
    _, later = await play(storage, [1, 2], "A")
    assert later.unranked is None


async def test_a_team_line_up_counts_three_times_a_day_whoever_sits_where(storage: Storage, clock: FakeClock) -> None:
    for _ in range(REPEAT_LIMIT):
        _, counted = await play(storage, [1, 2, 3, 4], "A")  # A: 1 and 3, B: 2 and 4
        assert counted.unranked is None
    _, swapped = await play(storage, [2, 3, 4, 1], "B")  # A: 2 and 4, B: 3 and 1: the same two teams
    assert swapped.unranked is UnrankedReason.REPEAT
    _, new_partner = await play(storage, [1, 2, 4, 3], "A")  # A: 1 and 4, B: 2 and 3: different teams
    assert new_partner.unranked is None


async def test_unranked_games_do_not_count_towards_the_limit(storage: Storage) -> None:
    for _ in range(REPEAT_LIMIT):
        _, short = await play(storage, [1, 2], "A", moves=2)
        assert short.unranked is UnrankedReason.TOO_SHORT
    _, counted = await play(storage, [1, 2], "A")
    assert counted.unranked is None
