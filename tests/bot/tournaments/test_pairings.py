"""Who plays whom: round robin meets everyone once, a knockout seeds by rating and gives byes to the best,
Swiss never pairs two players twice (a property over random fields and results)."""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournaments import formats, swiss
from bot.tournaments.elimination import bracket_size, seed_positions
from bot.tournaments.formats import pairings, planned_rounds, round_decided
from bot.tournaments.standings import scores_and_opponents
from bot.tournaments.swiss import swiss_pairings, swiss_rounds
from bot.tournaments.types import (
    Entrant,
    Match,
    Outcome,
    Tournament,
    TournamentFormat,
    TournamentSettings,
)


def field(format: TournamentFormat, players: int, ratings: list[int] | None = None) -> Tournament:
    """A started tournament of `players` entrants (numbered 1..n), seeded by `ratings` (default: joined order)."""
    entrants = tuple(Entrant(n, 1000 + n, f"p{n}") for n in range(1, players + 1))
    given_ratings = ratings or [2000 - n for n in range(1, players + 1)]
    seeded = formats.seeded(entrants, dict(zip(range(1, players + 1), given_ratings, strict=True)))
    settings_ = TournamentSettings("cup", format, "bell", None, 600, 86_400, False)
    return Tournament(1, 9, 500, None, 1001, settings_, "running", planned_rounds(format, players), 0, None,
                      0.0, None, tuple(sorted(seeded, key=lambda e: e.number)), ())


def play_round(tournament: Tournament, round_no: int, outcomes: list[Outcome]) -> Tournament:
    """Pair round `round_no` and decide its boards with `outcomes` (cycled); byes go to a."""
    boards = pairings(tournament, round_no)
    played = []
    for board, pairing in enumerate(boards, start=1):
        if pairing.b is None:
            played.append(Match(round_no, board, pairing.a, None, outcome="a", decided_by="bye"))
        else:
            outcome = outcomes[(board - 1) % len(outcomes)]
            played.append(Match(round_no, board, pairing.a, pairing.b, outcome=outcome, decided_by="game"))
    return replace(tournament, round=round_no, matches=tournament.matches + tuple(played))


def run(format: TournamentFormat, players: int, rng: random.Random) -> Tournament:
    tournament = field(format, players)
    assert tournament.rounds is not None
    for round_no in range(1, tournament.rounds + 1):
        count = len(pairings(tournament, round_no))
        outcome_pool: list[Outcome] = ["a", "b", "draw", "none"] if format != "single_elimination" else ["a", "b"]
        tournament = play_round(tournament, round_no, [rng.choice(outcome_pool) for _ in range(count)])
        assert round_decided(tournament, round_no)
    return tournament


def met_pairs(tournament: Tournament) -> list[frozenset[int]]:
    return [frozenset((m.a, m.b)) for m in tournament.matches if m.b is not None]


def test_round_robin_of_five_meets_everyone_once_and_sits_each_out_once() -> None:
    tournament = run("round_robin", 5, random.Random(1))
    assert tournament.rounds == 5
    pairs = met_pairs(tournament)
    assert sorted(map(sorted, pairs)) == sorted(map(sorted, map(frozenset, combinations(range(1, 6), 2))))
    byes = [m.a for m in tournament.matches if m.b is None]
    assert sorted(byes) == [1, 2, 3, 4, 5]


@given(st.integers(min_value=3, max_value=20))
def test_round_robin_every_pair_exactly_once(players: int) -> None:
    tournament = run("round_robin", players, random.Random(players))
    pairs = met_pairs(tournament)
    assert len(pairs) == len(set(pairs)) == players * (players - 1) // 2
    for round_no in range(1, (tournament.rounds or 0) + 1):
        seated = [n for m in tournament.round_matches(round_no) for n in (m.a, m.b) if n is not None]
        assert sorted(seated) == list(range(1, players + 1))  # nobody twice in a round, nobody missing


