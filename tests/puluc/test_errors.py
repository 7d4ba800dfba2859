"""The engine's exception family: each kind of bad input raises its own class, code and fields (issue 16)."""

from __future__ import annotations

import pickle
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest

from puluc import (
    ErrorCode,
    GameRecord,
    IllegalMove,
    IllegalMoveError,
    IllegalThrowError,
    InvalidCellError,
    InvalidMoveError,
    InvalidPositionError,
    InvalidRecordError,
    InvalidRequestError,
    InvalidRulesError,
    InvalidSeatError,
    InvalidThrowError,
    Move,
    NoMoveToChooseError,
    Position,
    PulucError,
    Rules,
    Throw,
    throw_probabilities,
)
from puluc.ai import LEVELS, NoMoveToChoose, choose_move, hint, win_probability
from puluc.rules import ROUTES, seat_index
from tests.helpers import at, ppn

BELL = Rules.preset("bell")
START = Position.start(BELL)
THREW_2 = START.throw([2])
# A won by capturing B's last piece: nothing more may be thrown or played.
OVER = Position.from_ppn(BELL, "./././././././A1B1+/. A1:4,B1:0 A1:4,B1:0 A1 -")


def record(**fields: object) -> dict[str, object]:
    data: dict[str, object] = {
        "format": "puluc-record",
        "version": 1,
        "rules": BELL.to_dict(),
        "first": "A",
        "events": [],
    }
    data.update(fields)
    return data


@dataclass(frozen=True)
class Case:
    name: str
    attempt: Callable[[], object]
    kind: type[PulucError]
    code: ErrorCode
    params: dict[str, object] = field(default_factory=dict)  # a subset of the error's params
    cause: tuple[type[PulucError], ErrorCode] | None = None  # the chained refusal that explains it


