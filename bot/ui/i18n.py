"""Message catalogues and language choice for the bot: the one place that turns a key into text.

Every user-visible string lives in `bot/ui/locales/<lang>.toml` (one file per supported language), never in
code. This module loads those files once, picks the language for a Discord locale, formats a message with
named placeholders and CLDR plural categories, and feeds localized command names to Discord through
`PulucTranslator`. It works without a running bot (no Discord, no state per guild), so sessions and tests
can format messages directly.

Catalogue layout: nested TOML tables flatten to dotted keys (`[error] not_your_turn = "..."` is the key
`error.not_your_turn`). A table whose keys are all CLDR plural categories (`one`, `few`, `many`, `other`)
is one plural message, chosen by `count`.
"""

from __future__ import annotations

import string
import tomllib
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Final

from discord import Locale, app_commands

from puluc import PRESETS

__all__ = [
    "DEFAULT_LANGUAGE",
    "SUPPORTED",
    "CatalogueError",
    "Message",
    "MissingPlaceholderError",
    "PluralCountError",
    "PulucTranslator",
    "RulesPage",
    "UnknownMessageError",
    "UnsupportedLanguageError",
    "catalogue",
    "choice_name",
    "choices",
    "command_description",
    "command_name",
    "flags",
    "is_valid_command_name",
    "join_list",
    "language_for",
    "option_description",
    "option_name",
    "parse_catalogue",
    "parse_language",
    "placeholders",
    "plural_category",
    "presets",
    "public_language",
    "required_plural_categories",
    "rules_page",
    "t",
]

SUPPORTED: Final = ("en", "uk", "it", "fr", "es")
DEFAULT_LANGUAGE: Final = "en"
_LOCALES: Final = Path(__file__).resolve().with_name("locales")
PLURAL_CATEGORIES: Final = frozenset({"zero", "one", "two", "few", "many", "other"})

# A message is plain text, or a plural table mapping CLDR categories to text.
Message = str | Mapping[str, str]


class CatalogueError(ValueError):
    """A catalogue file is malformed (bad value type, plural table mixed with other keys)."""


class UnknownMessageError(ValueError):
    """The key exists in no catalogue, not even English: a typo in code."""


class UnsupportedLanguageError(ValueError):
    """A language code outside `SUPPORTED` was given where one of them is required."""


class MissingPlaceholderError(ValueError):
    """A message was formatted without a value for one of its `{placeholders}`."""


class PluralCountError(ValueError):
    """A plural message was formatted without an integer `count`."""


# --- plural rules ---------------------------------------------------------------------------------
# CLDR plural rules restricted to integers (counts of pieces, seconds, games are never fractional).
# Source: CLDR plurals.xml (v44). French, Italian and Spanish put exact non-zero multiples of a million in
# "many" ("1 million de pièces", "1 millón de fichas"); messages may omit "many" there and then use "other".


def _plural_one_other(n: int) -> str:
    return "one" if n == 1 else "other"


def _plural_fr(n: int) -> str:
    return "one" if n in (0, 1) else "other"


def _plural_uk(n: int) -> str:
    last, last_two = n % 10, n % 100
    if last == 1 and last_two != 11:
        return "one"
    if 2 <= last <= 4 and not 12 <= last_two <= 14:
        return "few"
    return "many"


_PLURAL_RULES: Final = {
    "en": _plural_one_other, "it": _plural_one_other, "es": _plural_one_other, "fr": _plural_fr, "uk": _plural_uk,
}
_REQUIRED_CATEGORIES: Final = {
    "en": frozenset({"one", "other"}),
    "it": frozenset({"one", "other"}),
    "fr": frozenset({"one", "other"}),
    "es": frozenset({"one", "other"}),
    "uk": frozenset({"one", "few", "many"}),
}
_MILLION_IS_MANY: Final = frozenset({"fr", "it", "es"})


def plural_category(lang: str, n: int) -> str:
    """The CLDR plural category of the integer `n` in `lang` ("one", "few", "many" or "other")."""
    rule = _PLURAL_RULES.get(lang)
    if rule is None:
        raise UnsupportedLanguageError(f"no plural rules for language {lang!r}; use one of {SUPPORTED}")
    if isinstance(n, bool) or not isinstance(n, int):
        raise PluralCountError(f"a plural count must be an int, got {n!r}")
    n = abs(n)
    if lang in _MILLION_IS_MANY and n != 0 and n % 1_000_000 == 0:
        return "many"
    return rule(n)


def required_plural_categories(lang: str) -> frozenset[str]:
    """The categories every plural message in `lang` must define (the rest fall back to "other")."""
    return _REQUIRED_CATEGORIES[lang]


# --- languages ------------------------------------------------------------------------------------


def language_for(locale: str | Locale | None) -> str:
    """The supported language for a Discord locale ("en-GB", "uk", `Locale.french`; Spain's "es-ES" and Latin
    America's "es-419" are both Spanish); English otherwise."""
    if locale is None:
        return DEFAULT_LANGUAGE
    code = locale.value if isinstance(locale, Locale) else locale
    base = code.replace("_", "-").split("-", 1)[0].lower()
    return base if base in SUPPORTED else DEFAULT_LANGUAGE


