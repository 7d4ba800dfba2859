"""The replay GIF: a captioned frame per move (quiet stretches merged in long games), eventful moves kept,
the result on the last frame, and a cap that keeps every replay under 8 MiB and 90 seconds."""

from __future__ import annotations

import pytest
from PIL import Image

from puluc import Game, GameRecord, Rules, Throw
from renderer import SEAT_COLOURS, piece_centre, render_replay
from renderer.animation import (
    END_MS,
    EVENT_MS,
    MAX_BYTES,
    MOVE_MS,
    START_MS,
    BadRecord,
    caption_for,
    eventful,
    plan,
    replay_frames,
    replay_width,
)
from renderer.layout import layout_for
from renderer.texts import resolve
from renderer.theme import THEMES
from tests.helpers import decode, pixels, random_record

DISCORD_UPLOAD_LIMIT = 8 * 1024 * 1024
LONGEST_MS = 90_000


def frame_durations(image: Image.Image) -> list[int]:
    durations = []
    for index in range(getattr(image, "n_frames", 1)):
        image.seek(index)
        durations.append(image.info["duration"])
    return durations


@pytest.mark.parametrize(("preset", "team_size", "moves"), [("bell", 1, 60), ("ants", 2, 40), ("fire", 8, 30)])
def test_a_short_game_has_one_frame_per_move_plus_the_start(preset: str, team_size: int, moves: int) -> None:
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
        assert duration == (EVENT_MS if eventful(position) else MOVE_MS)
    assert EVENT_MS in durations and MOVE_MS in durations


def test_a_long_team_game_stays_under_discords_limits_and_keeps_every_event() -> None:
    record = random_record(Rules.preset("ants", team_size=8), 1, 5000)
    assert record.replay().is_over and len(record.moves) > 1000
    frames = replay_frames(record)
    shots = plan(frames)
    data = render_replay(record)
    assert len(data) < min(MAX_BYTES, DISCORD_UPLOAD_LIMIT)
    image = decode(data)
    durations = frame_durations(image)
    assert len(durations) == len(shots) < len(frames)
    assert sum(durations) <= LONGEST_MS
    shown = {shot.frame for shot in shots}
    eventful_frames = {i for i, (position, _) in enumerate(frames) if i and eventful(position)}
    assert len(eventful_frames) > 50
    assert eventful_frames <= shown
    # Every move is accounted for by exactly one frame, in order.
    covered = [m for shot in shots[1:] for m in range(shot.first_move, shot.last_move + 1)]
    assert covered == list(range(1, len(frames)))


def test_captions_say_the_move_number_who_moved_and_what_happened() -> None:
    record = random_record(Rules.preset("bell"), 3, 200)
    frames = replay_frames(record)
    shots = plan(frames)
    texts = resolve(None)
    assert caption_for(shots[0], frames[0][0], texts) == "Start"
    for shot in shots[1:]:
        position = frames[shot.frame][0]
        effect = position.last_move
        assert effect is not None
        caption = caption_for(shot, position, texts)
        assert caption.startswith(f"Move {shot.last_move}: {effect.seat} ")
        assert ("captures" in caption) == effect.captures
        assert ("kills" in caption) == bool(effect.kills)
    french = resolve({"caption": "Coup {number} : {seat} {action}", "captures": "prend {count}"})
    capture = next(s for s in shots if (e := frames[s.frame][0].last_move) is not None and e.captures)
    assert caption_for(capture, frames[capture.frame][0], french).startswith(f"Coup {capture.last_move} : ")
    assert "prend" in caption_for(capture, frames[capture.frame][0], french)


def test_the_last_frame_shows_the_result() -> None:
    record = random_record(Rules.preset("bell"), 7, 400)
    outcome = record.replay().outcome()
    assert outcome is not None and outcome.winner is not None
    image = decode(render_replay(record))
    image.seek(getattr(image, "n_frames", 1) - 1)
    last = image.convert("RGB")
    layout = layout_for(9, 1, replay_width(9), caption=True)
    line = set(pixels(last.crop(layout.lines[0])))
    assert THEMES["dark"].last_move in line  # the result is written in the result colour


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
    layout = layout_for(record.rules.road_length, 2, width, caption=True)
    plain = layout_for(record.rules.road_length, 2, width)
    assert layout.rows == plain.rows  # the caption line goes under the board; the road does not move
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
