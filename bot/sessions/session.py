"""One game's session: takes actions (join, start, move, resign, a deadline passing...) and returns results.

Every action runs under the game's lock: check it is allowed, build the new state, save it (one
transaction: the move, the next player's automatic throw and any passed turns together), and only then
swap the new state in, so a failed save changes nothing. A refused action raises a `SessionError` naming
the message key the cogs show.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from bot.seeds import ai_rng
from bot.sessions.checks import (
    free_seat,
    mover,
    rearranged,
    require_lobby,
    require_running,
    require_starter,
    seat_for_newcomer,
    with_seat,
)
from bot.sessions.errors import (
    GameOver,
    HintNotAllowed,
    HostOnly,
    IllegalMoveError,
    MoveNotSaved,
    NotAPlayer,
    NotInvited,
    NotSaved,
    SeatsEmpty,
    StaleAction,
    TournamentMatch,
    UnreadableMove,
)
from bot.sessions.play import (
    Draft,
    kills_by_seat,
    other_team,
    play_move,
    throw_for_turns,
    throw_off_codes,
)
from bot.sessions.ports import GameRecords
from bot.sessions.rebuild import state_from_log
from bot.sessions.results import (
    ActionResult,
    Arranged,
    Cancelled,
    CancelReason,
    Finished,
    Happening,
    Joined,
    Left,
    Resigned,
    Started,
    TakenOver,
    TimedOut,
)
from bot.sessions.saving import Landed, landed, storage_errors
from bot.sessions.state import (
    MAX_TIMEOUTS,
    TIMEOUT_LEVEL,
    GameState,
    MoveOption,
    Player,
    SeatState,
    ai_level_number,
    ai_seat_name,
)
from bot.storage.types import EndReason, FinishReport, NewEvent, SeatSpec
from puluc import IllegalMove, InvalidMoveError, Move, MoveEffect, Position, throw_off

if TYPE_CHECKING:
    from puluc.ai import Hint  # for the type only: the AI is imported when a game first needs it

log = logging.getLogger(__name__)

Clock = Callable[[], float]
# Chooses a move for `position` at a strength ("easy", "medium", "hard"); the manager runs the AI in a
# worker thread behind this.
MovePicker = Callable[[Position, str, random.Random], Awaitable[Move]]
ChangeListener = Callable[[ActionResult], None]
# Raises a SessionError when this lobby may not take its first AI seat (the manager's caps on games with AI seats).
AISeatCheck = Callable[[GameState], None]


# The hard player's advice for `position` (`puluc.ai.hint`: its move and the mover's team's chance to win
# after it); the manager runs the AI in a worker thread behind this.
Advisor = Callable[[Position, random.Random], Awaitable["Hint"]]


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A hint: the move the hard player would make, what it does, and the caller's team's chance to win."""

    move: Move
    effect: MoveEffect
    chance: float

    @property
    def notation(self) -> str:
        return str(self.move)


