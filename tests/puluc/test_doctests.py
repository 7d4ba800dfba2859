"""The examples in puluc's docstrings run and hold: the public API shown at work, as python-chess shows its own
(Rules, Position and Move, PPN written and read back, throws, legal moves, play, the outcome, a record)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import puluc
from puluc import Game, Move, Position, Rules

MODULES = ["puluc", *sorted(info.name for info in pkgutil.walk_packages(puluc.__path__, "puluc."))]
WITH_EXAMPLES = {"puluc", "puluc.position", "puluc.rules", "puluc.record", "puluc.ai.chance", "puluc.ai.exact",
                 "puluc.ai.review"}


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_in_the_docstrings_hold(name: str) -> None:
    failures, tried = doctest.testmod(importlib.import_module(name), verbose=False)
    assert failures == 0  # doctest printed each failing example above
    assert tried > 0 or name not in WITH_EXAMPLES


SHOWN: list[object] = [
    puluc, Rules.preset, Position.start, Position.from_ppn, Position.throw, Position.legal_moves, Position.play,
    Position.outcome, Move, Move.parse, Game,
]


@pytest.mark.parametrize("part", SHOWN, ids=lambda part: getattr(part, "__qualname__", getattr(part, "__name__", "")))
def test_each_step_of_the_public_api_has_an_example(part: object) -> None:
    assert ">>> " in (part.__doc__ or "")
