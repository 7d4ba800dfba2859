"""Reloading a stored game: a log the engine refuses is a corrupt game; anything else is a bug and propagates."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.sessions import SessionManager
from bot.sessions.errors import GameNotOpen
from bot.sessions.rebuild import CorruptGame, state_from_log
from bot.storage import Storage
from bot.storage.types import GameLog, NewEvent
from puluc import IllegalMoveError, InvalidMoveError, Position
from tests.helpers import FakeClock, RandomPicker, make_manager, started_duel


async def played_log(storage: Storage, manager: SessionManager) -> GameLog:
    """A started duel's log after its first move."""
    session = await started_duel(manager)
    state = session.state
    mover = state.to_move
    assert mover is not None and mover.user_id is not None
    await session.play(mover.user_id, state.legal_options()[0].notation, turn=state.seq)
    return await storage.games.game_log(session.game_id)


def with_first_move(log: GameLog, payload: dict[str, object]) -> GameLog:
    """The same log with the payload of its first move event replaced."""
    events = list(log.events)
    at = next(i for i, e in enumerate(events) if e.kind == "move")
    events[at] = replace(events[at], payload=payload)
    return GameLog(log.game, tuple(events))


async def test_a_stored_move_the_engine_cannot_read_is_a_corrupt_game(storage: Storage,
                                                                       manager: SessionManager) -> None:
    log = with_first_move(await played_log(storage, manager), {"move": "forward"})
    with pytest.raises(CorruptGame) as caught:
        state_from_log(log)
    assert isinstance(caught.value.__cause__, InvalidMoveError) and caught.value.__cause__.text == "forward"


async def test_a_stored_move_that_is_not_legal_is_a_corrupt_game(storage: Storage,
                                                                 manager: SessionManager) -> None:
    log = with_first_move(await played_log(storage, manager), {"move": "1:41"})  # a bell road has 9 cells
    with pytest.raises(CorruptGame, match="does not replay") as caught:
        state_from_log(log)
    assert isinstance(caught.value.__cause__, IllegalMoveError)


async def test_a_move_event_without_its_move_is_a_corrupt_game(storage: Storage,
                                                               manager: SessionManager) -> None:
    log = with_first_move(await played_log(storage, manager), {"notation": "2:H"})
    with pytest.raises(CorruptGame, match="has no move str"):
        state_from_log(log)


async def test_an_engine_bug_during_a_reload_is_not_taken_for_a_corrupt_game(
    storage: Storage, manager: SessionManager, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = await played_log(storage, manager)

    def broken_play(self: Position, move: object) -> Position:
        raise ValueError("a bug in the engine")

    monkeypatch.setattr(Position, "play", broken_play)
    with pytest.raises(ValueError, match="a bug in the engine") as caught:
        state_from_log(log)
    assert not isinstance(caught.value, CorruptGame)


async def test_a_finished_game_that_cannot_be_read_is_not_found(storage: Storage, manager: SessionManager,
                                                                 clock: FakeClock, picker: RandomPicker) -> None:
    session = await started_duel(manager)
    state = session.state
    await storage.games.append_events(state.game_id, state.seq + 1, [NewEvent("move", {"move": "1:41"})])
    restarted = make_manager(storage.games, clock, picker)  # not loaded: it reads the game from the database
    with pytest.raises(GameNotOpen) as caught:
        await restarted.finished_state(state.game_id)
    assert isinstance(caught.value.__cause__, CorruptGame)
    with pytest.raises(GameNotOpen):
        await restarted.finished_state(state.game_id + 1000)
