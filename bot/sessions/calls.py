"""Calling players back to their turn (issue 26): a ping when a member has not acted some seconds after their
turn began, and a reminder when a quarter of a long turn is left.

Discord notifies a member only of a message that mentions them when it is created; the game message is
edited in place, so it never does. Each running game therefore has at most one `TurnCall`: the member to
move, when to ping them, when to remind them, and the message now calling them, which is withdrawn once they
act, the timer plays for them or the game ends, so a channel holds at most one ping per game. Calls are
planned here from each accepted action (`next_call`, pure), kept in the database after the game's own save
(so they survive restarts and move with their server's shard: `stored_form`) and fired by one
`DeadlineScheduler` keyed by game, which sleeps until the next one is due: a game waiting for days costs
nothing meanwhile.

This module must never import discord or read settings: what a call says and where it goes (channel, DM,
nothing) is the `Messenger`'s business (`bot.cogs.games.calls`), and a lost ping never blocks a move or a timer.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Literal, Protocol

from bot.sessions.errors import GameNotOpen
from bot.sessions.manager import KeyedLocks, SessionManager
from bot.sessions.results import ActionResult, Moved, Resigned
from bot.sessions.state import GameState
from bot.sessions.timers import DeadlineScheduler
from bot.storage.errors import StorageError
from bot.storage.types import TurnCall

log = logging.getLogger(__name__)

# A turn this long or longer gets one reminder when this fraction of it is left (issue 26: "15 minutes left").
REMINDER_MIN_TURN_SECONDS = 600
REMINDER_FRACTION = 0.25
# A call made by a move waits for that move's board to be shown (a ping never overtakes the board), but no
# longer than this: when Discord refuses the board, the ping still goes.
BOARD_WAIT_SECONDS = 10.0

Clock = Callable[[], float]
NoticeKind = Literal["ping", "reminder"]


@dataclass(frozen=True, slots=True)
class Notice:
    """One call to send: a ping or a reminder to `user_id` about `state`'s game, `left` seconds before the
    turn's deadline."""

    kind: NoticeKind
    state: GameState
    user_id: int
    left: float


@dataclass(frozen=True, slots=True)
class CallMessage:
    """A message that calls a member (in the game's channel, or their DMs)."""

    channel_id: int
    message_id: int


class CallRecords(Protocol):
    """Where calls are kept (`bot.storage.sql.calls.CallStore`)."""

    async def calls(self) -> tuple[TurnCall, ...]: ...

    async def put_call(self, call: TurnCall) -> None: ...

    async def drop_call(self, game_id: int, guild_id: int | None) -> None: ...


class Messenger(Protocol):
    """Sends and withdraws calls; never raises for Discord's failures (a lost call is logged, not retried)."""

    async def send(self, notice: Notice) -> CallMessage | None:
        """Call the member as they chose; the message that calls them, or None (they chose `off`, or Discord
        refused)."""
        ...

    async def withdraw(self, message: CallMessage) -> None: ...


class PingDelays:
    """Seconds from a turn's start to its ping, per server: the server's own (`/puluc-admin settings`), else
    the bot's TURN_PING_AFTER_SECONDS. Read without waiting, since calls are planned as actions commit."""

    def __init__(self, default: float, overrides: dict[int, float] | None = None) -> None:
        self.default = default
        self._overrides = dict(overrides or {})

    def get(self, guild_id: int | None) -> float:
        return self._overrides.get(guild_id, self.default) if guild_id is not None else self.default

    def set(self, guild_id: int, seconds: float | None) -> None:
        """The server's own delay, or None to follow the bot's again."""
        if seconds is None:
            self._overrides.pop(guild_id, None)
        else:
            self._overrides[guild_id] = seconds


def reminder_time(state: GameState) -> float | None:
    """When to remind the player to move: a quarter of the turn before its deadline, for long turns only."""
    if state.deadline is None or state.turn_timer < REMINDER_MIN_TURN_SECONDS:
        return None
    return state.deadline - state.turn_timer * REMINDER_FRACTION


def acted(result: ActionResult, user_id: int) -> bool:
    """Whether the member played a move (or resigned) in this action."""
    previous = result.previous
    if previous is None:
        return False
    seats = {s.seat for s in previous.seats if s.user_id == user_id}
    return any((isinstance(h, Moved) and h.by == "player" and h.seat in seats)
               or (isinstance(h, Resigned) and h.seat in seats) for h in result.happenings)


