"""The README's setup, run as a new server owner would: a clean clone, a fresh virtual environment, the
commands of "Install and start" in order, up to `puluc-bot --check` passing.

Slow (it installs the bot and its dependencies from PyPI), so deselected by default; `.ci/run` runs it with
`pytest -m slow`. It prints how long the clean clone took to reach a passing `--check`.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.cli.preflight import BUILTIN_FONT
from bot.config_spec import SETTINGS
from renderer.fonts import find_font
from tests.helpers import TOKEN

ROOT = Path(__file__).parents[1]
SECTION = "### 2. Install and start"


def readme_blocks() -> list[list[str]]:
    """The shell blocks of the README's "Install and start", each as its commands (comments dropped)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split(SECTION, 1)[1].split("\n#", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)```", section, flags=re.DOTALL)
    return [[line.split("  #")[0].strip() for line in block.splitlines() if line.strip()] for block in blocks]


def fresh_machine_environment() -> dict[str, str]:
    """This environment without the test's own virtual environment and without any bot setting."""
    ours = str(Path(sys.executable).parent)
    env = {key: value for key, value in os.environ.items()
           if key not in {"VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME"} and key not in {s.name for s in SETTINGS}}
    env["PATH"] = os.pathsep.join(part for part in env.get("PATH", "").split(os.pathsep) if part != ours)
    return env


def test_the_readme_blocks_are_install_then_the_two_commands() -> None:
    install, start = readme_blocks()
    assert install[0].startswith("git clone REPOSITORY_URL ")
    assert "python3 -m venv .venv" in install and ". .venv/bin/activate" in install
    assert install[-1] == "cp .env.example .env"
    assert start == ["puluc-bot --check", "puluc-bot"]
    assert not any("test" in line or "-e " in line for line in install), "no contributor's step in an owner's"


def readme_check_sample() -> list[str]:
    """The output of `puluc-bot --check` the README shows (the plain block of "Install and start")."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split(SECTION, 1)[1].split("\n#", 1)[0]
    samples: list[str] = re.findall(r"```\n(puluc-bot: .*?)```", section, flags=re.DOTALL)
    (sample,) = samples
    return sample.splitlines()


def test_the_readmes_sample_of_check_is_what_check_prints(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The README's steps on this machine: the clone at /home/you/puluc-bot, .env copied from .env.example
    # with the token pasted in, `puluc-bot --check` run there.
    home = tmp_path / "home" / "you" / "puluc-bot"
    home.mkdir(parents=True)
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    (home / ".env").write_text(example.replace("\nDISCORD_TOKEN=\n", f"\nDISCORD_TOKEN={TOKEN}\n"), encoding="utf-8")
    for setting in SETTINGS:
        monkeypatch.delenv(setting.name, raising=False)
    monkeypatch.chdir(home)
    assert main(["--check"]) == 0
    printed = capsys.readouterr().out.replace(str(home), "/home/you/puluc-bot").splitlines()
    sample = readme_check_sample()
    font = find_font()
    if font != "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf":  # this machine draws with another font
        sample = [line.replace("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", font or BUILTIN_FONT)
                  for line in sample]
    assert printed == sample


@pytest.mark.slow
def test_the_readme_setup_from_a_clean_clone_passes_the_check(tmp_path: Path) -> None:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs git and this project as a git checkout to clone from")
    install, start = readme_blocks()
    clone = install[0].split()[-1]
    script = [
        "set -euo pipefail",
        *(line.replace("REPOSITORY_URL", str(ROOT)) for line in install),
        # The README's prose step: paste the token after DISCORD_TOKEN= in .env.
        f"sed -i.orig 's/^DISCORD_TOKEN=$/DISCORD_TOKEN={TOKEN}/' .env && rm .env.orig",
        *start[:-1],  # the last command connects to Discord, which a test must not
    ]
    started = time.perf_counter()
    done = subprocess.run(["bash", "-c", "\n".join(script)], cwd=tmp_path, env=fresh_machine_environment(),
                          capture_output=True, text=True, timeout=900, check=False)
    elapsed = time.perf_counter() - started
    assert done.returncode == 0, done.stderr[-3000:]
    print(f"README setup: clean clone to a passing `puluc-bot --check` in {elapsed:.0f} s")

    home = tmp_path / clone
    lines = [line for line in done.stdout.splitlines() if line.startswith("puluc-bot: ")]
    assert lines[0] == f"puluc-bot: settings from {home / '.env'} and the environment (the environment wins)"
    assert lines[1].startswith(f"puluc-bot: database {home / 'data' / 'puluc.db'}: new: start-up will create")
    assert lines[-1].startswith("puluc-bot: configuration OK")
    assert (home / ".venv" / "bin" / "puluc-bot").exists()
    assert not (home / "data").exists(), "--check created nothing"
    assert "s3cr3t" not in done.stdout + done.stderr
