"""The rules of one Puluc game: route, capture, flags, sticks, teams and setup (RULES.md §1-§9).

`Rules` is an immutable value; `Rules.preset` builds the seven named variants. Validation happens here, at
the edge where a configuration arrives, so the engine never sees an impossible combination. This module
knows nothing of positions, I/O or Discord.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, Literal

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
    """Inverse of `seat_name`; raises ValueError for text that is not a seat name."""
    if len(name) < 2 or name[0] not in "AB" or not name[1:].isdigit() or name[1] == "0":
        raise ValueError(f"{name!r} is not a seat name (expected A1..A8 or B1..B8)")
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
        if self.route not in ROUTES:
            raise ValueError(f"unknown route {self.route!r}; choose one of {', '.join(ROUTES)}")
        if self.capture not in CAPTURES:
            raise ValueError(f"unknown capture {self.capture!r}; choose one of {', '.join(CAPTURES)}")
        if self.sticks not in STICKS:
            raise ValueError(f"unknown sticks {self.sticks!r}; choose one of {', '.join(STICKS)}")
        for name in ("scorpion", "fire", "one_active", "eagle_returns"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be true or false")
        for name in ("team_size", "throws_per_turn", "road_length"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValueError(f"{name} must be a whole number")
        if not 1 <= self.team_size <= MAX_TEAM_SIZE:
            raise ValueError(f"team_size must be 1 to {MAX_TEAM_SIZE} players per team, not {self.team_size}")
        if self.throws_per_turn not in (1, 2):
            raise ValueError(f"throws_per_turn must be 1 or 2, not {self.throws_per_turn}")
        if not (MIN_ROAD <= self.road_length <= MAX_ROAD and self.road_length % 2 == 1):
            raise ValueError(f"road_length must be an odd number from {MIN_ROAD} to {MAX_ROAD}, not {self.road_length}")
        if self.scorpion and self.route == "culin":
            raise ValueError("scorpion cannot be combined with the culin route (RULES.md §4)")
        if self.eagle_returns and self.capture != "eagle":
            raise ValueError("eagle_returns only makes sense with eagle capture (capture='eagle')")

    # -- construction ---------------------------------------------------------------------------------

    @classmethod
    def preset(cls, name: str, **overrides: Any) -> Rules:
        """A named variant of RULES.md §9; the setup follows `team_size` unless fields are given (§11.10)."""
        try:
            route, capture, scorpion, fire, sticks = PRESETS[name]
        except KeyError:
            raise ValueError(f"unknown preset {name!r}; choose one of {', '.join(PRESETS)}") from None
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(overrides) - known)
        if unknown:
            raise ValueError(f"unknown rule option(s): {', '.join(unknown)}")
        team_size = overrides.get("team_size", 1)
        if not isinstance(team_size, int) or not 1 <= team_size <= MAX_TEAM_SIZE:
            raise ValueError(f"team_size must be 1 to {MAX_TEAM_SIZE} players per team, not {team_size!r}")
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
        if setup not in SETUPS:
            raise ValueError(f"unknown setup {setup!r}; choose modern or traditional")
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
            raise ValueError("rules must be a JSON object")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown rule option(s): {', '.join(unknown)}")
        return cls(**data)
