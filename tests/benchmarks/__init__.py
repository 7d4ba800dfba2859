"""Tests of the hand-run benchmarks' own logic (benchmarks/ is not a package: its scripts import each other)."""

from __future__ import annotations

from types import ModuleType

from tests.research import load_script


def load_benchmark(name: str) -> ModuleType:
    """benchmarks/NAME.py as the module NAME."""
    return load_script("benchmarks", name)
