"""Renderer speed and size: board PNG time percentiles and bytes, and replay GIFs.

Run by hand: `python benchmarks/render.py [--boards N]`. One core; prints numbers, asserts nothing.
Goals (issue 4): board PNG p50 <= 15 ms for L = 9 and <= 30 ms for L = 29 with 16 seats; PNG <= 120 KB;
a 200-move replay GIF in <= 3 s and under 8 MiB. Issue 14: a whole long 8 v 8 game's replay under 8 MiB
and under 90 s of playing time, with every capture, burn and arrival kept.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from percentiles import percentile  # benchmarks/percentiles.py: the one definition

from puluc import GameRecord, Position, Rules, Throw
from renderer import render_board, render_replay
from renderer.animation import eventful, plan, replay_frames
from renderer.sample import random_game


def positions(rules: Rules, count: int, seed: int) -> list[tuple[Position, Throw]]:
    """`count` positions from seeded random games, each just after a throw (the bot's usual render)."""
    rng = random.Random(seed)
    found: list[tuple[Position, Throw]] = []
    while len(found) < count:
        pos = Position.start(rules)
        while not pos.is_over and len(found) < count:
            legal = pos.legal_moves()
            if legal:
                pos = pos.play(rng.choice(legal))
            else:
                throw = Throw.roll(rng, rules.sticks)
                pos = pos.throw([throw.value] + [Throw.roll(rng, rules.sticks).value] * (rules.throws_per_turn - 1))
                found.append((pos, throw))
    return found


def long_records(rules: Rules, moves: int, count: int) -> list[GameRecord]:
    """`count` different random game records with exactly `moves` moves each (the first seeds whose games
    last that long)."""
    found: list[GameRecord] = []
    for seed in range(5000):
        record = random_game(rules, seed, max_moves=moves)
        if len(record.moves) == moves:
            found.append(record)
            if len(found) == count:
                return found
    raise LookupError(f"fewer than {count} random games of {rules} lasted {moves} moves")


def bench_boards(name: str, rules: Rules, count: int) -> None:
    sample = positions(rules, count, 2026)
    # Warm the background and sprite caches, as a running bot has them; each timed board is another position.
    render_board(sample[0][0])
    times: list[float] = []
    sizes: list[int] = []
    for pos, throw in sample:
        labels: dict[int | str, str] = {i + 1: str(i + 1) for i in range(min(3, pos.road_length))}
        start = time.perf_counter()
        data = render_board(pos, throw=throw, labels=labels, advantage=0.5)
        times.append((time.perf_counter() - start) * 1000)
        sizes.append(len(data))
    p50, p95 = percentile(times, 50), percentile(times, 95)
    print(
        f"{name:<28} board PNG  p50 {p50:5.1f} ms  p95 {p95:5.1f} ms  max {max(times):5.1f} ms  "
        f"size mean {statistics.mean(sizes) / 1024:5.1f} KB  max {max(sizes) / 1024:5.1f} KB  ({count} boards)"
    )


def bench_replay(name: str, rules: Rules, moves: int, games: int = 3) -> None:
    """The replay GIF of `games` different games of `moves` moves (after a short one, not timed, that warms
    the renderer's caches for these rules)."""
    records = long_records(rules, moves, games)
    render_replay(random_game(rules, 0, max_moves=10))
    seconds: list[float] = []
    sizes: list[int] = []
    for record in records:
        start = time.perf_counter()
        sizes.append(len(render_replay(record)))
        seconds.append(time.perf_counter() - start)
    print(
        f"{name:<28} replay GIF {moves} moves: p50 {percentile(seconds, 50):5.2f} s  "
        f"max {max(seconds):5.2f} s  size max {max(sizes) / 1024 / 1024:5.2f} MiB  ({games} games)"
    )


def bench_whole_game(name: str, rules: Rules, seed: int) -> None:
    """A whole random game (they run long: 8 v 8 games last over a thousand moves), replayed."""
    record = random_game(rules, seed, max_moves=10_000)
    frames = replay_frames(record)
    shots = plan(frames)
    kept = {shot.frame for shot in shots}
    events = [i for i, (position, _) in enumerate(frames) if i and eventful(position)]
    start = time.perf_counter()
    data = render_replay(record)
    elapsed = time.perf_counter() - start
    print(
        f"{name:<28} replay GIF whole game, {len(record.moves)} moves: {elapsed:5.2f} s to draw, "
        f"{len(data) / 1024 / 1024:5.2f} MiB, {len(shots)} frames, {sum(s.duration for s in shots) / 1000:5.1f} s "
        f"to play, events kept {sum(1 for i in events if i in kept)}/{len(events)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--boards", type=int, default=300, help="positions per board benchmark")
    args = parser.parse_args()
    bench_boards("bell 1v1 L=9", Rules.preset("bell"), args.boards)
    bench_boards("ants 1v1 L=9", Rules.preset("ants"), args.boards)
    bench_boards("ants 8v8 L=29 (16 seats)", Rules.preset("ants", team_size=8), args.boards)
    bench_boards("fire 8v8 L=29", Rules.preset("fire", team_size=8), args.boards // 3)
    bench_replay("ants 2v2 L=19", Rules.preset("ants", team_size=2), 200)
    bench_replay("ants 8v8 L=29", Rules.preset("ants", team_size=8), 200)
    for seed in (1, 2, 3):
        bench_whole_game(f"ants 8v8 L=29 seed {seed}", Rules.preset("ants", team_size=8), seed)


if __name__ == "__main__":
    main()
