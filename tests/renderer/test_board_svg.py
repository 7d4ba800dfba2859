"""The board as SVG: one layout with the PNG, well-formed, with a title and a description for screen readers,
and `data-` attributes naming cells, lanes, stacks, pieces, homes, entries, move badges and the last move."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from puluc import Move, Position, Rules
from renderer import BadOption, Ended, board_scene, label_target, piece_centre, render_board_svg
from renderer.layout import layout_for
from renderer.panels import turn_line
from renderer.sample import random_game, readme_position, tall_tower
from renderer.scene import Group, groups
from renderer.texts import DEFAULT_TEXTS

NS = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def named(root: ET.Element, attribute: str) -> list[ET.Element]:
    return [element for element in root.iter() if f"data-{attribute}" in element.attrib]


def badges(position: Position) -> dict[int | str, str]:
    """Every legal move's button number at its badge's place, as the bot numbers them."""
    found: dict[int | str, list[str]] = {}
    for number, move in enumerate(position.legal_moves(), start=1):
        found.setdefault(label_target(position.rules, position.move_effect(move)), []).append(str(number))
    return {key: ",".join(v) if len(",".join(v)) <= 3 else f"{v[0]}+" for key, v in found.items()}


def thrown(preset: str, team_size: int, seed: int, moves: int) -> Position:
    """A position after about `moves` moves of a seeded game whose player has thrown and has moves to choose."""
    record = random_game(Rules.preset(preset, team_size=team_size), seed, max_moves=moves + 60)
    for position in list(record.positions())[moves:]:
        if not position.must_throw and not position.is_over and position.legal_moves():
            return position
    raise AssertionError("no position with moves to choose")


@pytest.mark.parametrize(("preset", "team_size", "width"), [("bell", 1, None), ("fire", 2, 550), ("ants", 8, 400)])
def test_svg_has_the_pngs_size_a_title_and_a_description(preset: str, team_size: int, width: int | None) -> None:
    position = thrown(preset, team_size, 4, 30)
    root = parse(render_board_svg(position, width=width, advantage=0.7))
    layout = layout_for(position.road_length, team_size, width)
    assert root.tag == f"{NS}svg"
    assert root.attrib["viewBox"] == f"0 0 {layout.width} {layout.height}"
    title, desc = root.find(f"{NS}title"), root.find(f"{NS}desc")
    assert title is not None and desc is not None
    assert title.text == turn_line(position, {}, DEFAULT_TEXTS)
    assert desc.text is not None and "Score: A" in desc.text and "A 70%" in desc.text
    assert set(root.attrib["aria-labelledby"].split()) == {title.attrib["id"], desc.attrib["id"]}


def test_the_description_given_is_the_one_read() -> None:
    position = Position.start(Rules.preset("bell"))
    root = parse(render_board_svg(position, description="Empty road; A1 throws first."))
    desc = root.find(f"{NS}desc")
    assert desc is not None and desc.text == "Empty road; A1 throws first."


@pytest.mark.parametrize(("preset", "team_size"), [("bell", 1), ("fire", 4), ("culin", 8)])
def test_every_cell_is_named_once_with_its_two_lanes(preset: str, team_size: int) -> None:
    position = Position.start(Rules.preset(preset, team_size=team_size))
    root = parse(render_board_svg(position))
    cells = named(root, "cell")
    assert sorted(int(c.attrib["data-cell"]) for c in cells) == list(range(1, position.road_length + 1))
    for cell in cells:
        assert sorted(lane.attrib["data-lane"] for lane in named(cell, "lane")) == ["down", "up"]
    burning = [c.attrib["data-cell"] for c in cells if c.attrib.get("data-burning") == "true"]
    assert burning == ([str(position.rules.fire_cell)] if position.rules.fire else [])


def test_stacks_name_their_pieces_top_first() -> None:
    position = thrown("ants", 2, 7, 60)
    assert position.stacks()
    root = parse(render_board_svg(position))
    stacks = {int(s.attrib["data-stack"]): s for s in named(root, "stack")}
    assert set(stacks) == {cell for cell, _ in position.stacks()}
    for cell, stack in position.stacks():
        element = stacks[cell]
        assert element.attrib["data-seats"] == " ".join(stack.pieces)
        assert element.attrib["data-owner"] == stack.owner
        assert element.attrib["data-height"] == str(len(stack.pieces))
        pieces = {int(p.attrib["data-depth"]): p.attrib["data-piece"] for p in named(element, "piece")}
        assert pieces[0] == stack.owner
        for depth, seat in pieces.items():
            assert seat == stack.pieces[depth]


def test_a_tall_towers_hidden_pieces_are_still_named_in_its_seats() -> None:
    position = tall_tower(20, team_size=8)
    [(cell, stack)] = position.stacks()
    root = parse(render_board_svg(position))
    [element] = named(root, "stack")
    assert element.attrib["data-stack"] == str(cell)
    assert element.attrib["data-seats"].split() == list(stack.pieces)
    assert len(named(element, "piece")) < 20  # the label counts the rest


@pytest.mark.parametrize(("preset", "team_size", "seed"), [("bell", 1, 3), ("fire", 2, 5), ("village", 8, 2)])
def test_move_badges_carry_the_moves_notation(preset: str, team_size: int, seed: int) -> None:
    position = thrown(preset, team_size, seed, 25)
    labels = badges(position)
    root = parse(render_board_svg(position, labels=labels))
    found = {b.attrib["data-target"]: b for b in named(root, "move")}
    assert set(found) == {str(key) for key in labels}
    notations: list[str] = []
    for key, label in labels.items():
        badge = found[str(key)]
        assert badge.attrib["data-label"] == label
        moves = badge.attrib["data-move"].split()
        assert all(label_target(position.rules, position.move_effect(Move.parse(m))) == key
                   for m in moves)
        notations += moves
    assert sorted(notations) == sorted(str(move) for move in position.legal_moves())


def test_homes_seats_and_entries_are_named() -> None:
    position = thrown("fire", 2, 9, 20)
    root = parse(render_board_svg(position))
    homes = {h.attrib["data-home"]: h for h in named(root, "home")}
    assert set(homes) == {"A", "B"}
    for team, home in homes.items():
        seats = {s.attrib["data-seat"]: s for s in named(home, "seat")}
        assert sorted(seats) == [f"{team}{i}" for i in (1, 2)]
        for seat, element in seats.items():
            assert element.attrib["data-waiting"] == str(position.home(seat))
    assert sorted(e.attrib["data-entry"] for e in named(root, "entry")) == ["A", "B"]
    [mover] = [s for s in named(root, "seat") if s.attrib.get("data-to-move") == "true"]
    assert mover.attrib["data-seat"] == position.to_move


def test_the_last_move_and_the_bar_are_named() -> None:
    position, effect, throw = readme_position()
    root = parse(render_board_svg(position, last_move=effect, throw=throw, advantage=0.25))
    [last] = named(root, "last-move")
    assert last.attrib["data-last-move"] == str(effect.move)
    [bar] = named(root, "advantage")
    assert bar.attrib["data-leader"] == "B" and bar.attrib["data-percent"] == "75"
    [thrown_sticks] = named(root, "throw")
    assert thrown_sticks.attrib["data-throw"] == str(throw.value)


def test_member_names_are_escaped() -> None:
    position = thrown("bell", 1, 3, 10)
    evil = '<script>alert("x")</script> & "quotes"'
    svg = render_board_svg(position, names={position.to_move: evil}, description=evil)
    assert "<script" not in svg
    root = parse(svg)
    texts = " ".join(t.text or "" for t in root.iter(f"{NS}text"))
    assert "<script>" in texts  # drawn as the text it is (cut short to fit the header)
    desc = root.find(f"{NS}desc")
    assert desc is not None and desc.text == evil


def test_the_svg_draws_each_piece_where_the_png_does() -> None:
    """One layout: the top piece's vector body covers the pixel where the PNG shows its seat colour."""
    position = thrown("ants", 8, 2, 80)
    root = parse(render_board_svg(position))
    layout = layout_for(position.road_length, 8)
    for element in named(root, "piece"):
        if element.attrib["data-depth"] != "0":
            continue
        [sprite] = [g for g in element if "transform" in g.attrib]
        x, y = (int(v) for v in re.findall(r"-?\d+", sprite.attrib["transform"]))
        cell = int(next(s for s in named(root, "stack") if element in list(s.iter())).attrib["data-stack"])
        px, py = piece_centre(position, cell)
        assert x <= px < x + layout.piece + layout.pointer and y <= py < y + layout.piece


