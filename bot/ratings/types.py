"""The values of the rating domain: ladders, results, streaks and why a game goes unrated."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

Ladder = Literal["duel", "team"]
LADDERS: tuple[Ladder, ...] = ("duel", "team")
Result = Literal["win", "draw", "loss"]


class UnrankedReason(StrEnum):
    """Why a finished game leaves ratings alone (the value is a stable code for logs and locales)."""

    CASUAL = "casual"  # the game was not started as ranked
    AI_SEAT = "ai_seat"  # any AI seat (also a human seat taken over by the AI)
    EMPTY_SEAT = "empty_seat"  # a seat without a known human (e.g. a player who asked to be forgotten)
    SAME_PLAYER = "same_player"  # one person held two seats
    CANCELLED = "cancelled"
    TOO_SHORT = "too_short"  # fewer than MIN_RANKED_MOVES moves
    REPEAT = "repeat"  # the same line-ups already played REPEAT_LIMIT ranked games in the last 24 hours


@dataclass(frozen=True, slots=True)
class Streak:
    result: Result
    length: int
