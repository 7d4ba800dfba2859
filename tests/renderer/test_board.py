"""The board image: sizes, pieces in their seat colours where `piece_centre` says, empty cells, fire, marks."""

from __future__ import annotations

import pytest

from puluc import PRESETS, Position, Rules
from renderer import SEAT_COLOURS, BadOption, UnknownTheme, piece_centre, render_board
from renderer.board import label_centre
from renderer.layout import BadWidth, layout_for, travels_right
from renderer.panels import advantage_box
from renderer.theme import THEMES
from tests.helpers import pixels, played, rgb


def seat_colours_in(image_pixels: list[tuple[int, ...]], theme: str) -> set[tuple[int, ...]]:
    return set(image_pixels) & set(SEAT_COLOURS[theme].values())


def assert_pieces_in_seat_colours(position: Position, theme: str, width: int | None = None) -> int:
    image = rgb(render_board(position, theme=theme, width=width))
    layout = layout_for(position.road_length, position.rules.team_size, width)
    checked = 0
    for cell, stack in position.stacks():
        for depth in range(layout.visible_under(len(stack.pieces)) + 1):
            point = piece_centre(position, cell, depth, width=width)
            assert image.getpixel(point) == SEAT_COLOURS[theme][stack.pieces[depth]], (cell, depth, stack)
            checked += 1
    return checked


def test_start_board_is_a_png_of_the_layout_size() -> None:
    position = Position.start(Rules.preset("bell"))
    image = rgb(render_board(position))
    layout = layout_for(9, 1)
    assert image.size == (layout.width, layout.height)
    assert 1000 <= image.width <= 1400


def test_width_option_sets_the_image_width() -> None:
    position = Position.start(Rules.preset("bell"))
    assert rgb(render_board(position, width=1200)).width == 1200
    with pytest.raises(BadWidth):
        render_board(position, width=100)


def test_long_road_keeps_cells_wide_enough_to_read() -> None:
    layout = layout_for(29, 8)
    assert layout.width <= 1400
    assert layout.cell_left(2) - layout.cell_left(1) >= 34
    assert layout.number_size >= 13


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_every_piece_of_a_tower_shows_its_seat_colour(tower: Position, theme: str) -> None:
    assert assert_pieces_in_seat_colours(tower, theme) == 6 + 1 + 1


@pytest.mark.parametrize(
    ("preset", "team_size", "seed"), [("bell", 1, 3), ("ants", 2, 5), ("fire", 4, 8), ("ants", 8, 2)]
)
def test_mid_game_pieces_show_their_seat_colours(preset: str, team_size: int, seed: int) -> None:
    position = played(Rules.preset(preset, team_size=team_size), seed, 40)
    assert position.stacks()
    assert assert_pieces_in_seat_colours(position, "dark") >= len(position.stacks())


def test_a_very_tall_tower_is_squeezed_and_still_shows_every_seat() -> None:
    rules = Rules.preset("ants", team_size=2)
    # Twelve pieces on cell 10, owned by B2 and travelling home (right, bottom lane).
    board = ["."] * 19
    board[9] = "B2A1A1A2A2B1B1A1A2A1A2B2-"
    position = Position.from_ppn(rules, "/".join(board) + " A1:1,B1:3,A2:1,B2:3 A1:0,B1:0,A2:0,B2:0 A1 -")
    layout = layout_for(19, 2)
    assert layout.tower_step(12) < layout.step
    assert assert_pieces_in_seat_colours(position, "dark") == 12


