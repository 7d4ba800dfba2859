"""The requests for the pictures the compute workers draw (`bot.ui.pictures`), made from a game's state with
the players' names, the move buttons' numbers and the reader's words.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.cogs.games.texts import seat_label
from bot.sessions import GameState
from bot.ui.board_words import board_words
from bot.ui.describe import describe_board
from bot.ui.i18n import DEFAULT_LANGUAGE, language_for
from bot.ui.pictures import CHART_MAX_POINTS, BoardRequest, ChartRequest
from puluc import Move, MoveEffect, Position, Rules
from renderer import Ended

# A game message has a button per move up to this many (four rows of five; the fifth row holds Resign),
# and its board numbers them; beyond it the moves are a menu and the board has no numbers.
MAX_MOVE_BUTTONS = 20


def board_texts(lang: str) -> Mapping[str, str]:
    """The renderer's words (`renderer.texts.DEFAULT_TEXTS` keys) in `lang` (a code or a Discord locale), from the
    `[board]` table; a key a language lacks falls back to English. Raw format strings: the renderer fills their
    placeholders. A job carrying them pickles them as the language's code (`bot.ui.board_words`)."""
    return board_words(language_for(lang))


def seat_names(state: GameState, lang: str) -> dict[str, str]:
    """Each seat's player as a picture names them ("AI (hard)" for the AI; a name drawn as typed)."""
    return {seat.seat: seat_label(seat, lang) for seat in state.seats}


def labelled(state: GameState) -> bool:
    """Whether the game message's board carries the move buttons' numbers: while a human is to move."""
    seat = state.to_move
    return seat is not None and not seat.played_by_ai and state.position is not None


def ended_off_the_board(state: GameState) -> Ended | None:
    """How a game over that its board cannot tell ended, for the board's header: won by a resignation or a
    time-out, or cancelled; None while it runs and for a game won (or drawn) on the board."""
    if state.position is None or state.position.is_over:
        return None
    if state.status == "cancelled":
        return Ended(None)
    if state.status == "finished" and state.winner in ("A", "B"):
        return Ended(state.winner)
    return None


def board_request(
    state: GameState, last: MoveEffect | None, bar_ms: float = 0, lang: str = DEFAULT_LANGUAGE, theme: str = "dark"
) -> BoardRequest:
    """The board of a running or finished game as players see it in the game message: their names, the
    turn's throws, the move buttons' numbers, the last move, and the advantage bar when `bar_ms` > 0."""
    if state.position is None:
        raise ValueError(f"game {state.game_id} has no board yet: it is {state.status}")
    return BoardRequest(
        position=state.position,
        last=last,
        throws=tuple(state.turn_throws) if state.status == "running" else (),
        names=seat_names(state, lang),
        texts=board_texts(lang),
        labels_up_to=MAX_MOVE_BUTTONS if labelled(state) else 0,
        bar_ms=bar_ms,
        seed=state.seed or 0,
        seq=state.seq,
        theme=theme,
        ended=ended_off_the_board(state),
    )


def board_description(state: GameState, lang: str, happened: str | None = None) -> str:
    """The words of the game message's board (its alt text, and `/puluc board text:true`): whose turn, the
    throws, every stack, each seat's pieces, the score and, when given, what just happened."""
    if state.position is None:
        raise ValueError(f"game {state.game_id} has no board yet: it is {state.status}")
    throws = tuple(state.turn_throws) if state.status == "running" else ()
    return describe_board(state.position, lang, seat_names(state, lang), throws=throws, happened=happened,
                          ended=ended_off_the_board(state))


def chart_request(
    state: GameState, budget_ms: float, max_points: int = CHART_MAX_POINTS, lang: str = DEFAULT_LANGUAGE,
    theme: str = "dark",
) -> ChartRequest:
    """A finished game's advantage chart: team A's chance to win at the start of every turn and at the end."""
    return ChartRequest(state.game_record(), state.seed or 0, budget_ms, max_points, board_texts(lang), theme)


# -- /puluc rules: a mid-game board for each variant that shows what is special about it ----------------

# Each variant: a 1 v 1 position and the move just played in it, chosen so the board shows that variant's
# own rule at work (cells count from A's end; the move is A1's unless the position says otherwise).
RULES_EXAMPLES: dict[str, tuple[str, str]] = {
    # Army ants: a tower with a captive marches on past the last cell into B's home.
    "bell": ("./B1+/./././A1+/./A1B1+/. A1:3,B1:3 A1:0,B1:0 A1 3", "3:8"),
    # Gatherers: a capture turns the stack back toward its own home at once.
    "ants": ("./A1+/A1+/././B1+/./B1+/. A1:3,B1:3 A1:0,B1:0 A1 3", "3:3"),
    # Eagle: the strike kills the enemy piece, and the eagle is spent.
    "eagle": ("./A1+/././B1+/././B1+/. A1:3,B1:3 A1:0,B1:0 A1 3", "3:2"),
    # Scorpion: a stack strikes backward onto an enemy stack behind it.
    "scorpion": ("./././B1+/./A1+/./B1+/. A1:4,B1:3 A1:0,B1:0 A1 2", "2:6b"),
    # Fire: a stack that stops on the middle cell burns.
    "fire": ("./././A1+/./B1+/././. A1:3,B1:4 A1:0,B1:0 A1 1", "1:4"),
    # Culin: a free piece runs off cell 9 and flows on from cell 1.
    "culin": ("./././B1+/././A1+/B1+/. A1:4,B1:3 A1:0,B1:0 A1 5", "5:7"),
    # Village: a lone piece that passes the last cell goes straight back home.
    "village": ("./././B1+/././A1+/./. A1:4,B1:4 A1:0,B1:0 A1 3", "3:7"),
}


def rules_example(variant: str) -> Position:
    """The example position of `variant`'s rules page, just after its special move (the workers draw it with
    `bot.ui.pictures.draw_position`)."""
    text, move = RULES_EXAMPLES[variant]
    before = Position.from_ppn(Rules.preset(variant), text)
    return before.play(Move.parse(move))
