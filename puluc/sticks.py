"""The four throwing sticks (RULES.md §2) and the throw-off that decides who starts (§8).

All randomness comes from an injected `random.Random`, so a game replays exactly from its seed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from .errors import ErrorCode, InvalidRulesError, InvalidThrowError

#: Value of a throw by k = number of sticks showing the counting side (index 0..4).
STICK_TABLES: dict[str, tuple[int, int, int, int, int]] = {
    "bell": (5, 1, 2, 3, 4),
    "pass-on-one": (5, 0, 2, 3, 4),
}

#: Probability of k counting sides with four fair sticks: 1, 4, 6, 4, 1 sixteenths.
K_PROBABILITIES: tuple[Fraction, ...] = tuple(Fraction(c, 16) for c in (1, 4, 6, 4, 1))


def throw_probabilities(sticks: str = "bell") -> dict[int, float]:
    """Value -> probability of one throw with these sticks."""
    table = _table(sticks)
    result: dict[int, float] = {}
    for k, value in enumerate(table):
        result[value] = result.get(value, 0.0) + float(K_PROBABILITIES[k])
    return result


def _table(sticks: str) -> tuple[int, int, int, int, int]:
    table = STICK_TABLES.get(sticks)
    if table is None:
        raise _unknown_sticks(sticks)
    return table


def _unknown_sticks(sticks: str) -> InvalidRulesError:
    choices = tuple(STICK_TABLES)
    return InvalidRulesError(
        f"unknown sticks {sticks!r}; choose one of {', '.join(choices)}",
        ErrorCode.UNKNOWN_CHOICE,
        field="sticks",
        value=sticks,
        choices=choices,
    )


@dataclass(frozen=True, slots=True)
class Throw:
    """One throw of the four sticks: which faces came up, and the value the sticks table gives it.

    `faces[i]` is True when stick i shows its counting side.
    """

    faces: tuple[bool, bool, bool, bool]
    sticks: str = "bell"

    def __post_init__(self) -> None:
        if len(self.faces) != 4 or not all(isinstance(f, bool) for f in self.faces):
            raise InvalidThrowError(
                "a throw has exactly four sticks, each up (True) or down (False)",
                ErrorCode.NOT_FOUR_STICKS,
                value=self.faces,
                sticks=self.sticks,
            )
        _table(self.sticks)

    @property
    def count(self) -> int:
        """k: how many sticks show the counting side."""
        return sum(self.faces)

    @property
    def value(self) -> int:
        return STICK_TABLES[self.sticks][self.count]

    @property
    def code(self) -> str:
        """The faces as four characters, '1' for a counting side: "1010"."""
        return "".join("1" if f else "0" for f in self.faces)

    @classmethod
    def from_code(cls, code: str, sticks: str = "bell") -> Throw:
        if not isinstance(code, str) or len(code) != 4 or set(code) - {"0", "1"}:
            raise InvalidThrowError(
                f"{code!r} is not a throw code (four characters 0 or 1, e.g. 1010)",
                ErrorCode.NOT_A_FACE_CODE,
                value=code,
                sticks=sticks,
            )
        faces = (code[0] == "1", code[1] == "1", code[2] == "1", code[3] == "1")
        return cls(faces, sticks)

    @classmethod
    def roll(cls, rng: random.Random, sticks: str = "bell") -> Throw:
        """Throw the four sticks: each shows its counting side with probability 1/2."""
        try:
            return _ALL_THROWS[sticks][rng.getrandbits(4)]
        except KeyError:
            raise _unknown_sticks(sticks) from None

    @classmethod
    def for_value(cls, value: int, sticks: str = "bell", rng: random.Random | None = None) -> Throw:
        """Some faces that give `value` (random among them when rng is given), for throws typed in by hand."""
        table = _table(sticks)
        if type(value) is not int or value not in table:
            allowed = tuple(sorted(set(table)))
            raise InvalidThrowError(
                f"{value!r} is not a value of the {sticks} sticks {list(allowed)}",
                ErrorCode.NOT_A_THROW_VALUE,
                value=value,
                sticks=sticks,
                allowed=allowed,
            )
        k = table.index(value)
        order = [0, 1, 2, 3]
        if rng is not None:
            rng.shuffle(order)
        up = set(order[:k])
        faces = (0 in up, 1 in up, 2 in up, 3 in up)
        return cls(faces, sticks)

    def __str__(self) -> str:
        return f"{self.value} ({self.code})"


#: The 16 possible throws per sticks table, indexed by the four face bits (stick i is bit i).
_ALL_THROWS: dict[str, tuple[Throw, ...]] = {
    sticks: tuple(Throw((bool(b & 1), bool(b & 2), bool(b & 4), bool(b & 8)), sticks) for b in range(16))
    for sticks in STICK_TABLES
}


@dataclass(frozen=True, slots=True)
class ThrowOff:
    """The throw-off of §8: rounds of (A's throw, B's throw) until one is higher; `first` starts."""

    first: str
    rounds: tuple[tuple[Throw, Throw], ...]


def throw_off(rng: random.Random, sticks: str = "bell") -> ThrowOff:
    """Each side throws once; the higher value starts; on a tie both throw again."""
    rounds: list[tuple[Throw, Throw]] = []
    while True:
        a, b = Throw.roll(rng, sticks), Throw.roll(rng, sticks)
        rounds.append((a, b))
        if a.value != b.value:
            return ThrowOff("A" if a.value > b.value else "B", tuple(rounds))