def test_a_tower_taller_than_the_lane_sums_up_the_rest() -> None:
    rules = Rules.preset("ants", team_size=8)
    layout = layout_for(29, 8)
    seats = [f"{team}{n}" for n in range(1, 9) for team in "AB"] * 4  # 64 pieces under one top
    board = ["."] * 29
    board[3] = "A1" + "".join(seats) + "+"
    homes = ",".join(f"{s}:{0 if s == 'A1' else 1}" for s in rules.seats)
    kills = ",".join(f"{s}:0" for s in rules.seats)
    position = Position.from_ppn(rules, "/".join(board) + f" {homes} {kills} B1 -")
    stack = position.stack_at(4)
    assert stack is not None
    height = len(stack.pieces)
    assert layout.visible_under(height) < height - 1
    with pytest.raises(ValueError, match=r"\+n"):
        piece_centre(position, 4, height - 1)
    assert assert_pieces_in_seat_colours(position, "dark") == layout.visible_under(height) + 1


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_empty_cells_hold_no_seat_colour(tower: Position, theme: str) -> None:
    image = rgb(render_board(tower, theme=theme))
    layout = layout_for(9, 1)
    occupied = {cell for cell, _ in tower.stacks()}
    for cell in range(1, 10):
        if cell in occupied:
            continue
        x0, _, x1, _ = layout.cell_box(cell)
        for lane in (layout.top_lane, layout.bottom_lane):
            inside = pixels(image.crop((x0 + 3, lane[1] + 3, x1 - 3, lane[3] - 3)))
            assert not seat_colours_in(inside, theme), cell


def test_a_stack_uses_the_lane_of_its_travel(tower: Position) -> None:
    layout = layout_for(9, 1)
    stack = tower.stack_at(4)
    assert stack is not None and travels_right(stack.team, stack.direction)
    _, y = piece_centre(tower, 4, 0)
    assert layout.bottom_lane[1] < y < layout.bottom_lane[3]
    _, y = piece_centre(tower, 7, 0)  # B1 going out travels left: top lane
    assert layout.top_lane[1] < y < layout.top_lane[3]


@pytest.mark.parametrize("fire", [True, False])
def test_fire_is_drawn_exactly_when_the_rules_have_fire(fire: bool) -> None:
    rules = Rules.preset("ants", team_size=2, fire=fire)
    image = rgb(render_board(Position.start(rules)))
    fire_colour = THEMES["dark"].fire
    every = pixels(image)
    if fire:
        layout = layout_for(rules.road_length, 2)
        assert rules.fire_cell is not None
        x0, y0, x1, y1 = layout.cell_box(rules.fire_cell)
        column = pixels(image.crop((x0, y0, x1, y1)))
        assert column.count(fire_colour) > len(column) // 3
        assert every.count(fire_colour) == column.count(fire_colour)
    else:
        assert fire_colour not in every


def test_every_preset_and_team_size_renders() -> None:
    for preset in PRESETS:
        for team_size in range(1, 9):
            rules = Rules.preset(preset, team_size=team_size)
            for position in (Position.start(rules), played(rules, team_size, 25)):
                image = rgb(render_board(position, advantage=0.5))
                assert image.size == (
                    layout_for(rules.road_length, team_size).width,
                    layout_for(rules.road_length, team_size).height,
                )


