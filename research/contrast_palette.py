"""Search for the high-contrast theme's sixteen seat colours (issue 32): each at least 3:1 (WCAG 2.2, 1.4.11)
from the theme's black lanes for normal vision and the three dichromacies, the sixteen as far apart as possible.

Run by hand: `python research/contrast_palette.py [--seed S] [--seconds N]`. Starts from the standard palette
(`renderer/theme.py`), lightens the seats that fall under 3:1 (protanopes see deep reds as near black), then
anneals: a random seat (A1 and B1 fixed) takes a nearby colour when it stays within 3:1, a chroma of 25 and its
team's hues (warm for A, cool for B), and the smallest CIEDE2000 distance between any two seats under any vision
does not fall (or falls by chance, less so as the run cools). Prints that distance and the palette, which was
copied into `renderer/theme.py` (seed 1, 150 s: 10.5). Asserts nothing; seeded, though wall-time bounded.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import time

from renderer.theme import SEAT_COLOURS
from renderer.vision import VISIONS, Lab, ciede2000, lab, simulate

RGB = tuple[int, int, int]
LANES: tuple[RGB, ...] = ((0x00, 0x00, 0x00), (0x16, 0x16, 0x16))  # the contrast theme's cell and cell_alt
LEAST_CONTRAST = 3.05  # a little above 3:1, for rounding
CHROMA = 25.0
FIXED = ("A1", "B1")


def luminance(rgb: RGB) -> float:
    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(first: RGB, second: RGB, vision: str) -> float:
    a, b = (luminance(simulate(c, vision) if vision != "normal" else c) for c in (first, second))
    return (max(a, b) + 0.05) / (min(a, b) + 0.05)


def allowed(rgb: RGB, seat: str) -> bool:
    if not all(contrast(rgb, lane, vision) >= LEAST_CONTRAST for lane in LANES for vision in VISIONS):
        return False
    _, a, b = lab(rgb)
    hue = math.degrees(math.atan2(b, a)) % 360
    if math.hypot(a, b) < CHROMA:
        return False
    return hue >= 330 or hue <= 105 if seat.startswith("A") else 120 <= hue <= 320


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=150.0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    seen: dict[RGB, list[Lab]] = {}

    def labs(rgb: RGB) -> list[Lab]:
        if rgb not in seen:
            seen[rgb] = [lab(rgb, vision) for vision in VISIONS]
        return seen[rgb]

    table = dict(SEAT_COLOURS["dark"])
    seats = list(table)

    def least() -> float:
        return min(ciede2000(a, b) for x, y in itertools.combinations(seats, 2)
                   for a, b in zip(labs(table[x]), labs(table[y]), strict=True))

    for seat in seats:
        while not allowed(table[seat], seat):
            table[seat] = tuple(min(255, max(0, v + rng.randrange(-30, 60))) for v in table[seat])  # type: ignore[assignment]
    current = least()
    best = (current, dict(table))
    heat, ends = 1.5, time.monotonic() + args.seconds
    while time.monotonic() < ends:
        seat = rng.choice([s for s in seats if s not in FIXED])
        colour: RGB = tuple(min(255, max(0, v + rng.randrange(-25, 26))) for v in table[seat])  # type: ignore[assignment]
        if not allowed(colour, seat):
            continue
        old, table[seat] = table[seat], colour
        value = least()
        if value >= current or rng.random() < math.exp((value - current) / heat):
            current = value
        else:
            table[seat] = old
        if current > best[0]:
            best = (current, dict(table))
        heat = max(0.05, heat * 0.9995)
    print(f"least distance {best[0]:.2f}")
    for team in "AB":
        print(team, tuple(f"{best[1][f'{team}{n}'][0]:02X}{best[1][f'{team}{n}'][1]:02X}{best[1][f'{team}{n}'][2]:02X}"
                          for n in range(1, 9)))


if __name__ == "__main__":
    main()
