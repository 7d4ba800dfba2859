"""One loop that fires game deadlines: AI moves after their pause, and turns whose timer ran out.

Deadlines live in the database (the session saves each with its action); this scheduler only keeps the
next one per game in memory, rebuilt from the sessions at start-up, so a deadline that passed while the
bot was down fires once, right after the restart. The clock is injectable, and the loop waits with plain
`asyncio.sleep`, so tests can fake time (SimCord's simulated clock included).
Each due game fires in a task of its own, one per game at most: the loop starts the due games' fires and goes
back to sleep without waiting for them, so a slow or failing fire (the AI thinking, Discord answering 429)
delays only its own game.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)

# Wall-clock deadlines are waited for with the event loop's monotonic timers: re-check at least this often
# so a system clock change cannot make a deadline wait far too long.
MAX_WAIT_SECONDS = 30.0
# A deadline whose handler failed (say, the database was locked) is tried again after this pause.
RETRY_SECONDS = 15.0
# How long `stop()` lets the fires under way finish (Discord's retries of one message take up to 7.5 s).
STOP_GRACE_SECONDS = 10.0


class DeadlineScheduler:
    """Calls `fire(game_id)` once the game's deadline has passed. `start()` runs the loop in a task and
    `stop()` ends it; `run_due()` is one pass, for tests and for firing at once."""

    def __init__(self, clock: Callable[[], float], fire: Callable[[int], Awaitable[None]]) -> None:
        self._clock = clock
        self._fire = fire
        self._deadlines: dict[int, float] = {}
        self._task: asyncio.Task[None] | None = None  # the loop's current task, None when stopped
        self._replaced: set[asyncio.Task[None]] = set()  # cancelled by a wake-up, maybe not ended yet
        self._sleeping_until: float | None = None  # when the current task wakes up; None unless it sleeps
        self._firing: dict[int, asyncio.Task[None]] = {}  # the game's fire running now, one per game at most

    def start(self) -> None:
        """Start the loop in a task of the running event loop (idempotent)."""
        if self._task is None or self._task.done():
            self._spawn()

    async def stop(self) -> None:
        """Stop the loop and wait until its task has ended. Fires already running get `STOP_GRACE_SECONDS` to
        finish (a fire is a saved action and then its message: cut short, the message would lag behind the
        game until the next start shows it again); those still running then are cancelled."""
        tasks = {*self._replaced, *([self._task] if self._task is not None else [])}
        self._task = None
        self._sleeping_until = None
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        firing = list(self._firing.values())
        if firing:
            _, late = await asyncio.wait(firing, timeout=STOP_GRACE_SECONDS)
            for task in late:
                task.cancel()
            await asyncio.gather(*firing, return_exceptions=True)

    @property
    def firing(self) -> frozenset[int]:
        """The games whose fire runs now."""
        return frozenset(self._firing)

    def set(self, game_id: int, when: float | None) -> None:
        """Schedule (or, with None, forget) the deadline of a game."""
        if when is None:
            self._deadlines.pop(game_id, None)
        else:
            self._deadlines[game_id] = when
            self._wake_if_earlier(when)

    def _wake_if_earlier(self, when: float) -> None:
        # The loop sleeps with plain asyncio.sleep (which simulated clocks can fake). An earlier deadline
        # replaces the sleeping task by a fresh one that computes its own wait: cancel and recreate, as
        # RoboDanny's timers do. Only a sleeping task is replaced, never one that is firing deadlines, and a
        # cancellation always means stop: `stop()` cancels whichever task is current, so no wake-up can
        # swallow it.
        until = self._sleeping_until
        if until is not None and when < until and self._task is not None:
            replaced = self._task
            replaced.cancel()
            self._replaced.add(replaced)
            replaced.add_done_callback(self._replaced.discard)
            self._spawn()

    def _spawn(self) -> None:
        self._sleeping_until = None
        self._task = asyncio.get_running_loop().create_task(self._run(), name="puluc-deadlines")

    def get(self, game_id: int) -> float | None:
        return self._deadlines.get(game_id)

    def next_deadline(self) -> float | None:
        """The earliest deadline of a game not firing now (a firing game's next one waits for its fire)."""
        return min((when for game_id, when in self._deadlines.items() if game_id not in self._firing), default=None)

    def due(self) -> list[int]:
        """Games whose deadline has passed and that are not firing now, earliest first."""
        now = self._clock()
        return sorted((g for g, when in self._deadlines.items() if when <= now and g not in self._firing),
                      key=self._deadlines.__getitem__)

    def start_due(self) -> list[int]:
        """Start the fire of every due game, each in its own task, without waiting for any; return their ids."""
        due = self.due()
        loop = asyncio.get_running_loop()
        for game_id in due:
            # Taken out before firing: the session's change puts the game's next deadline back.
            del self._deadlines[game_id]
            task = loop.create_task(self._fire_one(game_id), name=f"puluc-deadline-{game_id}")
            self._firing[game_id] = task
            task.add_done_callback(functools.partial(self._fired, game_id))
        return due

    async def run_due(self) -> list[int]:
        """Fire every due game once and wait until those fires have ended (tests, and firing at once); the
        games still fire in tasks of their own, so they do not wait for each other."""
        due = self.start_due()
        await asyncio.gather(*(self._firing[g] for g in due if g in self._firing), return_exceptions=True)
        return due

    async def _fire_one(self, game_id: int) -> None:
        try:
            await self._fire(game_id)
        except Exception:
            log.exception("deadline of game %d failed; retrying in %gs", game_id, RETRY_SECONDS)
            self._deadlines.setdefault(game_id, self._clock() + RETRY_SECONDS)

    def _fired(self, game_id: int, task: asyncio.Task[None]) -> None:
        if self._firing.get(game_id) is task:
            del self._firing[game_id]
        # The deadline the fire set (or its retry) was held back while it ran: the loop may need to wake for it.
        when = self._deadlines.get(game_id)
        if when is not None and self._task is not None:
            self._wake_if_earlier(when)

    async def _run(self) -> None:
        """Start the due games' fires as they come, until the task is cancelled."""
        while True:
            self.start_due()
            upcoming = self.next_deadline()
            wait = MAX_WAIT_SECONDS if upcoming is None else min(max(upcoming - self._clock(), 0.0), MAX_WAIT_SECONDS)
            if wait <= 0:
                if self.due():
                    continue
                wait = 0.001
            # No await between setting and sleeping: a task is replaced only while it sleeps.
            self._sleeping_until = self._clock() + wait
            await asyncio.sleep(wait)
            self._sleeping_until = None
