"""Balancing a team lobby: the most even split by openskill's prediction, moving as few players as it can."""

from __future__ import annotations

from itertools import combinations

import pytest

from bot.ratings import AI_SIGMA, Skill, win_chances
from bot.sessions.balance import best_split


def test_four_players_of_known_ratings_split_into_the_most_even_teams() -> None:
    # A strong player and a weak one against two average players is even; any other split is not.
    skills = {"A1": Skill(35.0, 2.0), "B1": Skill(25.0, 2.0), "A2": Skill(15.0, 2.0), "B2": Skill(25.0, 2.0)}
    chance = win_chances(skills)
    split = best_split(list(skills), {seat: seat[0] for seat in skills}, chance)
    assert {frozenset(split.team_a), frozenset(split.team_b)} == {frozenset({"A1", "A2"}), frozenset({"B1", "B2"})}
    assert split.chance_a == pytest.approx(0.5)
    assert split.moved == 0  # that is how they sit already
    others = [abs(chance(list(a), [s for s in skills if s not in a]) - 0.5) for a in combinations(skills, 2)]
    assert abs(split.chance_a - 0.5) == pytest.approx(min(others))


def test_lopsided_teams_are_rearranged_and_the_chance_is_the_prediction() -> None:
    # The two strong players sit together in team A: balancing pairs the strongest with the weakest.
    skills = {"A1": Skill(40.0, 1.5), "B1": Skill(12.0, 1.5), "A2": Skill(38.0, 1.5), "B2": Skill(14.0, 1.5)}
    chance = win_chances(skills)
    before = chance(["A1", "A2"], ["B1", "B2"])
    split = best_split(list(skills), {seat: seat[0] for seat in skills}, chance)
    assert before > 0.95
    assert {frozenset(split.team_a), frozenset(split.team_b)} == {frozenset({"A1", "B1"}), frozenset({"A2", "B2"})}
    assert split.chance_a == pytest.approx(chance(split.team_a, split.team_b))
    assert abs(split.chance_a - 0.5) < 0.1
    assert split.moved == 2  # one swap, not four players moved


def test_uncertainty_is_part_of_the_prediction_but_not_of_the_evenness() -> None:
    # Equal means: any split with one newcomer per team is exactly even, whatever the sigmas.
    skills = {"A1": Skill(25.0, 8.3), "B1": Skill(25.0, 1.0), "A2": Skill(25.0, 8.3), "B2": Skill(25.0, 1.0)}
    split = best_split(list(skills), {seat: seat[0] for seat in skills}, win_chances(skills))
    assert split.chance_a == pytest.approx(0.5) and split.moved == 0


def test_an_ai_seat_counts_with_its_own_small_uncertainty() -> None:
    assert 0 < AI_SIGMA < Skill(25.0, 25 / 3).sigma


def test_an_odd_number_of_players_cannot_be_split() -> None:
    with pytest.raises(ValueError, match="even number"):
        best_split(["A1", "B1", "A2"], {"A1": "A", "B1": "B", "A2": "A"}, lambda a, b: 0.5)
