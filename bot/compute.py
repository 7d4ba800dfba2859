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
import itertools
import logging
import multiprocessing
import multiprocessing.process
import os
import pickle
import select
import signal
import socket
import struct
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

    def __init__(self, pool: ComputePool, count: int, niceness: int, *, eager: bool = True) -> None:
        self.pool = pool
        self.count = count
        self.niceness = niceness
        # Not eager: no process until the first job (which starts them all), so a bot whose
        # members never ask for replays, hints or charts does not hold their workers' memory.
        self.eager = eager
        self.generation = 0
        self.starting: list[concurrent.futures.Future[int]] = []
        self.executor: concurrent.futures.ProcessPoolExecutor | None = self._new()

    def _new(self) -> concurrent.futures.ProcessPoolExecutor:
        """A new executor, eager: with every worker process started (each takes a no-op job: while none has
        finished one, every submit starts a process)."""
        pool = self.pool
        executor = concurrent.futures.ProcessPoolExecutor(
            self.count, mp_context=pool._context, initializer=_start_worker,
            initargs=(pool._warm_up, os.getpid(), self.niceness),
        )
        self.starting = []
        if self.eager:
            self._start(executor)
        return executor

    def _start(self, executor: concurrent.futures.ProcessPoolExecutor) -> None:
        with _main_module_hidden():
            self.starting = contextvars.Context().run(lambda: [executor.submit(_ready) for _ in range(self.count)])

    def ensure_started(self) -> None:
        """Start the processes of a group that is not eager, before its first job."""
        if not self.starting and self.executor is not None:
            self._start(self.executor)

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


# -- the games' workers: one socket per worker, read by the event loop ------------------------------------------
# A job and its answer cross as one frame each: its length and number (`_FRAME`), then a pickle. Nothing but the
# event loop's own reader touches the bot's end: no threads, no locks, no queue of the multiprocessing module.
_FRAME = struct.Struct("!IQ")
_READY = 0  # the frame a worker sends once it has warmed up: its process id
_READ_SIZE = 1 << 18


def _serve(sock: socket.socket, warm_up: Callable[[], object] | None, bot_pid: int, niceness: int) -> None:
    """A games' worker: after `_start_worker`, runs the jobs that arrive on `sock`, one at a time, in order, and
    answers each with (True, its result) or (False, the exception it raised); ends when the bot's end closes."""
    _start_worker(warm_up, bot_pid, niceness)
    incoming = sock.makefile("rb", buffering=_READ_SIZE)
    sock.sendall(_frame(_READY, pickle.dumps((True, os.getpid()))))
    while True:
        header = incoming.read(_FRAME.size)
        if len(header) < _FRAME.size:
            return  # the bot closed this worker's socket, or is gone
        length, number = _FRAME.unpack(header)
        payload = incoming.read(length)
        if len(payload) < length:
            return
        try:
            answer = pickle.dumps((True, pickle.loads(payload)()), pickle.HIGHEST_PROTOCOL)
        except Exception as exc:  # noqa: BLE001 -- the job's own error (or its result's pickling) goes back to its caller
            answer = _pickled_error(exc)
        sock.sendall(_frame(number, answer))


def _pickled_error(exc: Exception) -> bytes:
    try:
        return pickle.dumps((False, exc), pickle.HIGHEST_PROTOCOL)
    except Exception:  # noqa: BLE001 -- an exception that does not pickle: its type and text
        return pickle.dumps((False, RuntimeError(f"{type(exc).__name__}: {exc}")), pickle.HIGHEST_PROTOCOL)


def _frame(number: int, payload: bytes) -> bytes:
    return _FRAME.pack(len(payload), number) + payload


class _Worker:
    """The bot's side of one games' worker: its process, its socket, and the jobs it was handed."""

    def __init__(self, process: multiprocessing.process.BaseProcess, sock: socket.socket) -> None:
        self.process = process
        self.sock = sock
        self.received = bytearray()
        self.unsent = bytearray()  # what the socket did not take at once (it almost never happens)
        self.jobs: dict[int, asyncio.Future[object]] = {}
        self.ready: asyncio.Future[int] | None = None
        self.attached = False


