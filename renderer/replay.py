"""An animated GIF replay of a whole game: the start position, then one frame per move.

Throws do not change the board, so they get no frame of their own; each move's frame shows the sticks of
the turn's throw in its header. Captures, burns and arrivals pause longer. Frames are drawn at a reduced
width and mapped onto the board's fixed palette, so every frame shares one colour table, encoding stays
fast and a 200-move game stays well under Discord's upload limit.
Pure: a `GameRecord` in, GIF bytes out.
"""

from __future__ import annotations

import io

from PIL import Image, ImageChops

from puluc import GameRecord, MoveEvent, Position, Throw, ThrowEvent

from .board import UNUSED_INDEX, board_image, board_palette
from .layout import default_width
from .theme import get_theme

REPLAY_WIDTH = 900  # px; Discord shows GIFs at most ~550 px wide in chat, so wider only costs bytes
START_MS = 1200
MOVE_MS = 700
EVENT_MS = 1500  # captures, burns and arrivals
END_MS = 4000


class BadRecord(ValueError):
    """A record that cannot be replayed."""


def replay_width(road_length: int) -> int:
    """The width replay frames are drawn at: smaller than a board, as Discord shows GIFs small anyway."""
    if road_length <= 15:
        return REPLAY_WIDTH
    return REPLAY_WIDTH + 300 if road_length <= 29 else default_width(road_length)


def replay_frames(record: GameRecord) -> list[tuple[Position, tuple[Throw, ...] | None]]:
    """The positions a replay shows (start, then after each move) with the turn's throw for each."""
    if not isinstance(record, GameRecord):
        raise BadRecord(f"expected a puluc GameRecord, not {type(record).__name__}")
    frames: list[tuple[Position, tuple[Throw, ...] | None]] = []
    throws: tuple[Throw, ...] | None = None
    for index, position in enumerate(record.positions()):
        if index == 0:
            frames.append((position, None))
            continue
        event = record.events[index - 1]
        if isinstance(event, ThrowEvent):
            throws = event.throws
        elif isinstance(event, MoveEvent):
            frames.append((position, throws))
    return frames


def _duration(position: Position, index: int, last: int) -> int:
    if index == 0:
        return START_MS
    if index == last:
        return END_MS
    effect = position.last_move
    if effect is not None and (effect.captures or effect.arrives or effect.burns):
        return EVENT_MS
    return MOVE_MS


def render_replay(record: GameRecord, theme: str = "dark") -> bytes:
    """An animated GIF of the game in `record`: one frame for the start and one per move, looping."""
    t = get_theme(theme)
    rules = record.rules if isinstance(record, GameRecord) else None
    frames = replay_frames(record)
    assert rules is not None
    width = replay_width(rules.road_length)
    palette = board_palette(rules.road_length, rules.team_size, width, t.name, rules.fire)
    images: list[Image.Image] = []
    durations: list[int] = []
    last = len(frames) - 1
    previous: Image.Image | None = None
    for index, (position, throws) in enumerate(frames):
        rgb = board_image(position, theme=t.name, throw=throws, width=width)
        frame = rgb.quantize(palette=palette, dither=Image.Dither.NONE)
        images.append(frame if previous is None else _changes(previous, frame))
        previous = frame
        durations.append(_duration(position, index, last))
    out = io.BytesIO()
    images[0].save(
        out,
        "GIF",
        save_all=True,
        append_images=images[1:],
        duration=durations,
        loop=0,
        optimize=False,
        transparency=UNUSED_INDEX,
        disposal=1,
    )
    return out.getvalue()


def _changes(previous: Image.Image, frame: Image.Image) -> Image.Image:
    """`frame` with every pixel equal to `previous` made transparent: long runs of one index compress well."""
    size = frame.size
    before = Image.frombytes("L", size, previous.tobytes())
    after = Image.frombytes("L", size, frame.tobytes())
    changed = ImageChops.difference(before, after).point(lambda v: 255 if v else 0)
    delta = Image.new("P", size, UNUSED_INDEX)
    delta.putpalette(frame.getpalette() or [])
    delta.paste(frame, mask=changed)
    return delta
