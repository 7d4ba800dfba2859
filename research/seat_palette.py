"""Search for sixteen seat colours that stay apart for normal vision and the three dichromacies.

Run by hand: `python research/seat_palette.py [--steps N] [--seed S]`. Simulated annealing over sRGB
colours maximises the smallest CIEDE2000 distance between any two of the sixteen seats, taken over normal
vision and the Machado (2009) simulations of protanopia, deuteranopia and tritanopia (`renderer/vision.py`),
and keeps every colour at least as far from both themes' lane colours. Colours are held to a lightness
band that reads on the dark and the light theme, and to a least chroma, so no seat looks like the greys
of the board; team A's seats take warm hues and team B's cool ones, like the teams' own colours, and A1
and B1 keep the teams' orange and sky blue. Prints the palette and each vision's closest pair; the result
was copied into `renderer/theme.py`. Asserts nothing; seeded, so a run is repeatable.
"""

from __future__ import annotations

import argparse
import math
import random
from itertools import combinations

from renderer.vision import VISIONS, Lab, ciede2000, closest_pair, lab

RGB = tuple[int, int, int]
SEATS = 16
LIGHTNESS = (42.0, 85.0)  # L*: dark enough for the light theme, light enough for the dark one
CHROMA = 25.0  # least C*ab under normal vision
LANES = ((0x3F, 0x42, 0x48), (0xE3, 0xE5, 0xE8))  # the dark and the light theme's lane colour


# A1 and B1 keep the teams' own colours (Okabe-Ito orange and sky blue): a 1 v 1 board shows only these two.
FIXED: dict[int, RGB] = {0: (0xE6, 0x9F, 0x00), 8: (0x56, 0xB4, 0xE9)}
WARM = ((330.0, 360.0), (0.0, 105.0))  # CIELAB hue angles of team A: magenta, red, orange, yellow
COOL = ((120.0, 320.0),)  # team B: green, cyan, blue, violet


def allowed(rgb: RGB, seat: int) -> bool:
    """Within the lightness band and chroma, and in its team's hues: seats 0-7 are team A's, 8-15 B's."""
    lightness, a, b = lab(rgb)
    if not (LIGHTNESS[0] <= lightness <= LIGHTNESS[1] and math.hypot(a, b) >= CHROMA):
        return False
    hue = math.degrees(math.atan2(b, a)) % 360
    return any(lo <= hue <= hi for lo, hi in (WARM if seat < SEATS // 2 else COOL))


class Search:
    """The annealing state: colours, their Lab under every vision, and the pairwise distance table."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.colours = [FIXED.get(seat) or self.random_colour(seat) for seat in range(SEATS)]
        self.labs = [self.seen(c) for c in self.colours]
        self.lanes = [self.seen(c) for c in LANES]
        self.pairs = [[0.0] * SEATS for _ in range(SEATS)]
        for i, j in combinations(range(SEATS), 2):
            self.pairs[i][j] = self.pairs[j][i] = self.pair(i, j)
        self.edges = [self.edge(i) for i in range(SEATS)]

    def random_colour(self, seat: int) -> RGB:
        while True:
            rgb = (self.rng.randrange(256), self.rng.randrange(256), self.rng.randrange(256))
            if allowed(rgb, seat):
                return rgb

    @staticmethod
    def seen(rgb: RGB) -> list[Lab]:
        return [lab(rgb, vision) for vision in VISIONS]

    def pair(self, i: int, j: int) -> float:
        return min(ciede2000(x, y) for x, y in zip(self.labs[i], self.labs[j], strict=True))

    def edge(self, i: int) -> float:
        return min(ciede2000(x, y) for lane in self.lanes for x, y in zip(self.labs[i], lane, strict=True))

    def score(self) -> float:
        return min(min(self.pairs[i][j] for i, j in combinations(range(SEATS), 2)), min(self.edges))

    def step(self, temperature: float, current: float) -> float:
        i = self.rng.randrange(SEATS)
        if i in FIXED:
            return current
        spread = self.rng.choice((3, 8, 20, 50))
        old = self.colours[i]
        rgb = (
            min(255, max(0, old[0] + self.rng.randint(-spread, spread))),
            min(255, max(0, old[1] + self.rng.randint(-spread, spread))),
            min(255, max(0, old[2] + self.rng.randint(-spread, spread))),
        )
        if not allowed(rgb, i):
            return current
        saved = (self.labs[i], self.pairs[i][:], self.edges[i])
        self.colours[i], self.labs[i] = rgb, self.seen(rgb)
        for j in range(SEATS):
            if j != i:
                self.pairs[i][j] = self.pairs[j][i] = self.pair(i, j)
        self.edges[i] = self.edge(i)
        new = self.score()
        if new >= current or self.rng.random() < math.exp((new - current) / temperature):
            return new
        self.colours[i], self.edges[i] = old, saved[2]
        self.labs[i] = saved[0]
        for j in range(SEATS):
            if j != i:
                self.pairs[i][j] = self.pairs[j][i] = saved[1][j]
        return current


def search(steps: int, seed: int) -> tuple[float, list[RGB]]:
    state = Search(random.Random(seed))
    current = best = state.score()
    best_colours = list(state.colours)
    for n in range(steps):
        current = state.step(2.0 * (1 - n / steps) + 0.02, current)
        if current > best:
            best, best_colours = current, list(state.colours)
    return best, best_colours


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=400_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    best, colours = search(args.steps, args.seed)
    # Seat 1 keeps its team's colour; the others follow light to dark.
    team_a = colours[:1] + sorted(colours[1:8], key=lambda c: -lab(c)[0])
    team_b = colours[8:9] + sorted(colours[9:], key=lambda c: -lab(c)[0])
    print(f"least distance {best:.2f} (CIEDE2000, over normal vision and the three dichromacies)")
    print("_TEAM_A =", tuple(f"{r:02X}{g:02X}{b:02X}" for r, g, b in team_a))
    print("_TEAM_B =", tuple(f"{r:02X}{g:02X}{b:02X}" for r, g, b in team_b))
    table = {f"{team}{n + 1}": rgb for team, seats in (("A", team_a), ("B", team_b)) for n, rgb in enumerate(seats)}
    for vision in VISIONS:
        distance, first, second = closest_pair(table, vision)
        print(f"  {vision:<13} closest {first}-{second}: {distance:.2f}")


if __name__ == "__main__":
    main()
