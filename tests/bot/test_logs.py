"""Log output: one line per event, colour only on a terminal and never with NO_COLOR, the token never shown;
with LOG_FORMAT=json one JSON object per line carrying the server, channel, game and shard ids."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import re
import sys
import warnings
from pathlib import Path

import pytest

from bot.logs import HIDDEN, OneLineFormatter, bind, setup_logging, wants_colour
from bot.storage.urls import parse_database_url
from tests.helpers import (
    TOKEN,
    World,
    accepted_challenge,
    game_message,
    make_config,
    mentioned,
    move_ids,
)

SIGNATURE = TOKEN.rsplit(".", 1)[-1]


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def record(message: str, *args: object, level: int = logging.INFO) -> logging.LogRecord:
    return logging.LogRecord("bot.test", level, __file__, 1, message, args, None)


def test_a_traceback_is_folded_into_its_events_line() -> None:
    formatter = OneLineFormatter()
    try:
        raise ValueError("boom\nsecond line")
    except ValueError:
        entry = record("the AI failed")
        entry.exc_info = sys.exc_info()
    line = formatter.format(entry)
    assert "\n" not in line
    assert line.split(" ", 2)[2].startswith("INFO     bot.test: the AI failed | Traceback (most recent call last): | ")
    assert line.endswith("ValueError: boom | second line")


def test_the_token_and_its_signature_are_hidden_wherever_they_appear() -> None:
    formatter = OneLineFormatter(secrets=(TOKEN, SIGNATURE))
    line = formatter.format(record("login with %s, signature %s", TOKEN, SIGNATURE))
    assert TOKEN not in line and SIGNATURE not in line
    assert line.endswith(f"login with {HIDDEN}, signature {HIDDEN}")


def test_colour_codes_only_when_asked_for() -> None:
    plain = OneLineFormatter(colour=False).format(record("ready", level=logging.WARNING))
    coloured = OneLineFormatter(colour=True).format(record("ready", level=logging.WARNING))
    assert "\x1b[" not in plain
    assert "\x1b[33mWARNING \x1b[0m" in coloured


@pytest.mark.parametrize(
    ("stream", "environ", "expected"),
    [
        (Terminal(), {}, True),
        (Terminal(), {"NO_COLOR": "1"}, False),
        (Terminal(), {"NO_COLOR": ""}, True),  # no-color.org: set to a non-empty value
        (Terminal(), {"TERM": "dumb"}, False),
        (io.StringIO(), {}, False),  # a file or a pipe
    ],
)
def test_colour_only_on_a_terminal_and_never_with_no_color(
    stream: io.StringIO, environ: dict[str, str], expected: bool
) -> None:
    assert wants_colour(stream, environ) is expected


@pytest.mark.logs_error(r"discord\.gateway: handler failed \(KeyError")
def test_setup_logging_writes_one_plain_line_per_event_to_a_file(restored_logging: logging.Logger) -> None:
    stream = io.StringIO()
    setup_logging(logging.INFO, secrets=(TOKEN,), stream=stream, environ={})
    log = logging.getLogger("discord.gateway")
    log.debug("not shown below INFO")
    log.info("connected with %s", TOKEN)
    missing: dict[str, int] = {}
    try:
        missing["missing"]
    except KeyError:
        log.exception("handler failed")
    lines = stream.getvalue().splitlines()
    assert len(lines) == 2
    assert lines[0].endswith(f"discord.gateway: connected with {HIDDEN}")
    assert "KeyError: 'missing'" in lines[1]
    assert "\x1b[" not in stream.getvalue()


def test_python_warnings_become_one_log_line(restored_logging: logging.Logger) -> None:
    stream = io.StringIO()
    setup_logging(logging.INFO, stream=stream, environ={})
    warnings.warn("old API", DeprecationWarning, stacklevel=1)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 1
    assert "py.warnings" in lines[0] and "DeprecationWarning: old API" in lines[0]


# -- LOG_FORMAT=json ---------------------------------------------------------------------------------------


@pytest.mark.logs_error(r"bot\.test: the AI failed \(ValueError")
def test_json_lines_are_one_object_per_event_with_the_same_fields_and_no_secret(
    restored_logging: logging.Logger,
) -> None:
    config = make_config(Path("unused.db"), database=parse_database_url("postgresql://puluc:hunter22@db/puluc"))
    stream = io.StringIO()
    setup_logging(logging.INFO, secrets=config.secrets, stream=stream, environ={}, json_lines=True)
    log = logging.getLogger("bot.test")
    log.info("login with %s (signature %s) to postgresql://puluc:%s@db", TOKEN, SIGNATURE, "hunter22")
    try:
        raise ValueError(f"boom {TOKEN}\nsecond line")
    except ValueError:
        log.exception("the AI failed")
    lines = stream.getvalue().splitlines()
    assert len(lines) == 2
    first, second = map(json.loads, lines)
    assert list(first) == ["time", "level", "logger", "message"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", first["time"])
    assert (first["level"], first["logger"]) == ("INFO", "bot.test")
    assert first["message"] == f"login with {HIDDEN} (signature {HIDDEN}) to postgresql://puluc:{HIDDEN}@db"
    assert second["message"] == "the AI failed"
    assert second["exception"].startswith("Traceback (most recent call last):")
    assert second["exception"].endswith(f"ValueError: boom {HIDDEN}\nsecond line")
    for secret in (TOKEN, SIGNATURE, "hunter22", TOKEN.split(".")[0]):
        assert secret not in stream.getvalue()


async def test_the_ids_bound_in_a_task_reach_its_records_and_no_other_tasks(
    restored_logging: logging.Logger,
) -> None:
    stream = io.StringIO()
    setup_logging(logging.INFO, stream=stream, environ={}, json_lines=True, shard_count=4)
    log = logging.getLogger("bot.test")
    server = 175928847299117063  # on shard (server >> 22) % 4

    async def a_game() -> None:
        bind(server_id=server, channel_id=41, game_id=7)
        log.info("game moved")

    async def elsewhere() -> None:
        log.info("something else")

    await asyncio.gather(asyncio.create_task(a_game()), asyncio.create_task(elsewhere()))
    log.info("one record's own ids", extra={"game_id": 9})
    records = {record["message"]: record for record in map(json.loads, stream.getvalue().splitlines())}
    assert {k: v for k, v in records["game moved"].items() if k.endswith("_id")} == {
        "server_id": server, "channel_id": 41, "game_id": 7, "shard_id": (server >> 22) % 4}
    assert "server_id" not in records["something else"]
    assert records["one record's own ids"]["game_id"] == 9


async def test_a_click_logs_its_server_channel_and_game(
    world: World, restored_logging: logging.Logger,
) -> None:
    session = await accepted_challenge(world)
    board = game_message(world.games)
    (mover,) = mentioned(board)
    waiting = next(member for member in (world.alice, world.bob) if member.id != mover)
    stream = io.StringIO()
    setup_logging(logging.DEBUG, stream=stream, environ={}, json_lines=True)
    await waiting.click(board, custom_id=move_ids(board)[0])  # not their turn: refused
    logged = [json.loads(line) for line in stream.getvalue().splitlines()]
    refusal = next(record for record in logged if record["message"].startswith("refused "))
    assert (refusal["server_id"], refusal["channel_id"], refusal["game_id"]) == (
        world.guild.id, world.games.id, session.game_id)
    assert all(part not in stream.getvalue() for part in TOKEN.split("."))
