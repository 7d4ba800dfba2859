"""The one replay of a stored game log: what start-up, `/puluc replay`, the Replay button, rematch and the
post-game chart read. A game the bot itself played and stored must read back exactly as it was played."""

from __future__ import annotations

import logging
import random

import pytest

from bot.sessions import GameOptions, Place, SessionManager
from bot.sessions.errors import GameNotOpen
from bot.sessions.rebuild import read_game
from bot.storage import Storage
from bot.storage.types import NewEvent, SeatSpec
from puluc import Game, GameRecord, Rules
from tests.helpers import ALICE, BOB, CHANNEL, FakeClock, RandomPicker, make_manager, play_out, started_duel


async def test_a_finished_game_the_bot_played_reads_back_as_its_record(
    manager: SessionManager, storage: Storage, clock: FakeClock
) -> None:
    session = await started_duel(manager, GameOptions(ranked=True))
    await play_out(session, manager, clock)
    played = session.state
    assert played.status == "finished"

    stored = await read_game(storage.games, played.game_id)

    assert stored.status == "finished" and stored.winner == played.winner
    assert stored.record == played.record
    assert stored.position is not None and played.position is not None
    assert stored.position.to_ppn() == played.position.to_ppn()
    exported = GameRecord.from_json(stored.game_record().to_json())  # what /puluc replay uploads
    assert exported.replay().to_ppn() == played.position.to_ppn()
    assert exported.seats == {"A1": "alice", "B1": "bob"}


async def test_open_games_reload_at_start_up_where_they_stood(
    manager: SessionManager, storage: Storage, clock: FakeClock, picker: RandomPicker
) -> None:
    session = await started_duel(manager)
    rng = random.Random(5)
    for _ in range(9):
        state = session.state
        mover = state.to_move
        assert mover is not None and mover.user_id is not None
        await session.play(mover.user_id, rng.choice(state.legal_options()).notation, turn=state.seq)
    lobby = await manager.open_lobby(ALICE, Place(9, 777), GameOptions())

    restarted = make_manager(storage.games, clock, picker)
    assert await restarted.load() == 2

    again = restarted.get(session.game_id).state
    assert again.position is not None and session.state.position is not None
    assert again.position.to_ppn() == session.state.position.to_ppn()
    assert (again.seq, again.record, again.turn_throws) == (session.state.seq, session.state.record,
                                                            session.state.turn_throws)
    assert [o.notation for o in again.legal_options()] == [o.notation for o in session.state.legal_options()]
    assert restarted.get(lobby.game_id).state.status == "lobby"


async def stored_by_hand(storage: Storage, events: int, *, seed: int = 3,
                         snapshot: str | None = None) -> tuple[int, Game]:
    """A game stored event by event with the payload shapes of the puluc record ({"throw", "faces"} and
    {"move"}), as older versions and the storage benchmark write them."""
    rng = random.Random(seed)
    rules = Rules.preset("ants")
    game = Game.new(rules, rng, seed=seed)
    seats = [SeatSpec("A1", "Ana", user_id=1), SeatSpec("B1", "AI", ai_level=1)]
    game_id = await storage.games.create_game(guild_id=1, channel_id=2, host_id=1, variant="ants",
                                              rules=rules.to_dict(), turn_timer_seconds=60, seats=seats)
    await storage.games.start_game(game_id, first_team=game.record.first,
                          throw_off=[[a.code, b.code] for a, b in game.record.throw_off], seed=seed,
                          snapshot_ppn=game.position.to_ppn(), turn_deadline=None)
    for seq in range(1, events + 1):
        if game.position.must_throw:
            throws = game.roll(rng)
            event = NewEvent("throw", {"throw": [t.value for t in throws], "faces": [t.code for t in throws]})
        else:
            move = rng.choice(game.position.legal_moves())
            game.play(move)
            event = NewEvent("move", {"move": str(move)})
        last = seq == events
        await storage.games.append_events(game_id, seq, [event],
                                 snapshot_ppn=snapshot if last and snapshot else game.position.to_ppn())
    return game_id, game


async def test_record_shaped_payloads_replay_too(storage: Storage) -> None:
    game_id, game = await stored_by_hand(storage, 30)
    await storage.games.append_events(game_id, 31, [NewEvent("timeout", {"seat": "A1", "count": 1})])

    state = await read_game(storage.games, game_id)

    assert state.position is not None and state.position.to_ppn() == game.position.to_ppn()
    assert state.game_record().to_dict()["events"] == game.record.to_dict()["events"]


async def test_a_snapshot_that_disagrees_with_the_log_is_reported_and_the_log_wins(
    storage: Storage, caplog: pytest.LogCaptureFixture
) -> None:
    game_id, game = await stored_by_hand(storage, 10, snapshot="not-the-position")

    with caplog.at_level(logging.WARNING, logger="bot.sessions.rebuild"):
        state = await read_game(storage.games, game_id)

    assert state.position is not None and state.position.to_ppn() == game.position.to_ppn()
    assert f"game {game_id}" in caplog.text and "not-the-position" in caplog.text


@pytest.mark.logs_error(r"game \d+: the event log does not replay")
async def test_a_log_that_does_not_replay_keeps_its_game_out_and_the_others_load(
    storage: Storage, clock: FakeClock, picker: RandomPicker, caplog: pytest.LogCaptureFixture
) -> None:
    broken_id, _ = await stored_by_hand(storage, 6)
    await storage.games.append_events(broken_id, 7, [NewEvent("move", {"move": "9:Z"})])  # no such move in any position
    good_id, good = await stored_by_hand(storage, 8, seed=4)
    manager = make_manager(storage.games, clock, picker)

    with caplog.at_level(logging.ERROR, logger="bot.sessions.manager"):
        assert await manager.load() == 1

    position = manager.get(good_id).state.position
    assert position is not None and position.to_ppn() == good.position.to_ppn()
    with pytest.raises(GameNotOpen):
        manager.get(broken_id)
    assert f"game {broken_id}" in caplog.text
    with pytest.raises(GameNotOpen):  # a replay or rematch of it is refused, not an internal error
        await manager.finished_state(broken_id)


async def test_a_game_that_was_never_stored_is_not_found(manager: SessionManager) -> None:
    with pytest.raises(GameNotOpen):
        await manager.finished_state(4242)


async def test_a_rematch_reads_the_finished_game_back(
    manager: SessionManager, storage: Storage, clock: FakeClock, picker: RandomPicker
) -> None:
    session = await started_duel(manager)
    await play_out(session, manager, clock)
    restarted = make_manager(storage.games, clock, picker)  # the finished game is no longer in memory
    await restarted.load()

    finished = await restarted.finished_state(session.game_id)
    rematch = await restarted.rematch(finished, BOB)

    assert [(s.seat, s.user_id) for s in rematch.state.seats] == [("B1", BOB.user_id)]
    assert rematch.state.place == CHANNEL
