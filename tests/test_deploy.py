"""The systemd unit in deploy/ runs the installed bot on the settings and database the documents promise, stops
it within its grace period, and passes systemd's own checks; CHANGELOG.md's newest release is the version
pyproject.toml builds."""

from __future__ import annotations

import configparser
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from bot.app import SHUTDOWN_GRACE_SECONDS
from bot.config import EnvFile, load_config
from tests.helpers import TOKEN

ROOT = Path(__file__).parents[1]
UNIT = ROOT / "deploy" / "puluc-bot.service"
HOME = "/opt/puluc-bot"


class UnitFile(configparser.ConfigParser):
    """A systemd unit read as written: its keys are case-sensitive (ConfigParser lowercases them)."""

    def optionxform(self, optionstr: str) -> str:
        return optionstr


def unit() -> configparser.ConfigParser:
    parser = UnitFile(interpolation=None, strict=True)
    parser.read_string(UNIT.read_text(encoding="utf-8"))
    return parser


def test_the_unit_runs_the_virtual_environments_bot_on_its_env_file() -> None:
    service = unit()["Service"]
    program, *args = service["ExecStart"].split()
    assert program == f"{HOME}/.venv/bin/puluc-bot"
    assert args == ["--env-file", f"{HOME}/.env"]
    assert service["WorkingDirectory"] == HOME
    assert service["User"] != "root"


def test_the_default_database_is_in_the_only_folder_the_unit_lets_the_bot_write() -> None:
    service = unit()["Service"]
    # The unit names /opt/puluc-bot/.env; the database is found relative to its folder (it need not exist here).
    config = load_config({"DISCORD_TOKEN": TOKEN}, EnvFile(Path(HOME) / ".env", False))
    writable = [Path(path) for path in service["ReadWritePaths"].split()]
    assert service["ProtectSystem"] == "strict"
    assert Path(config.database.where).parent in writable


def test_the_unit_stops_the_bot_with_sigterm_after_its_grace_period() -> None:
    service = unit()["Service"]
    assert service["KillSignal"] == "SIGTERM"
    assert int(service["TimeoutStopSec"]) > SHUTDOWN_GRACE_SECONDS
    assert service["Restart"] == "on-failure"


def test_systemd_accepts_the_unit(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed")
    # The unit as installed on this machine: the console script of this environment in place of /opt's.
    text = UNIT.read_text(encoding="utf-8").replace(f"{HOME}/.venv/bin/puluc-bot",
                                                    str(Path(sys.executable).parent / "puluc-bot"))
    copy = tmp_path / "puluc-bot.service"
    copy.write_text(text, encoding="utf-8")
    done = subprocess.run([analyze, "verify", str(copy)], capture_output=True, text=True, timeout=60, check=False)
    problems = [line for line in done.stderr.splitlines() if "puluc-bot.service" in line]
    assert problems == [], done.stderr


def test_the_newest_changelog_release_is_the_version_pyproject_builds() -> None:
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    releases = re.findall(r"^## (\d+\.\d+\.\d+)( \(unreleased\))?$", (ROOT / "CHANGELOG.md").read_text("utf-8"),
                          flags=re.MULTILINE)
    assert releases, "CHANGELOG.md has a section per release"
    assert releases[0][0] == version
    assert all(not unreleased for _, unreleased in releases[1:]), "only the newest release may be unreleased"
