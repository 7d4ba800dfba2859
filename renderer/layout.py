"""Where everything sits on a board image: homes, header, the two lanes, cells and the pieces of a tower.

The road runs left to right, cell 1 beside team A's home (left) and cell L beside team B's home (right),
as the move notation numbers it. Traffic keeps right: a stack travelling right on screen (team A going out,
team B coming home) uses the bottom lane, one travelling left uses the top lane. A tower's top piece sits
next to the median (the strip with the cell numbers) and the pieces under it follow outward, in order.

Pure geometry from a few numbers; it never draws and knows nothing of Pillow.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

Box = tuple[int, int, int, int]
Point = tuple[int, int]

MIN_WIDTH, MAX_WIDTH = 480, 2400
PAD = 8  # outer margin
GAP = 6  # between homes and road, header and road
LANE_SLOTS = {1: 5}  # pieces under the top that fit a lane before the tower is squeezed; 6 in team games
MIN_CELL = 24  # px: narrower cells cannot show a piece with its seat number and pointer
MIN_STEP = 4  # the least pixels of each squeezed piece that stay visible


class BadWidth(ValueError):
    """An image width the board cannot be laid out in."""


def default_width(road_length: int) -> int:
    """About 64 px per cell plus the homes, kept between 1000 and 1400 px (Discord scales wider images down)."""
    return max(1000, min(1400, 2 * 150 + road_length * 64))


def _home_width(width: int, team_size: int) -> int:
    # 1 v 1 homes hold one big row; team homes hold up to eight narrow ones.
    return min(round(width * 0.15), 170) if team_size == 1 else round(width * 0.085) + 12


def _cell_width(width: int, road_length: int, team_size: int) -> float:
    return (width - 2 * (PAD + GAP + _home_width(width, team_size))) / road_length


def travels_right(team: str, direction: str) -> bool:
    """Whether a stack of `team` with top direction `direction` moves right on screen."""
    return (team == "A") == (direction == "+")


@dataclass(frozen=True, slots=True)
class Layout:
    road_length: int
    team_size: int
    width: int
    height: int
    home_width: int
    header: Box
    home_a: Box
    home_b: Box
    road_left: int
    road_right: int
    top_lane: Box  # spans the whole road
    median: Box
    bottom_lane: Box
    piece: int  # side of a top piece's body
    pointer: int  # how far the direction pointer sticks out of the body
    slice_width: int
    slice_height: int
    step: int  # vertical distance between pieces under the top, unsqueezed
    slots: int  # how many pieces under the top fit unsqueezed
    number_size: int  # font size of the cell numbers

    # -- cells ---------------------------------------------------------------------------------------

    def cell_left(self, cell: int) -> int:
        return self.road_left + round((cell - 1) * (self.road_right - self.road_left) / self.road_length)

    def cell_box(self, cell: int) -> Box:
        """The whole column of `cell`: top lane, median and bottom lane."""
        if not 1 <= cell <= self.road_length:
            raise ValueError(f"cell must be 1 to {self.road_length}, not {cell}")
        return (self.cell_left(cell), self.top_lane[1], self.cell_left(cell + 1), self.bottom_lane[3])

    def cell_centre_x(self, cell: int) -> int:
        return (self.cell_left(cell) + self.cell_left(cell + 1)) // 2

    def median_box(self, cell: int) -> Box:
        return (self.cell_left(cell), self.median[1], self.cell_left(cell + 1), self.median[3])

    # -- towers --------------------------------------------------------------------------------------

    def head_centre(self, cell: int, right: bool) -> Point:
        """Centre of the body of the top piece of a stack on `cell` travelling right (bottom lane) or left."""
        x = self.cell_centre_x(cell) + (-1 if right else 1) * (self.pointer // 2)
        if right:
            return x, self.median[3] + 3 + self.piece // 2
        return x, self.median[1] - 3 - self.piece // 2

    def tower_step(self, height: int) -> int:
        """Distance between the pieces under the top for a tower of `height` pieces (squeezed when tall)."""
        under = height - 1
        if under <= self.slots:
            return self.step
        room = self.lane_room() - self.slice_height
        return max(MIN_STEP, min(self.step, room // (under - 1)))

    def lane_room(self) -> int:
        """Pixels for the pieces under the top, from under the top piece to the lane's outer edge."""
        return (self.bottom_lane[3] - self.bottom_lane[1]) - self.piece - 3 - 3 - 3

    def visible_under(self, height: int) -> int:
        """How many pieces under the top are drawn; the rest are summed up in a "+n" mark."""
        under = height - 1
        step = self.tower_step(height)
        fits = 1 + (self.lane_room() - self.slice_height) // step
        return min(under, fits)

    def slice_top(self, cell: int, right: bool, depth: int, height: int) -> Point:
        """Top-left corner of the piece at `depth` (1 = just under the top) of a tower of `height` pieces."""
        x = self.cell_centre_x(cell) - self.slice_width // 2
        offset = self.piece // 2 + 3 + (depth - 1) * self.tower_step(height)
        _hx, hy = self.head_centre(cell, right)
        if right:
            return x, hy + offset
        return x, hy - offset - self.slice_height

    def piece_point(self, cell: int, right: bool, depth: int, height: int) -> Point:
        """A pixel inside the piece at `depth` (0 = top) that shows its seat colour, unmarked."""
        if depth == 0:
            hx, hy = self.head_centre(cell, right)
            # Below the seat digit, inside the body whatever the shape.
            return hx, hy + self.piece * 3 // 10
        x, y = self.slice_top(cell, right, depth, height)
        step = self.tower_step(height)
        visible = self.slice_height if step >= self.slice_height or depth == height - 1 else step
        # Deeper pieces are drawn over shallower ones, so only the head-side band of a squeezed piece shows.
        band = (y, y + visible) if right else (y + self.slice_height - visible, y + self.slice_height)
        return x + self.slice_width // 2, (band[0] + band[1]) // 2


