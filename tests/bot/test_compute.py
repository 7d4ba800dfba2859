"""The worker pool (`bot.compute`): the same pictures as in-process drawing, a killed worker costs no job, the
queue is bounded, and `workers=0` stays in this process. One pool for the module: starting workers costs."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from functools import partial
from pathlib import Path

import pytest
import pytest_asyncio

from bot.app import WORKER_PRELOAD
from bot.cogs.games.boards import board_request, chart_request
from bot.compute import BACKGROUND_NICENESS, WORKER_NICENESS, ComputeFailed, ComputePool, default_workers
from bot.config import ConfigError, load_config
from bot.limits import HINT, REPLAY, lanes
from bot.sessions import GameState
from bot.ui.pictures import draw_board, draw_chart, warm_up
from tests.helpers import TOKEN, finished_bell_game
from tests.worker_probe import mark_started, worker_pids

# The async tests share one event loop per module, so that the module's pool lives across them.
in_module_loop = pytest.mark.asyncio(loop_scope="module")


def dies_once(marker: str, value: int) -> int:
    """A job that kills its own worker with SIGKILL the first time it runs (the marker file remembers)."""
    path = Path(marker)
    if not path.exists():
        path.write_text("killed once")
        os.kill(os.getpid(), signal.SIGKILL)
    return value * 2


def always_dies() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def held(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


def pid() -> int:
    return os.getpid()


def held_until(marker: str) -> int:
    """A job that runs until the marker file exists (a long AI move, say)."""
    while not Path(marker).exists():
        time.sleep(0.01)
    return os.getpid()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def pool() -> AsyncIterator[ComputePool]:
    made = ComputePool(2, warm_up=partial(warm_up, None), preload=WORKER_PRELOAD, lanes=lanes())
    await made.start()
    yield made
    await made.close()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def finished() -> GameState:
    return await finished_bell_game()


@in_module_loop
async def test_boards_drawn_in_workers_are_the_ones_drawn_in_process(pool: ComputePool, finished: GameState) -> None:
    request = board_request(finished, None, 10, "fr")
    assert await pool.run(draw_board, request) == draw_board(request)


@in_module_loop
async def test_charts_drawn_in_workers_are_the_ones_drawn_in_process(pool: ComputePool, finished: GameState) -> None:
    request = chart_request(finished, 5.0, 40, "en")
    in_process = draw_chart(request)
    assert in_process is not None
    assert await pool.run(draw_chart, request) == in_process


@in_module_loop
async def test_a_job_never_waits_behind_a_long_one_while_another_worker_is_free(
    pool: ComputePool, tmp_path: Path
) -> None:
    marker = tmp_path / "done"
    long = asyncio.create_task(pool.run(held_until, str(marker)))
    await asyncio.sleep(0.1)  # the long job is handed to a worker
    # Two jobs at once: the second must wait for the free worker, not queue behind the long job (which would
    # never end, since it waits for the marker written only after these return).
    quick = await asyncio.wait_for(asyncio.gather(pool.run(held, 0.05), pool.run(held, 0.05)), 60)
    marker.write_text("done")
    assert await long not in set(quick)


def started(folder: Path) -> set[str]:
    return {p.name for p in folder.iterdir()}


async def test_the_background_workers_start_with_their_first_job(tmp_path: Path) -> None:
    """A bot whose members never ask for replays, hints or charts holds no memory for their workers."""
    made = ComputePool(1, warm_up=partial(mark_started, str(tmp_path)), lanes=lanes())
    try:
        await made.start()
        assert await made.run(pid) != os.getpid()
        assert len(started(tmp_path)) == 1, "only the games' worker has started"
        background = await made.run_in(HINT.lane.name, pid)
        assert str(background) in started(tmp_path)
        assert len(started(tmp_path)) == 1 + made.background_workers
    finally:
        await made.close()


@in_module_loop
async def test_jobs_run_in_other_processes(pool: ComputePool) -> None:
    found = set(await asyncio.gather(*(pool.run(held, 0.05) for _ in range(6))))
    assert os.getpid() not in found
    assert found <= await worker_pids(pool)


@in_module_loop
async def test_workers_yield_the_cpu_to_the_event_loop(pool: ComputePool) -> None:
    """Under full load the bot's loop (acknowledgements, deliveries) must win the cores over the drawing."""
    niceness = await asyncio.gather(*(pool.run(os.nice, 0) for _ in range(4)))
    assert set(niceness) == {os.nice(0) + WORKER_NICENESS}


