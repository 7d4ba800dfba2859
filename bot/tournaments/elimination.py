"""Single elimination seeded by rating: the bracket, its byes, who goes through, and the final places.

The bracket has the next power of two of places; the best seeds fill it in the standard order (1 v 8, 4 v 5,
2 v 7, 3 v 6 for eight), so seeds 1 and 2 can meet only in the final, and the places beyond the field are
byes, which fall to the best seeds. Winners of boards 1 and 2 meet on board 1 of the next round, and so on.
A knockout match needs a winner: after a draw, or when neither player started the game, the better seed
goes through [decided]. Pure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.tournaments.types import Match, Pairing


def bracket_size(players: int) -> int:
    """The number of places in the bracket: the smallest power of two that holds every player."""
    if players < 2:
        raise ValueError(f"a bracket needs at least two players, not {players}")
    return 1 << (players - 1).bit_length()


def elimination_rounds(players: int) -> int:
    return bracket_size(players).bit_length() - 1


def seed_positions(size: int) -> list[int]:
    """The seeds in bracket order: 1, 8, 4, 5, 2, 7, 3, 6 for eight (each pair is a first-round board)."""
    order = [1]
    while len(order) < size:
        mirror = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, mirror - top)]
    return order


def first_round(seeded: Sequence[int]) -> list[Pairing]:
    """The first round's boards for the entrants in seed order (best first); seeds past the field are byes."""
    by_seed = dict(enumerate(seeded, start=1))
    order = seed_positions(bracket_size(len(seeded)))
    boards = []
    for top, bottom in zip(order[::2], order[1::2], strict=True):
        boards.append(Pairing(by_seed[top], by_seed.get(bottom)))
    return boards


def advancer(match: Match, seed_of: Mapping[int, int]) -> int:
    """Who goes through from a decided knockout match: its winner, else the better seed."""
    if match.b is None:
        return match.a
    winner = match.winner()
    if winner is not None:
        return winner
    if match.outcome is None:
        raise ValueError(f"round {match.round} board {match.board} is not decided yet")
    return min((match.a, match.b), key=lambda number: seed_of[number])


def next_round(previous: Sequence[Match], seed_of: Mapping[int, int]) -> list[Pairing]:
    """The boards after a finished round: the winners of boards 1 and 2 meet, then 3 and 4, and so on."""
    ordered = sorted(previous, key=lambda m: m.board)
    if len(ordered) < 2 or len(ordered) % 2:
        raise ValueError(f"a knockout round of {len(ordered)} boards has no next round")
    through = [advancer(match, seed_of) for match in ordered]
    return [Pairing(through[i], through[i + 1]) for i in range(0, len(through), 2)]


def champion(final: Match, seed_of: Mapping[int, int]) -> int:
    return advancer(final, seed_of)


def knocked_out_in(matches: Sequence[Match], seed_of: Mapping[int, int]) -> dict[int, int]:
    """The round each entrant lost in (entrants still in, or the champion, are missing)."""
    out: dict[int, int] = {}
    for match in matches:
        if match.outcome is None or match.b is None:
            continue
        through = advancer(match, seed_of)
        loser = match.b if through == match.a else match.a
        out[loser] = match.round
    return out
