"""The pictures of the bot: a game's board, its advantage chart and replay, the legend and the rules examples.

One place turns a game state into renderer calls, with the players' names, the move buttons' numbers and
the reader's language, so the game message, `/puluc board`, `puluc-bot --demo` and the help pages all draw
boards the same way. Every word on an image comes from the `[board]` table of the catalogues. The game
message's board and chart, drawn for every move, are drawn by `bot.ui.pictures` in the compute workers from
the small requests made here (`board_request`, `chart_request`), so that the workers never load this module's
imports (the catalogues, the sessions, discord.py). The rarer pictures (a replay, the legend, a rules example,
a rating chart) are drawn there too, by `bot.ui.pictures`' functions with the words chosen here
(`board_texts`); the `render_*` functions below draw the same in this process (the demo, the tests). Nothing
here talks to Discord or storage.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from bot.cogs.games.texts import seat_name
from bot.cogs.games.views import MAX_MOVE_BUTTONS
from bot.sessions import GameState
from bot.ui.i18n import DEFAULT_LANGUAGE, catalogue, language_for
from bot.ui.pictures import (
    CHART_MAX_POINTS,
    BoardRequest,
    ChartRequest,
    draw_board,
    draw_chart,
    draw_legend,
    draw_position,
    draw_rating_chart,
    draw_replay,
    sample_evenly,
    turn_starts,
)
from bot.ui.pictures import advantage as position_advantage
from bot.ui.pictures import move_labels as labels_up_to
from puluc import GameRecord, Move, MoveEffect, Position, Rules

__all__ = [
    "CHART_MAX_POINTS",
    "RULES_EXAMPLES",
    "advantage",
    "board_labels",
    "board_request",
    "board_texts",
    "chart_request",
    "move_labels",
    "render_advantage",
    "render_game_replay",
    "render_legend_png",
    "render_png",
    "render_rating_chart",
    "render_rules_example",
    "rules_example",
    "sample_evenly",
    "seat_names",
    "turn_starts",
]


@cache
def board_texts(lang: str) -> Mapping[str, str]:
    """The renderer's words (`renderer.texts.DEFAULT_TEXTS` keys) in `lang`, from the `[board]` table.

    Raw format strings: the renderer fills their placeholders. A key a language lacks falls back to English.
    """
    from renderer.texts import DEFAULT_TEXTS

    lang = language_for(lang)
    found: dict[str, str] = {}
    for key in DEFAULT_TEXTS:
        message = catalogue(lang).get(f"board.{key}") or catalogue(DEFAULT_LANGUAGE)[f"board.{key}"]
        assert isinstance(message, str), f"board.{key} is text, not a plural table"
        found[key] = message
    return found


def seat_names(state: GameState, lang: str) -> dict[str, str]:
    """Each seat's player as the text of the game message names them ("AI (hard)" for the AI)."""
    return {seat.seat: seat_name(seat, lang) for seat in state.seats}


def move_labels(position: Position) -> dict[int | str, str]:
    """Badges for the board: each move button's number where that move lands (an arrival: its home's gate).

    Only while the moves are buttons: with more than `MAX_MOVE_BUTTONS` they become a menu without numbers,
    and the board then carries no badges either.
    """
    return labels_up_to(position, MAX_MOVE_BUTTONS)


def labelled(state: GameState) -> bool:
    """Whether the game message's board carries the move buttons' numbers: while a human is to move."""
    seat = state.to_move
    return seat is not None and not seat.played_by_ai and state.position is not None


def board_labels(state: GameState) -> dict[int | str, str]:
    """The badges of a game message: the move buttons' numbers while a human is to move, else none."""
    if not labelled(state) or state.position is None:
        return {}
    return move_labels(state.position)


def advantage(state: GameState, budget_ms: float) -> float | None:
    """Team A's chance to win for the board's "who is ahead" bar, or None when the bar is off (budget 0).

    Seeded by the game and its event number, so the same position always shows the same bar.
    """
    if state.position is None:
        return None
    return position_advantage(state.position, state.seed or 0, state.seq, budget_ms)


def board_request(
    state: GameState, last: MoveEffect | None, bar_ms: float = 0, lang: str = DEFAULT_LANGUAGE
) -> BoardRequest:
    """What the workers need to draw the board of a running or finished game (`bot.ui.pictures.draw_board`)."""
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
    )


def render_png(
    state: GameState, last: MoveEffect | None, bar_ms: float = 0, lang: str = DEFAULT_LANGUAGE
) -> bytes | None:
    """The board of a running or finished game as players see it in the game message: their names, the
    turn's throws, the move buttons' numbers, the last move, and the advantage bar when `bar_ms` > 0."""
    if state.position is None:
        return None
    return draw_board(board_request(state, last, bar_ms, lang))


def chart_request(
    state: GameState, budget_ms: float, max_points: int = CHART_MAX_POINTS, lang: str = DEFAULT_LANGUAGE
) -> ChartRequest:
    """What the workers need to chart a finished game (`bot.ui.pictures.draw_chart`)."""
    return ChartRequest(state.game_record(), state.seed or 0, budget_ms, max_points, board_texts(lang))


def render_advantage(
    state: GameState, budget_ms: float, max_points: int = CHART_MAX_POINTS, lang: str = DEFAULT_LANGUAGE
) -> bytes | None:
    """A finished game's advantage chart PNG: team A's chance to win at the start of every turn and at the
    end, plotted by turn number; None when the game had fewer than two turns."""
    return draw_chart(chart_request(state, budget_ms, max_points, lang))


def render_rating_chart(series: list[tuple[object, float]], theme: str, lang: str = DEFAULT_LANGUAGE) -> bytes:
    """A player's rating history, titled and with named axes in `lang` (in this process: the cogs hand
    `bot.ui.pictures.draw_rating_chart` to the workers with `board_texts(lang)`)."""
    return draw_rating_chart(series, theme, board_texts(lang))


def render_game_replay(
    record: GameRecord, theme: str = "dark", lang: str = DEFAULT_LANGUAGE, names: Mapping[str, str] | None = None
) -> bytes:
    """The replay GIF of a game, captioned in `lang`, with the players' names when known."""
    return draw_replay(record, theme, names, board_texts(lang))


def render_legend_png(lang: str) -> bytes:
    """The "reading the board" picture: an example board with numbered callouts and the key to its signs."""
    return draw_legend(board_texts(lang))


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
    """The example position of `variant`'s rules page, just after its special move."""
    text, move = RULES_EXAMPLES[variant]
    before = Position.from_ppn(Rules.preset(variant), text)
    return before.play(Move.parse(move))


def render_rules_example(variant: str, lang: str) -> bytes:
    """The rules page's example board of `variant` (the workers draw it with `bot.ui.pictures.draw_position`)."""
    return draw_position(rules_example(variant), board_texts(lang))
