"""Puluc (Bul), the Maya running-fight game: a pure rules engine (RULES.md).

Public API (RULES.md §10): `Rules`, `Position`, `Move`, plus `Throw`, `throw_off`, `Outcome`, `Stack`,
`MoveEffect`, `GameRecord` and `Game`. Bad input raises a `ValueError` of the family in `errors.py`
(`PulucError` and its subclasses, each with a stable `code`). This package does no I/O, never draws and knows
nothing of Discord.
"""

from __future__ import annotations

from .errors import (
    ErrorCode,
    IllegalMove,
    IllegalMoveError,
    IllegalThrowError,
    InvalidCellError,
    InvalidMoveError,
    InvalidPositionError,
    InvalidRecordError,
    InvalidRequestError,
    InvalidRulesError,
    InvalidSeatError,
    InvalidThrowError,
    NoMoveToChooseError,
    PulucError,
)
from .position import Move, MoveEffect, Outcome, Position, Stack
from .record import Game, GameRecord, MoveEvent, ThrowEvent
from .rules import PRESETS, SETUPS, Rules, default_road_length, seat_index, seat_name
from .sticks import STICK_TABLES, Throw, ThrowOff, throw_off, throw_probabilities

__all__ = [
    "PRESETS",
    "SETUPS",
    "STICK_TABLES",
    "ErrorCode",
    "Game",
    "GameRecord",
    "IllegalMove",
    "IllegalMoveError",
    "IllegalThrowError",
    "InvalidCellError",
    "InvalidMoveError",
    "InvalidPositionError",
    "InvalidRecordError",
    "InvalidRequestError",
    "InvalidRulesError",
    "InvalidSeatError",
    "InvalidThrowError",
    "Move",
    "MoveEffect",
    "MoveEvent",
    "NoMoveToChooseError",
    "Outcome",
    "Position",
    "PulucError",
    "Rules",
    "Stack",
    "Throw",
    "ThrowEvent",
    "ThrowOff",
    "default_road_length",
    "seat_index",
    "seat_name",
    "throw_off",
    "throw_probabilities",
]
