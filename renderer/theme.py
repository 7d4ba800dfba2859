"""Colours of the board images: the light and dark themes and the sixteen seat colours.

Seat colours are chosen to stay apart for everyone: `research/seat_palette.py` searched for sixteen
colours whose smallest CIEDE2000 distance, for normal vision and under simulated protanopia,
deuteranopia and tritanopia (Machado et al. 2009, `vision.py`), is as large as possible (10.6), and the
tests hold them to at least 10. Team A takes warm hues and team B cool ones, A1 and B1 keep the teams'
own orange and sky blue, but team is never told by colour alone (team A pieces are discs with a light
rim, team B pieces rounded squares with a dark rim; see `pieces.py`). One palette serves both themes:
its lightness band reads on the dark and the light lanes. This module only holds values; it never draws
and reads no files.
"""

from __future__ import annotations

from dataclasses import dataclass

RGB = tuple[int, int, int]


class UnknownTheme(ValueError):
    """A theme name that is not one of `THEMES`."""


def _hex(code: str) -> RGB:
    return (int(code[0:2], 16), int(code[2:4], 16), int(code[4:6], 16))


# `python research/seat_palette.py --seed 2 --steps 600000`; seat 1 first, then light to dark.
_TEAM_A = ("E69F00", "F9BDAF", "C893B1", "FD506E", "A96E8A", "FF0106", "905074", "B90898")
_TEAM_B = ("56B4E9", "ACE477", "00A274", "997CB4", "4183FD", "45881A", "62744B", "2C4EFF")


# The high-contrast theme's seats: `python research/contrast_palette.py --seed 1 --seconds 150` moved the seats
# above (A1 and B1 kept) until each stands at least 3:1 from the black lanes for every vision (protanopes see the
# reds above as too dark there), keeping the sixteen at least 10 apart (10.5) and the teams' hues.
_CONTRAST_A = ("E69F00", "E44411", "A65B8E", "948256", "DB00BE", "FBFF1A", "BEA86B", "F16AB9")
_CONTRAST_B = ("56B4E9", "50FAFF", "5461FD", "9BC6A1", "CAEC85", "CAFFD7", "147F68", "0CA084")


def _seat_table(team_a: tuple[str, ...] = _TEAM_A, team_b: tuple[str, ...] = _TEAM_B) -> dict[str, RGB]:
    table: dict[str, RGB] = {}
    for number in range(8):
        table[f"A{number + 1}"] = _hex(team_a[number])
        table[f"B{number + 1}"] = _hex(team_b[number])
    return table


#: Theme name -> seat name ("A1".."B8") -> RGB fill of that seat's pieces (the same in the dark and light themes;
#: the high-contrast theme's own stand at least 3:1 from its black lanes, WCAG's bar for graphics).
SEAT_COLOURS: dict[str, dict[str, RGB]] = {
    "dark": _seat_table(),
    "light": _seat_table(),
    "contrast": _seat_table(_CONTRAST_A, _CONTRAST_B),
}


@dataclass(frozen=True, slots=True)
class Theme:
    """Every colour a board image uses apart from the seat colours."""

    name: str
    background: RGB  # the page around the road; dark matches Discord's dark chat (#313338)
    panel: RGB  # the homes (cities) and the header
    cell: RGB  # road cells, alternating with `cell_alt` so a long road stays countable
    cell_alt: RGB
    median: RGB  # the strip between the lanes that carries the cell numbers
    grid: RGB
    text: RGB
    muted: RGB
    rim_a: RGB  # outline of team A pieces (light)
    rim_b: RGB  # outline of team B pieces (dark)
    ink: RGB  # marks drawn on pieces (digits, chains)
    fire: RGB
    fire_glow: RGB
    last_move: RGB
    capture: RGB
    badge: RGB
    badge_text: RGB
    team_a: RGB  # the advantage bar and score labels
    team_b: RGB
    stick_face: RGB  # the counting side of a throwing stick
    stick_back: RGB
    stick_mark: RGB


