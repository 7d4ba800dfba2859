"""Game records: JSON round trip and exact replay (issue 2)."""

from __future__ import annotations

import json
import random

import pytest

from puluc import Game, GameRecord, IllegalMoveError, InvalidRecordError, Rules


def play_random(rules: Rules, seed: int, max_events: int = 10_000) -> Game:
    rng = random.Random(seed)
    game = Game.new(rules, rng, seed=seed, seats={"A1": "Alice", "B1": "ai:hard"})
    for _ in range(max_events):
        if game.outcome() is not None:
            break
        moves = game.position.legal_moves()
        if moves:
            game.play(rng.choice(moves))
        else:
            game.roll(rng)
    return game


def test_record_replays_to_the_live_position() -> None:
    game = play_random(Rules.preset("scorpion", fire=True), seed=3)
    assert game.outcome() is not None
    assert game.record.replay() == game.position
    restored = GameRecord.from_json(game.record.to_json())
    assert restored.replay() == game.position
    assert restored.to_json() == game.record.to_json()


def test_same_seed_same_game() -> None:
    a = play_random(Rules.preset("bell"), seed=11)
    b = play_random(Rules.preset("bell"), seed=11)
    assert a.record.to_json() == b.record.to_json()


def test_record_format_is_documented_json() -> None:
    data = json.loads(play_random(Rules.preset("village"), seed=2).record.to_json())
    assert data["format"] == "puluc-record" and data["version"] == 1
    assert data["rules"]["sticks"] == "pass-on-one"
    assert data["first"] in ("A", "B") and data["seed"] == 2
    assert data["seats"] == {"A1": "Alice", "B1": "ai:hard"}
    kinds = {next(iter(e)) for e in data["events"]}
    assert kinds == {"throw", "move"}


def test_a_record_with_an_illegal_move_is_refused() -> None:
    data = play_random(Rules.preset("bell"), seed=4).record.to_dict()
    data["events"].insert(1, {"move": "5:9"})
    with pytest.raises(InvalidRecordError, match="record event 2"):
        GameRecord.from_dict(data)


def test_faces_must_match_values() -> None:
    data = play_random(Rules.preset("bell"), seed=4).record.to_dict()
    data["events"][0] = {"throw": [5], "faces": ["1111"]}
    with pytest.raises(InvalidRecordError, match="do not give"):
        GameRecord.from_dict(data)


def test_failed_move_leaves_game_and_record_unchanged() -> None:
    game = play_random(Rules.preset("bell"), seed=8, max_events=5)
    before = (game.position, len(game.record.events))
    with pytest.raises(IllegalMoveError):
        game.play("5:9")
    assert (game.position, len(game.record.events)) == before


@pytest.mark.parametrize("text", ["", "{", "[]", '{"format": "chess"}', '{"format": "puluc-record", "version": 9}'])
def test_garbage_is_not_a_record(text: str) -> None:
    with pytest.raises(InvalidRecordError):
        GameRecord.from_json(text)
