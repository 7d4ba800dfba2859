"""Timers never wait on each other (`bot.sessions.timers`): each due game fires in a task of its own, the loop
never waits for a fire, a slow or failing fire delays only its own game, and a game never fires twice at once.

Slow fires are fires held by the test (an `asyncio.Event`), so what is checked is which fires ran while another
was still held, never how long anything took.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest

from bot.sessions import GameOptions, GameSession, SessionManager
from bot.sessions.state import Place, Player
from bot.sessions.timers import RETRY_SECONDS, DeadlineScheduler
from bot.storage import Storage
from tests.helpers import ALICE, BOB, CAROL, CHANNEL, DAVE, FakeClock, RandomPicker, make_manager


async def until(condition: Callable[[], bool], what: str) -> None:
    """Let the loop run until `condition()` holds (a guard against hanging, not a timing)."""
    async def wait() -> None:
        while not condition():  # noqa: ASYNC110 (the conditions are the scheduler's own state)
            await asyncio.sleep(0.001)
    try:
        await asyncio.wait_for(wait(), 10)
    except TimeoutError:
        raise AssertionError(what) from None


class Fires:
    """A fire that notes each game it fires; the games in `held` wait until released, those in `failing` fail."""

    def __init__(self) -> None:
        self.fired: list[int] = []
        self.ended: list[int] = []
        self.held: dict[int, asyncio.Event] = {}
        self.failing: set[int] = set()

    def hold(self, game_id: int) -> asyncio.Event:
        return self.held.setdefault(game_id, asyncio.Event())

    async def __call__(self, game_id: int) -> None:
        self.fired.append(game_id)
        if game_id in self.held:
            await self.held[game_id].wait()
        self.ended.append(game_id)
        if game_id in self.failing:
            raise RuntimeError(f"game {game_id} could not be saved")


@pytest.fixture
async def running() -> AsyncIterator[list[DeadlineScheduler]]:
    started: list[DeadlineScheduler] = []
    yield started
    for scheduler in started:
        await scheduler.stop()


def scheduler_for(clock: FakeClock, fire: Callable[[int], Awaitable[None]], started: list[DeadlineScheduler]
                  ) -> DeadlineScheduler:
    made = DeadlineScheduler(clock, fire)
    started.append(made)
    return made


async def test_a_slow_fire_does_not_delay_a_game_due_after_it(
    clock: FakeClock, running: list[DeadlineScheduler]
) -> None:
    fires = Fires()
    slow = fires.hold(1)
    scheduler = scheduler_for(clock, fires, running)
    scheduler.set(1, clock())
    scheduler.start()
    await until(lambda: fires.fired == [1], "game 1 fires")
    clock.advance(0.15)
    scheduler.set(2, clock())  # due while game 1's fire is still running (its AI, its message to Discord)
    await until(lambda: 2 in fires.ended, "game 2 fires while game 1's fire is still held")
    assert 1 not in fires.ended and scheduler.firing == {1}
    slow.set()
    await until(lambda: 1 in fires.ended, "game 1's fire ends")


@pytest.mark.logs_error("deadline of game 1 failed")
async def test_a_failing_fire_is_retried_and_delays_no_other(
    clock: FakeClock, running: list[DeadlineScheduler]
) -> None:
    fires = Fires()
    fires.failing.add(1)
    scheduler = scheduler_for(clock, fires, running)
    scheduler.set(1, clock())
    scheduler.set(2, clock())
    assert sorted(await scheduler.run_due()) == [1, 2]
    assert sorted(fires.ended) == [1, 2]
    assert scheduler.get(1) == clock() + RETRY_SECONDS and scheduler.get(2) is None


async def test_the_pass_starts_the_fires_without_waiting_for_them(clock: FakeClock) -> None:
    fires = Fires()
    held = fires.hold(1)
    scheduler = DeadlineScheduler(clock, fires)
    scheduler.set(1, clock())
    scheduler.set(2, clock())
    started = scheduler.start_due()  # synchronous: nothing it starts can hold it up
    assert started == [1, 2] and scheduler.firing == {1, 2}
    await until(lambda: fires.ended == [2], "game 2 ends while game 1 is held")
    held.set()
    await scheduler.stop()  # waits for the fires still running
    assert sorted(fires.ended) == [1, 2] and scheduler.firing == frozenset()


async def test_a_game_never_fires_twice_at_once(
    clock: FakeClock, running: list[DeadlineScheduler]
) -> None:
    fires = Fires()
    held = fires.hold(1)
    scheduler = scheduler_for(clock, fires, running)
    scheduler.set(1, clock())
    scheduler.start()
    await until(lambda: fires.fired == [1], "game 1 fires")
    scheduler.set(1, clock())  # its fire set its next deadline, already due (the AI plays at once)
    await asyncio.sleep(0.01)
    assert fires.fired == [1], "not again while its fire runs"
    held.clear()
    del fires.held[1]
    held.set()  # the first fire ends; the deadline it set fires next
    await until(lambda: fires.fired == [1, 1], "game 1 fires again once its fire has ended")


async def test_a_game_whose_message_is_slow_does_not_hold_up_another_game(
    storage: Storage, clock: FakeClock, picker: RandomPicker
) -> None:
    """Two games whose turn timers ran out: the first one's result is slow to show (Discord retrying), the
    second game's time-out is played and shown meanwhile."""
    manager = make_manager(storage.games, clock, picker)
    first = await started_in(manager, CHANNEL, (ALICE, BOB))
    second = await started_in(manager, Place(guild_id=CHANNEL.guild_id, channel_id=501), (CAROL, DAVE))
    slow = asyncio.Event()
    shown: list[int] = []

    async def show(result) -> None:  # type: ignore[no-untyped-def]
        if result.game_id == first.game_id:
            await slow.wait()
        shown.append(result.game_id)

    manager.add_listener(show)
    before = second.state.seq
    clock.advance(GameOptions().turn_timer)
    manager.start_timers()
    try:
        await until(lambda: second.game_id in shown, "the second game's time-out is shown")
        assert second.state.seq > before
        assert first.game_id not in shown and first.game_id in manager.deadlines.firing
        slow.set()
        await until(lambda: first.game_id in shown, "the first game's result is shown in the end")
    finally:
        slow.set()
        await manager.stop_timers()


async def started_in(manager: SessionManager, place: Place, players: tuple[Player, Player]) -> GameSession:
    host, guest = players
    lobby = await manager.open_lobby(host, place, GameOptions())
    session = manager.get(lobby.game_id)
    await session.join(guest)
    await session.start(host.user_id, manager.seeds())
    return session