def test_bracket_order_keeps_the_top_seeds_apart_until_the_final() -> None:
    assert seed_positions(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    order = seed_positions(16)
    assert order.index(1) < 8 <= order.index(2)  # 1 and 2 in opposite halves
    assert len({order.index(seed) // 4 for seed in (1, 2, 3, 4)}) == 4  # the top four in four quarters


def test_knockout_of_five_seeds_by_rating_and_gives_the_three_byes_to_the_best() -> None:
    # Entrant 5 brings the best rating, entrant 1 the worst: seeds 1..5 are entrants 5, 4, 3, 2, 1.
    tournament = field("single_elimination", 5, ratings=[1400, 1500, 1600, 1700, 1800])
    assert bracket_size(5) == 8 and tournament.rounds == 3
    first = pairings(tournament, 1)
    byes = sorted(p.a for p in first if p.b is None)
    assert byes == [3, 4, 5]  # seeds 3, 2 and 1
    (game,) = [p for p in first if p.b is not None]
    assert {game.a, game.b} == {2, 1}  # seeds 4 and 5 play the only first-round game


def test_knockout_winners_meet_in_bracket_order_and_a_drawn_match_sends_the_better_seed_through() -> None:
    tournament = field("single_elimination", 5)  # seeds follow the entrant numbers
    tournament = play_round(tournament, 1, ["draw"])  # 4 v 5 drawn: seed 4 goes through
    second = pairings(tournament, 2)
    assert [(p.a, p.b) for p in second] == [(1, 4), (2, 3)]
    tournament = play_round(tournament, 2, ["b", "a"])  # 4 beats 1, 2 beats 3
    assert [(p.a, p.b) for p in pairings(tournament, 3)] == [(4, 2)]
    tournament = play_round(tournament, 3, ["b"])
    assert formats.winner(tournament) == 2


def test_swiss_rounds_are_the_ceiling_of_log2() -> None:
    assert [swiss_rounds(n) for n in (2, 3, 4, 5, 8, 9, 16, 17, 256)] == [1, 2, 2, 3, 3, 4, 4, 5, 8]


def test_swiss_folds_a_score_group_in_half() -> None:
    order = list(range(1, 9))
    boards = swiss_pairings(order, dict.fromkeys(order, 0.0), {n: set() for n in order}, set())
    assert [(p.a, p.b) for p in boards] == [(1, 5), (2, 6), (3, 7), (4, 8)]


def test_swiss_moves_a_partner_down_rather_than_repeat_a_pairing() -> None:
    order = list(range(1, 9))
    met: dict[int, set[int]] = {n: set() for n in order} | {1: {5}, 5: {1}}
    boards = swiss_pairings(order, dict.fromkeys(order, 1.0), met, set())
    pairs = {frozenset((p.a, p.b)) for p in boards}
    assert frozenset((1, 5)) not in pairs and frozenset((1, 6)) in pairs


def test_swiss_bye_goes_to_the_lowest_player_without_one() -> None:
    order = [1, 2, 3, 4, 5]
    scores = {1: 2.0, 2: 1.0, 3: 1.0, 4: 0.0, 5: 0.0}
    boards = swiss_pairings(order, scores, {n: set() for n in order}, had_bye={5})
    assert boards[-1].b is None and boards[-1].a == 4


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=2, max_value=48), st.integers(min_value=0, max_value=2**32))
def test_swiss_never_pairs_two_players_twice(players: int, seed: int) -> None:
    tournament = run("swiss", players, random.Random(seed))
    pairs = met_pairs(tournament)
    assert len(pairs) == len(set(pairs))
    byes = [m.a for m in tournament.matches if m.b is None]
    assert len(byes) == len(set(byes))  # a second bye would be a repeat too
    assert len(byes) == (players % 2) * (tournament.rounds or 0)
    for round_no in range(1, (tournament.rounds or 0) + 1):
        seated = [n for m in tournament.round_matches(round_no) for n in (m.a, m.b) if n is not None]
        assert sorted(seated) == list(range(1, players + 1))


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=4, max_value=32), st.integers(min_value=0, max_value=2**32))
def test_swiss_pairs_equal_scores_when_it_can(players: int, seed: int) -> None:
    """In round 2, after an all-decisive first round, winners meet winners and losers meet losers whenever
    the group sizes allow it (at most one float between the groups)."""
    tournament = field("swiss", players)
    tournament = play_round(tournament, 1, [random.Random(seed).choice(["a", "b"])])
    points, _, _ = scores_and_opponents(tournament)
    mixed = [p for p in pairings(tournament, 2) if p.b is not None and points[p.a] != points[p.b]]
    assert len(mixed) <= 1


@settings(max_examples=20, deadline=None)
@given(st.integers(min_value=4, max_value=24), st.integers(min_value=0, max_value=2**32))
def test_when_the_preferred_search_gives_up_the_fallback_still_never_repeats_a_pairing(
    players: int, seed: int
) -> None:
    original = swiss.PREFERRED_NODE_BUDGET
    swiss.PREFERRED_NODE_BUDGET = 1  # every round goes to the most-constrained-first fallback
    try:
        tournament = run("swiss", players, random.Random(seed))
    finally:
        swiss.PREFERRED_NODE_BUDGET = original
    pairs = met_pairs(tournament)
    assert len(pairs) == len(set(pairs))
    for round_no in range(1, (tournament.rounds or 0) + 1):
        seated = [n for m in tournament.round_matches(round_no) for n in (m.a, m.b) if n is not None]
        assert sorted(seated) == list(range(1, players + 1))
