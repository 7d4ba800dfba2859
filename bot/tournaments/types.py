"""The tournament values: settings, entrants, matches and the tournament itself.

A tournament is a row of options and progress, its entrants (numbered 1, 2, ... in the order they joined)
and its matches (one per board per round; a bye is a match without a second player). Matches name entrants
by number, never by user id, so forgetting a player touches only the entrant row.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

TournamentFormat = Literal["round_robin", "single_elimination", "swiss"]
FORMATS: tuple[TournamentFormat, ...] = get_args(TournamentFormat)
TournamentStatus = Literal["open", "running", "finished", "cancelled"]
OPEN_STATUSES: tuple[TournamentStatus, ...] = ("open", "running")
# How a match ended: player a won, b won, a draw, or "none" when neither player started it (both lose).
Outcome = Literal["a", "b", "draw", "none"]
OUTCOMES: tuple[Outcome, ...] = get_args(Outcome)
# Why: the game was played out, a bye, a forfeit at the round's time limit, or the hard AI's adjudication
# of a game still running at the time limit.
DecidedBy = Literal["game", "bye", "forfeit", "adjudication"]
DECIDED_BY: tuple[DecidedBy, ...] = get_args(DecidedBy)


@dataclass(frozen=True, slots=True)
class TournamentSettings:
    """What the organiser chose at creation: the games' options and the tournament's pace."""

    name: str
    format: TournamentFormat
    variant: str
    setup: str | None  # None: the variant's default
    turn_timer_seconds: int
    round_seconds: int  # a round's time limit
    ranked: bool


@dataclass(frozen=True, slots=True)
class Entrant:
    """One player of a tournament. `number` is their place in the order of joining (1, 2, ...); `seed`
    (1 = strongest) and `rating` (the rating it was seeded by) are set when the tournament starts."""

    number: int
    user_id: int | None  # None once the player asked to be forgotten
    display_name: str
    rating: int | None = None
    seed: int | None = None


@dataclass(frozen=True, slots=True)
class Pairing:
    """Who plays whom on one board of a round; `b` None is a bye for `a`."""

    a: int
    b: int | None


@dataclass(frozen=True, slots=True)
class Match:
    """One board of one round, with its game (once opened) and its result (once decided)."""

    round: int
    board: int
    a: int
    b: int | None
    game_id: int | None = None
    thread_id: int | None = None
    outcome: Outcome | None = None
    decided_by: DecidedBy | None = None
    chance_a: float | None = None  # adjudication only: the hard AI's chance that a wins

    @property
    def decided(self) -> bool:
        return self.outcome is not None

    def has(self, number: int) -> bool:
        return number in (self.a, self.b)

    def opponent(self, number: int) -> int | None:
        return self.b if number == self.a else self.a

    def winner(self) -> int | None:
        """The entrant who won, or None (a draw, a double forfeit, or undecided)."""
        if self.outcome == "a":
            return self.a
        if self.outcome == "b":
            return self.b
        return None


@dataclass(frozen=True, slots=True)
class Tournament:
    """A tournament as stored: settings, progress, entrants and every match so far."""

    tournament_id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    creator_id: int | None  # None once the creator asked to be forgotten
    settings: TournamentSettings
    status: TournamentStatus
    rounds: int | None  # planned number of rounds, known from the start
    round: int  # the current round, 0 before the start
    round_deadline: float | None
    created_at: float
    finished_at: float | None
    entrants: tuple[Entrant, ...]
    matches: tuple[Match, ...]

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES

    def entrant(self, number: int) -> Entrant:
        for entrant in self.entrants:
            if entrant.number == number:
                return entrant
        raise KeyError(f"tournament {self.tournament_id} has no entrant {number}")

    def entrant_of(self, user_id: int) -> Entrant | None:
        return next((e for e in self.entrants if e.user_id == user_id), None)

    def round_matches(self, number: int) -> tuple[Match, ...]:
        return tuple(m for m in self.matches if m.round == number)

    def match_of_game(self, game_id: int) -> Match | None:
        return next((m for m in self.matches if m.game_id == game_id), None)
