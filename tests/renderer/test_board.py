"""The board image: pieces in their seat colours where `piece_centre` says, towers and their counts, the
header's words, marks and move badges."""

from __future__ import annotations

import pytest

from puluc import PRESETS, Position, Rules
from renderer import SEAT_COLOURS, BadOption, UnknownTheme, piece_centre, render_board
from renderer.layout import layout_for, up_road
from renderer.marks import label_centre
from renderer.panels import advantage_box, turn_line
from renderer.sample import random_game, tall_tower
from renderer.texts import DEFAULT_TEXTS, BadTexts, resolve
from renderer.theme import THEMES
from tests.helpers import pixels, played, rgb


def near_colour(image_pixels: list[tuple[int, ...]], colour: tuple[int, int, int], within: int = 6) -> bool:
    """Whether some pixel is `colour` give or take `within` per channel (the PNG palette may round it)."""
    return any(all(abs(a - b) <= within for a, b in zip(p, colour, strict=False)) for p in set(image_pixels))


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
    assert image.size == (layout.width, layout.height) == (800, layout.height)


def test_width_option_sets_the_image_width() -> None:
    position = Position.start(Rules.preset("bell"))
    assert rgb(render_board(position, width=1200)).width == 1200
    assert rgb(render_board(position, width=480)).width == 480


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_every_piece_of_a_tower_shows_its_seat_colour(tower: Position, theme: str) -> None:
    layout = layout_for(9, 1)
    assert assert_pieces_in_seat_colours(tower, theme) == layout.visible_under(6) + 1 + 1 + 1


@pytest.mark.parametrize(
    ("preset", "team_size", "seed"), [("bell", 1, 3), ("ants", 2, 5), ("fire", 4, 8), ("ants", 8, 2)]
)
def test_mid_game_pieces_show_their_seat_colours(preset: str, team_size: int, seed: int) -> None:
    position = played(Rules.preset(preset, team_size=team_size), seed, 40)
    assert position.stacks()
    assert assert_pieces_in_seat_colours(position, "dark") >= len(position.stacks())


@pytest.mark.parametrize(("height", "team_size"), [(20, 8), (40, 8), (16, 2), (12, 2), (7, 1)])
def test_a_tall_tower_stays_inside_its_lane_with_its_count(height: int, team_size: int) -> None:
    position = tall_tower(height, team_size=team_size)
    [(cell, stack)] = position.stacks()
    assert len(stack.pieces) == height
    layout = layout_for(position.road_length, team_size)
    up = up_road(stack.team, stack.direction)
    tower = layout.tower(cell, up, height)
    _, y0, _, y1 = layout.lane(cell, up)
    assert tower.label is not None
    for top in [*tower.slices, (tower.label[0], tower.label[1])]:
        assert y0 <= top[1] and top[1] + layout.slice_height <= y1
    assert y0 <= tower.label[1] and tower.label[3] <= y1
    image = rgb(render_board(position))
    # The label is drawn: text-coloured digits inside the lane.
    assert THEMES["dark"].text in set(pixels(image.crop(tower.label)))
    # and it is the count: another height draws another label.
    other = tall_tower(height - 1, team_size=team_size)
    assert image.crop(tower.label).tobytes() != rgb(render_board(other)).crop(tower.label).tobytes()
    if layout.visible_under(height) < height - 1:
        with pytest.raises(ValueError, match="label"):
            piece_centre(position, cell, height - 1)
    assert assert_pieces_in_seat_colours(position, "dark") == layout.visible_under(height) + 1


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_empty_cells_hold_no_seat_colour(tower: Position, theme: str) -> None:
    image = rgb(render_board(tower, theme=theme, last_move=False))
    layout = layout_for(9, 1)
    occupied = {cell for cell, _ in tower.stacks()}
    for cell in range(1, 10):
        if cell in occupied:
            continue
        x0, y0, x1, y1 = layout.cell_box(cell)
        inside = pixels(image.crop((x0 + 3, y0 + 3, x1 - 3, y1 - 3)))
        assert not seat_colours_in(inside, theme), cell