CASES = [
    # -- rules --------------------------------------------------------------------------------------
    Case("unknown route", lambda: Rules(route="snake"), InvalidRulesError, ErrorCode.UNKNOWN_CHOICE,  # type: ignore[arg-type]
         {"field": "route", "value": "snake", "choices": ROUTES}),
    Case("unknown preset", lambda: Rules.preset("chess"), InvalidRulesError, ErrorCode.UNKNOWN_CHOICE,
         {"field": "preset", "value": "chess"}),
    Case("unknown setup", lambda: Rules.from_setup("bell", 1, "fancy"), InvalidRulesError, ErrorCode.UNKNOWN_CHOICE,
         {"field": "setup", "choices": ("modern", "traditional")}),
    Case("unknown sticks", lambda: throw_probabilities("dice"), InvalidRulesError, ErrorCode.UNKNOWN_CHOICE,
         {"field": "sticks", "value": "dice"}),
    Case("unknown option", lambda: Rules.preset("bell", speed=3), InvalidRulesError, ErrorCode.UNKNOWN_OPTION,
         {"value": ("speed",)}),
    Case("flag not a boolean", lambda: Rules(fire="yes"), InvalidRulesError, ErrorCode.NOT_A_BOOLEAN,  # type: ignore[arg-type]
         {"field": "fire", "value": "yes"}),
    Case("length not whole", lambda: Rules(road_length=9.0), InvalidRulesError, ErrorCode.NOT_A_WHOLE_NUMBER,  # type: ignore[arg-type]
         {"field": "road_length"}),
    Case("team too big", lambda: Rules.preset("ants", team_size=9), InvalidRulesError, ErrorCode.OUT_OF_RANGE,
         {"field": "team_size", "value": 9, "low": 1, "high": 8}),
    Case("three throws", lambda: Rules(throws_per_turn=3), InvalidRulesError, ErrorCode.OUT_OF_RANGE,
         {"field": "throws_per_turn", "low": 1, "high": 2}),
    Case("even road", lambda: Rules(road_length=10), InvalidRulesError, ErrorCode.NOT_ODD_IN_RANGE,
         {"field": "road_length", "value": 10, "low": 5, "high": 41}),
    Case("scorpion on culin", lambda: Rules.preset("culin", scorpion=True), InvalidRulesError,
         ErrorCode.SCORPION_ON_CULIN, {"field": "scorpion"}),
    Case("eagle_returns alone", lambda: Rules(eagle_returns=True), InvalidRulesError,
         ErrorCode.EAGLE_RETURNS_WITHOUT_EAGLE, {"field": "eagle_returns"}),
    Case("rules not an object", lambda: Rules.from_dict(["bell"]), InvalidRulesError, ErrorCode.NOT_AN_OBJECT),
    # -- throws -------------------------------------------------------------------------------------
    Case("three sticks", lambda: Throw((True, True, False)), InvalidThrowError, ErrorCode.NOT_FOUR_STICKS),  # type: ignore[arg-type]
    Case("bad face code", lambda: Throw.from_code("12"), InvalidThrowError, ErrorCode.NOT_A_FACE_CODE,
         {"value": "12", "sticks": "bell"}),
    Case("village has no one", lambda: Throw.for_value(1, "pass-on-one"), InvalidThrowError,
         ErrorCode.NOT_A_THROW_VALUE, {"value": 1, "sticks": "pass-on-one", "allowed": (0, 2, 3, 4, 5)}),
    Case("position refuses a six", lambda: START.throw([6]), InvalidThrowError, ErrorCode.NOT_A_THROW_VALUE,
         {"value": 6, "allowed": (1, 2, 3, 4, 5)}),
    Case("throw after the end", lambda: OVER.throw([1]), IllegalThrowError, ErrorCode.GAME_OVER, {"seat": "A1"}),
    Case("throw twice", lambda: THREW_2.throw([3]), IllegalThrowError, ErrorCode.ALREADY_THROWN,
         {"seat": "A1", "pending": (2,)}),
    Case("two throws in a modern turn", lambda: START.throw([1, 2]), IllegalThrowError, ErrorCode.WRONG_THROW_COUNT,
         {"expected": 1, "found": 2}),
    # -- move notation ------------------------------------------------------------------------------
    Case("move not text", lambda: Move.parse(37), InvalidMoveError, ErrorCode.NOT_TEXT, {"text": None}),  # type: ignore[arg-type]
    Case("move not notation", lambda: Move.parse("3-7"), InvalidMoveError, ErrorCode.NOT_MOVE_NOTATION,
         {"text": "3-7"}),
    Case("throw of six", lambda: Move.parse("6:3"), InvalidMoveError, ErrorCode.THROW_OUT_OF_RANGE,
         {"text": "6:3", "low": 1, "high": 5}),
    Case("cell 42", lambda: Move.parse("3:42"), InvalidMoveError, ErrorCode.CELL_OUT_OF_RANGE,
         {"text": "3:42", "low": 1, "high": 41}),
    Case("backward entry", lambda: Move.parse("2:Hb"), InvalidMoveError, ErrorCode.BACKWARD_ENTRY, {"text": "2:Hb"}),
    Case("leading zero", lambda: Move.parse("3:07"), InvalidMoveError, ErrorCode.LEADING_ZERO, {"text": "3:07"}),
    # -- illegal moves ------------------------------------------------------------------------------
    Case("not a move", lambda: THREW_2.play("2:H"), IllegalMoveError, ErrorCode.NOT_A_MOVE,  # type: ignore[arg-type]
         {"move": None, "seat": "A1"}),
    Case("move after the end", lambda: OVER.play(Move(1, 8)), IllegalMoveError, ErrorCode.GAME_OVER,
         {"move": Move(1, 8)}),
    Case("move before throwing", lambda: START.play(Move(2, 0)), IllegalMoveError, ErrorCode.MUST_THROW_FIRST,
         {"seat": "A1", "pending": ()}),
    Case("no such throw", lambda: THREW_2.play(Move(3, 0)), IllegalMoveError, ErrorCode.NO_SUCH_THROW,
         {"move": Move(3, 0), "pending": (2,)}),
    Case("nothing on the cell", lambda: THREW_2.play(Move(2, 5)), IllegalMoveError, ErrorCode.NOT_LEGAL_HERE,
         {"move": Move(2, 5), "seat": "A1", "pending": (2,)}),
    Case("effect of an illegal move", lambda: THREW_2.move_effect(Move(2, 5)), IllegalMoveError,
         ErrorCode.NOT_LEGAL_HERE, {"move": Move(2, 5)}),
    # -- seats and cells ----------------------------------------------------------------------------
    Case("not a seat", lambda: seat_index("C1"), InvalidSeatError, ErrorCode.NOT_A_SEAT, {"seat": "C1"}),
    Case("seat beyond 1 v 1", lambda: START.home("B2"), InvalidSeatError, ErrorCode.SEAT_NOT_IN_GAME,
         {"seat": "B2", "team_size": 1}),
    Case("first is no team", lambda: Position.start(BELL, "C"), InvalidSeatError, ErrorCode.NOT_A_TEAM,
         {"seat": "C"}),
    Case("cell off the road", lambda: START.stack_at(10), InvalidCellError, ErrorCode.CELL_OUT_OF_RANGE,
         {"cell": 10, "low": 1, "high": 9}),
    # -- PPN ----------------------------------------------------------------------------------------
    Case("PPN not text", lambda: Position.from_ppn(BELL, 5), InvalidPositionError, ErrorCode.NOT_TEXT),  # type: ignore[arg-type]
    Case("PPN four fields", lambda: Position.from_ppn(BELL, "././././././././. A1:5,B1:5 A1:0,B1:0 A1"),
         InvalidPositionError, ErrorCode.WRONG_FIELD_COUNT, {"expected": 5, "found": 4}),
    Case("PPN eight cells", lambda: Position.from_ppn(BELL, "./././././././. A1:5,B1:5 A1:0,B1:0 A1 -"),
         InvalidPositionError, ErrorCode.WRONG_CELL_COUNT, {"field": 1, "expected": 9, "found": 8}),
    Case("PPN lower-case seat", lambda: at(BELL, {1: "a1+"}, "A1:4,B1:5", "A1:0,B1:0", "A1"),
         InvalidPositionError, ErrorCode.NOT_A_STACK, {"field": 1, "cell": 1, "text": "a1+"}),
    Case("PPN backward on army", lambda: at(BELL, {3: "A1-"}, "A1:4,B1:5", "A1:0,B1:0", "A1"),
         InvalidPositionError, ErrorCode.BACKWARD_ON_ARMY, {"field": 1, "cell": 3}),
    Case("PPN stack on the fire", lambda: at(Rules.preset("fire"), {5: "A1+"}, "A1:4,B1:5", "A1:0,B1:0", "A1"),
         InvalidPositionError, ErrorCode.STACK_ON_FIRE, {"field": 1, "cell": 5}),
    Case("PPN tower under eagle", lambda: at(Rules.preset("eagle"), {4: "A1B1-"}, "A1:4,B1:4", "A1:0,B1:0", "A1"),
         InvalidPositionError, ErrorCode.TOWER_UNDER_EAGLE, {"field": 1, "cell": 4}),
    Case("PPN seat C1 to move", lambda: at(BELL, {}, "A1:5,B1:5", "A1:0,B1:0", "C1"),
         InvalidPositionError, ErrorCode.NOT_A_SEAT, {"field": 4, "seat": "C1"},
         (InvalidSeatError, ErrorCode.NOT_A_SEAT)),
    Case("PPN seat A3 in 1 v 1", lambda: at(BELL, {1: "A3+"}, "A1:5,B1:5", "A1:0,B1:0", "A1"),
         InvalidPositionError, ErrorCode.SEAT_NOT_IN_GAME, {"field": 1, "seat": "A3"}),
    Case("PPN three homes", lambda: at(BELL, {}, "A1:5,B1:5,A2:5", "A1:0,B1:0", "A1"),
         InvalidPositionError, ErrorCode.WRONG_ENTRY_COUNT, {"field": 2, "expected": 2, "found": 3}),
    Case("PPN kills out of order", lambda: at(BELL, {}, "A1:5,B1:5", "B1:0,A1:0", "A1"),
         InvalidPositionError, ErrorCode.NOT_SEAT_ORDER, {"field": 3, "seat": "A1", "text": "B1:0"}),
    Case("PPN pending x", lambda: at(BELL, {}, "A1:5,B1:5", "A1:0,B1:0", "A1", "x"),
         InvalidPositionError, ErrorCode.NOT_PENDING_THROWS, {"field": 5, "text": "x"}),
    Case("PPN two pending in modern", lambda: at(BELL, {}, "A1:5,B1:5", "A1:0,B1:0", "A1", "3,2"),
         InvalidPositionError, ErrorCode.TOO_MANY_THROWS, {"field": 5, "expected": 1, "found": 2}),
    Case("PPN pending 7", lambda: at(BELL, {}, "A1:5,B1:5", "A1:0,B1:0", "A1", "7"),
         InvalidPositionError, ErrorCode.NOT_A_THROW_VALUE, {"field": 5, "text": "7"}),
    Case("PPN six pieces", lambda: at(BELL, {1: "A1+"}, "A1:5,B1:5", "A1:0,B1:0", "A1"),
         InvalidPositionError, ErrorCode.TOO_MANY_PIECES, {"seat": "A1", "expected": 5, "found": 6}),
    Case("PPN kills of nobody", lambda: at(BELL, {}, "A1:5,B1:5", "A1:1,B1:0", "A1"),
         InvalidPositionError, ErrorCode.KILLS_EXCEED_LOSSES, {"team": "B", "expected": 0, "found": 1}),
    Case("PPN piece lost unkilled", lambda: at(BELL, {}, "A1:5,B1:4", "A1:0,B1:0", "A1"),
         InvalidPositionError, ErrorCode.LOSS_WITHOUT_KILL, {"team": "B", "expected": 1, "found": 0}),
    Case("PPN pending but stuck",
         lambda: Position.from_ppn(
             Rules.preset("bell", team_size=2, throws_per_turn=1, one_active=False),
             ppn(19, {3: "A1+"}, "A1:4,B1:5,A2:5,B2:5", "A1:0,B1:0,A2:0,B2:0", "A2", "3"),
         ),
         InvalidPositionError, ErrorCode.PENDING_WITHOUT_MOVE, {"field": 5, "seat": "A2"}),
    # -- records ------------------------------------------------------------------------------------
    Case("record not JSON", lambda: GameRecord.from_json("{"), InvalidRecordError, ErrorCode.NOT_JSON,
         {"event": None}),
    Case("record of chess", lambda: GameRecord.from_dict({"format": "chess"}), InvalidRecordError,
         ErrorCode.NOT_A_RECORD, {"field": "format"}),
    Case("record version 9", lambda: GameRecord.from_dict(record(version=9)), InvalidRecordError,
         ErrorCode.UNSUPPORTED_VERSION, {"field": "version", "value": 9}),
    Case("record rules", lambda: GameRecord.from_dict(record(rules={"route": "snake"})), InvalidRecordError,
         ErrorCode.INVALID_RULES, {"field": "rules"}, (InvalidRulesError, ErrorCode.UNKNOWN_CHOICE)),
    Case("record first C", lambda: GameRecord.from_dict(record(first="C")), InvalidRecordError,
         ErrorCode.NOT_A_TEAM, {"field": "first", "value": "C"}),
    Case("record seat B5", lambda: GameRecord.from_dict(record(seats={"B5": "Bo"})), InvalidRecordError,
         ErrorCode.SEAT_NOT_IN_GAME, {"field": "seats", "value": ("B5",)}),
    Case("record seats list", lambda: GameRecord.from_dict(record(seats=["Al"])), InvalidRecordError,
         ErrorCode.NOT_SEAT_LABELS, {"field": "seats"}),
    Case("record seed text", lambda: GameRecord.from_dict(record(seed="42")), InvalidRecordError,
         ErrorCode.NOT_A_WHOLE_NUMBER, {"field": "seed", "value": "42"}),
    Case("record throw_off text", lambda: GameRecord.from_dict(record(throw_off="1010")), InvalidRecordError,
         ErrorCode.NOT_A_LIST, {"field": "throw_off"}),
    Case("record throw_off single", lambda: GameRecord.from_dict(record(throw_off=[["1010"]])), InvalidRecordError,
         ErrorCode.NOT_THROW_OFF, {"field": "throw_off", "value": ["1010"]}),
    Case("record throw_off faces", lambda: GameRecord.from_dict(record(throw_off=[["1010", 7]])), InvalidRecordError,
         ErrorCode.INVALID_THROW, {"field": "throw_off"}, (InvalidThrowError, ErrorCode.NOT_A_FACE_CODE)),
    Case("record events dict", lambda: GameRecord.from_dict(record(events={})), InvalidRecordError,
         ErrorCode.NOT_A_LIST, {"field": "events"}),
    Case("record event shape", lambda: GameRecord.from_dict(record(events=[{"throw": [2]}, {"pass": 1}])),
         InvalidRecordError, ErrorCode.NOT_AN_EVENT, {"event": 2}),
    Case("record move text", lambda: GameRecord.from_dict(record(events=[{"throw": [2]}, {"move": "2-H"}])),
         InvalidRecordError, ErrorCode.INVALID_MOVE, {"event": 2, "value": "2-H"},
         (InvalidMoveError, ErrorCode.NOT_MOVE_NOTATION)),
    Case("record throw 7", lambda: GameRecord.from_dict(record(events=[{"throw": [7]}])), InvalidRecordError,
         ErrorCode.INVALID_THROW, {"event": 1}, (InvalidThrowError, ErrorCode.NOT_A_THROW_VALUE)),
    Case("record faces lie", lambda: GameRecord.from_dict(record(events=[{"throw": [5], "faces": ["1111"]}])),
         InvalidRecordError, ErrorCode.FACES_MISMATCH, {"event": 1}),
    Case("record illegal move",
         lambda: GameRecord.from_dict(record(events=[{"throw": [2]}, {"move": "3:H"}])),
         InvalidRecordError, ErrorCode.ILLEGAL_EVENT, {"event": 2}, (IllegalMoveError, ErrorCode.NO_SUCH_THROW)),
    Case("record throws twice",
         lambda: GameRecord.from_dict(record(events=[{"throw": [2]}, {"move": "2:H"}, {"throw": [1]}, {"throw": [1]}])),
         InvalidRecordError, ErrorCode.ILLEGAL_EVENT, {"event": 4}, (IllegalThrowError, ErrorCode.ALREADY_THROWN)),
    # -- the AI (puluc.ai) ----------------------------------------------------------------------------
    Case("unknown AI level", lambda: choose_move(THREW_2, "grandmaster"), InvalidRequestError,
         ErrorCode.UNKNOWN_CHOICE, {"field": "level", "value": "grandmaster", "choices": LEVELS}),
    Case("AI budget of zero", lambda: choose_move(THREW_2, "hard", budget_ms=0), InvalidRequestError,
         ErrorCode.NOT_A_POSITIVE_NUMBER, {"field": "budget_ms", "value": 0}),
    Case("negative chance budget", lambda: win_probability(START, budget_ms=-5), InvalidRequestError,
         ErrorCode.NOT_A_POSITIVE_NUMBER, {"field": "budget_ms", "value": -5}),
    Case("AI move before the throw", lambda: choose_move(START, "easy"), NoMoveToChooseError,
         ErrorCode.MUST_THROW_FIRST, {"seat": "A1"}),
    Case("hint after the end", lambda: hint(OVER), NoMoveToChooseError, ErrorCode.GAME_OVER),
]


