"""What the load benchmark reads besides Discord's side: memory and CPU time from /proc, the bot's ERROR log,
the first answer to each interaction, and the machine's load. Used by benchmarks/load.py and workers.py; never
imported by the bot.

Memory is the resident set (VmRSS) of this process plus that of every process below it (a worker pool's
processes and their helpers), read from /proc a few times a second by a thread, so the event loop being
busy cannot skip a sample. The peak of the sum is what counts against the goal ("RSS per process plus
workers"); the peaks of the two parts are reported as well. The web pages' own process (WEB_PROCESS=OWN:
`puluc-bot web --for-bot`, with its worker) is below the bot too, but it is the pages', not the bot's: its
memory and CPU are counted apart (`pages_mb`, `pages_s`), as they would be for `puluc-bot web`.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
import traceback
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simcord.backend.models import interaction as interaction_model

# The interaction record's methods SimCord calls when the bot's first answer to an interaction arrives.
ANSWERS = ("respond_with_message", "defer", "defer_update", "update_source", "show_modal")
PROC = Path("/proc")


def machine_load() -> tuple[float, float, float]:
    """The 1, 5 and 15 minute load averages (as `uptime` shows them)."""
    one, five, fifteen = PROC.joinpath("loadavg").read_text().split()[:3]
    return float(one), float(five), float(fifteen)


def rss_kib(pid: int) -> int:
    """A process's resident set in KiB, or 0 when it has just exited."""
    try:
        for line in PROC.joinpath(str(pid), "status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def stat_fields(pid: int | str) -> list[str] | None:
    """The fields of /proc/PID/stat from the third (the state) on, or None when the process has just exited.
    The command name (field 2) may hold spaces and parentheses: the other fields follow its last ')'."""
    try:
        stat = PROC.joinpath(str(pid), "stat").read_text()
    except OSError:
        return None
    return stat[stat.rindex(")") + 2:].split()


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of process `pid` so far, or 0.0 when it has just exited."""
    fields = stat_fields(pid)
    if fields is None:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime and stime, fields 14 and 15


def board_rate_bound(cores: int, workers: int, main_ms: float, worker_ms: float) -> float:
    """The most boards per second `workers` worker processes can draw on `cores` idle cores when each board
    costs the bot's process `main_ms` and a worker `worker_ms` of CPU: no worker draws faster than one core,
    the bot's process hands out boards no faster than one core, and all of them share the cores.

    With 2 cores and main_ms < worker_ms, WORKERS=2 / WORKERS=1 is therefore at most
    2 * worker_ms / (worker_ms + main_ms): 1.8x needs main_ms <= worker_ms / 9."""
    return 1000 / max(worker_ms / workers, main_ms, (worker_ms + main_ms) / cores)


@dataclass
class CpuUse:
    """CPU seconds spent between two readings by one process and by the processes below it."""

    process_s: float
    workers_s: float
    pages_s: float = 0.0  # the web pages' own process and its worker


class CpuMeter:
    """CPU time of this process and of every process below it (its workers) from `start()` to `stop()`.

    A worker that exits in between (killed, replaced) takes its time with it; the ones alive at the end
    are counted from `start()`, or from zero if they started later."""

    def __init__(self) -> None:
        self._before: dict[int, float] = {}
        self._process_before = 0.0

    def start(self) -> None:
        me = os.getpid()
        self._process_before = cpu_seconds(me)
        self._before = {pid: cpu_seconds(pid) for pid in descendants(me)}

    def stop(self) -> CpuUse:
        me = os.getpid()
        workers, pages = split_below(me)
        spent = [sum(cpu_seconds(pid) - self._before.get(pid, 0.0) for pid in part) for part in (workers, pages)]
        return CpuUse(process_s=cpu_seconds(me) - self._process_before, workers_s=max(spent[0], 0.0),
                      pages_s=max(spent[1], 0.0))


def descendants(root: int) -> list[int]:
    """Every process below `root` (children, their children, ...), from each process's parent in /proc."""
    children: dict[int, list[int]] = {}
    for entry in PROC.iterdir():
        fields = stat_fields(entry.name) if entry.name.isdigit() else None
        if fields is not None:
            children.setdefault(int(fields[1]), []).append(int(entry.name))  # the parent's id
    found, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def is_pages(pid: int) -> bool:
    """Whether `pid` is the web pages' own process (`puluc-bot web --for-bot`)."""
    try:
        return b"--for-bot" in (PROC / str(pid) / "cmdline").read_bytes().split(b"\0")
    except OSError:
        return False


def split_below(root: int) -> tuple[list[int], list[int]]:
    """The processes below `root`: (the bot's workers and helpers, the web pages' own process and those below it)."""
    below = descendants(root)
    pages = [pid for pid in below if is_pages(pid)]
    theirs = set(pages)
    for pid in pages:
        theirs.update(descendants(pid))
    return [pid for pid in below if pid not in theirs], [pid for pid in below if pid in theirs]


@dataclass
class MemoryPeaks:
    process_mb: float = 0.0  # this process alone
    workers_mb: float = 0.0  # everything below it
    total_mb: float = 0.0  # the largest sum seen in one sample
    workers_seen: int = 0  # most processes below it at once
    pages_mb: float = 0.0  # the web pages' own process and its worker (not in total_mb)


class MemorySampler:
    """Samples this process's RSS and its descendants' every `interval` seconds in a daemon thread."""

    def __init__(self, interval: float = 0.25) -> None:
        self.interval = interval
        self.peaks = MemoryPeaks()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="rss-sampler", daemon=True)

    def sample(self) -> None:
        me = os.getpid()
        own = rss_kib(me) / 1024
        below, theirs = split_below(me)
        workers = sum(rss_kib(pid) for pid in below) / 1024
        peaks = self.peaks
        peaks.pages_mb = max(peaks.pages_mb, sum(rss_kib(pid) for pid in theirs) / 1024)
        peaks.process_mb = max(peaks.process_mb, own)
        peaks.workers_mb = max(peaks.workers_mb, workers)
        peaks.total_mb = max(peaks.total_mb, own + workers)
        peaks.workers_seen = max(peaks.workers_seen, len(below))

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            self.sample()

    def __enter__(self) -> MemorySampler:
        self.sample()
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.sample()


