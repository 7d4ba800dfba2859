"""The advantage chart of a finished game's page, as an SVG drawn here (a polyline, a few labels): team A's
chance to win at the start of each turn, with a marker the stepper moves to the current step. It scales with
the page and reads out as a sentence (its <title> and <desc>).
"""

from __future__ import annotations

from html import escape

from bot.ui.board_words import board_words
from bot.web.i18n import wt

__all__ = ["advantage_chart"]

WIDTH, HEIGHT = 320, 180
LEFT, RIGHT, TOP, BOTTOM = 34, 8, 10, 24


def _x(step: int, last: int) -> float:
    return LEFT + (WIDTH - LEFT - RIGHT) * (step / last if last else 0)


def _y(chance: float) -> float:
    return TOP + (HEIGHT - TOP - BOTTOM) * (1 - chance)


def advantage_chart(points: list[tuple[int, float | None]], last: int, lang: str) -> str | None:
    """The chart of `points` (step number, team A's chance or None) over steps 0..`last`; None with fewer
    than two known points."""
    known = [(step, chance) for step, chance in points if chance is not None]
    if len(known) < 2:
        return None
    percent = board_words(lang)["percent"]  # "50%", "50 %": as the board's bar writes it in this language
    line = " ".join(f"{_x(step, last):.1f},{_y(chance):.1f}" for step, chance in known)
    first, final = round(known[0][1] * 100), round(known[-1][1] * 100)
    title = escape(wt("chart.title", lang))
    desc = escape(wt("chart.desc", lang, first=first, last=final, turns=len(known)))
    grid = []
    for chance in (0.0, 0.5, 1.0):
        y = _y(chance)
        label = escape(percent.format(percent=round(chance * 100)))
        grid.append(f'<line class="grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" y2="{y:.1f}"/>'
                    f'<text class="axis" x="{LEFT - 4}" y="{y + 4:.1f}" text-anchor="end">{label}</text>')
    axis = escape(wt("chart.axis", lang))
    return (
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-labelledby="chart-title chart-desc" '
        f'xmlns="http://www.w3.org/2000/svg" data-last="{last}" data-left="{LEFT}" data-right="{WIDTH - RIGHT}">'
        f'<title id="chart-title">{title}</title><desc id="chart-desc">{desc}</desc>'
        + "".join(grid)
        + f'<polyline class="line" points="{line}"/>'
        f'<line class="marker" id="chart-marker" x1="{_x(last, last):.1f}" x2="{_x(last, last):.1f}" y1="{TOP}" '
        f'y2="{HEIGHT - BOTTOM}"/>'
        f'<text class="axis" x="{(LEFT + WIDTH - RIGHT) / 2:.0f}" y="{HEIGHT - 6}" text-anchor="middle">{axis}</text>'
        "</svg>"
    )
