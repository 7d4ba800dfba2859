"""The renderer tests' tower position (image and seeded-game helpers in `tests/helpers.py`)."""

from __future__ import annotations

import pytest

from puluc import Position, Rules


@pytest.fixture
def tower(ants: Rules) -> Position:
    """Ants 1 v 1: a B1-owned tower of six on cell 4 travelling home (right), lone pieces on 2 and 7."""
    return Position.from_ppn(ants, "./A1+/./B1A1A1B1B1A1-/././B1+/./. A1:1,B1:1 A1:0,B1:0 A1 -")
