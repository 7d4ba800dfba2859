"""The renderer's words in a language: the catalogues' [board] table with English for what a language lacks, and
pickled for a compute worker as the language's code rather than the words."""

from __future__ import annotations

import pickle

import pytest

from bot.cogs.games.boards import board_texts
from bot.ui.board_words import BoardWords, board_words
from bot.ui.i18n import DEFAULT_LANGUAGE, SUPPORTED, catalogue
from renderer.texts import DEFAULT_TEXTS


@pytest.mark.parametrize("lang", SUPPORTED)
def test_the_words_are_the_catalogues(lang: str) -> None:
    expected = {
        key: catalogue(lang).get(f"board.{key}") or catalogue(DEFAULT_LANGUAGE)[f"board.{key}"] for key in DEFAULT_TEXTS
    }
    assert dict(board_texts(lang)) == expected


@pytest.mark.parametrize("lang", SUPPORTED)
def test_a_job_carries_the_language_not_the_words(lang: str) -> None:
    words = board_texts(lang)
    data = pickle.dumps(words, protocol=pickle.HIGHEST_PROTOCOL)
    assert len(data) < 100 < len(pickle.dumps(dict(words), protocol=pickle.HIGHEST_PROTOCOL))
    assert pickle.loads(data) == words


def test_a_discord_locale_reads_its_language() -> None:
    assert board_texts("uk") is board_words("uk")
    assert board_texts("es-419") is board_words("es")
    assert board_texts("xx") is board_words(DEFAULT_LANGUAGE)


def test_an_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="no catalogue"):
        board_words("xx")
    assert isinstance(board_words("fr"), BoardWords)
