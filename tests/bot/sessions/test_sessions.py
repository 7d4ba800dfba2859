"""The session layer driven directly: lobbies, whole games, AI seats, clicks that race or come late."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

import puluc
from bot.sessions import (
    ActionResult,
    Cancelled,
    Finished,
    GameOptions,
    GameSession,
    Joined,
    Moved,
    Place,
    Player,
    SessionManager,
    Started,
    Thrown,
)
from bot.sessions.errors import (
    AlreadySeated,
    AlreadyStarted,
    ChannelBusy,
    GameNotOpen,
    GameOver,
    HintNotAllowed,
    HostOnly,
    IllegalMoveError,
    NotAPlayer,
    NotInvited,
    NotStarted,
    NotYourTurn,
    SeatsEmpty,
    SelfChallenge,
    StaleAction,
    TeamFull,
    TooManyGames,
)
from bot.storage import Storage
from puluc import GameRecord
from tests.helpers import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DAVE,
    EVE,
    OTHER_CHANNEL,
    FailingDatabase,
    FakeClock,
    RandomPicker,
    make_manager,
    open_sqlite,
    play_out,
    present,
    started_duel,
)

# --- lobbies -------------------------------------------------------------------------------------------


async def test_host_sits_in_a1_and_players_fill_seats_in_turn_order(manager: SessionManager) -> None:
    lobby = await manager.open_lobby(ALICE, CHANNEL, GameOptions(team_size=2))
    session = manager.get(lobby.game_id)
    await session.join(BOB)
    await session.join(CAROL, "A")
    joined = await session.join(DAVE)

    assert [(s.seat, s.name) for s in session.state.seats] == [
        ("A1", "alice"), ("B1", "bob"), ("A2", "carol"), ("B2", "dave"),
    ]
    assert joined.happenings == (Joined("B2", "dave"),)


async def test_joining_twice_or_a_full_team_is_refused(manager: SessionManager) -> None:
    lobby = await manager.open_lobby(ALICE, CHANNEL, GameOptions())
    session = manager.get(lobby.game_id)
    with pytest.raises(AlreadySeated):
        await session.join(ALICE, "B")
    with pytest.raises(TeamFull):
        await session.join(BOB, "A")
    assert len(session.state.seats) == 1


async def test_only_the_host_starts_and_only_a_full_lobby(manager: SessionManager) -> None:
    lobby = await manager.open_lobby(ALICE, CHANNEL, GameOptions())
    session = manager.get(lobby.game_id)
    with pytest.raises(SeatsEmpty):
        await session.start(ALICE.user_id, 1)
    await session.join(BOB)
    with pytest.raises(HostOnly):
        await session.start(BOB.user_id, 1)
    started = await session.start(ALICE.user_id, 1)
    assert started.started and session.state.status == "running"
    with pytest.raises(AlreadyStarted):
        await session.join(CAROL)


async def test_a_player_leaving_frees_the_seat_and_the_host_leaving_closes_the_lobby(
    manager: SessionManager,
) -> None:
    lobby = await manager.open_lobby(ALICE, CHANNEL, GameOptions())
    session = manager.get(lobby.game_id)
    await session.join(BOB)
    await session.leave(BOB.user_id)
    assert session.state.free_seats() == ("B1",)
    with pytest.raises(NotAPlayer):
        await session.leave(BOB.user_id)

    closed = await session.leave(ALICE.user_id)
    assert closed.cancelled and manager.in_channel(CHANNEL.channel_id) is None


async def test_add_ai_fills_a_seat_of_the_chosen_team(manager: SessionManager) -> None:
    lobby = await manager.open_lobby(ALICE, CHANNEL, GameOptions(team_size=2))
    session = manager.get(lobby.game_id)
    with pytest.raises(NotAPlayer):
        await session.add_ai(BOB.user_id, "B")
    await session.add_ai(ALICE.user_id, "B", "hard")
    await session.add_ai(ALICE.user_id, "B")
    with pytest.raises(TeamFull):
        await session.add_ai(ALICE.user_id, "B")
    assert [(s.seat, s.ai_level) for s in session.state.seats] == [("A1", None), ("B1", "hard"), ("B2", "medium")]


async def test_one_open_game_per_channel(manager: SessionManager) -> None:
    first = await manager.open_lobby(ALICE, CHANNEL, GameOptions())
    with pytest.raises(ChannelBusy) as refused:
        await manager.open_lobby(BOB, CHANNEL, GameOptions())
    assert refused.value.game_id == first.game_id
    await manager.open_lobby(BOB, OTHER_CHANNEL, GameOptions())


class HeldCreation:
    """Holds the game store's game creation in one channel until released, as a slow database would."""

    def __init__(self, storage: Storage, channel_id: int) -> None:
        self.started = asyncio.Event()
        self.release = asyncio.Event()
        create = storage.games.create_game

        async def held(**kwargs: Any) -> int:
            if kwargs["channel_id"] == channel_id:
                self.started.set()
                await self.release.wait()
            return await create(**kwargs)

        storage.games.create_game = held  # type: ignore[method-assign]


