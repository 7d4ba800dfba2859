"""The board PNG is pixel for pixel what it was before the renderer drew through a scene (issue 30, item 1)
and before its encoding was tuned (issue 33): many boards of every kind, decoded, hashed and compared with
the hashes recorded from the earlier renderer.

The cases cover 1 v 1, 2 v 2, 4 v 4 and 8 v 8, every preset (army, ants, culin, return routes, eagle,
scorpion, fire), burning cells, last moves (captures, burns, arrivals, culin's wrap), move badges, throws,
the advantage bar, names, both themes, several widths and replay captions. The hashes depend on Pillow's
rasteriser and on the font file, so the fixture records both; where either differs (another machine),
the comparison cannot say anything and the test is skipped with that reason, never on this project's CI
image. `python -m tests.renderer.test_board_pixels --write` records the hashes again: only after a change
a person has looked at (before and after pictures in the change's description).
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import PIL
import pytest
from PIL import Image

from puluc import Position, Rules, Throw
from renderer import board_image, render_board
from renderer.fonts import find_font
from renderer.sample import random_game

FIXTURE = Path(__file__).with_name("fixtures") / "board_pixels.json"


@dataclass(frozen=True, slots=True)
class Case:
    name: str
    position: Position
    options: dict[str, object]


def _labels(position: Position) -> dict[int | str, str]:
    """Badges as the bot numbers its buttons (bot.ui.pictures.move_labels, without importing the bot)."""
    from renderer import label_target

    numbers: dict[int | str, list[str]] = {}
    for number, move in enumerate(position.legal_moves(), start=1):
        numbers.setdefault(label_target(position.rules, position.move_effect(move)), []).append(str(number))
    return {k: ",".join(v) if len(",".join(v)) <= 3 else f"{v[0]}+" for k, v in numbers.items()}


def cases() -> Iterator[Case]:
    presets = ("bell", "ants", "eagle", "scorpion", "fire", "culin", "village")
    widths = (None, 400, 550, 1200)
    count = 0
    for preset in presets:
        for team_size in (1, 2, 4, 8):
            if team_size == 4 and preset not in ("fire", "culin"):
                continue
            rules = Rules.preset(preset, team_size=team_size)
            record = random_game(rules, seed=team_size * 31 + len(preset), max_moves=2000)
            positions = list(record.positions())
            throws: tuple[Throw, ...] | None = None
            rng = random.Random(f"{preset}{team_size}")
            n = len(positions)
            picks = sorted({1, 2, n // 5, n // 2, n * 4 // 5, n - 1})
            # Every capture, burn and arrival of the first few hundred events, a handful of each.
            marked = {"capture": 0, "burn": 0, "arrive": 0}
            for index, position in enumerate(positions):
                effect = position.last_move
                if effect is None or index > 600:
                    continue
                kind = "burn" if effect.burns else "capture" if effect.captures else None
                kind = kind or ("arrive" if effect.arrives else None)
                if kind is not None and marked[kind] < 2:
                    marked[kind] += 1
                    picks.append(index)
            for index in sorted(set(picks)):
                position = positions[index]
                event = record.events[index - 1] if index else None
                if event is not None and hasattr(event, "throws"):
                    throws = tuple(event.throws)
                count += 1
                options: dict[str, object] = {
                    "theme": "light" if count % 3 == 0 else "dark",
                    "width": widths[count % len(widths)],
                }
                if not position.must_throw and not position.is_over:
                    options["labels"] = _labels(position) or None
                    options["throw"] = throws
                if count % 2:
                    options["advantage"] = round(rng.random(), 3)
                if count % 4 == 1:
                    options["names"] = {seat: f"Player {seat} Ωß" for seat in rules.seats}
                if count % 7 == 3:
                    options["last_move"] = False
                if count % 9 == 4:
                    options["caption"] = f"Move {index}: something happened"
                yield Case(f"{preset}-{team_size}v{team_size}-{index}", position, options)


def _digest(image: Image.Image) -> str:
    return hashlib.sha256(image.convert("RGB").tobytes()).hexdigest()[:20]


def hashes(case: Case) -> dict[str, str]:
    png = Image.open(io.BytesIO(render_board(case.position, **case.options)))  # type: ignore[arg-type]
    raw = board_image(case.position, **case.options)  # type: ignore[arg-type]
    return {"png": _digest(png), "image": _digest(raw), "size": f"{png.width}x{png.height}"}


def environment() -> dict[str, str]:
    font = find_font(bold=True)
    font_hash = hashlib.sha256(Path(font).read_bytes()).hexdigest()[:16] if font else "none"
    return {"pillow": PIL.__version__, "font": font_hash}


def _recorded() -> dict[str, Any]:
    found: dict[str, Any] = json.loads(FIXTURE.read_text())
    return found


ALL = list(cases())


def test_the_cases_cover_every_kind_of_board() -> None:
    names = " ".join(case.name for case in ALL)
    for kind in ("bell-1v1", "ants-2v2", "fire-4v4", "village-8v8", "culin-8v8", "eagle-1v1", "scorpion-2v2"):
        assert kind in names
    assert sum(1 for c in ALL if c.position.last_move is not None and c.position.last_move.burns) >= 3
    assert sum(1 for c in ALL if c.position.last_move is not None and c.position.last_move.captures) >= 10
    assert sum(1 for c in ALL if c.options.get("labels")) >= 20
    assert len(ALL) == len(_recorded()["cases"])


@pytest.mark.parametrize("case", ALL, ids=[case.name for case in ALL])
def test_board_pixels_are_unchanged(case: Case) -> None:
    recorded = _recorded()
    if recorded["environment"] != environment():
        pytest.skip(f"recorded with {recorded['environment']}, this machine has {environment()}")
    assert hashes(case) == recorded["cases"][case.name]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--write", action="store_true", help="record the hashes of the current renderer")
    args = parser.parse_args()
    found = {case.name: hashes(case) for case in ALL}
    if args.write:
        FIXTURE.write_text(json.dumps({"environment": environment(), "cases": found}, indent=1, sort_keys=True) + "\n")
        print(f"wrote {len(found)} cases to {FIXTURE}")
        return
    recorded = _recorded()["cases"]
    changed = [name for name, value in found.items() if recorded.get(name) != value]
    print(f"{len(found)} cases, {len(changed)} changed: {changed}")


if __name__ == "__main__":
    main()
