"""The replay GIF: one frame for the start and one per move, longer pauses on captures and arrivals."""

from __future__ import annotations

import pytest
from PIL import Image

from puluc import Game, GameRecord, Rules, Throw
from renderer import SEAT_COLOURS, piece_centre, render_replay
from renderer.replay import END_MS, EVENT_MS, MOVE_MS, START_MS, BadRecord, replay_frames, replay_width
from tests.helpers import decode, random_record


def frame_durations(image: Image.Image) -> list[int]:
    durations = []
    for index in range(getattr(image, "n_frames", 1)):
        image.seek(index)
        durations.append(image.info["duration"])
    return durations


@pytest.mark.parametrize(("preset", "team_size", "moves"), [("bell", 1, 60), ("ants", 2, 40), ("fire", 8, 30)])
def test_replay_has_one_frame_per_move_plus_the_start(preset: str, team_size: int, moves: int) -> None:
    record = random_record(Rules.preset(preset, team_size=team_size), 11, moves)
    image = decode(render_replay(record))
    assert image.format == "GIF"
    assert getattr(image, "n_frames", 1) == len(record.moves) + 1


def test_replay_pauses_longer_on_captures_and_arrivals() -> None:
    record = random_record(Rules.preset("bell"), 3, 200)
    frames = replay_frames(record)
    durations = frame_durations(decode(render_replay(record)))
    assert durations[0] == START_MS and durations[-1] == END_MS
    for (position, _), duration in zip(frames[1:-1], durations[1:-1], strict=True):
        effect = position.last_move
        assert effect is not None
        eventful = effect.captures or effect.arrives or effect.burns
        assert duration == (EVENT_MS if eventful else MOVE_MS)
    assert EVENT_MS in durations and MOVE_MS in durations


def test_replay_frames_carry_the_turns_throw() -> None:
    game = Game.new(Rules.preset("bell"), __import__("random").Random(1), first="A")
    game.throw([Throw.from_code("1100")])
    game.play("2:H")
    frames = replay_frames(game.record)
    assert frames[0][1] is None
    assert frames[1][1] == (Throw.from_code("1100"),)


def test_a_record_with_no_moves_is_one_frame() -> None:
    record = GameRecord(Rules.preset("bell"))
    assert getattr(decode(render_replay(record)), "n_frames", 1) == 1


def test_replay_refuses_what_is_not_a_record() -> None:
    with pytest.raises(BadRecord):
        render_replay("not a record")  # type: ignore[arg-type]


def test_every_frame_shows_its_position_pieces_in_seat_colours() -> None:
    # Frames after the first store only changed pixels; decoding must still give each whole position.
    record = random_record(Rules.preset("ants", team_size=2), 5, 30)
    frames = replay_frames(record)
    width = replay_width(record.rules.road_length)
    image = decode(render_replay(record))
    for index in (1, len(frames) // 2, len(frames) - 1):
        image.seek(index)
        shown = image.convert("RGB")
        position = frames[index][0]
        assert position.stacks()
        for cell, stack in position.stacks():
            point = piece_centre(position, cell, 0, width=width)
            assert shown.getpixel(point) == SEAT_COLOURS["dark"][stack.owner], (index, cell)


@pytest.mark.parametrize("road_length", [5, 17, 29, 31, 41])
def test_replay_draws_every_road_length(road_length: int) -> None:
    record = random_record(Rules.preset("culin", road_length=road_length), road_length, 12)
    assert getattr(decode(render_replay(record)), "n_frames", 1) == len(record.moves) + 1