async def test_games_elsewhere_are_created_while_one_waits_on_the_database(storage: Storage,
                                                                          manager: SessionManager) -> None:
    held = HeldCreation(storage, CHANNEL.channel_id)
    first = asyncio.create_task(manager.open_lobby(ALICE, CHANNEL, GameOptions()))
    await held.started.wait()
    other = asyncio.create_task(manager.challenge(BOB, CAROL, OTHER_CHANNEL, GameOptions()))
    # The bound only ends the test if `other` queued behind the held creation (it would never end).
    await asyncio.wait({other}, timeout=30)
    assert other.done() and not first.done()
    assert manager.in_channel(OTHER_CHANNEL.channel_id) is not None
    held.release.set()
    assert (await first).game_id != (await other).game_id


async def test_two_games_opened_in_one_channel_at_once_make_one_game(storage: Storage,
                                                                    manager: SessionManager) -> None:
    held = HeldCreation(storage, CHANNEL.channel_id)
    first = asyncio.create_task(manager.open_lobby(ALICE, CHANNEL, GameOptions()))
    await held.started.wait()
    second = asyncio.create_task(manager.challenge(BOB, CAROL, CHANNEL, GameOptions()))
    held.release.set()
    opened = await first
    with pytest.raises(ChannelBusy) as refused:
        await second
    assert refused.value.game_id == opened.game_id
    assert [s.game_id for s in manager.sessions] == [opened.game_id]


async def test_a_host_opening_games_at_once_in_two_channels_stays_within_the_limit(
        storage: Storage, manager: SessionManager) -> None:
    for channel_id in (1, 2):
        await manager.open_lobby(ALICE, Place(9, channel_id), GameOptions())
    held = HeldCreation(storage, 3)
    third = asyncio.create_task(manager.open_lobby(ALICE, Place(9, 3), GameOptions()))
    await held.started.wait()
    fourth = asyncio.create_task(manager.challenge(ALICE, BOB, Place(9, 4), GameOptions()))
    held.release.set()
    await third
    with pytest.raises(TooManyGames):
        await fourth
    assert manager.open_count(ALICE.user_id) == 3


async def test_a_host_may_keep_at_most_three_games_open(manager: SessionManager) -> None:
    for channel_id in (1, 2, 3):
        await manager.open_lobby(ALICE, CHANNEL.__class__(9, channel_id), GameOptions())
    with pytest.raises(TooManyGames) as refused:
        await manager.open_lobby(ALICE, CHANNEL, GameOptions())
    assert refused.value.params == {"limit": 3}


async def test_invalid_options_are_refused_before_anything_is_stored(storage: Storage,
                                                                     manager: SessionManager) -> None:
    from bot.sessions.errors import InvalidOptions

    with pytest.raises(InvalidOptions):
        await manager.open_lobby(ALICE, CHANNEL, GameOptions(variant="chess"))
    with pytest.raises(InvalidOptions) as too_big:
        await manager.open_lobby(ALICE, CHANNEL, GameOptions(team_size=9))
    engine_reason = too_big.value.__cause__
    assert isinstance(engine_reason, puluc.InvalidRulesError) and engine_reason.params["field"] == "team_size"
    assert await storage.games.open_games() == ()


# --- challenges ----------------------------------------------------------------------------------------


