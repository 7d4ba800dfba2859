"""The round engine: opening a round and its matches' rooms and games, recording results, the round's time
limit, and moving on to the next round or the end.

Every step takes the tournament as it is, writes what changes to the store first, and returns the new
value, appending what happened to `happenings`; the manager runs the steps under the tournament's lock and
keeps the result. When the time limit passes, a match nobody started is forfeited by both players, and a game
still running is stopped and adjudicated by the hard AI's chance to win from its position. This module must
never import discord or read settings.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace

from bot.sessions.errors import GameNotOpen, GameOver
from bot.sessions.manager import SessionManager
from bot.sessions.results import ActionResult
from bot.sessions.state import GameOptions, GameState, Player
from bot.tournaments import formats
from bot.tournaments.ports import Adjudicator, MatchRooms, RoomUnavailable, TournamentRecords
from bot.tournaments.results import (
    MatchDecided,
    MatchOpened,
    RoundStarted,
    TournamentFinished,
    TournamentHappening,
)
from bot.tournaments.types import DecidedBy, Match, Outcome, Tournament

log = logging.getLogger(__name__)

Happenings = list[TournamentHappening]


def game_outcome(state: GameState) -> Outcome:
    """A finished match game's result: player a sits in A1, player b in B1."""
    if state.winner == "A":
        return "a"
    if state.winner == "B":
        return "b"
    return "draw"


def adjudicated(chance_a: float) -> Outcome:
    return "a" if chance_a > 0.5 else "b" if chance_a < 0.5 else "draw"