class GameSession:
    """The live session of one game. Read `state`; change it only through the action methods."""

    def __init__(
        self,
        state: GameState,
        records: GameRecords,
        *,
        clock: Clock,
        picker: MovePicker,
        advisor: Advisor,
        ai_delay: float,
        on_change: ChangeListener | None = None,
        admit_ai: AISeatCheck | None = None,
    ) -> None:
        self._state = state
        self._admit_ai = admit_ai
        self._records = records
        self._clock = clock
        self._picker = picker
        self._advisor = advisor
        self._ai_delay = ai_delay
        self._on_change = on_change
        self._lock = asyncio.Lock()
        self._in_doubt = False  # a save ended without an answer and could not be checked: read back first

    @property
    def state(self) -> GameState:
        return self._state

    @property
    def game_id(self) -> int:
        return self._state.game_id

    # -- lobby --------------------------------------------------------------------------------------------

    async def join(self, player: Player, team: str | None = None) -> ActionResult:
        """Sit `player` in the first free seat (of `team`, when given)."""
        async with self._acting():
            state = require_lobby(self._state)
            seat = seat_for_newcomer(state, player, team)
            with storage_errors():
                await self._records.set_seat(state.game_id, SeatSpec(seat, player.name, user_id=player.user_id))
            new = with_seat(state, SeatState(seat, player.name, user_id=player.user_id))
            return self._commit(new, state, [Joined(seat, player.name)])

    async def add_ai(self, user_id: int, team: str, level: str = "medium") -> ActionResult:
        """A seated player fills the first free seat of `team` with the AI."""
        async with self._acting():
            state = require_lobby(self._state)
            if state.seat_of(user_id) is None:
                raise NotAPlayer(f"user {user_id} is not in lobby {state.game_id}")
            seat = free_seat(state, team)
            if not state.has_ai_seat and self._admit_ai is not None:
                self._admit_ai(state)
            name = ai_seat_name(level)
            with storage_errors():
                await self._records.set_seat(state.game_id, SeatSpec(seat, name, ai_level=ai_level_number(level)))
            new = with_seat(state, SeatState(seat, name, ai_level=level))
            return self._commit(new, state, [Joined(seat, name, level)])

    async def leave(self, user_id: int) -> ActionResult:
        """Leave the lobby; the host leaving closes it."""
        async with self._acting():
            state = require_lobby(self._state)
            seat = state.seat_of(user_id)
            if seat is None:
                raise NotAPlayer(f"user {user_id} is not in lobby {state.game_id}")
            if state.tournament_id is not None:
                raise TournamentMatch(f"game {state.game_id} is a match of tournament {state.tournament_id}")
            if user_id == state.host_id:
                return await self._cancel(state, user_id, "host")
            with storage_errors():
                await self._records.remove_seat(state.game_id, seat.seat)
            new = replace(state, seats=tuple(s for s in state.seats if s.seat != seat.seat))
            return self._commit(new, state, [Left(seat.seat, seat.name)])

    async def start(self, user_id: int, seed: int) -> ActionResult:
        """The host starts a full lobby: throw-off, then the first player's throw. A tournament match has no
        host: either of its players starts it."""
        async with self._acting():
            state = require_lobby(self._state)
            require_starter(state, user_id)
            return await self._start(state, seed, [])

    async def arrange(self, user_id: int, team_a: Sequence[str], team_b: Sequence[str]) -> ActionResult:
        """The host seats a full lobby anew (balanced teams): the players now in the seats named by `team_a`
        take A1, A2, ... in that order, those of `team_b` take B1, B2, ..."""
        async with self._acting():
            state = require_lobby(self._state)
            new = rearranged(state, user_id, team_a, team_b)
            specs = [SeatSpec(s.seat, s.name, user_id=s.user_id,
                              ai_level=None if s.ai_level is None else ai_level_number(s.ai_level)) for s in new.seats]
            with storage_errors():
                await self._records.set_seats(state.game_id, specs)
            return self._commit(new, state, [Arranged(tuple((s.seat, s.name) for s in new.seats))])

    async def accept(self, player: Player, invited_id: int, seed: int) -> ActionResult:
        """The challenged member takes seat B1 and the game starts."""
        async with self._acting():
            state = require_lobby(self._state)
            if player.user_id != invited_id or player.user_id == state.host_id:
                raise NotInvited(f"user {player.user_id} was not invited to game {state.game_id}")
            seat = seat_for_newcomer(state, player, "B")
            with storage_errors():
                await self._records.set_seat(state.game_id, SeatSpec(seat, player.name, user_id=player.user_id))
            seated = with_seat(state, SeatState(seat, player.name, user_id=player.user_id))
            self._state = seated
            return await self._start(seated, seed, [Joined(seat, player.name)], previous=state)

    async def decline(self, user_id: int, invited_id: int) -> ActionResult:
        """The challenged member (or the challenger, withdrawing) turns the invitation down."""
        async with self._acting():
            state = require_lobby(self._state)
            if user_id not in (invited_id, state.host_id):
                raise NotInvited(f"user {user_id} was not invited to game {state.game_id}")
            return await self._cancel(state, user_id, "declined")

    # -- play -----------------------------------------------------------------------------------------------

    async def play(self, user_id: int, move_text: str, turn: int | None = None) -> ActionResult:
        """The player to move plays `move_text` (RULES.md notation). `turn` is the event number the button
        was made for; a different one means the button is stale. None (typed moves) skips that check."""
        async with self._acting():
            state = require_running(self._state)
            if turn is not None and turn != state.seq:
                raise StaleAction(f"button for event {turn}, game {state.game_id} is at {state.seq}")
            seat = mover(state, user_id)
            try:
                move = Move.parse(move_text.strip())
            except InvalidMoveError as exc:
                raise UnreadableMove(f"unreadable move {move_text!r}", move=move_text.strip()[:20]) from exc
            draft = Draft(state)
            if seat.timeouts:
                draft.set_timeouts(seat, 0)
            try:
                play_move(draft, seat.seat, move, "player")
            except IllegalMove as exc:
                raise IllegalMoveError(str(exc), move=str(move)) from exc
            throw_for_turns(draft)
            return await self._persist(draft, state, not_saved=MoveNotSaved)

    async def resign(self, user_id: int) -> ActionResult:
        """A player gives the game up for their team."""
        async with self._acting():
            state = require_running(self._state)
            seat = state.seat_of(user_id)
            if seat is None:
                raise NotAPlayer(f"user {user_id} does not play in game {state.game_id}")
            draft = Draft(state)
            draft.record("resign", {"seat": seat.seat})
            draft.happenings.append(Resigned(seat.seat))
            return await self._persist(draft, state, forfeit=(other_team(seat.team), "resign"))

    async def cancel(self, user_id: int, *, moderator: bool = False) -> ActionResult:
        """The host (or a moderator) calls the game off; nobody wins and nothing is rated."""
        async with self._acting():
            state = self._state
            if not state.is_open:
                raise GameOver(f"game {state.game_id} is {state.status}")
            if state.tournament_id is not None:
                raise TournamentMatch(f"game {state.game_id} is a match of tournament {state.tournament_id}")
            if user_id != state.host_id and not moderator:
                raise HostOnly(f"user {user_id} may not cancel game {state.game_id}")
            return await self._cancel(state, user_id, "host" if user_id == state.host_id else "moderator")

    async def call_off(self) -> ActionResult:
        """The tournament ends its match early (the round's time ran out, or the tournament was cancelled):
        nobody wins here and nothing is rated; the tournament records the match's result itself. The result's
        `previous` state is the game as it stood (a lobby nobody started, or the position to adjudicate)."""
        async with self._acting():
            state = self._state
            if not state.is_open:
                raise GameOver(f"game {state.game_id} is {state.status}")
            return await self._cancel(state, None, "tournament")

    async def expire(self, now: float, expires: float | None) -> ActionResult | None:
        """Close a lobby nobody started by `expires` (None when it has started, ended or is not due yet)."""
        async with self._acting():
            state = self._state
            if state.status != "lobby" or expires is None or expires > now:
                return None
            return await self._cancel(state, None, "expired")

    async def close(self) -> ActionResult | None:
        """Call the game off because the bot lost its place (its channel, thread or server): nobody wins and
        nothing is rated. None when it had already ended."""
        async with self._acting():
            state = self._state
            if not state.is_open:
                return None
            return await self._cancel(state, None, "closed")

    def bind_tournament(self, tournament_id: int) -> None:
        """Mark a reloaded game as a match of `tournament_id` (the game row does not say so; the tournament's
        match does)."""
        self._state = replace(self._state, tournament_id=tournament_id)

    async def on_deadline(self, now: float) -> ActionResult | None:
        """Run what is due: an AI seat's move, or the move of a player whose time ran out. None when
        nothing is due (the deadline moved, or the game ended, since it was scheduled)."""
        async with self._acting():
            state = self._state
            if state.status != "running" or state.deadline is None or state.deadline > now:
                return None
            assert state.position is not None and state.seed is not None
            draft = Draft(state)
            if state.nobody_left:  # every player's seat went to the AI (or a save ended before the game did)
                return await self._abandon(draft, state)
            if state.position.must_throw:  # a start-up or save that stopped before the throw
                throw_for_turns(draft)
                return await self._persist(draft, state)
            seat = state.to_move
            assert seat is not None
            if seat.played_by_ai:
                move = await self._pick(draft.position, seat.level, state.seed, state.seq)
                play_move(draft, seat.seat, move, "ai")
                throw_for_turns(draft)
                return await self._persist(draft, state)
            return await self._time_out(draft, seat, state)

    def check_hint(self, user_id: int) -> GameState:
        """The state a hint would be given for, or the refusal (a ranked game, not the caller's turn)."""
        state = require_running(self._state)
        if state.ranked:
            raise HintNotAllowed(f"game {state.game_id} is ranked")
        mover(state, user_id)
        return state

    async def suggest(self, user_id: int) -> Suggestion:
        """The move the hard player would make for the caller, with their team's chance to win after it
        (casual games only, on the caller's turn)."""
        state = self.check_hint(user_id)
        assert state.position is not None and state.seed is not None
        position = state.position
        # The same generator as the AI's move here, so asking twice gives the same answer.
        advice = await self._advisor(position, ai_rng(state.seed, state.seq))
        if advice.move not in position.legal_moves():
            raise ValueError(f"the advisor suggested {advice.move}, which is not legal in game {state.game_id}")
        chance = min(1.0, max(0.0, float(advice.expected_value)))
        return Suggestion(advice.move, position.move_effect(advice.move), chance)

    def options_for(self, user_id: int) -> list[MoveOption]:
        """The caller's legal moves, or none when it is not their turn."""
        state = self._state
        mover = state.to_move
        if mover is None or mover.user_id != user_id or mover.taken_over:
            return []
        return state.legal_options()

    async def set_message(self, message_id: int | None, *, in_thread: bool | None = None) -> None:
        """Remember which message shows the game now (NotSaved, and nothing changed, when the database
        cannot)."""
        async with self._lock:
            state = self._state
            with storage_errors():
                await self._records.set_message(state.game_id, message_id, in_thread=in_thread)
            place = state.place if in_thread is None else replace(state.place, in_thread=in_thread)
            self._state = replace(state, message_id=message_id, place=place)

    # -- internals ----------------------------------------------------------------------------------------

    @asynccontextmanager
    async def _acting(self) -> AsyncIterator[None]:
        """The game's lock, with the state read back from the database first when an earlier save ended in
        doubt, so an action is never judged against a state the database has moved past."""
        async with self._lock:
            if self._in_doubt:
                await self._read_back()
            yield

    async def _read_back(self) -> None:
        with storage_errors():
            stored = await self._records.game_log(self.game_id)
        fresh = await asyncio.to_thread(state_from_log, stored)
        self._in_doubt = False
        state = self._state
        if (fresh.seq, fresh.status) != (state.seq, state.status):
            log.warning("game %d: read back from the database at event %d (this process had %d)", self.game_id,
                        fresh.seq, state.seq)
            # What the game row does not hold stays as this process knew it.
            self._commit(replace(fresh, invited_id=state.invited_id, tournament_id=state.tournament_id), state, [])

    async def _landed(self, first_seq: int, events: list[NewEvent], *, finished: bool) -> bool:
        """Whether a save that failed was stored after all (see `bot.sessions.saving.landed`); when that
        cannot be told, the state is read back before the next action."""
        found = await landed(self._records, self.game_id, first_seq, events, finished=finished)
        if found is Landed.YES:
            log.warning("game %d: events from %d were stored although the database's answer was lost",
                        self.game_id, first_seq)
        self._in_doubt = found is Landed.UNKNOWN
        return found is Landed.YES

    async def _start(
        self, state: GameState, seed: int, happenings: list[Happening], previous: GameState | None = None
    ) -> ActionResult:
        if state.free_seats():
            raise SeatsEmpty(f"game {state.game_id} has empty seats {state.free_seats()}")
        off = throw_off(random.Random(seed), state.rules.sticks)
        start = Position.start(state.rules, off.first)
        now = self._clock()
        with storage_errors():
            await self._records.start_game(
                state.game_id, first_team=off.first, throw_off=throw_off_codes(off.rounds), seed=seed,
                snapshot_ppn=start.to_ppn(), turn_deadline=now,
            )
        # Running from here on, even if saving the first throw fails: the deadline (now) retries it.
        running = replace(state, status="running", seed=seed, first=off.first, throw_off=off.rounds,
                          position=start, seq=0, deadline=now, invited_id=None)
        self._state = running
        draft = Draft(running, happenings=[*happenings, Started(off.first, off.rounds)])
        throw_for_turns(draft)
        try:
            return await self._persist(draft, previous or state)
        except Exception:
            self._commit(running, previous or state, draft.happenings[: len(happenings) + 1])
            raise

    async def _cancel(self, state: GameState, user_id: int | None, by: CancelReason) -> ActionResult:
        with storage_errors():
            await self._records.cancel_game(state.game_id, {"by": by})
        seq = state.seq + 1 if state.status == "running" else state.seq
        new = replace(state, status="cancelled", end_reason="cancelled", deadline=None, seq=seq)
        return self._commit(new, state, [Cancelled(user_id, by)])

    async def _time_out(self, draft: Draft, seat: SeatState, previous: GameState) -> ActionResult:
        count = seat.timeouts + 1
        seat = draft.set_timeouts(seat, count)
        draft.record("timeout", {"seat": seat.seat, "count": count})
        draft.happenings.append(TimedOut(seat.seat, count))
        by: str = "timer"
        if count >= MAX_TIMEOUTS:
            if previous.rules.team_size == 1:
                return await self._persist(draft, previous, forfeit=(other_team(seat.team), "timeout"))
            seat = draft.take_over(seat)
            draft.record("ai_takeover", {"seat": seat.seat})
            draft.happenings.append(TakenOver(seat.seat))
            if draft.state.nobody_left:
                return await self._abandon(draft, previous)
            by = "ai"
        assert previous.seed is not None
        # The absent player's whole turn is played (both throws in the traditional setup).
        while not draft.position.is_over and draft.position.pending and draft.position.to_move == seat.seat:
            move = await self._pick(draft.position, TIMEOUT_LEVEL, previous.seed, draft.state.seq)
            play_move(draft, seat.seat, move, "timer" if by == "timer" else "ai")
        throw_for_turns(draft)
        return await self._persist(draft, previous)

    async def _abandon(self, draft: Draft, previous: GameState) -> ActionResult:
        """End a game nobody is left playing (every player's seat went to the AI): cancelled, so unrated and
        without a rematch, rather than playing itself to the end at a move a second. The draft's events (the
        last time-out and take-over) are saved first; if ending then fails, the next deadline tries again."""
        state = draft.state
        if draft.events:
            first_seq = state.seq - len(draft.events) + 1
            now = self._clock()
            try:
                with storage_errors():
                    await self._records.append_events(
                        state.game_id, first_seq, draft.events, snapshot_ppn=draft.position.to_ppn(),
                        turn_deadline=now, timeouts=draft.timeouts or None,
                    )
            except NotSaved:
                if not await self._landed(first_seq, draft.events, finished=False):
                    raise
            state = replace(state, deadline=now)
            self._state = state
        with storage_errors():
            await self._records.cancel_game(state.game_id, {"by": "abandoned"})
        log.info("game %d ended: every player's seat went to the AI", state.game_id)
        new = replace(state, status="cancelled", end_reason="cancelled", deadline=None, seq=state.seq + 1)
        return self._commit(new, previous, [*draft.happenings, Cancelled(None)])

    async def _pick(self, position: Position, level: str, seed: int, seq: int) -> Move:
        legal = position.legal_moves()
        try:
            move = await self._picker(position, level, ai_rng(seed, seq))
        except Exception:
            # A broken AI must not stall a game: log it and play the first legal move instead.
            log.exception("the AI failed to choose a move; playing the first legal move")
            return legal[0]
        if move not in legal:
            log.error("the AI chose %s, which is not legal; playing the first legal move", move)
            return legal[0]
        return move

    def _deadline_for(self, state: GameState) -> float | None:
        seat = state.to_move
        if seat is None or state.position is None:
            return None
        now = self._clock()
        if state.position.must_throw or seat.played_by_ai:
            return now + self._ai_delay
        return now + state.turn_timer

    async def _persist(
        self, draft: Draft, previous: GameState, *, forfeit: tuple[str, EndReason] | None = None,
        not_saved: type[NotSaved] = NotSaved,
    ) -> ActionResult:
        state = draft.state
        pos = draft.position
        first_seq = state.seq - len(draft.events) + 1
        if forfeit is None and not pos.is_over:
            deadline = self._deadline_for(state)
            try:
                with storage_errors(not_saved):
                    await self._records.append_events(
                        state.game_id, first_seq, draft.events, snapshot_ppn=pos.to_ppn(),
                        turn_deadline=deadline, timeouts=draft.timeouts or None,
                    )
            except NotSaved:
                if not await self._landed(first_seq, draft.events, finished=False):
                    raise
            return self._commit(replace(state, deadline=deadline), previous, draft.happenings)
        if forfeit is not None:
            winner: str | None
            winner, reason = forfeit
            scores = pos.scores()
        else:
            outcome = pos.outcome()
            assert outcome is not None
            winner, scores, reason = outcome.winner, outcome.scores, "normal"
        report: FinishReport | None
        try:
            with storage_errors(not_saved):
                report = await self._records.finish_game(
                    state.game_id, winner=winner, scores=scores, end_reason=reason, kills=kills_by_seat(pos),
                    events=draft.events, first_seq=first_seq if draft.events else None, snapshot_ppn=pos.to_ppn(),
                )
        except NotSaved:
            if not await self._landed(first_seq, draft.events, finished=True):
                raise
            report = None  # stored, but the rating changes it reported were lost with the answer
        final = replace(state, status="finished", winner=winner, scores=scores, end_reason=reason, deadline=None)
        return self._commit(final, previous, [*draft.happenings, Finished(winner, scores, reason, report)])

    def _commit(self, new: GameState, previous: GameState, happenings: list[Happening]) -> ActionResult:
        self._state = new
        result = ActionResult(new, previous, tuple(happenings))
        if self._on_change is not None:
            self._on_change(result)
        return result
