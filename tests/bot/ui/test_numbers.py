"""Numbers as each language writes them: "1,5" in Ukrainian, Italian and French, "1.5" in English and Spanish;
a real minus sign in rating changes; the space before "%" the same in every message of a language, the chart's
marks included."""

from __future__ import annotations

import re

import pytest

from bot.cogs.games.boards import board_texts
from bot.cogs.games.texts import ratings_text
from bot.sessions import GameState, Place, SeatState
from bot.storage.types import GLOBAL_SCOPE, FinishReport, RatingChange
from bot.ui.i18n import SUPPORTED, catalogue
from bot.ui.numbers import DECIMAL_MARK, MINUS, PERCENT_SPACE, decimal, signed
from puluc import Rules


@pytest.mark.parametrize(("lang", "half", "two"), [
    ("uk", "1,5", "4,50"), ("it", "1,5", "4,50"), ("fr", "1,5", "4,50"), ("en", "1.5", "4.50"), ("es", "1.5", "4.50"),
])
def test_decimals_take_the_languages_mark(lang: str, half: str, two: str) -> None:
    assert decimal(1.5, lang) == half
    assert decimal(4.5, lang, 2) == two
    assert decimal(3, lang) == f"3{DECIMAL_MARK[lang]}0"


def test_a_negative_decimal_has_the_minus_sign_and_a_rounded_zero_has_none() -> None:
    assert decimal(-0.5, "fr") == "\u22120,5"
    assert decimal(-0.04, "uk") == "0,0"


def test_a_change_is_signed_with_plus_or_the_minus_sign() -> None:
    assert (signed(12), signed(-12), signed(0)) == ("+12", "\u221212", "0")
    assert MINUS == "\u2212" and "-" not in signed(-3)


@pytest.mark.parametrize("lang", SUPPORTED)
def test_a_rating_change_loses_points_with_the_minus_sign(lang: str) -> None:
    state = GameState(game_id=5, place=Place(1, 1), host_id=1, variant="bell", rules=Rules.preset("bell"),
                      ranked=True, turn_timer=600, status="finished",
                      seats=(SeatState("A1", "Alice", user_id=1), SeatState("B1", "Bob", user_id=2)))
    report = FinishReport(5, "duel", None, (
        RatingChange(1, "duel", GLOBAL_SCOPE, "win", 1500, 1512, False),
        RatingChange(2, "duel", GLOBAL_SCOPE, "loss", 1500, 1488, False),
    ))
    text = ratings_text(report, state, lang)
    assert "(+12)" in text and f"({MINUS}12)" in text and "-12" not in text


@pytest.mark.parametrize("lang", SUPPORTED)
def test_every_percent_sign_of_a_language_is_spaced_alike_the_charts_too(lang: str) -> None:
    spaced = re.compile(r"\}" + re.escape(PERCENT_SPACE[lang]) + "%")
    found = {key: message for key, message in catalogue(lang).items()
             if isinstance(message, str) and "%" in message}
    assert "board.percent" in found and len(found) >= 7
    wrong = {key: message for key, message in found.items() if message.count("%") != len(spaced.findall(message))}
    assert wrong == {}
    assert board_texts(lang)["percent"].format(percent=50) == f"50{PERCENT_SPACE[lang]}%"
