"""The tutorial's lessons: each a board, built by the engine from PPN with its throws fixed, and one thing to do.

A lesson is either a move to find among the position's legal moves (enter a piece, capture, ...) or, where the
point is the sticks themselves, a question with a few answers (how often a 5 comes; which throw of the village
sticks is no move). `Lesson.answer` says whether a choice is right and, when it is not, why, from the engine:
what the chosen move would have done, or what the chosen answer really is. A wrong choice changes nothing: the
lesson's position is rebuilt from its PPN every time. Words are catalogue keys and values (`learn.<lesson>.*`);
the cog says them in the member's language.

This module must never import discord or the catalogues' loader: it is the tutorial's content and logic only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property

from puluc import STICK_TABLES, Move, MoveEffect, Position, Rules, Throw

#: Ways the four sticks fall with k counting sides up (of 16): C(4, k).
WAYS = (1, 4, 6, 4, 1)
#: The answers of the lesson on the throw of 5: how many times in 16 a throw comes.
CHANCE_ANSWERS = ("1", "4", "6")


def board(length: int, cells: Mapping[int, str]) -> str:
    """PPN field 1: the road of `length` cells with the given stacks (cell -> "A1+", "B1A1+"), empty elsewhere."""
    return "/".join(cells.get(cell, ".") for cell in range(1, length + 1))


@dataclass(frozen=True)
class Verdict:
    """What a member's choice in a lesson means.

    `right`: whether it was the lesson's thing to do. `after`: the position the right move leads to (None for a
    question or a wrong choice). `played`: what the chosen move does (None for a question). `reason` and
    `values`: the catalogue key and its values that say why a wrong choice is wrong, or what a right one did.
    """

    right: bool
    after: Position | None
    played: MoveEffect | None
    reason: str
    values: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class Lesson:
    """One lesson: a position with its throws in hand and the moves (or the answer) that do its one thing."""

    key: str  #: names its words in the catalogue: learn.<key>.title, .text, .wrong, .right
    variant: str
    cells: Mapping[int, str]  #: the road, by absolute cell (see `board`)
    home: str  #: PPN field 2
    throws: tuple[int, ...]  #: the turn's throws, fixed (values of the variant's sticks)
    right: frozenset[str]  #: the moves that do the lesson's thing (notation), or the right answer
    team_size: int = 1
    answers: tuple[str, ...] = ()  #: a question's answers; empty for a move lesson

    @cached_property
    def rules(self) -> Rules:
        return Rules.preset(self.variant, team_size=self.team_size)

    @property
    def ppn(self) -> str:
        """The lesson's position before its throws, in PPN (A1 to move, nobody has killed yet)."""
        kills = ",".join(f"{seat}:0" for seat in self.rules.seats)
        return f"{board(self.rules.road_length, self.cells)} {self.home} {kills} A1 -"

    @property
    def is_question(self) -> bool:
        return bool(self.answers)

    def position(self) -> Position:
        """The board the member decides on: built from the PPN by the engine, the throws in hand (a question's
        board shows its sticks the same way, as an example of a throw)."""
        return Position.from_ppn(self.rules, self.ppn).throw(list(self.throws))

    def sticks(self) -> tuple[Throw, ...]:
        """The sticks the board draws: the lesson's throws."""
        return tuple(Throw.for_value(value, self.rules.sticks) for value in self.throws)

    def choices(self) -> list[str]:
        """What the member may choose: the legal moves (notation, in the engine's order) or the answers."""
        if self.is_question:
            return list(self.answers)
        return [str(move) for move in self.position().legal_moves()]

    def answer(self, choice: str) -> Verdict:
        """Whether `choice` (a move's notation or an answer) does the lesson's thing, and why not when it does not.

        Raises ValueError for a choice the lesson does not offer (an old button, a hand-made id).
        """
        if choice not in self.choices():
            raise ValueError(f"lesson {self.key!r} offers no choice {choice!r}")
        if self.is_question:
            return self._judge_answer(choice)
        position = self.position()
        move = Move.parse(choice)
        effect = position.move_effect(move)
        if choice in self.right:
            return Verdict(True, position.play(move), effect, f"learn.{self.key}.right")
        return Verdict(False, None, effect, f"learn.{self.key}.wrong", _what_it_does(effect, self.rules))

    def _judge_answer(self, choice: str) -> Verdict:
        if self.key == "five":
            ways = int(choice)
            values = [STICK_TABLES[self.rules.sticks][k] for k, w in enumerate(WAYS) if w == ways]
            odds = {"ways": ways, "throws": values, "chance": Fraction(ways, 16)}
        else:  # the village sticks: the answer is how many sticks show their marked side
            count = int(choice)
            odds = {"marked": count, "value": STICK_TABLES[self.rules.sticks][count], "ways": WAYS[count]}
        if choice in self.right:
            return Verdict(True, None, None, f"learn.{self.key}.right", odds)
        return Verdict(False, None, None, f"learn.{self.key}.wrong", odds)


