"""Tournament speed: pairing a Swiss round and computing standings for a big field.

`python benchmarks/tournament.py [--players 256] [--tournaments 20] [--seed 1]` plays whole Swiss
tournaments of random results (decisive, drawn and double-forfeited games, and a bye when the field is odd),
timing every round's pairing and the standings after every round, then prints p50/p95/max (benchmarks/
percentiles.py) against the goals of issue 17:

  pairing one round of a 256-player Swiss <= 50 ms, standings of a 256-player tournament <= 20 ms.

Each tournament has its own results, so later rounds meet different score groups and rematch blocks; one
untimed tournament runs first as the warm-up. It also prints the standings of a whole 256-player round robin
(32,640 games) for scale. Prints numbers; never asserts. Run it with `nice -n 10` on a shared machine.
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import replace

from percentiles import summary  # benchmarks/percentiles.py: the one definition

from bot.tournaments import formats
from bot.tournaments.formats import pairings, planned_rounds
from bot.tournaments.standings import table
from bot.tournaments.types import (
    Entrant,
    Match,
    Outcome,
    Tournament,
    TournamentFormat,
    TournamentSettings,
)

GOALS_MS = {"pairing": 50.0, "standings": 20.0}
OUTCOMES: tuple[Outcome, ...] = ("a", "a", "b", "b", "draw", "none")


def started(format: TournamentFormat, players: int, rng: random.Random) -> Tournament:
    entrants = tuple(Entrant(n, 10_000 + n, f"player {n}") for n in range(1, players + 1))
    ratings = {n: rng.randrange(1000, 2400) for n in range(1, players + 1)}
    settings = TournamentSettings("bench", format, "bell", None, 600, 86_400, False)
    return Tournament(1, 1, 1, None, 10_001, settings, "running", planned_rounds(format, players), 0, None, 0.0,
                      None, formats.seeded(entrants, ratings), ())


def decide(tournament: Tournament, round_no: int, boards: list[formats.Pairing], rng: random.Random) -> Tournament:
    played = tuple(
        Match(round_no, board, p.a, p.b, outcome="a" if p.b is None else rng.choice(OUTCOMES),
              decided_by="bye" if p.b is None else "game")
        for board, p in enumerate(boards, start=1)
    )
    return replace(tournament, round=round_no, matches=tournament.matches + played)


def swiss_run(players: int, rng: random.Random, pair_ms: list[float], table_ms: list[float]) -> None:
    tournament = started("swiss", players, rng)
    for round_no in range(1, (tournament.rounds or 0) + 1):
        began = time.perf_counter()
        boards = pairings(tournament, round_no)
        pair_ms.append((time.perf_counter() - began) * 1000)
        tournament = decide(tournament, round_no, boards, rng)
        began = time.perf_counter()
        table(tournament)
        table_ms.append((time.perf_counter() - began) * 1000)


def round_robin_table_ms(players: int, rng: random.Random, repeats: int = 5) -> list[float]:
    tournament = started("round_robin", players, rng)
    for round_no in range(1, (tournament.rounds or 0) + 1):
        tournament = decide(tournament, round_no, pairings(tournament, round_no), rng)
    timings = []
    for _ in range(repeats):
        began = time.perf_counter()
        table(tournament)
        timings.append((time.perf_counter() - began) * 1000)
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--tournaments", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    swiss_run(args.players, rng, [], [])  # warm-up, untimed
    pair_ms: list[float] = []
    table_ms: list[float] = []
    for _ in range(args.tournaments):
        swiss_run(args.players, rng, pair_ms, table_ms)
    rounds = planned_rounds("swiss", args.players)
    print(f"Swiss of {args.players} players, {rounds} rounds, {args.tournaments} tournaments "
          f"({len(pair_ms)} rounds timed)")
    print(f"  pairing one round, ms:  {summary(pair_ms)}   goal p95 <= {GOALS_MS['pairing']:g}")
    print(f"  standings, ms:          {summary(table_ms)}   goal p95 <= {GOALS_MS['standings']:g}")
    robin = round_robin_table_ms(args.players, rng)
    games = args.players * (args.players - 1) // 2
    print(f"Round robin of {args.players} players ({games} games): standings, ms: {summary(robin)}")


if __name__ == "__main__":
    main()
