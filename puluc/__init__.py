"""Puluc (Bul), the Maya running-fight game: a pure rules engine (RULES.md).

Public API (RULES.md §10): `Rules`, `Position`, `Move`, plus `Throw`, `throw_off`, `Outcome`, `Stack`,
`MoveEffect`, `GameRecord` and `Game`. Bad input raises a `ValueError` of the family in `errors.py`
(`PulucError` and its subclasses, each with a stable `code`).

A game of Bell, A to move: A throws 2 and enters a piece from home onto cell 2.

>>> from puluc import Move, Position, Rules
>>> pos = Position.start(Rules.preset("bell"), first="A")
>>> pos.legal_moves()  # the sticks first
[]
>>> pos = pos.throw([2])
>>> [str(move) for move in pos.legal_moves()]
['2:H']
>>> pos = pos.play(Move.parse("2:H"))
>>> pos.to_ppn()
'./A1+/././././././. A1:4,B1:5 A1:0,B1:0 B1 -'
>>> pos.outcome() is None  # still running
True
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
