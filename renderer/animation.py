"""An animated GIF of a whole game (the replay file): the start position, then a frame per move, captioned.

Every frame has a caption under the board (move number, who moved, what happened), and the last frame's
header shows the result. Throws do not change the board, so they get no frame of their own; each move's
frame shows the turn's sticks in its header. Captures, burns and arrivals pause longer.

A replay must stay under Discord's 8 MiB upload limit and under about 90 seconds (`MAX_PLAY_MS`), however
long the game: when the frames would run longer, quiet moves (no capture, burn or arrival) are shown
faster, then merged (a frame then shows where a run of quiet moves ended, captioned with their numbers),
and only as a last resort are the eventful frames shortened. Eventful moves always keep their own frame.
Frames are drawn at a small width and mapped onto the board's fixed palette, so every frame shares one
colour table and encoding stays fast. Pure: a `GameRecord` in, GIF bytes out.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from PIL import Image, ImageChops

from puluc import GameRecord, MoveEffect, MoveEvent, Position, Throw, ThrowEvent

from .board import UNUSED_INDEX, board_image, board_palette
from .texts import fill, resolve
from .theme import get_theme

REPLAY_WIDTH = 480  # px; Discord shows GIFs at most ~550 px wide in chat, so wider only costs bytes
START_MS = 1500
MOVE_MS = 600
EVENT_MS = 1400  # captures, burns and arrivals
END_MS = 5000
QUIET_MIN_MS = 150  # the fastest a quiet move is shown before quiet moves are merged
EVENT_MIN_MS = 250
MAX_PLAY_MS = 85_000  # the whole replay, under the 90 s a viewer will sit through
MAX_BYTES = 7 * 1024 * 1024  # under Discord's 8 MiB upload limit, with room to spare


class BadRecord(ValueError):
    """A record that cannot be replayed."""


Frame = tuple[Position, tuple[Throw, ...] | None]


@dataclass(frozen=True, slots=True)
class Shot:
    """One frame of the GIF: which of `replay_frames` it shows, for how long, and the moves it covers."""

    frame: int
    duration: int
    first_move: int  # move numbers (1-based) shown by this frame; 0 for the start
    last_move: int


def replay_width(road_length: int) -> int:
    """The width replay frames are drawn at (the same for every road length: the layout folds long roads)."""
    del road_length
    return REPLAY_WIDTH


def replay_frames(record: GameRecord) -> list[Frame]:
    """The positions a replay shows (start, then after each move) with the turn's throw for each."""
    if not isinstance(record, GameRecord):
        raise BadRecord(f"expected a puluc GameRecord, not {type(record).__name__}")
    frames: list[Frame] = []
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


def eventful(position: Position) -> bool:
    effect = position.last_move
    return effect is not None and (effect.captures or effect.arrives or effect.burns)


