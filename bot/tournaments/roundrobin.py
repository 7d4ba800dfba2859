"""Round robin by the circle method (Berger tables): everyone meets everyone once.

With n players (one more, a bye, when n is odd) there are n - 1 rounds; in round r the first player stays
put and the others turn r places round the circle, and the player at position i meets the one at n - 1 - i.
Pure arithmetic on entrant numbers.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.tournaments.types import Pairing


def round_robin_rounds(players: int) -> int:
    """How many rounds everyone-meets-everyone takes: n - 1, or n when a bye completes an odd field."""
    return players - 1 if players % 2 == 0 else players


def round_robin_pairings(seeded: Sequence[int], round_no: int) -> list[Pairing]:
    """The boards of round `round_no` (1-based) for the entrants in seed order; a bye comes last."""
    if not 1 <= round_no <= round_robin_rounds(len(seeded)):
        raise ValueError(f"a round robin of {len(seeded)} has rounds 1..{round_robin_rounds(len(seeded))}, "
                         f"not {round_no}")
    circle: list[int | None] = [*seeded, None] if len(seeded) % 2 else list(seeded)
    size = len(circle)
    turn = (round_no - 1) % (size - 1)
    rest = circle[1:]
    turned = rest[len(rest) - turn:] + rest[: len(rest) - turn] if turn else rest
    places = [circle[0], *turned]
    games: list[Pairing] = []
    byes: list[Pairing] = []
    for i in range(size // 2):
        first, second = places[i], places[size - 1 - i]
        # The fixed player would always be A: swap on every other round so the sides share out evenly.
        if i == 0 and round_no % 2 == 0:
            first, second = second, first
        if first is None or second is None:
            lone = first if first is not None else second
            assert lone is not None  # only one place of the circle is the bye
            byes.append(Pairing(lone, None))
        else:
            games.append(Pairing(first, second))
    return games + byes
