"""What tournament messages say, built from tournaments written out here: numbers as each language writes them,
clauses where each language's sentence puts them, and names whose gender nobody knows."""

from __future__ import annotations

import re

import pytest

from bot.cogs.tournaments.texts import table_text
from bot.storage.tournament_types import (
    Entrant,
    Match,
    Tournament,
    TournamentFormat,
    TournamentSettings,
    TournamentStatus,
)
from bot.ui.i18n import SUPPORTED


def tournament(matches: tuple[Match, ...], *, format: TournamentFormat = "swiss", name: str = "Winter Cup",
               entrants: int = 4, status: TournamentStatus = "running") -> Tournament:
    """A tournament of `entrants` players (alice, bob, ...) seeded in joining order, with these matches."""
    names = ("alice", "bob", "carol", "dave", "eve", "fay", "gus", "hal")
    return Tournament(
        tournament_id=7, guild_id=1, channel_id=2, message_id=3, creator_id=101,
        settings=TournamentSettings(name, format, "bell", None, 600, 86_400, True), status=status,
        rounds=3, round=max((m.round for m in matches), default=1), round_deadline=1_800_000_000.0,
        created_at=1_799_000_000.0, finished_at=None,
        entrants=tuple(Entrant(i + 1, 101 + i, names[i], 1500 - 10 * i, i + 1) for i in range(entrants)),
        matches=matches,
    )


# Round 1: alice and bob draw, carol beats dave; round 2: alice beats carol, bob and dave draw.
HALVES = (
    Match(1, 1, 1, 2, game_id=1, outcome="draw", decided_by="game"),
    Match(1, 2, 3, 4, game_id=2, outcome="a", decided_by="game"),
    Match(2, 1, 1, 3, game_id=3, outcome="a", decided_by="game"),
    Match(2, 2, 2, 4, game_id=4, outcome="draw", decided_by="game"),
)


def row(text: str, name: str) -> str:
    return next(line for line in text.splitlines() if f" {name} " in line)


@pytest.mark.parametrize(("lang", "mark"), [("uk", ","), ("it", ","), ("fr", ","), ("en", "."), ("es", ".")])
def test_a_table_writes_half_points_with_the_languages_decimal_mark(lang: str, mark: str) -> None:
    text = table_text(tournament(HALVES), lang)
    alice = row(text, "alice")
    assert f" 1{mark}5 " in alice  # a win and a draw
    assert f" 1{mark}0 " in row(text, "bob")
    other = "." if mark == "," else ","
    assert not re.search(rf"\d\{other}\d", text), text


@pytest.mark.parametrize("lang", SUPPORTED)
def test_a_table_keeps_its_columns_in_every_language(lang: str) -> None:
    lines = table_text(tournament(HALVES), lang).splitlines()[1:-1]
    assert len({len(line) for line in lines[1:]}) == 1, lines  # every player's row as wide as the others