def next_call(result: ActionResult, old: TurnCall | None, now: float, ping_after: float) -> TurnCall | None:
    """The game's call after `result`: None when no member is to move (the AI's turn, a lobby, the end).

    A turn that passes to another member starts a new call, pinged `ping_after` seconds from now unless the
    reminder or the timer comes first. The member who just moved is never pinged (if the turn is still
    theirs, they are here): their call keeps only its reminder, set anew from the new deadline, and its
    message is to be withdrawn. The caller withdraws the old call's message whenever the new call does not
    carry it."""
    state = result.state
    seat = state.to_move
    if seat is None or seat.played_by_ai or seat.user_id is None or state.deadline is None:
        return None
    user_id = seat.user_id
    remind_at = reminder_time(state)
    if old is not None and old.user_id == user_id:
        if acted(result, user_id):
            return replace(old, seq=state.seq, ping_at=None, remind_at=remind_at, channel_id=None, message_id=None)
        return old  # nothing of theirs happened (a throw before their move): their call stands
    ping = now + ping_after
    # No ping when the reminder calls them first, or when the timer plays for them before any ping.
    late = (remind_at is not None and ping >= remind_at) or ping >= state.deadline
    return TurnCall(state.game_id, state.place.guild_id, user_id, state.seq, None if late else ping, remind_at)


def due_kind(call: TurnCall, now: float) -> NoticeKind | None:
    """What is due of a call now: the reminder before a ping (it says more, and replaces it)."""
    if call.remind_at is not None and call.remind_at <= now:
        return "reminder"
    if call.ping_at is not None and call.ping_at <= now:
        return "ping"
    return None


def next_due(call: TurnCall) -> float | None:
    times = [when for when in (call.ping_at, call.remind_at) if when is not None]
    return min(times, default=None)


def message_of(call: TurnCall | None) -> CallMessage | None:
    if call is None or call.channel_id is None or call.message_id is None:
        return None
    return CallMessage(call.channel_id, call.message_id)


def stored_form(call: TurnCall | None) -> TurnCall | None:
    """What of a call the database must keep: only a call whose message is on screen. Any other call is
    rebuilt as it was at start-up (`TurnCaller.load`): its reminder from the game's stored deadline, its ping
    from the restart (a ping already sent is remembered by its message; a member who chose `off` or acted
    just before the restart may be pinged once more). So a quick game writes nothing."""
    return call if call is not None and call.message_id is not None else None