@in_module_loop
async def test_replays_and_hints_run_in_workers_of_their_own_at_the_lowest_priority(pool: ComputePool) -> None:
    """A replay or a hint never holds a worker the games' boards could use, and on a busy machine the games'
    workers get the CPU before them."""
    games = await worker_pids(pool)
    others = set(await asyncio.gather(*(pool.run_in(REPLAY.lane.name, held, 0.05) for _ in range(3))))
    assert pool.background_workers == 1 and len(others) == 1
    assert not others & games and os.getpid() not in others
    assert await pool.run_in(HINT.lane.name, os.nice, 0) == max(os.nice(0), BACKGROUND_NICENESS)


@in_module_loop
async def test_a_worker_killed_mid_job_costs_no_job(pool: ComputePool, tmp_path: Path) -> None:
    before, rebuilds = await worker_pids(pool), pool.rebuilds
    others = [pool.run(held, 0.05) for _ in range(3)]  # jobs that were in the pool when it broke
    results = await asyncio.gather(pool.run(dies_once, str(tmp_path / "marker"), 21), *others)
    assert results[0] == 42
    assert pool.rebuilds == rebuilds + 1
    after = await worker_pids(pool)
    assert len(after) == pool.workers and not before & after, "the pool runs on new workers"
    assert await pool.run(pid) in after


@in_module_loop
async def test_a_job_that_kills_its_worker_twice_fails_clearly_and_the_pool_lives_on(pool: ComputePool) -> None:
    with pytest.raises(ComputeFailed, match="always_dies"):
        await pool.run(always_dies)
    assert await pool.run(dies_once, "/", 2) == 4  # "/" exists: the pool works again


@in_module_loop
async def test_no_more_jobs_than_the_limit_are_handed_to_the_workers(pool: ComputePool) -> None:
    seen: list[tuple[int, int]] = []

    async def one() -> None:
        await pool.run(held, 0.02)
        seen.append((pool.running, pool.waiting))

    await asyncio.gather(*(one() for _ in range(pool.limit * 3)))
    assert pool.limit == 2 * 2
    assert max(running for running, _ in seen) <= pool.limit
    assert max(waiting for _, waiting in seen) > 0, "the jobs beyond the limit waited their turn"
    assert (pool.running, pool.waiting) == (0, 0)


@in_module_loop
async def test_workers_zero_runs_jobs_in_threads_of_this_process() -> None:
    threads = ComputePool(0)
    assert threads.in_process
    assert await threads.run(pid) == os.getpid()
    await threads.close()


@in_module_loop
async def test_a_closed_pool_refuses_jobs() -> None:
    closed = ComputePool(0)
    await closed.close()
    with pytest.raises(RuntimeError, match="closed"):
        await closed.run(pid)


def test_workers_default_to_one_per_core_and_accept_zero() -> None:
    assert load_config({"DISCORD_TOKEN": TOKEN}).workers is None
    assert default_workers() >= 1
    assert load_config({"DISCORD_TOKEN": TOKEN, "WORKERS": "0"}).workers == 0
    assert load_config({"DISCORD_TOKEN": TOKEN, "WORKERS": "3"}).workers == 3


@pytest.mark.parametrize("value", ["-1", "65", "two", "1.5"])
def test_a_bad_workers_value_is_one_clear_line(value: str) -> None:
    with pytest.raises(ConfigError) as raised:
        load_config({"DISCORD_TOKEN": TOKEN, "WORKERS": value})
    message = str(raised.value)
    assert "\n" not in message and "WORKERS must be a whole number of worker processes from 0 to 64" in message


POOL_CHILD = """
import asyncio, os, sys

async def main() -> None:
    sys.path.insert(0, os.getcwd())  # the checkout, for tests.worker_probe
    from bot.compute import ComputePool
    from tests.worker_probe import worker_pids

    pool = ComputePool(2)
    await pool.start()
    print(" ".join(map(str, await worker_pids(pool))), flush=True)
    await asyncio.sleep(600)

if __name__ == "__main__":
    asyncio.run(main())
"""


LEAN_PROBE = """
import os, sys, time

def modules(hold: float) -> tuple[int, list[str]]:
    time.sleep(hold)  # long enough that every worker takes one of the probes
    return os.getpid(), sorted(sys.modules)
"""

