"""Every word the images draw, with English defaults; callers pass their own language's texts.

The bot speaks several languages, so `render_board(..., texts={...})` and the other drawing functions take
a mapping of these keys to format strings; any key left out falls back to English. Placeholders in
braces are filled by the renderer (`{seat}` "A2", `{name}` a player's name, `{team}` "A" or "B", numbers).
Only texts and their checks live here: nothing is drawn.
"""

from __future__ import annotations

import functools
import string
from collections.abc import Mapping

#: key -> English format string. The placeholders each key may use are the ones shown.
DEFAULT_TEXTS: dict[str, str] = {
    # header
    "to_move": "{seat} to move",
    "to_move_named": "{seat} {name} to move",
    "to_throw": "{seat} to throw",
    "to_throw_named": "{seat} {name} to throw",
    "score": "Score",
    "chance": "{team} {percent}%",
    "wins": "Team {team} wins {score}",
    "draw": "Draw {score}",
    "called_off": "Game cancelled {score}",  # a game ended by a cancellation, with no winner
    # replay captions
    "start": "Start",
    "caption": "Move {number}: {seat} {action}",
    "enters": "enters on {cell}",
    "moves": "{source} → {dest}",
    "arrives": "{source} → home",
    "captures": "captures {count}",
    "kills": "kills {count}",
    "frees": "frees {count}",
    "burns": "burns",
    "skipped": "quiet moves skipped: {count}",
    # charts
    "advantage_title": "Team A's chance to win",
    "advantage_axis": "Chance",
    "percent": "{percent}%",  # the advantage chart's marks ("50%")
    "turn_axis": "Turn",
    "rating_title": "Rating history",
    "rating_axis": "Rating",
    "game_axis": "Game",
    "date_axis": "Date",
    # the legend (`render_legend`): short, two columns of a 400 px picture
    "legend_title": "Reading the board",
    "legend_turn": "Whose turn, throws",
    "legend_score": "Score, chances",
    "legend_home": "Waiting at home",
    "legend_road": "Road: cell numbers",
    "legend_teams": "Team A, team B",
    "legend_pointer": "Moving this way",
    "legend_lanes": "→ below, ← above",
    "legend_stack": "Stack size, captives",
    "legend_captive": "Captive (striped)",
    "legend_freed": "Freed own piece",
    "legend_badge": "Move button number",
    "legend_last": "Last move",
    "legend_capture": "Captured here",
    "legend_killed": "Killed piece",
    "legend_gone": "Burned piece",
    "legend_fire": "Fire burns a stack",
}


class BadTexts(ValueError):
    """A texts mapping with an unknown key or a placeholder the renderer does not fill."""


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def resolve(texts: Mapping[str, str] | None) -> dict[str, str]:
    """The English defaults overridden by `texts`, checked: known keys, strings, only the defaults' fields."""
    merged = dict(DEFAULT_TEXTS)
    if texts is None:
        return merged
    if not isinstance(texts, Mapping):
        raise BadTexts(f"texts must be a mapping of text keys to strings, not {type(texts).__name__}")
    for key, value in texts.items():
        if key not in DEFAULT_TEXTS:
            raise BadTexts(f"unknown text key {key!r}")
        if not isinstance(value, str):
            raise BadTexts(f"text {key!r} must be a string, not {type(value).__name__}")
        _check_fields(key, value)
        merged[key] = value
    return merged


@functools.lru_cache(maxsize=4096)
def _check_fields(key: str, value: str) -> None:
    """`BadTexts` unless `value` fills only the fields of `key`'s default. Remembered: every board of a game
    message brings the same words, and parsing them all again cost a tenth of a millisecond per board."""
    try:
        extra = _fields(value) - _fields(DEFAULT_TEXTS[key])
    except ValueError as exc:
        raise BadTexts(f"text {key!r} is not a valid format string: {exc}") from None
    if extra:
        raise BadTexts(f"text {key!r} uses {', '.join(sorted(extra))}, which the renderer does not fill")


def fill(texts: Mapping[str, str], key: str, **values: object) -> str:
    """Text `key` with its placeholders filled."""
    return texts[key].format(**values)
