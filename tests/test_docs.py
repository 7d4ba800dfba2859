"""The documents a newcomer follows: every link and folder they name exists, and compose.yaml keeps the
database where the image's volume is."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.config import EnvFile, load_config
from tests.helpers import TOKEN

ROOT = Path(__file__).parents[1]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def anchors(markdown: str) -> set[str]:
    """GitHub's anchors for the headings of `markdown`: lower case, punctuation dropped, spaces as '-'."""
    headings = re.findall(r"^#+ (.+)$", markdown, flags=re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-") for heading in headings}


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_every_relative_link_points_to_something_that_exists(document: Path) -> None:
    text = document.read_text(encoding="utf-8")
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):
            continue  # https:, mailto:
        path, _, anchor = target.partition("#")
        linked = (document.parent / path) if path else document
        assert linked.exists(), f"{document.name} links to {target}, which does not exist"
        if anchor and linked.suffix == ".md":
            assert anchor in anchors(linked.read_text(encoding="utf-8")), f"{document.name}: no heading for #{anchor}"


def test_every_folder_the_rules_name_exists() -> None:
    text = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
    folders = set(re.findall(r"`([\w./-]+/)`", text))
    assert folders, "RULES.md names the engine's folder"
    for folder in folders:
        exists = (ROOT / folder).is_dir() or (ROOT / "docs" / folder).is_dir()
        assert exists, f"RULES.md names {folder}, which is missing"


def dockerfile_value(instruction: str) -> str:
    found = re.findall(rf"^{instruction} (.+)$", (ROOT / "Dockerfile").read_text(encoding="utf-8"), flags=re.MULTILINE)
    return found[-1].strip()


def test_compose_runs_the_image_with_env_and_the_database_volume() -> None:
    compose = (ROOT / "compose.yaml").read_text(encoding="utf-8")
    volume_path = dockerfile_value("VOLUME").strip('[]"')
    assert re.search(r"^  puluc:\n    build: \.\n    env_file: \.env\n", compose, flags=re.MULTILINE)
    mounted = re.search(r"^    volumes:\n      - ([\w-]+):(\S+)$", compose, flags=re.MULTILINE)
    assert mounted is not None
    name, target = mounted.groups()
    assert target == volume_path
    assert re.search(rf"^volumes:\n  {name}:$", compose, flags=re.MULTILINE), "the named volume is declared"


@pytest.mark.parametrize("database_url", ["", "sqlite:///data/puluc.db"])
def test_the_default_database_lands_in_the_volume_inside_the_container(database_url: str) -> None:
    # In the container .env arrives as environment variables (no file), the process starts in WORKDIR, and a
    # copied .env.example sets DATABASE_URL to its default, overriding the image's own absolute one.
    workdir = Path(dockerfile_value("WORKDIR"))
    volume = Path(dockerfile_value("VOLUME").strip('[]"'))
    config = load_config({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": database_url}, EnvFile(workdir / ".env", False))
    assert Path(config.database.where).parent == volume


def test_compose_sharded_processes_split_every_shard_once_and_load_their_settings() -> None:
    # The `sharded` profile (README, Scaling): one SHARD_COUNT for all, each process its own SHARD_IDS,
    # one PostgreSQL database; a mistake here would start two processes on one shard, or leave one unserved.
    compose = (ROOT / "compose.yaml").read_text(encoding="utf-8")
    services = dict(re.findall(r"^  ([\w-]+):\n((?:    .*\n|\n)*)", compose, flags=re.MULTILINE))
    sharded = {name: body for name, body in services.items() if "SHARD_IDS" in body}
    assert len(sharded) >= 2, "the example runs several bot processes"
    counts, owned = set(), []
    for name, body in sharded.items():
        value = dict(re.findall(r"^      (\w+): \"?([^\"\n]*)\"?$", body, flags=re.MULTILINE))
        assert value["DATABASE_URL"].startswith("postgresql://"), f"{name} shares a PostgreSQL database"
        environ = {"DISCORD_TOKEN": TOKEN, **value}
        environ["DATABASE_URL"] = value["DATABASE_URL"].replace("${POSTGRES_PASSWORD:-}", "secret")
        config = load_config(environ, None)
        assert config.shards is not None
        counts.add(config.shards.count)
        owned += list(config.shards.ids)
    assert len(counts) == 1, "every process has the same SHARD_COUNT"
    assert sorted(owned) == list(range(counts.pop())), "every shard is run by exactly one process"
