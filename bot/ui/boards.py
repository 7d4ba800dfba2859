"""The pictures of the bot: a game's board, its advantage chart and replay, the legend and the rules examples.

One place turns a game state into renderer calls, with the players' names, the move buttons' numbers and
the reader's language, so the game message, `/puluc board`, `puluc-bot --demo` and the help pages all draw
boards the same way. Every word on an image comes from the `[board]` table of the catalogues. Pure
functions of picklable data that run in the compute workers (`bot.compute`: the presenter and the cogs hand
them to the bot's pool by reference, so they must stay module-level); nothing here talks to Discord or storage.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from bot.sessions import GameState
from bot.sessions.play import ai_rng
from bot.ui.i18n import DEFAULT_LANGUAGE, catalogue, language_for
from bot.ui.messages import seat_name
from bot.ui.views.builders import MAX_MOVE_BUTTONS
from puluc import GameRecord, Move, MoveEffect, Position, Rules

CHART_MAX_POINTS = 120


def warm_up(font_path: str | None = None) -> None:
    """Runs once in every compute worker: the font, the board texts of every language, the AI's tables of
    the common variants and the renderer's cached parts, so that no player's board pays for them."""
    import renderer
    from bot.ui.i18n import SUPPORTED
    from puluc.ai.evaluate import model_for

    if font_path is not None:
        renderer.use_font(font_path)
    for lang in SUPPORTED:
        board_texts(lang)
    for variant in ("bell", "ants"):
        rules = Rules.preset(variant)
        model_for(rules)
        renderer.render_board(Position.start(rules), texts=board_texts(DEFAULT_LANGUAGE))


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
    from renderer import label_target

    moves = position.legal_moves()
    if not moves or len(moves) > MAX_MOVE_BUTTONS:
        return {}
    numbers: dict[int | str, list[str]] = {}
    for number, move in enumerate(moves, start=1):
        numbers.setdefault(label_target(position.rules, position.move_effect(move)), []).append(str(number))
    # The renderer draws 1 to 3 characters: "1,2" fits, "1,2,3" becomes "1+".
    return {key: ",".join(found) if len(",".join(found)) <= 3 else f"{found[0]}+" for key, found in numbers.items()}


def board_labels(state: GameState) -> dict[int | str, str]:
    """The badges of a game message: the move buttons' numbers while a human is to move, else none."""
    seat = state.to_move
    if seat is None or seat.played_by_ai or state.position is None:
        return {}
    return move_labels(state.position)


def advantage(state: GameState, budget_ms: float) -> float | None:
    """Team A's chance to win for the board's "who is ahead" bar, or None when the bar is off (budget 0).

    Seeded by the game and its event number, so the same position always shows the same bar.
    """
    if budget_ms <= 0 or state.position is None:
        return None
    from puluc.ai import win_probability

    return win_probability(state.position, ai_rng(state.seed or 0, state.seq), budget_ms)


def render_png(
    state: GameState, last: MoveEffect | None, bar_ms: float = 0, lang: str = DEFAULT_LANGUAGE
) -> bytes | None:
    """The board of a running or finished game as players see it in the game message: their names, the
    turn's throws, the move buttons' numbers, the last move, and the advantage bar when `bar_ms` > 0."""
    if state.position is None:
        return None
    from renderer import render_board

    throws = state.turn_throws if state.status == "running" else None
    return render_board(
        state.position,
        last_move=last if last is not None else True,
        throw=throws or None,
        labels=board_labels(state) or None,
        advantage=advantage(state, bar_ms),
        names=seat_names(state, lang),
        texts=board_texts(lang),
    )


def turn_starts(record: GameRecord) -> list[tuple[int, Position]]:
    """(event number, position) at the start of every turn (before its throw), then the final position."""
    found: list[tuple[int, Position]] = []
    last: tuple[int, Position] | None = None
    for number, position in enumerate(record.positions()):
        if position.must_throw and not position.is_over:
            found.append((number, position))
        last = (number, position)
    if last is not None and found and found[-1][0] != last[0]:
        found.append(last)
    return found


def sample_evenly(items: list[tuple[int, Position]], limit: int) -> list[tuple[int, Position]]:
    """At most `limit` items spread evenly over `items`, keeping the first and the last."""
    if len(items) <= limit:
        return items
    return [items[round(i * (len(items) - 1) / (limit - 1))] for i in range(limit)]


def render_advantage(
    state: GameState, budget_ms: float, max_points: int = CHART_MAX_POINTS, lang: str = DEFAULT_LANGUAGE
) -> bytes | None:
    """A finished game's advantage chart PNG: team A's chance to win at the start of every turn and at the
    end, plotted by turn number; None when the game had fewer than two turns."""
    from puluc.ai import win_probability
    from renderer import render_chart

    starts = turn_starts(state.game_record())
    if sum(1 for _, position in starts if position.must_throw and not position.is_over) < 2:
        return None
    seed = state.seed or 0
    turn_of = {number: turn for turn, (number, _) in enumerate(starts, start=1)}
    # Each estimate uses the generator of the event it starts at, so a game's chart is the same every time.
    series: list[tuple[object, float]] = [
        (turn_of[number], win_probability(position, ai_rng(seed, number), budget_ms))
        for number, position in sample_evenly(starts, max_points)
    ]
    return render_chart(series, kind="advantage", texts=board_texts(lang))


def render_rating_chart(series: list[tuple[object, float]], theme: str, lang: str = DEFAULT_LANGUAGE) -> bytes:
    """A player's rating history, titled and with named axes in `lang`."""
    from renderer import render_chart

    return render_chart(series, kind="rating", theme=theme, texts=board_texts(lang))


def render_game_replay(
    record: GameRecord, theme: str = "dark", lang: str = DEFAULT_LANGUAGE, names: Mapping[str, str] | None = None
) -> bytes:
    """The replay GIF of a game, captioned in `lang`, with the players' names when known."""
    from renderer import render_replay

    return render_replay(record, theme=theme, names=names, texts=board_texts(lang))


def render_legend_png(lang: str) -> bytes:
    """The "reading the board" picture: an example board with numbered callouts and the key to its signs."""
    from renderer import render_legend

    return render_legend(texts=board_texts(lang))


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
    from renderer import render_board

    return render_board(rules_example(variant), texts=board_texts(lang))