def plan(frames: Sequence[Frame], max_ms: int = MAX_PLAY_MS) -> list[Shot]:
    """Which frames to show and for how long, so the whole replay lasts at most `max_ms` (when the game allows).

    Eventful moves keep a frame each, at `EVENT_MS` or, in a long game, shortened to take at most 70 % of
    the time (never below `EVENT_MIN_MS`); quiet moves share the rest, at `MOVE_MS` down to `QUIET_MIN_MS`,
    then merged two, four, eight... to a frame.
    """
    last = len(frames) - 1
    if last == 0:
        return [Shot(0, END_MS, 0, 0)]
    events = [i for i in range(1, last) if eventful(frames[i][0])]
    quiet = last - 1 - len(events)
    budget = max_ms - START_MS - END_MS
    event_ms = EVENT_MS
    if events:
        event_ms = min(EVENT_MS, max(EVENT_MIN_MS, int(budget * 0.7) // len(events)))
    room = budget - len(events) * event_ms
    quiet_ms = MOVE_MS
    if quiet and quiet * MOVE_MS > room:
        quiet_ms = max(QUIET_MIN_MS, room // quiet)
    merge = 1  # quiet moves per frame; above `last`, quiet runs fold into the next frame
    while merge <= last and _quiet_frames(frames, merge) * quiet_ms > room:
        merge *= 2
    shots = [Shot(0, START_MS, 0, 0)]
    run_start = 1
    for i in range(1, last):
        if eventful(frames[i][0]):
            shots.append(Shot(i, event_ms, run_start, i))
            run_start = i + 1
        elif merge <= last and (i - run_start + 1 >= merge or eventful(frames[i + 1][0]) or i + 1 == last):
            shots.append(Shot(i, quiet_ms, run_start, i))
            run_start = i + 1
    shots.append(Shot(last, END_MS, run_start, last))
    return shots


def _quiet_frames(frames: Sequence[Frame], merge: int) -> int:
    """How many frames the quiet moves take when `merge` of them share a frame (runs end at events)."""
    last = len(frames) - 1
    if merge > last:
        return 0
    count = 0
    run = 0
    for i in range(1, last):
        if eventful(frames[i][0]):
            count += math.ceil(run / merge)
            run = 0
        else:
            run += 1
    return count + math.ceil(run / merge)


def _action(effect: MoveEffect, texts: Mapping[str, str]) -> str:
    if effect.source is None:
        parts = [fill(texts, "enters", cell=effect.dest)]
    elif effect.dest is None:
        parts = [fill(texts, "arrives", source=effect.source)]
    else:
        parts = [fill(texts, "moves", source=effect.source, dest=effect.dest)]
    if effect.captures:
        parts.append(fill(texts, "captures", count=len(effect.captured)))
    if effect.kills:
        parts.append(fill(texts, "kills", count=effect.kills))
    if effect.freed:
        parts.append(fill(texts, "frees", count=effect.freed))
    if effect.burns:
        parts.append(fill(texts, "burns"))
    return ", ".join(parts)


def caption_for(shot: Shot, position: Position, texts: Mapping[str, str]) -> str:
    """The caption under a frame: "Start", or the move's number, mover and what it did."""
    if shot.last_move == 0:
        return fill(texts, "start")
    effect = position.last_move
    assert effect is not None  # every frame after the start follows a move
    text = fill(texts, "caption", number=shot.last_move, seat=effect.seat, action=_action(effect, texts))
    skipped = shot.last_move - shot.first_move
    if skipped:
        text = fill(texts, "skipped", count=skipped) + " · " + text
    return text


def render_replay(
    record: GameRecord,
    theme: str = "dark",
    *,
    names: Mapping[str, str] | None = None,
    texts: Mapping[str, str] | None = None,
    max_ms: int = MAX_PLAY_MS,
) -> bytes:
    """An animated GIF of the game in `record`: the start and every move (see the module docstring), looping.

    names: seat -> player name for the header; texts: the words drawn (see `renderer.texts`).
    """
    t = get_theme(theme)
    frames = replay_frames(record)
    words = resolve(texts)
    shots = plan(frames, max_ms)
    data = _encode(record, frames, shots, t.name, names, words, REPLAY_WIDTH)
    while len(data) > MAX_BYTES and len(shots) > 2:
        # Too many bytes: show quiet stretches in fewer frames until the file fits.
        shots = plan(frames, max_ms * 2 // 3)
        shots = _fewer(shots, frames)
        data = _encode(record, frames, shots, t.name, names, words, REPLAY_WIDTH)
    return data


def _fewer(shots: list[Shot], frames: Sequence[Frame]) -> list[Shot]:
    """Every other quiet frame merged into the next one (eventful frames, the start and the end stay)."""
    kept: list[Shot] = []
    pending: Shot | None = None
    for shot in shots:
        quiet = 0 < shot.frame < len(frames) - 1 and not eventful(frames[shot.frame][0])
        if quiet and pending is None:
            pending = shot
            continue
        if pending is not None:
            shot = Shot(shot.frame, shot.duration, pending.first_move, shot.last_move) if quiet else shot
            if not quiet:
                kept.append(pending)
            pending = None
        kept.append(shot)
    if pending is not None:
        kept.append(pending)
    return kept


def _encode(
    record: GameRecord,
    frames: Sequence[Frame],
    shots: Sequence[Shot],
    theme: str,
    names: Mapping[str, str] | None,
    texts: Mapping[str, str],
    width: int,
) -> bytes:
    rules = record.rules
    palette = board_palette(rules.road_length, rules.team_size, width, theme, rules.fire, True)
    images: list[Image.Image] = []
    previous: Image.Image | None = None
    for shot in shots:
        position, throws = frames[shot.frame]
        rgb = board_image(
            position,
            theme=theme,
            throw=throws,
            width=width,
            names=names,
            texts=texts,
            caption=caption_for(shot, position, texts),
        )
        frame = rgb.quantize(palette=palette, dither=Image.Dither.NONE)
        images.append(frame if previous is None else _changes(previous, frame))
        previous = frame
    out = io.BytesIO()
    images[0].save(
        out,
        "GIF",
        save_all=True,
        append_images=images[1:],
        duration=[shot.duration for shot in shots],
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
