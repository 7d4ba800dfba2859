"""A sheet of sample renders for reviewers: `python -m renderer.sample OUTDIR`.

Writes the start position, a mid-game with a tall tower, a team 8 v 8 game on 29 cells, fire, both
themes, the sticks, a replay GIF and both charts into OUTDIR, so a person can judge how they look.
`python -m renderer.sample --readme docs/board.png` writes the one picture the README shows.
Positions come from seeded random games, so every run draws the same pictures. None of the outputs are
committed (except the README picture).
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from puluc import Game, GameRecord, MoveEffect, Position, Rules, Throw

from .board import render_board
from .chart import render_chart
from .replay import render_replay
from .sticks import render_throw


def random_game(rules: Rules, seed: int, max_moves: int = 400) -> GameRecord:
    """A whole game of random legal moves (seeded), as a record."""
    rng = random.Random(seed)
    game = Game.new(rules, rng, first="A", seed=seed)
    moves = 0
    while game.outcome() is None and moves < max_moves:
        legal = game.position.legal_moves()
        if legal:
            game.play(rng.choice(legal))
            moves += 1
        else:
            game.roll(rng)
    return game.record


def find_position(
    rules: Rules, want: Callable[[Position], bool], seeds: range = range(1, 400)
) -> tuple[Position, tuple[Throw, ...] | None]:
    """The first position of a seeded random game that satisfies `want`, with the throw that led to it."""
    for seed in seeds:
        record = random_game(rules, seed)
        throws: tuple[Throw, ...] | None = None
        for index, position in enumerate(record.positions()):
            event = record.events[index - 1] if index else None
            if event is not None and hasattr(event, "throws"):
                throws = event.throws  # type: ignore[union-attr]
            if position.last_move is not None and want(position):
                return position, throws
    raise LookupError("no seeded game reached the wanted position")


def tallest(position: Position) -> int:
    return max((len(stack.pieces) for _, stack in position.stacks()), default=0)


def _labels_for(position: Position) -> dict[int | str, str]:
    """The bot's way of labelling moves: 1, 2, 3... by destination."""
    labels: dict[int | str, str] = {}
    for number, move in enumerate(position.legal_moves(), start=1):
        effect = position.move_effect(move)
        key: int | str = effect.dest if effect.dest is not None else ("home-A" if effect.seat[0] == "A" else "home-B")
        if effect.arrives and effect.dest is None:
            own = effect.seat[0]
            other = "B" if own == "A" else "A"
            key = f"home-{other if position.rules.route == 'army' else own}"
        labels.setdefault(key, str(number))
    return labels


def readme_position() -> tuple[Position, MoveEffect, Throw]:
    """A Bell 1 v 1 mid-game just after a capture made a tower of four, the next player has thrown."""
    rules = Rules.preset("bell")

    def want(pos: Position) -> bool:
        effect = pos.last_move
        return effect is not None and effect.captures and tallest(pos) >= 4 and len(pos.stacks()) >= 3

    position, _ = find_position(rules, want)
    effect = position.last_move
    assert effect is not None
    for code in ("1100", "1000", "1110", "1111", "0000"):
        throw = Throw.from_code(code)
        thrown = position.throw([throw.value])
        if len(thrown.legal_moves()) >= 2:
            return thrown, effect, throw
    raise LookupError("no throw gives a choice of moves here")


def write_readme(path: Path) -> None:
    position, effect, throw = readme_position()
    data = render_board(position, last_move=effect, labels=_labels_for(position), advantage=0.62, throw=throw)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    print(f"{path}: {len(data) // 1024} KB")


def write_sheet(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    bell = Rules.preset("bell")
    shots: dict[str, bytes] = {}
    start = Position.start(bell)
    shots["01-start-dark.png"] = render_board(start)
    shots["02-start-light.png"] = render_board(start, theme="light")
    mid, throws = find_position(Rules.preset("ants"), lambda p: tallest(p) >= 4)
    shots["03-ants-tower-dark.png"] = render_board(mid, throw=throws, advantage=0.35)
    shots["04-ants-tower-light.png"] = render_board(mid, theme="light", throw=throws, advantage=0.35)
    readme, effect, throw = readme_position()
    shots["05-bell-labels.png"] = render_board(
        readme, last_move=effect, labels=_labels_for(readme), throw=throw, advantage=0.62
    )
    team8 = Rules.preset("ants", team_size=8)
    big, throws = find_position(team8, lambda p: len(p.stacks()) >= 12 and tallest(p) >= 4, range(1, 60))
    shots["06-team8-29-cells-dark.png"] = render_board(big, throw=throws, advantage=0.5)
    shots["07-team8-29-cells-light.png"] = render_board(big, theme="light", throw=throws)
    fire = Rules.preset("fire", team_size=2)
    burned, throws = find_position(fire, lambda p: p.last_move is not None and p.last_move.burns, range(1, 200))
    shots["08-fire-burn.png"] = render_board(burned, throw=throws)
    captured, throws = find_position(Rules.preset("bell"), lambda p: p.last_move is not None and p.last_move.captures)
    shots["09-bell-capture.png"] = render_board(captured, throw=throws)
    shots["10-sticks.png"] = render_throw([Throw.from_code("1010"), Throw.from_code("0000")])
    record = random_game(bell, 7)
    shots["11-replay.gif"] = render_replay(record)
    walk = random.Random(4)
    probabilities = [0.5]
    for _ in range(70):
        probabilities.append(min(0.98, max(0.02, probabilities[-1] + walk.gauss(0.004, 0.06))))
    shots["12-chart-advantage.png"] = render_chart(probabilities)
    day = datetime(2026, 1, 1, tzinfo=UTC)
    ratings = [(day, 1500.0)]
    for i in range(1, 40):
        ratings.append((day + timedelta(days=3 * i), ratings[-1][1] + walk.gauss(6, 25)))
    shots["13-chart-rating.png"] = render_chart(ratings, kind="rating", theme="light")
    for name, data in shots.items():
        (out / name).write_bytes(data)
        print(f"{out / name}: {len(data) // 1024} KB")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Write sample board renders for review.")
    parser.add_argument("outdir", nargs="?", type=Path, help="directory for the sample sheet")
    parser.add_argument("--readme", type=Path, help="write only the README picture to this path")
    args = parser.parse_args(argv)
    if args.readme:
        write_readme(args.readme)
    elif args.outdir:
        write_sheet(args.outdir)
    else:
        parser.error("give OUTDIR or --readme PATH")


if __name__ == "__main__":
    main()
