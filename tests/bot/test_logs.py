"""Log output: one line per event, colour only on a terminal and never with NO_COLOR, the token never shown."""

from __future__ import annotations

import io
import logging
import sys
import warnings

import pytest

from bot.logs import HIDDEN, OneLineFormatter, setup_logging, wants_colour
from tests.helpers import TOKEN

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
    try:
        {}["missing"]
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