def refusal(case: Case) -> PulucError:
    with pytest.raises(case.kind) as caught:
        case.attempt()
    return caught.value


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_bad_input_raises_its_precise_error(case: Case) -> None:
    error = refusal(case)
    assert type(error) is case.kind
    assert error.code is case.code
    assert {name: error.params[name] for name in case.params} == case.params
    assert str(error)  # an English sentence for the logs


@pytest.mark.parametrize("case", [c for c in CASES if c.cause], ids=[c.name for c in CASES if c.cause])
def test_an_error_caused_by_another_chains_it(case: Case) -> None:
    assert case.cause is not None
    cause = refusal(case).__cause__
    kind, code = case.cause
    assert type(cause) is kind and cause.code is code


def test_every_code_is_raised_by_some_bad_input() -> None:
    """Each code is one sentence in the bot's catalogue; a code no input produces is a dead entry there."""
    assert {case.code for case in CASES} == set(ErrorCode)


def test_every_error_is_a_value_error_of_the_family() -> None:
    for case in CASES:
        assert issubclass(case.kind, PulucError) and issubclass(case.kind, ValueError)
    assert IllegalMove is IllegalMoveError
    assert NoMoveToChoose is NoMoveToChooseError


def test_record_error_names_the_event_that_does_not_replay() -> None:
    # A enters on 2, B enters on 7 (B counts from the other end), A throws 1 and tries to move B's piece.
    events = [{"throw": [2]}, {"move": "2:H"}, {"throw": [3]}, {"move": "3:H"}, {"throw": [1]}, {"move": "1:7"}]
    with pytest.raises(InvalidRecordError) as caught:
        GameRecord.from_dict(record(events=events))
    assert caught.value.event == 6 and str(caught.value).startswith("record event 6: 1:7 is not legal")
    cause = caught.value.__cause__
    assert isinstance(cause, IllegalMoveError) and cause.code is ErrorCode.NOT_LEGAL_HERE
    assert cause.move == Move(1, 7) and cause.seat == "A1" and cause.pending == (1,)
    GameRecord.from_dict(record(events=events[:5]))  # everything before the named event replays


def test_errors_survive_pickling_with_their_fields() -> None:
    """Worker processes (the benchmarks' pools) send errors back pickled."""
    for case in CASES:
        error = refusal(case)
        copy = pickle.loads(pickle.dumps(error))
        assert type(copy) is type(error) and str(copy) == str(error)
        assert copy.code is error.code and copy.params == error.params
