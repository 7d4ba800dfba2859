"""Helpers for building positions from a few cells, in the words of RULES.md."""

from __future__ import annotations

import pytest

from puluc import Move, Position, Rules


def ppn(length: int, cells: dict[int, str], home: str, kills: str, turn: str, pending: str = "-") -> str:
    board = "/".join(cells.get(i, ".") for i in range(1, length + 1))
    return f"{board} {home} {kills} {turn} {pending}"


def at(rules: Rules, cells: dict[int, str], home: str, kills: str, turn: str, pending: str = "-") -> Position:
    return Position.from_ppn(rules, ppn(rules.road_length, cells, home, kills, turn, pending))


def play(pos: Position, *moves: str) -> Position:
    for text in moves:
        pos = pos.play(Move.parse(text))
    return pos


def legal(pos: Position) -> set[str]:
    return {str(m) for m in pos.legal_moves()}


@pytest.fixture
def bell() -> Rules:
    return Rules.preset("bell")


@pytest.fixture
def ants() -> Rules:
    return Rules.preset("ants")
