"""Game records: the rules, the seats and every throw and move in order; and `Game`, a record being played.

A record replays to exactly the positions of the live game. The bot stores it, replays and analysis read it.

JSON format (version 1)::

    {
      "format": "puluc-record",
      "version": 1,
      "rules": {"route": "army", "capture": "stack", ..., "eagle_returns": false},   # every Rules field
      "first": "A",                          # the seat A1 ("A") or B1 ("B") moved first
      "seed": 12345,                         # optional: the seed of the random.Random that threw the sticks
      "throw_off": [["1010", "0110"]],       # optional: §8 rounds, A's sticks then B's, as face codes
      "seats": {"A1": "Alice", "B1": "ai:hard"},   # optional free labels per seat; the engine ignores them
      "events": [
        {"throw": [3], "faces": ["1110"]},  # one turn's throw: values, and the sticks' faces when known
        {"move": "3:H"},                     # a move in the notation of RULES.md §10
        ...
      ]
    }

A face code is four characters, one per stick, "1" when the counting side is up; its value follows from
the rules' sticks table. Loading checks everything and raises `InvalidRecordError` on a bad record, including
a throw or move that is not legal where it stands (then `event` is its number, counted from 1, and the
engine's own refusal is the `__cause__`).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import (
    ErrorCode,
    IllegalMoveError,
    IllegalThrowError,
    InvalidMoveError,
    InvalidRecordError,
    InvalidRulesError,
    InvalidThrowError,
)
from .position import Move, Outcome, Position
from .rules import Rules
from .sticks import Throw, throw_off

FORMAT = "puluc-record"
VERSION = 1


@dataclass(frozen=True, slots=True)
class ThrowEvent:
    """One turn's throw (one or two throws of the four sticks)."""

    throws: tuple[Throw, ...]

    @property
    def values(self) -> tuple[int, ...]:
        return tuple(t.value for t in self.throws)


@dataclass(frozen=True, slots=True)
class MoveEvent:
    move: Move


Event = ThrowEvent | MoveEvent


@dataclass(slots=True)
class GameRecord:
    rules: Rules
    first: str = "A"
    seats: dict[str, str] = field(default_factory=dict)
    events: list[Event] = field(default_factory=list)
    throw_off: tuple[tuple[Throw, Throw], ...] = ()
    seed: int | None = None

    def __post_init__(self) -> None:
        if self.first not in ("A", "B"):
            raise InvalidRecordError(
                f"first must be 'A' or 'B', not {self.first!r}", ErrorCode.NOT_A_TEAM, field="first", value=self.first
            )
        unknown = tuple(sorted(set(self.seats) - set(self.rules.seats)))
        if unknown:
            raise InvalidRecordError(
                f"record names seats not in this game: {', '.join(unknown)}",
                ErrorCode.SEAT_NOT_IN_GAME,
                field="seats",
                value=unknown,
            )

    @property
    def moves(self) -> list[Move]:
        return [e.move for e in self.events if isinstance(e, MoveEvent)]

    def positions(self) -> Iterator[Position]:
        """The start position, then the position after each event in order."""
        pos = Position.start(self.rules, self.first)
        yield pos
        for number, event in enumerate(self.events, start=1):
            try:
                pos = pos.throw(list(event.values)) if isinstance(event, ThrowEvent) else pos.play(event.move)
            except (IllegalMoveError, IllegalThrowError, InvalidThrowError) as exc:
                message = f"record event {number}: {exc}"
                raise InvalidRecordError(message, ErrorCode.ILLEGAL_EVENT, event=number) from exc
            yield pos

    def replay(self) -> Position:
        """The position after every event."""
        pos = None
        for pos in self.positions():  # noqa: B007 - the last one is the answer
            pass
        assert pos is not None
        return pos

    # -- JSON -----------------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        events: list[dict[str, Any]] = []
        for e in self.events:
            if isinstance(e, ThrowEvent):
                events.append({"throw": list(e.values), "faces": [t.code for t in e.throws]})
            else:
                events.append({"move": str(e.move)})
        data: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "rules": self.rules.to_dict(),
            "first": self.first,
        }
        if self.seed is not None:
            data["seed"] = self.seed
        if self.throw_off:
            data["throw_off"] = [[a.code, b.code] for a, b in self.throw_off]
        data["seats"] = dict(self.seats)
        data["events"] = events
        return data

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise InvalidRecordError(
                f'not a Puluc game record (expected "format": "{FORMAT}")', ErrorCode.NOT_A_RECORD, field="format"
            )
        version = data.get("version")
        if version != VERSION:
            raise InvalidRecordError(
                f"unsupported record version {version!r}; this engine reads {VERSION}",
                ErrorCode.UNSUPPORTED_VERSION,
                field="version",
                value=version,
            )
        try:
            rules = Rules.from_dict(data.get("rules"))
        except InvalidRulesError as exc:
            raise InvalidRecordError(f"record rules: {exc}", ErrorCode.INVALID_RULES, field="rules") from exc
        sticks = rules.sticks
        seats = data.get("seats", {})
        if not isinstance(seats, dict) or not all(isinstance(v, str) for v in seats.values()):
            raise InvalidRecordError(
                "record seats must map seat names to text labels", ErrorCode.NOT_SEAT_LABELS, field="seats"
            )
        seed = data.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            message = f"record seed must be a whole number, not {seed!r}"
            raise InvalidRecordError(message, ErrorCode.NOT_A_WHOLE_NUMBER, field="seed", value=seed)
        raw_rounds = data.get("throw_off", [])
        if not isinstance(raw_rounds, list):
            raise InvalidRecordError("record throw_off must be a list", ErrorCode.NOT_A_LIST, field="throw_off")
        rounds = []
        for pair in raw_rounds:
            if not isinstance(pair, list) or len(pair) != 2:
                raise InvalidRecordError(
                    f"record throw_off rounds are pairs of face codes, not {pair!r}",
                    ErrorCode.NOT_THROW_OFF,
                    field="throw_off",
                    value=pair,
                )
            try:
                rounds.append((Throw.from_code(pair[0], sticks), Throw.from_code(pair[1], sticks)))
            except InvalidThrowError as exc:
                raise InvalidRecordError(
                    f"record throw_off: {exc}", ErrorCode.INVALID_THROW, field="throw_off", value=pair
                ) from exc
        events: list[Event] = []
        raw_events = data.get("events", [])
        if not isinstance(raw_events, list):
            raise InvalidRecordError("record events must be a list", ErrorCode.NOT_A_LIST, field="events")
        for number, raw in enumerate(raw_events, start=1):
            events.append(_event_from_dict(raw, sticks, number))
        record = cls(rules, data.get("first", "A"), dict(seats), events, tuple(rounds), seed)
        record.replay()  # a record that does not replay is not a record
        return record

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, TypeError) as exc:
            raise InvalidRecordError(f"record is not valid JSON: {exc}", ErrorCode.NOT_JSON) from exc
        return cls.from_dict(data)


