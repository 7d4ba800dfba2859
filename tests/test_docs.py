"""The documents a newcomer follows: every link and folder they name exists, and compose.yaml keeps the
database where the image's volume is."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from bot.config import EnvFile, load_config
from tests.helpers import TOKEN

ROOT = Path(__file__).parents[1]
DOCUMENTS = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def sample_block(document: Path, after: str) -> list[str]:
    """The lines of the first plain ``` block (a sample output, not a command) after the text `after`."""
    text = document.read_text(encoding="utf-8")
    assert after in text, f"{document.name} no longer says {after!r}"
    block = re.search(r"^```\n(.*?)^```$", text.split(after, 1)[1], flags=re.MULTILINE | re.DOTALL)
    assert block is not None, f"{document.name}: no sample after {after!r}"
    return block[1].splitlines()


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
    found: list[str] = re.findall(rf"^{instruction} (.+)$", (ROOT / "Dockerfile").read_text(encoding="utf-8"),
                                  flags=re.MULTILINE)
    return found[-1].strip()


def compose_services() -> dict[str, str]:
    """compose.yaml's services, each as the text of its block."""
    compose = (ROOT / "compose.yaml").read_text(encoding="utf-8")
    body = compose.split("\nservices:\n", 1)[1].split("\nvolumes:\n", 1)[0]
    return dict(re.findall(r"^  ([\w-]+):\n((?:    .*\n|\s*\n|  #.*\n)*)", body + "\n", flags=re.MULTILINE))


def bot_services() -> dict[str, str]:
    return {name: body for name, body in compose_services().items() if "build: ." in body}


def test_compose_runs_the_image_with_env_and_the_database_volume() -> None:
    compose = (ROOT / "compose.yaml").read_text(encoding="utf-8")
    volume_path = dockerfile_value("VOLUME").strip('[]"')
    single = compose_services()["puluc"]
    assert re.search(r"^    build: \.\n    env_file: \.env\n", single, flags=re.MULTILINE)
    mounted = re.search(r"^    volumes:\n      - ([\w-]+):(\S+)$", single, flags=re.MULTILINE)
    assert mounted is not None
    name, target = mounted.groups()
    assert target == volume_path
    assert re.search(rf"^volumes:\n  {name}:$", compose, flags=re.MULTILINE), "the named volume is declared"


def test_every_bot_service_has_a_profile_so_the_single_bot_and_the_shards_never_run_together() -> None:
    profiles = {name: re.findall(r"^    profiles: \[(\w+)\]$", body, flags=re.MULTILINE)
                for name, body in bot_services().items()}
    assert len(profiles) >= 3
    assert all(len(found) == 1 for found in profiles.values()), profiles
    assert profiles["puluc"] == ["single"]
    assert profiles["puluc-web"] == ["web"]  # the web pages alone, beside the shards (`--profile web`)
    assert {found[0] for name, found in profiles.items() if name not in ("puluc", "puluc-web")} == {"sharded"}


def test_every_service_runs_under_an_init_with_rotated_logs_and_a_pinned_image() -> None:
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    for name, body in compose_services().items():
        assert "    init: true\n" in body, name
        assert re.search(r"^    logging:\n      driver: json-file\n      options:\n        max-size: \d+m\n"
                         r"        max-file: \"\d+\"$", body, flags=re.MULTILINE), name
        image = re.search(r"^    image: (\S+)$", body, flags=re.MULTILINE)
        assert image is not None, f"{name} names its image and tag"
        _, _, tag = image[1].partition(":")
        if "build: ." in body:
            assert image[1] == f"puluc-bot:{version}", f"{name} tags the image it builds with the release"
        else:
            assert re.fullmatch(r"\d+\.\d+-\w+", tag), f"{name}: {image[1]} names a patch release, not a moving tag"
    base = dockerfile_value("FROM")
    assert re.fullmatch(r"python:\d+\.\d+\.\d+-slim-\w+", base), f"the Dockerfile's base {base} is pinned"


def test_the_image_and_every_bot_service_are_healthy_by_the_bots_own_readyz() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert re.search(r'^HEALTHCHECK .* CMD \["python", "-m", "bot.ops.probe"\]$', dockerfile, flags=re.MULTILINE)
    assert re.search(r"^ENV HEALTH_PORT=\d+$", dockerfile, flags=re.MULTILINE)
    for name, body in bot_services().items():
        if name == "puluc-web":  # `puluc-bot web`: no bot in it, its pages answer /healthz
            assert re.search(r'^      WEB_PORT: "\d+"', body, flags=re.MULTILINE)
            assert '    healthcheck:\n      test: ["CMD", "python", "-m", "bot.ops.probe", "--web"]' in body
            continue
        assert re.search(r'^      HEALTH_PORT: "\d+"', body, flags=re.MULTILINE), f"{name} turns the listener on"
        assert re.search(r"^    healthcheck: (&readyz\n      test: \[\"CMD\", \"python\", \"-m\", "
                         r"\"bot.ops.probe\"\]|\*readyz)$", body, flags=re.MULTILINE), name


def test_every_image_tag_the_documents_name_is_this_release() -> None:
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    for document in DOCUMENTS:
        for tag in re.findall(r"puluc-bot:(\d+\.\d+\.\d+)", document.read_text(encoding="utf-8")):
            assert tag == version, f"{document.name} names the image puluc-bot:{tag}"


def test_no_password_is_written_into_a_database_url() -> None:
    # A password with '@', '/' or '%' would break the URL; the driver reads it from PGPASSWORD instead.
    for name, body in bot_services().items():
        url = re.search(r"^      DATABASE_URL: (\S+)$", body, flags=re.MULTILINE)
        if url is not None:
            assert "POSTGRES_PASSWORD" not in url[1] and ":" not in url[1].split("@")[0].split("//")[1], name
            assert re.search(r"^      PGPASSWORD: \$\{POSTGRES_PASSWORD:-\}$", body, flags=re.MULTILINE), name


@pytest.mark.parametrize("database_url", ["", "sqlite:///data/puluc.db"])
def test_the_default_database_lands_in_the_volume_inside_the_container(database_url: str) -> None:
    # In the container .env arrives as environment variables (no file), the process starts in WORKDIR, and a
    # copied .env.example sets DATABASE_URL to its default, overriding the image's own absolute one.
    workdir = Path(dockerfile_value("WORKDIR"))
    volume = Path(dockerfile_value("VOLUME").strip('[]"'))
    config = load_config({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": database_url}, EnvFile(workdir / ".env", False))
    assert Path(config.database.where).parent == volume


def test_compose_sharded_processes_split_every_shard_once_and_load_their_settings() -> None:
    # The `sharded` profile (docs/OPERATIONS.md, Scaling): one SHARD_COUNT for all, each process its own SHARD_IDS,
    # one PostgreSQL database; a mistake here would start two processes on one shard, or leave one unserved.
    sharded = {name: body for name, body in bot_services().items() if "SHARD_IDS" in body}
    assert len(sharded) >= 2, "the example runs several bot processes"
    counts, owned = set(), []
    for name, body in sharded.items():
        value = dict(re.findall(r"^      (\w+): \"?([^\"\n]*)\"?$", body, flags=re.MULTILINE))
        assert value["DATABASE_URL"].startswith("postgresql://"), f"{name} shares a PostgreSQL database"
        environ = {"DISCORD_TOKEN": TOKEN, **value}
        config = load_config(environ, None)
        assert config.shards is not None
        counts.add(config.shards.count)
        owned += list(config.shards.ids)
    assert len(counts) == 1, "every process has the same SHARD_COUNT"
    assert sorted(owned) == list(range(counts.pop())), "every shard is run by exactly one process"
