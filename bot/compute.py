"""CPU work off the event loop and out of its process: board and replay pictures, AI moves, hints, charts.

A `ComputePool` runs plain functions of picklable data in `WORKERS` processes started by a fork server (threads
when `workers=0`), in lanes: the games' boards and AI moves have the workers to themselves, replays, hints and
charts run in workers of their own at the lowest CPU priority, and a lane's full waiting line refuses at once
(`ComputeBusy`); a dead worker's jobs are tried once more in a rebuilt pool, then raise `ComputeFailed`. Why
processes, how workers stay small, how the lanes share them and what a breakage costs: docs/ARCHITECTURE.md,
"The compute pool".
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import contextlib
import contextvars
import functools
import logging
import multiprocessing
import os
import select
import signal
import sys
import threading
import time
import types
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing import forkserver
from typing import ParamSpec, TypeVar

log = logging.getLogger(__name__)

P = ParamSpec("P")
T = TypeVar("T")

#: Jobs handed to the processes at once, per worker: one running and one ready, so a worker never idles
#: between jobs, and a worker's death costs at most a few retried jobs.
QUEUE_PER_WORKER = 2
#: How many jobs may run at once in threads when `workers` is 0.
THREAD_JOBS = 2
#: A waiting line longer than this many jobs per worker is logged (at most once a minute).
LONG_LINE_PER_WORKER = 25
LONG_LINE_LOG_SECONDS = 60.0


class ComputeFailed(RuntimeError):
    """A job's worker process died on its first try and again on its retry in a rebuilt pool."""


class ComputeBusy(RuntimeError):
    """A lane's waiting line is full: the job was refused before it waited (nothing was done)."""

    def __init__(self, lane: str, waiting: int) -> None:
        super().__init__(f"{waiting} {lane} jobs are already waiting for a worker")
        self.lane = lane
        self.waiting = waiting


@dataclass(frozen=True, slots=True)
class Lane:
    """A kind of job: `urgent` jobs (the games' boards and AI moves) go before every other waiting job and may
    use every worker; the others wait for an idle worker and never take the last one. `waiting` bounds how
    many of the lane's jobs may wait (0: no bound); one more raises `ComputeBusy`."""

    name: str
    urgent: bool = False
    waiting: int = 0


#: The games' own work: boards after moves, the AI's moves, a lobby's balanced split. Never refused.
GAME_LANE = Lane("game", urgent=True)


def default_workers() -> int:
    """One worker per core this process may use (what an unset `WORKERS` means)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def start_method() -> str:
    """'forkserver' where the platform has it (Linux), else 'spawn'."""
    return "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"


def _exit_with(bot_pid: int) -> None:
    """Ends this worker when the bot process is gone (killed with SIGKILL, say): an orphaned worker would
    otherwise wait for jobs forever, and keep the fork server and the bot's output pipes open."""
    try:
        pidfd = os.pidfd_open(bot_pid)
    except (AttributeError, OSError):  # not Linux 5.3+: ask every second
        while True:
            time.sleep(1.0)
            try:
                os.kill(bot_pid, 0)
            except ProcessLookupError:
                os._exit(1)
            except PermissionError:
                pass
    select.select([pidfd], [], [])
    os._exit(1)


# How much lower a worker's CPU priority is than the bot's: when every core is busy, the event loop (which
# acknowledges interactions and sends the boards) runs first and the workers take the rest.
WORKER_NICENESS = 10
# The workers of the other lanes (replays, hints, charts) run lower still, the lowest there is: on a busy
# machine the games' workers get the CPU first, and a replay takes what is left.
BACKGROUND_NICENESS = 19