class TurnCaller:
    """Keeps every running game's call: planned as actions commit, saved in the background, fired when due."""

    def __init__(self, manager: SessionManager, records: CallRecords, messenger: Messenger, delays: PingDelays,
                 *, clock: Clock) -> None:
        self._manager = manager
        self._records = records
        self.messenger = messenger
        self.delays = delays
        self._clock = clock
        self._calls: dict[int, TurnCall] = {}
        self._stored: dict[int, TurnCall] = {}  # the database's rows, as this process wrote or read them
        self._stale: dict[int, list[CallMessage]] = {}  # messages to withdraw, per game
        # Fresh pings wait for the board of this event number; True once they waited BOARD_WAIT_SECONDS for it.
        self._board_due: dict[int, tuple[int, bool]] = {}
        self._locks = KeyedLocks()
        self._tasks: set[asyncio.Task[None]] = set()
        self.scheduler = DeadlineScheduler(clock, self._fire)
        manager.add_change_listener(self.on_change)

    # -- lifecycle --------------------------------------------------------------------------------------

    async def load(self) -> int:
        """Take up the stored calls of this process's running games and call the others' members anew (from
        now); a stored call that is out of date (its game ended, or its turn passed, while the bot was down)
        is withdrawn. Returns how many calls run."""
        stored = {c.game_id: c for c in await self._records.calls() if self._manager.owns(c.guild_id)}
        self._stored = dict(stored)
        now = self._clock()
        for session in self._manager.sessions:
            state = session.state
            old = stored.pop(state.game_id, None)
            seat = state.to_move
            user_id = None if seat is None or seat.played_by_ai else seat.user_id
            if old is not None and old.user_id == user_id:
                self._calls[state.game_id] = old
                continue
            call = next_call(ActionResult(state, None, ()), None, now, self.delays.get(state.place.guild_id))
            self._replace(state.game_id, old, call, fresh=False)
        for gone in stored.values():  # games that ended while the bot was down
            self._replace(gone.game_id, gone, None, fresh=False)
        for game_id, call in self._calls.items():
            self.scheduler.set(game_id, next_due(call))
        for game_id in {*self._stale, *self._stored}:
            self._flush_later(game_id)
        return len(self._calls)

    def start(self) -> None:
        self.scheduler.start()

    async def stop(self) -> None:
        await self.scheduler.stop()
        await self.settled()

    async def settled(self) -> None:
        """Wait until every call saved or withdrawn in the background so far is done (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    def call_of(self, game_id: int) -> TurnCall | None:
        return self._calls.get(game_id)

    # -- planning ---------------------------------------------------------------------------------------

    def on_change(self, result: ActionResult) -> None:
        """Plan the game's call after an accepted action (called as the action commits, before it returns)."""
        state = result.state
        game_id = state.game_id
        old = self._calls.get(game_id)
        if old is None and state.to_move is None:
            return  # a lobby, or the AI to move: nothing to call, nothing to undo
        call = next_call(result, old, self._clock(), self.delays.get(state.place.guild_id))
        if call is old:
            return
        self._replace(game_id, old, call, fresh=True)
        self.scheduler.set(game_id, None if call is None else next_due(call))
        if game_id in self._stale or stored_form(call) != self._stored.get(game_id):
            self._flush_later(game_id)

    def _replace(self, game_id: int, old: TurnCall | None, call: TurnCall | None, *, fresh: bool) -> None:
        stale = message_of(old)
        if stale is not None and message_of(call) != stale:
            self._stale.setdefault(game_id, []).append(stale)
        self._board_due.pop(game_id, None)
        if call is None:
            self._calls.pop(game_id, None)
            return
        self._calls[game_id] = call
        if fresh and call.ping_at is not None:
            self._board_due[game_id] = (call.seq, False)

    def board_shown(self, game_id: int, seq: int) -> None:
        """The presenter showed the game at event `seq`: a ping waiting for that board may go now."""
        waiting = self._board_due.get(game_id)
        if waiting is not None and seq >= waiting[0]:
            del self._board_due[game_id]
            call = self._calls.get(game_id)
            if call is not None:
                self.scheduler.set(game_id, next_due(call))

    # -- saving and withdrawing, in the background ------------------------------------------------------

    def _flush_later(self, game_id: int) -> None:
        task = asyncio.get_running_loop().create_task(self._flush(game_id), name=f"puluc-call-{game_id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _flush(self, game_id: int) -> None:
        async with self._locks.hold(game_id):
            await self._withdraw_stale(game_id)
            await self._save(game_id)

    async def _withdraw_stale(self, game_id: int) -> None:
        for message in self._stale.pop(game_id, []):
            try:
                await self.messenger.withdraw(message)
            except Exception:
                log.exception("game %d: withdrawing its old call failed", game_id)

    async def _save(self, game_id: int) -> None:
        """Bring the game's row in line with its call as it is now (the latest wins: an older flush finds
        nothing left to do)."""
        wanted = stored_form(self._calls.get(game_id))
        stored = self._stored.get(game_id)
        if wanted == stored:
            return
        try:
            if wanted is None:
                assert stored is not None
                await self._records.drop_call(game_id, stored.guild_id)
                del self._stored[game_id]
            else:
                await self._records.put_call(wanted)
                self._stored[game_id] = wanted
        except StorageError as exc:
            # The game itself is saved and goes on, and this process still calls the player; only a restart
            # before the next save could call them once more, or leave their last call on screen.
            log.warning("game %d: its turn call could not be saved (%s)", game_id, exc)

    # -- firing -----------------------------------------------------------------------------------------

    async def _fire(self, game_id: int) -> None:
        async with self._locks.hold(game_id):
            await self._withdraw_stale(game_id)
            call = self._calls.get(game_id)
            if call is None:
                return
            now = self._clock()
            kind = due_kind(call, now)
            if kind is None:
                self.scheduler.set(game_id, next_due(call))
                return
            waiting = self._board_due.pop(game_id, None)
            if kind == "ping" and waiting is not None and not waiting[1]:
                # The move's board is not on screen yet: wait for it (board_shown), but not forever.
                self._board_due[game_id] = (waiting[0], True)
                self.scheduler.set(game_id, now + BOARD_WAIT_SECONDS)
                return
            try:
                state = self._manager.get(game_id).state
            except GameNotOpen:
                return
            old = message_of(call)
            if old is not None:
                await self.messenger.withdraw(old)  # a reminder replaces the ping: one call per game on screen
            left = max(0.0, (state.deadline or now) - now)
            sent = await self.messenger.send(Notice(kind, state, call.user_id, left))
            updated = replace(call, ping_at=None,
                              remind_at=None if kind == "reminder" else call.remind_at,
                              channel_id=None if sent is None else sent.channel_id,
                              message_id=None if sent is None else sent.message_id)
            if self._calls.get(game_id) is not call:
                # The member acted (or the game ended) while the call went out: take it back at once.
                if sent is not None:
                    await self.messenger.withdraw(sent)
                return
            self._calls[game_id] = updated
            self.scheduler.set(game_id, next_due(updated))
            await self._save(game_id)