THEMES: dict[str, Theme] = {
    "dark": Theme(
        name="dark",
        background=_hex("313338"),
        panel=_hex("2B2D31"),
        cell=_hex("3F4248"),
        cell_alt=_hex("383A40"),
        median=_hex("232428"),
        grid=_hex("1E1F22"),
        text=_hex("F2F3F5"),
        muted=_hex("949BA4"),
        rim_a=_hex("FFFFFF"),
        rim_b=_hex("111214"),
        ink=_hex("111214"),
        fire=_hex("8C2A12"),
        fire_glow=_hex("FF8C1A"),
        last_move=_hex("FEE75C"),
        capture=_hex("ED4245"),
        badge=_hex("5865F2"),
        badge_text=_hex("FFFFFF"),
        team_a=_hex("E69F00"),
        team_b=_hex("56B4E9"),
        stick_face=_hex("E8C98F"),
        stick_back=_hex("6B4A2B"),
        stick_mark=_hex("3A2414"),
    ),
    "light": Theme(
        name="light",
        background=_hex("FFFFFF"),
        panel=_hex("F2F3F5"),
        cell=_hex("E3E5E8"),
        cell_alt=_hex("EBEDEF"),
        median=_hex("C9CCD1"),
        grid=_hex("B5BAC1"),
        text=_hex("060607"),
        muted=_hex("5C5E66"),
        rim_a=_hex("FFFFFF"),
        rim_b=_hex("111214"),
        ink=_hex("111214"),
        fire=_hex("F6B89A"),
        fire_glow=_hex("D83C0E"),
        last_move=_hex("C99A00"),
        capture=_hex("D22D39"),
        badge=_hex("4752C4"),
        badge_text=_hex("FFFFFF"),
        team_a=_hex("D55E00"),
        team_b=_hex("0072B2"),
        stick_face=_hex("E8C98F"),
        stick_back=_hex("6B4A2B"),
        stick_mark=_hex("3A2414"),
    ),
    # High contrast (issue 32), for members with low vision: black lanes under white lines and words, so every
    # seat colour stands at least 3:1 from its lane and every word at least 15:1 from its ground, for normal
    # vision and under the three dichromacy simulations (tests/renderer/test_contrast.py). Pieces take a
    # white rim whatever their team (the team is told by shape: discs and rounded squares); captives keep
    # their stripes; the marks are pure yellow and white.
    "contrast": Theme(
        name="contrast",
        background=_hex("000000"),
        panel=_hex("000000"),
        cell=_hex("000000"),
        cell_alt=_hex("161616"),
        median=_hex("000000"),
        grid=_hex("FFFFFF"),
        text=_hex("FFFFFF"),
        muted=_hex("E6E6E6"),
        rim_a=_hex("FFFFFF"),
        rim_b=_hex("FFFFFF"),
        ink=_hex("000000"),
        fire=_hex("7A1C00"),
        fire_glow=_hex("FF9A1F"),
        last_move=_hex("FFFF00"),
        capture=_hex("FF5C5C"),
        badge=_hex("FFFFFF"),
        badge_text=_hex("000000"),
        team_a=_hex("E69F00"),
        team_b=_hex("56B4E9"),
        stick_face=_hex("F5DEB3"),
        stick_back=_hex("6B4A2B"),
        stick_mark=_hex("000000"),
    ),
}


def get_theme(name: str) -> Theme:
    """The theme called `name` ("dark", "light" or "contrast")."""
    try:
        return THEMES[name]
    except (KeyError, TypeError):
        raise UnknownTheme(f"unknown theme {name!r}; choose one of {', '.join(THEMES)}") from None


def seat_colour(seat: str, theme: str = "dark") -> RGB:
    """The fill colour of `seat`'s pieces in `theme`."""
    table = SEAT_COLOURS[get_theme(theme).name]
    try:
        return table[seat]
    except KeyError:
        raise ValueError(f"{seat!r} is not a seat (A1..A8, B1..B8)") from None
