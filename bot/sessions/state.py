"""The values a game session works with: who sits where, the options, and one immutable game state.

A `GameState` is never changed in place: every action builds a new one with `dataclasses.replace`, saves
it, and only then swaps it in, so a failed save leaves the old state intact.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from bot.config_spec import TURN_TIMER_SECONDS
from bot.sessions.errors import InvalidOptions
from bot.storage.types import EndReason, GameStatus, GuildSettings
from puluc import PRESETS, SETUPS, InvalidRulesError, Move, MoveEffect, Position, Rules, Throw
from puluc.record import GameRecord, MoveEvent, ThrowEvent

Actor = Literal["player", "ai", "timer"]

DEFAULT_VARIANT = "bell"  # RULES.md §9: Bell is the default preset
AI_LEVELS: tuple[str, ...] = ("easy", "medium", "hard")
TIMEOUT_LEVEL = "medium"  # the strength of the move played for a player whose time ran out
MAX_TIMEOUTS = 3  # consecutive time-outs before the seat goes to the AI (or a 1 v 1 is forfeited)
# The same bounds as the TURN_TIMER_SECONDS setting and the commands' turn_timer options (one definition).
MIN_TURN_TIMER, MAX_TURN_TIMER = TURN_TIMER_SECONDS.minimum, TURN_TIMER_SECONDS.maximum
ADDED_RULES: tuple[str, ...] = ("fire", "scorpion", "eagle_returns")  # rules a host may add to a variant


def ai_level_number(level: str) -> int:
    """The store keeps AI levels as numbers 1..3."""
    return AI_LEVELS.index(level) + 1


def ai_level_name(number: int) -> str:
    return AI_LEVELS[min(max(number, 1), len(AI_LEVELS)) - 1]


def ai_seat_name(level: str) -> str:
    """The name an AI seat is stored under ("AI (hard)"); `ai_level_of` reads it back, so that lists built
    from stored names (a history) can show it in the reader's language."""
    return f"AI ({level})"


def ai_level_of(name: str) -> str | None:
    """The AI level a stored seat name stands for, or None for a player's name."""
    return next((level for level in AI_LEVELS if name == ai_seat_name(level)), None)


@dataclass(frozen=True, slots=True)
class Player:
    """A human taking part: the Discord user id and the name shown on the board."""

    user_id: int
    name: str


@dataclass(frozen=True, slots=True)
class Place:
    """Where a game is played: the channel (or thread) and its server (None in direct messages)."""

    guild_id: int | None
    channel_id: int
    in_thread: bool = False


@dataclass(frozen=True, slots=True)
class GameOptions:
    """What the host chose; `rules()` turns it into engine rules and rejects impossible combinations.

    `fire`, `scorpion` and `eagle_returns` add that rule to the variant (RULES.md §9: fire and scorpion combine
    with any route but culin's scorpion; the returning eagle is a house rule of eagle capture); False keeps the
    variant's own value, so the fire preset burns whatever `fire` says.
    """

    variant: str = DEFAULT_VARIANT
    team_size: int = 1
    setup: str | None = None  # None: the variant's default for the team size
    ranked: bool = False
    turn_timer: int = TURN_TIMER_SECONDS.default
    fire: bool = False
    scorpion: bool = False
    eagle_returns: bool = False

    @classmethod
    def of_game(cls, variant: str, rules: Rules, ranked: bool, turn_timer: int) -> GameOptions:
        """The options that make a game with these rules again (a rematch)."""
        return cls(variant, rules.team_size, rules.setup, ranked, turn_timer, fire=rules.fire,
                   scorpion=rules.scorpion, eagle_returns=rules.eagle_returns)

    def rules(self) -> Rules:
        if self.variant not in PRESETS:
            raise InvalidOptions(f"unknown variant {self.variant!r}", code="unknown_choice", field="preset",
                                 value=self.variant)
        if self.setup is not None and self.setup not in SETUPS:
            raise InvalidOptions(f"unknown setup {self.setup!r}", code="unknown_choice", field="setup",
                                 value=self.setup)
        if not MIN_TURN_TIMER <= self.turn_timer <= MAX_TURN_TIMER:
            raise InvalidOptions(f"turn timer {self.turn_timer} out of range", code="out_of_range",
                                 field="turn_timer", value=self.turn_timer, low=MIN_TURN_TIMER, high=MAX_TURN_TIMER)
        added = {name: True for name in ADDED_RULES if getattr(self, name)}
        try:
            if self.setup is None:
                return Rules.preset(self.variant, team_size=self.team_size, **added)
            return Rules.from_setup(self.variant, self.team_size, self.setup, **added)
        except InvalidRulesError as exc:
            # The engine's code and fields go along, so the refusal is said in the player's language.
            raise InvalidOptions(str(exc), code=exc.code.value, **exc.params) from exc


def rule_fits(variant: str, rule: str) -> bool:
    """Whether the added rule `rule` ("fire", "scorpion", "eagle_returns") can be added to `variant`."""
    try:
        Rules.preset(variant, **{rule: True})
    except InvalidRulesError:
        return False
    return True