def default_background_workers(workers: int) -> int:
    """Worker processes of their own for the other lanes: half as many as the games' (at least one)."""
    return max(1, workers // 2) if workers else 0


def _start_worker(warm_up: Callable[[], object] | None, bot_pid: int, niceness: int = WORKER_NICENESS) -> None:
    """Runs first in every worker process."""
    with contextlib.suppress(OSError):  # a platform without priorities: the worker runs at the bot's
        os.nice(niceness)
    # Ctrl-C reaches the whole process group: the bot shuts its workers down itself, in order.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_exit_with, args=(bot_pid,), name="puluc-bot-watch", daemon=True).start()
    if warm_up is not None:
        try:
            warm_up()
        except Exception:  # a worker that cannot warm up still works, only its first job is slower
            logging.getLogger(__name__).warning("a worker could not warm up", exc_info=True)


def _ready() -> int:
    return os.getpid()


@contextlib.contextmanager
def _main_module_hidden() -> Iterator[None]:
    """While worker processes start: a bare module in place of this program's main module.

    A 'forkserver' or 'spawn' child imports its parent's `__main__` (by name or by path, as
    `sys.modules['__main__']` says when the child is started) before it runs anything, so that functions
    defined there could be unpickled. The pool never runs those; a bare module names nothing to import.
    Workers start synchronously in `_new_executor`, in the event loop's thread, within milliseconds.
    """
    main = sys.modules.get("__main__")
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        yield
    finally:
        if main is None:
            del sys.modules["__main__"]
        else:
            sys.modules["__main__"] = main


class _Workers:
    """One group of worker processes: an executor, rebuilt when one of them dies."""

    def __init__(self, pool: ComputePool, count: int, niceness: int) -> None:
        self.pool = pool
        self.count = count
        self.niceness = niceness
        self.generation = 0
        self.starting: list[concurrent.futures.Future[int]] = []
        self.executor: concurrent.futures.ProcessPoolExecutor | None = self._new()

    def _new(self) -> concurrent.futures.ProcessPoolExecutor:
        """A new executor with every worker process started (each takes a no-op job: while none has finished
        one, every submit starts a process)."""
        pool = self.pool
        executor = concurrent.futures.ProcessPoolExecutor(
            self.count, mp_context=pool._context, initializer=_start_worker,
            initargs=(pool._warm_up, os.getpid(), self.niceness),
        )
        with _main_module_hidden():
            self.starting = contextvars.Context().run(lambda: [executor.submit(_ready) for _ in range(self.count)])
        return executor

    def rebuild(self, generation: int) -> None:
        """A new executor in place of the broken one, once per breakage however many jobs saw it."""
        if generation != self.generation or self.pool._closed or self.executor is None:
            return
        broken, self.executor = self.executor, self._new()
        self.generation += 1
        self.pool.rebuilds += 1
        broken.shutdown(wait=False, cancel_futures=True)

    async def close(self) -> None:
        executor, self.executor = self.executor, None
        if executor is not None:
            await asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)


