"""The tournament flow in the session layer: entering, starting, rooms and match games opened for each round,
results fed back from the games themselves, the round's time limit (forfeit and adjudication), the end, and a
restart in the middle. On SQLite."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from bot.sessions import GameState, Player, SessionManager
from bot.sessions.errors import NotAPlayer, TournamentMatch
from bot.sessions.state import Place
from bot.storage import Storage
from bot.tournaments.errors import (
    AlreadyInTournament,
    BadRoundLimit,
    NotInTournament,
    OrganiserOnly,
    TooFewEntrants,
    TooManyForOrganiser,
    TooManyTournaments,
    TournamentStarted,
)
from bot.tournaments.manager import TournamentManager
from bot.tournaments.ports import RoomUnavailable
from bot.tournaments.results import MatchDecided, MatchOpened, TournamentFinished, TournamentUpdate
from bot.tournaments.standings import table
from bot.tournaments.types import Match, Tournament, TournamentFormat, TournamentSettings
from tests.helpers import FakeClock, RandomPicker, make_manager

GUILD, CHANNEL = 9, 500
PLAYERS = [Player(101 + i, name) for i, name in enumerate(["alice", "bob", "carol", "dave", "eve", "fay", "gus",
                                                            "hal"])]
HOUR = 3600


@dataclass
class Rooms:
    """Stands in for the threads: a new channel id per match, or a refusal while `down`."""

    opened: list[tuple[int, int, int]] = field(default_factory=list)
    down: bool = False

    async def open_room(self, tournament: Tournament, match: Match) -> Place:
        if self.down:
            raise RoomUnavailable("no threads today")
        self.opened.append((tournament.tournament_id, match.round, match.board))
        return Place(GUILD, 10_000 + len(self.opened), in_thread=True)


@dataclass
class Verdicts:
    """Stands in for the hard AI's adjudication: team A's chance, and the positions it was asked about."""

    chance: float = 0.8
    asked: list[int] = field(default_factory=list)

    async def __call__(self, state: GameState) -> float:
        assert state.status == "running" and state.position is not None
        self.asked.append(state.game_id)
        return self.chance


@pytest.fixture
def rooms() -> Rooms:
    return Rooms()


@pytest.fixture
def verdicts() -> Verdicts:
    return Verdicts()


@pytest.fixture
def tournaments(storage: Storage, manager: SessionManager, clock: FakeClock, rooms: Rooms,
                verdicts: Verdicts) -> TournamentManager:
    return TournamentManager(storage.tournaments, manager, rooms=rooms, adjudicator=verdicts, clock=clock)


def settings(format: TournamentFormat, round_hours: int = 24) -> TournamentSettings:
    return TournamentSettings("Spring cup", format, "bell", None, 600, round_hours * HOUR, False)


async def entered(tournaments: TournamentManager, format: TournamentFormat, players: int,
                  round_hours: int = 24) -> int:
    created = await tournaments.create(PLAYERS[0], GUILD, CHANNEL, settings(format, round_hours))
    tournament_id = created.tournament.tournament_id
    for player in PLAYERS[:players]:
        await tournaments.join(tournament_id, player)
    return tournament_id


def ratings(best_first: list[Player]) -> dict[int, int]:
    return {p.user_id: 2000 - 10 * i for i, p in enumerate(best_first)}


async def finish_match(manager: SessionManager, state: GameState, *, loser_seat: str) -> None:
    """Start a match game (by its B player) and let `loser_seat`'s player resign."""
    session = manager.get(state.game_id)
    b = session.state.seat("B1")
    assert b is not None and b.user_id is not None
    if session.state.status == "lobby":
        await session.start(b.user_id, manager.seeds())
    loser = session.state.seat(loser_seat)
    assert loser is not None and loser.user_id is not None
    await session.resign(loser.user_id)
    await manager.settled()


def open_games(tournaments: TournamentManager, tournament_id: int) -> list[int]:
    tournament = tournaments.get(tournament_id)
    return [m.game_id for m in tournament.round_matches(tournament.round) if not m.decided and m.game_id]