class Rounds:
    """The steps of a running tournament; stateless apart from its collaborators."""

    def __init__(self, records: TournamentRecords, games: SessionManager, rooms: MatchRooms, adjudicator: Adjudicator,
                 clock: Callable[[], float]) -> None:
        self._records = records
        self._games = games
        self._rooms = rooms
        self._adjudicator = adjudicator
        self._clock = clock

    async def open_round(self, tournament: Tournament, round_no: int, happenings: Happenings) -> Tournament:
        """Pair round `round_no`, decide its byes and start its clock (rooms open in `open_rooms`)."""
        matches = tuple(
            Match(round_no, board, p.a, p.b, outcome="a" if p.b is None else None,
                  decided_by="bye" if p.b is None else None)
            for board, p in enumerate(formats.pairings(tournament, round_no), start=1)
        )
        deadline = self._clock() + tournament.settings.round_seconds
        await self._records.add_round(tournament.tournament_id, round_no, matches, deadline)
        happenings.append(RoundStarted(round_no))
        return replace(tournament, round=round_no, round_deadline=deadline, matches=tournament.matches + matches)

    async def open_rooms(self, tournament: Tournament, happenings: Happenings) -> tuple[Tournament, bool]:
        """Open a room and a game for every undecided match of the round that has none yet; False when a room
        could not be opened (the caller tries again later)."""
        for match in tournament.round_matches(tournament.round):
            if match.decided or match.game_id is not None:
                continue
            try:
                place = await self._rooms.open_room(tournament, match)
            except RoomUnavailable as exc:
                log.warning("tournament %d: no room for round %d board %d yet: %s", tournament.tournament_id,
                            match.round, match.board, exc)
                return tournament, False
            assert match.b is not None  # byes are decided when their round opens
            a, b = tournament.entrant(match.a), tournament.entrant(match.b)
            if a.user_id is None or b.user_id is None:  # a player who asked to be forgotten cannot play
                tournament = await self.decide(tournament, match, "b" if a.user_id is None else "a", "forfeit",
                                               happenings)
                continue
            settings = tournament.settings
            options = GameOptions(settings.variant, 1, settings.setup, settings.ranked, settings.turn_timer_seconds)
            players = (Player(a.user_id, a.display_name), Player(b.user_id, b.display_name))
            opened = await self._games.open_match(players, place, options, tournament.tournament_id)
            await self._records.set_match_game(tournament.tournament_id, match.round, match.board,
                                             game_id=opened.game_id, thread_id=place.channel_id)
            placed = replace(match, game_id=opened.game_id, thread_id=place.channel_id)
            tournament = _with_match(tournament, placed)
            happenings.append(MatchOpened(placed, opened))
        return tournament, True

    async def decide(
        self,
        tournament: Tournament,
        match: Match,
        outcome: Outcome,
        decided_by: DecidedBy,
        happenings: Happenings,
        chance_a: float | None = None,
        stopped: ActionResult | None = None,
    ) -> Tournament:
        """Record a match's result (once: a result already recorded stays)."""
        if not await self._records.decide_match(tournament.tournament_id, match.round, match.board, outcome=outcome,
                                              decided_by=decided_by, chance_a=chance_a):
            return tournament
        decided = replace(match, outcome=outcome, decided_by=decided_by, chance_a=chance_a)
        happenings.append(MatchDecided(decided, stopped))
        return _with_match(tournament, decided)

    async def reconcile(self, tournament: Tournament, happenings: Happenings) -> Tournament:
        """Record the results of match games that ended without the tournament hearing of it (while the bot
        was down, or when telling it failed)."""
        for match in tournament.round_matches(tournament.round):
            if match.decided or match.game_id is None:
                continue
            try:
                self._games.get(match.game_id)
                continue  # still being played
            except GameNotOpen:
                state = await self._games.finished_state(match.game_id)
            tournament = await self._record_ended(tournament, match, state, happenings)
        return tournament

    async def _record_ended(
        self, tournament: Tournament, match: Match, state: GameState, happenings: Happenings
    ) -> Tournament:
        if state.status == "finished":
            return await self.decide(tournament, match, game_outcome(state), "game", happenings)
        # Only the tournament calls a match game off, and it records the result first; anything else (a game
        # that vanished) counts as a match nobody played.
        log.warning("tournament %d: game %d of round %d was %s without a result", tournament.tournament_id,
                    state.game_id, match.round, state.status)
        return await self.decide(tournament, match, "none", "forfeit", happenings)

    async def time_up(self, tournament: Tournament, happenings: Happenings) -> Tournament:
        """The round's time limit passed: forfeit the matches nobody started, adjudicate the games running."""
        for match in tournament.round_matches(tournament.round):
            if match.decided:
                continue
            if match.game_id is None:
                tournament = await self.decide(tournament, match, "none", "forfeit", happenings)
                continue
            try:
                stopped = await self._games.get(match.game_id).call_off()
            except (GameNotOpen, GameOver):
                # It ended a moment ago: its own result stands.
                ended = await self._games.finished_state(match.game_id)
                tournament = await self._record_ended(tournament, match, ended, happenings)
                continue
            before = stopped.previous
            if before is None or before.status == "lobby" or before.position is None:
                tournament = await self.decide(tournament, match, "none", "forfeit", happenings, stopped=stopped)
                continue
            chance = await self._adjudicator(before)
            tournament = await self.decide(tournament, match, adjudicated(chance), "adjudication", happenings,
                                           chance_a=chance, stopped=stopped)
        return tournament

    async def advance(self, tournament: Tournament, happenings: Happenings) -> Tournament:
        """Once the round is decided: the next round, or the end with its winner."""
        while tournament.status == "running" and formats.round_decided(tournament, tournament.round):
            if tournament.round >= (tournament.rounds or 0):
                await self._records.finish_tournament(tournament.tournament_id)
                happenings.append(TournamentFinished(formats.winner(tournament)))
                return replace(tournament, status="finished", round_deadline=None, finished_at=self._clock())
            tournament = await self.open_round(tournament, tournament.round + 1, happenings)
        return tournament

    async def call_off_all(self, tournament: Tournament) -> None:
        """Stop every open match game (the tournament is being cancelled)."""
        for match in tournament.round_matches(tournament.round):
            if match.decided or match.game_id is None:
                continue
            try:
                await self._games.get(match.game_id).call_off()
            except (GameNotOpen, GameOver):
                continue  # already over


def _with_match(tournament: Tournament, changed: Match) -> Tournament:
    key = (changed.round, changed.board)
    return replace(tournament, matches=tuple(changed if (m.round, m.board) == key else m for m in tournament.matches))