class ComputePool:
    """Runs CPU-bound jobs in worker processes (or, with `workers=0`, in threads)."""

    def __init__(
        self,
        workers: int,
        *,
        warm_up: Callable[[], object] | None = None,
        preload: tuple[str, ...] = (),
        queue_per_worker: int = QUEUE_PER_WORKER,
        method: str | None = None,
        lanes: Iterable[Lane] = (),
        background_workers: int | None = None,
    ) -> None:
        """`warm_up` runs once in each worker (a module-level function or a `functools.partial` of one);
        `preload` names modules the fork server imports once, so each new worker starts with them loaded;
        `lanes` are the kinds of job `run_in` accepts besides `GAME_LANE` (a lane not given is refused); the
        other lanes run in `background_workers` processes of their own (`default_background_workers`), at the
        lowest CPU priority, or with `workers=0` in the same threads as the games' jobs."""
        if workers < 0:
            raise ValueError(f"workers must be 0 (threads) or more, not {workers}")
        if queue_per_worker < 1:
            raise ValueError(f"queue_per_worker must be at least 1, not {queue_per_worker}")
        self.workers = workers
        self.method = method or start_method()
        self._warm_up = warm_up
        self._context = multiprocessing.get_context(self.method)
        if preload and self.method == "forkserver":
            forkserver.set_forkserver_preload(list(preload))  # the one fork server of this process
        self.limit = workers * queue_per_worker if workers else THREAD_JOBS
        if background_workers is None:
            background_workers = default_background_workers(workers)
        if workers and background_workers < 1:
            raise ValueError(f"background_workers must be at least 1 with worker processes, not {background_workers}")
        self.background_workers = background_workers if workers else 0
        # Jobs of the other lanes start only on an idle worker of theirs (so none waits in an executor's queue),
        # and in threads never on the last free thread.
        self.background_limit = self.background_workers or THREAD_JOBS - 1
        self.lanes: dict[str, Lane] = {GAME_LANE.name: GAME_LANE}
        for lane in lanes:
            self.lanes[lane.name] = lane
        self._handed = 0  # jobs holding a slot (handed to the workers, or about to be)
        self._handed_background = 0
        self._urgent_line: collections.deque[asyncio.Future[None]] = collections.deque()
        self._background_line: collections.deque[asyncio.Future[None]] = collections.deque()
        self.waiting_in: collections.Counter[str] = collections.Counter()  # callers waiting, by lane
        self.refused: collections.Counter[str] = collections.Counter()  # jobs refused as busy, by lane
        self.rebuilds = 0  # how many times a dead worker made the pool start anew
        self.waiting = 0  # callers waiting for a slot
        self.running = 0  # jobs handed to the workers (or threads)
        self.queued: collections.Counter[str] = collections.Counter()  # jobs waiting or running, by function
        self._line_logged = 0.0
        self._closed = False
        self._games = _Workers(self, workers, WORKER_NICENESS) if workers else None
        self._others = _Workers(self, self.background_workers, BACKGROUND_NICENESS) if workers else None

    @property
    def in_process(self) -> bool:
        """True when jobs run in threads of this process (`workers=0`)."""
        return self.workers == 0

    async def start(self) -> float:
        """Wait until every worker has started and warmed up; return how many seconds that took."""
        began = time.perf_counter()
        starting = [future for group in (self._games, self._others) if group is not None for future in group.starting]
        if starting:
            await asyncio.gather(*(asyncio.wrap_future(future) for future in starting))
        return time.perf_counter() - began

    async def run(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """`fn(*args, **kwargs)` in a worker, in the games' urgent lane (`GAME_LANE`); see `run_in`."""
        return await self._run(GAME_LANE, functools.partial(fn, *args, **kwargs))

    async def run_in(self, lane: str, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """`fn(*args, **kwargs)` in a worker, as a job of `lane` (one of the pool's `lanes`); its arguments and
        result cross a process boundary, so they must be picklable and `fn` must be importable by name. Waits
        for a slot when the workers are busy; `ComputeBusy` at once when the lane's waiting line is full."""
        return await self._run(self.lane(lane), functools.partial(fn, *args, **kwargs))

    def lane(self, name: str) -> Lane:
        """The lane called `name` (KeyError for a lane this pool was not given)."""
        try:
            return self.lanes[name]
        except KeyError:
            raise KeyError(f"no compute lane {name!r}; the pool has {', '.join(sorted(self.lanes))}") from None

    def check_room(self, name: str) -> None:
        """`ComputeBusy` when a job of lane `name` would be refused now: asked before an answer is promised
        (a public "thinking"), so that the refusal stays private."""
        lane = self.lane(name)
        if lane.waiting and self.waiting_in[lane.name] >= lane.waiting and not self._may_start(lane):
            self.refused[lane.name] += 1
            raise ComputeBusy(lane.name, self.waiting_in[lane.name])

    async def _run(self, lane: Lane, call: functools.partial[T]) -> T:
        if self._closed:
            raise RuntimeError("the compute pool is closed")
        kind = _name(call)
        if not self._may_start(lane):
            self.check_room(lane.name)
        self.queued[kind] += 1  # waiting or running, by kind: the bot's /metrics (bot.ops.health)
        try:
            await self._acquire(lane)
            self.running += 1
            try:
                if self.in_process:
                    return await asyncio.to_thread(call)
                group = self._games if lane.urgent else self._others
                assert group is not None
                return await self._in_worker(call, group)
            finally:
                self.running -= 1
                self._release(lane)
        finally:
            self.queued[kind] -= 1

    # -- slots: urgent jobs first, the others only on an idle worker ---------------------------------------

    def _urgent_room(self) -> bool:
        # Worker processes: the games' own; threads: shared with the other lanes.
        handed = self._handed if self.in_process else self._handed - self._handed_background
        return handed < self.limit

    def _background_room(self) -> bool:
        if self._handed_background >= self.background_limit:
            return False
        return not self.in_process or (not self._urgent_line and self._handed < THREAD_JOBS)

    def _may_start(self, lane: Lane) -> bool:
        """Whether a job of `lane` may take a slot now, no one of its priority waiting before it."""
        if lane.urgent:
            return not self._urgent_line and self._urgent_room()
        return not self._background_line and self._background_room()

    def _take(self, lane: Lane) -> None:
        self._handed += 1
        if not lane.urgent:
            self._handed_background += 1

    async def _acquire(self, lane: Lane) -> None:
        if self._may_start(lane):
            self._take(lane)
            return
        line = self._urgent_line if lane.urgent else self._background_line
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        line.append(turn)
        self.waiting += 1
        self.waiting_in[lane.name] += 1
        self._note_line()
        try:
            await turn  # `_hand_out` takes the slot for us before it sets the result
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self._release(lane)  # the slot came, but its caller is gone: pass it on
            else:
                with contextlib.suppress(ValueError):  # already passed over by `_hand_out`
                    line.remove(turn)
                self._hand_out()  # an urgent caller gone may let a waiting other one start
            raise
        finally:
            self.waiting -= 1
            self.waiting_in[lane.name] -= 1

    def _release(self, lane: Lane) -> None:
        self._handed -= 1
        if not lane.urgent:
            self._handed_background -= 1
        self._hand_out()

    def _hand_out(self) -> None:
        """Give the free slots to the waiting callers: every urgent one first, then the others."""
        while self._urgent_line and self._urgent_room():
            turn = self._urgent_line.popleft()
            if not turn.done():
                self._handed += 1
                turn.set_result(None)
        while self._background_line and self._background_room():
            turn = self._background_line.popleft()
            if not turn.done():
                self._handed += 1
                self._handed_background += 1
                turn.set_result(None)

    async def _in_worker(self, call: Callable[[], T], group: _Workers) -> T:
        generation = group.generation
        try:
            return await self._submit(call, group)
        except BrokenProcessPool:
            log.warning("a compute worker died during %s; starting the pool anew and trying it again", _name(call))
            group.rebuild(generation)
        generation = group.generation
        try:
            return await self._submit(call, group)
        except BrokenProcessPool as exc:
            group.rebuild(generation)
            raise ComputeFailed(f"the worker died twice running {_name(call)}") from exc

    async def _submit(self, call: Callable[[], T], group: _Workers) -> T:
        if group.executor is None:
            raise RuntimeError("the compute pool is closed")
        # Through the loop's executor hook (not `executor.submit`), so that tools watching the loop's work (the
        # simulated Discord of the tests) see the job as pending.
        return await asyncio.get_running_loop().run_in_executor(group.executor, call)

    def _note_line(self) -> None:
        long_line = LONG_LINE_PER_WORKER * max(1, self.workers)
        now = time.monotonic()
        if self.waiting > long_line and now - self._line_logged > LONG_LINE_LOG_SECONDS:
            self._line_logged = now
            log.warning("%d jobs are waiting for %d compute workers; the bot is busier than its workers",
                        self.waiting, self.workers)

    async def close(self) -> None:
        """Stop the workers (jobs still queued are cancelled); idempotent."""
        self._closed = True
        for group in (self._games, self._others):
            if group is not None:
                await group.close()


def _name(call: Callable[..., object]) -> str:
    target = call.func if isinstance(call, functools.partial) else call
    return getattr(target, "__qualname__", repr(target))
