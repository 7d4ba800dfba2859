"""Properties over random games of every preset and setup (issue 2)."""

from __future__ import annotations

import contextlib
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from puluc import PRESETS, Game, GameRecord, Position, Rules

RULES = st.builds(
    lambda name, team_size, setup, fire, scorpion, length_delta: Rules.from_setup(
        name,
        team_size,
        setup,
        **({"fire": True} if fire else {}),
        **({"scorpion": True} if scorpion and name != "culin" else {}),
        **({"road_length": max(5, Rules.preset(name, team_size=team_size).road_length - length_delta)}),
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


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="AB12345678+-./: ,H0b9x", max_size=60))
def test_garbage_ppn_raises_only_value_error(text: str) -> None:
    with contextlib.suppress(ValueError):
        Position.from_ppn(Rules.preset("bell"), text)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=12))
def test_garbage_move_text_raises_only_value_error(text: str) -> None:
    from puluc import Move

    try:
        move = Move.parse(text)
    except ValueError:
        return
    assert str(move) == text.strip()
