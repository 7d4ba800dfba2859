"""Pure game-flow steps shared by every action: throwing for a player, playing a move, ending a game.

A `Draft` collects a new `GameState`, the events to append to the game's log and the happenings to report,
so the session can save everything in one transaction and only then swap the state in. Throws come from a
`random.Random` seeded by (game seed, event number): a game replays exactly from its seed, and no random
state has to survive a restart. Pure: no I/O, no clock.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from bot.seeds import throw_rng
from bot.sessions.results import Happening, Moved, Thrown
from bot.sessions.state import Actor, GameState, SeatState
from bot.storage.types import NewEvent
from puluc import Move, Position, Throw
from puluc.record import MoveEvent, ThrowEvent

# Passing turns in a row is normal (a throw with no legal move), but a position where nobody can ever move
# would loop forever: stop after this many passes and leave the turn waiting (the timer retries it).
MAX_PASSES_IN_A_ROW = 256


def throw_off_codes(rounds: tuple[tuple[Throw, Throw], ...]) -> list[list[str]]:
    return [[a.code, b.code] for a, b in rounds]


@dataclass
class Draft:
    """A state being built by one action, with the events and happenings it produces."""

    state: GameState
    events: list[NewEvent] = field(default_factory=list)
    happenings: list[Happening] = field(default_factory=list)
    timeouts: dict[str, int] = field(default_factory=dict)  # seats whose time-out count changed

    @property
    def position(self) -> Position:
        assert self.state.position is not None, "a running game always has a position"
        return self.state.position

    def record(self, kind: str, payload: dict[str, Any], **changes: Any) -> None:
        """Append an event (numbered after the state's last one) and update the state with `changes`."""
        self.events.append(NewEvent(kind, payload))
        self.state = replace(self.state, seq=self.state.seq + 1, **changes)

    def set_timeouts(self, seat: SeatState, count: int) -> SeatState:
        updated = replace(seat, timeouts=count)
        self.state = replace(self.state, seats=tuple(updated if s.seat == seat.seat else s for s in self.state.seats))
        self.timeouts[seat.seat] = count
        return updated

    def take_over(self, seat: SeatState) -> SeatState:
        updated = replace(seat, taken_over=True)
        self.state = replace(self.state, seats=tuple(updated if s.seat == seat.seat else s for s in self.state.seats))
        return updated


def play_move(draft: Draft, seat: str, move: Move, by: Actor) -> None:
    """Play a legal `move` for `seat` (IllegalMove from the engine when it is not legal)."""
    pos = draft.position
    effect = pos.move_effect(move)
    after = pos.play(move)
    remaining = list(pos.pending)
    remaining.remove(move.throw)
    turn_passed = not after.is_over and (after.must_throw or after.to_move != seat)
    draft.record(
        "move",
        {"seat": seat, "move": str(move), "by": by},
        position=after,
        record=(*draft.state.record, MoveEvent(move)),
    )
    draft.happenings.append(Moved(seat, effect, by, tuple(remaining) if turn_passed else ()))


def throw_for_turns(draft: Draft) -> None:
    """Throw the sticks for whoever must throw, passing turns that have no legal move, until someone can
    move or the game is over."""
    state = draft.state
    assert state.seed is not None, "a running game has a seed"
    for _ in range(MAX_PASSES_IN_A_ROW):
        pos = draft.position
        if pos.is_over or not pos.must_throw:
            return
        seat = pos.to_move
        rng = throw_rng(state.seed, draft.state.seq + 1)
        throws = tuple(Throw.roll(rng, pos.rules.sticks) for _ in range(pos.rules.throws_per_turn))
        after = pos.throw(list(throws))
        passed = after.must_throw or after.to_move != seat
        draft.record(
            "throw",
            {"seat": seat, "faces": [t.code for t in throws], "values": [t.value for t in throws]},
            position=after,
            record=(*draft.state.record, ThrowEvent(throws)),
            turn_throws=throws,
        )
        draft.happenings.append(Thrown(seat, throws, passed))


def other_team(team: str) -> str:
    return "B" if team == "A" else "A"


def kills_by_seat(pos: Position) -> dict[str, int]:
    return {seat: pos.kills(seat) for seat in pos.rules.seats}
