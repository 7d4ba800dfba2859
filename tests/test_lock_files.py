"""The lock files pin exactly what `pyproject.toml` asks for: every dependency it names is locked at a version
its range allows, nothing is locked that nothing needs, every pin has its hashes, and the image ships the very
versions the tests ran on.

`requirements.lock` (the bot: the Dockerfile and a virtual-environment install) and `requirements-dev.lock`
(the bot, its tests and the checks: `.ci/run`) are written by `uv pip compile` with the command in their
header (docs/OPERATIONS.md, Upgrading). A change to `pyproject.toml`'s dependencies that is not
followed by that command fails here.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
COMPILE = "uv pip compile pyproject.toml --universal --python-version 3.11 --generate-hashes"
# Each lock file and the extras it holds besides the bot's own dependencies.
LOCKS = {"requirements.lock": (), "requirements-dev.lock": ("test", "dev")}
# The Python versions the locks must serve: CI's (3.11, the lowest pyproject allows) and the image's.
PYTHONS = ("3.11", "3.12")


@dataclass(frozen=True, slots=True)
class Pin:
    name: str  # canonical
    version: Version
    marker: Marker | None
    hashes: tuple[str, ...]
    via: tuple[str, ...]  # what needs it: other pins' names, or "puluc-bot (pyproject.toml)"


def read_lock(name: str) -> tuple[str, dict[str, Pin]]:
    """The command in the header of lock file `name`, and its pins by canonical name."""
    text = (ROOT / name).read_text(encoding="utf-8")
    header = re.search(r"^#    (uv pip compile .+)$", text, flags=re.MULTILINE)
    assert header is not None, f"{name} names the command that wrote it"
    pins = {}
    for entry in re.split(r"\n(?=[A-Za-z0-9])", text.split("\n", 2)[2]):
        first, *rest = entry.splitlines()
        match = re.fullmatch(r"([A-Za-z0-9_.-]+)==([^ ;\\]+)(?: ; ([^\\]+))? \\", first)
        assert match is not None, f"{name}: {first!r} is not an exact pin"
        body = "\n".join(rest)
        via = re.findall(r"^    # via (.+)$|^    #   (.+)$", body, flags=re.MULTILINE)
        pin = Pin(
            canonicalize_name(match[1]), Version(match[2]), Marker(match[3]) if match[3] else None,
            tuple(re.findall(r"--hash=sha256:([0-9a-f]{64})", body)), tuple(a or b for a, b in via),
        )
        pins[pin.name] = pin
    return header[1], pins


def wanted(extras: tuple[str, ...]) -> list[Requirement]:
    requirements = [Requirement(text) for text in PROJECT["dependencies"]]
    for extra in extras:
        requirements += [Requirement(text) for text in PROJECT["optional-dependencies"][extra]]
    return requirements


@pytest.mark.parametrize("name", LOCKS)
def test_the_lock_file_was_written_by_the_documented_command(name: str) -> None:
    command, _ = read_lock(name)
    extras = "".join(f" --extra {extra}" for extra in LOCKS[name])
    assert command == f"{COMPILE}{extras} -o {name}"


@pytest.mark.parametrize("name", LOCKS)
def test_every_dependency_pyproject_names_is_locked_within_its_range(name: str) -> None:
    _, pins = read_lock(name)
    for requirement in wanted(LOCKS[name]):
        pin = pins.get(canonicalize_name(requirement.name))
        assert pin is not None, f"{name} does not lock {requirement.name}: run the command in its header"
        assert requirement.specifier.contains(pin.version, prereleases=True), (
            f"{name} locks {pin.name}=={pin.version}, outside pyproject.toml's {requirement}: run the command "
            "in its header"
        )


@pytest.mark.parametrize("name", LOCKS)
def test_nothing_is_locked_that_nothing_needs_and_every_pin_has_its_hashes(name: str) -> None:
    _, pins = read_lock(name)
    direct = {canonicalize_name(requirement.name) for requirement in wanted(LOCKS[name])}
    for pin in pins.values():
        assert pin.hashes, f"{name}: {pin.name} has no hash, so pip --require-hashes refuses the file"
        assert pin.via, f"{name}: nothing needs {pin.name}"
        for needer in pin.via:
            if needer == "puluc-bot (pyproject.toml)":
                assert pin.name in direct, f"{name}: pyproject.toml no longer asks for {pin.name}"
            else:
                assert canonicalize_name(needer) in pins, f"{name}: {pin.name} is needed by {needer}, not locked"


@pytest.mark.parametrize("python", PYTHONS)
def test_the_image_ships_the_versions_the_tests_ran_on(python: str) -> None:
    _, shipped = read_lock("requirements.lock")
    _, tested = read_lock("requirements-dev.lock")
    environment = {"python_version": python, "python_full_version": f"{python}.0", "sys_platform": "linux",
                   "platform_python_implementation": "CPython", "platform_system": "Linux"}
    for pin in shipped.values():
        if pin.marker is not None and not pin.marker.evaluate(environment):
            continue
        assert pin.name in tested, f"the tests never ran with {pin.name}"
        assert tested[pin.name].version == pin.version, (
            f"{pin.name}: shipped {pin.version}, tested {tested[pin.name].version}"
        )


def test_ci_and_the_image_install_from_the_lock_files_with_their_hashes() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert "pip install --quiet --require-hashes -r requirements-dev.lock" in ci
    assert "pip install --quiet --no-deps ." in ci
    assert "pip install --require-hashes -r requirements.lock" in dockerfile
    assert "pip install --no-deps ." in dockerfile
