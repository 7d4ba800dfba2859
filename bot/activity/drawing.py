"""The Activity's board as SVG, drawn in a compute worker (`bot.compute`) from the same request as the game
message's PNG (`bot.cogs.games.boards.board_request`), so the page shows what the image shows: the names, the
turn's throws, the buttons' numbers, the last move and the advantage bar.

Runs in every compute worker: like `bot.ui.pictures` it imports the engine, the AI and the renderer, nothing of
Discord or the web.
"""

from __future__ import annotations

from bot.ui.pictures import BoardRequest, board_options


def board_svg(request: BoardRequest, description: str | None = None) -> str:
    """The SVG of the game message's board, with the PNG's options (`bot.ui.pictures.board_options`);
    `description`: the position in words for screen readers (its <desc>)."""
    from renderer import render_board_svg

    svg: str = render_board_svg(request.position, description=description, **board_options(request))
    return svg
