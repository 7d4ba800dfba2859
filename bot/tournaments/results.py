"""What a tournament action or tick did: the tournament after it, and the happenings, in order, that the bot
shows (a round's pairings, a match opened in its room, a result, the winner). Small frozen values."""

from __future__ import annotations

from dataclasses import dataclass

from bot.sessions.results import ActionResult
from bot.tournaments.types import Entrant, Match, Tournament


@dataclass(frozen=True, slots=True)
class Created:
    pass


@dataclass(frozen=True, slots=True)
class EntrantJoined:
    entrant: Entrant


@dataclass(frozen=True, slots=True)
class EntrantLeft:
    entrant: Entrant


@dataclass(frozen=True, slots=True)
class RoundStarted:
    round: int


@dataclass(frozen=True, slots=True)
class MatchOpened:
    """A match's game, a lobby in its own room (thread), to be shown there with both players called."""

    match: Match
    game: ActionResult


@dataclass(frozen=True, slots=True)
class MatchDecided:
    """A result: played out, a bye, a forfeit at the time limit, or an adjudication (`match.chance_a`);
    `stopped` is the match game the time limit called off, to be shown as such."""

    match: Match
    stopped: ActionResult | None = None


@dataclass(frozen=True, slots=True)
class TournamentFinished:
    winner: int  # entrant number


@dataclass(frozen=True, slots=True)
class TournamentCancelled:
    by_user_id: int


TournamentHappening = (
    Created | EntrantJoined | EntrantLeft | RoundStarted | MatchOpened | MatchDecided | TournamentFinished
    | TournamentCancelled
)


@dataclass(frozen=True)
class TournamentUpdate:
    tournament: Tournament
    happenings: tuple[TournamentHappening, ...]
