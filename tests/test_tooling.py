"""The contributor's tools agree with CI: the pre-commit hooks run exactly the checks `.ci/run` makes before the
tests, in the same order."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

ROOT = Path(__file__).parents[1]
SETUP = ("set ", "cd ", "python3 -m venv", "source ", "pip install", "export ")


def ci_checks() -> list[list[str]]:
    """The commands .ci/run runs between installing and the first pytest: the checks."""
    checks = []
    for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith(("#", "#!")) or line.startswith(SETUP):
            continue
        if line.startswith("pytest"):
            break
        checks.append(shlex.split(line))
    return checks


def hook_entries() -> list[list[str]]:
    """Each local hook's command, without the environment it sets (`env NAME=value ...`)."""
    text = (ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8")
    entries = []
    for entry in re.findall(r"^\s+entry: (.+)$", text, flags=re.MULTILINE):
        words = shlex.split(entry)
        if words[0] == "env":
            words = words[1:]
            while words and "=" in words[0]:
                words = words[1:]
        entries.append(words)
    return entries


def test_the_pre_commit_hooks_run_what_ci_checks_before_the_tests() -> None:
    assert ci_checks() == [["ruff", "check", "."], ["mypy"], ["lint-imports"]]
    assert hook_entries() == ci_checks()


def test_every_hook_is_local_and_runs_the_projects_own_tools() -> None:
    """No hook repository to download: every hook runs a tool of the project's virtual environment on the
    whole tree (the checks read the whole tree, whichever files changed)."""
    text = (ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8")
    assert re.findall(r"^\s*- repo: (\S+)$", text, flags=re.MULTILINE) == ["local"]
    hooks = len(re.findall(r"^\s+- id: ", text, flags=re.MULTILINE))
    assert hooks == len(hook_entries())
    assert len(re.findall(r"^\s+language: system$", text, flags=re.MULTILINE)) == hooks
    assert len(re.findall(r"^\s+pass_filenames: false$", text, flags=re.MULTILINE)) == hooks
