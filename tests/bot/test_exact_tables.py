"""The exact tables the bot ships (bot.exact): found as package data and read once per process."""

from __future__ import annotations

from bot.exact import bell_table
from puluc import Position, Rules


def test_the_shipped_bell_table_covers_bell_and_is_read_once() -> None:
    table = bell_table()
    assert table.covers(Rules.preset("bell")) and not table.covers(Rules.preset("bell", team_size=2))
    assert bell_table() is table
    # The first player's exact chance with perfect play (research/exact_1v1.py): 0.5143.
    assert abs(table.chance(Position.start(Rules.preset("bell"), first="A")) - 0.5143) < 3e-4
