"""Swiss pairing: ceil(log2 n) rounds, each pairing players of equal score, never the same two twice.

The players come in standing order (score, then seed). Inside a group of equal score the Dutch fold
applies: the top player meets the one half a group below (in a group of eight, 1 v 5, 2 v 6, 3 v 7, 4 v 8),
so the strongest do not meet each other first; a player the group cannot pair floats down to the next group.
A depth-first search walks these preferences and backtracks only where a rematch blocks the way, so the
first complete pairing it finds is the most Swiss one. An odd field gives the bye (worth a win) to the
lowest-placed player who has not had one yet. Pure.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet

from bot.tournaments.types import Pairing

# Search nodes allowed for the preferred pairing before the constrained fallback takes over: a few
# thousand times what a 256-player round needs when nothing blocks (one node per board).
PREFERRED_NODE_BUDGET = 200_000


class NoPairing(ValueError):
    """No pairing of the round avoids a rematch (and a second bye)."""


class _Exhausted(Exception):
    """The preferred search ran out of nodes."""


def swiss_rounds(players: int) -> int:
    """ceil(log2 n) rounds: enough for one player to be the only one who won every game."""
    if players < 2:
        raise ValueError(f"a Swiss needs at least two players, not {players}")
    return (players - 1).bit_length()


def swiss_pairings(
    order: Sequence[int],
    scores: Mapping[int, float],
    opponents: Mapping[int, AbstractSet[int]],
    had_bye: Collection[int],
) -> list[Pairing]:
    """The boards of the next round, best first; a bye, if any, last.

    `order` is every player in standing order (score, then seed), `scores` their points, `opponents` whom
    each has been paired with already, `had_bye` who has had a bye. Raises NoPairing when no pairing avoids
    a rematch or a second bye (it cannot happen within `swiss_rounds` rounds of a Swiss paired here).
    """
    players = list(order)
    if len(players) % 2 == 0:
        found = _pair_round(players, scores, opponents)
        if found is None:
            raise NoPairing(f"the {len(players)} players cannot all be paired without a rematch")
        return _boards(found, None)
    for lowest in reversed(players):
        if lowest in had_bye:
            continue
        found = _pair_round([p for p in players if p != lowest], scores, opponents)
        if found is not None:
            return _boards(found, lowest)
    raise NoPairing(f"every one of the {len(players)} players has had a bye, or the rest cannot be paired")


def _boards(pairs: list[tuple[int, int]], bye: int | None) -> list[Pairing]:
    boards = [Pairing(a, b) for a, b in pairs]
    return boards if bye is None else [*boards, Pairing(bye, None)]


def _pair_round(
    players: list[int],
    scores: Mapping[int, float],
    opponents: Mapping[int, AbstractSet[int]],
) -> list[tuple[int, int]] | None:
    """Every player paired, top boards first, or None when no pairing avoids a rematch."""
    try:
        found = _preferred(players, scores, opponents, [PREFERRED_NODE_BUDGET])
    except _Exhausted:
        found = _constrained(players, opponents)
    return None if found is None else found[::-1]


def _preferred(
    players: list[int], scores: Mapping[int, float], opponents: Mapping[int, AbstractSet[int]], budget: list[int]
) -> list[tuple[int, int]] | None:
    """Pairs (top first, reversed) in Swiss preference order, or None when no pairing avoids rematches."""
    if not players:
        return []
    budget[0] -= 1
    if budget[0] < 0:
        raise _Exhausted
    top = players[0]
    met = opponents.get(top, frozenset())
    for partner in _candidates(players, scores):
        if partner in met:
            continue
        found = _preferred([p for p in players[1:] if p != partner], scores, opponents, budget)
        if found is not None:
            found.append((top, partner))
            return found
    return None


def _candidates(players: list[int], scores: Mapping[int, float]) -> Iterator[int]:
    """Partners for `players[0]`, best first: its score group from half-way down (the Dutch fold), then the
    group's upper half upwards, then the lower groups in order."""
    score = scores.get(players[0], 0.0)
    group = 1
    while group < len(players) and scores.get(players[group], 0.0) == score:
        group += 1
    half = group // 2
    if half:
        yield from players[half:group]
        yield from reversed(players[1:half])
    yield from players[group:]


def _constrained(players: list[int], opponents: Mapping[int, AbstractSet[int]]) -> list[tuple[int, int]] | None:
    """Any rematch-free pairing, most constrained players first (the fallback when the preferred search
    stalls: it gives up Swiss order, never the no-rematch rule)."""
    if not players:
        return []
    allowed = {p: [q for q in players if q != p and q not in opponents.get(p, frozenset())] for p in players}
    top = min(players, key=lambda p: len(allowed[p]))
    for partner in sorted(allowed[top], key=lambda q: len(allowed[q])):
        found = _constrained([p for p in players if p not in (top, partner)], opponents)
        if found is not None:
            found.append((top, partner))
            return found
    return None
