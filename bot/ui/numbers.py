"""Numbers as each language writes them: the decimal mark, the minus sign, the space before the percent sign.

Whole numbers in messages need nothing (ratings, counts and ids are short, and no language here groups
thousands below 10 000), so only what differs is here: decimals in the tournament tables ("1,5" in Ukrainian,
Italian and French), signed rating changes ("+12", "−12" with the minus sign U+2212, as typography wants in
every language), and the space the catalogues put before "%" (the chart's "%" is `board.percent`, a message
like the rest; the catalogue tests hold every "%" of a language to `PERCENT_SPACE`).

Spanish keeps the decimal point: Guatemala, Belize, Mexico and most of Central America write "1.5", and the
RAE's Ortografía (2010) recommends the point for every Spanish-speaking country.
"""

from __future__ import annotations

from typing import Final

from bot.ui.i18n import language_for

__all__ = ["DECIMAL_MARK", "MINUS", "PERCENT_SPACE", "decimal", "signed"]

MINUS: Final = "\u2212"
DECIMAL_MARK: Final = {"en": ".", "uk": ",", "it": ",", "fr": ",", "es": "."}
# Before "%": nothing in English, Ukrainian and Italian, a narrow no-break space in French, a no-break space in
# Spanish.
PERCENT_SPACE: Final = {"en": "", "uk": "", "it": "", "fr": "\u202f", "es": "\u00a0"}


def decimal(value: float, lang: str, places: int = 1) -> str:
    """`value` with `places` decimals in `lang`: "1.5" (en, es), "1,5" (uk, it, fr); "−0,5" below zero."""
    text = f"{abs(value):.{places}f}".replace(".", DECIMAL_MARK[language_for(lang)])
    return MINUS + text if value < 0 and any(digit not in "0.," for digit in text) else text


def signed(value: int) -> str:
    """A change with its sign: "+12", "−12" (the minus sign, not a hyphen), "0" for no change."""
    if value > 0:
        return f"+{value}"
    return f"{MINUS}{-value}" if value < 0 else "0"
