"""Rating arithmetic and ladder policy, checked against openskill's own Plackett-Luce calculation."""

from __future__ import annotations

from typing import Any

import pytest
from openskill.models import PlackettLuce

from bot import ratings
from bot.ratings import NEWCOMER, SeatInfo, Skill
from bot.ratings.types import UnrankedReason

SETTLED = Skill(30.0, 1.2)
WEAK = Skill(22.0, 1.5)


def openskill_rate(teams: list[list[Skill]], ranks: list[float]) -> list[list[tuple[float, float]]]:
    model = PlackettLuce()
    result = model.rate([[model.rating(mu=s.mu, sigma=s.sigma) for s in team] for team in teams], ranks=ranks)
    return [[(r.mu, r.sigma) for r in team] for team in result]


def pairs(team: tuple[Skill, ...]) -> list[tuple[float, float]]:
    return [(s.mu, s.sigma) for s in team]


def test_newcomer_shows_1500() -> None:
    assert NEWCOMER.display == 1500
    assert ratings.display_rating(25.0, 25.0 / 3.0) == 1500


def test_display_follows_the_conservative_rating() -> None:
    sure = Skill(25.0, 1.0)
    unsure = Skill(25.0, 3.0)
    assert sure.conservative == pytest.approx(22.0)
    assert sure.display > unsure.display  # same mean, less doubt: ranked higher


def test_200_display_points_mean_about_76_percent_like_elo() -> None:
    a, b = Skill(30.0, 0.5), Skill(30.0 - 200 / ratings.DISPLAY_SCALE, 0.5)
    assert a.display - b.display == 200
    model = PlackettLuce()
    p_a, _ = model.predict_win([[model.rating(a.mu, a.sigma)], [model.rating(b.mu, b.sigma)]])
    assert p_a == pytest.approx(1 / (1 + 10 ** (-200 / 400)), abs=0.01)


def test_duel_update_matches_openskill() -> None:
    new_a, new_b = ratings.rate([SETTLED], [WEAK], "B")
    assert pairs(new_a) + pairs(new_b) == [p for team in openskill_rate([[SETTLED], [WEAK]], [2, 1]) for p in team]
    assert new_b[0].mu > WEAK.mu and new_a[0].mu < SETTLED.mu  # the upset moves both


def test_team_update_matches_openskill_for_every_seat() -> None:
    team_a, team_b = [SETTLED, NEWCOMER], [WEAK, Skill(27.0, 4.0)]
    new_a, new_b = ratings.rate(team_a, team_b, "A")
    expected = openskill_rate([team_a, team_b], [1, 2])
    assert pairs(new_a) == expected[0] and pairs(new_b) == expected[1]
    assert all(n.mu > o.mu for n, o in zip(new_a, team_a, strict=True))
    assert all(n.mu < o.mu for n, o in zip(new_b, team_b, strict=True))
    # the uncertain newcomer moves more than the settled teammate
    assert new_a[1].mu - NEWCOMER.mu > new_a[0].mu - SETTLED.mu


def test_draw_between_equals_keeps_means() -> None:
    new_a, new_b = ratings.rate([NEWCOMER], [NEWCOMER], None)
    assert new_a[0].mu == pytest.approx(25.0) and new_b[0].mu == pytest.approx(25.0)
    assert pairs(new_a) + pairs(new_b) == [p for t in openskill_rate([[NEWCOMER], [NEWCOMER]], [1, 1]) for p in t]


def test_bad_winner_is_refused() -> None:
    with pytest.raises(ValueError, match="winner"):
        ratings.rate([NEWCOMER], [NEWCOMER], "C")


@pytest.mark.parametrize(("games", "provisional"), [(0, True), (4, True), (5, False), (40, False)])
def test_provisional_until_five_ranked_games(games: int, provisional: bool) -> None:
    assert ratings.is_provisional(games) is provisional


def test_active_means_a_ranked_game_in_the_last_30_days() -> None:
    now = 100 * 86400.0
    assert ratings.is_active(now - 29 * 86400, now)
    assert not ratings.is_active(now - 31 * 86400, now)


def test_two_seats_are_a_duel_more_are_the_team_ladder() -> None:
    assert ratings.ladder_for(2) == "duel"
    assert ratings.ladder_for(4) == "team" and ratings.ladder_for(16) == "team"
    with pytest.raises(ValueError, match="even"):
        ratings.ladder_for(3)


HUMANS = [SeatInfo("A1", 1, None), SeatInfo("B1", 2, None)]


def test_a_full_human_ranked_game_counts() -> None:
    assert ratings.unranked_reason(ranked=True, cancelled=False, seats=HUMANS, moves=6) is None


@pytest.mark.parametrize(
    ("kwargs", "reason"),
    [
        ({"ranked": False}, UnrankedReason.CASUAL),
        ({"cancelled": True}, UnrankedReason.CANCELLED),
        ({"seats": [SeatInfo("A1", 1, None), SeatInfo("B1", None, 3)]}, UnrankedReason.AI_SEAT),
        ({"ai_took_over": True}, UnrankedReason.AI_SEAT),
        ({"seats": [SeatInfo("A1", 1, None), SeatInfo("B1", None, None)]}, UnrankedReason.EMPTY_SEAT),
        ({"seats": [SeatInfo("A1", 1, None), SeatInfo("B1", 1, None)]}, UnrankedReason.SAME_PLAYER),
        ({"moves": 5}, UnrankedReason.TOO_SHORT),
    ],
)
def test_games_that_leave_ratings_alone(kwargs: dict[str, Any], reason: UnrankedReason) -> None:
    args: dict[str, Any] = {"ranked": True, "cancelled": False, "seats": HUMANS, "moves": 6} | kwargs
    assert ratings.unranked_reason(**args) == reason
