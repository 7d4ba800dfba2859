"""The renderer's words in one language (`renderer.texts.DEFAULT_TEXTS` keys), as a mapping that crosses a process
boundary as its language code.

A board job (`bot.ui.pictures.BoardRequest`) carries the words its picture draws. Pickled as a dictionary they
were about 1.3 KB of the job's 1.7 KB; a `BoardWords` pickles as a call of `board_words` with the language's
code, and a compute worker reads each language's words once, from the `[board]` table of the same catalogues
`bot.ui.i18n` reads (a key a language lacks falls back to English, as there). This module reads TOML files
only: a worker loads it without `bot.ui.i18n`, which imports discord.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path

LOCALES = Path(__file__).with_name("locales")
FALLBACK = "en"


class BoardWords(Mapping[str, str]):
    """The renderer's words in `lang`: an immutable mapping, pickled as `board_words(lang)`."""

    __slots__ = ("_words", "lang")

    def __init__(self, lang: str, words: Mapping[str, str]) -> None:
        self.lang = lang
        self._words = dict(words)

    def __getitem__(self, key: str) -> str:
        return self._words[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._words)

    def __len__(self) -> int:
        return len(self._words)

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return board_words, (self.lang,)

    def __repr__(self) -> str:
        return f"BoardWords({self.lang!r})"


def _board_table(lang: str) -> Mapping[str, object]:
    """The `[board]` table of `lang`'s catalogue, by the dotted keys `bot.ui.i18n` gives them ("board.score")."""
    path = LOCALES / f"{lang}.toml"
    if not path.is_file():
        raise ValueError(f"no catalogue for {lang!r} in {LOCALES}")
    table = tomllib.loads(path.read_text(encoding="utf-8")).get("board", {})
    if not isinstance(table, dict):
        raise ValueError(f"bot/ui/locales/{lang}.toml: [board] must be a table")
    return {f"board.{name}": value for name, value in table.items()}


@cache
def board_words(lang: str) -> BoardWords:
    """The renderer's words in `lang` (a supported language's code), each file read once per process."""
    from renderer.texts import DEFAULT_TEXTS

    own, fallback = _board_table(lang), _board_table(FALLBACK)
    found: dict[str, str] = {}
    for key in DEFAULT_TEXTS:
        message = own.get(f"board.{key}") or fallback[f"board.{key}"]
        if not isinstance(message, str):
            raise ValueError(f"board.{key} in {lang} must be text, not a plural table")
        found[key] = message
    return BoardWords(lang, found)
