"""Every message in the catalogue is used, and every message the code uses is in the catalogue.

The keys the code uses are found three ways, each explicit:
- literal keys: every string constant in `bot/` that looks like a key (its first part is one of the
  catalogue's top-level tables: "error.host_only", "game.title");
- keys built at run time from a template (f"perm.{name}"): every such f-string in `bot/` must be declared in
  `DYNAMIC` below with the values it can take, taken from the code's own constants where it has them, so a
  new variant without rules text, or a new template nobody declared, fails here;
- the slash-command surface (names, descriptions, options, choices): read from the real command tree with a
  translator that records every key Discord would be asked for.
"""

from __future__ import annotations

import ast
import itertools
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import get_args

import discord
import pytest
from discord import app_commands
from discord.ext import commands

import bot
from bot.app import EXTENSIONS
from bot.cogs.games.texts import BOARD_SECTIONS, HELP_SECTIONS
from bot.cogs.ladders.embeds import PRIVACY_SECTIONS
from bot.cogs.tournaments.texts import TABLE_COLUMNS, TABLE_FORMATS
from bot.ratings.types import LADDERS, Result, UnrankedReason
from bot.sessions.state import ADDED_RULES, AI_LEVELS
from bot.tournaments.types import FORMATS
from bot.ui import i18n
from bot.ui.i18n import FLAGS, GENERAL_SECTIONS, PRESET_FIELDS, SUPPORTED, catalogue
from bot.ui.replies import GAME_PERMISSIONS, THREAD_PERMISSIONS
from puluc import PRESETS, SETUPS
from renderer.texts import DEFAULT_TEXTS

BOT = Path(bot.__file__).parent
FILE_NAME = re.compile(r"\.(png|gif|json|toml|py|db|html|svg)$")  # "board.png" names a file, not the [board] table
COMMAND_TREE = "the command tree"  # keys that only the command tree can enumerate


def _each(values: Iterable[str]) -> list[tuple[str, ...]]:
    return [(value,) for value in values]


# Every key template the code builds at run time, with the values its holes take.
DYNAMIC: dict[str, list[tuple[str, ...]] | str] = {
    # i18n's command helpers: whatever the cogs ask for, which the command tree below enumerates
    "cmd.{}": COMMAND_TREE,  # a command's key; ".name", ".desc" and ".opt.<option>..." follow it
    "cmd.{}.{}": COMMAND_TREE,  # a command of a subcommand group (tournament create, season start)
    "choice.{}.{}": COMMAND_TREE,
    # choice labels shown outside the option lists
    "choice.difficulty.{}": _each(AI_LEVELS),
    "choice.ladder.{}": _each(LADDERS),
    "choice.language.{}": _each(("auto", *SUPPORTED)),
    # the settings group's own name and description
    "admin.{}": _each(("name", "desc")),
    # game messages
    "game.setup_{}": _each(SETUPS),
    "game.unranked.{}": _each(reason.value for reason in UnrankedReason),
    "variant.{}": _each(PRESETS),
    "option.{}": _each(ADDED_RULES),
    # a rate limit names who used it up (bot.limits.RateLimited.scope)
    "limits.{}": _each(("member", "server")),
    # a missing permission is named by its flag: the bot's own needs and the members' checks in the cogs
    "perm.{}": _each({*GAME_PERMISSIONS, *THREAD_PERMISSIONS, "manage_guild"}),
    # profiles and history
    "profile.history.{}": _each((*get_args(Result), "cancelled")),
    "profile.streak_{}": _each(get_args(Result)),
    "privacy.{}.title": _each(PRIVACY_SECTIONS),
    "privacy.{}.body": _each(PRIVACY_SECTIONS),
    # help and rules pages
    "help.{}.title": _each(HELP_SECTIONS),
    "help.{}.body": _each(HELP_SECTIONS),
    "help.board.{}.title": _each(BOARD_SECTIONS),
    "help.board.{}.body": _each(BOARD_SECTIONS),
    "rules.{}.title": _each(GENERAL_SECTIONS),
    "rules.{}.body": _each(GENERAL_SECTIONS),
    "rules.flag.{}.title": _each(FLAGS),
    "rules.flag.{}.body": _each(FLAGS),
    "rules.label.{}": _each(PRESET_FIELDS),
    "rules.preset.{}.{}": list(itertools.product(PRESETS, PRESET_FIELDS)),
    "rules.preset.{}.summary": _each(PRESETS),
    "choice.variant.{}": _each(PRESETS),  # a rules page's title
    # tournaments: the format's short name, the standings table's columns and each table format's tie-breaks
    "tournament.format.{}": _each(FORMATS),
    "tournament.standings.col_{}": _each(TABLE_COLUMNS),
    "tournament.standings.tiebreaks_{}": _each(TABLE_FORMATS),
    # words drawn on the images, one per renderer text; and each variant's example board on its rules page
    "board.{}": _each(DEFAULT_TEXTS),
    "board.example.{}": _each(PRESETS),
}


def namespaces() -> set[str]:
    return {key.split(".", 1)[0] for key in catalogue("en")}


