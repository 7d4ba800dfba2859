"""Engine speed: random full-game playouts per second through the public API, and µs per legal_moves+play.

Run by hand: `python benchmarks/engine.py [--seconds S]`. One core; prints numbers, asserts nothing. Only the
public API (RULES.md §10), so the same script measures any version of the engine.
Goal (issue 2): at least 3,000 random Bell 1 v 1 games per second.
"""

from __future__ import annotations

import argparse
import random
import time

from puluc import Position, Rules, Throw


def playout(rules: Rules, rng: random.Random) -> int:
    """One random game through the public API (throw, legal_moves, play, outcome); returns its move count."""
    pos = Position.start(rules, "A" if rng.random() < 0.5 else "B")
    sticks = rules.sticks
    per_turn = rules.throws_per_turn
    moves = 0
    while pos.outcome() is None:
        legal = pos.legal_moves()
        if legal:
            pos = pos.play(legal[int(rng.random() * len(legal))])
            moves += 1
        else:
            pos = pos.throw([Throw.roll(rng, sticks).value for _ in range(per_turn)])
    return moves


def measure(name: str, rules: Rules, seconds: float) -> None:
    rng = random.Random(2026)
    games = moves = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        moves += playout(rules, rng)
        games += 1
    elapsed = time.perf_counter() - start
    print(
        f"{name:<26} {games / elapsed:8.0f} games/s   {moves / games:6.1f} moves/game   "
        f"{elapsed / moves * 1e6:6.2f} µs per move (throw+legal_moves+play+outcome)"
    )


def micro(rules: Rules, seconds: float) -> None:
    """µs per throw + legal_moves + play on positions sampled from random games (each with a throw that allows a
    move). Every round throws again, so each position is new and its legal moves are generated, never cached."""
    rng = random.Random(7)
    samples: list[tuple[Position, list[int]]] = []
    while len(samples) < 2000:
        pos = Position.start(rules)
        while pos.outcome() is None:
            if pos.must_throw:
                throws = [Throw.roll(rng, rules.sticks).value for _ in range(rules.throws_per_turn)]
                thrown = pos.throw(throws)
                if thrown.legal_moves():
                    samples.append((pos, throws))
                pos = thrown
            else:
                pos = pos.play(rng.choice(pos.legal_moves()))
    for before, throws in samples:  # warm-up: the route tables and the interned moves
        before.throw(throws).legal_moves()
    count = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for before, throws in samples:
            pos = before.throw(throws)
            pos.play(pos.legal_moves()[0])
        count += len(samples)
    elapsed = time.perf_counter() - start
    print(f"{'throw+legal_moves+play (Bell)':<26} {elapsed / count * 1e6:8.2f} µs")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0, help="time per measurement")
    args = parser.parse_args()
    measure("Bell 1 v 1", Rules.preset("bell"), args.seconds)
    measure("ants 1 v 1", Rules.preset("ants"), args.seconds)
    measure("traditional ants 2 v 2", Rules.preset("ants", team_size=2), args.seconds)
    micro(Rules.preset("bell"), args.seconds)


if __name__ == "__main__":
    main()