@lru_cache(maxsize=64)
def layout_for(road_length: int, team_size: int, width: int | None = None) -> Layout:
    """The layout of a board with `road_length` cells and `team_size` seats per team, `width` pixels wide."""
    if width is None:
        width = default_width(road_length)
    if not isinstance(width, int) or not MIN_WIDTH <= width <= MAX_WIDTH:
        raise BadWidth(f"width must be a whole number of pixels from {MIN_WIDTH} to {MAX_WIDTH}, not {width!r}")
    if _cell_width(width, road_length, team_size) < MIN_CELL:
        least = next(w for w in range(width, 4 * MAX_WIDTH) if _cell_width(w, road_length, team_size) >= MIN_CELL)
        raise BadWidth(f"{width} px is too narrow for {road_length} cells; use at least {least} px")
    home_width = _home_width(width, team_size)
    road_left = PAD + home_width + GAP
    road_right = width - PAD - home_width - GAP
    cell = (road_right - road_left) / road_length
    piece = int(min(58, cell * 0.74))
    pointer = max(5, piece // 5)
    slice_height = max(7, round(piece * 0.32))
    slice_width = max(12, round(piece * 0.92))
    step = slice_height + 2
    number_size = max(11, min(20, int(cell * 0.42)))
    median_height = number_size + 14
    slots = LANE_SLOTS.get(team_size, 6)
    lane_height = 3 + piece + 3 + step * slots + 3
    header_height = max(40, min(60, piece + 8))
    header = (PAD, PAD, width - PAD, PAD + header_height)
    top = header[3] + GAP
    top_lane = (road_left, top, road_right, top + lane_height)
    median = (road_left, top_lane[3], road_right, top_lane[3] + median_height)
    bottom_lane = (road_left, median[3], road_right, median[3] + lane_height)
    height = bottom_lane[3] + PAD
    return Layout(
        road_length=road_length,
        team_size=team_size,
        width=width,
        height=height,
        home_width=home_width,
        header=header,
        home_a=(PAD, top, PAD + home_width, bottom_lane[3]),
        home_b=(width - PAD - home_width, top, width - PAD, bottom_lane[3]),
        road_left=road_left,
        road_right=road_right,
        top_lane=top_lane,
        median=median,
        bottom_lane=bottom_lane,
        piece=piece,
        pointer=pointer,
        slice_width=slice_width,
        slice_height=slice_height,
        step=step,
        slots=slots,
        number_size=number_size,
    )


def badge_size(layout: Layout) -> int:
    """Side of a label badge (the button label of a move drawn where the move lands)."""
    return max(16, layout.piece * 3 // 4)


def gate(layout: Layout, team: str) -> Box:
    """The end of `team`'s home where stacks arrive, kept free for an arrival's label badge.

    Stacks reach A's home travelling left (top lane), B's home travelling right (bottom lane).
    """
    x0, y0, x1, y1 = layout.home_a if team == "A" else layout.home_b
    size = badge_size(layout) + 8
    return (x0, y0, x1, y0 + size) if team == "A" else (x0, y1 - size, x1, y1)


def home_rows(layout: Layout, team: str) -> list[Box]:
    """One row per seat of `team` in its home, seat 1 at the top, centred in the room the gate leaves."""
    x0, y0, x1, y1 = layout.home_a if team == "A" else layout.home_b
    g = gate(layout, team)
    if team == "A":
        y0 = g[3]
    else:
        y1 = g[1]
    inner = 4
    count = layout.team_size
    row = min(130, (y1 - y0 - 2 * inner) // count)
    top = y0 + (y1 - y0 - row * count) // 2
    return [(x0 + inner, top + i * row, x1 - inner, top + (i + 1) * row) for i in range(count)]
