"""Turn timers, AI take-overs and restarts: the session layer with a fake clock and a reopened storage."""

from __future__ import annotations

import asyncio

import pytest

from bot.sessions import (
    ActionResult,
    Finished,
    GameOptions,
    GameSession,
    Happening,
    Moved,
    SessionManager,
    TakenOver,
    TimedOut,
)
from bot.sessions.errors import NotInvited, SeatPlayedByAI, StaleAction
from bot.sessions.timers import RETRY_SECONDS, DeadlineScheduler
from bot.storage import Storage
from tests.helpers import (
    AI_DELAY,
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DAVE,
    FakeClock,
    RandomPicker,
    make_manager,
    present,
    started_duel,
)

TIMER = 600


async def absent_until(session: GameSession, manager: SessionManager, clock: FakeClock, absent: str,
                       timeouts: int) -> list[Happening]:
    """Let `absent`'s turns run out while the others play their first legal move; collect what happened."""
    happened: list[Happening] = []
    while session.state.status == "running":
        seat = session.state.seat(absent)
        assert seat is not None
        if seat.timeouts >= timeouts or seat.taken_over:
            break
        state = session.state
        mover = state.to_move
        assert mover is not None
        if mover.seat == absent or mover.played_by_ai:
            clock.advance(TIMER if mover.seat == absent else AI_DELAY)
            before = len(session.state.record)
            await manager.fire_due()
            assert len(session.state.record) > before or session.state.status != "running"
        else:
            assert mover.user_id is not None
            result = await session.play(mover.user_id, state.legal_options()[0].notation, turn=state.seq)
            happened.extend(result.happenings)
    return happened


async def test_nothing_fires_before_the_turn_timer_runs_out(manager: SessionManager, clock: FakeClock) -> None:
    session = await started_duel(manager)
    state = session.state
    assert state.deadline == clock() + TIMER
    clock.advance(TIMER - 1)
    assert await manager.fire_due() == []
    assert session.state is state


async def test_a_player_out_of_time_gets_a_medium_move_played(
    manager: SessionManager, clock: FakeClock, picker: RandomPicker
) -> None:
    heard = []

    async def listener(result: ActionResult) -> None:
        heard.append(result)

    manager.add_listener(listener)
    session = await started_duel(manager)
    mover = session.state.to_move
    assert mover is not None

    clock.advance(TIMER)
    assert await manager.fire_due() == [session.game_id]

    (result,) = heard
    assert result.happenings[0] == TimedOut(mover.seat, 1)
    assert any(isinstance(h, Moved) and h.seat == mover.seat and h.by == "timer" for h in result.happenings)
    assert picker.calls == ["medium"]
    assert present(session.state.seat(mover.seat)).timeouts == 1


async def test_a_move_of_their_own_resets_the_time_out_count(manager: SessionManager, clock: FakeClock) -> None:
    session = await started_duel(manager)
    absent = session.state.to_move
    assert absent is not None and absent.user_id is not None
    await absent_until(session, manager, clock, absent.seat, 1)
    while session.state.to_move is not None and session.state.to_move.seat != absent.seat:
        state = session.state
        mover = state.to_move
        assert mover is not None and mover.user_id is not None
        await session.play(mover.user_id, state.legal_options()[0].notation, turn=state.seq)
    state = session.state
    await session.play(absent.user_id, state.legal_options()[0].notation, turn=state.seq)
    assert present(session.state.seat(absent.seat)).timeouts == 0


async def test_three_time_outs_in_a_row_forfeit_a_1v1(storage: Storage, manager: SessionManager,
                                                       clock: FakeClock) -> None:
    finished: list[Finished] = []

    async def listener(result: ActionResult) -> None:
        if result.finished:
            finished.append(result.finished)

    manager.add_listener(listener)
    session = await started_duel(manager)
    await absent_until(session, manager, clock, "B1", 3)

    assert session.state.status == "finished"
    assert finished and finished[0].reason == "timeout" and finished[0].winner == "A"
    assert (await storage.games.game_log(session.game_id)).game.end_reason == "timeout"


