"""SHARD_COUNT and SHARD_IDS: what a process of a sharded deployment runs, and the one-line refusals of
`--check` and start-up for settings that cannot work (tests/bot/storage/test_contract_shards.py holds the
storage to the shards; tests/e2e/test_shards.py runs two processes)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.cli.preflight import PreflightError, preflight
from bot.config import ConfigError, load_config
from bot.storage.shards import Shards, parse_shard_ids
from tests.helpers import TOKEN


def settings_of(**values: str) -> dict[str, str]:
    return {"DISCORD_TOKEN": TOKEN, **values}


def test_neither_setting_runs_one_process_for_every_server() -> None:
    assert load_config(settings_of()).shards is None


def test_shard_count_alone_runs_every_shard_of_it() -> None:
    assert load_config(settings_of(SHARD_COUNT="4")).shards == Shards(4, (0, 1, 2, 3))


@pytest.mark.parametrize(("text", "ids"), [("3", (3,)), ("0-3", (0, 1, 2, 3)), ("0,2,5", (0, 2, 5)),
                                           (" 5 , 0-1 ", (0, 1, 5))])
def test_shard_ids_take_an_id_a_range_or_a_list(text: str, ids: tuple[int, ...]) -> None:
    assert parse_shard_ids(text, 6) == ids
    assert load_config(settings_of(SHARD_COUNT="6", SHARD_IDS=text)).shards == Shards(6, ids)


@pytest.mark.parametrize(("values", "says"), [
    ({"SHARD_IDS": "0"}, "SHARD_IDS=0 needs SHARD_COUNT"),
    ({"SHARD_COUNT": "0"}, "SHARD_COUNT must be a whole number of shards from 1 to 32767"),
    ({"SHARD_COUNT": "two"}, "SHARD_COUNT must be"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "with SHARD_COUNT=2 the ids go from 0 to 1"),
    ({"SHARD_COUNT": "4", "SHARD_IDS": "0-2,2"}, "names shard 2 more than once"),
    ({"SHARD_COUNT": "4", "SHARD_IDS": "3-1"}, "a range goes from a lower id to a higher one"),
    ({"SHARD_COUNT": "4", "SHARD_IDS": "0,,1"}, "has an empty item between commas"),
    ({"SHARD_COUNT": "4", "SHARD_IDS": "a"}, "neither a shard id nor a range"),
])
def test_impossible_shards_are_refused_in_one_line(values: dict[str, str], says: str) -> None:
    with pytest.raises(ConfigError) as refused:
        load_config(settings_of(**values))
    assert says in str(refused.value) and "\n" not in str(refused.value)


def test_check_refuses_shard_ids_that_leave_shards_to_other_processes_on_sqlite(tmp_path: Path) -> None:
    config = load_config(settings_of(SHARD_COUNT="2", SHARD_IDS="1",
                                         DATABASE_URL=f"sqlite:///{tmp_path / 'puluc.db'}"))
    with pytest.raises(PreflightError, match="a SQLite file serves one process only: use PostgreSQL"):
        asyncio.run(preflight(config))
    assert not (tmp_path / "puluc.db").exists()


def test_check_says_which_shards_the_process_runs(tmp_path: Path) -> None:
    config = load_config(settings_of(SHARD_COUNT="2", SHARD_IDS="0-1",
                                         DATABASE_URL=f"sqlite:///{tmp_path / 'puluc.db'}"))
    found = asyncio.run(preflight(config))
    assert "shards: this process runs all 2 shards of SHARD_COUNT=2" in found.findings()
