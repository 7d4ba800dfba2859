"""The values the storage layer takes and returns, the same for every backend.

Plain frozen dataclasses, literals and enums, so sessions, cogs and tests can use them without a database.
The rating values (ladders, results, unranked reasons) are `bot.ratings.types`'.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, Literal, get_args

from bot.ratings.types import Ladder, Result, Streak, UnrankedReason
from bot.storage.errors import InvalidSeat, UnknownEventKind

GameStatus = Literal["lobby", "running", "finished", "cancelled"]
EndReason = Literal["normal", "resign", "timeout", "cancelled"]
END_REASONS: frozenset[str] = frozenset(get_args(EndReason))
# Event payloads speak of seats ("A1"), never of user ids, so forgetting a player never touches the log.
EVENT_KINDS: frozenset[str] = frozenset({"throw", "move", "resign", "timeout", "ai_takeover", "cancel"})
SEAT_PATTERN = re.compile(r"[AB][1-8]")
FORGOTTEN_NAME = "Former player"  # what anonymised seats show

GLOBAL_SCOPE = 0  # the scope id of the all-servers ladders; a server's ladders use its guild id


class Unchanged(Enum):
    """Marks an optional update argument the caller wants left as it is."""

    UNCHANGED = "unchanged"


UNCHANGED = Unchanged.UNCHANGED


class AllServers(Enum):
    """Marks a read of a player's data from every server (their own export), not one server's."""

    ALL_SERVERS = "all servers"


ALL_SERVERS = AllServers.ALL_SERVERS


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """A server's defaults for new games; None leaves a setting to the bot's default.

    `fire`, `scorpion` and `eagle_returns` are the rules a game adds to its variant when its host does not say
    (True adds it, False and None do not); which variants can take them is the sessions' business.
    """

    guild_id: int
    default_variant: str | None
    turn_timer_seconds: int | None
    locale: str | None
    fire: bool | None = None
    scorpion: bool | None = None
    eagle_returns: bool | None = None
    turn_ping_seconds: int | None = None  # the server's TURN_PING_AFTER_SECONDS
    web_public: bool | None = None  # True: anyone may open the server's web pages; else only with a signed link

    def updated(
        self,
        *,
        default_variant: str | Unchanged | None = UNCHANGED,
        turn_timer_seconds: int | Unchanged | None = UNCHANGED,
        locale: str | Unchanged | None = UNCHANGED,
        fire: bool | Unchanged | None = UNCHANGED,
        scorpion: bool | Unchanged | None = UNCHANGED,
        eagle_returns: bool | Unchanged | None = UNCHANGED,
        turn_ping_seconds: int | Unchanged | None = UNCHANGED,
        web_public: bool | Unchanged | None = UNCHANGED,
    ) -> GuildSettings:
        """These settings with the given ones changed (None resets one to the bot's default)."""
        if isinstance(turn_timer_seconds, int) and turn_timer_seconds <= 0:
            raise ValueError(f"a turn timer is a positive number of seconds, not {turn_timer_seconds}")
        if isinstance(turn_ping_seconds, int) and turn_ping_seconds < 0:
            raise ValueError(f"a ping delay is a number of seconds from 0, not {turn_ping_seconds}")
        for name, value in (("fire", fire), ("scorpion", scorpion), ("eagle_returns", eagle_returns),
                            ("web_public", web_public)):
            if not isinstance(value, bool | Unchanged | None):
                raise ValueError(f"{name} is True, False or None, not {value!r}")
        return GuildSettings(
            self.guild_id,
            self.default_variant if isinstance(default_variant, Unchanged) else default_variant,
            self.turn_timer_seconds if isinstance(turn_timer_seconds, Unchanged) else turn_timer_seconds,
            self.locale if isinstance(locale, Unchanged) else locale,
            self.fire if isinstance(fire, Unchanged) else fire,
            self.scorpion if isinstance(scorpion, Unchanged) else scorpion,
            self.eagle_returns if isinstance(eagle_returns, Unchanged) else eagle_returns,
            self.turn_ping_seconds if isinstance(turn_ping_seconds, Unchanged) else turn_ping_seconds,
            self.web_public if isinstance(web_public, Unchanged) else web_public,
        )


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """Who takes a seat: a user (user_id) or the AI (ai_level), and the name shown for it."""

    seat: str
    display_name: str
    user_id: int | None = None
    ai_level: int | None = None

    def __post_init__(self) -> None:
        if not SEAT_PATTERN.fullmatch(self.seat):
            raise InvalidSeat(f"seat names are A1..A8 or B1..B8, not {self.seat!r}")
        if (self.user_id is None) == (self.ai_level is None):
            raise InvalidSeat(f"seat {self.seat} needs exactly one of a user id or an AI level")


@dataclass(frozen=True, slots=True)
class Seat:
    seat: str
    user_id: int | None
    ai_level: int | None
    display_name: str
    consecutive_timeouts: int
    kills: int | None

    @property
    def team(self) -> str:
        return self.seat[0]


def turn_order(seat: Seat) -> tuple[int, str]:
    """Sort key of seats in turn order: A1, B1, A2, B2, ... (every backend lists a game's seats so)."""
    return int(seat.seat[1:]), seat.seat[0]


@dataclass(frozen=True, slots=True)
class NewEvent:
    """An event to append; payloads are JSON objects that name seats, never users."""

    kind: str
    payload: dict[str, Any]


def check_kinds(events: Sequence[NewEvent]) -> None:
    """Refuse events of a kind the log does not accept (before anything is written)."""
    for event in events:
        if event.kind not in EVENT_KINDS:
            raise UnknownEventKind(f"unknown event kind {event.kind!r}; expected one of {sorted(EVENT_KINDS)}")


@dataclass(frozen=True, slots=True)
class Event:
    seq: int
    kind: str
    payload: dict[str, Any]
    created_at: float


@dataclass(frozen=True, slots=True)
class Game:
    game_id: int
    guild_id: int | None
    channel_id: int
    in_thread: bool
    message_id: int | None
    status: GameStatus
    host_id: int | None
    ranked: bool
    variant: str
    rules: dict[str, Any]
    first_team: str | None
    throw_off: list[Any] | None
    seed: int | None
    turn_timer_seconds: int
    turn_deadline: float | None
    last_seq: int
    snapshot_ppn: str | None
    snapshot_seq: int
    winner: str | None
    scores: dict[str, int] | None
    end_reason: EndReason | None
    created_at: float
    updated_at: float
    finished_at: float | None
    seats: tuple[Seat, ...]
    pruned_at: float | None = None  # when its event log was pruned (FINISHED_GAME_RETENTION_DAYS); then no replay

    def seat(self, name: str) -> Seat:
        for seat in self.seats:
            if seat.seat == name:
                return seat
        raise InvalidSeat(f"game {self.game_id} has no seat {name}")


@dataclass(frozen=True, slots=True)
class GameLog:
    """A game with its whole event log: what a restart or a replay needs."""

    game: Game
    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class RatingChange:
    user_id: int
    ladder: Ladder
    scope: int
    result: Result
    before: int
    after: int
    provisional: bool


@dataclass(frozen=True, slots=True)
class FinishReport:
    game_id: int
    ladder: Ladder
    unranked: UnrankedReason | None  # None: the game was rated
    changes: tuple[RatingChange, ...]


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's place on one ladder; rank is None while provisional or inactive."""

    ladder: Ladder
    scope: int
    user_id: int
    display_name: str
    rating: int
    games: int
    wins: int
    draws: int
    losses: int
    provisional: bool
    active: bool
    rank: int | None

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True, slots=True)
class LeaderboardPage:
    ladder: Ladder
    scope: int
    page: int  # 0-based
    entries: tuple[Standing, ...]
    has_previous: bool
    has_next: bool
    caller: Standing | None  # the caller's own standing, shown even when off the page


