"""The game-session layer: Puluc games as they are played in a channel, with no Discord in sight.

Cogs call `SessionManager` to create games and a `GameSession`'s action methods to change them; each
accepted action returns an `ActionResult` (the new state and what happened), each refused one raises a
`SessionError` naming the message key to show. Storage hides behind `bot.sessions.ports.GameRecords`.
"""

from __future__ import annotations

from bot.sessions.errors import SessionError
from bot.sessions.manager import Limits, SessionManager, engine_picker, system_seed
from bot.sessions.results import (
    ActionResult,
    Arranged,
    Cancelled,
    Finished,
    Happening,
    Joined,
    Left,
    Moved,
    Resigned,
    Started,
    TakenOver,
    Thrown,
    TimedOut,
)
from bot.sessions.session import GameSession, MovePicker
from bot.sessions.state import (
    AI_LEVELS,
    DEFAULT_VARIANT,
    MAX_TIMEOUTS,
    GameOptions,
    GameState,
    MoveOption,
    Place,
    Player,
    SeatState,
)

__all__ = [
    "AI_LEVELS",
    "DEFAULT_VARIANT",
    "MAX_TIMEOUTS",
    "ActionResult",
    "Arranged",
    "Cancelled",
    "Finished",
    "GameOptions",
    "GameSession",
    "GameState",
    "Happening",
    "Joined",
    "Left",
    "Limits",
    "MoveOption",
    "MovePicker",
    "Moved",
    "Place",
    "Player",
    "Resigned",
    "SeatState",
    "SessionError",
    "SessionManager",
    "Started",
    "TakenOver",
    "Thrown",
    "TimedOut",
    "engine_picker",
    "system_seed",
]