def test_a_capture_marks_the_destination_in_the_capture_colour() -> None:
    rules = Rules.preset("bell")
    before = Position.from_ppn(rules, "./A1+/././B1+/./././. A1:4,B1:4 A1:0,B1:0 A1 3")
    after = before.play(before.legal_moves()[[str(m) for m in before.legal_moves()].index("3:2")])
    assert after.last_move is not None and after.last_move.captures
    layout = layout_for(9, 1)
    x0, y0, _x1, y1 = layout.cell_box(5)
    capture = THEMES["dark"].capture
    marked = rgb(render_board(after))
    assert marked.getpixel((x0 + 2, (y0 + y1) // 2)) == capture
    unmarked = rgb(render_board(after, last_move=False))
    assert unmarked.getpixel((x0 + 2, (y0 + y1) // 2)) != capture


def test_labels_are_badges_where_the_move_lands(tower: Position) -> None:
    thrown = tower.throw([2])
    labels: dict[int | str, str] = {4: "1", "home-A": "2"}
    image = rgb(render_board(thrown, labels=labels))
    badge = THEMES["dark"].badge
    layout = layout_for(9, 1)
    for key in labels:
        cx, cy = label_centre(layout, thrown, key)
        near = pixels(image.crop((cx - 12, cy - 12, cx + 12, cy + 12)))
        assert badge in near, key
    assert badge not in pixels(rgb(render_board(thrown)))


@pytest.mark.parametrize("labels", [{0: "1"}, {10: "1"}, {"home-C": "1"}, {3: ""}, {3: "toolong"}, {True: "1"}])
def test_bad_labels_are_refused(tower: Position, labels: dict[int | str, str]) -> None:
    with pytest.raises(BadOption):
        render_board(tower, labels=labels)


@pytest.mark.parametrize(
    ("advantage", "left", "right"), [(1.0, "team_a", "team_a"), (0.0, "team_b", "team_b"), (0.5, "team_a", "team_b")]
)
def test_advantage_bar_fills_team_a_share_from_the_left(
    tower: Position, advantage: float, left: str, right: str
) -> None:
    image = rgb(render_board(tower, advantage=advantage))
    x0, y0, x1, y1 = advantage_box(layout_for(9, 1))
    theme = THEMES["dark"]
    cy = (y0 + y1) // 2
    assert image.getpixel((x0 + (x1 - x0) // 4, cy)) == getattr(theme, left)
    assert image.getpixel((x1 - (x1 - x0) // 4, cy)) == getattr(theme, right)


def test_advantage_bar_draws_every_share_near_the_ends(tower: Position) -> None:
    # Shares within a bar's corner radius of either end once made Pillow refuse a rectangle drawn backwards.
    x0, y0, x1, y1 = advantage_box(layout_for(9, 1))
    theme = THEMES["dark"]
    for share in [i / 1000 for i in range(0, 40)] + [1 - i / 1000 for i in range(0, 40)]:
        image = rgb(render_board(tower, advantage=share))
        split = x0 + round((x1 - x0) * share)
        cy = (y0 + y1) // 2
        if split - x0 > (y1 - y0):  # A's share is wider than its rounded end: its colour shows left of the split
            assert image.getpixel((split - 2, cy)) == theme.team_a
        if x1 - split > (y1 - y0):
            assert image.getpixel((split + 2, cy)) == theme.team_b


@pytest.mark.parametrize("advantage", [-0.1, 1.5, float("nan"), "0.5", True])
def test_advantage_outside_zero_to_one_is_refused(tower: Position, advantage: object) -> None:
    with pytest.raises(BadOption):
        render_board(tower, advantage=advantage)  # type: ignore[arg-type]


def test_unknown_theme_is_refused(tower: Position) -> None:
    with pytest.raises(UnknownTheme, match="dark, light"):
        render_board(tower, theme="sepia")


def test_piece_centre_refuses_empty_cells_and_missing_depths(tower: Position) -> None:
    with pytest.raises(ValueError, match="empty"):
        piece_centre(tower, 1)
    with pytest.raises(ValueError, match="depth"):
        piece_centre(tower, 2, 1)


def test_board_png_stays_small() -> None:
    position = played(Rules.preset("ants", team_size=8), 4, 120)
    assert len(render_board(position, advantage=0.3)) <= 120 * 1024


@pytest.mark.parametrize("team_size", [1, 8])
def test_every_road_length_fits_the_default_width(team_size: int) -> None:
    for road_length in range(5, 42, 2):
        position = played(Rules.preset("ants", team_size=team_size, road_length=road_length), road_length, 10)
        image = rgb(render_board(position))
        assert 1000 <= image.width <= 1400
        assert_pieces_in_seat_colours(position, "dark")


def test_too_narrow_a_width_says_the_least_that_fits() -> None:
    position = Position.start(Rules.preset("ants", road_length=41))
    with pytest.raises(BadWidth, match=r"at least (\d+) px") as caught:
        render_board(position, width=700)
    least = int(str(caught.value).split()[-2])
    assert rgb(render_board(position, width=least)).width == least