def parse_language(text: str) -> str:
    """Validate a language code typed or stored by `/puluc settings`; "auto" means the server locale."""
    code = text.strip().lower()
    if code == "auto" or code in SUPPORTED:
        return code
    raise UnsupportedLanguageError(f"unknown language {text!r}; choose auto or one of {', '.join(SUPPORTED)}")


def public_language(guild_locale: str | Locale | None, override: str | None = None) -> str:
    """Language for messages the whole channel sees: the server's setting, else its Discord locale."""
    if override is not None and parse_language(override) != "auto":
        return parse_language(override)
    return language_for(guild_locale)


# --- catalogues -----------------------------------------------------------------------------------


def _flatten(table: Mapping[str, object], prefix: str, out: dict[str, Message], source: str) -> None:
    for name, value in table.items():
        key = f"{prefix}{name}"
        if isinstance(value, str):
            out[key] = value
        elif isinstance(value, dict) and value and set(value) <= PLURAL_CATEGORIES:
            if not all(isinstance(form, str) for form in value.values()):
                raise CatalogueError(f"{source}: plural forms of {key!r} must all be text")
            out[key] = MappingProxyType(dict(value))
        elif isinstance(value, dict):
            if set(value) & PLURAL_CATEGORIES:
                raise CatalogueError(f"{source}: {key!r} mixes plural categories with other keys")
            _flatten(value, f"{key}.", out, source)
        else:
            raise CatalogueError(f"{source}: {key!r} must be text or a table, got {type(value).__name__}")


