"""`puluc-bot --demo OUTDIR`: one whole game played offline, written out as the bot shows it in Discord.

For someone without a token (or a reviewer) to see the bot's output in a minute: the board of the game
message at every moment a player sees one, the replay GIF, the post-game chart and the game record, plus
a one-paragraph summary. The game goes through the session layer's own steps (`bot.sessions.play`: the
sticks are thrown for each turn as the bot throws them) and every picture is drawn by the same functions
the game message uses (`bot.cogs.games.boards`), so the demo shows exactly what players see: their names, the
turn's throws, the move buttons' numbers, the last move and the advantage bar. Two members play; the AI
chooses their moves (team A at the medium level, team B at the hard one). It never connects to Discord
and never touches a database.
"""

from __future__ import annotations

import random
import re
import time
from dataclasses import replace
from pathlib import Path

from bot.cogs.games.boards import board_request, board_texts, chart_request, seat_names
from bot.config import Config
from bot.sessions import Moved, Place, SeatState
from bot.sessions.play import Draft, play_move, throw_for_turns
from bot.sessions.state import GameState
from bot.ui.i18n import DEFAULT_LANGUAGE
from bot.ui.pictures import CHART_POINT_BUDGET_MS, draw_board, draw_chart, draw_replay
from puluc import MoveEffect, Position, Rules
from puluc.ai import choose_move

__all__ = ["DEMO_LEVELS", "DEMO_PLAYERS", "DemoError", "DemoFolderInUse", "board_png", "run_demo"]

# Team A's moves are chosen at the medium level, team B's at the hard one, so the demo shows both at work.
DEMO_LEVELS = {"A": "medium", "B": "hard"}
DEMO_PLAYERS = (SeatState("A1", "Alice", user_id=1), SeatState("B1", "Bohdan", user_id=2))
# A Bell game on the 9-cell road ends in well under a hundred turns; this only guards against a hang.
MAX_EVENTS = 5000
# What the demo writes; a folder holding only these holds a previous demo, which a new one replaces.
DEMO_FILE = re.compile(r"board_\d{3,}\.png|replay\.gif|advantage\.png|record\.json")


class DemoError(RuntimeError):
    """The demo game did not finish; a bug in the engine or the AI, never the user's doing."""


class DemoFolderInUse(ValueError):
    """The output folder holds files the demo did not write (or is a file): the demo writes nothing there."""


def board_png(
    state: GameState, last: MoveEffect | None, lang: str = DEFAULT_LANGUAGE, bar_ms: int = Config.advantage_bar_ms
) -> bytes:
    """The board of the game message for `state`, exactly as the presenter draws it (the advantage bar at
    the bot's default thinking budget unless `bar_ms` says otherwise)."""
    return draw_board(board_request(state, last, bar_ms, lang))


def start_state(seed: int) -> GameState:
    """A Bell 1 v 1 between the two demo players, started, with team A to throw first."""
    rules = Rules.preset("bell")
    return GameState(
        game_id=0,
        place=Place(None, 0),
        host_id=1,
        variant="bell",
        rules=rules,
        ranked=False,
        turn_timer=600,
        status="running",
        seats=DEMO_PLAYERS,
        seed=seed,
        first="A",
        position=Position.start(rules, "A"),
    )


def run_demo(outdir: Path, seed: int = 1, budget_ms: int = 300) -> str:
    """Play a seeded Bell game, medium AI (A) against hard AI (B); write its files; return a summary.

    Writes `board_000.png` (the first turn, after A's throw) and one `board_NNN.png` after every move (with
    the next player's throw, as the game message shows it), `replay.gif`, `advantage.png` and
    `record.json` into `outdir`, which must be new, empty, or hold only a previous demo's files (they are
    removed first, and the summary says so). Raises `DemoFolderInUse` when it holds anything else, `OSError`
    when it cannot be written.
    """
    started = time.perf_counter()
    removed = _clear(outdir)
    ai_rng = random.Random(seed + 1)  # the AI's own stream, so its choices never shift the throws
    draft = Draft(start_state(seed))
    throw_for_turns(draft)
    state = draft.state
    boards = [_write(outdir / "board_000.png", board_png(state, None))]
    events = 0
    while state.position is not None and not state.position.is_over:
        events += 1
        if events > MAX_EVENTS:
            raise DemoError(f"the demo game did not end after {MAX_EVENTS} moves")
        position = state.position
        move = choose_move(position, DEMO_LEVELS[position.team_to_move], ai_rng, budget_ms)
        draft = Draft(state)
        play_move(draft, position.to_move, move, "player")
        throw_for_turns(draft)
        state = draft.state
        last = next(h.effect for h in draft.happenings if isinstance(h, Moved))
        if state.position is not None and state.position.is_over:
            outcome = state.position.outcome()
            assert outcome is not None
            state = replace(state, status="finished", winner=outcome.winner, scores=outcome.scores,
                            end_reason="normal")
        boards.append(_write(outdir / f"board_{len(boards):03d}.png", board_png(state, last)))

    names, texts = seat_names(state, DEFAULT_LANGUAGE), board_texts(DEFAULT_LANGUAGE)
    replay = _write(outdir / "replay.gif", draw_replay(state.game_record(), "dark", names, texts))
    chart = draw_chart(chart_request(state, CHART_POINT_BUDGET_MS))
    charted = "" if chart is None else f", {_write(outdir / 'advantage.png', chart).name}"
    record = outdir / "record.json"
    record.write_text(state.game_record().to_json(indent=2) + "\n", encoding="utf-8")

    assert state.position is not None
    outcome = state.position.outcome()
    assert outcome is not None  # the loop above ends only on an outcome
    moves = len(state.game_record().moves)
    turns = len(state.record) - moves
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
        f"Demo: a Bell game on a {state.rules.road_length}-cell road, seed {seed}, Alice (medium AI, team A) "
        f"against Bohdan (hard AI, team B), {budget_ms} ms per AI move. {result} after {moves} moves in "
        f"{turns} turns. Wrote {len(boards)} board images ({boards[0].name} to {boards[-1].name}) as the game "
        f"message shows them, {replay.name}{charted} and {record.name} to {outdir} in "
        f"{time.perf_counter() - started:.1f} s."
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
