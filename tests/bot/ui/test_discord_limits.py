"""Discord accepts every command the bot publishes, in every language it publishes.

The payloads are the ones the bot really syncs: its extensions loaded without connecting, each command
translated by `PulucTranslator` for every locale Discord has. Each name, description and choice is held to
Discord's rules for application commands:
- names (commands, subcommand groups, subcommands, options) match `^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$`
  and are lowercase wherever a letter has a lowercase form;
- descriptions have 1 to 100 characters, choice names 1 to 100, string choice values at most 100;
- at most 25 options per command or group, 25 choices per option;
- names are unique among their siblings in every locale (two options both called "variante" cannot be typed);
- a whole command stays within 8000 characters, counting for each field its longest text in any locale.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import discord
import pytest
from discord import Locale
from discord.ext import commands

from bot.app import EXTENSIONS
from bot.ui.i18n import SUPPORTED, PulucTranslator, is_valid_command_name, language_for

Payload = Mapping[str, Any]

MAX_NAME, MAX_DESCRIPTION, MAX_CHOICE, MAX_OPTIONS, MAX_CHOICES, MAX_COMMAND = 32, 100, 100, 25, 25, 8000
SUBCOMMAND, GROUP = 1, 2
DEFAULT = "default"  # the text Discord shows where a locale has no translation: the English one


async def published_commands() -> list[dict[str, Any]]:
    """The payload of every top-level command, translated for every Discord locale."""
    client = commands.Bot(command_prefix=commands.when_mentioned, intents=discord.Intents.none())
    for name in EXTENSIONS:
        await client.load_extension(name)
    return [await command.get_translated_payload(client.tree, PulucTranslator())
            for command in client.tree.get_commands()]


@pytest.fixture(scope="module")
def payloads() -> list[dict[str, Any]]:
    import asyncio

    return asyncio.run(published_commands())


def texts(node: Payload, field: str) -> dict[str, str]:
    """A field's text by locale, the default (English) one under DEFAULT."""
    return {DEFAULT: node[field], **(node.get(f"{field}_localizations") or {})}


def in_locale(node: Payload, field: str, locale: str) -> str:
    return str((node.get(f"{field}_localizations") or {}).get(locale, node[field]))


def walk(node: Payload, path: str = "") -> Iterator[tuple[str, Payload]]:
    """Every command, group, subcommand and option under `node`, with a readable path."""
    here = f"{path} {node['name']}".strip()
    yield here, node
    for option in node.get("options", []):
        yield from walk(option, here)


def choices(node: Payload) -> list[Payload]:
    return list(node.get("choices") or [])


# --- the rules, each a function of one payload, so the failing cases below can prove they bite -------------


def name_problems(payload: Payload) -> list[str]:
    found = []
    for where, node in walk(payload):
        for locale, name in texts(node, "name").items():
            if not is_valid_command_name(name) or len(name) > MAX_NAME:
                found.append(f"{where} [{locale}]: name {name!r}")
    return found


def length_problems(payload: Payload) -> list[str]:
    found = []
    for where, node in walk(payload):
        for locale, text in texts(node, "description").items():
            if not 1 <= len(text) <= MAX_DESCRIPTION:
                found.append(f"{where} [{locale}]: description of {len(text)} characters")
        for choice in choices(node):
            for locale, text in texts(choice, "name").items():
                if not 1 <= len(text) <= MAX_CHOICE:
                    found.append(f"{where} [{locale}]: choice {text!r} of {len(text)} characters")
            if isinstance(choice["value"], str) and not 1 <= len(choice["value"]) <= MAX_CHOICE:
                found.append(f"{where}: choice value {choice['value']!r}")
    return found


def count_problems(payload: Payload) -> list[str]:
    found = []
    for where, node in walk(payload):
        if len(node.get("options", [])) > MAX_OPTIONS:
            found.append(f"{where}: {len(node['options'])} options")
        if len(choices(node)) > MAX_CHOICES:
            found.append(f"{where}: {len(choices(node))} choices")
    return found


def locales_of(payload: Payload) -> set[str]:
    found: set[str] = set()
    for _, node in walk(payload):
        found |= set(node.get("name_localizations") or {})
    return found


def duplicate_problems(payload: Payload) -> list[str]:
    """Siblings (subcommands of a group, options of a command) must differ by name in every locale."""
    found = []
    for where, node in walk(payload):
        siblings = node.get("options", [])
        for locale in (DEFAULT, *sorted(locales_of(payload))):
            names = [in_locale(sibling, "name", locale) for sibling in siblings]
            twice = sorted({name for name in names if names.count(name) > 1})
            if twice:
                found.append(f"{where} [{locale}]: {twice} twice")
    return found