async def test_only_the_challenged_member_can_accept(manager: SessionManager) -> None:
    invite = await manager.challenge(ALICE, BOB, CHANNEL, GameOptions(ranked=True))
    session = manager.get(invite.game_id)
    with pytest.raises(NotInvited):
        await session.accept(CAROL, BOB.user_id, 5)
    accepted = await session.accept(BOB, BOB.user_id, 5)

    assert accepted.started
    assert [s.user_id for s in accepted.state.seats] == [ALICE.user_id, BOB.user_id]
    assert accepted.state.ranked


async def test_declining_a_challenge_closes_it(manager: SessionManager) -> None:
    invite = await manager.challenge(ALICE, BOB, CHANNEL, GameOptions())
    session = manager.get(invite.game_id)
    with pytest.raises(NotInvited):
        await session.decline(CAROL.user_id, BOB.user_id)
    declined = await session.decline(BOB.user_id, BOB.user_id)
    assert declined.cancelled and declined.happenings == (Cancelled(BOB.user_id, "declined"),)


async def test_nobody_can_challenge_themselves(manager: SessionManager) -> None:
    with pytest.raises(SelfChallenge):
        await manager.challenge(ALICE, ALICE, CHANNEL, GameOptions())


# --- whole games ---------------------------------------------------------------------------------------


async def test_a_whole_1v1_game_ends_with_the_engine_outcome(
    storage: Storage, manager: SessionManager, clock: FakeClock
) -> None:
    session = await started_duel(manager)
    await play_out(session, manager, clock)

    state = session.state
    assert state.status == "finished" and state.end_reason == "normal"
    assert state.position is not None
    outcome = state.position.outcome()
    assert outcome is not None and (state.winner, state.scores) == (outcome.winner, outcome.scores)
    stored = (await storage.games.game_log(state.game_id)).game
    assert stored.status == "finished" and stored.winner == state.winner
    with pytest.raises(GameNotOpen):
        manager.get(state.game_id)


async def test_the_stored_log_replays_to_the_final_position(storage: Storage, manager: SessionManager,
                                                             clock: FakeClock) -> None:
    session = await started_duel(manager)
    await play_out(session, manager, clock)
    log = await storage.games.game_log(session.game_id)

    record = session.state.game_record()
    assert GameRecord.from_json(record.to_json()).replay() == session.state.position
    throws = [e for e in log.events if e.kind == "throw"]
    moves = [e for e in log.events if e.kind == "move"]
    assert len(throws) + len(moves) == len(log.events) == log.game.last_seq
    assert all(len(code) == 4 for e in throws for code in e.payload["faces"])


async def test_the_same_seed_and_moves_give_the_same_throws(clock: FakeClock, tmp_path: Path) -> None:
    records = []
    for run in range(2):
        storage = await open_sqlite(tmp_path / f"run{run}.db", clock=clock)
        try:
            manager = make_manager(storage.games, clock, RandomPicker(), seed=42)
            session = await started_duel(manager)
            await play_out(session, manager, clock, seed=3)
        finally:
            await storage.close()
        records.append(session.state.game_record().to_dict())
    assert records[0] == records[1]


async def test_a_2v2_traditional_game_throws_twice_and_can_move_twice_a_turn(
    manager: SessionManager, clock: FakeClock
) -> None:
    lobby = await manager.open_lobby(ALICE, CHANNEL, GameOptions(team_size=2, setup="traditional"))
    session = manager.get(lobby.game_id)
    for player in (BOB, CAROL, DAVE):
        await session.join(player)
    start = await session.start(ALICE.user_id, manager.seeds())
    assert all(len(h.throws) == 2 for h in start.happenings if isinstance(h, Thrown))

    double_moves = 0
    rng = __import__("random").Random(5)
    while session.state.status == "running":
        state = session.state
        mover = state.to_move
        assert mover is not None and mover.user_id is not None
        result = await session.play(mover.user_id, rng.choice(state.legal_options()).notation, turn=state.seq)
        if result.state.to_move == mover and result.state.status == "running":
            double_moves += 1  # the second throw of the same turn is still to be used
    assert double_moves > 0
    assert session.state.rules.one_active and session.state.rules.throws_per_turn == 2
    assert session.state.status == "finished"


async def test_ai_seats_move_by_themselves_after_the_pause(manager: SessionManager, clock: FakeClock,
                                                           picker: RandomPicker) -> None:
    result = await manager.play_ai(ALICE, CHANNEL, GameOptions(), "hard")
    session = manager.get(result.game_id)
    assert [s.ai_level for s in session.state.seats] == [None, "hard"]

    await play_out(session, manager, clock)

    assert session.state.status == "finished"
    assert picker.calls and set(picker.calls) == {"hard"}