@dataclass(frozen=True, slots=True)
class RatingPoint:
    game_id: int
    played_at: float
    rating: int


@dataclass(frozen=True, slots=True)
class BestWin:
    game_id: int
    opponent_rating: int
    played_at: float


@dataclass(frozen=True, slots=True)
class SeasonPlacement:
    """Where a player finished one closed season of a server's ladder (of `players` listed)."""

    guild_id: int
    season: int
    ladder: Ladder
    rank: int
    players: int


@dataclass(frozen=True, slots=True)
class Profile:
    user_id: int
    display_name: str
    standings: tuple[Standing, ...]  # every ladder and scope the player has a rating on (of those asked)
    finished_games: int
    kills: int
    best_wins: dict[str, BestWin]  # per ladder, global scope
    streak: Streak | None  # current run of equal results in ranked games
    favourite_variant: str | None
    seasons: tuple[SeasonPlacement, ...] = ()  # the best placements in closed seasons, best first


@dataclass(frozen=True, slots=True)
class GameSummary:
    """One line of a player's history, seen from the player's seat."""

    game_id: int
    variant: str
    guild_id: int | None
    ranked: bool
    status: GameStatus
    seat: str
    teammates: tuple[str, ...]
    opponents: tuple[str, ...]
    result: Result | None  # None for cancelled games
    end_reason: EndReason | None
    finished_at: float | None