def _event_from_dict(raw: Any, sticks: str, number: int) -> Event:
    if isinstance(raw, dict) and set(raw) == {"move"}:
        try:
            return MoveEvent(Move.parse(raw["move"]))
        except InvalidMoveError as exc:
            raise InvalidRecordError(
                f"record event {number}: {exc}", ErrorCode.INVALID_MOVE, event=number, value=raw["move"]
            ) from exc
    if isinstance(raw, dict) and "throw" in raw and set(raw) <= {"throw", "faces"}:
        values = raw["throw"]
        if not isinstance(values, list) or not all(type(v) is int for v in values):
            raise InvalidRecordError(
                f"record event {number}: throw values must be a list of numbers",
                ErrorCode.NOT_AN_EVENT,
                event=number,
                value=values,
            )
        faces = raw.get("faces")
        if faces is not None and (not isinstance(faces, list) or len(faces) != len(values)):
            message = f"record event {number}: one face code per throw value"
            raise InvalidRecordError(message, ErrorCode.NOT_AN_EVENT, event=number, value=faces)
        try:
            if faces is None:
                return ThrowEvent(tuple(Throw.for_value(v, sticks) for v in values))
            throws = tuple(Throw.from_code(code, sticks) for code in faces)
        except InvalidThrowError as exc:
            raise InvalidRecordError(f"record event {number}: {exc}", ErrorCode.INVALID_THROW, event=number) from exc
        if tuple(t.value for t in throws) != tuple(values):
            raise InvalidRecordError(
                f"record event {number}: the faces {faces} do not give the values {values}",
                ErrorCode.FACES_MISMATCH,
                event=number,
                value=faces,
            )
        return ThrowEvent(throws)
    raise InvalidRecordError(
        f'record event {number}: expected {{"throw": [...]}} or {{"move": "3:7"}}',
        ErrorCode.NOT_AN_EVENT,
        event=number,
        value=raw,
    )


class Game:
    """A game in progress: its record and its current position, kept in step.

    Every change checks legality first and only then appends to the record, so a failed call leaves both
    untouched. The record, written as JSON and read back, replays to the same position:

    >>> game = Game.new(Rules.preset("bell"), random.Random(7), first="A")
    >>> game.throw([Throw((True, False, True, False), "bell")]).pending  # two counting sides: 2
    (2,)
    >>> game.play("2:H").to_ppn()
    './A1+/././././././. A1:4,B1:5 A1:0,B1:0 B1 -'
    >>> json.loads(game.record.to_json())["events"]
    [{'throw': [2], 'faces': ['1010']}, {'move': '2:H'}]
    >>> GameRecord.from_json(game.record.to_json()).replay() == game.position
    True
    """

    __slots__ = ("position", "record")

    def __init__(self, record: GameRecord) -> None:
        self.record = record
        self.position = record.replay()

    @classmethod
    def new(
        cls,
        rules: Rules,
        rng: random.Random,
        *,
        first: str | None = None,
        seats: dict[str, str] | None = None,
        seed: int | None = None,
    ) -> Game:
        """A new game; without `first`, the throw-off of §8 decides who starts."""
        rounds: tuple[tuple[Throw, Throw], ...] = ()
        if first is None:
            result = throw_off(rng, rules.sticks)
            first, rounds = result.first, result.rounds
        return cls(GameRecord(rules, first, dict(seats or {}), [], rounds, seed))

    def roll(self, rng: random.Random) -> tuple[Throw, ...]:
        """The player to move throws the sticks `throws_per_turn` times."""
        throws = tuple(Throw.roll(rng, self.record.rules.sticks) for _ in range(self.record.rules.throws_per_turn))
        self.throw(throws)
        return throws

    def throw(self, throws: Sequence[Throw]) -> Position:
        self.position = self.position.throw(list(throws))
        self.record.events.append(ThrowEvent(tuple(throws)))
        return self.position

    def play(self, move: Move | str) -> Position:
        if isinstance(move, str):
            move = Move.parse(move)
        self.position = self.position.play(move)
        self.record.events.append(MoveEvent(move))
        return self.position

    def outcome(self) -> Outcome | None:
        return self.position.outcome()
