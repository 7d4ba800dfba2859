"""Seasons of a server's ladders: a closed season and its archived final leaderboard.

`/puluc-admin season start` closes the current season, archives its final leaderboards and starts the next
from fresh ratings. The all-servers ladders have no seasons.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.ratings.types import Ladder


@dataclass(frozen=True, slots=True)
class Season:
    """A closed season of one server; `started_at` is None for the first (it began with the server's ladder)."""

    guild_id: int
    number: int
    started_at: float | None
    ended_at: float


@dataclass(frozen=True, slots=True)
class SeasonEntry:
    """One line of an archived leaderboard, as it stood when the season closed."""

    rank: int
    user_id: int | None  # None once the player asked to be forgotten
    display_name: str
    rating: int
    games: int
    wins: int
    draws: int
    losses: int


@dataclass(frozen=True, slots=True)
class SeasonPage:
    season: Season
    ladder: Ladder
    page: int  # 0-based
    entries: tuple[SeasonEntry, ...]
    has_previous: bool
    has_next: bool
    caller: SeasonEntry | None  # the caller's own line, shown even when off the page