async def test_entering_and_the_refusals_before_the_start(tournaments: TournamentManager) -> None:
    tournament_id = await entered(tournaments, "round_robin", 2)
    with pytest.raises(AlreadyInTournament):
        await tournaments.join(tournament_id, PLAYERS[1])
    with pytest.raises(NotInTournament):
        await tournaments.leave(tournament_id, PLAYERS[5].user_id)
    with pytest.raises(TooFewEntrants):
        await tournaments.start(tournament_id, PLAYERS[0].user_id, organiser=False, ratings=ratings(PLAYERS))
    await tournaments.join(tournament_id, PLAYERS[2])
    with pytest.raises(OrganiserOnly):
        await tournaments.start(tournament_id, PLAYERS[1].user_id, organiser=False, ratings=ratings(PLAYERS))
    left = await tournaments.leave(tournament_id, PLAYERS[2].user_id)
    assert [e.display_name for e in left.tournament.entrants] == ["alice", "bob"]
    await tournaments.join(tournament_id, PLAYERS[3])
    started = await tournaments.start(tournament_id, PLAYERS[4].user_id, organiser=True, ratings=ratings(PLAYERS))
    assert started.tournament.status == "running" and started.tournament.round == 1
    with pytest.raises(TournamentStarted):
        await tournaments.join(tournament_id, PLAYERS[5])
    with pytest.raises(TournamentStarted):
        await tournaments.leave(tournament_id, PLAYERS[1].user_id)


async def test_open_tournaments_are_limited_per_server_and_per_organiser(tournaments: TournamentManager) -> None:
    await tournaments.create(PLAYERS[0], GUILD, CHANNEL, settings("swiss"))
    with pytest.raises(TooManyForOrganiser):
        await tournaments.create(PLAYERS[0], GUILD, CHANNEL, settings("swiss"))
    await tournaments.create(PLAYERS[1], GUILD, CHANNEL, settings("swiss"))
    await tournaments.create(PLAYERS[2], GUILD, CHANNEL, settings("swiss"))
    with pytest.raises(TooManyTournaments):
        await tournaments.create(PLAYERS[3], GUILD, CHANNEL, settings("swiss"))
    await tournaments.create(PLAYERS[3], GUILD + 1, CHANNEL, settings("swiss"))  # another server has room
    with pytest.raises(BadRoundLimit):
        await tournaments.create(PLAYERS[4], GUILD + 1, CHANNEL, settings("swiss", round_hours=24 * 30))


async def test_a_round_robin_of_four_plays_through_with_results_fed_back(
    tournaments: TournamentManager, manager: SessionManager, rooms: Rooms
) -> None:
    seen: list[TournamentUpdate] = []

    async def listen(update: TournamentUpdate) -> None:
        seen.append(update)

    tournaments.add_listener(listen)
    tournament_id = await entered(tournaments, "round_robin", 4)
    await tournaments.start(tournament_id, PLAYERS[0].user_id, organiser=False, ratings=ratings(PLAYERS))
    for round_no in (1, 2, 3):
        tournament = tournaments.get(tournament_id)
        assert tournament.round == round_no and len(rooms.opened) == 2 * round_no
        for game_id in open_games(tournaments, tournament_id):
            state = manager.get(game_id).state
            assert state.tournament_id == tournament_id and state.status == "lobby" and state.host_id is None
            await finish_match(manager, state, loser_seat="B1")  # A wins every game
    assert tournament_id not in [t.tournament_id for t in tournaments.open_in(GUILD)]
    finished = seen[-1].tournament
    assert finished.status == "finished" and all(m.decided_by == "game" for m in finished.matches)
    (winner,) = [h for h in seen[-1].happenings if isinstance(h, TournamentFinished)]
    assert winner.winner == table(finished)[0].entrant
    assert sum(1 for u in seen for h in u.happenings if isinstance(h, MatchOpened)) == 6
    assert sum(1 for u in seen for h in u.happenings if isinstance(h, MatchDecided)) == 6


async def test_match_games_are_started_by_either_player_and_cannot_be_left_or_cancelled(
    tournaments: TournamentManager, manager: SessionManager
) -> None:
    tournament_id = await entered(tournaments, "round_robin", 3)
    await tournaments.start(tournament_id, PLAYERS[0].user_id, organiser=False, ratings=ratings(PLAYERS))
    (game_id,) = open_games(tournaments, tournament_id)
    session = manager.get(game_id)
    a = session.state.seat("A1")
    assert a is not None and a.user_id is not None
    outsider = next(p for p in PLAYERS[:3] if p.user_id not in session.state.humans)
    with pytest.raises(NotAPlayer):
        await session.start(outsider.user_id, 1)
    with pytest.raises(TournamentMatch):
        await session.leave(a.user_id)
    with pytest.raises(TournamentMatch):
        await session.cancel(outsider.user_id, moderator=True)
    started = await session.start(a.user_id, 1)
    assert started.state.status == "running"


