"""Turn calls in the session layer (issue 26): who is called when, what is withdrawn, what is kept in the
database, and what a restart takes up, with a stand-in for Discord and a clock the test moves."""

from __future__ import annotations

import pytest

from bot.sessions import GameOptions, Place, SessionManager
from bot.sessions.calls import BOARD_WAIT_SECONDS, CallMessage, Notice, PingDelays, TurnCaller, reminder_time
from bot.storage import Storage
from bot.storage.errors import StorageUnavailable
from bot.storage.types import TurnCall
from tests.helpers import ALICE, BOB, CHANNEL, FakeClock, RandomPicker, make_manager, started_duel

DELAY = 30.0


class FakeMessenger:
    """Discord's stand-in: every call gets a message id; withdrawn ones are noted."""

    def __init__(self) -> None:
        self.sent: list[Notice] = []
        self.withdrawn: list[CallMessage] = []

    async def send(self, notice: Notice) -> CallMessage | None:
        self.sent.append(notice)
        return CallMessage(CHANNEL.channel_id, 9_000 + len(self.sent))

    async def withdraw(self, message: CallMessage) -> None:
        self.withdrawn.append(message)


@pytest.fixture
def messenger() -> FakeMessenger:
    return FakeMessenger()


@pytest.fixture
def caller(manager: SessionManager, storage: Storage, messenger: FakeMessenger, clock: FakeClock) -> TurnCaller:
    return TurnCaller(manager, storage.calls, messenger, PingDelays(DELAY), clock=clock)


def mover(manager: SessionManager, game_id: int) -> int:
    seat = manager.get(game_id).state.to_move
    assert seat is not None and seat.user_id is not None
    return seat.user_id


async def play_first(manager: SessionManager, game_id: int) -> None:
    session = manager.get(game_id)
    user_id = mover(manager, game_id)
    await session.play(user_id, session.options_for(user_id)[0].notation)


async def test_a_turn_calls_its_member_after_the_delay_and_reminds_with_a_quarter_left(
    manager: SessionManager, caller: TurnCaller, messenger: FakeMessenger, clock: FakeClock, storage: Storage
) -> None:
    session = await started_duel(manager, GameOptions(turn_timer=600))
    await caller.settled()
    call = caller.call_of(session.game_id)
    assert call is not None and call.user_id == mover(manager, session.game_id)
    assert call.ping_at == clock.now + DELAY
    assert call.remind_at == reminder_time(session.state) == session.state.deadline - 150  # type: ignore[operator]
    assert await storage.calls.calls() == ()  # nothing a restart could not rebuild: a quick game writes nothing

    caller.board_shown(session.game_id, session.state.seq)
    clock.advance(DELAY - 1)
    await caller.scheduler.run_due()
    assert messenger.sent == []
    clock.advance(1)
    await caller.scheduler.run_due()
    assert [(n.kind, n.user_id) for n in messenger.sent] == [("ping", call.user_id)]
    assert [(c.ping_at, c.message_id) for c in await storage.calls.calls()] == [(None, 9_001)]  # kept now
    clock.advance(450 - DELAY)
    await caller.scheduler.run_due()
    assert [n.kind for n in messenger.sent] == ["ping", "reminder"]
    assert messenger.sent[1].left == pytest.approx(150)
    assert messenger.withdrawn == [CallMessage(CHANNEL.channel_id, 9_001)]  # the reminder replaced the ping
    stored = await storage.calls.calls()
    assert [(c.ping_at, c.remind_at, c.message_id) for c in stored] == [(None, None, 9_002)]


async def test_a_call_that_comes_after_the_reminder_or_the_timer_is_not_made(
    manager: SessionManager, storage: Storage, messenger: FakeMessenger, clock: FakeClock
) -> None:
    caller = TurnCaller(manager, storage.calls, messenger, PingDelays(1_000), clock=clock)
    long_turn = await started_duel(manager, GameOptions(turn_timer=1_200))
    call = caller.call_of(long_turn.game_id)
    assert call is not None and call.ping_at is None and call.remind_at is not None  # the reminder calls first
    await long_turn.resign(ALICE.user_id)
    short_turn = await started_duel(manager, GameOptions(turn_timer=300))
    call = caller.call_of(short_turn.game_id)
    assert call is not None and call.ping_at is None and call.remind_at is None  # the timer plays first
    await caller.settled()


async def test_acting_withdraws_the_call_and_the_next_member_gets_a_new_one(
    manager: SessionManager, caller: TurnCaller, messenger: FakeMessenger, clock: FakeClock
) -> None:
    session = await started_duel(manager, GameOptions(turn_timer=600))
    first = mover(manager, session.game_id)
    caller.board_shown(session.game_id, session.state.seq)
    clock.advance(DELAY)
    await caller.scheduler.run_due()
    assert len(messenger.sent) == 1
    while session.state.status == "running" and mover(manager, session.game_id) == first:
        await play_first(manager, session.game_id)
    await caller.settled()
    assert messenger.withdrawn == [CallMessage(CHANNEL.channel_id, 9_001)]
    call = caller.call_of(session.game_id)
    assert call is not None and call.user_id != first and call.message_id is None and call.ping_at is not None


