"""CPU work off the event loop and out of its process: board and replay pictures, AI moves, hints, charts.

A `ComputePool` runs plain functions of picklable data in `WORKERS` processes started by a fork server (threads
when `workers=0`), behind a bounded queue; a dead worker's jobs are tried once more in a rebuilt pool, then
raise `ComputeFailed`. Why processes, how workers stay small and what a breakage costs: docs/ARCHITECTURE.md,
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
from collections.abc import Callable, Iterator
from concurrent.futures.process import BrokenProcessPool
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


def _start_worker(warm_up: Callable[[], object] | None, bot_pid: int) -> None:
    """Runs first in every worker process."""
    with contextlib.suppress(OSError):  # a platform without priorities: the worker runs at the bot's
        os.nice(WORKER_NICENESS)
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
    ) -> None:
        """`warm_up` runs once in each worker (a module-level function or a `functools.partial` of one);
        `preload` names modules the fork server imports once, so each new worker starts with them loaded."""
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
        self._slots = asyncio.Semaphore(self.limit)
        self._executor: concurrent.futures.ProcessPoolExecutor | None = None
        self._generation = 0
        self.rebuilds = 0  # how many times a dead worker made the pool start anew
        self.waiting = 0  # callers waiting for a slot
        self.running = 0  # jobs handed to the workers (or threads)
        self.queued: collections.Counter[str] = collections.Counter()  # jobs waiting or running, by function
        self._line_logged = 0.0
        self._closed = False
        self._starting: list[concurrent.futures.Future[int]] = []
        if workers:
            self._executor = self._new_executor()

    def _new_executor(self) -> concurrent.futures.ProcessPoolExecutor:
        """A new executor with every worker process started (each takes a no-op job: while none has finished
        one, every submit starts a process)."""
        executor = concurrent.futures.ProcessPoolExecutor(
            self.workers, mp_context=self._context, initializer=_start_worker,
            initargs=(self._warm_up, os.getpid()),
        )
        with _main_module_hidden():
            self._starting = contextvars.Context().run(
                lambda: [executor.submit(_ready) for _ in range(self.workers)]
            )
        return executor

    @property
    def in_process(self) -> bool:
        """True when jobs run in threads of this process (`workers=0`)."""
        return self.workers == 0

    async def start(self) -> float:
        """Wait until every worker has started and warmed up; return how many seconds that took."""
        began = time.perf_counter()
        if self._starting:
            await asyncio.gather(*(asyncio.wrap_future(future) for future in self._starting))
        return time.perf_counter() - began

    async def run(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """`fn(*args, **kwargs)` in a worker; its arguments and result cross a process boundary, so they must
        be picklable and `fn` must be importable by name. Waits for a slot when the queue is full."""
        if self._closed:
            raise RuntimeError("the compute pool is closed")
        kind = _name(fn)
        self.queued[kind] += 1  # waiting or running, by kind: the bot's /metrics (bot.ops.health)
        try:
            self.waiting += 1
            try:
                self._note_line()
                await self._slots.acquire()
            finally:
                self.waiting -= 1
            self.running += 1
            try:
                call = functools.partial(fn, *args, **kwargs)
                if self.in_process:
                    return await asyncio.to_thread(call)
                return await self._in_worker(call)
            finally:
                self.running -= 1
                self._slots.release()
        finally:
            self.queued[kind] -= 1

    async def _in_worker(self, call: Callable[[], T]) -> T:
        generation = self._generation
        try:
            return await self._submit(call)
        except BrokenProcessPool:
            log.warning("a compute worker died during %s; starting the pool anew and trying it again", _name(call))
            self._rebuild(generation)
        generation = self._generation
        try:
            return await self._submit(call)
        except BrokenProcessPool as exc:
            self._rebuild(generation)
            raise ComputeFailed(f"the worker died twice running {_name(call)}") from exc

    async def _submit(self, call: Callable[[], T]) -> T:
        if self._executor is None:
            raise RuntimeError("the compute pool is closed")
        # Through the loop's executor hook (not `executor.submit`), so that tools watching the loop's work (the
        # simulated Discord of the tests) see the job as pending.
        return await asyncio.get_running_loop().run_in_executor(self._executor, call)

    def _rebuild(self, generation: int) -> None:
        """A new executor in place of the broken one, once per breakage however many jobs saw it."""
        if generation != self._generation or self._closed or self._executor is None:
            return
        broken, self._executor = self._executor, self._new_executor()
        self._generation += 1
        self.rebuilds += 1
        broken.shutdown(wait=False, cancel_futures=True)

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
        executor, self._executor = self._executor, None
        if executor is not None:
            await asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)


def _name(call: Callable[..., object]) -> str:
    target = call.func if isinstance(call, functools.partial) else call
    return getattr(target, "__qualname__", repr(target))