async def test_the_ai_waits_for_its_pause_before_moving(manager: SessionManager, clock: FakeClock) -> None:
    lobby = await manager.open_lobby(ALICE, CHANNEL, GameOptions())
    session = manager.get(lobby.game_id)
    await session.add_ai(ALICE.user_id, "B", "easy")
    await session.start(ALICE.user_id, 11)
    while session.state.to_move is not None and not session.state.to_move.played_by_ai:
        state = session.state
        await session.play(ALICE.user_id, state.legal_options()[0].notation, turn=state.seq)
    seq = session.state.seq

    clock.advance(1.0)
    assert await manager.fire_due() == []
    clock.advance(0.5)
    assert await manager.fire_due() == [session.game_id]
    assert session.state.seq > seq


async def test_a_listener_hears_about_ai_moves(manager: SessionManager, clock: FakeClock) -> None:
    heard: list[int] = []

    async def listener(result: ActionResult) -> None:
        heard.extend(1 for h in result.happenings if isinstance(h, Moved) and h.by == "ai")

    manager.add_listener(listener)
    session = manager.get((await manager.play_ai(ALICE, CHANNEL, GameOptions(), "easy")).game_id)
    await play_out(session, manager, clock)
    assert sum(heard) > 0


# --- clicks that are late, early, doubled or not yours -------------------------------------------------


async def test_a_stale_button_changes_nothing(manager: SessionManager) -> None:
    session = await started_duel(manager)
    state = session.state
    mover = state.to_move
    assert mover is not None and mover.user_id is not None
    with pytest.raises(StaleAction):
        await session.play(mover.user_id, state.legal_options()[0].notation, turn=state.seq - 1)
    assert session.state is state


async def test_two_clicks_at_once_apply_one_move(manager: SessionManager) -> None:
    session = await started_duel(manager)
    state = session.state
    mover = state.to_move
    assert mover is not None and mover.user_id is not None
    move = state.legal_options()[0].notation

    outcomes = await asyncio.gather(
        session.play(mover.user_id, move, turn=state.seq),
        session.play(mover.user_id, move, turn=state.seq),
        return_exceptions=True,
    )

    assert sum(isinstance(o, StaleAction) for o in outcomes) == 1
    applied = [o for o in outcomes if not isinstance(o, BaseException)]
    assert len(applied) == 1
    assert sum(1 for h in applied[0].happenings if isinstance(h, Moved)) == 1


async def test_out_of_turn_and_outsider_clicks_are_refused(manager: SessionManager) -> None:
    session = await started_duel(manager)
    state = session.state
    mover = state.to_move
    assert mover is not None
    waiting = BOB if mover.user_id == ALICE.user_id else ALICE
    notation = state.legal_options()[0].notation
    with pytest.raises(NotYourTurn):
        await session.play(waiting.user_id, notation, turn=state.seq)
    with pytest.raises(NotAPlayer):
        await session.play(EVE.user_id, notation, turn=state.seq)
    assert session.state is state


async def test_an_illegal_or_unreadable_move_is_refused(manager: SessionManager) -> None:
    session = await started_duel(manager)
    state = session.state
    mover = state.to_move
    assert mover is not None and mover.user_id is not None
    legal = {o.notation for o in state.legal_options()}
    illegal = next(f"{n}:{c}" for n in range(1, 6) for c in "H123456789" if f"{n}:{c}" not in legal)
    with pytest.raises(IllegalMoveError) as refused:
        await session.play(mover.user_id, illegal)
    assert refused.value.params == {"move": illegal}
    assert isinstance(refused.value.__cause__, puluc.IllegalMoveError)  # the engine's reason, for the log
    with pytest.raises(IllegalMoveError) as unreadable:
        await session.play(mover.user_id, "forward please")
    assert isinstance(unreadable.value.__cause__, puluc.InvalidMoveError)
    assert session.state is state


