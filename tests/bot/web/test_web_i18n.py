"""The pages' own catalogues: five complete languages, chosen by Accept-Language."""

from __future__ import annotations

import pytest

from bot.ui.i18n import placeholders, required_plural_categories
from bot.web.i18n import LANGUAGES, negotiate, web_catalogue, wt


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_language_has_every_message_with_the_same_placeholders(lang: str) -> None:
    english, other = web_catalogue("en"), web_catalogue(lang)
    assert set(other) == set(english)
    for key, message in english.items():
        assert placeholders(other[key]) == placeholders(message), key


@pytest.mark.parametrize("lang", LANGUAGES)
def test_plural_messages_have_the_languages_forms(lang: str) -> None:
    for key, message in web_catalogue(lang).items():
        if not isinstance(message, str):
            assert required_plural_categories(lang) <= set(message), key


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_formats(lang: str) -> None:
    numbers = ("count", "step", "last", "first", "turns", "games", "kills", "home", "road", "round", "rounds",
               "number", "cell")
    values = dict.fromkeys(numbers, 3)
    for key, message in web_catalogue(lang).items():
        names = placeholders(message)
        text = wt(key, lang, **{name: values.get(name, "X") for name in names})
        assert text and "{" not in text, key


@pytest.mark.parametrize(("header", "asked", "expected"), [
    ("uk-UA,uk;q=0.9,en-US;q=0.8,en;q=0.7", None, "uk"),
    ("de-DE,de;q=0.9,fr;q=0.5,it;q=0.4", None, "fr"),
    ("es-419", None, "es"),
    ("en;q=0.5, it", None, "it"),
    ("de, ja", None, "en"),
    ("fr;q=0", None, "en"),
    ("garbage;;;,,,q=x", None, "en"),
    (None, None, "en"),
    ("fr", "uk", "uk"),
    ("fr", "xx", "fr"),
])
def test_the_page_language_follows_accept_language(header: str | None, asked: str | None, expected: str) -> None:
    assert negotiate(header, asked) == expected