def test_a_stack_uses_the_lane_of_its_travel(tower: Position) -> None:
    layout = layout_for(9, 1)
    row = layout.rows[0]
    _, y = piece_centre(tower, 4, 0)  # B1 coming home: up the road, moving right, the bottom lane
    assert row.bottom_lane[1] < y < row.bottom_lane[3]
    _, y = piece_centre(tower, 7, 0)  # B1 going out travels left: top lane
    assert row.top_lane[1] < y < row.top_lane[3]


def test_on_the_second_row_lanes_swap_with_the_screen_direction() -> None:
    rules = Rules.preset("ants", team_size=8)
    board = ["."] * 29
    board[19] = "A1+"  # cell 20, up the road: leftward on row 1, so the top lane
    homes = ",".join(f"{s}:{4 if s == 'A1' else 5}" for s in rules.seats)
    kills = ",".join(f"{s}:0" for s in rules.seats)
    position = Position.from_ppn(rules, "/".join(board) + f" {homes} {kills} B1 -")
    layout = layout_for(29, 8)
    _, y = piece_centre(position, 20)
    assert layout.rows[1].top_lane[1] < y < layout.rows[1].top_lane[3]


@pytest.mark.parametrize("fire", [True, False])
def test_fire_is_drawn_exactly_when_the_rules_have_fire(fire: bool) -> None:
    rules = Rules.preset("ants", team_size=2, fire=fire)
    image = rgb(render_board(Position.start(rules)))
    fire_colour = THEMES["dark"].fire
    every = pixels(image)
    if fire:
        layout = layout_for(rules.road_length, 2)
        assert rules.fire_cell is not None
        column = pixels(image.crop(layout.cell_box(rules.fire_cell)))
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
                layout = layout_for(rules.road_length, team_size)
                assert image.size == (layout.width, layout.height)


def test_a_capture_frames_the_destination_and_marks_it_away_from_the_pieces() -> None:
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
    # The round mark sits in the free lane: none of the stack's pieces are where it is drawn.
    stack = after.stack_at(5)
    assert stack is not None
    free = layout.lane(5, not up_road(stack.team, stack.direction))
    assert capture in set(pixels(marked.crop(free)))
    assert_pieces_in_seat_colours(after, "dark")


