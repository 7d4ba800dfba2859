"""The high-contrast palette (issue 32) passes the colour-vision check: under normal vision and the three
dichromacy simulations of `renderer.vision`, every seat stands at least 3:1 from its lane (WCAG 2.2's bar for
graphics, 1.4.11), every word and mark at least 4.5:1 from its ground (1.4.3; the words reach 15:1), and the
sixteen seats stay as far apart as in the other themes. The standard dark theme fails it, so the check bites."""

from __future__ import annotations

import pytest

from puluc import Position, Rules
from renderer import SEAT_COLOURS, render_board
from renderer.theme import THEMES, Theme
from renderer.vision import VISIONS, closest_pair, simulate
from tests.helpers import decode, pixels

RGB = tuple[int, int, int]
GRAPHICS = 3.0  # WCAG 2.2, 1.4.11 non-text contrast
TEXT = 4.5  # WCAG 2.2, 1.4.3 contrast (minimum)
LEAST_SEAT_DISTANCE = 10.0


def luminance(rgb: RGB) -> float:
    """WCAG relative luminance of an sRGB colour."""

    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(first: RGB, second: RGB, vision: str = "normal") -> float:
    """The WCAG contrast ratio of two colours as someone with `vision` sees them."""
    a, b = (luminance(simulate(c, vision) if vision != "normal" else c) for c in (first, second))
    return (max(a, b) + 0.05) / (min(a, b) + 0.05)


def failures(theme: Theme) -> list[str]:
    found = []
    lanes = (theme.cell, theme.cell_alt)
    for vision in VISIONS:
        for seat, colour in SEAT_COLOURS[theme.name].items():
            for lane in lanes:
                if contrast(colour, lane, vision) < GRAPHICS:
                    found.append(f"{seat} on its lane, {vision}: {contrast(colour, lane, vision):.2f}")
        for name in ("text", "muted", "last_move", "badge", "grid"):
            for ground in (theme.background, theme.panel, *lanes):
                ratio = contrast(getattr(theme, name), ground, vision)
                if ratio < TEXT:
                    found.append(f"{name} on {ground}, {vision}: {ratio:.2f}")
        if contrast(theme.badge_text, theme.badge, vision) < TEXT:
            found.append(f"badge text, {vision}")
    return found


def test_the_high_contrast_palette_passes_for_every_vision() -> None:
    assert failures(THEMES["contrast"]) == []


def test_the_standard_palette_would_not_pass_it() -> None:
    assert failures(THEMES["dark"])  # e.g. B8 (#2C4EFF) on the grey lane: under 3:1


@pytest.mark.parametrize("vision", VISIONS)
def test_the_high_contrast_seats_stay_apart(vision: str) -> None:
    least, first, second = closest_pair(SEAT_COLOURS["contrast"], vision)
    assert least >= LEAST_SEAT_DISTANCE, f"{first} and {second} look alike with {vision}: {least:.1f}"


def test_a_high_contrast_board_is_drawn_in_its_colours() -> None:
    position = Position.from_ppn(Rules.preset("bell"), "./B1+/./././A1+/./A1B1+/. A1:3,B1:3 A1:0,B1:0 A1 3")
    seen = {p[:3] for p in pixels(decode(render_board(position, theme="contrast")).convert("RGB"))}
    contrast_theme = THEMES["contrast"]
    assert {contrast_theme.background, SEAT_COLOURS["contrast"]["A1"], SEAT_COLOURS["contrast"]["B1"]} <= seen