class FirstResponses:
    """Wall-clock time (perf_counter) at which the bot first answered each interaction, by SimCord id.

    SimCord calls one of `ANSWERS` on its interaction record when the bot's callback request arrives (a
    defer, a message, an update): that is the moment Discord would count as the acknowledgement.
    """

    def __init__(self) -> None:
        self.at: dict[int, float] = {}
        self._originals: dict[str, Any] = {}

    @contextlib.contextmanager
    def installed(self) -> Iterator[FirstResponses]:
        model = interaction_model.Interaction
        for name in ANSWERS:
            original = getattr(model, name)
            self._originals[name] = original
            setattr(model, name, self._wrap(original))
        try:
            yield self
        finally:
            for name, original in self._originals.items():
                setattr(model, name, original)

    def _wrap(self, original: Any) -> Any:
        seen = self.at

        def answered(record: Any, *args: Any, **kwargs: Any) -> Any:
            seen.setdefault(record.id, time.perf_counter())
            return original(record, *args, **kwargs)

        return answered


class ErrorLog(logging.Handler):
    """Collects the ERROR records of the bot and discord.py (a handler that failed logs one), with where."""

    LOGGERS = ("bot", "discord", "puluc", "renderer")

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        cause = ""
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            frames = traceback.extract_tb(error.__traceback__)
            ours = [f for f in frames if "/bot/" in f.filename] or frames
            where = ""
            if ours:
                folder, name = ours[-1].filename.rsplit("/", 2)[-2:]
                where = f" at {folder}/{name}:{ours[-1].lineno}"
            cause = f" ({type(error).__name__}: {error}{where})"
        self.records.append(f"{record.name}: {record.getMessage()}{cause}")

    @contextlib.contextmanager
    def installed(self) -> Iterator[ErrorLog]:
        for name in self.LOGGERS:
            logging.getLogger(name).addHandler(self)
        try:
            yield self
        finally:
            for name in self.LOGGERS:
                logging.getLogger(name).removeHandler(self)