async def test_three_time_outs_in_a_team_game_hand_the_seat_to_the_ai(
    manager: SessionManager, clock: FakeClock
) -> None:
    lobby = await manager.open_lobby(ALICE, CHANNEL, GameOptions(team_size=2, turn_timer=TIMER))
    session = manager.get(lobby.game_id)
    for player in (BOB, CAROL, DAVE):
        await session.join(player)
    await session.start(ALICE.user_id, 21)
    happened: list[Happening] = []

    async def listener(result: ActionResult) -> None:
        happened.extend(result.happenings)

    manager.add_listener(listener)
    await absent_until(session, manager, clock, "B2", 3)

    assert TakenOver("B2") in happened
    assert present(session.state.seat("B2")).taken_over
    assert session.state.status == "running"
    # From now on B2 moves after the AI's pause, and its human may no longer click.
    while session.state.to_move is not None and session.state.to_move.seat != "B2":
        state = session.state
        mover = state.to_move
        assert mover is not None
        if mover.played_by_ai:
            break
        assert mover.user_id is not None
        await session.play(mover.user_id, state.legal_options()[0].notation, turn=state.seq)
    if session.state.to_move is not None and session.state.to_move.seat == "B2":
        assert session.state.deadline == pytest.approx(clock() + AI_DELAY)
        with pytest.raises(SeatPlayedByAI):
            await session.play(DAVE.user_id, session.state.legal_options()[0].notation)


# --- restarts ------------------------------------------------------------------------------------------


async def test_a_reloaded_game_continues_where_it_stopped(storage: Storage, manager: SessionManager,
                                                          clock: FakeClock, picker: RandomPicker) -> None:
    session = await started_duel(manager)
    for _ in range(6):
        state = session.state
        mover = state.to_move
        assert mover is not None and mover.user_id is not None
        await session.play(mover.user_id, state.legal_options()[-1].notation, turn=state.seq)
    before = session.state

    restarted = make_manager(storage.games, clock, picker, seed=1000)
    assert await restarted.load() == 1
    again = restarted.get(before.game_id)
    after = again.state

    assert after.position == before.position and after.seq == before.seq
    assert after.seats == before.seats and after.turn_throws == before.turn_throws
    assert after.record == before.record and after.seed == before.seed
    assert restarted.in_channel(CHANNEL.channel_id) is again
    mover = after.to_move
    assert mover is not None and mover.user_id is not None
    with pytest.raises(StaleAction):
        await again.play(mover.user_id, after.legal_options()[0].notation, turn=after.seq - 1)
    await again.play(mover.user_id, after.legal_options()[0].notation, turn=after.seq)
    assert again.state.seq > after.seq


async def test_a_deadline_that_passed_during_downtime_fires_once_after_the_restart(
    storage: Storage, manager: SessionManager, clock: FakeClock, picker: RandomPicker
) -> None:
    session = await started_duel(manager)
    mover = session.state.to_move
    assert mover is not None

    clock.advance(3 * TIMER)  # the bot was down for half an hour
    restarted = make_manager(storage.games, clock, picker)
    await restarted.load()
    assert await restarted.fire_due() == [session.game_id]
    assert await restarted.fire_due() == []
    assert present(restarted.get(session.game_id).state.seat(mover.seat)).timeouts == 1