def server_rules(variant: str, guild: GuildSettings) -> dict[str, bool]:
    """The rules a server adds to its games by default, as far as `variant` can take them.

    `/puluc-admin settings` refuses defaults that do not suit the server's own default variant; a game of
    another variant (chosen by its host) simply goes without the defaults that variant cannot take, since the
    host never asked for them. A rule the host names (True or False) is the host's and always wins.
    """
    wanted = {"fire": guild.fire, "scorpion": guild.scorpion, "eagle_returns": guild.eagle_returns}
    return {name: bool(wanted[name]) and rule_fits(variant, name) for name in ADDED_RULES}


@dataclass(frozen=True, slots=True)
class SeatState:
    """One seat: a human (`user_id`) or the AI (`ai_level`); a human seat may be taken over by the AI."""

    seat: str
    name: str
    user_id: int | None = None
    ai_level: str | None = None
    timeouts: int = 0  # consecutive turns that ran out of time
    taken_over: bool = False

    @property
    def team(self) -> str:
        return self.seat[0]

    @property
    def played_by_ai(self) -> bool:
        return self.ai_level is not None or self.taken_over

    @property
    def level(self) -> str:
        """The AI strength that plays this seat (taken-over seats play at the medium level)."""
        return self.ai_level or TIMEOUT_LEVEL


@dataclass(frozen=True, slots=True)
class MoveOption:
    """A legal move and what it does, for buttons and autocomplete."""

    move: Move
    effect: MoveEffect

    @property
    def notation(self) -> str:
        return str(self.move)


@dataclass(frozen=True)
class GameState:
    """Everything known about one game at one moment."""

    game_id: int
    place: Place
    host_id: int | None
    variant: str
    rules: Rules
    ranked: bool
    turn_timer: int
    status: GameStatus
    seats: tuple[SeatState, ...]  # filled seats, in turn order
    message_id: int | None = None
    invited_id: int | None = None  # the challenged member of a 1 v 1 invitation (not kept across restarts)
    seed: int | None = None
    first: str | None = None
    throw_off: tuple[tuple[Throw, Throw], ...] = ()
    position: Position | None = None
    record: tuple[ThrowEvent | MoveEvent, ...] = ()
    seq: int = 0  # number of the last event in the game's log: the "turn" buttons carry
    deadline: float | None = None
    turn_throws: tuple[Throw, ...] = ()  # the sticks thrown for the turn in progress (or the last turn)
    winner: str | None = None
    scores: dict[str, int] | None = field(default=None, compare=False)
    end_reason: EndReason | None = None
    # The tournament this game is a match of: either seated player starts it, nobody leaves or cancels it,
    # and its result goes to the tournament (bot.tournaments). Set at creation and after a reload.
    tournament_id: int | None = None
    # When the game was created: a lobby nobody starts closes LOBBY_EXPIRY_SECONDS later (bot.sessions.manager).
    opened_at: float | None = None

    # -- seats ------------------------------------------------------------------------------------------

    def seat(self, name: str) -> SeatState | None:
        return next((s for s in self.seats if s.seat == name), None)

    def seat_of(self, user_id: int) -> SeatState | None:
        """The seat this user sits in (the first one, should they hold several)."""
        return next((s for s in self.seats if s.user_id == user_id), None)

    def free_seats(self) -> tuple[str, ...]:
        taken = {s.seat for s in self.seats}
        return tuple(name for name in self.rules.seats if name not in taken)

    @property
    def humans(self) -> tuple[int, ...]:
        return tuple(dict.fromkeys(s.user_id for s in self.seats if s.user_id is not None))

    @property
    def has_ai_seat(self) -> bool:
        """Whether the AI plays a seat from the start (what the caps on games with AI seats count)."""
        return any(s.ai_level is not None for s in self.seats)

    @property
    def nobody_left(self) -> bool:
        """Whether every player's seat has been handed to the AI: the game would play itself."""
        players = [s for s in self.seats if s.ai_level is None]
        return bool(players) and all(s.taken_over for s in players)

    @property
    def abandoned(self) -> bool:
        """A game that ended because nobody was left playing it (`nobody_left`): unrated, no rematch."""
        return self.status == "cancelled" and self.nobody_left

    # -- play -------------------------------------------------------------------------------------------

    @property
    def is_open(self) -> bool:
        return self.status in ("lobby", "running")

    @property
    def to_move(self) -> SeatState | None:
        """The seat whose turn it is while the game runs."""
        if self.status != "running" or self.position is None or self.position.is_over:
            return None
        return self.seat(self.position.to_move)

    def legal_options(self) -> list[MoveOption]:
        if self.to_move is None or self.position is None:
            return []
        pos = self.position
        return [MoveOption(move, pos.move_effect(move)) for move in pos.legal_moves()]

    def game_record(self) -> GameRecord:
        """The game so far as an engine record (for replays and analysis)."""
        names = {s.seat: s.name if s.ai_level is None else f"ai:{s.ai_level}" for s in self.seats}
        return GameRecord(self.rules, self.first or "A", names, list(self.record), self.throw_off, self.seed)
