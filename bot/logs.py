"""The bot's log output: one line per event on stderr, coloured only on a terminal, never showing a secret.

discord.py's own `setup_logging` colours its output whenever it guesses it runs in Docker, so escape codes
end up in files and `docker logs`, and it lets a traceback span many lines, which breaks `grep` and log
collectors that read one event per line. `setup_logging` here replaces it:
- colour only when the stream is a terminal, and never when `NO_COLOR` is set (https://no-color.org) or
  `TERM=dumb`;
- a traceback (or any multi-line message) is folded into its event's line, its lines joined by " | ";
- every occurrence of the secrets it is given (the token, its signature part alone, the database password)
  becomes "[token hidden]", whoever logged it.

With `LOG_FORMAT=json` (`JsonFormatter`) each event is one JSON object on its line instead, with the same
fields (`time` in UTC, `level`, `logger`, `message`, and `exception` for a traceback) plus the ids of what it
concerns where they are known: `server_id`, `channel_id`, `game_id` and `shard_id`. Those come from `bind`,
which the interaction and game-timer paths call, so every record logged while handling them carries them;
`extra={"game_id": ...}` on one call does the same for one record.
"""

from __future__ import annotations

import contextvars
import json
import logging
import os
import sys
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import TextIO

__all__ = ["HIDDEN", "IDS", "JsonFormatter", "OneLineFormatter", "bind", "setup_logging", "wants_colour"]

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


#: The ids a JSON record may carry, in the order it shows them.
IDS = ("server_id", "channel_id", "game_id", "shard_id")
_BOUND: contextvars.ContextVar[tuple[tuple[str, int], ...]] = contextvars.ContextVar("puluc_log_ids", default=())


def bind(**ids: int | None) -> None:
    """Attach these ids (`server_id`, `channel_id`, `game_id`; None: unknown) to every record logged from now on
    in the current task and the tasks it starts."""
    known = {name: int(value) for name, value in ids.items() if value is not None and name in IDS}
    if known:
        _BOUND.set(tuple({**dict(_BOUND.get()), **known}.items()))


class _Secrets:
    """Replaces every secret in a text, longest first (the whole token before its signature part alone)."""

    def __init__(self, secrets: Iterable[str]) -> None:
        self._secrets = sorted({secret for secret in secrets if secret}, key=len, reverse=True)

    def hide(self, text: str) -> str:
        for secret in self._secrets:
            text = text.replace(secret, HIDDEN)
        return text


class OneLineFormatter(logging.Formatter):
    """`2026-05-01 12:00:00 INFO     bot.app: message`, always one line, secrets hidden."""

    def __init__(self, *, colour: bool = False, secrets: Iterable[str] = ()) -> None:
        super().__init__(datefmt=DATE_FORMAT)
        self.colour = colour
        self._secrets = _Secrets(secrets)

    def format(self, record: logging.LogRecord) -> str:
        message = record.getMessage()
        if record.exc_info:
            message = f"{message}\n{self.formatException(record.exc_info)}"
        if record.stack_info:
            message = f"{message}\n{self.formatStack(record.stack_info)}"
        message = self._secrets.hide(message)
        message = " | ".join(line.strip() for line in message.splitlines() if line.strip())
        level = f"{record.levelname:<8}"
        name = record.name
        if self.colour:
            level = f"{_LEVEL_COLOURS.get(record.levelno, '')}{level}{_RESET}"
            name = f"{_DIM}{name}{_RESET}"
        return f"{self.formatTime(record, self.datefmt)} {level} {name}: {message}"


class JsonFormatter(logging.Formatter):
    """`{"time": "2026-05-01T12:00:00.123Z", "level": "INFO", "logger": "bot.app", "message": "...",
    "server_id": 1, "channel_id": 2, "game_id": 3, "shard_id": 0}`: one object per line, secrets hidden.

    `shard_count` (SHARD_COUNT) gives a record with a server its `shard_id`, as Discord routes that server."""

    def __init__(self, *, secrets: Iterable[str] = (), shard_count: int | None = None) -> None:
        super().__init__()
        self._secrets = _Secrets(secrets)
        self.shard_count = shard_count

    def format(self, record: logging.LogRecord) -> str:
        moment = datetime.fromtimestamp(record.created, UTC)
        fields: dict[str, object] = {
            "time": moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "message": self._secrets.hide(record.getMessage()),
        }
        trace = []
        if record.exc_info:
            trace.append(self.formatException(record.exc_info))
        if record.stack_info:
            trace.append(self.formatStack(record.stack_info))
        if trace:
            fields["exception"] = self._secrets.hide("\n".join(trace))
        ids = dict(_BOUND.get())
        for name in IDS:
            value = getattr(record, name, None)
            if isinstance(value, int):
                ids[name] = value
        server = ids.get("server_id")
        if self.shard_count is not None and server is not None and "shard_id" not in ids:
            ids["shard_id"] = (server >> 22) % self.shard_count
        fields.update((name, ids[name]) for name in IDS if name in ids)
        return json.dumps(fields, ensure_ascii=False)


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
    json_lines: bool = False,
    shard_count: int | None = None,
) -> logging.Handler:
    """Send every log record at `level` and above (and Python's warnings) to `stream` (stderr), one line each:
    text, or with `json_lines` one JSON object (`JsonFormatter`).

    Replaces the handler an earlier call installed on the root logger; returns the one installed.
    """
    target = stream if stream is not None else sys.stderr
    handler = logging.StreamHandler(target)
    handler.set_name(HANDLER_NAME)
    formatter: logging.Formatter
    if json_lines:
        formatter = JsonFormatter(secrets=secrets, shard_count=shard_count)
    else:
        formatter = OneLineFormatter(colour=wants_colour(target, environ), secrets=secrets)
    handler.setFormatter(formatter)
    root = logging.getLogger()
    for old in [old for old in root.handlers if old.get_name() == HANDLER_NAME]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    # A warnings.warn from a library would otherwise print two lines (the warning and the source line).
    logging.captureWarnings(True)
    return handler