def _what_it_does(effect: MoveEffect, rules: Rules) -> dict[str, object]:
    """The facts of a wrong move that its explanation may use: where it lands, what it captures, kills, burns."""
    return {
        "dest": effect.dest if effect.dest is not None else 0,
        "captures": effect.captures,
        "kills": effect.kills,
        "burns": effect.burns,
        "arrives": effect.arrives,
        "fire": (rules.road_length + 1) // 2 if rules.fire else 0,
    }


#: The lessons in order: the basics on Bell's road, the throw of 5, each variant's own rule, the team setup.
LESSONS: tuple[Lesson, ...] = (
    # Enter: a piece comes in from home on the cell its throw names.
    Lesson("enter", "bell", {1: "A1+", 8: "B1+"}, "A1:4,B1:4", (2,), frozenset({"2:H"})),
    # Move: a piece on the road walks forward as many cells as the throw.
    Lesson("move", "bell", {2: "A1+", 7: "B1+"}, "A1:4,B1:4", (3,), frozenset({"3:2"})),
    # Capture: landing on an enemy puts your piece on top; the enemy is your captive, the two a stack.
    Lesson("capture", "bell", {3: "A1+", 5: "B1+"}, "A1:4,B1:4", (2,), frozenset({"2:3"})),
    # Free your own: capture the stack that holds your piece, and your piece under yours is freed.
    Lesson("free", "bell", {4: "A1+", 6: "B1A1+"}, "A1:3,B1:4", (2,), frozenset({"2:4"})),
    # Carry captives home: on Bell's road a stack walks on into the enemy's home; its captives are killed.
    Lesson("home", "bell", {2: "A1+", 7: "A1B1+", 8: "B1+"}, "A1:3,B1:3", (3,), frozenset({"3:7"})),
    # Why a throw of 5 is rare: all four sticks must fall blank, 1 way in 16.
    Lesson("five", "bell", {}, "A1:5,B1:5", (5,), frozenset({"1"}), answers=CHANCE_ANSWERS),
    # Ants: a piece that captures turns back at once and walks its captives to its own home.
    Lesson("ants", "ants", {3: "A1+", 5: "B1+"}, "A1:4,B1:4", (2,), frozenset({"2:3"})),
    # Eagle: the strike kills the enemy piece, and the eagle is spent.
    Lesson("eagle", "eagle", {2: "A1+", 5: "B1+"}, "A1:4,B1:4", (3,), frozenset({"3:2"})),
    # Scorpion: a stack may strike backward, onto an enemy behind it.
    Lesson("scorpion", "scorpion", {4: "B1+", 6: "A1+"}, "A1:4,B1:4", (2,), frozenset({"2:6b"})),
    # Fire: the middle cell burns whatever stops on it.
    Lesson("fire", "fire", {1: "A1+", 3: "A1+", 7: "B1+"}, "A1:3,B1:4", (2,), frozenset({"2:H"})),
    # Culin: a free piece runs off the last cell and on from cell 1.
    Lesson("culin", "culin", {2: "B1+", 8: "A1+"}, "A1:4,B1:4", (3,), frozenset({"3:8"})),
    # The village sticks: one marked side is no move (the board shows a throw of two marked sides).
    Lesson("village", "village", {}, "A1:5,B1:5", (2,), frozenset({"1"}), answers=("0", "1", "2", "3", "4")),
    # Teams: two throws a turn, and one active piece: no entering while a piece of yours is on top.
    Lesson("team", "ants", {4: "A1+", 7: "B1+", 12: "A2+", 15: "B2+"}, "A1:4,B1:4,A2:4,B2:4", (3, 2),
           frozenset({"3:4"}), team_size=2),
)

#: Each lesson's key, in order (the catalogue has learn.<key>.title, .text, .wrong and .right for each).
LESSON_KEYS: tuple[str, ...] = tuple(lesson.key for lesson in LESSONS)


def lesson_at(index: int) -> Lesson:
    """The lesson numbered `index` (from 0); ValueError outside the tutorial."""
    if not 0 <= index < len(LESSONS):
        raise ValueError(f"there is no lesson {index}: the tutorial has {len(LESSONS)}")
    return LESSONS[index]