def test_the_scene_is_plain_data_shared_by_both_painters() -> None:
    position = thrown("fire", 2, 5, 30)
    scene = board_scene(position, labels=badges(position), advantage=0.5)
    assert scene == board_scene(position, labels=badges(position), advantage=0.5)
    assert {g.attrs[0][0] for g in groups(scene.items, "stack")} == {"stack"}
    assert all(isinstance(g, Group) for g in groups(scene.static, "cell"))
    assert len(list(groups(scene.static, "cell"))) == position.road_length


def test_ids_differ_between_boards_and_are_unique_within_one() -> None:
    first = render_board_svg(Position.start(Rules.preset("bell")))
    second = render_board_svg(thrown("bell", 1, 3, 20), labels=None)
    ids_first = re.findall(r' id="([^"]+)"', first)
    ids_second = re.findall(r' id="([^"]+)"', second)
    assert len(ids_first) == len(set(ids_first)) and len(ids_second) == len(set(ids_second))
    assert not set(ids_first) & set(ids_second)


def test_bad_options_are_refused_as_for_the_png() -> None:
    position = Position.start(Rules.preset("bell"))
    with pytest.raises(BadOption):
        render_board_svg(position, advantage=1.5)
    with pytest.raises(BadOption):
        render_board_svg(position, labels={99: "1"})
    with pytest.raises(BadOption):
        render_board_svg(position, description=3)  # type: ignore[arg-type]


