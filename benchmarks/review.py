"""What a game's review costs (`puluc.ai.review.review_game`, for `/puluc review`): CPU per reviewed game.

Run by hand: `python benchmarks/review.py`. Games are played between medium players (their dice and choices
seeded by the game's number) on Bell 1 v 1 (reviewed exactly with the shipped table, bot/exact/bell.bin), ants
1 v 1 and Bell 8 v 8 (traditional: two throws a turn, one active piece, 29 cells; reviewed by the hard player's
search at `--budget-ms` a decision). For each it prints the CPU of reviewing the first seat of every game (the
thread's CPU time, so other processes do not inflate it) p50 / p95 / max in ms, the decisions reviewed per game,
and once the CPU and memory of loading the table; then the same for the whole job a worker runs for `/puluc
review` (`bot.learning.review.review`: the review, its chart and the boards of the three costliest decisions).
Note `uptime` with the numbers. Asserts nothing.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

from percentiles import summary  # benchmarks/percentiles.py: the one definition

import puluc.ai
from bot.learning.review import ReviewRequest, review
from puluc import Game, GameRecord, Rules
from puluc.ai import choose_move
from puluc.ai.exact import ExactTable
from puluc.ai.review import REVIEW_BUDGET_MS, review_game

HERE = Path(__file__).resolve().parent
# No wall-clock cut-off: every search runs to its node budget whatever the machine's load.
puluc.ai.SAFETY_FACTOR = math.inf

VARIANTS = {
    "bell 1v1": Rules.preset("bell"),
    "ants 1v1": Rules.preset("ants"),
    "bell 8v8": Rules.preset("bell", team_size=8),
}


def medium_game(rules: Rules, number: int) -> GameRecord:
    """A finished game between medium players, all of it seeded by `number`."""
    rng = random.Random(number)
    game = Game.new(rules, rng)
    while not game.position.is_over:
        if game.position.must_throw:
            game.roll(rng)
        else:
            game.play(choose_move(game.position, "medium", rng))
    return game.record


def resident_mb() -> float:
    with open("/proc/self/status") as status:
        return int(status.read().split("VmRSS:")[1].split()[0]) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=30, help="games per variant")
    parser.add_argument("--budget-ms", type=float, default=REVIEW_BUDGET_MS, help="the search's, per decision")
    parser.add_argument("--variants", nargs="+", default=list(VARIANTS), choices=list(VARIANTS))
    args = parser.parse_args()
    data = (HERE.parent / "bot" / "exact" / "bell.bin").read_bytes()
    before = resident_mb()
    started = time.process_time()
    table = ExactTable.from_bytes(data)
    print(
        f"Bell table: {len(data) / 1e6:.1f} MB file, loaded in {time.process_time() - started:.2f} s of CPU, "
        f"{resident_mb() - before:.1f} MB more resident"
    )
    del data
    for name in args.variants:
        rules = VARIANTS[name]
        records = [medium_game(rules, number) for number in range(args.games)]
        # A worker has the table, the fonts and the drawn parts loaded before its first review (its boards' bar
        # loads the table): one untimed job here does the same.
        review(ReviewRequest(records[0], "A1", {}, {}, args.budget_ms))
        cpu: list[float] = []
        job: list[float] = []
        decisions: list[int] = []
        method = ""
        for record in records:
            start = time.thread_time()
            reviewed = review_game(record, "A1", table, args.budget_ms)
            cpu.append((time.thread_time() - start) * 1000)
            decisions.append(len(reviewed.decisions))
            method = reviewed.method
            start = time.thread_time()
            review(ReviewRequest(record, "A1", {}, {}, args.budget_ms))
            job.append((time.thread_time() - start) * 1000)
        events = sum(len(r.events) for r in records) / len(records)
        print(
            f"{name} ({method}, {len(records)} games of {events:.0f} events on average, "
            f"{sum(decisions) / len(decisions):.1f} decisions of A1 reviewed): CPU ms per game {summary(cpu)}; "
            f"the whole job with its pictures {summary(job)}",
            flush=True,
        )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
