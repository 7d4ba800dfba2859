"""The exact tables the bot ships with its code (package data), read by the processes that need them.

`bell.bin`: the exact chance to win of every Bell 1 v 1 position (research/exact_table.py builds it from
research/exact_1v1.c's solution; its size and cost are in docs/AI.md). The engine does no I/O, so the bytes are
read here and handed to `puluc.ai.exact.ExactTable`.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files

from puluc.ai.exact import ExactTable

BELL_EXACT = "bell.bin"


@cache
def bell_table() -> ExactTable:
    """The exact Bell 1 v 1 table, read once per process."""
    return ExactTable.from_bytes(files(__name__).joinpath(BELL_EXACT).read_bytes())
