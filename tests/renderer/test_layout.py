"""Board shapes that survive Discord's preview: aspect ratio, text at least 9 px at 400 px wide, folded roads."""

from __future__ import annotations

import itertools

import pytest
from PIL import Image

from puluc import Position, Rules
from renderer import render_board
from renderer.fonts import load_font
from renderer.layout import BadWidth, aspect, choose_rows, layout_for, scaled
from renderer.theme import RGB, THEMES
from tests.helpers import played, rgb

PREVIEW = 400  # px: the width Discord shows an embedded board at
LEAST_TEXT = 9.0  # px at that width
DIGITS = "0123456789"


def digit_height(size: int) -> int:
    """Pixels from the top of the tallest digit to the bottom of the lowest, at font `size` (bold)."""
    box = load_font(size, bold=True).getbbox(DIGITS, anchor="ls")
    return int(box[3] - box[1])


SHAPES = [(team_size, road_length) for team_size in range(1, 9) for road_length in (9, 29)]


@pytest.mark.parametrize(("team_size", "road_length"), SHAPES)
def test_board_is_at_most_twice_as_wide_as_tall(team_size: int, road_length: int) -> None:
    rules = Rules.preset("ants", team_size=team_size, road_length=road_length)
    image = rgb(render_board(played(rules, team_size, 30)))
    assert image.width <= 2 * image.height
    layout = layout_for(road_length, team_size)
    assert (image.width, image.height) == (layout.width, layout.height)
    assert aspect(layout) <= 2.0


@pytest.mark.parametrize(("team_size", "road_length"), SHAPES)
@pytest.mark.parametrize("width", [None, 400, 1000])
def test_every_text_is_nine_pixels_tall_at_preview_width(team_size: int, road_length: int, width: int | None) -> None:
    layout = layout_for(road_length, team_size, width)
    # Cell numbers, seat digits (drawn at the text size on every piece), stack sizes and home counts all use
    # the layout's one text size: measure its digits as they come out of the font.
    assert scaled(digit_height(layout.text_size), layout, PREVIEW) >= LEAST_TEXT
    # The seat digit must fit the smallest piece that carries one: a top piece, and a home or header icon.
    assert layout.piece >= digit_height(layout.text_size) + layout.u(4)
    assert layout.home_a[3] - layout.home_a[1] - layout.u(5) >= digit_height(layout.text_size) + layout.u(3)
    # Two-digit cell numbers fit their cells.
    font = load_font(layout.text_size, bold=True)
    narrowest = min(layout.cell_width(cell) for cell in range(1, road_length + 1))
    assert font.getlength(str(road_length)) < narrowest


def ink_height(image: Image.Image, box: tuple[int, int, int, int], ink: RGB, ground: RGB) -> int:
    """Height of the pixels inside `box` at least half way from the `ground` colour to the `ink`: glyphs."""
    crop = image.crop(box).convert("L")
    lo = Image.new("RGB", (1, 1), ground).convert("L").getpixel((0, 0))
    hi = Image.new("RGB", (1, 1), ink).convert("L").getpixel((0, 0))
    assert isinstance(lo, int) and isinstance(hi, int)
    half = (lo + hi) / 2
    mask = crop.point(lambda v: 255 if (v - half) * (hi - lo) > 0 else 0)
    bbox = mask.getbbox()
    assert bbox is not None, "no cell number drawn"
    return bbox[3] - bbox[1]


