"""What the compute workers draw (`bot.compute`): a game message's board and a finished game's advantage
chart from the requests `bot.cogs.games.boards` makes, and the rarer pictures (a replay, the legend, a rules
example, a rating chart) from the renderer's words already in the reader's language.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from puluc import GameRecord, MoveEffect, Position, Throw

if TYPE_CHECKING:
    from renderer import Ended

#: The post-game advantage chart: at most this many points (sampled evenly over the turns), each the board bar's
#: estimate (`puluc.ai.bar_chance`); the budget is the search's on the army-route duels other than Bell, the only
#: rules whose estimate is a search.
CHART_MAX_POINTS = 120
CHART_POINT_BUDGET_MS = 8.0


@dataclass(frozen=True, slots=True)
class BoardRequest:
    """One board of a game message, as `draw_board` draws it."""

    position: Position
    last: MoveEffect | None  #: the move to mark (throws forget it); None marks the position's own last move
    throws: tuple[Throw, ...]  #: the turn's throws, drawn as sticks; none once the game is over
    names: Mapping[str, str]  #: seat -> the player as the game message names them
    texts: Mapping[str, str]  #: the renderer's words (`renderer.texts.DEFAULT_TEXTS` keys) in the reader's language
    labels_up_to: int  #: badges with the move buttons' numbers while there are at most this many moves; 0: none
    bar_ms: float  #: the "who is ahead" bar's thinking budget; 0: no bar
    seed: int  #: the game's seed and the position's event number, which seed the bar's search (`ai_rng`)
    seq: int
    theme: str = "dark"  #: the renderer theme: the server's palette (`bot.ui.palettes`)
    ended: Ended | None = None  #: how a game over its board cannot tell ended (a resignation, a time-out, a cancel)


@dataclass(frozen=True, slots=True)
class ChartRequest:
    """A finished game's advantage chart, as `draw_chart` draws it."""

    record: GameRecord
    seed: int  #: the game's seed (the estimates no longer need it)
    budget_ms: float  #: thinking per point where the estimate is a search (`puluc.ai.bar_chance`)
    max_points: int
    texts: Mapping[str, str]
    theme: str = "dark"


def warm_up(font_path: str | None = None) -> None:
    """Runs once in every compute worker: the font, the AI's tables of the common variants, the exact Bell table
    and the "who is ahead" bar's code, and the renderer's cached parts (each common board's background and
    palette, the pieces' sprites), so that no player's board pays for them."""
    import renderer
    from bot.exact import bell_table
    from puluc import Rules
    from puluc.ai import bar_chance
    from puluc.ai.evaluate import model_for

    if font_path is not None:
        renderer.use_font(font_path)
    table = bell_table()  # 0.2 s of CPU: the first Bell board of every worker would pay it
    for variant in ("bell", "ants"):
        rules = Rules.preset(variant)
        model_for(rules)
        start = Position.start(rules)
        thrown = start.throw([1] * rules.throws_per_turn)
        bar_chance(thrown, table, 1.0)
        renderer.render_board(thrown, advantage=0.5, throw=None)


def move_labels(position: Position, up_to: int) -> dict[int | str, str]:
    """Badges for the board: each move button's number where that move lands (an arrival: its home's gate).

    Only while the moves are buttons, at most `up_to` of them: beyond that they become a menu without numbers,
    and the board then carries no badges either.
    """
    from renderer import label_target

    moves = position.legal_moves()
    if not moves or len(moves) > up_to:
        return {}
    numbers: dict[int | str, list[str]] = {}
    for number, move in enumerate(moves, start=1):
        numbers.setdefault(label_target(position.rules, position.move_effect(move)), []).append(str(number))
    # The renderer draws 1 to 3 characters: "1,2" fits, "1,2,3" becomes "1+".
    return {key: ",".join(found) if len(",".join(found)) <= 3 else f"{found[0]}+" for key, found in numbers.items()}


