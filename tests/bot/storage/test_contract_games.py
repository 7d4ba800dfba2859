"""The game log's contract, for every backend: round trips, the event guard, game states, settings, readers."""

from __future__ import annotations

import asyncio

import pytest

from bot.storage import Storage
from bot.storage.errors import DuplicateEvent, EventGap, GameNotFound, GameStateError, InvalidSeat, UnknownEventKind
from bot.storage.types import NewEvent, SeatSpec
from tests.bot.storage.backends import Backend
from tests.bot.storage.games import AFTER_PPN, RULES, START_PPN, append, new_duel, running_duel


async def test_game_round_trip_keeps_every_field(storage: Storage) -> None:
    game_id = await new_duel(storage, ranked=True)
    await storage.games.set_message(game_id, 555, in_thread=True)
    await storage.games.start_game(game_id, first_team="B", throw_off=[["1000", "1100"]], seed=2**63 - 1,
                             snapshot_ppn=START_PPN, turn_deadline=1234.5)
    game = await storage.games.get_game(game_id)
    assert (game.guild_id, game.channel_id, game.message_id, game.in_thread) == (10, 20, 555, True)
    assert (game.status, game.host_id, game.ranked, game.variant) == ("running", 1, True, "bell")
    assert game.rules == RULES
    assert (game.first_team, game.throw_off, game.seed) == ("B", [["1000", "1100"]], 2**63 - 1)
    assert (game.turn_timer_seconds, game.turn_deadline, game.snapshot_ppn) == (120, 1234.5, START_PPN)
    assert [(s.seat, s.user_id, s.display_name) for s in game.seats] == [("A1", 1, "Ana"), ("B1", 2, "Bo")]
    assert (game.last_seq, game.winner, game.scores, game.finished_at) == (0, None, None, None)


async def test_snowflakes_and_message_ids_keep_all_64_bits(storage: Storage) -> None:
    snowflake = 1_234_567_890_123_456_789
    game_id = await storage.games.create_game(
        guild_id=snowflake, channel_id=snowflake + 1, host_id=snowflake + 2, variant="bell", rules={},
        turn_timer_seconds=60, message_id=snowflake + 3, seats=[SeatSpec("A1", "Ana", user_id=snowflake + 2)],
    )
    game = await storage.games.get_game(game_id)
    assert (game.guild_id, game.channel_id, game.host_id, game.message_id) == (
        snowflake, snowflake + 1, snowflake + 2, snowflake + 3
    )
    assert game.seats[0].user_id == snowflake + 2


async def test_missing_game_is_a_clear_error(storage: Storage) -> None:
    with pytest.raises(GameNotFound):
        await storage.games.get_game(404)
    with pytest.raises(GameNotFound):
        await storage.games.game_log(404)
    with pytest.raises(GameNotFound):
        await storage.games.set_message(404, 1)


def test_seat_needs_exactly_one_occupant() -> None:
    with pytest.raises(InvalidSeat):
        SeatSpec("A1", "nobody")
    with pytest.raises(InvalidSeat):
        SeatSpec("C1", "x", user_id=1)


async def test_guild_settings_and_channel_override_round_trip(storage: Storage) -> None:
    assert await storage.server_settings.guild_settings(7) == await storage.server_settings.guild_settings(7)
    assert (await storage.server_settings.guild_settings(7)).default_variant is None
    await storage.server_settings.update_guild_settings(7, default_variant="ants", turn_timer_seconds=90)
    await storage.server_settings.update_guild_settings(7, locale="uk")
    settings = await storage.server_settings.guild_settings(7)
    assert (settings.default_variant, settings.turn_timer_seconds, settings.locale) == ("ants", 90, "uk")
    reset = await storage.server_settings.update_guild_settings(7, turn_timer_seconds=None)
    assert (reset.default_variant, reset.turn_timer_seconds, reset.locale) == ("ants", None, "uk")
    with pytest.raises(ValueError, match="positive"):
        await storage.server_settings.update_guild_settings(7, turn_timer_seconds=0)
    assert await storage.server_settings.channel_ranked(70) is None
    await storage.server_settings.set_channel_ranked(7, 70, False)
    assert await storage.server_settings.channel_ranked(70) is False
    await storage.server_settings.set_channel_ranked(7, 70, True)
    assert await storage.server_settings.channel_ranked(70) is True
    await storage.server_settings.set_channel_ranked(7, 70, None)
    assert await storage.server_settings.channel_ranked(70) is None


