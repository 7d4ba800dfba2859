"""Drawing a game's board for the Activity: the request the game message's PNG is drawn from, drawn as SVG
in the bot's compute workers (never on the event loop)."""

from __future__ import annotations

from bot.activity.drawing import board_svg
from bot.cogs.games.boards import board_request
from bot.compute import ComputePool
from bot.sessions import GameState
from bot.web.present import describe
from puluc import MoveEffect


async def draw_svg(compute: ComputePool, state: GameState, lang: str, last: MoveEffect | None,
                   bar_ms: float) -> str:
    """The SVG of `state`'s board in `lang`, marking `last` (None: the position's own last move), described in
    words for screen readers as the web companion's boards are."""
    request = board_request(state, last, bar_ms, lang)
    description = describe(request.position, dict(request.names), lang) if state.position is not None else None
    return await compute.run(board_svg, request, description)
