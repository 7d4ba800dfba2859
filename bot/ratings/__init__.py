"""Ranked ladders: who is rated, how a game moves ratings, and how a rating is shown.

Ratings use openskill's Weng-Lin Plackett-Luce model, which rates teams of any size natively, so one
function serves the 1 v 1 ("duel") ladder and the team ladder alike: every human seat of a ranked game is
updated. Pure arithmetic and policy (callers pass times in); the storage applies what `rate_seats` computes
inside the transaction that finishes a game. The values are in `bot.ratings.types`, the seasons' in
`bot.ratings.seasons`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from openskill.models import PlackettLuce, PlackettLuceRating

from bot.ratings.types import LADDERS, Ladder, Result, Streak, UnrankedReason

K = TypeVar("K", bound=Hashable)

# openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300 (tau keeps sigma from collapsing, so a
# long-time player's rating still moves).
MODEL = PlackettLuce()

PROVISIONAL_GAMES = 5  # fewer ranked games than this: provisional, marked and kept off leaderboards
DAY = 86400.0
INACTIVE_AFTER_DAYS = 30  # off the leaderboard without a ranked game in the last 30 UTC days (as Lichess)
MIN_RANKED_MOVES = 6  # games shorter than this many moves (all seats together) are unranked
# The same two players (or the same two line-ups) count for the ladders in at most this many ranked games
# in any REPEAT_WINDOW seconds; later games between them are unranked (farming a friend's account pays no more).
REPEAT_LIMIT = 3
REPEAT_WINDOW = 86_400.0
# An absence makes a rating uncertain again: sigma^2 grows by this squared per inactive day (beyond the 30 a
# player stays active), capped at a newcomer's. A regular's sigma of 3 to 4 (50 to 100 ranked games) grows past
# PROVISIONAL_SIGMA after 8 to 11 months away, and back to a newcomer's after about a year.
SIGMA_PER_INACTIVE_DAY = 0.4
# Sigma at or above this (about a newcomer's after three or four ranked games) marks an absent player's
# rating provisional again.
PROVISIONAL_SIGMA = 7.5

PAGE_SIZE = 10  # leaderboard rows per page

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

# An AI seat's strength is known from thousands of games (benchmarks/ai_ratings.py), so it carries only a
# little uncertainty: 2 sigma^2 = 2 against openskill's 2 beta^2 = 34.7 in a prediction.
AI_SIGMA = 1.0
# What an AI seat counts for when the teams of a lobby are balanced (games with an AI seat are never rated).
# Measured by `python benchmarks/ai_ratings.py` (Bell 1 v 1, the AI at the bot's 300 ms): the levels against
# each other from the exact solution (hard taken as perfect play), and 1,800 games against a model of a human
# player (medium's move, a random one 25% of the time) anchored at the newcomer's mu 25 (it won 78.8% against
# easy, 38.2% against medium, 35.5% against hard), fitted to openskill's prediction for two players.
AI_SKILLS: dict[str, Skill] = {
    "easy": Skill(19.86, AI_SIGMA),
    "medium": Skill(26.80, AI_SIGMA),
    "hard": Skill(27.69, AI_SIGMA),
}


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


def inactive_days(last_played: float, now: float) -> int:
    """Whole UTC days without a ranked game beyond the `INACTIVE_AFTER_DAYS` a player stays active."""
    return max(0, day_of(now) - day_of(last_played) - INACTIVE_AFTER_DAYS)


def with_absence(skill: Skill, last_played: float, now: float) -> Skill:
    """The skill as uncertain as an absence makes it: sigma^2 grows by SIGMA_PER_INACTIVE_DAY^2 for every
    inactive day (as Glicko's rating deviation grows between rating periods), never past a newcomer's sigma.
    The mean stays; the next ranked game starts from this sigma, so it moves the rating more."""
    grown = math.sqrt(skill.sigma**2 + inactive_days(last_played, now) * SIGMA_PER_INACTIVE_DAY**2)
    return Skill(skill.mu, max(skill.sigma, min(grown, NEWCOMER.sigma)))


@dataclass(frozen=True, slots=True)
class Status:
    """A stored rating as it stands now: its skill with the absence's uncertainty, and whether it is
    provisional (too few ranked games, or away so long that it is as uncertain as a beginner's again) and
    active (a ranked game in the last 30 days)."""

    skill: Skill
    provisional: bool
    active: bool


def status(skill: Skill, games: int, last_played: float, now: float) -> Status:
    now_skill = with_absence(skill, last_played, now)
    active = is_active(last_played, now)
    provisional = is_provisional(games) or (not active and now_skill.sigma >= PROVISIONAL_SIGMA)
    return Status(now_skill, provisional, active)


def day_of(timestamp: float) -> int:
    """The UTC day number of a Unix time, truncated toward zero as SQLite's CAST(t / 86400 AS INTEGER) and
    PostgreSQL's trunc(t / 86400) do (never PostgreSQL's t::bigint, which rounds: see `bot.storage.sql.port`)."""
    return int(timestamp / DAY)


# Ranks come from counts of listed players per UTC day of last game and per quarter point of conservative
# rating (the ladder_counts table). A power of two, so bucket bounds b / 4 are exact floats.
BUCKETS_PER_POINT = 4


def bucket_of(conservative: float) -> int:
    """The rating bucket of a conservative rating: floor(conservative * 4), negative ratings included."""
    return math.floor(conservative * BUCKETS_PER_POINT)


def listing_key(games: int, conservative: float, last_played: float) -> tuple[int, int] | None:
    """(day, bucket) under which a rating is counted for ranks, or None while it is provisional (unlisted)."""
    if is_provisional(games):
        return None
    return day_of(last_played), bucket_of(conservative)


def active_since(now: float) -> float:
    """Start of the UTC day `INACTIVE_AFTER_DAYS` days before today: activity is counted in whole days, so
    the ladder's per-day counts and the leaderboard agree exactly."""
    return (day_of(now) - INACTIVE_AFTER_DAYS) * DAY


def is_active(last_played: float, now: float) -> bool:
    """Active players played a ranked game on the ladder on one of the last 30 UTC days (or today)."""
    return last_played >= active_since(now)


def check_ladder(ladder: str) -> Ladder:
    """`ladder` as a Ladder, or ValueError for a name that is none."""
    if ladder not in LADDERS:
        raise ValueError(f"the ladder is 'duel' or 'team', not {ladder!r}")
    return ladder


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


def lineup(seats: Iterable[tuple[str, int | None]]) -> frozenset[frozenset[int | None]]:
    """Who played against whom, whichever side each team sat on: {team A's users, team B's users}."""
    teams: dict[str, set[int | None]] = {"A": set(), "B": set()}
    for seat, user_id in seats:
        teams[seat[0]].add(user_id)
    return frozenset(frozenset(team) for team in teams.values())


def unranked_reason(
    *, ranked: bool, cancelled: bool, seats: Sequence[SeatInfo], moves: int, ai_took_over: bool = False,
    same_lineup_games: int = 0,
) -> UnrankedReason | None:
    """None when a finished game counts for the ladders, otherwise the first reason it does not.
    `same_lineup_games` is how many ranked games the same line-ups played in the last REPEAT_WINDOW."""
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
    if same_lineup_games >= REPEAT_LIMIT:
        return UnrankedReason.REPEAT
    return None


def result_for(team: str, winner: str | None) -> Result:
    """A team's result given the winning team ("A", "B") or None for a draw."""
    if winner is None:
        return "draw"
    return "win" if winner == team else "loss"


@dataclass(frozen=True, slots=True)
class RatedSeat:
    """How one human seat's rating moves with a finished ranked game."""

    seat: str
    user_id: int
    result: Result
    before: Skill
    after: Skill
    games: int  # ranked games on this ladder and scope, this one included
    opponent_rating: int  # mean displayed rating of the other team before the game


def rate_seats(
    seats: Sequence[SeatInfo], known: Mapping[int, tuple[Skill, int]], winner: str | None
) -> tuple[RatedSeat, ...]:
    """New ratings of every seat of a ranked game on one ladder and scope.

    `known` maps user id -> (skill, ranked games so far) for players already rated there; the others start
    as `NEWCOMER`. Every seat must hold a user (see `unranked_reason`).
    """
    before: dict[str, Skill] = {}
    for seat in seats:
        if seat.user_id is None:
            raise ValueError(f"seat {seat.seat} has no user; an unranked game is never rated")
        before[seat.seat] = known[seat.user_id][0] if seat.user_id in known else NEWCOMER
    team = {t: [s for s in seats if s.seat[0] == t] for t in ("A", "B")}
    new_a, new_b = rate([before[s.seat] for s in team["A"]], [before[s.seat] for s in team["B"]], winner)
    after = dict(zip([s.seat for s in team["A"] + team["B"]], new_a + new_b, strict=True))
    rated = []
    for seat in seats:
        user = seat.user_id
        assert user is not None  # checked above
        opponents = [before[s.seat].display for s in team["B" if seat.seat[0] == "A" else "A"]]
        rated.append(
            RatedSeat(
                seat.seat,
                user,
                result_for(seat.seat[0], winner),
                before[seat.seat],
                after[seat.seat],
                known[user][1] + 1 if user in known else 1,
                round(sum(opponents) / len(opponents)),
            )
        )
    return tuple(rated)


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


def current_streak(results_newest_first: Sequence[Result]) -> Streak | None:
    """The current run of equal results in ranked games (newest first), or None before the first one."""
    if not results_newest_first:
        return None
    first = results_newest_first[0]
    length = 0
    for result in results_newest_first:
        if result != first:
            break
        length += 1
    return Streak(first, length)


def win_chances(skills: Mapping[K, Skill]) -> Callable[[Sequence[K], Sequence[K]], float]:
    """openskill's prediction that the first team beats the second, for players named by their keys in
    `skills` (each player's rating object is built once: balancing teams weighs thousands of splits)."""
    built = {key: PlackettLuceRating(skill.mu, skill.sigma) for key, skill in skills.items()}

    def chance(team_a: Sequence[K], team_b: Sequence[K]) -> float:
        first, _ = MODEL.predict_win([[built[k] for k in team_a], [built[k] for k in team_b]])
        return float(first)

    return chance
