"""The tournaments' contract, for every backend: entering, seeding, rounds, results recorded once, the state
each write needs, forget-me, a lobby's seats replaced at once, and everything read back after a reopen."""

from __future__ import annotations

import pytest

from bot.storage import Storage
from bot.storage.errors import (
    AlreadyEntered,
    GameStateError,
    PlayerInOpenGame,
    TournamentNotFound,
    TournamentStateError,
)
from bot.storage.types import FORGOTTEN_NAME, SeatSpec
from bot.tournaments.types import Entrant, Match, TournamentSettings
from tests.bot.storage.backends import Backend
from tests.helpers import FakeClock

SETTINGS = TournamentSettings("Spring cup", "swiss", "bell", None, 600, 86_400, True)


async def entered(storage: Storage, players: int = 3) -> int:
    tournament_id = await storage.tournaments.create_tournament(guild_id=9, channel_id=500, creator_id=101,
                                                  settings=SETTINGS)
    for n in range(1, players + 1):
        await storage.tournaments.join_tournament(tournament_id, 100 + n, f"p{n}")
    return tournament_id


async def test_entrants_are_numbered_in_the_order_they_join_and_enter_once(storage: Storage) -> None:
    tournament_id = await entered(storage)
    with pytest.raises(AlreadyEntered):
        await storage.tournaments.join_tournament(tournament_id, 102, "p2 again")
    await storage.tournaments.leave_tournament(tournament_id, 102)
    late = await storage.tournaments.join_tournament(tournament_id, 104, "p4")
    found = await storage.tournaments.tournament(tournament_id)
    assert [(e.number, e.user_id) for e in found.entrants] == [(1, 101), (3, 103), (4, 104)]
    assert late.number == 4 and found.status == "open" and found.settings == SETTINGS


async def test_a_started_tournament_takes_no_entrants_and_keeps_its_seeds(storage: Storage) -> None:
    tournament_id = await entered(storage)
    seeded = [Entrant(1, 101, "p1", 1600, 2), Entrant(2, 102, "p2", 1700, 1), Entrant(3, 103, "p3", 1500, 3)]
    await storage.tournaments.start_tournament(tournament_id, entrants=seeded, rounds=2)
    with pytest.raises(TournamentStateError):
        await storage.tournaments.join_tournament(tournament_id, 105, "late")
    with pytest.raises(TournamentStateError):
        await storage.tournaments.leave_tournament(tournament_id, 101)
    found = await storage.tournaments.tournament(tournament_id)
    assert found.status == "running" and found.rounds == 2
    assert [(e.seed, e.rating) for e in found.entrants] == [(2, 1600), (1, 1700), (3, 1500)]


async def test_rounds_follow_each_other_and_a_result_is_recorded_once(storage: Storage, clock: FakeClock) -> None:
    tournament_id = await entered(storage)
    await storage.tournaments.start_tournament(tournament_id, entrants=[], rounds=2)
    matches = [Match(1, 1, 1, 2), Match(1, 2, 3, None, outcome="a", decided_by="bye")]
    with pytest.raises(TournamentStateError):
        await storage.tournaments.add_round(tournament_id, 2, matches, clock.now + 60)
    await storage.tournaments.add_round(tournament_id, 1, matches, clock.now + 60)
    game_id = await storage.games.create_game(guild_id=9, channel_id=900, host_id=None, variant="bell", rules={},
                                      turn_timer_seconds=60)
    await storage.tournaments.set_match_game(tournament_id, 1, 1, game_id=game_id, thread_id=900)
    assert await storage.tournaments.decide_match(tournament_id, 1, 1, outcome="b", decided_by="adjudication",
                                    chance_a=0.25)
    assert not await storage.tournaments.decide_match(tournament_id, 1, 1, outcome="a", decided_by="game")
    found = await storage.tournaments.tournament(tournament_id)
    assert found.round == 1 and found.round_deadline == clock.now + 60
    assert found.matches == (Match(1, 1, 1, 2, game_id, 900, "b", "adjudication", 0.25),
                             Match(1, 2, 3, None, outcome="a", decided_by="bye"))
    assert found.match_of_game(game_id) == found.matches[0]


async def test_finished_and_cancelled_tournaments_leave_the_open_list(storage: Storage) -> None:
    first = await entered(storage)
    second = await entered(storage)
    await storage.tournaments.start_tournament(first, entrants=[], rounds=1)
    await storage.tournaments.finish_tournament(first)
    assert [t.tournament_id for t in await storage.tournaments.open_tournaments()] == [second]
    await storage.tournaments.cancel_tournament(second)
    with pytest.raises(TournamentStateError):
        await storage.tournaments.cancel_tournament(second)
    assert await storage.tournaments.open_tournaments() == ()
    latest = await storage.tournaments.guild_tournaments(9)
    assert [(t.tournament_id, t.status) for t in latest] == [(second, "cancelled"), (first, "finished")]
    with pytest.raises(TournamentNotFound):
        await storage.tournaments.tournament(999)


async def test_a_tournament_reads_back_the_same_after_reopening(backend: Backend, clock: FakeClock) -> None:
    first = await backend.open()
    tournament_id = await entered(first)
    await first.tournaments.start_tournament(tournament_id, entrants=[Entrant(1, 101, "p1", 1500, 1)], rounds=3)
    await first.tournaments.add_round(tournament_id, 1, [Match(1, 1, 1, 2), Match(1, 2, 3, None, outcome="a",
                                                                        decided_by="bye")], clock.now + 5)
    await first.tournaments.set_tournament_message(tournament_id, 4242)
    before = await first.tournaments.tournament(tournament_id)
    second = await backend.open()
    assert await second.tournaments.open_tournaments() == (before,)
    assert before.message_id == 4242 and before.round_deadline == clock.now + 5


async def test_forget_me_waits_for_open_tournaments_then_anonymises_the_entries(storage: Storage) -> None:
    tournament_id = await entered(storage)
    with pytest.raises(PlayerInOpenGame):
        await storage.players.forget_me(102)
    await storage.tournaments.cancel_tournament(tournament_id)
    await storage.players.forget_me(101)  # the creator, and an entrant
    found = await storage.tournaments.tournament(tournament_id)
    assert found.creator_id is None
    assert [(e.user_id, e.display_name) for e in found.entrants] == [(None, FORGOTTEN_NAME), (102, "p2"),
                                                                      (103, "p3")]


async def test_a_lobby_s_seats_are_replaced_together(storage: Storage) -> None:
    game_id = await storage.games.create_game(
        guild_id=9, channel_id=20, host_id=1, variant="bell", rules={"team_size": 2}, turn_timer_seconds=60,
        seats=[SeatSpec("A1", "a", user_id=1), SeatSpec("B1", "b", user_id=2), SeatSpec("A2", "c", user_id=3),
               SeatSpec("B2", "AI", ai_level=3)],
    )
    await storage.games.set_seats(game_id, [SeatSpec("A1", "a", user_id=1), SeatSpec("B1", "c", user_id=3),
                                    SeatSpec("A2", "AI", ai_level=3), SeatSpec("B2", "b", user_id=2)])
    seats = (await storage.games.game_log(game_id)).game.seats
    assert [(s.seat, s.user_id, s.ai_level) for s in seats] == [("A1", 1, None), ("B1", 3, None),
                                                                ("A2", None, 3), ("B2", 2, None)]
    await storage.games.start_game(game_id, first_team="A", throw_off=[], seed=1, snapshot_ppn="x",
                           turn_deadline=None)
    with pytest.raises(GameStateError):
        await storage.games.set_seats(game_id, [SeatSpec("A1", "b", user_id=2)])
