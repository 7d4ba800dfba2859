"""The web pages' words in the five languages, chosen by the browser's Accept-Language.

The pages' own words are in `bot/web/locales/<lang>.toml` (the same format as the bot's catalogues, with
plural tables); what a page says about a game (narration, variant names, throws) comes from the bot's
catalogues, so the page and the game message say it alike.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path

from bot.ui.i18n import DEFAULT_LANGUAGE, SUPPORTED, Message, parse_catalogue, plural_category

__all__ = ["LANGUAGES", "negotiate", "web_catalogue", "wt"]

LANGUAGES: tuple[str, ...] = tuple(SUPPORTED)
_LOCALES = Path(__file__).with_name("locales")
_RANGE = re.compile(r"^\s*([A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*|\*)\s*(?:;\s*q\s*=\s*([0-9.]+))?\s*$")
MAX_HEADER = 512  # longer Accept-Language headers are cut: no browser sends more


@cache
def web_catalogue(lang: str) -> Mapping[str, Message]:
    return parse_catalogue((_LOCALES / f"{lang}.toml").read_text(encoding="utf-8"), f"bot/web/locales/{lang}.toml")


def wt(key: str, lang: str, /, **params: object) -> str:
    """The page text `key` in `lang`, formatted; a plural message takes `count`. English when `lang` lacks it."""
    message = web_catalogue(lang).get(key)
    found_in = lang
    if message is None:
        message, found_in = web_catalogue(DEFAULT_LANGUAGE)[key], DEFAULT_LANGUAGE
    if not isinstance(message, str):
        count = params.get("count")
        if not isinstance(count, int):
            raise TypeError(f"web message {key!r} is a plural and needs count=<int>")
        message = message.get(plural_category(found_in, count), message.get("other", ""))
    return message.format(**params)


def negotiate(header: str | None, asked: str | None = None) -> str:
    """The page language: `asked` (the ?lang= of a link) when supported, else the best of the browser's
    Accept-Language ("uk-UA,uk;q=0.9,en;q=0.5") that we have, else English."""
    if asked in LANGUAGES:
        return asked
    if not header:
        return DEFAULT_LANGUAGE
    ranked: list[tuple[float, int, str]] = []
    for order, part in enumerate(header[:MAX_HEADER].split(",")):
        found = _RANGE.match(part)
        if found is None:
            continue
        try:
            quality = float(found.group(2)) if found.group(2) is not None else 1.0
        except ValueError:
            continue
        base = found.group(1).split("-", 1)[0].lower()
        if quality > 0 and base in LANGUAGES:
            ranked.append((-quality, order, base))
    return min(ranked)[2] if ranked else DEFAULT_LANGUAGE
