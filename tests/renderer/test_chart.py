"""Line charts: win-probability history of a game, rating history of a player."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from renderer import render_chart
from renderer.chart import BadSeries
from renderer.theme import THEMES

from .conftest import pixels, rgb


def test_advantage_chart_fills_team_a_above_and_team_b_below() -> None:
    theme = THEMES["dark"]
    plot = (66, 0, 750, 320)  # left of the team marks at the right edge
    ahead = set(pixels(rgb(render_chart([0.5, 0.8, 0.9, 0.7])).crop(plot)))
    assert theme.team_a in ahead and theme.team_b not in ahead
    behind = set(pixels(rgb(render_chart([0.5, 0.2, 0.1])).crop(plot)))
    assert theme.team_b in behind and theme.team_a not in behind


def test_chart_has_the_requested_size() -> None:
    assert rgb(render_chart([0.5, 0.6], width=600, height=240)).size == (600, 240)


def test_rating_chart_takes_plain_values_and_dated_points() -> None:
    day = datetime(2026, 3, 1, tzinfo=UTC)
    assert rgb(render_chart([25.0, 26.5, 24.1], kind="rating")).size == (800, 320)
    dated = [(day + timedelta(days=i), 25.0 + i) for i in range(10)]
    assert rgb(render_chart(dated, kind="rating", theme="light")).size == (800, 320)
    assert rgb(render_chart([(0, 1500.0)], kind="rating")).size == (800, 320)


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