async def test_a_lobby_and_a_challenge_survive_a_restart(storage: Storage, manager: SessionManager,
                                                         clock: FakeClock, picker: RandomPicker) -> None:
    lobby = await manager.open_lobby(ALICE, CHANNEL, GameOptions(team_size=2))
    await manager.get(lobby.game_id).join(BOB, "B")
    invite = await manager.challenge(CAROL, DAVE, CHANNEL.__class__(9, 777), GameOptions())

    restarted = make_manager(storage.games, clock, picker)
    assert await restarted.load() == 2
    reloaded = restarted.get(lobby.game_id)
    assert [(s.seat, s.user_id) for s in reloaded.state.seats] == [("A1", ALICE.user_id), ("B1", BOB.user_id)]
    await reloaded.join(CAROL)
    # The challenged member comes from the button, so the invitation still works after the restart.
    challenge = restarted.get(invite.game_id)
    with pytest.raises(NotInvited):
        await challenge.accept(ALICE, DAVE.user_id, 3)
    accepted = await challenge.accept(DAVE, DAVE.user_id, 3)
    assert accepted.state.status == "running"


async def test_an_ai_take_over_survives_a_restart(storage: Storage, manager: SessionManager,
                                                  clock: FakeClock, picker: RandomPicker) -> None:
    lobby = await manager.open_lobby(ALICE, CHANNEL, GameOptions(team_size=2, turn_timer=TIMER))
    session = manager.get(lobby.game_id)
    for player in (BOB, CAROL, DAVE):
        await session.join(player)
    await session.start(ALICE.user_id, 21)
    await absent_until(session, manager, clock, "A2", 3)
    assert present(session.state.seat("A2")).taken_over

    restarted = make_manager(storage.games, clock, picker)
    await restarted.load()
    seat = restarted.get(session.game_id).state.seat("A2")
    assert seat is not None and seat.taken_over and seat.timeouts == 3


# --- the scheduler -------------------------------------------------------------------------------------


@pytest.mark.logs_error(r"deadline of game 2 failed; retrying in 15s \(OSError: database is locked\)")
async def test_the_scheduler_fires_due_games_earliest_first_and_retries_failures(clock: FakeClock) -> None:
    fired: list[int] = []

    async def fire(game_id: int) -> None:
        fired.append(game_id)
        if game_id == 2:
            raise OSError("database is locked")

    scheduler = DeadlineScheduler(clock, fire)
    scheduler.set(1, clock() + 5)
    scheduler.set(2, clock() + 1)
    scheduler.set(3, clock() + 50)
    clock.advance(10)

    assert await scheduler.run_due() == [2, 1]
    assert fired == [2, 1]
    assert scheduler.get(2) == clock() + RETRY_SECONDS and scheduler.get(1) is None


async def test_the_scheduler_loop_wakes_up_for_an_earlier_deadline(clock: FakeClock) -> None:
    fired = asyncio.Event()

    async def fire(game_id: int) -> None:
        fired.set()

    scheduler = DeadlineScheduler(clock, fire)
    scheduler.start()
    try:
        for _ in range(3):
            await asyncio.sleep(0)  # the loop is now asleep for MAX_WAIT_SECONDS with nothing to do
        scheduler.set(1, clock())
        await asyncio.wait_for(fired.wait(), timeout=2)
    finally:
        await scheduler.stop()


async def test_stopping_the_timers_right_after_an_earlier_deadline_stops_them(storage: Storage,
                                                                             clock: FakeClock) -> None:
    # The race of issue 16: with the loop asleep, a deadline earlier than its wake-up arrives and the bot
    # shuts down in the same tick. The wake-up must not swallow the stop (shutdown would hang until SIGKILL).
    manager = make_manager(storage.games, clock, RandomPicker())
    manager.start_timers()
    for _ in range(3):
        await asyncio.sleep(0)  # the loop now sleeps for MAX_WAIT_SECONDS with nothing to do
    async with asyncio.timeout(5):  # guards against the hang only; a stop that works takes no time
        manager.deadlines.set(1, clock() + 1)
        await manager.stop_timers()
    assert not [task for task in asyncio.all_tasks() if task.get_name() == "puluc-deadlines" and not task.done()]
    manager.deadlines.set(2, clock())  # a deadline after the stop does not bring the loop back
    await asyncio.sleep(0)
    assert not [task for task in asyncio.all_tasks() if task.get_name() == "puluc-deadlines"]
