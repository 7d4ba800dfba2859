"""Properties over random games of every preset and setup (issue 2)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puluc import (
    PRESETS,
    ErrorCode,
    Game,
    GameRecord,
    IllegalMoveError,
    IllegalThrowError,
    InvalidMoveError,
    InvalidPositionError,
    InvalidRecordError,
    Move,
    Position,
    Rules,
)

RULES = st.builds(
    lambda name, team_size, setup, fire, scorpion, length_delta: Rules.from_setup(
        name,
        team_size,
        setup,
        **({"fire": True} if fire else {}),
        **({"scorpion": True} if scorpion and name != "culin" else {}),
        road_length=max(5, Rules.preset(name, team_size=team_size).road_length - length_delta),
    ),
    st.sampled_from(sorted(PRESETS)),
    st.integers(1, 4),
    st.sampled_from(["modern", "traditional"]),
    st.booleans(),
    st.booleans(),
    st.sampled_from([0, 2, 4]),
)


def check_invariants(pos: Position) -> None:
    rules = pos.rules
    for seat in rules.seats:
        assert pos.home(seat) + pos.on_road(seat) + pos.killed(seat) + pos.gone(seat) == 5, seat
    assert Position.from_ppn(rules, pos.to_ppn()).to_ppn() == pos.to_ppn()
    assert Position.from_ppn(rules, pos.to_ppn()) == pos
    team = pos.team_to_move
    for move in pos.legal_moves():
        effect = pos.move_effect(move)
        if effect.dest is not None and effect.dest != effect.source and not effect.arrives:
            target = pos.stack_at(effect.dest)
            assert target is None or target.team != team, f"{move} lands on its own team"


@settings(max_examples=60, deadline=None)
@given(RULES, st.integers(0, 2**32))
def test_random_games_keep_every_invariant(rules: Rules, seed: int) -> None:
    rng = random.Random(seed)
    game = Game.new(rules, rng)
    for _ in range(3000):
        check_invariants(game.position)
        if game.outcome() is not None:
            break
        moves = game.position.legal_moves()
        if moves:
            game.play(rng.choice(moves))
        else:
            game.roll(rng)
    assert GameRecord.from_json(game.record.to_json()).replay() == game.position
    replayed = list(game.record.positions())
    assert replayed[-1] == game.position and len(replayed) == len(game.record.events) + 1


def _sample_positions() -> list[tuple[Rules, str]]:
    """Positions of a few short games under rules with different PPN checks (fire, eagle, scorpion, teams)."""
    samples = []
    for n, rules in enumerate(
        (
            Rules.preset("bell"),
            Rules.preset("fire", scorpion=True),
            Rules.preset("eagle"),
            Rules.preset("ants", team_size=2),
        )
    ):
        rng = random.Random(n)
        game = Game.new(rules, rng)
        for _ in range(60):
            if game.outcome() is not None:
                break
            samples.append((rules, game.position.to_ppn()))
            moves = game.position.legal_moves()
            if moves:
                game.play(rng.choice(moves))
            else:
                game.roll(rng)
    return samples


SAMPLE_POSITIONS = _sample_positions()
PPN_CHARACTERS = "AB12345678+-./: ,H0b9x"


@st.composite
def edited_ppn(draw: st.DrawFn) -> tuple[Rules, str]:
    """A real position's PPN with a few characters replaced, inserted or deleted: mostly broken, sometimes not."""
    rules, text = draw(st.sampled_from(SAMPLE_POSITIONS))
    chars = list(text)
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(chars)))
        edit = draw(st.sampled_from(("replace", "insert", "delete")))
        new = draw(st.sampled_from(PPN_CHARACTERS))
        if edit == "insert":
            chars.insert(at, new)
        elif at < len(chars):
            chars[at : at + 1] = [new] if edit == "replace" else []
    return rules, "".join(chars)


@settings(max_examples=400, deadline=None)
@given(st.one_of(edited_ppn(), st.tuples(st.just(Rules.preset("bell")), st.text(PPN_CHARACTERS, max_size=60))))
def test_garbage_ppn_raises_only_invalid_position(case: tuple[Rules, str]) -> None:
    """PPN either parses to a position that writes back the very same text, or is refused as a position
    (any other exception, a ValueError of another kind included, fails), pointing inside the text."""
    rules, text = case
    try:
        pos = Position.from_ppn(rules, text)
    except InvalidPositionError as exc:
        assert exc.field in (None, 1, 2, 3, 4, 5)
        assert exc.cell is None or 1 <= exc.cell <= rules.road_length
        assert exc.text is None or exc.text in text
        assert str(exc).startswith("PPN")
        return
    assert pos.to_ppn() == text
    assert pos.rules == rules


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=12), st.from_regex(r"\s*[0-9]{1,3}:(H|[0-9]{1,3})b?\s*", fullmatch=True)))
def test_garbage_move_text_raises_only_invalid_move(text: str) -> None:
    try:
        move = Move.parse(text)
    except InvalidMoveError as exc:
        assert exc.text == text  # the error quotes what the player typed
        return
    assert str(move) == text.strip()
    assert 1 <= move.throw <= 5 and 0 <= move.source <= 41 and not (move.backward and move.enters)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**16), st.data())
def test_a_damaged_record_is_refused_at_the_first_event_that_does_not_replay(seed: int, data: st.DataObject) -> None:
    """Drop, repeat or swap events of a real record: it either still replays, or the refusal names the first
    event that does not, so that every event before it replays and the named one does not."""
    rng = random.Random(seed)
    game = Game.new(Rules.preset("ants", scorpion=True), rng)
    for _ in range(40):
        if game.outcome() is not None:
            break
        moves = game.position.legal_moves()
        if moves:
            game.play(rng.choice(moves))
        else:
            game.roll(rng)
    record = game.record.to_dict()
    events = record["events"]
    at = data.draw(st.integers(0, len(events) - 2), label="at")
    edit = data.draw(st.sampled_from(("keep", "drop", "repeat", "swap")), label="edit")
    if edit == "drop":
        del events[at]
    elif edit == "repeat":  # a duplicated move or throw: what a double save would write
        events.insert(at, events[at])
    elif edit == "swap":
        events[at], events[at + 1] = events[at + 1], events[at]
    try:
        replayed = GameRecord.from_dict(record)
    except InvalidRecordError as exc:
        assert exc.code is ErrorCode.ILLEGAL_EVENT and exc.event is not None
        assert isinstance(exc.__cause__, IllegalMoveError | IllegalThrowError)
        assert f"record event {exc.event}:" in str(exc)
        GameRecord.from_dict({**record, "events": events[: exc.event - 1]})
        with pytest.raises(InvalidRecordError):
            GameRecord.from_dict({**record, "events": events[: exc.event]})
        assert edit != "keep"
        return
    assert replayed.to_dict() == record
