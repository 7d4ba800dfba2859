"""The compute pool's lanes (`bot.compute`): the games' jobs go before replays, hints and charts and never wait
behind them, the other lanes never take every worker, and a full lane refuses at once with `ComputeBusy`.

Jobs run in threads (`workers=0`: two slots, one of them for the games alone) and hold until the test lets them
go, so what is measured is the order in which jobs start, never a duration.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Callable, Iterator

import pytest

from bot.compute import GAME_LANE, ComputeBusy, ComputePool
from bot.limits import HINT, REPLAY, lanes


class Jobs:
    """Jobs that note when they start and run until released."""

    def __init__(self) -> None:
        self.started: list[str] = []
        self.gates: dict[str, threading.Event] = {}
        self._lock = threading.Lock()
        self._open = False  # after `release_all`, jobs run through

    def job(self, name: str) -> str:
        with self._lock:
            self.started.append(name)
            gate = self.gates.setdefault(name, threading.Event())
            if self._open:
                gate.set()
        gate.wait(30)
        return name

    def release(self, *names: str) -> None:
        for name in names:
            with self._lock:
                self.gates.setdefault(name, threading.Event()).set()

    def release_all(self) -> None:
        with self._lock:
            self._open = True
            for gate in self.gates.values():
                gate.set()


async def until(condition: Callable[[], bool], what: str) -> None:
    """Let the loop and the threads run until `condition()` holds (a guard against hanging, not a timing)."""
    async def wait() -> None:
        while not condition():  # noqa: ASYNC110 (the jobs' threads change what is polled)
            await asyncio.sleep(0.001)
    try:
        await asyncio.wait_for(wait(), 10)
    except TimeoutError:
        raise AssertionError(what) from None


@pytest.fixture
async def pool() -> AsyncIterator[ComputePool]:
    made = ComputePool(0, lanes=lanes())
    yield made
    await made.close()


@pytest.fixture
def jobs() -> Iterator[Jobs]:
    made = Jobs()
    yield made
    made.release_all()


async def test_a_board_starts_at_once_while_replays_and_hints_wait(pool: ComputePool, jobs: Jobs) -> None:
    spam = [asyncio.ensure_future(pool.run_in(REPLAY.lane.name, jobs.job, f"replay{i}")) for i in range(3)]
    spam += [asyncio.ensure_future(pool.run_in(HINT.lane.name, jobs.job, f"hint{i}")) for i in range(3)]
    await until(lambda: jobs.started == ["replay0"], "the first replay runs")
    board = asyncio.ensure_future(pool.run(jobs.job, "board"))
    await until(lambda: "board" in jobs.started, "the board does not wait for the replays and hints queued before it")
    assert jobs.started == ["replay0", "board"]
    assert pool.waiting_in[REPLAY.lane.name] == 2 and pool.waiting_in[HINT.lane.name] == 3
    jobs.release_all()
    assert await board == "board"
    assert sorted(await asyncio.gather(*spam)) == sorted([*(f"replay{i}" for i in range(3)),
                                                          *(f"hint{i}" for i in range(3))])


async def test_waiting_boards_go_before_waiting_replays(pool: ComputePool, jobs: Jobs) -> None:
    running = [asyncio.ensure_future(pool.run(jobs.job, f"move{i}")) for i in range(2)]
    await until(lambda: len(jobs.started) == 2, "both slots hold a board")
    replay = asyncio.ensure_future(pool.run_in(REPLAY.lane.name, jobs.job, "replay"))
    await asyncio.sleep(0)
    board = asyncio.ensure_future(pool.run(jobs.job, "board"))
    await until(lambda: pool.waiting == 2, "the replay and the board wait")
    jobs.release("move0")
    await until(lambda: len(jobs.started) == 3, "a slot came free")
    assert jobs.started[2] == "board", "the board came after the replay but went first"
    jobs.release_all()
    await asyncio.gather(*running, replay, board)


async def test_the_other_lanes_never_take_every_slot(pool: ComputePool, jobs: Jobs) -> None:
    spam = [asyncio.ensure_future(pool.run_in(HINT.lane.name, jobs.job, f"hint{i}")) for i in range(4)]
    await until(lambda: len(jobs.started) == 1, "a hint runs")
    await asyncio.sleep(0.01)
    assert jobs.started == ["hint0"] and pool.running == 1, "one slot stays free for the games"
    jobs.release("hint0")
    await until(lambda: len(jobs.started) == 2, "the next hint takes the freed slot")
    assert pool.running == 1
    jobs.release_all()
    await asyncio.gather(*spam)


async def test_a_full_lane_refuses_at_once_and_starts_nothing(pool: ComputePool, jobs: Jobs) -> None:
    room = REPLAY.lane.waiting
    held = [asyncio.ensure_future(pool.run_in(REPLAY.lane.name, jobs.job, f"replay{i}")) for i in range(room + 1)]
    await until(lambda: pool.waiting_in[REPLAY.lane.name] == room, "the replay lane is full")
    with pytest.raises(ComputeBusy) as refused:
        pool.check_room(REPLAY.lane.name)
    assert refused.value.lane == REPLAY.lane.name
    with pytest.raises(ComputeBusy):
        await pool.run_in(REPLAY.lane.name, jobs.job, "one too many")
    assert "one too many" not in jobs.started and pool.waiting_in[REPLAY.lane.name] == room
    assert pool.refused[REPLAY.lane.name] == 2  # counted for /metrics (puluc_worker_busy_total)
    pool.check_room(HINT.lane.name)  # another lane has room
    assert await asyncio.wait_for(asyncio.ensure_future(pool.run(_double, 21)), 10) == 42  # and the games too
    jobs.release_all()
    await asyncio.gather(*held)
    assert pool.waiting == 0 and pool.running == 0


async def test_a_cancelled_waiter_gives_its_turn_on(pool: ComputePool, jobs: Jobs) -> None:
    first = asyncio.ensure_future(pool.run_in(HINT.lane.name, jobs.job, "hint0"))
    await until(lambda: jobs.started == ["hint0"], "a hint runs")
    gone = asyncio.ensure_future(pool.run_in(HINT.lane.name, jobs.job, "gone"))
    after = asyncio.ensure_future(pool.run_in(HINT.lane.name, jobs.job, "after"))
    await until(lambda: pool.waiting_in[HINT.lane.name] == 2, "two hints wait")
    gone.cancel()
    jobs.release("hint0")
    await until(lambda: "after" in jobs.started, "the hint behind the cancelled one runs")
    assert "gone" not in jobs.started
    jobs.release_all()
    await asyncio.gather(first, after)
    assert pool.running == 0 and pool.waiting == 0


def test_an_unknown_lane_is_named_in_the_error() -> None:
    with pytest.raises(KeyError, match="no compute lane 'reviews'"):
        ComputePool(0).lane("reviews")
    assert ComputePool(0).lane(GAME_LANE.name) is GAME_LANE


def _double(value: int) -> int:
    return value * 2
