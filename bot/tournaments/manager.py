"""Every open tournament of the bot: creating, joining, leaving, starting and cancelling them, hearing the
results of their match games, and the one timer per tournament (its round's time limit, or a retry).

A tournament changes only under its own lock; each change is saved before it is kept, then told to the
listeners (the bot shows it). Results need no typing: the game sessions tell the manager when a match game
ends, and a tick after a restart picks up whatever ended meanwhile.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import replace

from bot.sessions.manager import SessionManager
from bot.sessions.state import GameOptions, GameState, Player
from bot.sessions.timers import DeadlineScheduler
from bot.storage.errors import AlreadyEntered, TournamentNotFound
from bot.storage.types import FORGOTTEN_NAME
from bot.tournaments import formats
from bot.tournaments.errors import (
    AlreadyInTournament,
    BadRoundLimit,
    BadTournamentName,
    NotInTournament,
    OrganiserOnly,
    TooFewEntrants,
    TooManyEntered,
    TooManyForOrganiser,
    TooManyTournaments,
    TournamentFull,
    TournamentNotOpen,
    TournamentStarted,
)
from bot.tournaments.ports import (
    DEFAULT_LIMITS,
    Adjudicator,
    MatchRooms,
    TournamentLimits,
    TournamentListener,
    TournamentRecords,
)
from bot.tournaments.results import (
    Created,
    EntrantJoined,
    EntrantLeft,
    TournamentCancelled,
    TournamentHappening,
    TournamentUpdate,
)
from bot.tournaments.rounds import Rounds, game_outcome
from bot.tournaments.types import Tournament, TournamentSettings

log = logging.getLogger(__name__)


class TournamentManager:
    """Owns every open tournament. Act on one through the methods here, by its id."""

    def __init__(
        self,
        records: TournamentRecords,
        games: SessionManager,
        *,
        rooms: MatchRooms,
        adjudicator: Adjudicator,
        clock: Callable[[], float] = time.time,
        limits: TournamentLimits = DEFAULT_LIMITS,
    ) -> None:
        self._records = records
        self._games = games
        self._clock = clock
        self.limits = limits
        self._rounds = Rounds(records, games, rooms, adjudicator, clock)
        self._open: dict[int, Tournament] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._create_lock = asyncio.Lock()
        self._listeners: list[TournamentListener] = []
        self._stopped = False
        self.deadlines = DeadlineScheduler(clock, self._tick)
        games.add_end_listener(self._game_ended)

    # -- lifecycle --------------------------------------------------------------------------------------

    async def load(self) -> int:
        """Rebuild every open tournament of this process's servers after the games are loaded: mark their match
        games, and tick each running one at once (to record what ended meanwhile and open any room still
        missing)."""
        for tournament in await self._records.open_tournaments(self._games.shards):
            if not self._games.owns(tournament.guild_id):
                continue  # another bot process runs this server's shard (the query left it out already)
            self._open[tournament.tournament_id] = tournament
            for match in tournament.matches:
                if match.game_id is not None and not match.decided:
                    session = self._games.find(match.game_id)  # by id: no scan of every session
                    if session is not None:
                        session.bind_tournament(tournament.tournament_id)
            if tournament.status == "running":
                self.deadlines.set(tournament.tournament_id, self._clock())
        log.info("reloaded %d open tournaments", len(self._open))
        return len(self._open)

    def start_timers(self) -> None:
        self.deadlines.start()

    async def stop_timers(self) -> None:
        """Stop the timer and stop hearing results (shutdown): what ends from now on, the next start's first
        tick records."""
        self._stopped = True
        await self.deadlines.stop()

    def add_listener(self, listener: TournamentListener) -> None:
        """`listener(update)` is awaited after every change of a tournament, whatever caused it."""
        self._listeners.append(listener)

    # -- finding ----------------------------------------------------------------------------------------

    def get(self, tournament_id: int) -> Tournament:
        """An open or running tournament; TournamentNotOpen otherwise."""
        found = self._open.get(tournament_id)
        if found is None:
            raise TournamentNotOpen(f"no open tournament {tournament_id}", tournament_id=tournament_id)
        return found

    def open_in(self, guild_id: int) -> tuple[Tournament, ...]:
        return tuple(t for t in self._open.values() if t.guild_id == guild_id)

    async def find(self, tournament_id: int, guild_id: int) -> Tournament:
        """Any tournament of this server, finished ones included."""
        found = self._open.get(tournament_id)
        if found is None:
            try:
                found = await self._records.tournament(tournament_id)
            except TournamentNotFound as exc:
                raise TournamentNotOpen(str(exc), tournament_id=tournament_id) from exc
        if found.guild_id != guild_id:
            raise TournamentNotOpen(f"tournament {tournament_id} is another server's", tournament_id=tournament_id)
        return found

    # -- the organiser and the players -------------------------------------------------------------------

    async def create(self, creator: Player, guild_id: int, channel_id: int,
                     settings: TournamentSettings) -> TournamentUpdate:
        settings = self._checked(settings)
        async with self._create_lock:
            here = self.open_in(guild_id)
            if len(here) >= self.limits.per_guild:
                raise TooManyTournaments(f"guild {guild_id} has {len(here)} open tournaments",
                                         limit=self.limits.per_guild)
            mine = [t for t in self._open.values() if t.creator_id == creator.user_id]
            if len(mine) >= self.limits.per_organiser:
                raise TooManyForOrganiser(f"user {creator.user_id} organises {len(mine)}",
                                          limit=self.limits.per_organiser)
            tournament_id = await self._records.create_tournament(
                guild_id=guild_id, channel_id=channel_id, creator_id=creator.user_id, settings=settings)
            tournament = await self._records.tournament(tournament_id)
            self._open[tournament_id] = tournament
        return await self._tell(tournament, [Created()])

    def _checked(self, settings: TournamentSettings) -> TournamentSettings:
        """The settings with the name's spaces tidied; BadTournamentName, BadRoundLimit or InvalidOptions."""
        name = " ".join(settings.name.split())
        limits = self.limits
        if not 1 <= len(name) <= limits.max_name:
            raise BadTournamentName(f"name of {len(name)} characters", limit=limits.max_name)
        if not limits.min_round_seconds <= settings.round_seconds <= limits.max_round_seconds:
            raise BadRoundLimit(f"round limit {settings.round_seconds} s", low=limits.min_round_seconds // 60,
                                high=limits.max_round_seconds // 3600)
        GameOptions(settings.variant, 1, settings.setup, settings.ranked, settings.turn_timer_seconds).rules()
        return replace(settings, name=name)

    async def join(self, tournament_id: int, player: Player) -> TournamentUpdate:
        async with self._lock(tournament_id):
            tournament = self._require_open(tournament_id)
            if tournament.entrant_of(player.user_id) is not None:
                raise AlreadyInTournament(f"user {player.user_id} is in tournament {tournament_id}")
            if len(tournament.entrants) >= formats.MAX_ENTRANTS:
                raise TournamentFull(f"tournament {tournament_id} is full", limit=formats.MAX_ENTRANTS)
            entered = [t for t in self._open.values() if t.entrant_of(player.user_id) is not None]
            if len(entered) >= self.limits.per_player:
                raise TooManyEntered(f"user {player.user_id} is in {len(entered)}", limit=self.limits.per_player)
            try:
                entrant = await self._records.join_tournament(tournament_id, player.user_id, player.name)
            except AlreadyEntered as exc:
                raise AlreadyInTournament(str(exc)) from exc
            tournament = replace(tournament, entrants=(*tournament.entrants, entrant))
            return await self._keep(tournament, [EntrantJoined(entrant)])

    async def leave(self, tournament_id: int, user_id: int) -> TournamentUpdate:
        async with self._lock(tournament_id):
            tournament = self._require_open(tournament_id)
            entrant = tournament.entrant_of(user_id)
            if entrant is None:
                raise NotInTournament(f"user {user_id} is not in tournament {tournament_id}")
            await self._records.leave_tournament(tournament_id, user_id)
            tournament = replace(tournament, entrants=tuple(e for e in tournament.entrants if e.user_id != user_id))
            return await self._keep(tournament, [EntrantLeft(entrant)])

    async def start(self, tournament_id: int, user_id: int, *, organiser: bool,
                    ratings: Mapping[int, int]) -> TournamentUpdate:
        """The organiser starts: entrants seeded by `ratings` (user id -> rating), round 1 paired and opened."""
        async with self._lock(tournament_id):
            tournament = self._require_open(tournament_id)
            self._require_organiser(tournament, user_id, organiser)
            count = len(tournament.entrants)
            if count < formats.MIN_ENTRANTS:
                raise TooFewEntrants(f"tournament {tournament_id} has {count}", count=formats.MIN_ENTRANTS)
            seeded = formats.seeded(tournament.entrants,
                                    {e.number: ratings[e.user_id] for e in tournament.entrants if e.user_id})
            rounds = formats.planned_rounds(tournament.settings.format, count)
            await self._records.start_tournament(tournament_id, entrants=seeded, rounds=rounds)
            tournament = replace(tournament, status="running", rounds=rounds,
                                 entrants=tuple(sorted(seeded, key=lambda e: e.number)))
            happenings: list[TournamentHappening] = []
            tournament = await self._rounds.open_round(tournament, 1, happenings)
            return await self._progress(tournament, happenings)

    async def cancel(self, tournament_id: int, user_id: int, *, organiser: bool) -> TournamentUpdate:
        """The organiser calls the whole tournament off: open match games stop, nothing more is played."""
        async with self._lock(tournament_id):
            tournament = self.get(tournament_id)
            self._require_organiser(tournament, user_id, organiser)
            await self._rounds.call_off_all(tournament)
            await self._records.cancel_tournament(tournament_id)
            tournament = replace(tournament, status="cancelled", round_deadline=None, finished_at=self._clock())
            return await self._keep(tournament, [TournamentCancelled(user_id)])

    async def close_where(self, *, guild_id: int | None = None, channel_id: int | None = None) -> int:
        """Call off the open tournaments of a server the bot left, or of a deleted channel: their match games
        stop and nothing more is played (each logged once). Returns how many were called off."""
        if (guild_id is None) == (channel_id is None):
            raise ValueError("close_where takes exactly one of guild_id or channel_id")
        doomed = [t.tournament_id for t in self._open.values()
                  if (t.guild_id == guild_id if guild_id is not None else t.channel_id == channel_id)]
        for tournament_id in doomed:
            async with self._lock(tournament_id):
                tournament = self._open.get(tournament_id)
                if tournament is None:
                    continue
                await self._rounds.call_off_all(tournament)
                await self._records.cancel_tournament(tournament_id)
                log.info("tournament %d called off: the bot lost its %s", tournament_id,
                         "server" if guild_id is not None else "channel")
                await self._keep(replace(tournament, status="cancelled", round_deadline=None,
                                         finished_at=self._clock()), [])
        return len(doomed)

    async def forget(self, user_id: int) -> list[TournamentUpdate]:
        """Forget-me's part in memory, once the storage has forgotten the member: the open tournaments they
        organise no longer name them, and any entry of theirs shows a former player. Each changed tournament
        is told to the listeners (its card no longer mentions them)."""
        updates: list[TournamentUpdate] = []
        for tournament_id in list(self._open):
            async with self._lock(tournament_id):
                tournament = self._open.get(tournament_id)
                if tournament is None:
                    continue
                mine = tournament.creator_id == user_id
                entered = tournament.entrant_of(user_id) is not None
                if not (mine or entered):
                    continue
                entrants = tuple(replace(e, user_id=None, display_name=FORGOTTEN_NAME) if e.user_id == user_id
                                 else e for e in tournament.entrants)
                tournament = replace(tournament, creator_id=None if mine else tournament.creator_id,
                                     entrants=entrants)
                updates.append(await self._keep(tournament, []))
        return updates

    async def set_message(self, tournament_id: int, message_id: int | None) -> None:
        """Remember the announcement message that carries the tournament's buttons."""
        async with self._lock(tournament_id):
            await self._records.set_tournament_message(tournament_id, message_id)
            found = self._open.get(tournament_id)
            if found is not None:
                self._open[tournament_id] = replace(found, message_id=message_id)

    # -- results and time -------------------------------------------------------------------------------

    async def _game_ended(self, state: GameState) -> None:
        tournament_id = state.tournament_id
        if tournament_id is None or state.status != "finished" or self._stopped:
            return  # a casual game, or one the tournament itself called off (its result is recorded already)
        async with self._lock(tournament_id):
            tournament = self._open.get(tournament_id)
            match = tournament.match_of_game(state.game_id) if tournament is not None else None
            if tournament is None or match is None or match.decided or tournament.status != "running":
                return
            happenings: list[TournamentHappening] = []
            tournament = await self._rounds.decide(tournament, match, game_outcome(state), "game", happenings)
            await self._progress(tournament, happenings)

    async def _tick(self, tournament_id: int) -> None:
        async with self._lock(tournament_id):
            tournament = self._open.get(tournament_id)
            if tournament is None or tournament.status != "running":
                return
            happenings: list[TournamentHappening] = []
            tournament = await self._rounds.reconcile(tournament, happenings)
            if tournament.round_deadline is not None and tournament.round_deadline <= self._clock():
                tournament = await self._rounds.time_up(tournament, happenings)
            await self._progress(tournament, happenings)

    async def fire_due(self) -> list[int]:
        """Fire every tournament timer that has passed now (one pass of the timer loop; tests call this)."""
        return await self.deadlines.run_due()

    # -- internals --------------------------------------------------------------------------------------

    async def _progress(self, tournament: Tournament, happenings: list[TournamentHappening]) -> TournamentUpdate:
        """After a result or a new round: move on while rounds are decided, open the rooms, set the timer."""
        tournament = await self._rounds.advance(tournament, happenings)
        rooms_open = True
        if tournament.status == "running":
            tournament, rooms_open = await self._rounds.open_rooms(tournament, happenings)
            # A match can be decided while its room opens (a forgotten player): move on again if so.
            tournament = await self._rounds.advance(tournament, happenings)
        if tournament.status == "running" and tournament.round_deadline is not None:
            retry = self._clock() + self.limits.room_retry_seconds
            self.deadlines.set(tournament.tournament_id,
                               tournament.round_deadline if rooms_open else min(retry, tournament.round_deadline))
        return await self._keep(tournament, happenings)

    async def _keep(self, tournament: Tournament, happenings: list[TournamentHappening]) -> TournamentUpdate:
        if tournament.is_open:
            self._open[tournament.tournament_id] = tournament
        else:
            self._open.pop(tournament.tournament_id, None)
            self.deadlines.set(tournament.tournament_id, None)
        return await self._tell(tournament, happenings)

    async def _tell(self, tournament: Tournament, happenings: list[TournamentHappening]) -> TournamentUpdate:
        update = TournamentUpdate(tournament, tuple(happenings))
        for listener in self._listeners:
            try:
                await listener(update)
            except Exception:
                # Showing it failed (the chat service is down); the tournament itself moved on and is saved.
                log.exception("a listener failed to show tournament %d", tournament.tournament_id)
        return update

    def _lock(self, tournament_id: int) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    def _require_open(self, tournament_id: int) -> Tournament:
        tournament = self.get(tournament_id)
        if tournament.status != "open":
            raise TournamentStarted(f"tournament {tournament_id} is {tournament.status}")
        return tournament

    @staticmethod
    def _require_organiser(tournament: Tournament, user_id: int, organiser: bool) -> None:
        if not organiser and user_id != tournament.creator_id:
            raise OrganiserOnly(f"user {user_id} does not organise tournament {tournament.tournament_id}")