def test_labels_are_outlined_badges_where_the_move_lands(tower: Position) -> None:
    thrown = tower.throw([2])
    labels: dict[int | str, str] = {2: "1", "home-A": "2"}
    image = rgb(render_board(thrown, labels=labels, last_move=False))
    plain = rgb(render_board(thrown, last_move=False))
    theme = THEMES["dark"]
    layout = layout_for(9, 1)
    for key in labels:
        cx, cy = label_centre(layout, thrown, key)
        box = (cx - layout.piece // 2, cy - layout.piece // 2, cx + layout.piece // 2, cy + layout.piece // 2)
        assert theme.text in set(pixels(image.crop(box))), key
        # Never filled with a seat colour: a badge cannot be taken for a piece.
        inside = (cx - layout.piece // 4, cy - layout.piece // 4, cx + layout.piece // 4, cy + layout.piece // 4)
        assert not set(pixels(image.crop(inside))) & set(SEAT_COLOURS["dark"].values()), key
        assert image.crop(box).tobytes() != plain.crop(box).tobytes()


def test_a_move_that_burns_its_stack_gets_a_fire_badge() -> None:
    rules = Rules.preset("ants", fire=True)
    position = Position.from_ppn(rules, "./././A1+/././././. A1:4,B1:5 A1:0,B1:0 A1 1")
    layout = layout_for(9, 1)
    assert rules.fire_cell == 5
    image = rgb(render_board(position, labels={5: "1"}, last_move=False))
    cx, cy = label_centre(layout, position, 5)
    near = pixels(image.crop((cx - layout.piece, cy - layout.piece, cx + layout.piece, cy + layout.piece)))
    assert near_colour(near, THEMES["dark"].fire_glow)
    plain = pixels(rgb(render_board(position, labels={5: "1"}, last_move=False)).crop(layout.cell_box(3)))
    assert not near_colour(plain, THEMES["dark"].fire_glow)


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
    for share in [i / 1000 for i in range(0, 40, 3)] + [1 - i / 1000 for i in range(0, 40, 3)]:
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


# -- the header's words --------------------------------------------------------------------------------


def test_header_says_whose_turn_with_seat_team_and_name() -> None:
    position = Position.start(Rules.preset("ants", team_size=2)).throw([3, 2])
    texts = resolve(None)
    assert turn_line(position, {}, texts) == "A1 to move"
    assert turn_line(position, {"A1": "Alice"}, texts) == "A1 Alice to move"
    fresh = Position.start(Rules.preset("ants", team_size=2), first="B")
    assert turn_line(fresh, {"B1": "Bohdan"}, texts) == "B1 Bohdan to throw"


@pytest.mark.parametrize("seed", [5, 6])
def test_a_finished_board_names_the_winner_and_the_final_score(seed: int) -> None:
    record = random_game(Rules.preset("bell"), seed)
    final = record.replay()
    outcome = final.outcome()
    assert outcome is not None and outcome.winner is not None
    winner, loser = outcome.winner, "B" if outcome.winner == "A" else "A"
    score = f"{outcome.scores[winner]}–{outcome.scores[loser]}"
    assert turn_line(final, {}, resolve(None)) == f"Team {winner} wins {score}"
    ukrainian = resolve({"wins": "Перемога команди {team}: {score}"})
    assert turn_line(final, {}, ukrainian) == f"Перемога команди {winner}: {score}"
    # Drawn on the board: the header's first line in the result's colour, beside the winner's team shape.
    theme = THEMES["dark"]
    line = pixels(rgb(render_board(final)).crop(layout_for(9, 1).lines[0]))
    assert near_colour(line, theme.last_move)
    assert near_colour(line, theme.team_a if winner == "A" else theme.team_b)
    before = list(record.positions())[-2]
    running = pixels(rgb(render_board(before)).crop(layout_for(9, 1).lines[0]))
    assert not near_colour(running, theme.last_move)


def test_texts_replace_every_default_word() -> None:
    position = Position.start(Rules.preset("bell")).throw([2])
    english = rgb(render_board(position, advantage=0.7))
    ukrainian = rgb(render_board(position, advantage=0.7, texts={"to_move": "{seat} ходить", "score": "Рахунок"}))
    assert english.tobytes() != ukrainian.tobytes()


@pytest.mark.parametrize(
    ("texts", "match"),
    [({"nonsense": "x"}, "unknown"), ({"to_move": "{player} moves"}, "player"), ({"to_move": 3}, "string"),
     ({"to_move": "{seat"}, "format")],
)
def test_bad_texts_are_refused(tower: Position, texts: dict[str, object], match: str) -> None:
    with pytest.raises(BadTexts, match=match):
        render_board(tower, texts=texts)  # type: ignore[arg-type]


def test_every_default_text_fills_with_its_placeholders() -> None:
    values = {"seat": "A1", "name": "Alice", "team": "A", "percent": 58, "score": "3–1", "number": 4,
              "action": "x", "cell": 3, "source": 2, "dest": 5, "count": 2}
    for key, text in DEFAULT_TEXTS.items():
        assert text.format(**values), key


def test_names_must_be_seats_of_the_game(tower: Position) -> None:
    with pytest.raises(BadOption, match="A2"):
        render_board(tower, names={"A2": "Nobody"})
    render_board(tower, names={"A1": "Олена Ґудзь", "B1": "Éloïse Œuvray"})