def test_a_game_ended_off_the_board_says_how_and_shows_nobody_to_move() -> None:
    # A resignation or a time-out leaves a position that is still running, a throw perhaps pending: without
    # `ended` the header would say whose turn it is (the gap RULES.md leaves: the board alone cannot know).
    position = thrown("bell", 1, 4, 30)
    assert position.outcome() is None and position.pending
    scores = position.scores()
    running = parse(render_board_svg(position, throw=None))
    assert "to move" in running.findtext(f"{NS}title", "")
    assert named(running, "turn") and any(e.get("data-to-move") for e in named(running, "seat"))
    resigned = parse(render_board_svg(position, ended=Ended("B")))
    assert resigned.findtext(f"{NS}title") == f"Team B wins {scores['B']}–{scores['A']}"
    header = named(resigned, "header")[0]
    assert header.get("data-winner") == "B" and header.get("data-turn") is None
    assert not any(e.get("data-to-move") for e in named(resigned, "seat")), "nobody to move once it is over"
    def words(root: ET.Element) -> list[str]:
        return [text for text in named(root, "header")[0].itertext() if text.strip()]

    pending = [str(value) for value in position.pending]
    assert words(running)[:len(pending)] == pending, "the pending throws, before whose turn it is"
    assert words(resigned) == [f"Team B wins {scores['B']}–{scores['A']}", *words(running)[len(pending) + 1:]]
    cancelled = parse(render_board_svg(position, ended=Ended(None), texts={"called_off": "Annulée {score}"}))
    assert cancelled.findtext(f"{NS}title") == f"Annulée {scores['A']}–{scores['B']}"
    assert named(cancelled, "header")[0].get("data-winner") is None


def test_a_game_won_on_the_board_keeps_its_own_result() -> None:
    record = random_game(Rules.preset("bell"), 3, max_moves=2000)
    final = list(record.positions())[-1]
    outcome = final.outcome()
    assert outcome is not None
    # What the board says wins over what a caller says (it cannot be contradicted).
    assert render_board_svg(final, ended=Ended(None)) == render_board_svg(final)


def test_ended_is_checked() -> None:
    with pytest.raises(ValueError, match="'A', 'B' or None"):
        Ended("C")
    with pytest.raises(BadOption, match=r"renderer\.Ended"):
        render_board_svg(thrown("bell", 1, 4, 30), ended="B")  # type: ignore[arg-type]