async def test_a_ping_waits_for_its_moves_board(
    manager: SessionManager, storage: Storage, messenger: FakeMessenger, clock: FakeClock
) -> None:
    caller = TurnCaller(manager, storage.calls, messenger, PingDelays(0), clock=clock)
    session = await started_duel(manager, GameOptions(turn_timer=600))
    await caller.scheduler.run_due()
    assert messenger.sent == []  # due at once, but the board is not on screen yet
    caller.board_shown(session.game_id, session.state.seq)
    await caller.scheduler.run_due()
    assert len(messenger.sent) == 1

    await session.resign(ALICE.user_id)
    lost = await started_duel(manager, GameOptions(turn_timer=600))
    await caller.scheduler.run_due()
    clock.advance(BOARD_WAIT_SECONDS)  # Discord never showed this board: the ping goes anyway
    await caller.scheduler.run_due()
    assert [n.state.game_id for n in messenger.sent] == [session.game_id, lost.game_id]
    await caller.settled()


async def test_the_end_of_a_game_withdraws_and_forgets_its_call(
    manager: SessionManager, caller: TurnCaller, messenger: FakeMessenger, clock: FakeClock, storage: Storage
) -> None:
    session = await started_duel(manager, GameOptions(turn_timer=600))
    caller.board_shown(session.game_id, session.state.seq)
    clock.advance(DELAY)
    await caller.scheduler.run_due()
    await session.resign(BOB.user_id)
    await caller.settled()
    assert messenger.withdrawn == [CallMessage(CHANNEL.channel_id, 9_001)]
    assert caller.call_of(session.game_id) is None
    assert await storage.calls.calls() == ()


async def test_a_game_with_the_ai_to_move_has_no_call(
    manager: SessionManager, caller: TurnCaller, clock: FakeClock
) -> None:
    result = await manager.play_ai(ALICE, CHANNEL, GameOptions(), "easy")
    state = manager.get(result.game_id).state
    seat = state.to_move
    assert seat is not None
    assert (caller.call_of(result.game_id) is None) == seat.played_by_ai
    await caller.settled()


async def test_a_restart_takes_up_the_stored_calls_and_calls_games_that_have_none(
    storage: Storage, clock: FakeClock, picker: RandomPicker, messenger: FakeMessenger
) -> None:
    first = make_manager(storage.games, clock, picker)
    before = TurnCaller(first, storage.calls, messenger, PingDelays(DELAY), clock=clock)
    kept = await started_duel(first, GameOptions(turn_timer=600))
    before.board_shown(kept.game_id, kept.state.seq)
    clock.advance(DELAY)
    await before.scheduler.run_due()
    await before.stop()
    sent = before.call_of(kept.game_id)
    assert sent is not None and sent.message_id == 9_001
    # A game whose call was never stored (the bot stopped between its move and its call), and a stale row.
    lobby = await first.open_lobby(ALICE, Place(CHANNEL.guild_id, 501), GameOptions(turn_timer=600))
    uncalled = first.get(lobby.game_id)
    await uncalled.join(BOB)
    await uncalled.start(ALICE.user_id, first.seeds())
    await before.settled()
    await storage.calls.drop_call(uncalled.game_id, CHANNEL.guild_id)
    await storage.calls.put_call(TurnCall(uncalled.game_id, CHANNEL.guild_id, 999, 0, None, None, 500, 77))

    second = make_manager(storage.games, clock, picker)
    await second.load()
    after = TurnCaller(second, storage.calls, messenger, PingDelays(DELAY), clock=clock)
    assert await after.load() == 2
    await after.settled()
    assert after.call_of(kept.game_id) == sent  # taken up as it was: not called again
    fresh = after.call_of(uncalled.game_id)
    assert fresh is not None and fresh.user_id == mover(second, uncalled.game_id) and fresh.ping_at == clock.now + DELAY
    assert CallMessage(500, 77) in messenger.withdrawn  # the stale call's message
    clock.advance(DELAY)
    await after.scheduler.run_due()  # a call loaded at start-up does not wait for a board
    assert [n.state.game_id for n in messenger.sent] == [kept.game_id, uncalled.game_id]


class DownRecords:
    """A database that refuses every call write (an outage), as `CallRecords`."""

    async def calls(self) -> tuple[TurnCall, ...]:
        return ()

    async def put_call(self, call: TurnCall) -> None:
        raise StorageUnavailable("the database is down", reason="unreachable")

    async def drop_call(self, game_id: int, guild_id: int | None) -> None:
        raise StorageUnavailable("the database is down", reason="unreachable")


async def test_a_database_outage_loses_no_call_and_blocks_no_move(
    manager: SessionManager, messenger: FakeMessenger, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    caller = TurnCaller(manager, DownRecords(), messenger, PingDelays(DELAY), clock=clock)
    session = await started_duel(manager, GameOptions(turn_timer=600))
    caller.board_shown(session.game_id, session.state.seq)
    clock.advance(DELAY)
    await caller.scheduler.run_due()
    assert len(messenger.sent) == 1  # called all the same
    first = mover(manager, session.game_id)
    while session.state.status == "running" and mover(manager, session.game_id) == first:
        await play_first(manager, session.game_id)  # the game goes on
    await caller.settled()
    assert messenger.withdrawn == [CallMessage(CHANNEL.channel_id, 9_001)]
    assert any("could not be saved" in r.getMessage() for r in caplog.records)