class _PipeWorkers:
    """The games' worker processes, each with a socket of its own that the event loop reads: handing a job over
    costs one pickle and one write in the event loop's thread. A worker's death (its socket's end of file) fails
    every job the group holds with `BrokenProcessPool` and starts the whole group anew, as the executor would."""

    def __init__(self, pool: ComputePool, count: int, niceness: int) -> None:
        self.pool = pool
        self.count = count
        self.niceness = niceness
        self.generation = 0
        self.numbers = itertools.count(_READY + 1)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.workers: list[_Worker] | None = self._new()
        # Callers waiting for an idle worker, first come first served: a job is handed only to a worker with
        # nothing to do, so a board never waits behind a long AI move on one worker while another is free.
        self.waiting: collections.deque[asyncio.Future[None]] = collections.deque()

    def _new(self) -> list[_Worker]:
        # Outside the caller's context variables, as the executor's start is (`_Workers._new`): tools that watch
        # the bot's work (the simulated Discord's clock) must not see the processes' start-up.
        workers = contextvars.Context().run(self._started)
        if self.loop is not None:
            for worker in workers:
                self._attach(worker)
        return workers

    def _started(self) -> list[_Worker]:
        pool = self.pool
        workers = []
        with _main_module_hidden():
            for _ in range(self.count):
                ours, theirs = socket.socketpair()
                process = pool._context.Process(  # type: ignore[attr-defined]
                    target=_serve, args=(theirs, pool._warm_up, os.getpid(), self.niceness),
                    name="puluc-bot-worker", daemon=True,
                )
                process.start()
                theirs.close()
                ours.setblocking(False)
                workers.append(_Worker(process, ours))
        return workers

    def _attach(self, worker: _Worker) -> None:
        assert self.loop is not None
        worker.ready = self.loop.create_future()
        self.loop.add_reader(worker.sock.fileno(), self._readable, worker)
        worker.attached = True

    def _bind(self) -> list[_Worker]:
        """The current workers, read by the running event loop (bound on first use)."""
        if self.workers is None:
            raise RuntimeError("the compute pool is closed")
        if self.loop is None:
            self.loop = asyncio.get_running_loop()
            for worker in self.workers:
                self._attach(worker)
        return self.workers

    async def ready(self) -> None:
        """Until every worker has warmed up."""
        await asyncio.gather(*(worker.ready for worker in self._bind() if worker.ready is not None))

    def _idle(self) -> _Worker | None:
        return next((worker for worker in self._bind() if not worker.jobs), None)

    def _wake(self, count: int = 1) -> None:
        """Let the first `count` waiting callers look for an idle worker again."""
        while count > 0 and self.waiting:
            turn = self.waiting.popleft()
            if not turn.done():
                turn.set_result(None)
                count -= 1

    async def submit(self, call: Callable[[], T]) -> T:
        worker = self._idle()
        while worker is None:
            assert self.loop is not None
            turn: asyncio.Future[None] = self.loop.create_future()
            self.waiting.append(turn)
            try:
                await turn
            except asyncio.CancelledError:
                if turn.done() and not turn.cancelled():
                    self._wake()  # woken, then cancelled: the turn passes to the next caller
                raise
            finally:
                with contextlib.suppress(ValueError):
                    self.waiting.remove(turn)
            worker = self._idle()
        number = next(self.numbers)
        data = _frame(number, pickle.dumps(call, pickle.HIGHEST_PROTOCOL))
        assert self.loop is not None
        answer: asyncio.Future[object] = self.loop.create_future()
        worker.jobs[number] = answer
        self._write(worker, data)
        try:
            return await answer  # type: ignore[return-value]
        finally:
            if worker.jobs.pop(number, None) is not None and not worker.jobs:
                self._wake()  # a cancelled caller: the worker's answer will be dropped

    def _write(self, worker: _Worker, data: bytes) -> None:
        if not worker.unsent:
            try:
                sent = worker.sock.send(data)
            except BlockingIOError:
                sent = 0
            except OSError:
                self._died(worker)
                return
            if sent == len(data):
                return
            data = data[sent:]
            assert self.loop is not None
            self.loop.add_writer(worker.sock.fileno(), self._writable, worker)
        worker.unsent += data

    def _writable(self, worker: _Worker) -> None:
        try:
            sent = worker.sock.send(worker.unsent)
        except BlockingIOError:
            return
        except OSError:
            self._died(worker)
            return
        del worker.unsent[:sent]
        if not worker.unsent and self.loop is not None:
            self.loop.remove_writer(worker.sock.fileno())

    def _readable(self, worker: _Worker) -> None:
        try:
            data = worker.sock.recv(_READ_SIZE)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self._died(worker)
            return
        received = worker.received
        received += data
        while len(received) >= _FRAME.size:
            length, number = _FRAME.unpack_from(received)
            end = _FRAME.size + length
            if len(received) < end:
                break
            payload = bytes(received[_FRAME.size:end])
            del received[:end]
            self._answer(worker, number, payload)

    def _answer(self, worker: _Worker, number: int, payload: bytes) -> None:
        answer = worker.ready if number == _READY else worker.jobs.pop(number, None)
        if number != _READY and not worker.jobs:
            self._wake()
        if answer is None or answer.done():
            return
        try:
            ok, value = pickle.loads(payload)
        except Exception as exc:  # noqa: BLE001 -- a result whose class this process cannot load
            answer.set_exception(exc)
            return
        if ok:
            answer.set_result(value)
        else:
            answer.set_exception(value)

    def _died(self, worker: _Worker) -> None:
        if self.workers is not None and worker in self.workers:
            self.rebuild(self.generation)

    def rebuild(self, generation: int) -> None:
        """New workers in place of the group with a dead one, once per breakage: every job the old ones held
        fails with `BrokenProcessPool` (its caller tries it once more)."""
        if generation != self.generation or self.pool._closed or self.workers is None:
            return
        broken, self.workers = self.workers, self._new()
        self.generation += 1
        self.pool.rebuilds += 1
        for worker in broken:
            self._drop(worker, BrokenProcessPool("a compute worker died"))
            worker.process.kill()
        self._wake(self.count)

    def _drop(self, worker: _Worker, error: Exception) -> None:
        if worker.attached and self.loop is not None:
            self.loop.remove_reader(worker.sock.fileno())
            if worker.unsent:
                self.loop.remove_writer(worker.sock.fileno())
            worker.attached = False
        worker.sock.close()
        for answer in (worker.ready, *worker.jobs.values()):
            if answer is not None and not answer.done():
                answer.set_exception(error)
                answer.exception()  # retrieved: a start-up that nobody awaited logs nothing
        worker.jobs.clear()

    async def close(self) -> None:
        workers, self.workers = self.workers, None
        self._wake(len(self.waiting))  # each finds the pool closed
        if not workers:
            return
        for worker in workers:
            self._drop(worker, RuntimeError("the compute pool is closed"))  # the worker reads its end of file

        def join() -> None:
            for worker in workers:
                worker.process.join(5.0)
                if worker.process.is_alive():
                    worker.process.kill()
                    worker.process.join()

        await asyncio.to_thread(contextvars.Context().run, join)


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
        owner: str = "the bot",
    ) -> None:
        """`warm_up` runs once in each worker (a module-level function or a `functools.partial` of one);
        `preload` names modules the fork server imports once, so each new worker starts with them loaded;
        `lanes` are the kinds of job `run_in` accepts besides `GAME_LANE` (a lane not given is refused); the
        other lanes run in `background_workers` processes of their own (`default_background_workers`), at the
        lowest CPU priority, or with `workers=0` in the same threads as the games' jobs. `owner` names who asks
        for the work in the log (the web pages' own process has a pool too)."""
        if workers < 0:
            raise ValueError(f"workers must be 0 (threads) or more, not {workers}")
        if queue_per_worker < 1:
            raise ValueError(f"queue_per_worker must be at least 1, not {queue_per_worker}")
        self.workers = workers
        self.owner = owner
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
        self._games = _PipeWorkers(self, workers, WORKER_NICENESS) if workers else None
        self._others = _Workers(self, self.background_workers, BACKGROUND_NICENESS, eager=False) if workers else None

    @property
    def in_process(self) -> bool:
        """True when jobs run in threads of this process (`workers=0`)."""
        return self.workers == 0

    async def start(self) -> float:
        """Wait until every worker has started and warmed up; return how many seconds that took."""
        began = time.perf_counter()
        starting = [asyncio.wrap_future(future) for future in self._others.starting] if self._others else []
        if self._games is not None:
            await asyncio.gather(self._games.ready(), *starting)
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

    async def _in_worker(self, call: Callable[[], T], group: _Workers | _PipeWorkers) -> T:
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

    async def _submit(self, call: Callable[[], T], group: _Workers | _PipeWorkers) -> T:
        if isinstance(group, _PipeWorkers):
            return await group.submit(call)
        if group.executor is None:
            raise RuntimeError("the compute pool is closed")
        group.ensure_started()
        # Through the loop's executor hook (not `executor.submit`), so that tools watching the loop's work (the
        # simulated Discord of the tests) see the job as pending.
        return await asyncio.get_running_loop().run_in_executor(group.executor, call)

    def _note_line(self) -> None:
        long_line = LONG_LINE_PER_WORKER * max(1, self.workers)
        now = time.monotonic()
        if self.waiting > long_line and now - self._line_logged > LONG_LINE_LOG_SECONDS:
            self._line_logged = now
            log.warning("%d jobs are waiting for %d compute workers; %s asks more than its workers can do",
                        self.waiting, self.workers, self.owner)

    async def close(self) -> None:
        """Stop the workers (jobs still queued are cancelled); idempotent."""
        self._closed = True
        for group in (self._games, self._others):
            if group is not None:
                await group.close()


def _name(call: Callable[..., object]) -> str:
    target = call.func if isinstance(call, functools.partial) else call
    return getattr(target, "__qualname__", repr(target))
