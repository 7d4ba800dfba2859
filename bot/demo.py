"""`puluc-bot --demo OUTDIR`: one whole AI-vs-AI game played offline, written out as the bot would show it.

For someone without a token (or a reviewer) to see the bot's output in a minute: a board image after every
move, the replay GIF and the game record, plus a one-paragraph summary. It uses the engine, the AI and the
renderer exactly as the bot does; it must never import discord or touch the database.
"""

from __future__ import annotations

import random
import re
import time
from pathlib import Path

from puluc import Game, Rules, Throw
from puluc.ai import choose_move
from renderer import render_board, render_replay

__all__ = ["DEMO_LEVELS", "DemoError", "DemoFolderInUse", "run_demo"]

# Team A plays medium, team B hard, so the demo also shows the stronger level at work.
DEMO_LEVELS = {"A": "medium", "B": "hard"}
# A Bell game on the 9-cell road ends in well under a hundred turns; this only guards against a hang.
MAX_EVENTS = 5000
# What the demo writes; a folder holding only these holds a previous demo, which a new one replaces.
DEMO_FILE = re.compile(r"board_\d{3,}\.png|replay\.gif|record\.json")


class DemoError(RuntimeError):
    """The demo game did not finish; a bug in the engine or the AI, never the user's doing."""


class DemoFolderInUse(ValueError):
    """The output folder holds files the demo did not write (or is a file): the demo writes nothing there."""


def run_demo(outdir: Path, seed: int = 1, budget_ms: int = 300) -> str:
    """Play a seeded Bell game, medium AI (A) against hard AI (B); write its files; return a summary.

    Writes `board_000.png` (the start) and one `board_NNN.png` after every move, `replay.gif` and
    `record.json` into `outdir`, which must be new, empty, or hold only a previous demo's files (they are
    removed first, and the summary says so). Raises `DemoFolderInUse` when it holds anything else, `OSError`
    when it cannot be written.
    """
    started = time.perf_counter()
    removed = _clear(outdir)
    sticks_rng = random.Random(seed)
    # The AI gets its own stream so that its choices never shift the sequence of throws.
    ai_rng = random.Random(seed + 1)
    rules = Rules.preset("bell")
    game = Game.new(
        rules, sticks_rng, seats={"A1": f"ai:{DEMO_LEVELS['A']}", "B1": f"ai:{DEMO_LEVELS['B']}"}, seed=seed
    )

    boards = [_write(outdir / "board_000.png", render_board(game.position))]
    throws: tuple[Throw, ...] = ()
    events = 0
    while game.outcome() is None:
        events += 1
        if events > MAX_EVENTS:
            raise DemoError(f"the demo game did not end after {MAX_EVENTS} throws and moves")
        position = game.position
        if position.must_throw:
            throws = game.roll(sticks_rng)
            continue
        move = choose_move(position, DEMO_LEVELS[position.team_to_move], ai_rng, budget_ms)
        game.play(move)
        # Each image shows the move just made and the sticks thrown for it, as the bot's game message does.
        image = render_board(game.position, throw=throws)
        boards.append(_write(outdir / f"board_{len(boards):03d}.png", image))

    replay = _write(outdir / "replay.gif", render_replay(game.record))
    record = outdir / "record.json"
    record.write_text(game.record.to_json(indent=2) + "\n", encoding="utf-8")

    outcome = game.outcome()
    assert outcome is not None  # the loop above ends only on an outcome
    moves = len(game.record.moves)
    turns = len(game.record.events) - moves
    a, b = outcome.scores["A"], outcome.scores["B"]
    if outcome.winner is None:
        result = f"The game was drawn {a} to {b}"
    else:
        loser = "B" if outcome.winner == "A" else "A"
        result = (
            f"Team {outcome.winner} ({DEMO_LEVELS[outcome.winner]} AI) won "
            f"{outcome.scores[outcome.winner]} to {outcome.scores[loser]}"
        )
    cleared = (
        f"Removed the previous demo's {len(removed)} files from {outdir} first ({_span(removed)}). " if removed else ""
    )
    return cleared + (
        f"Demo: a Bell game on a {rules.road_length}-cell road, seed {seed}, medium AI (team A) against "
        f"hard AI (team B), {budget_ms} ms per AI move. {result} after {moves} moves in {turns} turns. "
        f"Wrote {len(boards)} board images ({boards[0].name} to {boards[-1].name}), {replay.name} "
        f"and {record.name} to {outdir} in {time.perf_counter() - started:.1f} s."
    )


def _clear(outdir: Path) -> list[str]:
    """Make `outdir` a folder the demo may fill; return the names of a previous demo's files it removed."""
    if outdir.exists() and not outdir.is_dir():
        raise DemoFolderInUse(f"{outdir} is a file, not a folder; name a new or empty folder for the demo")
    outdir.mkdir(parents=True, exist_ok=True)
    entries = sorted(outdir.iterdir())
    foreign = [entry.name for entry in entries if not (entry.is_file() and DEMO_FILE.fullmatch(entry.name))]
    if foreign:
        shown = ", ".join(foreign[:3]) + (f" and {len(foreign) - 3} more" if len(foreign) > 3 else "")
        raise DemoFolderInUse(
            f"{outdir} holds files the demo did not write ({shown}); name a new or empty folder for the demo"
        )
    for entry in entries:
        entry.unlink()
    return [entry.name for entry in entries]


def _span(names: list[str]) -> str:
    boards = [name for name in names if name.startswith("board_")]
    others = [name for name in names if not name.startswith("board_")]
    shown = [f"{boards[0]} to {boards[-1]}" if len(boards) > 1 else boards[0]] if boards else []
    return ", ".join(shown + others)


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path
