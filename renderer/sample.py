"""A sheet of sample renders for reviewers: `python -m renderer.sample OUTDIR`.

Writes boards of every kind a player meets into OUTDIR (1 v 1 to 8 v 8, a tall tower, culin's wrap, an
ants bounce, a burn, a finished game, both themes), the sticks, a replay GIF, both charts and the legend,
so a person can judge how they look. `python -m renderer.sample --readme docs/board.png` writes the
picture the README shows; `--docs docs/` writes the 2 v 2 and 8 v 8 "after" pictures. Positions come from
seeded random games, so every run draws the same pictures. None of the outputs are committed (except the
README and docs pictures).
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from puluc import Game, GameRecord, MoveEffect, Position, Rules, Throw

from .animation import render_replay
from .board import render_board
from .chart import render_chart
from .legend import render_legend
from .sticks import render_throw

Found = tuple[Position, tuple[Throw, ...] | None]


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


def find_position(rules: Rules, want: Callable[[Position], bool], seeds: range = range(1, 400)) -> Found:
    """The first position of a seeded random game that satisfies `want`, with the throw that led to it."""
    for seed in seeds:
        record = random_game(rules, seed)
        throws: tuple[Throw, ...] | None = None
        for index, position in enumerate(record.positions()):
            event = record.events[index - 1] if index else None
            if event is not None and hasattr(event, "throws"):
                throws = event.throws
            if position.last_move is not None and want(position):
                return position, throws
    raise LookupError("no seeded game reached the wanted position")


def tallest(position: Position) -> int:
    return max((len(stack.pieces) for _, stack in position.stacks()), default=0)


def labels_for(position: Position) -> dict[int | str, str]:
    """The bot's way of labelling moves: 1, 2, 3... by destination, arrivals at their home's gate."""
    labels: dict[int | str, str] = {}
    for number, move in enumerate(position.legal_moves(), start=1):
        effect = position.move_effect(move)
        if effect.dest is not None:
            key: int | str = effect.dest
        else:
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


def docs_positions() -> dict[str, Found]:
    """The 2 v 2 and 8 v 8 (29-cell) mid-game boards of the README's before/after pictures."""
    two = Rules.preset("ants", team_size=2)
    eight = Rules.preset("ants", team_size=8)

    def choice(stacks: int, tower: int) -> Callable[[Position], bool]:
        return lambda p: len(p.stacks()) >= stacks and tallest(p) >= tower and len(p.legal_moves()) >= 2

    return {
        "2v2": find_position(two, choice(4, 3), range(1, 200)),
        "8v8": find_position(eight, choice(12, 4), range(1, 60)),
    }


SAMPLE_NAMES = {"A1": "Alice", "B1": "Bohdan", "A2": "Chiara", "B2": "Denis", "B5": "Élodie"}


def docs_board(position: Position, throws: tuple[Throw, ...] | None) -> bytes:
    names = {seat: name for seat, name in SAMPLE_NAMES.items() if seat in position.rules.seats}
    return render_board(position, throw=throws, labels=labels_for(position), advantage=0.58, names=names)


def write_docs(outdir: Path) -> None:
    outdir.mkdir(parents=True, exist_ok=True)
    for name, (position, throws) in docs_positions().items():
        data = docs_board(position, throws)
        path = outdir / f"board-after-{name}.png"
        path.write_bytes(data)
        print(f"{path}: {len(data) // 1024} KB")


