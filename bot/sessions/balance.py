"""Balanced teams: the split of a full team lobby into the two teams whose predicted result is closest to even.

Every way of choosing half the players for one team is weighed by a win-chance function that the caller
gives (openskill's prediction over the players' ratings: this layer knows no rating model). The split whose
chance is closest to 50% wins; among equally close ones, the one that moves the fewest players away from the
team they sit in now, then the first in seat order. A split and its mirror image are the same teams, so only
splits with the first player in team A are weighed: C(16, 8) / 2 = 6,435 for 8 v 8. Pure.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)  # whatever names a player to the caller (a seat name)

# Chances this close count as equally even: a rounding difference must not move players for nothing.
EVEN_TOLERANCE = 1e-9


@dataclass(frozen=True, slots=True)
class Split(Generic[K]):
    """Two teams (players in their original order), team A's predicted chance, and how many players changed
    team."""

    team_a: tuple[K, ...]
    team_b: tuple[K, ...]
    chance_a: float
    moved: int


def best_split(
    players: Sequence[K],
    team_of: Mapping[K, str],
    chance: Callable[[Sequence[K], Sequence[K]], float],
) -> Split[K]:
    """The most even split of `players` (an even number, in seat order) into teams "A" and "B".

    `team_of` says where each player sits now; `chance(team_a, team_b)` is team A's predicted chance to win.
    """
    count = len(players)
    if count < 2 or count % 2:
        raise ValueError(f"two equal teams need an even number of players, not {count}")
    size = count // 2
    best: tuple[float, int, int] | None = None
    found: Split[K] | None = None
    for order, others in enumerate(combinations(range(1, count), size - 1)):
        chosen = {0, *others}
        team_a = tuple(players[i] for i in range(count) if i in chosen)
        team_b = tuple(players[i] for i in range(count) if i not in chosen)
        p = chance(team_a, team_b)
        moved = sum(team_of[k] != "A" for k in team_a) + sum(team_of[k] != "B" for k in team_b)
        if count - moved < moved:  # the mirror image moves fewer players: the same teams, sides swapped
            team_a, team_b, p, moved = team_b, team_a, 1.0 - p, count - moved
        key = (round(abs(p - 0.5) / EVEN_TOLERANCE) * EVEN_TOLERANCE, moved, order)
        if best is None or key < best:
            best, found = key, Split(team_a, team_b, p, moved)
    assert found is not None
    return found
