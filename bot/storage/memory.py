"""An in-memory `GameRepository` for tests of the session layer: games, seats and event logs in dicts.

It keeps the same promises as the real backends for the game log (an event number already taken raises
`DuplicateEvent`, a gap raises `EventGap`, a write to a game in the wrong state raises `GameStateError`) and
survives a "restart" of the session manager when the same object is handed to the new one. It never rates
games. It must never be used by the running bot.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from bot.storage import ratings
from bot.storage.errors import DuplicateEvent, EventGap, GameNotFound, GameStateError
from bot.storage.types import (
    UNCHANGED,
    EndReason,
    Event,
    FinishReport,
    Game,
    GameLog,
    NewEvent,
    Seat,
    SeatSpec,
    Unchanged,
)


def _seat_order(seat: Seat) -> tuple[int, str]:
    return int(seat.seat[1:]), seat.seat[0]


class InMemoryRepository:
    """A `GameRepository` in a dict, for tests of the session layer. Survives a "restart" of the manager
    when the same object is handed to the new one. `fail_next` makes the next write raise, to test that a
    failed save leaves the session unchanged."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self._clock = clock
        self._games: dict[int, Game] = {}
        self._events: dict[int, list[Event]] = {}
        self._next_id = 1
        self.fail_next: Exception | None = None

    def _maybe_fail(self) -> None:
        if self.fail_next is not None:
            error, self.fail_next = self.fail_next, None
            raise error

    def _game(self, game_id: int, *allowed: str) -> Game:
        game = self._games.get(game_id)
        if game is None:
            raise GameNotFound(f"there is no game {game_id}")
        if allowed and game.status not in allowed:
            raise GameStateError(f"game {game_id} is {game.status}; this needs it to be {' or '.join(allowed)}")
        return game

    def _put(self, game: Game, **changes: Any) -> None:
        self._games[game.game_id] = replace(game, updated_at=self._clock(), **changes)

    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        host_id: int | None,
        variant: str,
        rules: Mapping[str, Any],
        turn_timer_seconds: int,
        ranked: bool = False,
        in_thread: bool = False,
        message_id: int | None = None,
        seats: Sequence[SeatSpec] = (),
    ) -> int:
        self._maybe_fail()
        game_id, self._next_id = self._next_id, self._next_id + 1
        now = self._clock()
        self._games[game_id] = Game(
            game_id=game_id, guild_id=guild_id, channel_id=channel_id, in_thread=in_thread, message_id=message_id,
            status="lobby", host_id=host_id, ranked=ranked, variant=variant, rules=dict(rules), first_team=None,
            throw_off=None, seed=None, turn_timer_seconds=turn_timer_seconds, turn_deadline=None, last_seq=0,
            snapshot_ppn=None, snapshot_seq=0, winner=None, scores=None, end_reason=None, created_at=now,
            updated_at=now, finished_at=None,
            seats=tuple(sorted((Seat(s.seat, s.user_id, s.ai_level, s.display_name, 0, None) for s in seats),
                               key=_seat_order)),
        )
        self._events[game_id] = []
        return game_id

    async def set_seat(self, game_id: int, spec: SeatSpec) -> None:
        self._maybe_fail()
        game = self._game(game_id, "lobby", "running")
        seats = [s for s in game.seats if s.seat != spec.seat]
        seats.append(Seat(spec.seat, spec.user_id, spec.ai_level, spec.display_name, 0, None))
        self._put(game, seats=tuple(sorted(seats, key=_seat_order)))

    async def remove_seat(self, game_id: int, seat: str) -> None:
        self._maybe_fail()
        game = self._game(game_id, "lobby")
        self._put(game, seats=tuple(s for s in game.seats if s.seat != seat))

    async def set_message(self, game_id: int, message_id: int | None, *, in_thread: bool | None = None) -> None:
        self._maybe_fail()
        game = self._game(game_id)
        self._put(game, message_id=message_id, in_thread=game.in_thread if in_thread is None else in_thread)

    async def start_game(
        self,
        game_id: int,
        *,
        first_team: str,
        throw_off: Sequence[Any],
        seed: int | None,
        snapshot_ppn: str,
        turn_deadline: float | None,
        rules: Mapping[str, Any] | None = None,
    ) -> None:
        self._maybe_fail()
        game = self._game(game_id, "lobby")
        self._put(game, status="running", first_team=first_team, throw_off=copy.deepcopy(list(throw_off)),
                  seed=seed, snapshot_ppn=snapshot_ppn, snapshot_seq=0, turn_deadline=turn_deadline,
                  rules=game.rules if rules is None else dict(rules))

    def _insert(self, game: Game, first_seq: int, events: Sequence[NewEvent]) -> tuple[Event, ...]:
        if first_seq <= game.last_seq:
            raise DuplicateEvent(f"game {game.game_id} already has event {first_seq}; the log is at {game.last_seq}")
        if first_seq > game.last_seq + 1:
            raise EventGap(f"game {game.game_id} expects event {game.last_seq + 1} next, not {first_seq}")
        now = self._clock()
        return tuple(Event(first_seq + i, e.kind, copy.deepcopy(e.payload), now) for i, e in enumerate(events))

    async def append_events(
        self,
        game_id: int,
        first_seq: int,
        events: Sequence[NewEvent],
        *,
        snapshot_ppn: str | None = None,
        turn_deadline: float | Unchanged | None = UNCHANGED,
        timeouts: Mapping[str, int] | None = None,
    ) -> tuple[Event, ...]:
        self._maybe_fail()
        if not events:
            raise ValueError("append_events needs at least one event")
        game = self._game(game_id, "running")
        written = self._insert(game, first_seq, events)
        seats = tuple(replace(s, consecutive_timeouts=(timeouts or {}).get(s.seat, s.consecutive_timeouts))
                      for s in game.seats)
        self._events[game_id].extend(written)
        self._put(
            game, last_seq=written[-1].seq, seats=seats,
            snapshot_ppn=game.snapshot_ppn if snapshot_ppn is None else snapshot_ppn,
            snapshot_seq=game.snapshot_seq if snapshot_ppn is None else written[-1].seq,
            turn_deadline=game.turn_deadline if isinstance(turn_deadline, Unchanged) else turn_deadline,
        )
        return written

    async def finish_game(
        self,
        game_id: int,
        *,
        winner: str | None,
        scores: Mapping[str, int],
        end_reason: EndReason,
        kills: Mapping[str, int] | None = None,
        events: Sequence[NewEvent] = (),
        first_seq: int | None = None,
        snapshot_ppn: str | None = None,
    ) -> FinishReport:
        self._maybe_fail()
        game = self._game(game_id, "running")
        written: tuple[Event, ...] = ()
        if events:
            if first_seq is None:
                raise ValueError("first_seq is needed with events")
            written = self._insert(game, first_seq, events)
        self._events[game_id].extend(written)
        now = self._clock()
        seats = tuple(replace(s, kills=(kills or {}).get(s.seat, s.kills)) for s in game.seats)
        self._put(
            game, status="finished", winner=winner, scores=dict(scores), end_reason=end_reason,
            turn_deadline=None, finished_at=now, seats=seats,
            last_seq=written[-1].seq if written else game.last_seq,
            snapshot_ppn=snapshot_ppn or game.snapshot_ppn,
        )
        log = self._events[game_id]
        reason = ratings.unranked_reason(
            ranked=game.ranked, cancelled=False,
            seats=[ratings.SeatInfo(s.seat, s.user_id, s.ai_level) for s in game.seats],
            moves=sum(1 for e in log if e.kind == "move"),
            ai_took_over=any(e.kind == "ai_takeover" for e in log),
        )
        # Ratings are the SQLite store's job; here a ranked game reports no changes.
        return FinishReport(game_id, ratings.ladder_for(len(game.seats)), reason, ())

    async def cancel_game(self, game_id: int, payload: Mapping[str, Any] | None = None) -> None:
        self._maybe_fail()
        game = self._game(game_id)
        if game.status == "running":
            written = self._insert(game, game.last_seq + 1, [NewEvent("cancel", dict(payload or {}))])
            self._events[game_id].extend(written)
            game = replace(game, last_seq=written[-1].seq)
        elif game.status != "lobby":
            raise GameStateError(f"game {game_id} is already {game.status}")
        self._put(game, status="cancelled", end_reason="cancelled", turn_deadline=None, finished_at=self._clock())

    async def open_games(self) -> tuple[GameLog, ...]:
        return tuple(
            GameLog(game, tuple(self._events[game.game_id]))
            for game in sorted(self._games.values(), key=lambda g: g.game_id)
            if game.status in ("lobby", "running")
        )

    async def game_log(self, game_id: int) -> GameLog:
        return GameLog(self._game(game_id), tuple(self._events[game_id]))
