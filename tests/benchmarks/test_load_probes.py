"""The load benchmark's CPU accounting (benchmarks/load_probes.py): what a process and its workers spent is read
from /proc, and the bound that says why WORKERS=2 / WORKERS=1 cannot reach 1.8x on 2 cores when the bot's
process spends more than a ninth of a worker's CPU per board."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from tests.benchmarks import load_benchmark

probes = load_benchmark("load_probes")


def test_the_bound_is_the_slowest_of_worker_process_and_shared_cores() -> None:
    bound = probes.board_rate_bound
    # One worker drawing 4.5 ms a board: the worker is the limit.
    assert bound(2, 1, 0.5, 4.5) == pytest.approx(1000 / 4.5)
    # Two workers on two cores: the cores shared by workers and the process are the limit.
    assert bound(2, 2, 0.5, 4.5) == pytest.approx(1000 / 2.5)
    # A process costing more than a worker: it is the limit whatever the workers.
    assert bound(2, 2, 6.0, 4.0) == bound(2, 1, 6.0, 4.0) == pytest.approx(1000 / 6.0)
    # More cores than processes: the shared-cores term no longer binds.
    assert bound(8, 2, 0.5, 4.5) == pytest.approx(1000 / 2.25)


@pytest.mark.parametrize("worker_ms", [3.0, 5.6, 9.0])
def test_on_two_cores_one_point_eight_needs_the_process_at_most_a_ninth_of_a_worker(worker_ms: float) -> None:
    bound = probes.board_rate_bound

    def ratio(main_ms: float) -> float:
        return float(bound(2, 2, main_ms, worker_ms) / bound(2, 1, main_ms, worker_ms))

    assert ratio(worker_ms / 9) == pytest.approx(1.8)
    assert ratio(worker_ms / 9 * 1.01) < 1.8
    assert ratio(worker_ms / 20) > 1.8
    assert ratio(0.0) == pytest.approx(2.0)


BURN = """
import sys, time
while time.process_time() < 0.3:
    pass
print("burnt", flush=True)
sys.stdin.readline()
"""


def test_the_meter_counts_this_process_and_the_workers_alive_at_the_end() -> None:
    meter = probes.CpuMeter()
    meter.start()
    worker = subprocess.Popen([sys.executable, "-c", BURN], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert worker.stdout is not None and worker.stdout.readline().strip() == "burnt"
        mine = time.process_time()
        while time.process_time() < mine + 0.2:
            pass
        used = meter.stop()
    finally:
        worker.communicate("\n", timeout=30)
    # CPU time, not wall-clock: the child burnt 0.3 s of its own CPU, this process 0.2 s (ticks of 10 ms).
    assert used.workers_s >= 0.25
    assert used.process_s >= 0.15
    # A process that has exited reads as no time: its time is not counted twice or as garbage.
    assert probes.cpu_seconds(worker.pid) == 0.0
