"""docs/ARCHITECTURE.md stays true: its layer diagram covers every module and every import points down it, its
list of import contracts is pyproject's, and every path it names exists."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).parents[1]
DOCUMENT = ROOT / "docs" / "ARCHITECTURE.md"
PACKAGES = ("bot", "puluc", "renderer")


def section(title: str) -> str:
    text = DOCUMENT.read_text(encoding="utf-8")
    assert f"\n## {title}\n" in text, f"docs/ARCHITECTURE.md has no section {title!r}"
    return text.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def diagram() -> list[list[str]]:
    """The diagram's lines, top first, each the names it holds (`a | b    what they are`)."""
    block = re.search(r"^```text\n(.*?)^```$", section("Layers"), flags=re.MULTILINE | re.DOTALL)
    assert block is not None, "the Layers section has no ```text diagram"
    lines = []
    for line in block[1].splitlines():
        names = re.split(r"\s{2,}", line.strip(), maxsplit=1)[0]
        lines.append([name.strip() for name in names.split("|")])
    return lines


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    # As lint-imports reads them (pyproject's [tool.importlinter]): imports for type checking only do not count.
    return grimp.build_graph(*PACKAGES, exclude_type_checking_imports=True)


def line_of(lines: list[list[str]]) -> dict[str, int]:
    found: dict[str, int] = {}
    for number, names in enumerate(lines):
        for name in names:
            assert name not in found, f"{name} is on two lines of the diagram"
            found[name] = number
    return found


def under(module: str, names: dict[str, int]) -> str | None:
    """The most specific name of the diagram that covers `module`."""
    covering = [name for name in names if module == name or module.startswith(name + ".")]
    return max(covering, key=len, default=None)


def test_the_diagram_names_only_modules_that_exist(graph: grimp.ImportGraph) -> None:
    for name in line_of(diagram()):
        assert name in graph.modules, f"docs/ARCHITECTURE.md's diagram names {name}, which does not exist"


def test_every_module_falls_under_a_line_of_the_diagram(graph: grimp.ImportGraph) -> None:
    names = line_of(diagram())
    ours = {m for m in graph.modules if m.split(".")[0] in PACKAGES}
    for module in sorted(ours):
        if under(module, names) is None:
            # A package whose own module imports nothing (a docstring over its parts) needs no line.
            assert graph.find_children(module) and not graph.find_modules_directly_imported_by(module) & ours, (
                f"{module} is on no line of the diagram in docs/ARCHITECTURE.md: give it its layer")


def test_every_import_points_down_the_diagram(graph: grimp.ImportGraph) -> None:
    names = line_of(diagram())
    upward = set()
    for module in graph.modules:
        source = under(module, names)
        for imported in graph.find_modules_directly_imported_by(module):
            target = under(imported, names)
            if source is None or target is None or source == target:
                continue
            if names[source] >= names[target]:
                upward.add(f"{module} imports {imported} ({source} is not above {target})")
    assert not upward, "imports against docs/ARCHITECTURE.md's diagram:\n" + "\n".join(sorted(upward))


def test_the_document_lists_exactly_the_import_contracts() -> None:
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    lists = [block.splitlines() for block in section("The import contracts").split("\n\n")]
    listed = next(lines for lines in lists if lines and all(line.startswith("- ") for line in lines))
    assert [line[2:] for line in listed] == [c["name"] for c in contracts["contracts"]]


def test_every_path_the_document_names_exists() -> None:
    text = DOCUMENT.read_text(encoding="utf-8")
    named = re.findall(r"`([\w./-]+(?:/|\.py|\.md|\.toml|\.yaml))`", text)
    paths = {p for p in named if "/" in p.rstrip("/") or not p.endswith("/")}  # not a bare `migrations/`
    assert paths
    for path in sorted(paths):
        found = (ROOT / path).exists() or (ROOT / "docs" / path).exists()
        assert found, f"docs/ARCHITECTURE.md names {path}, which does not exist"