def parse_catalogue(text: str, source: str = "<catalogue>") -> Mapping[str, Message]:
    """Flatten the TOML text of one catalogue into a read-only mapping of dotted keys to messages."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CatalogueError(f"{source}: {exc}") from exc
    flat: dict[str, Message] = {}
    _flatten(data, "", flat, source)
    return MappingProxyType(flat)


@cache
def catalogue(lang: str) -> Mapping[str, Message]:
    """All messages of one language; each file is read once per process."""
    if lang not in SUPPORTED:
        raise UnsupportedLanguageError(f"no catalogue for {lang!r}; use one of {SUPPORTED}")
    # Next to this module rather than `resources.files("bot")`: a `tests/bot` folder on sys.path can shadow
    # the `bot` package name, and the catalogues ship as package data in this very directory anyway.
    text = (_LOCALES / f"{lang}.toml").read_text(encoding="utf-8")
    return parse_catalogue(text, f"bot/ui/locales/{lang}.toml")


def placeholders(message: Message) -> frozenset[str]:
    """Names of the `{placeholders}` a message uses (all plural forms together)."""
    forms = [message] if isinstance(message, str) else list(message.values())
    names: set[str] = set()
    for form in forms:
        for _, field, _, _ in string.Formatter().parse(form):
            if field is not None:
                names.add(field.split(".", 1)[0].split("[", 1)[0])
    return frozenset(names)


def _lookup(key: str, lang: str) -> tuple[Message, str]:
    found = catalogue(lang).get(key)
    if found is not None:
        return found, lang
    fallback = catalogue(DEFAULT_LANGUAGE).get(key)
    if fallback is None:
        raise UnknownMessageError(f"no message {key!r} in any catalogue")
    return fallback, DEFAULT_LANGUAGE


def t(key: str, lang: str | Locale | None, /, **params: object) -> str:
    """The message `key` in `lang` (a code or Discord locale), formatted with `params`.

    A plural message needs `count=<int>`, which also fills `{count}`. A key missing in `lang` falls back
    to English; a key missing everywhere, or a placeholder without a value, raises.
    """
    message, found_in = _lookup(key, language_for(lang))
    if isinstance(message, str):
        template = message
    else:
        count = params.get("count")
        if not isinstance(count, int) or isinstance(count, bool):
            raise PluralCountError(f"message {key!r} is a plural and needs count=<int>, got {count!r}")
        category = plural_category(found_in, count)
        template = message.get(category, message.get("other", ""))
        if not template:
            raise CatalogueError(f"{found_in}: plural {key!r} has neither {category!r} nor 'other'")
    try:
        return template.format(**params)
    except KeyError as exc:
        raise MissingPlaceholderError(f"message {key!r} needs a value for {{{exc.args[0]}}}") from exc


def join_list(items: Sequence[str], lang: str | Locale | None, /, *, narrow: bool = False) -> str:
    """`items` as one list in the language's words: "a", "a and b", "a, b and c" (`list.and` joins the last two,
    `list.comma` the others); a `narrow` list (a button's effects) uses `list.comma` throughout: "a, b, c"."""
    if not items:
        return ""
    text = items[-1]
    for index in range(len(items) - 2, -1, -1):
        key = "list.and" if index == len(items) - 2 and not narrow else "list.comma"
        text = t(key, lang, first=items[index], rest=text)
    return text


# --- slash command localization -------------------------------------------------------------------

_DEVANAGARI_AND_THAI: Final = ((0x0900, 0x097F), (0xA8E0, 0xA8FF), (0x0E00, 0x0E7F))


def _name_char_ok(char: str) -> bool:
    if char in "-_" or unicodedata.category(char)[0] in "LN":
        return True
    return any(low <= ord(char) <= high for low, high in _DEVANAGARI_AND_THAI)


def is_valid_command_name(name: str) -> bool:
    """Whether Discord accepts `name` for a command or option: `^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$`,
    lowercase (letters that have a lowercase form must use it)."""
    return 1 <= len(name) <= 32 and name == name.lower() and all(_name_char_ok(c) for c in name)


def _english_locale_str(key: str) -> app_commands.locale_str:
    message = catalogue(DEFAULT_LANGUAGE).get(key)
    if not isinstance(message, str):
        raise UnknownMessageError(f"no English text {key!r} for a command string")
    return app_commands.locale_str(message, key=key)


def _command_key(command: str, group: str | None) -> str:
    """`cmd.<command>`, or `cmd.<group>.<command>` for a command of a subcommand group (`tournament create`)."""
    return f"cmd.{command}" if group is None else f"cmd.{group}.{command}"


def command_name(command: str, group: str | None = None) -> app_commands.locale_str:
    """Localizable name of `/puluc` ("puluc"), of a subcommand ("new", "forget-me"), or of a command of a
    subcommand group (`command_name("create", group="tournament")`)."""
    return _english_locale_str(_command_key(command, group) + ".name")


def command_description(command: str, group: str | None = None) -> app_commands.locale_str:
    return _english_locale_str(_command_key(command, group) + ".desc")


def option_name(command: str, option: str, group: str | None = None) -> app_commands.locale_str:
    return _english_locale_str(_command_key(command, group) + f".opt.{option}.name")


def option_description(command: str, option: str, group: str | None = None) -> app_commands.locale_str:
    return _english_locale_str(_command_key(command, group) + f".opt.{option}.desc")


def choice_name(group: str, value: str) -> app_commands.locale_str:
    return _english_locale_str(f"choice.{group}.{value}")


def choices(group: str) -> list[app_commands.Choice[str]]:
    """Every choice of a group ("variant", "setup", "difficulty", ...) in catalogue order."""
    prefix = f"choice.{group}."
    values = [key.removeprefix(prefix) for key in catalogue(DEFAULT_LANGUAGE) if key.startswith(prefix)]
    if not values:
        raise UnknownMessageError(f"no choices named {group!r} in the catalogue")
    return [app_commands.Choice(name=choice_name(group, value), value=value) for value in values]


class PulucTranslator(app_commands.Translator):
    """Gives Discord the localized command, option and choice strings from the catalogues.

    The key is the `key` extra of the `locale_str` (as built by `command_name` and friends), else the
    message itself. English and unsupported locales return None so discord.py keeps the default.
    """

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        lang = language_for(locale)
        if lang == DEFAULT_LANGUAGE:
            return None
        key = string.extras.get("key", string.message)
        message = catalogue(lang).get(key)
        return message if isinstance(message, str) else None


# --- rules pages ----------------------------------------------------------------------------------

GENERAL_SECTIONS: Final = ("road", "sticks", "moves", "stacks", "arrival", "end", "setups")
PRESET_FIELDS: Final = ("route", "capture", "end", "sticks")


@dataclass(frozen=True)
class RulesPage:
    """Text of one rules embed; the cog turns it into a `discord.Embed`."""

    title: str
    description: str
    fields: tuple[tuple[str, str], ...]
    footer: str


# Rule flags with a rules text, in the order the general rules page explains them.
FLAGS: Final = ("fire", "scorpion", "eagle_returns", "one_active")


def presets() -> tuple[str, ...]:
    """Preset names that have a rules page: every variant the engine knows."""
    return tuple(PRESETS)


def flags() -> tuple[str, ...]:
    """Rule flags explained on the general rules page."""
    return FLAGS


def rules_page(lang: str | Locale | None, preset: str | None = None) -> RulesPage:
    """The general rules (with every flag) when `preset` is None, else the page of one preset."""
    if preset is None:
        fields = [(t(f"rules.{s}.title", lang), t(f"rules.{s}.body", lang)) for s in GENERAL_SECTIONS]
        fields += [(t(f"rules.flag.{f}.title", lang), t(f"rules.flag.{f}.body", lang)) for f in flags()]
        return RulesPage(t("rules.title", lang), t("rules.intro", lang), tuple(fields), t("rules.footer", lang))
    if preset not in presets():
        raise UnknownMessageError(f"no rules text for preset {preset!r}; presets: {', '.join(presets())}")
    fields = [(t(f"rules.label.{f}", lang), t(f"rules.preset.{preset}.{f}", lang)) for f in PRESET_FIELDS]
    title = t(f"choice.variant.{preset}", lang)  # the name and what it is, as the variant picker shows it
    summary = t(f"rules.preset.{preset}.summary", lang)
    return RulesPage(title, summary, tuple(fields), t("rules.footer", lang))
