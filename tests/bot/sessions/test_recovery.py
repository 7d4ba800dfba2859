"""Start-up rebuild: stored logs replay to the live position, and a wrong snapshot is caught."""

from __future__ import annotations

import random

import pytest

from bot.sessions.recovery import SnapshotMismatch, rebuild_running_games, record_of
from bot.storage.sqlite.store import SqliteStore
from bot.storage.types import NewEvent, SeatSpec
from puluc import Game, GameRecord, IllegalMoveError, InvalidRecordError, Position, Rules


async def play_stored(store: SqliteStore, events: int, seed: int = 3) -> tuple[int, Game]:
    """Play `events` engine events with puluc, committing each (with its snapshot) as the bot would."""
    rng = random.Random(seed)
    rules = Rules.preset("ants")
    game = Game.new(rules, rng, seed=seed)
    game_id = await store.create_game(guild_id=1, channel_id=2, host_id=1, variant="ants", rules=rules.to_dict(),
                                      turn_timer_seconds=60,
                                      seats=[SeatSpec("A1", "Ana", user_id=1), SeatSpec("B1", "AI", ai_level=1)])
    await store.start_game(game_id, first_team=game.record.first,
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
        await store.append_events(game_id, seq, [event], snapshot_ppn=game.position.to_ppn())
        if game.outcome() is not None:
            break
    return game_id, game


async def test_running_game_is_rebuilt_to_the_live_position(store: SqliteStore) -> None:
    game_id, game = await play_stored(store, 30)
    await store.append_events(
        game_id, (await store.get_game(game_id)).last_seq + 1, [NewEvent("timeout", {"seat": "A1"})]
    )
    rebuilt, failed = await rebuild_running_games(store)
    assert failed == []
    (only,) = rebuilt
    assert only.position.to_ppn() == game.position.to_ppn()
    assert only.record.to_dict()["events"] == game.record.to_dict()["events"]


async def test_record_export_round_trips_through_json(store: SqliteStore) -> None:
    game_id, game = await play_stored(store, 12)
    record = record_of(await store.game_log(game_id))
    again = GameRecord.from_json(record.to_json())
    assert again.replay().to_ppn() == game.position.to_ppn()
    assert again.seats == {"A1": "Ana", "B1": "AI"} and again.seed == 3


async def test_a_snapshot_that_disagrees_with_the_log_is_reported(store: SqliteStore) -> None:
    game_id, _ = await play_stored(store, 10)
    good_id, _ = await play_stored(store, 10, seed=4)
    async with store._write() as db:  # a snapshot written by a buggy older version, say
        await db.execute("UPDATE games SET snapshot_ppn = 'x' WHERE game_id = ?", game_id)
    rebuilt, failed = await rebuild_running_games(store)
    assert [r.log.game.game_id for r in rebuilt] == [good_id]
    assert [log.game.game_id for log, _ in failed] == [game_id]
    assert isinstance(failed[0][1], SnapshotMismatch)


async def test_a_log_the_engine_refuses_is_reported_with_the_event_at_fault(store: SqliteStore) -> None:
    game_id, game = await play_stored(store, 10)
    good_id, _ = await play_stored(store, 10, seed=4)
    seq = (await store.get_game(game_id)).last_seq + 1
    await store.append_events(game_id, seq, [NewEvent("move", {"move": "1:41"})])  # no ants road has a cell 41
    rebuilt, failed = await rebuild_running_games(store)
    assert [r.log.game.game_id for r in rebuilt] == [good_id]
    ((log, error),) = failed
    assert log.game.game_id == game_id
    assert isinstance(error, InvalidRecordError) and error.event == len(game.record.events) + 1
    assert isinstance(error.__cause__, IllegalMoveError)


async def test_a_bug_while_rebuilding_is_not_reported_as_a_bad_record(
    store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    await play_stored(store, 10)

    def broken_play(self: Position, move: object) -> Position:
        raise ValueError("a bug in the engine")

    monkeypatch.setattr(Position, "play", broken_play)
    with pytest.raises(ValueError, match="a bug in the engine"):
        await rebuild_running_games(store)