def advantage(position: Position, seed: int, seq: int, budget_ms: float) -> float | None:
    """Team A's chance to win for the "who is ahead" bar, or None when the bar is off (budget 0).

    `puluc.ai.bar_chance`: exact on Bell 1 v 1 (the shipped table), a search of `budget_ms` on the other 1 v 1
    rules of the army route, else the learned evaluation; deterministic, so the same position always shows the
    same bar (`seed` and `seq` are no longer needed).
    """
    if budget_ms <= 0:
        return None
    from bot.exact import bell_table
    from puluc.ai import bar_chance

    return bar_chance(position, bell_table(), budget_ms)


def board_options(request: BoardRequest) -> dict[str, Any]:
    """The renderer's options for a game message's board, shared by its PNG (`draw_board`) and its SVG (the
    Activity's): names, the turn's throws, the buttons' numbers, the last move, the advantage bar, the palette."""
    position = request.position
    return {
        "last_move": request.last if request.last is not None else True,
        "throw": request.throws or None,
        "labels": move_labels(position, request.labels_up_to) or None,
        "advantage": advantage(position, request.seed, request.seq, request.bar_ms),
        "names": request.names,
        "texts": request.texts,
        "theme": request.theme,
        "ended": request.ended,
    }


def draw_board(request: BoardRequest) -> bytes:
    """The PNG of a game message's board (`board_options`)."""
    from renderer import render_board

    return render_board(request.position, **board_options(request))


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


def draw_chart(request: ChartRequest) -> bytes | None:
    """A finished game's advantage chart PNG: team A's chance to win at the start of every turn and at the
    end, plotted by turn number; None when the game had fewer than two turns."""
    drawn = draw_chart_with_points(request)
    return drawn[0] if drawn is not None else None


def draw_chart_with_points(request: ChartRequest) -> tuple[bytes, list[tuple[object, float]]] | None:
    """`draw_chart`'s PNG with the points it plots (turn, team A's chance), which its description tells."""
    from bot.exact import bell_table
    from puluc.ai import bar_chance
    from renderer import render_chart

    starts = turn_starts(request.record)
    if sum(1 for _, position in starts if position.must_throw and not position.is_over) < 2:
        return None
    turn_of = {number: turn for turn, (number, _) in enumerate(starts, start=1)}
    # The board's own "who is ahead" estimate (`advantage`): exact on Bell 1 v 1, deterministic elsewhere but
    # on the other army-route duels (a search of `budget_ms`), so the chart matches the bars the players saw.
    table = bell_table()
    series: list[tuple[object, float]] = [
        (turn_of[number], bar_chance(position, table, request.budget_ms))
        for number, position in sample_evenly(starts, request.max_points)
    ]
    return render_chart(series, kind="advantage", texts=request.texts, theme=request.theme), series


# -- the rarer pictures: a replay, the legend, a rules example, a rating chart --------------------------------
# Each takes the renderer's words already in the reader's language (`bot.cogs.games.boards.board_texts`).


def draw_replay(record: GameRecord, theme: str, names: Mapping[str, str] | None, texts: Mapping[str, str]) -> bytes:
    """A finished game's replay GIF, captioned with `texts` and the players' `names` (None: the seats')."""
    from renderer import render_replay

    return render_replay(record, theme=theme, names=names, texts=texts)


def replay_files(
    record: GameRecord, theme: str, names: Mapping[str, str] | None, texts: Mapping[str, str]
) -> tuple[bytes, str]:
    """The two files of `/puluc replay`: the replay GIF (`draw_replay`) and the game's record as JSON."""
    return draw_replay(record, theme, names, texts), record.to_json(indent=2)


def draw_legend(texts: Mapping[str, str], theme: str = "dark") -> bytes:
    """The "reading the board" picture: an example board with numbered callouts and the key to its signs."""
    from renderer import render_legend

    return render_legend(texts=texts, theme=theme)


def draw_position(position: Position, texts: Mapping[str, str], theme: str = "dark") -> bytes:
    """A position's board with its last move marked and no names (the rules pages' examples)."""
    from renderer import render_board

    return render_board(position, texts=texts, theme=theme)


def draw_rating_chart(series: list[tuple[object, float]], theme: str, texts: Mapping[str, str]) -> bytes:
    """A player's rating history, titled and with named axes in the words of `texts`."""
    from renderer import render_chart

    return render_chart(series, kind="rating", theme=theme, texts=texts)
