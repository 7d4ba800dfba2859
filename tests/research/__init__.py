"""Tests of the research scripts' own logic (research/ is not a package: its scripts import each other and
benchmarks/' helpers)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def load_script(folder: str, name: str) -> ModuleType:
    """FOLDER/NAME.py as the module NAME (registered first, as dataclasses need to find it), with benchmarks/
    importable as the scripts expect."""
    helpers = str(ROOT / "benchmarks")
    if helpers not in sys.path:
        sys.path.append(helpers)
    spec = importlib.util.spec_from_file_location(name, ROOT / folder / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
