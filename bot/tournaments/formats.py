"""The three formats behind one face: how many rounds, how entrants are seeded, who plays whom next, and
who won.

Seeding orders the entrants by the rating they bring (best first; equal ratings by who joined first). Each
format's own module holds its arithmetic (roundrobin.py, elimination.py, swiss.py); this one picks the right
one. Pure.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from bot.tournaments import elimination, roundrobin, swiss
from bot.tournaments.standings import bracket_places, scores_and_opponents, seeds, standing_order, table
from bot.tournaments.types import Entrant, Pairing, Tournament, TournamentFormat

MIN_ENTRANTS = 3
MAX_ENTRANTS = 256


def planned_rounds(format: TournamentFormat, players: int) -> int:
    if format == "round_robin":
        return roundrobin.round_robin_rounds(players)
    if format == "single_elimination":
        return elimination.elimination_rounds(players)
    return swiss.swiss_rounds(players)


def seeded(entrants: tuple[Entrant, ...], ratings: Mapping[int, int]) -> tuple[Entrant, ...]:
    """The entrants with their seed and the rating it came from (`ratings` by entrant number), best first."""
    order = sorted(entrants, key=lambda e: (-ratings[e.number], e.number))
    return tuple(replace(e, rating=ratings[e.number], seed=place) for place, e in enumerate(order, start=1))


def pairings(tournament: Tournament, round_no: int) -> list[Pairing]:
    """The boards of round `round_no`, once every earlier round is decided."""
    format = tournament.settings.format
    seed_of = seeds(tournament)
    by_seed = sorted(seed_of, key=seed_of.__getitem__)
    if format == "round_robin":
        return roundrobin.round_robin_pairings(by_seed, round_no)
    if format == "single_elimination":
        if round_no == 1:
            return elimination.first_round(by_seed)
        return elimination.next_round(tournament.round_matches(round_no - 1), seed_of)
    points, opponents, had_bye = scores_and_opponents(tournament)
    return swiss.swiss_pairings(standing_order(points, seed_of), points, opponents, had_bye)


def round_decided(tournament: Tournament, round_no: int) -> bool:
    matches = tournament.round_matches(round_no)
    return bool(matches) and all(m.decided for m in matches)


def winner(tournament: Tournament) -> int:
    """The entrant who won a tournament whose every round is decided."""
    if tournament.settings.format == "single_elimination":
        return bracket_places(tournament)[0][1]
    return table(tournament)[0].entrant