async def test_default_added_rules_are_kept_apart_and_reset_with_none(storage: Storage) -> None:
    fresh = await storage.server_settings.guild_settings(8)
    assert (fresh.fire, fresh.scorpion, fresh.eagle_returns) == (None, None, None)
    await storage.server_settings.update_guild_settings(8, default_variant="eagle", eagle_returns=True, fire=True)
    await storage.server_settings.update_guild_settings(8, scorpion=False, turn_timer_seconds=90)
    settings = await storage.server_settings.guild_settings(8)
    assert (settings.default_variant, settings.turn_timer_seconds) == ("eagle", 90)
    assert (settings.fire, settings.scorpion, settings.eagle_returns) == (True, False, True)
    assert (await storage.server_settings.guild_settings(9)).fire is None  # another server keeps its own
    reset = await storage.server_settings.update_guild_settings(8, fire=None, eagle_returns=None)
    assert (reset.fire, reset.scorpion, reset.eagle_returns) == (None, False, None)
    assert await storage.server_settings.guild_settings(8) == reset
    with pytest.raises(ValueError, match="True, False or None"):
        await storage.server_settings.update_guild_settings(8, fire=1)  # type: ignore[arg-type]
    assert await storage.server_settings.guild_settings(8) == reset


async def test_move_and_next_throw_commit_together_with_snapshot(storage: Storage) -> None:
    game_id = await running_duel(storage)
    await append(storage, game_id, 1, "throw", {"throw": [2], "faces": ["1100"]})
    written = await storage.games.append_events(
        game_id, 2, [NewEvent("move", {"move": "2:H"}), NewEvent("throw", {"throw": [3], "faces": ["1110"]})],
        snapshot_ppn=AFTER_PPN, turn_deadline=99.0, timeouts={"A1": 0, "B1": 1},
    )
    assert [(e.seq, e.kind) for e in written] == [(2, "move"), (3, "throw")]
    log = await storage.games.game_log(game_id)
    assert [(e.seq, e.kind) for e in log.events] == [(1, "throw"), (2, "move"), (3, "throw")]
    assert log.events[1].payload == {"move": "2:H"}
    assert (log.game.last_seq, log.game.snapshot_seq, log.game.snapshot_ppn) == (3, 3, AFTER_PPN)
    assert log.game.turn_deadline == 99.0
    assert log.game.seat("B1").consecutive_timeouts == 1


async def test_an_unchanged_deadline_and_snapshot_stay_as_they_were(storage: Storage) -> None:
    game_id = await running_duel(storage)
    await append(storage, game_id, 1, "throw", {"throw": [2]}, snapshot_ppn=AFTER_PPN, turn_deadline=50.0)
    await append(storage, game_id, 2, "throw", {"throw": [3]})
    game = await storage.games.get_game(game_id)
    assert (game.turn_deadline, game.snapshot_ppn, game.snapshot_seq, game.last_seq) == (50.0, AFTER_PPN, 1, 2)
    await append(storage, game_id, 3, "throw", {"throw": [3]}, turn_deadline=None)
    assert (await storage.games.get_game(game_id)).turn_deadline is None


async def test_an_event_number_can_be_used_only_once(storage: Storage) -> None:
    game_id = await running_duel(storage)
    await append(storage, game_id, 1, "move", {"move": "2:H"})
    with pytest.raises(DuplicateEvent):
        await append(storage, game_id, 1, "move", {"move": "3:H"}, snapshot_ppn="never")
    log = await storage.games.game_log(game_id)
    assert [e.payload for e in log.events] == [{"move": "2:H"}]
    assert log.game.snapshot_ppn == START_PPN  # nothing of the refused call was written


async def test_unique_constraint_guards_even_when_the_counter_is_wrong(backend: Backend) -> None:
    """The database's own UNIQUE(game_id, seq) guards the log even when last_seq lies."""
    storage = await backend.open()
    game_id = await running_duel(storage)
    await append(storage, game_id, 1, "move", {"move": "2:H"})
    await backend.raw(f"UPDATE games SET last_seq = 0 WHERE game_id = {game_id:d}")  # a corrupted counter
    with pytest.raises(DuplicateEvent):
        await append(storage, game_id, 1, "move", {"move": "3:H"})
    assert [e.payload for e in (await storage.games.game_log(game_id)).events] == [{"move": "2:H"}]


async def test_a_skipped_event_number_is_refused(storage: Storage) -> None:
    game_id = await running_duel(storage)
    with pytest.raises(EventGap):
        await append(storage, game_id, 2, "move", {"move": "2:H"})
    assert (await storage.games.game_log(game_id)).events == ()


async def test_unknown_event_kind_and_empty_appends_are_refused(storage: Storage) -> None:
    game_id = await running_duel(storage)
    with pytest.raises(UnknownEventKind):
        await append(storage, game_id, 1, "teleport", {})
    with pytest.raises(ValueError, match="at least one"):
        await storage.games.append_events(game_id, 1, [])
    assert (await storage.games.game_log(game_id)).events == ()