def size(payload: Payload) -> int:
    """Discord's measure of a command: names, descriptions and choice names at their longest in any locale,
    plus the choices' values."""
    total = 0
    for _, node in walk(payload):
        total += max(map(len, texts(node, "name").values()))
        total += max(map(len, texts(node, "description").values()))
        for choice in choices(node):
            total += max(map(len, texts(choice, "name").values())) + len(str(choice["value"]))
    return total


# --- the published commands --------------------------------------------------------------------------------


def test_every_language_is_published_for_every_discord_locale_it_covers(payloads: list[dict[str, Any]]) -> None:
    expected = {locale.value for locale in Locale if language_for(locale) != "en"}
    for payload in payloads:
        assert locales_of(payload) == expected, payload["name"]
    assert {"es-ES", "es-419", "uk", "it", "fr"} <= expected
    assert {language_for(locale) for locale in expected} == set(SUPPORTED) - {"en"}


def test_every_name_is_one_discord_accepts(payloads: list[dict[str, Any]]) -> None:
    assert [problem for payload in payloads for problem in name_problems(payload)] == []


def test_every_description_and_choice_fits_discord(payloads: list[dict[str, Any]]) -> None:
    assert [problem for payload in payloads for problem in length_problems(payload)] == []


def test_no_command_has_too_many_options_or_choices(payloads: list[dict[str, Any]]) -> None:
    assert [problem for payload in payloads for problem in count_problems(payload)] == []


def test_sibling_names_differ_in_every_locale(payloads: list[dict[str, Any]]) -> None:
    assert [problem for payload in payloads for problem in duplicate_problems(payload)] == []


def test_every_command_stays_within_discords_total_size(payloads: list[dict[str, Any]]) -> None:
    sizes = {payload["name"]: size(payload) for payload in payloads}
    assert all(0 < total <= MAX_COMMAND for total in sizes.values()), sizes


def test_the_walk_reaches_subcommands_of_groups_and_their_choices(payloads: list[dict[str, Any]]) -> None:
    puluc = next(payload for payload in payloads if payload["name"] == "puluc")
    paths = dict(walk(puluc))
    assert paths["puluc tournament create format"]["choices"]  # an option of a subcommand of a group
    assert in_locale(paths["puluc tournament create"], "name", "es-419") == "crear"
    assert in_locale(paths["puluc new variant"], "name", "es-ES") == "variante"
    assert paths["puluc tournament"]["type"] == GROUP and paths["puluc new"]["type"] == SUBCOMMAND


# --- the checks catch what they are for --------------------------------------------------------------------


def node(name: str, description: str = "A description", **extra: Any) -> dict[str, Any]:
    return {"name": name, "description": description, **extra}


@pytest.mark.parametrize("bad", ["Nueva", "dos palabras", "x" * 33, "¿qué?", ""])
def test_a_bad_localized_name_is_caught(bad: str) -> None:
    assert name_problems(node("new", name_localizations={"es-ES": bad})) != []


@pytest.mark.parametrize(
    "payload",
    [node("new", description_localizations={"es-419": "d" * 101}),
     node("new", description_localizations={"fr": ""}),
     node("new", options=[node("variant", choices=[{"name": "Bell", "value": "bell",
                                                     "name_localizations": {"uk": "б" * 101}}])]),
     node("new", options=[node("variant", choices=[{"name": "Bell", "value": "v" * 101}])])],
)
def test_a_description_or_choice_too_long_is_caught(payload: dict[str, Any]) -> None:
    assert length_problems(payload) != []


def test_two_options_sharing_a_name_in_one_locale_are_caught() -> None:
    payload = node("new", options=[node("variant", name_localizations={"es-ES": "variante"}),
                                   node("default_variant", name_localizations={"es-ES": "variante"})])
    assert duplicate_problems(payload) == ["new [es-ES]: ['variante'] twice"]


def test_too_many_options_or_choices_are_caught() -> None:
    many = [{"name": f"c{i}", "value": f"c{i}"} for i in range(26)]
    assert count_problems(node("new", options=[node(f"o{i}") for i in range(26)])) != []
    assert count_problems(node("new", options=[node("o", choices=many)])) != []


def test_the_size_counts_the_longest_locale_of_each_field() -> None:
    choice = {"name": "n", "value": "vv", "name_localizations": {"fr": "nnn"}}
    payload = node("ab", "cde", name_localizations={"uk": "abcd"}, options=[node("x", "y", choices=[choice])])
    assert size(payload) == 4 + 3 + 1 + 1 + 3 + 2
