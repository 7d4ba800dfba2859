"""Line charts: win-probability history of a game by turn, rating history of a player; titled, axes named."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from renderer import render_chart
from renderer.chart import BadSeries, _points, x_ticks
from renderer.theme import THEMES

from .conftest import pixels, rgb

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


def test_rating_chart_takes_plain_values_and_dated_points() -> None:
    day = datetime(2026, 3, 1, tzinfo=UTC)
    assert rgb(render_chart([25.0, 26.5, 24.1], kind="rating")).size == (800, 400)
    dated = [(day + timedelta(days=i), 25.0 + i) for i in range(10)]
    assert rgb(render_chart(dated, kind="rating", theme="light")).size == (800, 400)
    assert rgb(render_chart([(0, 1500.0)], kind="rating")).size == (800, 400)
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