@pytest.mark.parametrize(("team_size", "road_length"), [(1, 9), (2, 19), (8, 29), (8, 41)])
def test_cell_numbers_on_a_400_px_board_are_nine_pixels_tall(team_size: int, road_length: int) -> None:
    rules = Rules.preset("ants", team_size=team_size, road_length=road_length)
    image = rgb(render_board(Position.start(rules), width=PREVIEW))
    layout = layout_for(road_length, team_size, PREVIEW)
    theme = THEMES["dark"]
    for cell in (1, road_length // 2, road_length):
        assert ink_height(image, layout.median_box(cell), theme.muted, theme.median) >= LEAST_TEXT, cell


@pytest.mark.parametrize("road_length", range(5, 42, 2))
def test_long_roads_fold_into_rows_that_keep_cells_wide(road_length: int) -> None:
    layout = layout_for(road_length, 8)
    assert len(layout.rows) == choose_rows(road_length)
    assert sum(row.count for row in layout.rows) == road_length
    assert min(scaled(layout.cell_width(c), layout, PREVIEW) for c in range(1, road_length + 1)) >= 24
    assert aspect(layout) <= 2.0
    if road_length >= 17:
        assert len(layout.rows) >= 2


def test_rows_run_like_a_snake_so_each_step_goes_to_a_neighbouring_cell() -> None:
    layout = layout_for(29, 8)
    first, second = layout.rows
    assert (first.first, first.last, first.rightward) == (1, 15, True)
    assert (second.first, second.last, second.rightward) == (16, 29, False)
    for cell in range(1, 29):
        here, there = layout.cell_x(cell), layout.cell_x(cell + 1)
        if layout.row_of(cell) is layout.row_of(cell + 1):
            assert here[1] == there[0] if layout.row_of(cell).rightward else here[0] == there[1]
        else:
            # Across the bend: both cells sit at the same end of their rows.
            assert here[1] == there[1] == layout.road_right


def test_traffic_keeps_right_in_every_row() -> None:
    layout = layout_for(29, 8)
    # Up the road (toward cell 29): rightward in row 0, so the bottom lane; leftward in row 1, the top lane.
    assert layout.lane(3, True)[1] == layout.rows[0].bottom_lane[1]
    assert layout.lane(20, True)[1] == layout.rows[1].top_lane[1]
    assert layout.lane(3, False)[1] == layout.rows[0].top_lane[1]
    assert layout.lane(20, False)[1] == layout.rows[1].bottom_lane[1]


def test_b_home_gate_sits_at_the_end_of_the_road() -> None:
    one_row = layout_for(9, 1)
    assert one_row.gate_b[2] == one_row.home_b[2]  # right, under cell 9
    two_rows = layout_for(29, 8)
    assert two_rows.gate_b[0] == two_rows.home_b[0]  # left, under cell 29
    assert two_rows.gate_a[0] == two_rows.home_a[0]


@pytest.mark.parametrize("width", [399, 2401, 100, "800", True])
def test_widths_outside_400_to_2400_are_refused(width: object) -> None:
    with pytest.raises(BadWidth, match="400 to 2400"):
        layout_for(9, 1, width)


def test_the_layout_scales_with_the_width() -> None:
    small, large = layout_for(29, 8, 400), layout_for(29, 8, 1200)
    assert large.width == 3 * small.width
    assert abs(large.height - 3 * small.height) <= 12
    assert abs(aspect(large) - aspect(small)) < 0.02


@pytest.mark.parametrize("width", [400, 480, 800, 2400])
@pytest.mark.parametrize(("team_size", "road_length"), [(1, 9), (8, 29), (8, 41)])
def test_header_homes_and_road_never_overlap(width: int, team_size: int, road_length: int) -> None:
    layout = layout_for(road_length, team_size, width)
    bands = [layout.header, layout.home_a]
    for row in layout.rows:
        bands += [row.top_lane, row.median, row.bottom_lane]
    bands.append(layout.home_b)
    for upper, lower in itertools.pairwise(bands):
        assert upper[3] <= lower[1], (upper, lower)
    assert bands[-1][3] <= layout.height
    # Every home slot sits inside its home, beside the gate, never over it.
    for team in "AB":
        gate = layout.gate(team)
        for slot in layout.home_slots(team):
            assert layout.home(team)[0] <= slot[0] < slot[2] <= layout.home(team)[2]
            assert slot[2] <= gate[0] or slot[0] >= gate[2]
