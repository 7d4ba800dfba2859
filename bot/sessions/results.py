"""What an accepted action did: a new state plus the happenings, in order, that the cogs narrate.

Happenings are small frozen values in the game's own words (a throw, a move with its effect, a time-out);
`bot/cogs/games/texts.py` turns them into sentences.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bot.sessions.state import Actor, GameState
from bot.storage.types import EndReason, FinishReport
from puluc import MoveEffect, Throw


@dataclass(frozen=True, slots=True)
class Joined:
    seat: str
    name: str
    ai_level: str | None = None


@dataclass(frozen=True, slots=True)
class Left:
    seat: str
    name: str


@dataclass(frozen=True, slots=True)
class Arranged:
    """The host rearranged the seated players (balanced teams): every seat with its player now."""

    seats: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class Started:
    first: str
    throw_off: tuple[tuple[Throw, Throw], ...]


@dataclass(frozen=True, slots=True)
class Thrown:
    """A seat threw the sticks; `passed` when no throw allowed a move and the turn went on."""

    seat: str
    throws: tuple[Throw, ...]
    passed: bool


@dataclass(frozen=True, slots=True)
class Moved:
    """A seat played a move; `lost` are its turn's remaining throws that no move could use, so the turn passed."""

    seat: str
    effect: MoveEffect
    by: Actor
    lost: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class TimedOut:
    seat: str
    count: int  # consecutive time-outs of this seat, this one included


@dataclass(frozen=True, slots=True)
class TakenOver:
    """The AI plays this seat for the rest of the game."""

    seat: str


@dataclass(frozen=True, slots=True)
class Resigned:
    seat: str


@dataclass(frozen=True, slots=True)
class Finished:
    winner: str | None
    scores: dict[str, int]
    reason: EndReason
    report: FinishReport | None


# Why a game was called off: by its host or a moderator, a challenge declined, by its tournament, because a
# lobby nobody started expired (LOBBY_EXPIRY_SECONDS), or because its channel, thread or server is gone.
CancelReason = Literal["host", "moderator", "declined", "tournament", "expired", "closed"]


@dataclass(frozen=True, slots=True)
class Cancelled:
    by_user_id: int | None
    why: CancelReason = "host"


Happening = Joined | Left | Arranged | Started | Thrown | Moved | TimedOut | TakenOver | Resigned | Finished | Cancelled


@dataclass(frozen=True)
class ActionResult:
    """The state after an accepted action, the state before it, and what happened in between."""

    state: GameState
    previous: GameState | None
    happenings: tuple[Happening, ...]

    @property
    def game_id(self) -> int:
        return self.state.game_id

    @property
    def finished(self) -> Finished | None:
        return next((h for h in self.happenings if isinstance(h, Finished)), None)

    @property
    def started(self) -> bool:
        return any(isinstance(h, Started) for h in self.happenings)

    @property
    def cancelled(self) -> bool:
        return self.state.status == "cancelled"
