"""Ranked ladders: who is rated, how a game moves ratings, and how a rating is shown.

Ratings use openskill's Weng-Lin Plackett-Luce model, which rates teams of any size natively, so one
function serves the 1 v 1 ("duel") ladder and the team ladder alike: every human seat of a ranked game is
updated. This module is pure arithmetic and policy; it must never touch SQL, Discord or the clock (callers
pass times in). `bot/storage/sqlite/store.py` applies what it computes inside one transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

from bot.storage.types import Ladder, Result, UnrankedReason

# openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300 (tau keeps sigma from collapsing, so a
# long-time player's rating still moves).
MODEL = PlackettLuce()

PROVISIONAL_GAMES = 5  # fewer ranked games than this: provisional, marked and kept off leaderboards
DAY = 86400.0
INACTIVE_AFTER_DAYS = 30  # off the leaderboard without a ranked game in the last 30 UTC days (as Lichess)
MIN_RANKED_MOVES = 6  # games shorter than this many moves (all seats together) are unranked

DISPLAY_BASE = 1500
# Rating differences between settled players read like Elo differences. Elo's original model gives each
# player a normal performance with sd 200, so 200 points mean Phi(200 / (200 * sqrt(2))) ~ 76 % expected score.
# openskill predicts Phi((mu1 - mu2) / sqrt(2 beta^2 + sigmas^2)), the same form with beta in place of 200:
# one beta of mu is worth 200 display points (48 per unit of mu with the default beta 25/6).
DISPLAY_SCALE = 200.0 / MODEL.beta


@dataclass(frozen=True, slots=True)
class Skill:
    """One player's belief on one ladder: mean `mu` and uncertainty `sigma`."""

    mu: float
    sigma: float

    @property
    def conservative(self) -> float:
        """mu - 3 sigma: the player is 99.7 % likely to be at least this strong. Ladders sort on it."""
        return self.mu - 3.0 * self.sigma

    @property
    def display(self) -> int:
        """The one integer shown to players (see `display_rating`)."""
        return display_rating(self.mu, self.sigma)


NEWCOMER = Skill(MODEL.mu, MODEL.sigma)


def display_rating(mu: float, sigma: float) -> int:
    """Map a skill to a familiar integer: 1500 + 48 * (mu - 3 sigma).

    A newcomer (mu 25, sigma 25/3) has mu - 3 sigma = 0 and shows exactly 1500. Because the value is
    conservative it rises as games shrink sigma (an average regular settles near 2500), while differences
    between settled players keep the Elo meaning: 200 points ~ 76 % expected score (see DISPLAY_SCALE).
    """
    return round(DISPLAY_BASE + DISPLAY_SCALE * (mu - 3.0 * sigma))


def is_provisional(ranked_games: int) -> bool:
    """A rating is provisional until the player has `PROVISIONAL_GAMES` ranked games on that ladder."""
    return ranked_games < PROVISIONAL_GAMES


def day_of(timestamp: float) -> int:
    """The UTC day number of a Unix time (the same arithmetic SQLite's CAST(t / 86400 AS INTEGER) does)."""
    return int(timestamp / DAY)


def active_since(now: float) -> float:
    """Start of the UTC day `INACTIVE_AFTER_DAYS` days before today: activity is counted in whole days, so
    the ladder's per-day counts and the leaderboard agree exactly."""
    return (day_of(now) - INACTIVE_AFTER_DAYS) * DAY


def is_active(last_played: float, now: float) -> bool:
    """Active players played a ranked game on the ladder on one of the last 30 UTC days (or today)."""
    return last_played >= active_since(now)


def ladder_for(seat_count: int) -> Ladder:
    """Two seats are a duel; four or more (two teams of two or more) are the team ladder."""
    if seat_count < 2 or seat_count % 2:
        raise ValueError(f"a game has two teams of equal size, so an even number of seats, not {seat_count}")
    return "duel" if seat_count == 2 else "team"


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """What ranking needs to know about one seat."""

    seat: str
    user_id: int | None
    ai_level: int | None


def unranked_reason(
    *, ranked: bool, cancelled: bool, seats: Sequence[SeatInfo], moves: int, ai_took_over: bool = False
) -> UnrankedReason | None:
    """None when a finished game counts for the ladders, otherwise the first reason it does not."""
    if not ranked:
        return UnrankedReason.CASUAL
    if cancelled:
        return UnrankedReason.CANCELLED
    if ai_took_over or any(s.ai_level is not None for s in seats):
        return UnrankedReason.AI_SEAT
    users = [s.user_id for s in seats]
    if any(u is None for u in users):
        return UnrankedReason.EMPTY_SEAT
    if len(set(users)) != len(users):
        return UnrankedReason.SAME_PLAYER
    if moves < MIN_RANKED_MOVES:
        return UnrankedReason.TOO_SHORT
    return None


def result_for(team: str, winner: str | None) -> Result:
    """A team's result given the winning team ("A", "B") or None for a draw."""
    if winner is None:
        return "draw"
    return "win" if winner == team else "loss"


def rate(
    team_a: Sequence[Skill], team_b: Sequence[Skill], winner: str | None
) -> tuple[tuple[Skill, ...], tuple[Skill, ...]]:
    """New skills for both teams after one game; `winner` is "A", "B" or None for a draw.

    Teams may have any size (equal sizes in Puluc); each player's own mu and sigma are updated, so a strong
    player paired with a newcomer moves less than the newcomer does.
    """
    if winner not in ("A", "B", None):
        raise ValueError(f"winner must be 'A', 'B' or None for a draw, not {winner!r}")
    if not team_a or not team_b:
        raise ValueError("both teams need at least one rated player")
    ranks: list[float] = {"A": [1.0, 2.0], "B": [2.0, 1.0], None: [1.0, 1.0]}[winner]
    teams = [
        [PlackettLuceRating(s.mu, s.sigma) for s in team_a],
        [PlackettLuceRating(s.mu, s.sigma) for s in team_b],
    ]
    new_a, new_b = MODEL.rate(teams, ranks=ranks)
    return (
        tuple(Skill(r.mu, r.sigma) for r in new_a),
        tuple(Skill(r.mu, r.sigma) for r in new_b),
    )
