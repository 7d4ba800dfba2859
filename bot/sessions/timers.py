"""One loop that fires game deadlines: AI moves after their pause, and turns whose timer ran out.

Deadlines live in the database (the session saves each with its action); this scheduler only keeps the
next one per game in memory, rebuilt from the sessions at start-up, so a deadline that passed while the
bot was down fires once, right after the restart. The clock and the waiting are injectable so tests can
fake time. This module must never touch storage or import discord.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)

# Wall-clock deadlines are waited for with the event loop's monotonic timers: re-check at least this often
# so a system clock change cannot make a deadline wait far too long.
MAX_WAIT_SECONDS = 30.0
# A deadline whose handler failed (say, the database was locked) is tried again after this pause.
RETRY_SECONDS = 15.0


class DeadlineScheduler:
    """Calls `fire(game_id)` once the game's deadline has passed; `run()` is the loop, `run_due()` one pass."""

    def __init__(self, clock: Callable[[], float], fire: Callable[[int], Awaitable[None]]) -> None:
        self._clock = clock
        self._fire = fire
        self._deadlines: dict[int, float] = {}
        self._loop_task: asyncio.Task[None] | None = None
        self._sleeping_until: float | None = None  # set only while the loop sleeps
        self._wake_requested = False

    def set(self, game_id: int, when: float | None) -> None:
        """Schedule (or, with None, forget) the deadline of a game."""
        if when is None:
            self._deadlines.pop(game_id, None)
        else:
            self._deadlines[game_id] = when
            self._wake_if_earlier(when)

    def _wake_if_earlier(self, when: float) -> None:
        # The loop sleeps with plain asyncio.sleep (which test clocks can fake); an earlier deadline
        # interrupts that sleep by cancelling it, and the loop takes the cancellation as a wake-up call.
        until = self._sleeping_until
        if until is not None and when < until and not self._wake_requested and self._loop_task is not None:
            self._wake_requested = True
            self._loop_task.cancel()

    def get(self, game_id: int) -> float | None:
        return self._deadlines.get(game_id)

    def next_deadline(self) -> float | None:
        return min(self._deadlines.values(), default=None)

    def due(self) -> list[int]:
        """Games whose deadline has passed, earliest first."""
        now = self._clock()
        return sorted((g for g, when in self._deadlines.items() if when <= now), key=self._deadlines.__getitem__)

    async def run_due(self) -> list[int]:
        """Fire every due game once (concurrently: games do not wait for each other); return their ids."""
        due = self.due()
        for game_id in due:
            # Taken out before firing: the session's change puts the game's next deadline back.
            del self._deadlines[game_id]
        results = await asyncio.gather(*(self._fire(game_id) for game_id in due), return_exceptions=True)
        for game_id, outcome in zip(due, results, strict=True):
            if isinstance(outcome, BaseException):
                log.error("deadline of game %d failed; retrying in %gs", game_id, RETRY_SECONDS,
                          exc_info=outcome)
                self._deadlines.setdefault(game_id, self._clock() + RETRY_SECONDS)
        return due

    async def run(self) -> None:
        """Fire deadlines as they come, forever (cancel the task to stop)."""
        task = asyncio.current_task()
        assert task is not None
        self._loop_task = task
        while True:
            await self.run_due()
            upcoming = self.next_deadline()
            wait = MAX_WAIT_SECONDS if upcoming is None else min(max(upcoming - self._clock(), 0.0), MAX_WAIT_SECONDS)
            if wait <= 0:
                if self.due():
                    continue
                wait = 0.001
            self._sleeping_until = self._clock() + wait
            try:
                await asyncio.sleep(wait)
            except asyncio.CancelledError:
                if not self._wake_requested:
                    raise  # a real stop
                task.uncancel()
            finally:
                self._sleeping_until = None
                self._wake_requested = False
