"""Pieces: team told by shape, seats by colour (distinct in both themes), captives marked apart from compatriots."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from renderer import SEAT_COLOURS, FontNotFound, use_font
from renderer.fonts import find_font, load_font
from renderer.pieces import head, icon, slice_
from renderer.theme import seat_colour
from tests.helpers import pixels


def alpha(image: Image.Image, x: int, y: int) -> int:
    pixel = image.getpixel((x, y))
    assert isinstance(pixel, tuple)
    return pixel[3]


def test_sixteen_distinct_seat_colours_in_each_theme() -> None:
    for table in SEAT_COLOURS.values():
        assert sorted(table) == sorted(f"{t}{n}" for t in "AB" for n in range(1, 9))
        assert len(set(table.values())) == 16


def test_teams_have_different_piece_shapes() -> None:
    # Near the corner a disc (team A) is empty while a rounded square (team B) is filled.
    for seat_a, seat_b in (("A1", "B1"), ("A5", "B5")):
        a = icon(seat_a, 40, "dark", 0)
        b = icon(seat_b, 40, "dark", 0)
        assert alpha(a, 4, 4) == 0
        assert alpha(b, 4, 4) == 255
        assert a.getpixel((20, 30)) == (*seat_colour(seat_a), 255)
        assert b.getpixel((20, 30)) == (*seat_colour(seat_b), 255)


def test_top_piece_points_the_way_it_travels() -> None:
    right = head("A1", True, 40, 8, "dark", 0)
    left = head("A1", False, 40, 8, "dark", 0)
    assert right.width == left.width == 48
    # Beyond the body, on the travel side, only the pointer: opaque at mid-height, clear above it.
    assert alpha(right, 46, 20) > 0 and alpha(right, 46, 6) == 0
    assert alpha(left, 1, 20) > 0 and alpha(left, 1, 6) == 0
    # The body sits on the other side.
    assert alpha(right, 4, 20) == 255 and alpha(left, 43, 20) == 255


def test_captive_slices_are_marked_apart_from_compatriots() -> None:
    captive = slice_("A2", True, 50, 16, "dark")
    freed = slice_("A2", False, 50, 16, "dark")
    assert captive.tobytes() != freed.tobytes()
    # A captive is crossed by dark stripes; a compatriot is plain.
    dark = (17, 18, 20, 255)
    assert dark in set(pixels(captive)) and dark not in set(pixels(freed))


def test_the_font_draws_ukrainian_italian_and_french_letters() -> None:
    font = load_font(40, bold=True)
    missing = bytes(font.getmask("\ue000"))  # a private-use character: the font's "no glyph" box
    for letter in "АБВГҐДЕЄЖЗИІЇЙКЛМНОПРСТУФХЦЧШЩЬЮЯабвгґдеєжзиіїйьюяàèéìíîòóùúÀÈÉÙçÇœŒâêëïôûüÿæ’–…→":
        assert bytes(font.getmask(letter)) != missing, letter


def test_seat_digits_are_drawn_at_the_size_asked() -> None:
    small = head("A3", True, 40, 8, "dark", 10)
    large = head("A3", True, 40, 8, "dark", 20)
    # Inside the body, away from its rim, only the digit differs from the seat colour.
    fill = (*seat_colour("A3"), 255)
    ink = [sum(1 for p in pixels(sprite.crop((9, 7, 31, 33))) if p != fill) for sprite in (small, large)]
    assert ink[1] > 2 * ink[0] > 0
    assert icon("B2", 30, "dark", 13).tobytes() != icon("B2", 30, "dark", 0).tobytes()


def test_fonts_fall_back_to_a_usable_font() -> None:
    font = load_font(14, "/nonexistent/font.ttf")
    assert font.getbbox("Ёé1")[2] > 0


def test_a_missing_configured_font_is_refused() -> None:
    with pytest.raises(FontNotFound):
        use_font("/nonexistent/font.ttf")


def test_configured_font_is_used_and_can_be_reset() -> None:
    default = find_font()
    assert default is not None  # fonts-dejavu-core is installed in the image (Dockerfile)
    other = str(Path(default).with_name("DejaVuSansMono.ttf"))
    if not Path(other).is_file():
        pytest.skip("DejaVu Sans Mono is not installed here")
    try:
        use_font(other)
        assert getattr(load_font(20), "path", None) == other
    finally:
        use_font(None)
    assert getattr(load_font(20), "path", None) == default
