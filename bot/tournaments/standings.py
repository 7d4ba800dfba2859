"""Standings: points, tie-breaks and places, from the matches played so far.

A win is 1 point, a draw 1/2, a loss or a forfeit 0. A Swiss bye is worth a win (the player could not be
paired, through no fault of theirs); a round robin bye is worth nothing, since everyone sits out once.
Tie-breaks, in order:
- Swiss: Buchholz (the sum of the points of everyone the player was paired with), then Sonneborn-Berger
  (the points of the opponents beaten, plus half those of the opponents drawn), then the seed;
- round robin: Sonneborn-Berger, then wins, then the seed (Buchholz says nothing there: everyone met
  everyone, so it only mirrors the player's own score).
Single elimination places players by how far they got (`bracket_places`). Pure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.tournaments.elimination import knocked_out_in
from bot.tournaments.types import Match, Tournament, TournamentFormat

WIN, DRAW, LOSS = 1.0, 0.5, 0.0


@dataclass(frozen=True, slots=True)
class Row:
    """One line of a table: `place` is 1-based; entrants are numbers (see `Tournament.entrant`)."""

    place: int
    entrant: int
    points: float
    buchholz: float
    sonneborn_berger: float
    wins: int
    draws: int
    losses: int


# Points of a and of b for each decided outcome; "none" (neither started) is a loss for both.
_SCORED: dict[str, tuple[float, float]] = {
    "a": (WIN, LOSS), "b": (LOSS, WIN), "draw": (DRAW, DRAW), "none": (LOSS, LOSS),
}
_COLUMN = {WIN: 0, DRAW: 1, LOSS: 2}


def _tally(matches: Sequence[Match], format: TournamentFormat, numbers: Sequence[int]) -> tuple[
    dict[int, float], dict[int, list[tuple[int, float]]], dict[int, list[int]]
]:
    """Points, (opponent, points scored against them) and [wins, draws, losses] per entrant, in one pass
    (a 256-player round robin has 32,640 games)."""
    points = dict.fromkeys(numbers, 0.0)
    games: dict[int, list[tuple[int, float]]] = {n: [] for n in numbers}
    record = {n: [0, 0, 0] for n in numbers}
    bye_counts = format != "round_robin"
    for match in matches:
        outcome = match.outcome
        if outcome is None:
            continue
        a, b = match.a, match.b
        if b is None:
            if bye_counts:  # a Swiss bye counts as a win
                points[a] += WIN
                record[a][0] += 1
            continue
        got_a, got_b = _SCORED[outcome]
        points[a] += got_a
        points[b] += got_b
        games[a].append((b, got_a))
        games[b].append((a, got_b))
        record[a][_COLUMN[got_a]] += 1
        record[b][_COLUMN[got_b]] += 1
    return points, games, record


def table(tournament: Tournament) -> tuple[Row, ...]:
    """The round robin or Swiss standings now, best first (a knockout uses `bracket_places`)."""
    format = tournament.settings.format
    seed_of = seeds(tournament)
    numbers = [e.number for e in tournament.entrants]
    points, games, record = _tally(tournament.matches, format, numbers)
    buchholz = {n: sum(points[o] for o, _ in games[n]) for n in numbers}
    sonneborn = {n: sum(points[o] * s for o, s in games[n]) for n in numbers}

    def key(n: int) -> tuple[float, ...]:
        if format == "swiss":
            return (-points[n], -buchholz[n], -sonneborn[n], seed_of.get(n, n))
        return (-points[n], -sonneborn[n], -record[n][0], seed_of.get(n, n))

    ordered = sorted(numbers, key=key)
    return tuple(
        Row(place, n, points[n], buchholz[n], sonneborn[n], *record[n]) for place, n in enumerate(ordered, start=1)
    )


def seeds(tournament: Tournament) -> dict[int, int]:
    """Entrant number -> seed (1 = best); before the start, the order of joining."""
    return {e.number: e.seed if e.seed is not None else e.number for e in tournament.entrants}


def bracket_places(tournament: Tournament) -> tuple[tuple[int, int], ...]:
    """(place, entrant) for a knockout, best first: the champion 1, the finalist 2, the semi-final losers
    3 (shared), the quarter-final losers 5 (shared), and so on; players still in share the top places.
    Inside a shared place, the better seed is listed first."""
    seed_of = seeds(tournament)
    out = knocked_out_in(tournament.matches, seed_of)
    rounds = tournament.rounds or 0
    # Lasting longer is better; the champion (never knocked out) lasted rounds + 1.
    lasted = {e.number: out.get(e.number, rounds + 1) for e in tournament.entrants}
    ordered = sorted(lasted, key=lambda n: (-lasted[n], seed_of[n]))
    places = []
    for n in ordered:
        better = sum(1 for m in ordered if lasted[m] > lasted[n])
        places.append((better + 1, n))
    return tuple(places)


def scores_and_opponents(
    tournament: Tournament,
) -> tuple[dict[int, float], dict[int, set[int]], set[int]]:
    """What Swiss pairing needs: points, the set of everyone paired with each player, and who had a bye."""
    numbers = [e.number for e in tournament.entrants]
    points, _, _ = _tally(tournament.matches, tournament.settings.format, numbers)
    opponents: dict[int, set[int]] = {n: set() for n in numbers}
    had_bye: set[int] = set()
    for match in tournament.matches:
        if match.b is None:
            had_bye.add(match.a)
        else:
            opponents[match.a].add(match.b)
            opponents[match.b].add(match.a)
    return points, opponents, had_bye


def standing_order(points: Mapping[int, float], seed_of: Mapping[int, int]) -> list[int]:
    """Entrants by score, then seed: the order Swiss pairing reads."""
    return sorted(points, key=lambda n: (-points[n], seed_of[n]))
