"""The Activity's board as SVG, drawn in a compute worker (`bot.compute`) from the same request as the game
message's PNG (`bot.cogs.games.boards.board_request`), so the page shows what the image shows: the names, the
turn's throws, the buttons' numbers, the last move and the advantage bar.

Runs in every compute worker: like `bot.ui.pictures` it imports the engine, the AI and the renderer, nothing of
Discord or the web.
"""

from __future__ import annotations

from bot.ui.pictures import BoardRequest, advantage, move_labels


def board_svg(request: BoardRequest, description: str | None = None) -> str:
    """The SVG of the game message's board (`bot.ui.pictures.draw_board` draws its PNG); `description`: the
    position in words for screen readers (its <desc>)."""
    from renderer import render_board_svg

    position = request.position
    svg: str = render_board_svg(
        position,
        last_move=request.last if request.last is not None else True,
        throw=request.throws or None,
        labels=move_labels(position, request.labels_up_to) or None,
        advantage=advantage(position, request.seed, request.seq, request.bar_ms),
        names=request.names,
        texts=request.texts,
        description=description,
    )
    return svg
