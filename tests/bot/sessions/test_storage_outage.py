"""The database unavailable (disk full, server down or restarting, a lock held too long) while players act:
nothing changes, the refusal names what was not done, and the same action works once the database is back."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.sessions import GameOptions, GameSession, GameState, SessionManager
from bot.sessions.errors import MoveNotSaved, NotSaved, StaleAction
from bot.sessions.ports import GameRecords
from bot.sessions.timers import RETRY_SECONDS
from bot.storage import Storage
from bot.storage.errors import StorageUnavailable, UnavailableReason
from tests.helpers import AI_DELAY, ALICE, BOB, CHANNEL, FakeClock, started_duel


def fail_next(monkeypatch: pytest.MonkeyPatch, games: GameRecords, method: str,
              reason: UnavailableReason = "disk_full", *, stored: bool = False) -> None:
    """The game store's next call of `method` fails as the database would (`StorageUnavailable`): before it
    wrote anything, or (`stored`) after its write was committed, as when the answer to COMMIT is lost.
    Later calls work."""
    real: Callable[..., Awaitable[Any]] = getattr(games, method)

    async def failing(*args: Any, **kwargs: Any) -> Any:
        monkeypatch.setattr(games, method, real)
        if stored:
            await real(*args, **kwargs)
        raise StorageUnavailable(f"the database failed ({reason})", reason=reason)

    monkeypatch.setattr(games, method, failing)


def to_play(session: GameSession) -> tuple[GameState, int, str]:
    """The game as it stands, the user to move and a legal move of theirs."""
    state = session.state
    mover = state.to_move
    assert mover is not None and mover.user_id is not None
    return state, mover.user_id, state.legal_options()[0].notation


async def test_a_move_the_database_cannot_save_is_not_played(
    manager: SessionManager, storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = await started_duel(manager)
    before, mover_id, move = to_play(session)
    fail_next(monkeypatch, storage.games, "append_events")

    with pytest.raises(MoveNotSaved) as refused:
        await session.play(mover_id, move, turn=before.seq)

    assert refused.value.key == "error.move_not_saved" and refused.value.reason == "disk_full"
    assert session.state is before
    assert (await storage.games.game_log(before.game_id)).game.last_seq == before.seq
    played = await session.play(mover_id, move, turn=before.seq)  # the same click, a moment later
    assert played.state.seq > before.seq
    log = await storage.games.game_log(before.game_id)
    assert [e.payload["move"] for e in log.events if e.kind == "move"] == [move]


async def test_a_winning_move_the_database_cannot_save_leaves_the_game_running(
    manager: SessionManager, storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = await started_duel(manager)
    state = session.state
    fail_next(monkeypatch, storage.games, "finish_game", reason="unreachable")
    mover = state.to_move
    assert mover is not None and mover.user_id is not None

    with pytest.raises(NotSaved):
        await session.resign(mover.user_id)

    assert session.state.status == "running" and manager.get(state.game_id) is session
    assert (await storage.games.game_log(state.game_id)).game.status == "running"


async def test_a_lobby_the_database_cannot_save_changes_nothing(
    manager: SessionManager, storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    fail_next(monkeypatch, storage.games, "create_game", reason="unreachable")
    with pytest.raises(NotSaved) as refused:
        await manager.open_lobby(ALICE, CHANNEL, GameOptions())
    assert refused.value.key == "error.not_saved"
    assert manager.in_channel(CHANNEL.channel_id) is None
    lobby = await manager.open_lobby(ALICE, CHANNEL, GameOptions())
    fail_next(monkeypatch, storage.games, "set_seat")
    with pytest.raises(NotSaved):
        await manager.get(lobby.game_id).join(BOB)
    assert [s.user_id for s in manager.get(lobby.game_id).state.seats] == [ALICE.user_id]


async def test_an_ai_move_the_database_cannot_save_is_tried_again_later(
    manager: SessionManager, storage: Storage, clock: FakeClock, monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    result = await manager.play_ai(ALICE, CHANNEL, GameOptions(), "easy")
    session = manager.get(result.game_id)
    while session.state.to_move is not None and not session.state.to_move.played_by_ai:
        state = session.state
        await session.play(ALICE.user_id, state.legal_options()[0].notation, turn=state.seq)
    waiting = session.state
    fail_next(monkeypatch, storage.games, "append_events", reason="busy")
    clock.advance(AI_DELAY)

    await manager.fire_due()  # the AI's move cannot be saved: no error escapes, nothing changes

    assert session.state is waiting
    assert manager.deadlines.get(waiting.game_id) == clock() + RETRY_SECONDS
    assert "not saved (busy)" in caplog.text
    clock.advance(RETRY_SECONDS)
    await manager.fire_due()
    assert session.state.seq > waiting.seq


async def test_a_move_stored_although_the_answer_was_lost_counts_once(
    manager: SessionManager, storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = await started_duel(manager)
    before, mover_id, move = to_play(session)
    fail_next(monkeypatch, storage.games, "append_events", "unreachable", stored=True)

    played = await session.play(mover_id, move, turn=before.seq)

    assert played.state.seq > before.seq
    log = await storage.games.game_log(before.game_id)
    assert log.game.last_seq == played.state.seq
    assert [e.payload["move"] for e in log.events if e.kind == "move"] == [move]


async def test_a_save_in_doubt_is_read_back_before_the_next_action(
    manager: SessionManager, storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = await started_duel(manager)
    before, mover_id, move = to_play(session)
    fail_next(monkeypatch, storage.games, "append_events", "unreachable", stored=True)
    fail_next(monkeypatch, storage.games, "game_log", reason="unreachable")  # and the log cannot be read back yet

    with pytest.raises(MoveNotSaved):
        await session.play(mover_id, move, turn=before.seq)
    with pytest.raises(StaleAction):  # the same click again: the move is in the log, the button is old
        await session.play(mover_id, move, turn=before.seq)

    stored = await storage.games.game_log(before.game_id)
    assert session.state.seq == stored.game.last_seq > before.seq
    assert [e.payload["move"] for e in stored.events if e.kind == "move"] == [move]
    nxt = session.state
    mover = nxt.to_move
    assert mover is not None and mover.user_id is not None
    await session.play(mover.user_id, nxt.legal_options()[0].notation, turn=nxt.seq)  # the game goes on