@dataclass(frozen=True, slots=True)
class PersonalData:
    """What the privacy command shows: everything stored that points at one user."""

    user_id: int
    display_name: str | None
    last_active: float | None
    seats: int
    hosted_games: int
    ratings: int
    rating_history: int
    notify_mode: NotifyMode | None = None  # None: never chosen (turn pings in the channel)


@dataclass(frozen=True, slots=True)
class ForgetReport:
    seats_anonymised: int
    games_unhosted: int
    ratings_deleted: int
    history_deleted: int
    player_deleted: bool


@dataclass(frozen=True, slots=True)
class StoredCounts:
    """How much a database holds, for start-up and --check messages."""

    games: int
    players: int


@dataclass(frozen=True, slots=True)
class Inspection:
    """What a database holds now, and what opening it would change."""

    where: str  # absolute path, or host:port/database (never a password)
    exists: bool  # False: start-up creates it
    creates: tuple[str, ...]  # what start-up would create, outermost first (folders, then the file)
    schema_version: int  # 0 for a new or empty database
    latest_version: int  # the version this bot migrates to
    games: int
    players: int
    integrity: str  # "ok", or the problems found

    @property
    def empty(self) -> bool:
        return self.games == 0 and self.players == 0

    def describe(self, *, starting: bool = False) -> str:
        """One line: "existing, 12 games and 5 players, schema version 2, intact" and the like.

        `starting`: said by a bot that is about to open the database, not by `--check`, which only looks.
        """
        if not self.exists:
            *outer, last = self.creates
            made = f"{', '.join(outer)} and {last}" if outer else last
            if starting:
                return f"new: creating {made}"
            return f"new: start-up will create {made} (nothing was created now)"
        state = "existing but empty" if self.empty else "existing"
        counts = f"{_count(self.games, 'game')} and {_count(self.players, 'player')}"
        if self.schema_version < self.latest_version:
            migrate = "migrating it" if starting else "start-up will migrate it"
            version = f"schema version {self.schema_version}; {migrate} to {self.latest_version}"
        else:
            version = f"schema version {self.schema_version}"
        verdict = "intact" if self.integrity == "ok" else f"DAMAGED ({self.integrity})"
        return f"{state}, {counts}, {version}, {verdict}"


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


# -- turn calls (bot.sessions.calls) -------------------------------------------------------------------------

NotifyMode = Literal["channel", "dm", "off"]
NOTIFY_MODES: tuple[NotifyMode, ...] = ("channel", "dm", "off")


@dataclass(frozen=True, slots=True)
class TurnCall:
    """The call of a running game to the member whose turn it is: a ping due at `ping_at`, a reminder due at
    `remind_at` (None: sent, or none), and the message now calling them (`channel_id`, `message_id`), which
    is deleted once they act. At most one per game."""

    game_id: int
    guild_id: int | None
    user_id: int
    seq: int
    ping_at: float | None
    remind_at: float | None
    channel_id: int | None = None
    message_id: int | None = None


@dataclass(frozen=True, slots=True)
class MemberSettings:
    """How one member wants to be called to their turns, on every server: `notify_mode`; `locale` is their
    Discord language (for direct messages); `dm_refused` when a DM bounced and they were not told yet."""

    user_id: int
    notify_mode: NotifyMode = "channel"
    locale: str | None = None
    dm_refused: bool = False
