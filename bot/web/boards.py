"""The pictures of the web pages, drawn where the bot draws its boards (`bot.compute`'s workers): a board as
SVG (`renderer.render_board_svg`, the same layout as the game message's PNG) and the advantage chart's points.
Imports nothing heavier than `bot.ui.pictures` does, so a worker loads it quickly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.ui.pictures import advantage
from puluc import MoveEffect, Position, Throw
from renderer import Ended

__all__ = ["SvgBoard", "chances", "draw_svg"]


@dataclass(frozen=True, slots=True)
class SvgBoard:
    """One board of a page: the position, the move to mark, the turn's throws, the players and the words."""

    position: Position
    last: MoveEffect | None
    throws: tuple[Throw, ...]
    names: Mapping[str, str]
    texts: Mapping[str, str]
    bar_ms: float  # the "who is ahead" bar's thinking budget; 0: no bar
    description: str | None = None  # the position in words for screen readers (`bot.web.present.describe`)
    ended: Ended | None = None  # how a game over its board cannot tell ended (a resignation, a time-out, a cancel)


def draw_svg(board: SvgBoard) -> str:
    """The SVG document of `board` (with its <title> and <desc> for screen readers)."""
    from renderer import render_board_svg

    return render_board_svg(
        board.position,
        last_move=board.last if board.last is not None else False,
        throw=board.throws or None,
        advantage=advantage(board.position, 0, 0, board.bar_ms),
        names=board.names,
        texts=board.texts,
        description=board.description,
        ended=board.ended,
    )


def chances(positions: Sequence[Position], bar_ms: float) -> list[float | None]:
    """Team A's chance to win at each of `positions` (the advantage chart), as the board's bar says it."""
    budget = bar_ms if bar_ms > 0 else 1.0  # the chart is drawn even where the bar is off
    return [advantage(position, 0, 0, budget) for position in positions]
