"""Line charts: win-probability history of a game by turn, rating history of a player; titled, axes named."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from renderer import render_chart
from renderer.chart import BadSeries, _points, x_ticks
from renderer.theme import THEMES
from tests.helpers import pixels, rgb

PLOT = (110, 100, 740, 320)  # inside the axes of an 800 x 400 chart, left of the team marks


def test_advantage_chart_fills_team_a_above_and_team_b_below() -> None:
    theme = THEMES["dark"]
    ahead = set(pixels(rgb(render_chart([0.5, 0.8, 0.9, 0.7])).crop(PLOT)))
    assert theme.team_a in ahead and theme.team_b not in ahead
    behind = set(pixels(rgb(render_chart([0.5, 0.2, 0.1])).crop(PLOT)))
    assert theme.team_b in behind and theme.team_a not in behind


def test_chart_has_the_requested_size() -> None:
    assert rgb(render_chart([0.5, 0.6], width=600, height=240)).size == (600, 240)
    assert rgb(render_chart([0.5, 0.6])).size == (800, 400)


def test_the_x_axis_counts_turns_as_given() -> None:
    points, dated = _points([(10, 0.5), (20, 0.6), (35, 0.4), (50, 0.7)], "advantage")
    assert not dated
    assert x_ticks(points, dated) == [10, 20, 30, 40, 50]
    # Plain values are turns (or games) 1, 2, 3...
    plain, _ = _points([0.5, 0.6, 0.4], "advantage")
    assert [x for x, _ in plain] == [1.0, 2.0, 3.0]


def test_title_and_axis_names_are_drawn_in_the_callers_words() -> None:
    series = [(1, 0.5), (5, 0.7), (9, 0.6)]
    english = rgb(render_chart(series))
    theme = THEMES["dark"]
    title = (8, 8, 400, 40)
    assert theme.text in set(pixels(english.crop(title)))
    italian = rgb(render_chart(series, texts={"advantage_title": "Probabilità di vittoria della squadra A"}))
    assert english.crop(title).tobytes() != italian.crop(title).tobytes()
    axis = (300, 370, 500, 400)  # the x axis's name under the tick labels
    turns = rgb(render_chart(series, texts={"turn_axis": "Хід"}))
    assert english.crop(axis).tobytes() != turns.crop(axis).tobytes()
    assert english.crop(PLOT).tobytes() == turns.crop(PLOT).tobytes()


def rating_line(data: bytes, theme: str = "dark") -> list[tuple[int, int]]:
    """The (x, y) pixels of a rating chart drawn in the rating line's colour."""
    image = rgb(data)
    colour = THEMES[theme].badge
    return [(i % image.width, i // image.width) for i, p in enumerate(pixels(image)) if p == colour]


def peak_at(line: list[tuple[int, int]]) -> float:
    """Where the line is highest, as a fraction of the line's width (0 = its first point, 1 = its last)."""
    left, right = min(x for x, _ in line), max(x for x, _ in line)
    top = min(line, key=lambda p: p[1])
    return (top[0] - left) / (right - left)


def test_rating_chart_takes_plain_values_and_dated_points() -> None:
    rising = rating_line(render_chart([1400.0, 1450.0, 1500.0, 1550.0, 1600.0], kind="rating"))
    left, right = min(x for x, _ in rising), max(x for x, _ in rising)
    start = [y for x, y in rising if x < left + 5]
    end = [y for x, y in rising if x > right - 5]
    assert min(start) > max(end)  # a rising rating climbs from left to right (smaller y is higher)

    # Plain values are evenly spaced; dated points are placed by their dates: a peak one day into a nine-day
    # history sits a ninth of the way along, the same peak among three plain values in the middle.
    day = datetime(2026, 3, 1, tzinfo=UTC)
    dated = [(day, 1500.0), (day + timedelta(days=1), 1600.0), (day + timedelta(days=9), 1500.0)]
    by_date = rating_line(render_chart(dated, kind="rating", theme="light"), "light")
    by_index = rating_line(render_chart([1500.0, 1600.0, 1500.0], kind="rating"))
    assert peak_at(by_date) == pytest.approx(1 / 9, abs=0.02)
    assert peak_at(by_index) == pytest.approx(0.5, abs=0.02)

    dot = rating_line(render_chart([(0, 1500.0)], kind="rating"))  # one game: a dot, not a line
    assert dot
    # A dot of about 6 px at the preview's 400 px, 12 px on the 800 px chart; a line would cross the chart.
    assert max(x for x, _ in dot) - min(x for x, _ in dot) <= 14
    assert max(y for _, y in dot) - min(y for _, y in dot) <= 14
    points, is_dated = _points(dated, "rating")
    assert is_dated and len(x_ticks(points, is_dated)) == 3


@pytest.mark.parametrize(
    ("series", "kind"),
    [
        ([], "advantage"),
        ([1.2], "advantage"),
        ([0.5, float("nan")], "advantage"),
        ([0.5], "pie"),
        ([("x", 3.0)], "rating"),
        ([(1, 2, 3)], "rating"),
    ],
)
def test_unplottable_series_are_refused(series: list[object], kind: str) -> None:
    with pytest.raises(BadSeries):
        render_chart(series, kind=kind)  # type: ignore[arg-type]