async def test_no_events_before_start_or_after_the_end(storage: Storage) -> None:
    lobby = await new_duel(storage)
    with pytest.raises(GameStateError):
        await append(storage, lobby, 1, "move", {"move": "2:H"})
    game_id = await running_duel(storage)
    await storage.games.cancel_game(game_id, {"by": "A1"})
    with pytest.raises(GameStateError):
        await append(storage, game_id, 2, "move", {"move": "2:H"})
    log = await storage.games.game_log(game_id)
    assert (log.game.status, log.game.end_reason, log.events[-1].kind) == ("cancelled", "cancelled", "cancel")
    assert log.events[-1].payload == {"by": "A1"} and log.game.finished_at is not None
    with pytest.raises(GameStateError, match="already cancelled"):
        await storage.games.cancel_game(game_id)


async def test_a_lobby_is_cancelled_without_an_event(storage: Storage) -> None:
    lobby = await new_duel(storage)
    await storage.games.cancel_game(lobby)
    log = await storage.games.game_log(lobby)
    assert (log.game.status, log.events, log.game.last_seq) == ("cancelled", (), 0)


async def test_finishing_records_result_kills_and_the_last_events(storage: Storage) -> None:
    game_id = await running_duel(storage)
    report = await storage.games.finish_game(
        game_id, winner="B", scores={"A": 2, "B": 5}, end_reason="resign", kills={"A1": 1, "B1": 4},
        events=[NewEvent("resign", {"seat": "A1"})], first_seq=1, snapshot_ppn=AFTER_PPN,
    )
    assert report.game_id == game_id and report.ladder == "duel"
    log = await storage.games.game_log(game_id)
    assert (log.game.status, log.game.winner, log.game.scores, log.game.end_reason) == (
        "finished", "B", {"A": 2, "B": 5}, "resign"
    )
    assert (log.game.seat("A1").kills, log.game.seat("B1").kills, log.game.turn_deadline) == (1, 4, None)
    assert [(e.seq, e.kind) for e in log.events] == [(1, "resign")]
    assert (log.game.snapshot_ppn, log.game.snapshot_seq) == (AFTER_PPN, 1)
    with pytest.raises(GameStateError, match="finished"):
        await storage.games.finish_game(game_id, winner="A", scores={}, end_reason="normal")


@pytest.mark.parametrize(
    ("winner", "end_reason"), [("C", "normal"), ("A", "cancelled"), ("A", "abandoned")]
)
async def test_a_finish_that_makes_no_sense_is_refused(storage: Storage, winner: str, end_reason: str) -> None:
    game_id = await running_duel(storage)
    with pytest.raises(ValueError, match=r"winner is|end_reason is"):
        await storage.games.finish_game(game_id, winner=winner, scores={}, end_reason=end_reason)  # type: ignore[arg-type]
    assert (await storage.games.get_game(game_id)).status == "running"


async def test_two_racing_clicks_apply_once(storage: Storage) -> None:
    game_id = await running_duel(storage)
    results = await asyncio.gather(
        *(append(storage, game_id, 1, "move", {"move": f"{n}:H"}) for n in range(1, 6)),
        return_exceptions=True,
    )
    assert sum(not isinstance(r, BaseException) for r in results) == 1
    assert all(isinstance(r, DuplicateEvent) for r in results if isinstance(r, BaseException))
    assert len((await storage.games.game_log(game_id)).events) == 1


async def test_open_games_returns_lobbies_and_running_games_with_logs(storage: Storage) -> None:
    lobby = await new_duel(storage)
    running = await running_duel(storage)
    done = await running_duel(storage)
    await append(storage, running, 1, "throw", {"throw": [2], "faces": ["1100"]})
    await storage.games.cancel_game(done)
    logs = {log.game.game_id: log for log in await storage.games.open_games()}
    assert set(logs) == {lobby, running}
    assert [e.kind for e in logs[running].events] == ["throw"]
    assert [s.seat for s in logs[lobby].game.seats] == ["A1", "B1"]


async def test_seats_change_hands_only_in_the_lobby(storage: Storage) -> None:
    lobby = await new_duel(storage)
    await storage.games.set_seat(lobby, SeatSpec("B1", "AI", ai_level=3))
    await storage.games.set_seat(lobby, SeatSpec("A2", "Cy", user_id=3))
    await storage.games.remove_seat(lobby, "A1")
    assert [(s.seat, s.user_id, s.ai_level) for s in (await storage.games.get_game(lobby)).seats] == [
        ("B1", None, 3), ("A2", 3, None)
    ]
    game_id = await running_duel(storage)
    with pytest.raises(GameStateError, match="lobby"):
        await storage.games.set_seat(game_id, SeatSpec("B1", "AI", ai_level=3))
    with pytest.raises(GameStateError, match="lobby"):
        await storage.games.remove_seat(game_id, "B1")


async def test_counts_say_how_many_games_and_players(storage: Storage) -> None:
    assert (await storage.counts()).games == 0
    await new_duel(storage)
    await running_duel(storage)
    counts = await storage.counts()
    assert (counts.games, counts.players) == (2, 2)
    assert await storage.integrity_check() == "ok"
