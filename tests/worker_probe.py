"""The compute pool's worker processes as a job finds them: each worker checks in once (a small module, since
the workers import it)."""

from __future__ import annotations

import asyncio
import os
import tempfile
import time
from pathlib import Path

from bot.compute import ComputePool

# A check-in waits this long at most for the other workers (a worker that never starts is a failure).
CHECK_IN_SECONDS = 120.0


def check_in(folder: str, workers: int) -> int:
    """In a worker: leave this process's id in `folder`, then wait until `workers` have, so that no worker
    takes a second check-in while another has none."""
    Path(folder, str(os.getpid())).touch()
    deadline = time.monotonic() + CHECK_IN_SECONDS
    while len(os.listdir(folder)) < workers:
        if time.monotonic() > deadline:
            raise TimeoutError(f"only {len(os.listdir(folder))} of {workers} workers checked in")
        time.sleep(0.005)
    return os.getpid()


async def worker_pids(pool: ComputePool) -> set[int]:
    """The process id of every worker of `pool` (it must be idle: each worker takes one check-in)."""
    with tempfile.TemporaryDirectory() as folder:
        return set(await asyncio.gather(*(pool.run(check_in, folder, pool.workers) for _ in range(pool.workers))))


def mark_started(folder: str) -> None:
    """A worker's warm-up that leaves the process's id in `folder`: which workers have started."""
    Path(folder, str(os.getpid())).touch()