async def test_moves_before_the_start_or_after_the_end_are_refused(manager: SessionManager,
                                                                   clock: FakeClock) -> None:
    lobby = await manager.open_lobby(ALICE, CHANNEL, GameOptions())
    session = manager.get(lobby.game_id)
    with pytest.raises(NotStarted):
        await session.play(ALICE.user_id, "1:H")
    await session.join(BOB)
    await session.start(ALICE.user_id, 3)
    last = session.state
    await play_out(session, manager, clock)
    with pytest.raises(GameOver):
        await session.play(ALICE.user_id, "1:H", turn=session.state.seq)
    assert last.status == "running"


async def test_a_failed_save_leaves_the_session_unchanged(storage: Storage, clock: FakeClock,
                                                          picker: RandomPicker) -> None:
    failing = FailingDatabase(storage.database)
    manager = make_manager(Storage(failing).games, clock, picker)
    session = await started_duel(manager)
    state = session.state
    mover = state.to_move
    assert mover is not None and mover.user_id is not None
    notation = state.legal_options()[0].notation

    failing.fail_next_write(OSError("disk full"))
    with pytest.raises(OSError, match="disk full"):
        await session.play(mover.user_id, notation, turn=state.seq)
    assert session.state is state

    await session.play(mover.user_id, notation, turn=state.seq)
    assert session.state.seq > state.seq


# --- resign, cancel, hints -----------------------------------------------------------------------------


async def test_resigning_gives_the_game_to_the_other_team(storage: Storage, manager: SessionManager) -> None:
    session = await started_duel(manager)
    resigned = await session.resign(BOB.user_id)
    finished = resigned.finished
    assert finished is not None and finished.winner == "A" and finished.reason == "resign"
    assert (await storage.games.game_log(session.game_id)).events[-1].kind == "resign"
    with pytest.raises(NotAPlayer):
        await (await started_duel_elsewhere(manager)).resign(EVE.user_id)


async def started_duel_elsewhere(manager: SessionManager) -> GameSession:
    lobby = await manager.open_lobby(CAROL, OTHER_CHANNEL, GameOptions())
    session = manager.get(lobby.game_id)
    await session.join(DAVE)
    await session.start(CAROL.user_id, 8)
    return session


async def test_only_the_host_or_a_moderator_cancels(storage: Storage, manager: SessionManager) -> None:
    session = await started_duel(manager)
    with pytest.raises(HostOnly):
        await session.cancel(BOB.user_id)
    cancelled = await session.cancel(EVE.user_id, moderator=True)
    assert cancelled.cancelled
    assert (await storage.games.game_log(session.game_id)).game.status == "cancelled"
    assert manager.in_channel(CHANNEL.channel_id) is None
    with pytest.raises(GameOver):
        await session.cancel(ALICE.user_id)


async def test_hints_only_in_casual_games_and_only_on_your_turn(manager: SessionManager) -> None:
    session = await started_duel(manager)
    mover = session.state.to_move
    assert mover is not None and mover.user_id is not None
    hint = await session.suggest(mover.user_id)
    assert hint.move in present(session.state.position).legal_moves()
    await session.cancel(ALICE.user_id)

    ranked = await manager.challenge(ALICE, BOB, CHANNEL, GameOptions(ranked=True))
    game = manager.get(ranked.game_id)
    await game.accept(BOB, BOB.user_id, 4)
    mover = game.state.to_move
    assert mover is not None and mover.user_id is not None
    with pytest.raises(HintNotAllowed):
        await game.suggest(mover.user_id)


async def test_options_list_only_the_callers_own_moves(manager: SessionManager) -> None:
    session = await started_duel(manager)
    mover = session.state.to_move
    assert mover is not None and mover.user_id is not None
    waiting = BOB if mover.user_id == ALICE.user_id else ALICE
    assert session.options_for(mover.user_id) == session.state.legal_options()
    assert session.options_for(waiting.user_id) == []


async def test_starting_reports_the_throw_off_then_the_first_throw(manager: SessionManager) -> None:
    lobby = await manager.open_lobby(ALICE, CHANNEL, GameOptions())
    session = manager.get(lobby.game_id)
    await session.join(Player(102, "bob"))
    started = await session.start(ALICE.user_id, 99)
    kinds = [type(h) for h in started.happenings]
    assert kinds[0] is Started and Thrown in kinds
    assert isinstance(started.happenings[0], Started)
    assert started.happenings[0].first == session.state.first
    assert not any(isinstance(h, Finished) for h in started.happenings)
