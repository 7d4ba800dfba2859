"""Where everything sits on a board image: header, the two homes, the road folded into rows, and towers.

Boards are designed for 400 px, the width Discord shows an embedded image at, and scaled to the width
asked for: every length below is in design units (`U`, one pixel at 400 px), so text that is 9 px tall at
400 px stays readable at any width. From top to bottom: the header (whose turn, throws, score, chances),
team A's home, the road, team B's home, and a caption line for replay frames.

The road is cells 1..L. A long road folds into rows like a snake: row 0 runs left to right from A's home,
the next row runs back right to left, and so on, joined by bends at the ends, so every step of a move is
to a neighbouring cell. Each row has two lanes either side of a median that carries the cell numbers, and
traffic keeps right: a stack moving right on screen uses the bottom lane, one moving left the top lane,
so at a bend each lane turns into the matching lane of the next row. A stack's top piece sits next to the
median and the pieces under it follow outward, ending in a label with the stack's size.

Pure geometry from a few numbers; it never draws and knows nothing of Pillow.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

Box = tuple[int, int, int, int]
Point = tuple[int, int]

DESIGN_WIDTH = 400  # px: the width every length below is given for
DEFAULT_WIDTH = 800  # twice the preview width, sharp when a player opens the picture
MIN_WIDTH, MAX_WIDTH = 400, 2400

# Design units (pixels at 400 px wide).
PAD = 4.0  # outer margin
GAP = 3.0  # between header, homes and road
TEXT = 13.0  # font size of every text: digits are 9.75 units tall in DejaVu Sans Bold
LINE = 17.0  # one line of header or caption text
HEADER = 2 * LINE + 4
STRIP = 22.0  # a home: one row of seats
GATE = 24.0  # the end of a home where stacks enter and arrive
MEDIAN = 16.0  # the strip between the lanes with the cell numbers
ROW_GAP = 6.0
BEND = 12.0  # room beside the rows for the bends joining them
EDGE = 6.0  # room beside the road ends for the arrows of arrivals and of culin's wrap
MIN_CELL = 24.0  # narrower cells cannot hold a piece with its seat digit and pointer
HEAD_MIN, HEAD_MAX = 17.0, 24.0
HEAD_MAX_FOLDED = 20.0  # folded roads have lower lanes: a smaller top piece leaves room for a piece under it
SLICE = 6.0  # height of a piece under the top
SLICE_GAP = 1.0
MIN_BAND = 3.0  # the least of a squeezed piece that stays visible
TAG = 13.0  # height of a stack's size label
INSET = 2.0  # between a lane's edge and what is drawn in it
MIN_LANE, MAX_LANE = 46.0, 80.0
ASPECT = 1.5  # width / height aimed at: Discord shows embeds up to about 400 x 300


class BadWidth(ValueError):
    """An image width the board cannot be laid out in."""


def up_road(team: str, direction: str) -> bool:
    """Whether a stack of `team` with top direction `direction` moves toward higher cell numbers."""
    return (team == "A") == (direction == "+")


def row_counts(road_length: int, rows: int) -> list[int]:
    """Cells per row, as even as can be, the longer rows first."""
    base, extra = divmod(road_length, rows)
    return [base + (1 if r < extra else 0) for r in range(rows)]


def _side_margins(rows: int) -> tuple[float, float]:
    """Room left and right of the road: the bends sit right of even rows' ends, left of odd rows' ends."""
    right = BEND if rows >= 2 else EDGE
    left = BEND if rows >= 3 else EDGE
    return left, right


def choose_rows(road_length: int) -> int:
    """The fewest rows whose cells are at least `MIN_CELL` wide."""
    for rows in range(1, road_length + 1):
        left, right = _side_margins(rows)
        road = DESIGN_WIDTH - 2 * PAD - left - right
        if road / max(row_counts(road_length, rows)) >= MIN_CELL:
            return rows
    raise AssertionError("one cell per row always fits")  # pragma: no cover - MIN_CELL < the road width


@dataclass(frozen=True, slots=True)
class Row:
    """One fold of the road: cells `first`..`first + count - 1`, running right on screen when `rightward`."""

    index: int
    first: int
    count: int
    rightward: bool
    top_lane: Box
    median: Box
    bottom_lane: Box

    @property
    def last(self) -> int:
        return self.first + self.count - 1


@dataclass(frozen=True, slots=True)
class Tower:
    """Where a stack is drawn: its top piece, the pieces under it that show, and its size label."""

    head: Point  # centre of the top piece's body
    right: bool  # moving right on screen (the pointer's side)
    slices: tuple[Point, ...]  # top-left corners, depth 1 first
    step: int
    label: Box | None  # the size label, for stacks of two or more


@dataclass(frozen=True, slots=True)
class Layout:
    road_length: int
    team_size: int
    width: int
    height: int
    unit: float  # pixels per design unit
    header: Box
    lines: tuple[Box, Box]  # the header's two lines
    home_a: Box
    home_b: Box
    gate_a: Box
    gate_b: Box
    rows: tuple[Row, ...]
    road_left: int
    road_right: int
    caption: Box | None  # a line under everything, for replay frames
    piece: int  # side of a top piece's body
    pointer: int  # how far the direction pointer sticks out of the body
    slice_width: int
    slice_height: int
    text_size: int  # font size of every text
    tag_height: int

    def u(self, value: float) -> int:
        """`value` design units in pixels."""
        return round(value * self.unit)

    # -- cells ---------------------------------------------------------------------------------------

    def row_of(self, cell: int) -> Row:
        if not 1 <= cell <= self.road_length:
            raise ValueError(f"cell must be 1 to {self.road_length}, not {cell}")
        for row in self.rows:
            if cell <= row.last:
                return row
        raise AssertionError("the rows cover the road")  # pragma: no cover

    def cell_x(self, cell: int) -> tuple[int, int]:
        """Left and right pixel edges of `cell`'s column."""
        row = self.row_of(cell)
        span = self.road_right - self.road_left
        k = cell - row.first if row.rightward else row.last - cell
        return (self.road_left + round(k * span / row.count), self.road_left + round((k + 1) * span / row.count))

    def cell_width(self, cell: int) -> int:
        x0, x1 = self.cell_x(cell)
        return x1 - x0

    def cell_box(self, cell: int) -> Box:
        """The whole column of `cell`: top lane, median and bottom lane."""
        row = self.row_of(cell)
        x0, x1 = self.cell_x(cell)
        return (x0, row.top_lane[1], x1, row.bottom_lane[3])

    def cell_centre_x(self, cell: int) -> int:
        x0, x1 = self.cell_x(cell)
        return (x0 + x1) // 2

    def median_box(self, cell: int) -> Box:
        row = self.row_of(cell)
        x0, x1 = self.cell_x(cell)
        return (x0, row.median[1], x1, row.median[3])

    def moves_right(self, cell: int, up: bool) -> bool:
        """Whether a stack on `cell` travelling up the road (`up`) or down it moves right on screen."""
        return self.row_of(cell).rightward == up

    def lane(self, cell: int, up: bool) -> Box:
        """The part of `cell`'s column that traffic in direction `up` uses."""
        row = self.row_of(cell)
        x0, x1 = self.cell_x(cell)
        lane = row.bottom_lane if row.rightward == up else row.top_lane
        return (x0, lane[1], x1, lane[3])

    # -- towers --------------------------------------------------------------------------------------

    def lane_room(self) -> int:
        """Pixels a lane has for the pieces under the top and the size label."""
        lane = self.rows[0].top_lane
        return lane[3] - lane[1] - self.piece - self.u(3 * INSET) - self.tag_height

    def visible_under(self, height: int) -> int:
        """How many pieces under the top are drawn (the label counts them all)."""
        under = height - 1
        if under <= 0:
            return 0
        room = self.lane_room() - self.slice_height
        if room < 0:
            return 1
        return min(under, 1 + room // max(1, self.u(MIN_BAND)))

    def tower_step(self, height: int) -> int:
        """Distance between the pieces under the top of a stack of `height` (squeezed when tall)."""
        shown = self.visible_under(height)
        full = self.slice_height + self.u(SLICE_GAP)
        if shown <= 1:
            return full
        return min(full, (self.lane_room() - self.slice_height) // (shown - 1))

    def tower(self, cell: int, up: bool, height: int) -> Tower:
        """The geometry of a stack of `height` pieces on `cell` travelling in direction `up`."""
        x0, ly0, x1, ly1 = self.lane(cell, up)
        right = self.moves_right(cell, up)
        below_median = self.row_of(cell).rightward == up  # bottom lane: the median is above
        cx = (x0 + x1) // 2
        # The body sits away from its pointer, so body and pointer together stay centred in the cell.
        hx = cx + (-1 if right else 1) * (self.pointer // 2)
        inset = self.u(INSET)
        body_top = ly0 + inset if below_median else ly1 - inset - self.piece
        hy = body_top + self.piece // 2
        shown = self.visible_under(height)
        step = self.tower_step(height)
        sx = cx - self.slice_width // 2
        slices: list[Point] = []
        for depth in range(1, shown + 1):
            offset = self.piece // 2 + inset + (depth - 1) * step
            slices.append((sx, hy + offset) if below_median else (sx, hy - offset - self.slice_height))
        label = None
        if height > 1:
            end = (slices[-1][1] + self.slice_height) if below_median else slices[-1][1]
            w = x1 - x0
            if below_median:
                label = (x0, end + inset // 2, x0 + w, end + inset // 2 + self.tag_height)
            else:
                label = (x0, end - inset // 2 - self.tag_height, x0 + w, end - inset // 2)
        return Tower((hx, hy), right, tuple(slices), step, label)

    def piece_point(self, cell: int, up: bool, depth: int, height: int) -> Point:
        """A pixel inside the piece at `depth` (0 = top) that shows its seat colour, unmarked."""
        tower = self.tower(cell, up, height)
        if depth == 0:
            hx, hy = tower.head
            # Below the seat digit, inside the body whatever the shape.
            return hx, hy + self.piece * 3 // 10
        x, y = tower.slices[depth - 1]
        below_median = self.row_of(cell).rightward == up
        visible = self.slice_height if depth == len(tower.slices) else min(self.slice_height, tower.step)
        # Deeper pieces are drawn over shallower ones, so only the head-side band of a squeezed piece shows.
        band = (y, y + visible) if below_median else (y + self.slice_height - visible, y + self.slice_height)
        # Left of the middle: the right half of a captive is crossed by its hatching's thickest stripe.
        return x + self.slice_width // 5, (band[0] + band[1]) // 2

    def free_spot(self, cell: int, up: bool) -> Point:
        """Where the top piece of a stack travelling `up` would sit on `cell`: for move badges."""
        tower = self.tower(cell, up, 1)
        return (self.cell_centre_x(cell), tower.head[1])

    # -- homes ---------------------------------------------------------------------------------------

    def home(self, team: str) -> Box:
        return self.home_a if team == "A" else self.home_b

    def gate(self, team: str) -> Box:
        """The end of `team`'s home next to its end of the road, where stacks enter and arrive."""
        return self.gate_a if team == "A" else self.gate_b

    def home_slots(self, team: str) -> list[Box]:
        """One box per seat of `team` in its home, seat 1 first, beside the gate."""
        x0, y0, x1, y1 = self.home(team)
        g = self.gate(team)
        if g[0] <= x0:
            x0 = g[2]
        else:
            x1 = g[0]
        inset = self.u(INSET)
        x0, x1 = x0 + inset, x1 - inset
        count = self.team_size
        slot = min((x1 - x0) / count, self.u(110))
        return [(round(x0 + i * slot), y0, round(x0 + (i + 1) * slot), y1) for i in range(count)]


def _check_width(width: int | None) -> int:
    if width is None:
        return DEFAULT_WIDTH
    if isinstance(width, bool) or not isinstance(width, int) or not MIN_WIDTH <= width <= MAX_WIDTH:
        raise BadWidth(f"width must be a whole number of pixels from {MIN_WIDTH} to {MAX_WIDTH}, not {width!r}")
    return width


@lru_cache(maxsize=128)
def layout_for(road_length: int, team_size: int, width: int | None = None, caption: bool = False) -> Layout:
    """The layout of a board with `road_length` cells and `team_size` seats per team, `width` pixels wide.

    `caption` adds a line under the board (replay frames say there what the move did).
    """
    width = _check_width(width)
    unit = width / DESIGN_WIDTH

    def u(value: float) -> int:
        return round(value * unit)

    rows_count = choose_rows(road_length)
    counts = row_counts(road_length, rows_count)
    left_margin, right_margin = _side_margins(rows_count)
    road_left = u(PAD + left_margin)
    road_right = width - u(PAD + right_margin)
    cell = (road_right - road_left) / max(counts)
    head_max = HEAD_MAX if rows_count == 1 else HEAD_MAX_FOLDED
    piece = int(max(u(HEAD_MIN), min(u(head_max), cell * 0.7)))
    pointer = max(3, piece // 5)
    slice_height = u(SLICE)
    slice_width = max(u(10), round(piece * 0.95))
    tag_height = u(TAG)
    fixed = PAD + HEADER + GAP + STRIP + GAP + GAP + STRIP + PAD + (GAP + LINE if caption else 0)
    fixed += rows_count * MEDIAN + (rows_count - 1) * ROW_GAP
    lane_units = (DESIGN_WIDTH / ASPECT - fixed) / (2 * rows_count)
    lane_units = max(MIN_LANE, min(MAX_LANE, lane_units))
    # The lane must hold a top piece, one piece under it and the size label, however the numbers round.
    lane = max(u(lane_units), piece + slice_height + tag_height + u(4 * INSET))

    header = (u(PAD), u(PAD), width - u(PAD), u(PAD + HEADER))
    line_top = header[1] + u(2)
    lines = (
        (header[0] + u(4), line_top, header[2] - u(4), line_top + u(LINE)),
        (header[0] + u(4), line_top + u(LINE), header[2] - u(4), line_top + 2 * u(LINE)),
    )
    home_a = (u(PAD), header[3] + u(GAP), width - u(PAD), header[3] + u(GAP + STRIP))
    y = home_a[3] + u(GAP)
    rows: list[Row] = []
    first = 1
    for index, count in enumerate(counts):
        top_lane = (road_left, y, road_right, y + lane)
        median = (road_left, top_lane[3], road_right, top_lane[3] + u(MEDIAN))
        bottom_lane = (road_left, median[3], road_right, median[3] + lane)
        rows.append(Row(index, first, count, index % 2 == 0, top_lane, median, bottom_lane))
        first += count
        y = bottom_lane[3] + u(ROW_GAP)
    y = rows[-1].bottom_lane[3] + u(GAP)
    home_b = (u(PAD), y, width - u(PAD), y + u(STRIP))
    gate_a = (home_a[0], home_a[1], home_a[0] + u(GATE), home_a[3])
    # B's end of the road is the end of the last row: right when that row runs rightward.
    if rows[-1].rightward:
        gate_b = (home_b[2] - u(GATE), home_b[1], home_b[2], home_b[3])
    else:
        gate_b = (home_b[0], home_b[1], home_b[0] + u(GATE), home_b[3])
    caption_box = None
    bottom = home_b[3]
    if caption:
        caption_box = (u(PAD) + u(4), bottom + u(GAP), width - u(PAD) - u(4), bottom + u(GAP + LINE))
        bottom = caption_box[3]
    height = bottom + u(PAD)
    return Layout(
        road_length=road_length,
        team_size=team_size,
        width=width,
        height=height,
        unit=unit,
        header=header,
        lines=lines,
        home_a=home_a,
        home_b=home_b,
        gate_a=gate_a,
        gate_b=gate_b,
        rows=tuple(rows),
        road_left=road_left,
        road_right=road_right,
        caption=caption_box,
        piece=piece,
        pointer=pointer,
        slice_width=slice_width,
        slice_height=slice_height,
        text_size=max(8, u(TEXT)),
        tag_height=tag_height,
    )


def badge_size(layout: Layout) -> int:
    """Side of a move badge: a top piece's body, so a badge marks exactly where the moved piece will sit."""
    return layout.piece


def aspect(layout: Layout) -> float:
    """Width over height."""
    return layout.width / layout.height


def scaled(pixels: float, layout: Layout, to_width: int = DESIGN_WIDTH) -> float:
    """`pixels` of this layout measured on the image scaled to `to_width` px wide."""
    return pixels * to_width / layout.width