async def test_time_limit_forfeits_the_unstarted_match_and_adjudicates_the_running_one(
    tournaments: TournamentManager, manager: SessionManager, clock: FakeClock, verdicts: Verdicts
) -> None:
    tournament_id = await entered(tournaments, "swiss", 4, round_hours=2)
    await tournaments.start(tournament_id, PLAYERS[0].user_id, organiser=False, ratings=ratings(PLAYERS))
    running, idle = open_games(tournaments, tournament_id)
    session = manager.get(running)
    b = session.state.seat("B1")
    assert b is not None and b.user_id is not None
    await session.start(b.user_id, 5)
    clock.advance(2 * HOUR - 1)
    assert await tournaments.fire_due() == []
    clock.advance(2)
    await tournaments.fire_due()
    await manager.settled()
    tournament = tournaments.get(tournament_id)
    first = {m.game_id: m for m in tournament.round_matches(1)}
    assert (first[idle].outcome, first[idle].decided_by) == ("none", "forfeit")
    assert (first[running].outcome, first[running].decided_by, first[running].chance_a) == ("a", "adjudication", 0.8)
    assert verdicts.asked == [running]
    assert manager.in_channel(session.state.place.channel_id) is None  # both games were called off
    assert tournament.round == 2  # and the second round is on


async def test_a_restart_in_the_middle_picks_up_a_result_that_came_while_down(
    storage: Storage, manager: SessionManager, clock: FakeClock, rooms: Rooms, verdicts: Verdicts,
    tournaments: TournamentManager,
) -> None:
    tournament_id = await entered(tournaments, "single_elimination", 5)
    await tournaments.start(tournament_id, PLAYERS[0].user_id, organiser=False, ratings=ratings(PLAYERS))
    (game_id,) = open_games(tournaments, tournament_id)  # seeds 4 v 5; seeds 1 to 3 have byes
    # The bot goes down while the game is played to its end (nobody tells the old tournament manager).
    await tournaments.stop_timers()
    session = manager.get(game_id)
    a = session.state.seat("A1")
    assert a is not None and a.user_id is not None
    await session.start(a.user_id, 3)
    await session.resign(a.user_id)  # seed 4 resigns: seed 5 goes through
    restarted = make_manager(storage.games, clock, RandomPicker(), seed=900)
    await restarted.load()
    again = TournamentManager(storage.tournaments, restarted, rooms=rooms, adjudicator=verdicts, clock=clock)
    assert await again.load() == 1
    await again.fire_due()
    tournament = again.get(tournament_id)
    (first,) = [m for m in tournament.round_matches(1) if m.b is not None]
    assert first.decided_by == "game" and tournament.round == 2
    seeds = {e.number: e.seed for e in tournament.entrants}
    assert sorted((seeds[m.a], seeds[m.b or 0]) for m in tournament.round_matches(2)) == [(1, 5), (2, 3)]
    for game in open_games(again, tournament_id):
        assert restarted.get(game).state.tournament_id == tournament_id


async def test_a_room_that_cannot_open_is_tried_again(
    tournaments: TournamentManager, rooms: Rooms, clock: FakeClock
) -> None:
    tournament_id = await entered(tournaments, "round_robin", 3)
    rooms.down = True
    await tournaments.start(tournament_id, PLAYERS[0].user_id, organiser=False, ratings=ratings(PLAYERS))
    assert open_games(tournaments, tournament_id) == []
    rooms.down = False
    clock.advance(tournaments.limits.room_retry_seconds)
    await tournaments.fire_due()
    assert len(open_games(tournaments, tournament_id)) == 1


async def test_cancelling_calls_off_the_match_games(
    tournaments: TournamentManager, manager: SessionManager
) -> None:
    tournament_id = await entered(tournaments, "round_robin", 4)
    await tournaments.start(tournament_id, PLAYERS[0].user_id, organiser=False, ratings=ratings(PLAYERS))
    games = open_games(tournaments, tournament_id)
    with pytest.raises(OrganiserOnly):
        await tournaments.cancel(tournament_id, PLAYERS[1].user_id, organiser=False)
    cancelled = await tournaments.cancel(tournament_id, PLAYERS[0].user_id, organiser=False)
    assert cancelled.tournament.status == "cancelled" and tournaments.open_in(GUILD) == ()
    assert manager.sessions == ()
    assert [(await manager.finished_state(g)).status for g in games] == ["cancelled", "cancelled"]