def looks_like_key(text: str) -> bool:
    """"error.host_only", "cmd.{}.name" (a template), but not "bot.cogs.games.play" or a file name like "board.png"."""
    if FILE_NAME.search(text):
        return False
    return bool(re.fullmatch(r"[a-z][a-z_-]*(\.[a-z0-9_{}-]+)+", text)) and text.split(".", 1)[0] in namespaces()


def _template(node: ast.JoinedStr) -> str:
    parts = []
    for value in node.values:
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            parts.append(value.value.replace("{", "{{").replace("}", "}}"))
        else:
            parts.append("{}")
    return "".join(parts)


def code_strings() -> Iterator[tuple[str, str, bool]]:
    """(file, text, is_template) for every string constant and f-string in the bot's code."""
    for path in sorted(BOT.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        inside_fstrings = {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values}
        for node in ast.walk(tree):
            if isinstance(node, ast.JoinedStr):
                yield str(path.relative_to(BOT.parent)), _template(node), True
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in inside_fstrings:
                yield str(path.relative_to(BOT.parent)), node.value, False


def literal_keys() -> dict[str, str]:
    """Key-like string constants in the code, with a file that uses each."""
    return {text: where for where, text, template in code_strings() if not template and looks_like_key(text)}


def templates_in_code() -> dict[str, str]:
    return {text: where for where, text, template in code_strings() if template and looks_like_key(text)}


def expand(template: str, values: Iterable[tuple[str, ...]]) -> set[str]:
    return {template.format(*fill) for fill in values}


class KeyRecorder(app_commands.Translator):
    """Notes every catalogue key Discord would be asked to translate, and translates nothing."""

    def __init__(self) -> None:
        self.keys: set[str] = set()

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        self.keys.add(string.extras.get("key", string.message))
        return None


async def command_tree_keys() -> set[str]:
    """Every key of the published commands: the bot's real extensions, loaded without connecting."""
    client = commands.Bot(command_prefix=commands.when_mentioned, intents=discord.Intents.none())
    for name in EXTENSIONS:
        await client.load_extension(name)
    recorder = KeyRecorder()
    for command in client.tree.get_commands():
        await command.get_translated_payload(client.tree, recorder)
    return recorder.keys


async def used_keys() -> set[str]:
    used = set(literal_keys()) | await command_tree_keys()
    for template, values in DYNAMIC.items():
        if values != COMMAND_TREE:
            assert not isinstance(values, str)
            used |= expand(template, values)
    return used


# --- the tests ---------------------------------------------------------------------------------------------


def test_every_template_in_the_code_is_declared_with_its_values() -> None:
    undeclared = {template: where for template, where in templates_in_code().items() if template not in DYNAMIC}
    assert undeclared == {}, "declare these in DYNAMIC with the values they take"


def test_every_declared_template_is_still_in_the_code() -> None:
    assert sorted(set(DYNAMIC) - set(templates_in_code())) == []


def test_every_key_the_code_uses_is_in_the_catalogue() -> None:
    missing = {key: where for key, where in literal_keys().items() if key not in catalogue("en")}
    assert missing == {}


def test_every_key_a_template_can_build_is_in_the_catalogue() -> None:
    missing = []
    for template, values in DYNAMIC.items():
        if values != COMMAND_TREE:
            assert not isinstance(values, str)
            missing += sorted(expand(template, values) - set(catalogue("en")))
    assert missing == []


async def test_every_command_string_is_in_the_catalogue() -> None:
    assert sorted(await command_tree_keys() - set(catalogue("en"))) == []


async def test_every_catalogue_key_is_used() -> None:
    assert sorted(set(catalogue("en")) - await used_keys()) == []


def test_key_detection_finds_literals_and_templates_but_not_module_paths() -> None:
    assert looks_like_key("error.host_only") and looks_like_key("perm.{}")
    assert not looks_like_key("bot.cogs.games.play") and not looks_like_key("board.png") and not looks_like_key("error")
    assert "error.ranked_off" in literal_keys()  # a Refusal in the lobby cog
    assert templates_in_code()["perm.{}"] == "bot/ui/replies.py"


@pytest.mark.parametrize("template", [t for t, values in DYNAMIC.items() if values != COMMAND_TREE])
def test_each_declared_template_builds_keys(template: str) -> None:
    values = DYNAMIC[template]
    assert not isinstance(values, str) and values, template
    assert all(len(fill) == template.count("{}") for fill in values)
    assert i18n.catalogue("en")  # the catalogue loads


async def test_a_key_nothing_uses_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    real = dict(catalogue("en"))
    with_extra = {**real, "game.nobody_says_this": "Nobody says this."}
    monkeypatch.setattr(f"{__name__}.catalogue", lambda lang: with_extra)
    assert sorted(set(with_extra) - await used_keys()) == ["game.nobody_says_this"]


@pytest.mark.parametrize("lang", SUPPORTED)
async def test_every_key_the_code_uses_is_in_every_language(lang: str) -> None:
    """Not only in English: a key missing in Spanish would show English text to a Spanish server."""
    assert sorted(await used_keys() - set(catalogue(lang))) == []