def write_readme(path: Path) -> None:
    position, effect, throw = readme_position()
    data = render_board(
        position, last_move=effect, labels=labels_for(position), advantage=0.62, throw=throw, names={"B1": "Bohdan"}
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    print(f"{path}: {len(data) // 1024} KB")


def _effect_is(test: Callable[[MoveEffect], bool]) -> Callable[[Position], bool]:
    def want(position: Position) -> bool:
        effect = position.last_move
        return effect is not None and test(effect)

    return want


def tall_tower(height: int = 20, team_size: int = 8) -> Position:
    """An ants position with one stack of `height` pieces past the middle, B1 on top coming home (up the
    road), every other piece at home."""
    rules = Rules.preset("ants", team_size=team_size)
    cell = rules.road_length // 2 + 2
    seats = list(rules.seats)
    counts = dict.fromkeys(seats, 5)
    counts["B1"] -= 1
    under: list[str] = []
    turn = 0
    while len(under) < height - 1:
        seat = seats[turn % len(seats)]
        turn += 1
        if counts[seat] > 1:  # every seat keeps a piece at home, so no team is out
            counts[seat] -= 1
            under.append(seat)
        if turn > 10 * height * len(seats):
            raise ValueError(f"a tower of {height} needs more pieces than {team_size} v {team_size} has")
    board = ["."] * rules.road_length
    board[cell - 1] = "B1" + "".join(under) + "-"
    homes = ",".join(f"{seat}:{counts[seat]}" for seat in seats)
    kills = ",".join(f"{seat}:0" for seat in seats)
    return Position.from_ppn(rules, "/".join(board) + f" {homes} {kills} A1 -")


def sample_boards() -> dict[str, bytes]:
    """Every kind of board the sheet shows, by file name."""
    shots: dict[str, bytes] = {}
    bell = Rules.preset("bell")
    shots["01-start-dark.png"] = render_board(Position.start(bell))
    shots["02-start-light.png"] = render_board(Position.start(bell), theme="light")
    mid, throws = find_position(Rules.preset("ants"), lambda p: tallest(p) >= 5)
    shots["03-ants-tower-dark.png"] = render_board(mid, throw=throws, advantage=0.35, names={"A1": "Alice"})
    shots["04-ants-tower-light.png"] = render_board(mid, theme="light", throw=throws, advantage=0.35)
    readme, effect, throw = readme_position()
    shots["05-bell-labels.png"] = render_board(
        readme, last_move=effect, labels=labels_for(readme), throw=throw, advantage=0.62
    )
    for name, (position, found) in docs_positions().items():
        shots[f"06-docs-{name}.png"] = docs_board(position, found)
    for team_size in (3, 4, 6):
        rules = Rules.preset("ants", team_size=team_size)
        position, found = find_position(rules, lambda p: len(p.stacks()) >= 6, range(1, 60))
        shots[f"07-ants-{team_size}v{team_size}.png"] = render_board(position, throw=found, advantage=0.4)
    shots["08-tower-20.png"] = render_board(tall_tower(20))
    shots["08-tower-20-2v2.png"] = render_board(tall_tower(12, team_size=2))
    culin = Rules.preset("culin")
    wrap, found = find_position(culin, _effect_is(lambda e: e.source is not None and e.dest is not None
                                                  and e.dest < e.source and not e.arrives and e.seat[0] == "A"))
    shots["09-culin-wrap.png"] = render_board(wrap, throw=found)
    crossing, found = find_position(culin, _effect_is(lambda e: e.arrives and e.dest is not None))
    shots["10-culin-arrival.png"] = render_board(crossing, throw=found)
    bounce, found = find_position(Rules.preset("ants"), _effect_is(lambda e: e.source == e.dest))
    shots["11-ants-bounce.png"] = render_board(bounce, throw=found)
    fire = Rules.preset("fire", team_size=2)
    burned, found = find_position(fire, _effect_is(lambda e: e.burns), range(1, 200))
    shots["12-fire-burn.png"] = render_board(burned, throw=found)
    burning, found = find_position(
        fire, lambda p: any(p.move_effect(m).burns for m in p.legal_moves()) and len(p.legal_moves()) >= 2,
        range(1, 200),
    )
    shots["13-fire-burn-badge.png"] = render_board(burning, throw=found, labels=labels_for(burning))
    record = random_game(Rules.preset("bell", team_size=2), 5)
    shots["14-finished.png"] = render_board(record.replay(), advantage=1.0)
    army, found = find_position(bell, _effect_is(lambda e: e.arrives))
    shots["15-bell-arrival.png"] = render_board(army, throw=found)
    eagle, found = find_position(Rules.preset("eagle"), _effect_is(lambda e: e.captures))
    shots["16-eagle.png"] = render_board(eagle, throw=found)
    long_road = Rules.preset("ants", team_size=8, road_length=41)
    position, found = find_position(long_road, lambda p: len(p.stacks()) >= 10, range(1, 40))
    shots["17-ants-8v8-41-cells.png"] = render_board(position, throw=found, advantage=0.2, theme="light")
    return shots


def write_sheet(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    shots = sample_boards()
    shots["20-sticks.png"] = render_throw([Throw.from_code("1010"), Throw.from_code("0000")])
    shots["21-replay.gif"] = render_replay(random_game(Rules.preset("bell"), 7))
    shots["22-replay-8v8.gif"] = render_replay(random_game(Rules.preset("ants", team_size=8), 3, max_moves=5000))
    walk = random.Random(4)
    probabilities = [0.5]
    for _ in range(70):
        probabilities.append(min(0.98, max(0.02, probabilities[-1] + walk.gauss(0.004, 0.06))))
    shots["23-chart-advantage.png"] = render_chart(probabilities)
    day = datetime(2026, 1, 1, tzinfo=UTC)
    ratings = [(day, 1500.0)]
    for i in range(1, 40):
        ratings.append((day + timedelta(days=3 * i), ratings[-1][1] + walk.gauss(6, 25)))
    shots["24-chart-rating.png"] = render_chart(ratings, kind="rating", theme="light")
    shots["25-legend.png"] = render_legend()
    for name, data in shots.items():
        (out / name).write_bytes(data)
        print(f"{out / name}: {len(data) // 1024} KB")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Write sample board renders for review.")
    parser.add_argument("outdir", nargs="?", type=Path, help="directory for the sample sheet")
    parser.add_argument("--readme", type=Path, help="write only the README picture to this path")
    parser.add_argument("--docs", type=Path, help="write the docs' 2 v 2 and 8 v 8 'after' pictures here")
    args = parser.parse_args(argv)
    if args.readme:
        write_readme(args.readme)
    elif args.docs:
        write_docs(args.docs)
    elif args.outdir:
        write_sheet(args.outdir)
    else:
        parser.error("give OUTDIR, --readme PATH or --docs DIR")


if __name__ == "__main__":
    main()
