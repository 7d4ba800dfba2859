"""The bot's log output: one line per event on stderr, coloured only on a terminal, never showing the token.

discord.py's own `setup_logging` colours its output whenever it guesses it runs in Docker, so escape codes
end up in files and `docker logs`, and it lets a traceback span many lines, which breaks `grep` and log
collectors that read one event per line. `setup_logging` here replaces it:
- colour only when the stream is a terminal, and never when `NO_COLOR` is set (https://no-color.org) or
  `TERM=dumb`;
- a traceback (or any multi-line message) is folded into its event's line, its lines joined by " | ";
- every occurrence of the secrets it is given (the token, and its signature part alone) becomes
  "[token hidden]", whoever logged it.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Iterable, Mapping
from typing import TextIO

__all__ = ["HIDDEN", "OneLineFormatter", "setup_logging", "wants_colour"]

HIDDEN = "[token hidden]"
HANDLER_NAME = "puluc-bot"
DATE_FORMAT = "%Y-%m-%d %H:%M:%S"
_RESET = "\x1b[0m"
_DIM = "\x1b[2m"
_LEVEL_COLOURS = {
    logging.DEBUG: "\x1b[34m",  # blue
    logging.INFO: "\x1b[32m",  # green
    logging.WARNING: "\x1b[33m",  # yellow
    logging.ERROR: "\x1b[31m",  # red
    logging.CRITICAL: "\x1b[1;31m",  # bold red
}


class OneLineFormatter(logging.Formatter):
    """`2026-05-01 12:00:00 INFO     bot.app: message`, always one line, secrets hidden."""

    def __init__(self, *, colour: bool = False, secrets: Iterable[str] = ()) -> None:
        super().__init__(datefmt=DATE_FORMAT)
        self.colour = colour
        # Longest first, so the whole token is hidden before its signature part is looked for.
        self._secrets = sorted({secret for secret in secrets if secret}, key=len, reverse=True)

    def format(self, record: logging.LogRecord) -> str:
        message = record.getMessage()
        if record.exc_info:
            message = f"{message}\n{self.formatException(record.exc_info)}"
        if record.stack_info:
            message = f"{message}\n{self.formatStack(record.stack_info)}"
        for secret in self._secrets:
            message = message.replace(secret, HIDDEN)
        message = " | ".join(line.strip() for line in message.splitlines() if line.strip())
        level = f"{record.levelname:<8}"
        name = record.name
        if self.colour:
            level = f"{_LEVEL_COLOURS.get(record.levelno, '')}{level}{_RESET}"
            name = f"{_DIM}{name}{_RESET}"
        return f"{self.formatTime(record, self.datefmt)} {level} {name}: {message}"


def wants_colour(stream: TextIO, environ: Mapping[str, str]) -> bool:
    """Colour for a terminal only, unless NO_COLOR is set (to anything but "") or the terminal is dumb."""
    if environ.get("NO_COLOR") or environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def setup_logging(
    level: int,
    *,
    secrets: Iterable[str] = (),
    stream: TextIO | None = None,
    environ: Mapping[str, str] = os.environ,
) -> logging.Handler:
    """Send every log record at `level` and above (and Python's warnings) to `stream` (stderr), one line each.

    Replaces the handler an earlier call installed on the root logger; returns the one installed.
    """
    target = stream if stream is not None else sys.stderr
    handler = logging.StreamHandler(target)
    handler.set_name(HANDLER_NAME)
    handler.setFormatter(OneLineFormatter(colour=wants_colour(target, environ), secrets=secrets))
    root = logging.getLogger()
    for old in [old for old in root.handlers if old.get_name() == HANDLER_NAME]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    # A warnings.warn from a library would otherwise print two lines (the warning and the source line).
    logging.captureWarnings(True)
    return handler