# A main program that loads discord.py itself, as the bot and the load benchmark do: that stays out of the workers.
LEAN_CHILD = """
import asyncio, json, os, sys
import discord
from lean_probe import modules

async def main() -> None:
    sys.path.insert(0, os.getcwd())  # the checkout, for tests.helpers
    from functools import partial
    from bot.app import WORKER_PRELOAD
    from bot.compute import ComputePool
    from bot.limits import lanes
    from bot.cogs.games.boards import board_request, board_texts, chart_request, rules_example
    from bot.ui.pictures import draw_board, draw_chart, draw_legend, draw_position, draw_rating_chart, warm_up
    from bot.cogs.games.replay_files import replay_of
    from puluc.ai import choose_move
    from tests.helpers import finished_bell_game

    pool = ComputePool(2, warm_up=partial(warm_up, None), preload=WORKER_PRELOAD, lanes=lanes())
    await pool.start()
    state = await finished_bell_game()
    record = state.game_record()
    moving = [p for p in record.positions() if not p.must_throw and not p.is_over][:4]
    await asyncio.gather(
        *(pool.run(draw_board, board_request(state, None, 10, lang)) for lang in ("en", "fr", "uk", "it")),
        pool.run(draw_chart, chart_request(state, 2.0, 20, "en")),
        *(pool.run(choose_move, position, "hard", None, 20) for position in moving),
    )
    # The rarer pictures, each job on every worker, as /puluc replay, help, rules and profile hand them over.
    for _ in range(2):
        replay = await replay_of(state, "fr", 25 * 2**20, pool)
        assert [f.filename.rsplit(".", 1)[1] for f in replay.files] == ["gif", "json"]
        await asyncio.gather(
            *(pool.run(draw_legend, board_texts(lang)) for lang in ("en", "uk")),
            *(pool.run(draw_position, rules_example(v), board_texts("it")) for v in ("bell", "culin")),
            *(pool.run(draw_rating_chart, [(1, 25.0), (2, 26.5), (3, 24.0)], "dark", board_texts("en"))
              for _ in range(2)),
        )
    seen = dict(await asyncio.gather(*(pool.run(modules, 0.2) for _ in range(6))))
    print(json.dumps({"workers": pool.workers, "modules": seen}), flush=True)
    await pool.close()

if __name__ == "__main__":
    asyncio.run(main())
"""


def test_workers_drawing_every_picture_and_moving_load_no_discord_nor_sessions(tmp_path: Path) -> None:
    """The game message's pictures, replays, the legend, rules examples, rating charts and the AI cost each
    worker only the engine, the AI and the renderer: what the bot's process alone needs (discord.py, the
    catalogues, the sessions, storage) would weigh on every worker's memory, and so would the modules of the
    program that started the pool."""
    (tmp_path / "lean_probe.py").write_text(LEAN_PROBE)
    script = tmp_path / "lean_child.py"
    script.write_text(LEAN_CHILD)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300,
                          cwd=Path(__file__).parents[2], check=True)
    found = json.loads(done.stdout)
    assert len(found["modules"]) == found["workers"], "every worker was asked"
    for modules in found["modules"].values():
        assert "renderer" in modules and "puluc.ai.search" in modules, "the worker did draw and search"
        heavy = {name.partition(".")[0] for name in modules} & {"discord", "aiohttp", "openskill", "dotenv"}
        ours = [name for name in modules if name.startswith(("bot.sessions", "bot.storage", "bot.ui.i18n"))]
        assert not heavy and not ours, (heavy, ours)  # discord.py: also what the main program imported


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_workers_end_when_the_bot_is_killed(tmp_path: Path) -> None:
    script = tmp_path / "pool_child.py"
    script.write_text(POOL_CHILD)
    child = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True,
                             cwd=Path(__file__).parents[2])
    assert child.stdout is not None
    workers = [int(pid) for pid in child.stdout.readline().split()]
    assert len(workers) == 2
    child.kill()
    # EOF on its output: no orphaned worker (nor the fork server) holds it open (a minute is far too long).
    child.communicate(timeout=60)
    # A worker may still be between closing its output and being gone (it runs at a lower priority): wait
    # for it as for any event, bounded, not for a time.
    for _ in range(600):
        if not [pid for pid in workers if running(pid)]:
            break
        time.sleep(0.05)
    assert not [pid for pid in workers if running(pid)]


def running(pid: int) -> bool:
    """Whether the process runs (a zombie waiting to be reaped has ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"
