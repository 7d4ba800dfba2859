"""A finished game's advantage chart, added to the message that already shows its result once it is drawn."""

from __future__ import annotations

import asyncio
import io
import logging
from typing import Any

import discord

from bot.cogs.games.boards import chart_request
from bot.cogs.games.delivery import Publisher
from bot.compute import ComputePool
from bot.limits import END_CHART_LANE
from bot.sessions import GameState
from bot.ui.pictures import CHART_MAX_POINTS, CHART_POINT_BUDGET_MS, draw_chart

log = logging.getLogger(__name__)

CHART_FILE = "advantage.png"


class Charts:
    """Draws the charts in the compute workers, never on all of them, and adds each to its result message."""

    def __init__(self, compute: ComputePool, publisher: Publisher, budget_ms: float = CHART_POINT_BUDGET_MS) -> None:
        self._compute = compute
        self._publisher = publisher
        self._budget_ms = budget_ms
        self._drawing: set[asyncio.Task[None]] = set()
        # A chart keeps a worker busy for seconds: charts are drawn on all workers but one, so that the boards
        # of the games still being played always find a worker free (charts may come later; boards may not).
        self._slots = asyncio.Semaphore(max(1, compute.workers - 1))

    def add_later(self, state: GameState, lang: str, message: discord.Message) -> None:
        """Draw the finished game's chart and add it to `message`, which shows the result already."""
        task = asyncio.get_running_loop().create_task(self._add(state, lang, message),
                                                      name=f"puluc-chart-{state.game_id}")
        self._drawing.add(task)
        task.add_done_callback(self._drawing.discard)

    async def draw(self, state: GameState, lang: str) -> bytes | None:
        """The chart, or None: a failure here must never cost the players their result."""
        try:
            request = chart_request(state, self._budget_ms, CHART_MAX_POINTS, lang)
            return await self._compute.run_in(END_CHART_LANE.name, draw_chart, request)
        except Exception:
            log.exception("could not chart game %d", state.game_id)
            return None

    async def _add(self, state: GameState, lang: str, message: discord.Message) -> None:
        async with self._slots:
            chart = await self.draw(state, lang)
        if chart is None:
            return
        channel = await self._publisher.channel(state.place.channel_id)
        if channel is None:
            log.warning("game %d: its advantage chart is not shown (the channel cannot be reached)", state.game_id)
            return
        shown = list(message.attachments)  # kept as they are: the final board stays, nothing is uploaded again

        def with_chart() -> dict[str, Any]:
            return {"attachments": [*shown, discord.File(io.BytesIO(chart), filename=CHART_FILE)]}

        # Only the attachments change: the text, the result and the Rematch button stay as they are.
        await self._publisher.edit(channel, message.id, with_chart)

    async def close(self) -> None:
        """Stop the charts being drawn (at shutdown)."""
        tasks = list(self._drawing)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
