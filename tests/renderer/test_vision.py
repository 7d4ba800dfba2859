"""Seat colours stay apart for normal vision and under the three dichromacy simulations; captives carry a
second cue besides colour."""

from __future__ import annotations

from itertools import combinations

import pytest

from renderer import SEAT_COLOURS
from renderer.pieces import slice_
from renderer.theme import THEMES
from renderer.vision import VISIONS, ciede2000, closest_pair, distance, lab, simulate
from tests.helpers import pixels

#: The least CIEDE2000 distance between any two of the sixteen seats, for every vision and theme.
LEAST_SEAT_DISTANCE = 10.0
#: ...and between a seat and the lane it stands on.
LEAST_LANE_DISTANCE = 10.0


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [  # Sharma, Wu and Dalal (2005), Table 1, pairs 1, 7, 17 and 21
        ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
        ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
        ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
        ((50.0, 2.5, 0.0), (50.0, 3.1736, 0.5854), 1.0),
    ],
)
def test_ciede2000_matches_the_published_test_data(
    first: tuple[float, float, float], second: tuple[float, float, float], expected: float
) -> None:
    assert ciede2000(first, second) == pytest.approx(expected, abs=1e-4)


def test_the_simulations_merge_what_each_deficiency_cannot_tell_apart() -> None:
    red, green, blue, yellow = (220, 40, 40), (40, 160, 40), (40, 80, 220), (230, 220, 60)
    assert distance(red, green, "normal") > 3 * distance(red, green, "deuteranopia") / 2
    assert distance(red, green, "normal") > 3 * distance(red, green, "protanopia") / 2
    # Tritanopes lose blue-yellow, not red-green.
    assert distance(red, green, "tritanopia") > distance(red, green, "deuteranopia")
    assert distance(blue, yellow, "tritanopia") < distance(blue, yellow, "normal")
    assert simulate((255, 255, 255), "deuteranopia") == (255, 255, 255)
    assert simulate((0, 0, 0), "tritanopia") == (0, 0, 0)
    with pytest.raises(ValueError, match="vision"):
        simulate(red, "monochromacy")


@pytest.mark.parametrize("theme", ["dark", "light"])
@pytest.mark.parametrize("vision", VISIONS)
def test_all_sixteen_seats_stay_apart(theme: str, vision: str) -> None:
    table = SEAT_COLOURS[theme]
    assert len(table) == 16
    least, first, second = closest_pair(table, vision)
    assert least >= LEAST_SEAT_DISTANCE, f"{first} and {second} look alike with {vision}: {least:.1f}"


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_seats_stand_out_from_their_lanes(theme: str) -> None:
    t = THEMES[theme]
    for vision in VISIONS:
        for seat, colour in SEAT_COLOURS[theme].items():
            for lane in (t.cell, t.cell_alt):
                assert distance(colour, lane, vision) >= LEAST_LANE_DISTANCE, (seat, vision)


def test_the_old_palette_would_fail_the_simulation_check() -> None:
    # The palette before issue 14 (Okabe-Ito and Tol): A2, A5, B2 and B5 merged under deuteranopia.
    old = {"A2": (0xCC, 0x79, 0xA7), "B5": (0x44, 0xAA, 0x99), "A5": (0xEE, 0x66, 0x77), "B2": (0x00, 0x9E, 0x73)}
    assert min(distance(a, b, "deuteranopia") for a, b in combinations(old.values(), 2)) < LEAST_SEAT_DISTANCE


def test_captives_are_striped_and_freed_pieces_plain_whatever_the_colour() -> None:
    ink = THEMES["dark"].ink
    for seat in SEAT_COLOURS["dark"]:
        captive = slice_(seat, True, 40, 12, "dark")
        freed = slice_(seat, False, 40, 12, "dark")
        # Bold stripes of ink across the captive (team B's rims are ink too, on both).
        inked = [sum(1 for p in pixels(s) if p[3] == 255 and p[:3] == ink) for s in (captive, freed)]
        assert inked[0] - inked[1] > 40, seat
        # The cue survives without colour: in grey, the captive is much darker on average.
        assert sum(lab((p[0], p[1], p[2]))[0] for p in pixels(captive) if p[3]) < 0.85 * sum(
            lab((p[0], p[1], p[2]))[0] for p in pixels(freed) if p[3]
        )
