"""Member-typed text shown as typed: no mention, link or markdown survives `plain` (bot/ui/safe.py)."""

from __future__ import annotations

import re

import pytest

from bot.ui.safe import in_code, pings, plain

MENTIONS = re.compile(r"<(@[!&]?|#|/[\w -]+:|a?:\w+:|t:)\d+")


@pytest.mark.parametrize("typed", [
    "<@123456789012345678>", "<@!123456789012345678>", "<@&123456789012345678>", "<#123456789012345678>",
    "</puluc new:123456789012345678>", "<t:1800000000:R>", "<a:party:123456789012345678>",
])
def test_no_mention_survives(typed: str) -> None:
    assert not MENTIONS.search(plain(typed))


@pytest.mark.parametrize("typed", ["@everyone", "@here", "hi @everyone!"])
def test_everyone_and_here_lose_their_meaning(typed: str) -> None:
    assert not re.search(r"@(everyone|here)", plain(typed))


def test_a_masked_link_shows_its_text_and_target_as_words() -> None:
    shown = plain("[free prize](https://evil.example/x)")
    assert shown.startswith("\\[")  # an escaped bracket opens no masked link
    assert "https://" not in shown  # and the target is no link either


@pytest.mark.parametrize("typed", ["**bold**", "__under__", "~~gone~~", "`code`", "||spoiler||", "# Head", "> quote"])
def test_markdown_is_escaped(typed: str) -> None:
    shown = plain(typed)
    assert shown != typed and shown.replace("\\", "") == typed


@pytest.mark.parametrize("typed", ["alice", "Jean-Luc O'Neil", "Łucja Ż.", "Пулук", "a.b"])
def test_ordinary_names_are_unchanged(typed: str) -> None:
    assert plain(typed) == typed


def test_a_backtick_cannot_end_a_code_block() -> None:
    assert "`" not in in_code("```\n@everyone")


def test_pings_names_exactly_the_members_given() -> None:
    assert dict(pings(3, None, 1, 3).to_dict()) == {"parse": [], "users": [1, 3]}
    assert dict(pings().to_dict()) == {"parse": [], "users": []}
