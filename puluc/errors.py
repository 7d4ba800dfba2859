"""Why the engine refuses its input: one exception family, all `ValueError`s, in the manner of python-chess.

Each class says *what* input was bad, so a caller catches exactly what it means:

    PulucError                  any refusal of the engine (never raised itself)
    ├── InvalidRulesError       a rules configuration that is not a game (`Rules`, presets, setups, sticks)
    ├── InvalidMoveError        text that is not move notation (`Move.parse`)
    ├── IllegalMoveError        a move that is not legal in this position (`play`, `move_effect`); alias IllegalMove
    ├── InvalidThrowError       a throw that the sticks cannot show (a face code, a value of another table)
    ├── IllegalThrowError       a throw this position does not take now (the game is over, already thrown, ...)
    ├── InvalidSeatError        a seat name that is none, or a seat beyond the team size
    ├── InvalidCellError        a cell number off this road
    ├── InvalidPositionError    PPN text that is malformed or describes an impossible position
    ├── InvalidRecordError      a game record that cannot be read or does not replay (`event`: which one)
    ├── InvalidRequestError     an argument the AI does not take (`puluc.ai`: an unknown level, a bad budget)
    └── NoMoveToChooseError     the AI is asked for a move where none is to play (must throw, game over)

Each error also carries a stable, machine-readable `code` (`ErrorCode`: the one list of them, below) and the
structured fields that explain it (`params`), so the bot can say it in the player's language; `str(error)`
is a clear English sentence for logs and tools. When an error is caused by another (a record's illegal move,
a PPN's bad seat name) the cause is chained (`__cause__`). This module knows nothing else of the engine.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from .position import Move


class ErrorCode(StrEnum):
    """Why, in one word the bot can look up. A code means one thing whichever class carries it."""

    # -- shared --------------------------------------------------------------------------------------
    NOT_TEXT = "not_text"  # the input should be text and is not
    NOT_A_WHOLE_NUMBER = "not_a_whole_number"  # `field` must be an integer (rules fields, a record's seed)
    NOT_A_SEAT = "not_a_seat"  # `seat` is not a seat name (A1..A8, B1..B8)
    NOT_A_TEAM = "not_a_team"  # `seat` should be "A" or "B" (who moves first)
    SEAT_NOT_IN_GAME = "seat_not_in_game"  # `seat` is beyond a `team_size` v `team_size` game
    CELL_OUT_OF_RANGE = "cell_out_of_range"  # `cell` is not from `low` to `high`
    NOT_A_THROW_VALUE = "not_a_throw_value"  # `value` is not one of the sticks' values (`allowed`)
    GAME_OVER = "game_over"  # the game has ended: no more throws or moves
    NOT_A_POSITIVE_NUMBER = "not_a_positive_number"  # `field` must be a number above zero (the AI's budget_ms)
    # -- InvalidRulesError: `field`, `value`, `choices`, `low`, `high` -----------------------------------
    UNKNOWN_CHOICE = "unknown_choice"  # `value` is not one of `choices` for `field` (route, preset, setup, ...)
    UNKNOWN_OPTION = "unknown_option"  # `value` names options that are no rules field (`choices` are)
    NOT_A_BOOLEAN = "not_a_boolean"  # `field` must be true or false
    OUT_OF_RANGE = "out_of_range"  # `field` must be from `low` to `high`
    NOT_ODD_IN_RANGE = "not_odd_in_range"  # `field` (road_length) must be odd, from `low` to `high`
    SCORPION_ON_CULIN = "scorpion_on_culin"  # scorpion does not combine with the culin route (RULES.md §4)
    EAGLE_RETURNS_WITHOUT_EAGLE = "eagle_returns_without_eagle"  # the house rule needs eagle capture
    NOT_AN_OBJECT = "not_an_object"  # rules (or a record) must be a JSON object
    # -- InvalidThrowError: `value`, `sticks`, `allowed` -------------------------------------------------
    NOT_FOUR_STICKS = "not_four_sticks"  # a throw is four faces, each True or False
    NOT_A_FACE_CODE = "not_a_face_code"  # `value` is not four characters 0 or 1
    # -- IllegalThrowError: `seat`, `pending`, `expected`, `found` ----------------------------------------
    ALREADY_THROWN = "already_thrown"  # `seat` has thrown (`pending`) and must move
    WRONG_THROW_COUNT = "wrong_throw_count"  # a turn throws `expected` times, not `found`
    # -- InvalidMoveError: `text`, `low`, `high` -------------------------------------------------------
    NOT_MOVE_NOTATION = "not_move_notation"  # `text` is not <throw>:<cell or H>[b]
    THROW_OUT_OF_RANGE = "throw_out_of_range"  # the throw in `text` is not from `low` to `high`
    BACKWARD_ENTRY = "backward_entry"  # entering from home is never backward
    LEADING_ZERO = "leading_zero"  # numbers are written without leading zeros
    # -- IllegalMoveError: `move`, `seat`, `pending` -----------------------------------------------------
    NOT_A_MOVE = "not_a_move"  # the object played is not a Move
    MUST_THROW_FIRST = "must_throw_first"  # `seat` has not thrown yet
    NO_SUCH_THROW = "no_such_throw"  # no pending throw is `move`'s throw (`pending`)
    NOT_LEGAL_HERE = "not_legal_here"  # `move` is no legal move of `seat` here
    # -- InvalidPositionError (PPN): `field` (1-5), `cell`, `seat`, `text`, `expected`, `found` ----------------
    WRONG_FIELD_COUNT = "wrong_field_count"  # PPN has five fields separated by single spaces
    WRONG_CELL_COUNT = "wrong_cell_count"  # the board has `found` cells, the road `expected`
    NOT_A_STACK = "not_a_stack"  # `text` on `cell` is neither '.' nor seats and a direction
    BACKWARD_ON_ARMY = "backward_on_army"  # on the army route no stack moves '-'
    STACK_ON_FIRE = "stack_on_fire"  # nothing stands on the fire cell
    TOWER_UNDER_EAGLE = "tower_under_eagle"  # eagle capture makes no stacks of several pieces
    WRONG_ENTRY_COUNT = "wrong_entry_count"  # a per-seat field has `found` entries, the game `expected` seats
    NOT_SEAT_ORDER = "not_seat_order"  # `text` should be `seat`:<count>, in seat order
    NOT_PENDING_THROWS = "not_pending_throws"  # `text` is not throws joined by ',' or '-'
    TOO_MANY_THROWS = "too_many_throws"  # `found` pending throws; a turn has `expected`
    TOO_MANY_PIECES = "too_many_pieces"  # `seat` has more than `expected` pieces at home and on the road
    KILLS_EXCEED_LOSSES = "kills_exceed_losses"  # `team`'s enemies killed `found` but only `expected` are off
    LOSS_WITHOUT_KILL = "loss_without_kill"  # without fire or eagle, every piece lost is a kill
    PENDING_WITHOUT_MOVE = "pending_without_move"  # throws pending but no legal move (the turn would pass)
    # -- InvalidRecordError: `event` (1-based), `field`, `value` ------------------------------------------
    NOT_JSON = "not_json"  # the text is not JSON
    NOT_A_RECORD = "not_a_record"  # no "format": "puluc-record"
    UNSUPPORTED_VERSION = "unsupported_version"  # `value` is a version this engine does not read
    INVALID_RULES = "invalid_rules"  # the record's rules are refused (the cause says why)
    NOT_SEAT_LABELS = "not_seat_labels"  # seats must map seat names to text labels
    NOT_THROW_OFF = "not_throw_off"  # throw-off rounds are pairs of face codes
    INVALID_THROW = "invalid_throw"  # a face code or throw value is refused (the cause says why)
    NOT_A_LIST = "not_a_list"  # `field` must be a list
    NOT_AN_EVENT = "not_an_event"  # `event` is neither {"throw": [...]} nor {"move": "3:7"}
    INVALID_MOVE = "invalid_move"  # `event`'s move is not move notation (the cause says why)
    FACES_MISMATCH = "faces_mismatch"  # `event`'s faces do not give its throw values
    ILLEGAL_EVENT = "illegal_event"  # `event` cannot be played where it stands (the cause says why)


class PulucError(ValueError):
    """The engine refuses its input: `code` says why, `params` hold the details, `str()` says it in English."""

    #: The names of the attributes that explain this kind of error; `params` maps them to their values.
    FIELDS: ClassVar[tuple[str, ...]] = ()

    def __init__(self, message: str, code: ErrorCode) -> None:
        super().__init__(message)
        self.code = code

    @property
    def params(self) -> dict[str, object]:
        """The structured details, by name, for filling a translated message."""
        return {name: getattr(self, name) for name in self.FIELDS}

    def __reduce__(self) -> tuple[object, ...]:
        # The subclasses' keyword-only fields would defeat BaseException's default cls(*args) rebuild.
        return (_restore, (type(self), str(self)), self.__dict__)


def _restore(cls: type[PulucError], message: str) -> PulucError:
    return cls.__new__(cls, message)


class InvalidRulesError(PulucError):
    """A rules configuration that does not make a game: an unknown choice, a bad value or combination."""

    FIELDS = ("field", "value", "choices", "low", "high")

    def __init__(
        self,
        message: str,
        code: ErrorCode,
        *,
        field: str | None = None,
        value: object = None,
        choices: tuple[str, ...] = (),
        low: int | None = None,
        high: int | None = None,
    ) -> None:
        super().__init__(message, code)
        self.field = field
        self.value = value
        self.choices = choices
        self.low = low
        self.high = high


class InvalidMoveError(PulucError):
    """Text that is not move notation `<throw>:<cell or H>[b]` (RULES.md §10); `text` is what was given."""

    FIELDS = ("text", "low", "high")

    def __init__(
        self, message: str, code: ErrorCode, *, text: str | None, low: int | None = None, high: int | None = None
    ) -> None:
        super().__init__(message, code)
        self.text = text
        self.low = low
        self.high = high


class IllegalMoveError(PulucError):
    """A move that is not legal in the position it is played in; `seat` is the seat to move."""

    FIELDS = ("move", "seat", "pending")

    def __init__(
        self, message: str, code: ErrorCode, *, move: Move | None, seat: str, pending: tuple[int, ...]
    ) -> None:
        super().__init__(message, code)
        self.move = move
        self.seat = seat
        self.pending = pending


class InvalidThrowError(PulucError):
    """A throw the sticks cannot show: faces that are not four sticks, or a value not in the sticks table."""

    FIELDS = ("value", "sticks", "allowed")

    def __init__(
        self, message: str, code: ErrorCode, *, value: object, sticks: str, allowed: tuple[int, ...] = ()
    ) -> None:
        super().__init__(message, code)
        self.value = value
        self.sticks = sticks
        self.allowed = allowed


class IllegalThrowError(PulucError):
    """A throw the position does not take now: the game is over, the seat has thrown, or the count is wrong."""

    FIELDS = ("seat", "pending", "expected", "found")

    def __init__(
        self,
        message: str,
        code: ErrorCode,
        *,
        seat: str,
        pending: tuple[int, ...] = (),
        expected: int | None = None,
        found: int | None = None,
    ) -> None:
        super().__init__(message, code)
        self.seat = seat
        self.pending = pending
        self.expected = expected
        self.found = found


class InvalidSeatError(PulucError):
    """A seat name that names no seat (or, for who moves first, no team), or a seat beyond the team size."""

    FIELDS = ("seat", "team_size")

    def __init__(self, message: str, code: ErrorCode, *, seat: object, team_size: int | None = None) -> None:
        super().__init__(message, code)
        self.seat = seat
        self.team_size = team_size


class InvalidCellError(PulucError):
    """A cell number off the road: cells are `low` (1) to `high` (the road length)."""

    FIELDS = ("cell", "low", "high")

    def __init__(self, message: str, code: ErrorCode, *, cell: int, low: int, high: int) -> None:
        super().__init__(message, code)
        self.cell = cell
        self.low = low
        self.high = high


class InvalidPositionError(PulucError):
    """PPN text that is malformed, or describes a position no game can reach (RULES.md §10, §11.12).

    `field` is the PPN field (1 board, 2 home, 3 kills, 4 seat to move, 5 pending throws) when one is at fault.
    """

    FIELDS = ("field", "cell", "seat", "team", "text", "expected", "found")

    def __init__(
        self,
        message: str,
        code: ErrorCode,
        *,
        field: int | None = None,
        cell: int | None = None,
        seat: str | None = None,
        team: str | None = None,
        text: str | None = None,
        expected: int | None = None,
        found: int | None = None,
    ) -> None:
        super().__init__(message, code)
        self.field = field
        self.cell = cell
        self.seat = seat
        self.team = team
        self.text = text
        self.expected = expected
        self.found = found


class InvalidRecordError(PulucError):
    """A game record that cannot be read, or does not replay. `event` is the 1-based number of the event at
    fault (None when the fault is outside the events), `field` the record's key at fault."""

    FIELDS = ("event", "field", "value")

    def __init__(
        self, message: str, code: ErrorCode, *, event: int | None = None, field: str | None = None, value: object = None
    ) -> None:
        super().__init__(message, code)
        self.event = event
        self.field = field
        self.value = value


class InvalidRequestError(PulucError):
    """An argument the AI (`puluc.ai`) does not take: `field` names it, `value` is what was given, `choices` the
    values it takes where they are a list (an unknown level; a budget that is not a positive number of ms)."""

    FIELDS = ("field", "value", "choices")

    def __init__(
        self, message: str, code: ErrorCode, *, field: str, value: object, choices: tuple[str, ...] = ()
    ) -> None:
        super().__init__(message, code)
        self.field = field
        self.value = value
        self.choices = choices


class NoMoveToChooseError(PulucError):
    """The AI is asked for a move where there is none to choose: `seat` must throw first (MUST_THROW_FIRST), or
    the game is over (GAME_OVER)."""

    FIELDS = ("seat",)

    def __init__(self, message: str, code: ErrorCode, *, seat: str) -> None:
        super().__init__(message, code)
        self.seat = seat


#: The name python-chess-minded tools and the bot already use for an illegal move.
IllegalMove = IllegalMoveError
