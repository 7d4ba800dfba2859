"""The catalogues speak each language's own game words and typography.

Each language has a glossary beside its catalogue (`bot/ui/locales/glossary/<lang>.toml`): the one word for
every game term, the variants that must not creep back in, and the typographic rules. These tests hold the
catalogues to it, including the French no-break spaces before : ; ! ? % and inside « », which must never be
demanded inside placeholders, code spans, URLs, Discord markup or move notation.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.ui import i18n
from bot.ui.i18n import SUPPORTED, catalogue, command_name

GLOSSARIES = Path(i18n.__file__).with_name("locales") / "glossary"
# The English terms the issue asks every glossary to settle (more may be added per language).
REQUIRED_TERMS = (
    "piece", "stack", "captive", "road", "cell", "home", "throw", "sticks", "team", "seat", "turn", "move",
    "resign", "ranked", "rating", "leaderboard", "ladder", "draw",
)
# What is not prose, and so never held to word or spacing rules: code spans, URLs, Discord markup
# (<@id>, <#id>, <t:123:R>), {placeholders}. Each becomes one neutral letter so the text around it stays intact.
NOT_PROSE = re.compile(r"`[^`]*`|https?://\S+|<[@#:/!&a-zA-Z][^>\s]*>|\{[^{}]*\}")


@dataclass(frozen=True)
class Term:
    name: str
    word: str
    uses: re.Pattern[str]
    forbidden: tuple[re.Pattern[str], ...]


@dataclass(frozen=True)
class Glossary:
    lang: str
    names: tuple[str, ...]
    terms: tuple[Term, ...]
    typography: tuple[tuple[re.Pattern[str], str], ...]
    space_before: Mapping[str, str]
    inside_guillemets: str | None


def _whole_words(pattern: str) -> re.Pattern[str]:
    return re.compile(rf"(?<!\w)(?:{pattern})(?!\w)", re.IGNORECASE)


def parse_glossary(text: str, lang: str) -> Glossary:
    data = tomllib.loads(text)
    terms = tuple(
        Term(name, entry["word"], _whole_words(entry["uses"]), tuple(_whole_words(p) for p in entry["forbidden"]))
        for name, entry in data["term"].items()
    )
    typography = data.get("typography", {})
    return Glossary(
        lang=lang,
        names=tuple(data.get("names", ())),
        terms=terms,
        typography=tuple((re.compile(rule["pattern"]), rule["why"]) for rule in typography.get("forbidden", ())),
        space_before=typography.get("space_before", {}),
        inside_guillemets=typography.get("inside_guillemets"),
    )


def load_glossary(lang: str) -> Glossary:
    return parse_glossary((GLOSSARIES / f"{lang}.toml").read_text(encoding="utf-8"), lang)


def prose(text: str) -> str:
    """The text a reader reads as words: markup and placeholders masked, bold and italics marks dropped."""
    return NOT_PROSE.sub("X", text).replace("**", "")


def messages(catalogue_: Mapping[str, i18n.Message]) -> Iterator[tuple[str, str]]:
    """(key, text) for every message, each plural form on its own."""
    for key, message in catalogue_.items():
        if isinstance(message, str):
            yield key, message
        else:
            for category, form in message.items():
                yield f"{key}[{category}]", form


# --- the checks ---------------------------------------------------------------------------------------


def _words(text: str, names: tuple[str, ...]) -> str:
    words = prose(text).replace("_", " ")
    for name in names:
        words = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", " ", words)
    return words


def term_violations(glossary: Glossary, catalogue_: Mapping[str, i18n.Message]) -> list[str]:
    """Every forbidden variant found, as "key: 'found' (term: use 'word')"."""
    found = []
    for key, text in messages(catalogue_):
        words = _words(text, glossary.names)
        for term in glossary.terms:
            for pattern in term.forbidden:
                for match in pattern.finditer(words):
                    found.append(f"{key}: {match.group(0)!r} ({term.name}: use {term.word!r})")
    return found


def unused_terms(glossary: Glossary, catalogue_: Mapping[str, i18n.Message]) -> list[str]:
    """Terms whose word appears in no message: the glossary names a word the catalogue does not use."""
    texts = [_words(text, glossary.names) for _, text in messages(catalogue_)]
    return [term.name for term in glossary.terms if not any(term.uses.search(text) for text in texts)]


def typography_violations(glossary: Glossary, catalogue_: Mapping[str, i18n.Message]) -> list[str]:
    found = []
    for key, text in messages(catalogue_):
        shown = prose(text)
        for pattern, why in glossary.typography:
            for match in pattern.finditer(shown):
                found.append(f"{key}: {match.group(0)!r} at {match.start()}: {why}")
        found += [f"{key}: {problem}" for problem in spacing_violations(shown, glossary)]
    return found


def spacing_violations(shown: str, glossary: Glossary) -> list[str]:
    """French spacing: the space before : ; ! ? % and inside « » must be the glossary's no-break space.

    A colon that is not followed by a space or the end is notation (2:H, Lancer:case), not punctuation.
    """
    found = []
    for index, char in enumerate(shown):
        before = shown[index - 1] if index else ""
        after = shown[index + 1] if index + 1 < len(shown) else ""
        required = glossary.space_before.get(char)
        if required is not None:
            if char == ":" and after and not after.isspace():
                continue
            if char in "!?" and before in "!?":
                continue
            if before != required:
                found.append(f"{char!r} at {index} has {before!r} before it, not {required!r}: {shown[:index + 1]!r}")
        inside = glossary.inside_guillemets
        if inside is not None and char == "«" and after != inside:
            found.append(f"'«' at {index} is followed by {after!r}, not {inside!r}")
        if inside is not None and char == "»" and before != inside:
            found.append(f"'»' at {index} follows {before!r}, not {inside!r}")
    return found


# --- the catalogues against their glossaries ---------------------------------------------------------------


@pytest.mark.parametrize("lang", SUPPORTED)
def test_every_language_has_a_glossary_of_the_required_terms(lang: str) -> None:
    names = {term.name for term in load_glossary(lang).terms}
    assert set(REQUIRED_TERMS) <= names, f"{lang} glossary lacks {sorted(set(REQUIRED_TERMS) - names)}"


@pytest.mark.parametrize("lang", SUPPORTED)
def test_the_glossary_terms_are_the_same_in_every_language_where_english_has_them(lang: str) -> None:
    english = {term.name for term in load_glossary("en").terms}
    names = {term.name for term in load_glossary(lang).terms}
    assert set(REQUIRED_TERMS) <= english & names


@pytest.mark.parametrize("lang", SUPPORTED)
def test_no_message_uses_a_forbidden_variant_of_a_game_term(lang: str) -> None:
    assert term_violations(load_glossary(lang), catalogue(lang)) == []


@pytest.mark.parametrize("lang", SUPPORTED)
def test_every_glossary_word_is_the_word_in_use(lang: str) -> None:
    assert unused_terms(load_glossary(lang), catalogue(lang)) == []


@pytest.mark.parametrize("lang", SUPPORTED)
def test_messages_follow_the_typography_of_their_language(lang: str) -> None:
    assert typography_violations(load_glossary(lang), catalogue(lang)) == []


def test_french_sets_a_no_break_space_before_every_high_sign() -> None:
    glossary = load_glossary("fr")
    assert dict(glossary.space_before) == {":": "\u00a0", ";": "\u202f", "!": "\u202f", "?": "\u202f", "%": "\u202f"}
    assert glossary.inside_guillemets == "\u00a0"
    spaced = [text for _, text in messages(catalogue("fr")) if re.search("[\u00a0\u202f][:;!?%]", text)]
    assert len(spaced) > 100  # the French catalogue really punctuates with them, not only passes vacuously


COMMAND_MENTION = re.compile(r"/([\w-]+) ([\w-]+)")


@pytest.mark.parametrize("lang", SUPPORTED)
def test_every_command_a_message_names_exists_under_that_name(lang: str) -> None:
    """"/puluc rules variant" or an English command name in a French sentence would send players nowhere."""
    group = i18n.t("cmd.puluc.name", lang)
    admin = i18n.t("admin.name", lang)
    subcommands = {i18n.t(key, lang) for key in catalogue("en") if key.startswith("cmd.") and key.endswith(".name")}
    assert command_name("puluc").message == "puluc"
    wrong = []
    for key, text in messages(catalogue(lang)):
        for found in COMMAND_MENTION.finditer(NOT_PROSE.sub("X", text)):
            if found.group(1) not in (group, admin) or found.group(2) not in subcommands:
                wrong.append(f"{key}: {found.group(0)}")
    assert wrong == []


# --- the checks themselves ---------------------------------------------------------------------------------

CHECKED = {
    "a": "Doucement\u00a0: réessayez\u202f!",
    "b": "{rate}\u202f% · `#{rank}` **{name}** · <t:123:R> · https://x.example/a?b=1 · 2:H ou 3:7 · Lancer:case",
    "c": "L’hôte appuie sur «\u00a0Commencer\u00a0».",
}


def test_the_spacing_check_passes_placeholders_code_urls_markup_and_notation() -> None:
    assert typography_violations(load_glossary("fr"), CHECKED) == []


@pytest.mark.parametrize(
    "text",
    ["Doucement : réessayez.", "Doucement: réessayez.", "{rate}% de victoires", "Vraiment ?",
     "sur « Commencer »", "« Commencer\u00a0»", "n’est pas ; voilà"],
)
def test_the_spacing_check_catches_a_plain_or_missing_space(text: str) -> None:
    assert typography_violations(load_glossary("fr"), {"x": text}) != []


@pytest.mark.parametrize(
    ("lang", "text"),
    [("en", "Move a pawn."), ("en", "The tower moves."), ("fr", "Toute la tour avance."),
     ("it", "Le pedine prigioniere."), ("uk", "Ваш хід."), ("uk", "Типові налаштування за замовчуванням."),
     ("it", "Torna al villaggio."), ("fr", "Votre classement est de 1200.")],
)
def test_the_term_check_catches_a_forbidden_variant(lang: str, text: str) -> None:
    assert term_violations(load_glossary(lang), {"x": text}) != []


def test_the_term_check_spares_names_placeholders_and_other_words() -> None:
    english = load_glossary("en")
    assert term_violations(english, {"x": "Village: one marked side. {village} `towers` <@1>"}) == []
    assert term_violations(load_glossary("fr"), {"x": "Votre tour : le tour passe."}) == []
    assert term_violations(load_glossary("it"), {"x": "Il Villaggio; la casa."}) == []
