"""The rules of one Puluc game: route, capture, flags, sticks, teams and setup (RULES.md §1-§9).

`Rules` is an immutable value; `Rules.preset` builds the seven named variants. Validation happens here, at
the edge where a configuration arrives, so the engine never sees an impossible combination: anything else
raises `InvalidRulesError` with the field at fault and what it allows. This module
knows nothing of positions, I/O or Discord.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, fields
from typing import Any, Literal

from .errors import ErrorCode, InvalidRulesError, InvalidSeatError

Route = Literal["army", "ants", "return", "culin"]
Capture = Literal["stack", "eagle"]
Sticks = Literal["bell", "pass-on-one"]

ROUTES: tuple[str, ...] = ("army", "ants", "return", "culin")
CAPTURES: tuple[str, ...] = ("stack", "eagle")
STICKS: tuple[str, ...] = ("bell", "pass-on-one")

#: Preset name -> (route, capture, scorpion, fire, sticks), RULES.md §9.
PRESETS: dict[str, tuple[str, str, bool, bool, str]] = {
    "bell": ("army", "stack", False, False, "bell"),
    "ants": ("ants", "stack", False, False, "bell"),
    "eagle": ("ants", "eagle", False, False, "bell"),
    "scorpion": ("ants", "stack", True, False, "bell"),
    "fire": ("ants", "stack", False, True, "bell"),
    "culin": ("culin", "stack", False, False, "bell"),
    "village": ("return", "stack", False, False, "pass-on-one"),
}

SETUPS: tuple[str, ...] = ("modern", "traditional")
MIN_ROAD, MAX_ROAD = 5, 41
MAX_TEAM_SIZE = 8
PIECES_PER_SEAT = 5


def default_road_length(team_size: int) -> int:
    """RULES.md §9: 9 for 1 v 1, else min(15 + 2 * team_size, 29)."""
    return 9 if team_size == 1 else min(15 + 2 * team_size, 29)


def seat_name(index: int) -> str:
    """Seat index in turn order (0 = A1, 1 = B1, 2 = A2, ...) to its name."""
    return ("A", "B")[index & 1] + str(index // 2 + 1)


def seat_index(name: str) -> int:
    """Inverse of `seat_name`; raises InvalidSeatError for anything that is not a seat name."""
    if (
        not isinstance(name, str)
        or len(name) < 2
        or name[0] not in "AB"
        or not name[1:].isascii()
        or not name[1:].isdigit()
        or name[1] == "0"
    ):
        raise InvalidSeatError(
            f"{name!r} is not a seat name (expected A1..A8 or B1..B8)", ErrorCode.NOT_A_SEAT, seat=name
        )
    return (int(name[1:]) - 1) * 2 + (0 if name[0] == "A" else 1)


@dataclass(frozen=True, slots=True)
class Rules:
    """Every field of RULES.md §10; `Rules()` is Bell, modern, 1 v 1, L = 9 (§11.10)."""

    route: Route = "army"
    capture: Capture = "stack"
    scorpion: bool = False
    fire: bool = False
    sticks: Sticks = "bell"
    team_size: int = 1
    throws_per_turn: int = 1
    one_active: bool = False
    road_length: int = 9
    eagle_returns: bool = False

    def __post_init__(self) -> None:
        _check_choice("route", self.route, ROUTES)
        _check_choice("capture", self.capture, CAPTURES)
        _check_choice("sticks", self.sticks, STICKS)
        for name in ("scorpion", "fire", "one_active", "eagle_returns"):
            value = getattr(self, name)
            if not isinstance(value, bool):
                raise InvalidRulesError(
                    f"{name} must be true or false, not {value!r}", ErrorCode.NOT_A_BOOLEAN, field=name, value=value
                )
        for name in ("team_size", "throws_per_turn", "road_length"):
            _check_whole_number(name, getattr(self, name))
        _check_team_size(self.team_size)
        if self.throws_per_turn not in (1, 2):
            raise InvalidRulesError(
                f"throws_per_turn must be 1 or 2, not {self.throws_per_turn}",
                ErrorCode.OUT_OF_RANGE,
                field="throws_per_turn",
                value=self.throws_per_turn,
                low=1,
                high=2,
            )
        if not (MIN_ROAD <= self.road_length <= MAX_ROAD and self.road_length % 2 == 1):
            raise InvalidRulesError(
                f"road_length must be an odd number from {MIN_ROAD} to {MAX_ROAD}, not {self.road_length}",
                ErrorCode.NOT_ODD_IN_RANGE,
                field="road_length",
                value=self.road_length,
                low=MIN_ROAD,
                high=MAX_ROAD,
            )
        if self.scorpion and self.route == "culin":
            raise InvalidRulesError(
                "scorpion cannot be combined with the culin route (RULES.md §4)",
                ErrorCode.SCORPION_ON_CULIN,
                field="scorpion",
                value=True,
            )
        if self.eagle_returns and self.capture != "eagle":
            raise InvalidRulesError(
                "eagle_returns only makes sense with eagle capture (capture='eagle')",
                ErrorCode.EAGLE_RETURNS_WITHOUT_EAGLE,
                field="eagle_returns",
                value=True,
            )

    # -- construction ---------------------------------------------------------------------------------

    @classmethod
    def preset(cls, name: str, **overrides: Any) -> Rules:
        """A named variant of RULES.md §9; the setup follows `team_size` unless fields are given (§11.10).

        >>> Rules.preset("bell") == Rules()
        True
        >>> teams = Rules.preset("ants", team_size=2)
        >>> teams.road_length, teams.throws_per_turn, teams.one_active
        (19, 2, True)
        >>> Rules.preset("ants", team_size=2, throws_per_turn=1).one_active  # only the given field changes
        True
        >>> Rules.preset("culin", scorpion=True)
        Traceback (most recent call last):
        ...
        puluc.errors.InvalidRulesError: scorpion cannot be combined with the culin route (RULES.md §4)
        """
        _check_choice("preset", name, tuple(PRESETS))
        route, capture, scorpion, fire, sticks = PRESETS[name]
        _check_known_options(overrides)
        team_size = overrides.get("team_size", 1)
        _check_whole_number("team_size", team_size)
        _check_team_size(team_size)
        traditional = team_size >= 2
        values: dict[str, Any] = {
            "route": route,
            "capture": capture,
            "scorpion": scorpion,
            "fire": fire,
            "sticks": sticks,
            "team_size": team_size,
            "throws_per_turn": 2 if traditional else 1,
            "one_active": traditional,
            "road_length": default_road_length(team_size),
        }
        values.update(overrides)
        return cls(**values)

    @classmethod
    def from_setup(cls, preset: str, team_size: int, setup: str, **overrides: Any) -> Rules:
        """A preset with an explicit setup name ("modern" or "traditional"), as players choose it."""
        _check_choice("setup", setup, SETUPS)
        traditional = setup == "traditional"
        values: dict[str, Any] = {"throws_per_turn": 2 if traditional else 1, "one_active": traditional}
        values.update(overrides)
        return cls.preset(preset, team_size=team_size, **values)

    # -- derived facts ----------------------------------------------------------------------------------

    @property
    def seat_count(self) -> int:
        return 2 * self.team_size

    @property
    def seats(self) -> tuple[str, ...]:
        """Seat names in turn order: A1, B1, A2, B2, ..."""
        return tuple(seat_name(i) for i in range(self.seat_count))

    @property
    def fire_cell(self) -> int | None:
        """The burning cell (L + 1) / 2 when the rules have fire, else None."""
        return (self.road_length + 1) // 2 if self.fire else None

    @property
    def setup(self) -> str:
        return "traditional" if self.throws_per_turn == 2 or self.one_active else "modern"

    @property
    def preset_name(self) -> str | None:
        """The preset whose route, capture and sticks these rules use (flags may be added), if any."""
        for name, (route, capture, scorpion, fire, sticks) in PRESETS.items():
            if (route, capture, scorpion, fire, sticks) == (
                self.route,
                self.capture,
                self.scorpion,
                self.fire,
                self.sticks,
            ):
                return name
        for name, (route, capture, _scorpion, _fire, sticks) in PRESETS.items():
            if (route, capture, sticks) == (self.route, self.capture, self.sticks):
                return name
        return None

    @property
    def throw_values(self) -> tuple[int, ...]:
        """The values `Position.throw` accepts: the sticks table's values."""
        return (0, 2, 3, 4, 5) if self.sticks == "pass-on-one" else (1, 2, 3, 4, 5)

    # -- serialisation --------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: object) -> Rules:
        if not isinstance(data, dict):
            raise InvalidRulesError(
                f"rules must be a JSON object, not {type(data).__name__}", ErrorCode.NOT_AN_OBJECT, value=data
            )
        _check_known_options(data)
        return cls(**data)


def _check_choice(field: str, value: object, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise InvalidRulesError(
            f"unknown {field} {value!r}; choose one of {', '.join(choices)}",
            ErrorCode.UNKNOWN_CHOICE,
            field=field,
            value=value,
            choices=choices,
        )


def _check_whole_number(field: str, value: object) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidRulesError(
            f"{field} must be a whole number, not {value!r}", ErrorCode.NOT_A_WHOLE_NUMBER, field=field, value=value
        )


def _check_team_size(team_size: int) -> None:
    if not 1 <= team_size <= MAX_TEAM_SIZE:
        raise InvalidRulesError(
            f"team_size must be 1 to {MAX_TEAM_SIZE} players per team, not {team_size}",
            ErrorCode.OUT_OF_RANGE,
            field="team_size",
            value=team_size,
            low=1,
            high=MAX_TEAM_SIZE,
        )


def _check_known_options(names: Iterable[object]) -> None:
    known = tuple(f.name for f in fields(Rules))
    unknown = tuple(sorted(str(name) for name in set(names) - set(known)))
    if unknown:
        raise InvalidRulesError(
            f"unknown rule option(s): {', '.join(unknown)}",
            ErrorCode.UNKNOWN_OPTION,
            value=unknown,
            choices=known,
        )
