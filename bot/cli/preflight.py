"""What the bot checks before it contacts Discord: which settings file it read, the database, the board font.

`preflight` runs for `puluc-bot --check`, which prints its findings and stops, and at start-up, which logs
the same findings and goes on. It changes nothing on disk: a database that does not exist yet is reported
with what start-up will create (`open_storage` creates it later), an existing one is read without writing.
Every check runs whatever the others found, so one run reports every problem: each is one line saying what
to do (`Preflight.problems`; a database failure names its fix: the GRANT to run, the server to start, the
database to create). It does not connect to Discord, and the token appears in none of its findings.
"""

from __future__ import annotations

import asyncio
import getpass
import os
import re
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from bot.config import Config
from bot.config_spec import DATABASE_URL, FONT_PATH, SHARD_COUNT
from bot.storage import (
    Inspection,
    PostgresUrl,
    SchemaTooNew,
    SqliteUrl,
    StorageUnavailable,
    UnsupportedDatabaseUrl,
    inspect_storage,
)

__all__ = ["BUILTIN_FONT", "Preflight", "PreflightError", "check_font", "database_problem", "preflight", "survey"]

BUILTIN_FONT = "Pillow's plain built-in font, as DejaVu Sans was not found (install fonts-dejavu-core)"


class PreflightError(Exception):
    """The bot cannot run as configured; the message is one line a server owner can act on."""


@dataclass(frozen=True, slots=True)
class Preflight:
    """What `preflight` found: every line is true of the setup as it is now."""

    config: Config
    database: Inspection | None  # None: it could not be looked at (a problem says why)
    font: str | None  # the font file the boards are drawn with, BUILTIN_FONT, or None: it cannot draw
    problems: tuple[str, ...] = ()  # one line each; none: the bot can start

    @property
    def notes(self) -> tuple[str, ...]:
        """Things that work but are probably not what the owner meant."""
        return self.config.hints

    def findings(self, *, starting: bool = False) -> tuple[str, ...]:
        """One line each: the settings file, the database, the font, the shards, and for `--check` the invite
        link (`starting`: said at start-up)."""
        env = self.config.env_file
        found = [str(env) if env is not None else "settings from the environment only"]
        if self.database is not None:
            found.append(f"database {self.database.where}: {self.database.describe(starting=starting)}")
        if self.font is not None:
            found.append(f"board font: {self.font}")
        found.append(describe_shards(self.config))
        found.append(describe_activity(self.config))
        if self.config.web_port is not None or self.config.web_base_url is not None:
            found.append(describe_web(self.config))
        application = self.config.application_id
        if application is not None and not starting:
            # Imported here: the client loads every feature, which nothing else of --check needs.
            from bot.app import invite_url

            found.append(f"invite link (add the bot to a server you manage): {invite_url(application)}")
        return tuple(found)

    def raise_problems(self) -> Preflight:
        """This, or `PreflightError` with its problems, one line each."""
        if self.problems:
            raise PreflightError("\n".join(self.problems))
        return self


def describe_web(config: Config) -> str:
    """What the settings do with the web pages, in one line (said when WEB_PORT or WEB_BASE_URL is set)."""
    if config.web_port is None:
        served = "not served by this process (WEB_PORT empty; `puluc-bot web` serves them alone)"
    else:
        served = f"served on http://{config.web_host}:{config.web_port}"
    links = (f"the bot links to them under {config.web_base_url}" if config.web_base_url is not None
             else "no link buttons (WEB_BASE_URL empty)")
    return f"web pages: {served}; {links}"


async def preflight(config: Config) -> Preflight:
    """Check the shards, the database and the font `config` names, changing nothing; `PreflightError` with
    every problem found, one line each."""
    return (await survey(config)).raise_problems()


async def survey(config: Config, *, skip: Collection[str] = ()) -> Preflight:
    """Check the shards, the database and the font `config` names, changing nothing; every problem found is in
    `problems`. `skip` names settings already found wrong (`ConfigReport.failed`), whose checks would only
    repeat that."""
    problems = []
    if SHARD_COUNT.name not in skip and DATABASE_URL.name not in skip:
        problems += [problem for problem in [shards_problem(config)] if problem]
    database = None
    if DATABASE_URL.name not in skip:
        try:
            database = await inspect_database(config)
        except PreflightError as exc:
            problems.append(str(exc))
    font = None
    if FONT_PATH.name not in skip:
        try:
            font = await asyncio.to_thread(check_font, config.font_path)
        except PreflightError as exc:
            problems.append(str(exc))
    return Preflight(config, database, font, tuple(problems))


def check_shards(config: Config) -> None:
    """`PreflightError` when SHARD_IDS leaves shards to other processes on a database only one can use."""
    problem = shards_problem(config)
    if problem:
        raise PreflightError(problem)


def shards_problem(config: Config) -> str | None:
    """SHARD_IDS that leave shards to other processes need a database they can share: PostgreSQL."""
    shards = config.shards
    if shards is not None and not shards.is_whole and isinstance(config.database, SqliteUrl):
        return (
            f"SHARD_IDS runs {shards} in this process, so other processes would run the rest, but a SQLite "
            "file serves one process only: use PostgreSQL (docs/OPERATIONS.md, Scaling) or leave SHARD_IDS empty."
        )
    return None


def describe_shards(config: Config) -> str:
    shards = config.shards
    if shards is None:
        return "shards: one process for every server (SHARD_COUNT and SHARD_IDS empty)"
    if shards.is_whole:
        return f"shards: this process runs all {shards.count} shards of SHARD_COUNT={shards.count}"
    return f"shards: this process runs {shards}; others on the same database run the rest"


def describe_activity(config: Config) -> str:
    """Whether the Discord Activity is on (docs/OPERATIONS.md, Discord Activity), without the secret."""
    client = config.activity_client
    if client is None:
        return "Discord Activity: off (set DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET to offer the live board)"
    if config.web_port is None:
        return (
            f"Discord Activity: configured for application {client.client_id} but not served by this process: it "
            "is mounted on the web pages of the bot's own process, so set WEB_PORT (docs/OPERATIONS.md)"
        )
    found = (
        f"Discord Activity: on for application {client.client_id}; game messages offer \"Play on the board\" (it also "
        "needs the web companion over HTTPS and the developer portal's URL mapping, docs/OPERATIONS.md)"
    )
    shards = config.shards
    if shards is not None and not shards.is_whole:
        paths = ", ".join(f"/activity/shard-{shard}/" for shard in shards.ids)
        found += f"; the reverse proxy must send {paths} to this process"
    return found


async def inspect_database(config: Config) -> Inspection:
    try:
        found = await inspect_storage(config.database)
    except (SchemaTooNew, StorageUnavailable, UnsupportedDatabaseUrl) as exc:
        raise PreflightError(database_problem(config, exc)) from exc
    if found.integrity != "ok":
        where = config.database.where
        raise PreflightError(f"the database at {where} is damaged ({found.integrity}); restore it from a backup.")
    return found


def database_problem(config: Config, error: Exception) -> str:
    """One line for a database that cannot be used, saying what to do: the same from `--check` and start-up."""
    url, where = config.database, config.database.where
    if isinstance(error, SchemaTooNew):
        return f"{where}: {error}."
    if isinstance(error, UnsupportedDatabaseUrl):
        return f"{error}."
    if isinstance(url, PostgresUrl):
        fix = _postgres_fix(url, error)
        if fix is not None:
            return fix
    return f"cannot use the database at {where}: {error}; check DATABASE_URL."


def _postgres_fix(url: PostgresUrl, error: Exception) -> str | None:
    """What to do about a PostgreSQL failure, by the SQLSTATE the server gave (PostgreSQL's own codes)."""
    server = url.where.rsplit("/", 1)[0]
    # Who the driver logs in as when the URL names nobody (asyncpg, as libpq: PGUSER, else the login name).
    user = url.user or os.environ.get("PGUSER") or getpass.getuser()
    state = _sqlstate(error)
    if state == "42501":
        schema = _schema(url)
        return (
            f"the PostgreSQL user {user} may not create the bot's tables in schema {schema} of {url.where} "
            "(since PostgreSQL 15 only the database's owner may, unless granted): as the owner or a superuser, "
            f"run in database {url.database}: GRANT CREATE ON SCHEMA {_ident(schema)} TO {_ident(user)};"
        )
    if state == "28P01":
        return (
            f"PostgreSQL at {server} refused the password of user {user}: correct the password in DATABASE_URL "
            "(or PGPASSWORD)."
        )
    if state is not None and state.startswith("28"):
        return (
            f"PostgreSQL at {server} refused the login of user {user} (no such user, or pg_hba.conf does not let "
            "it connect from this machine): correct the user in DATABASE_URL, or as a superuser run "
            f"CREATE ROLE {_ident(user)} LOGIN PASSWORD '...';"
        )
    if state == "3D000":
        return (
            f"PostgreSQL at {server} has no database {url.database}: create it (as a superuser: CREATE DATABASE "
            f"{_ident(url.database)} OWNER {_ident(user)};) or correct its name in DATABASE_URL."
        )
    if state is None and isinstance(error, StorageUnavailable) and error.reason == "unreachable":
        host, _, port = server.rpartition(":")
        return (
            f"cannot reach PostgreSQL at {server} ({error}): start the server, or correct the host and port in "
            f"DATABASE_URL (pg_isready -h {host.strip('[]')} -p {port} tells whether it answers)."
        )
    return None


def _sqlstate(error: BaseException) -> str | None:
    """The SQLSTATE of the driver's error behind `error`, if the server gave one."""
    cause: BaseException | None = error
    while cause is not None:
        state = getattr(cause, "sqlstate", None)
        if isinstance(state, str) and state:
            return state
        cause = cause.__cause__
    return None


def _schema(url: PostgresUrl) -> str:
    paths = parse_qs(urlsplit(url.dsn).query).get("search_path", [])
    first = paths[0].split(",")[0].strip() if paths else ""
    return first or "public"


def _ident(name: str) -> str:
    """`name` as SQL writes it: bare when it is a plain lower-case name, else double-quoted."""
    if re.fullmatch(r"[a-z_][a-z0-9_$]*", name):
        return name
    return '"' + name.replace('"', '""') + '"'


def check_font(path: Path | None) -> str:
    """Draw a board with the font at `path` (None: DejaVu Sans, else Pillow's own); return what was used.

    Also makes it the font of every image from now on. `PreflightError` when the file is not a font.
    """
    # Imported here: the renderer and the engine load Pillow and the rule tables, which `--demo` and a
    # settings error never need.
    import renderer
    from puluc import Position, Rules
    from renderer.fonts import find_font

    try:
        renderer.use_font(str(path) if path is not None else None)
        renderer.render_board(Position.start(Rules.preset("bell")))
    except (OSError, ValueError) as exc:
        # Pillow says OSError("unknown file format") for a file that is no font; FontNotFound is a ValueError.
        renderer.use_font(None)
        what = f"FONT_PATH {path}" if path is not None else f"the font {find_font()}"
        raise PreflightError(
            f"{what} cannot draw the board images ({exc}); give a .ttf or .otf font file, or leave "
            "FONT_PATH empty to use DejaVu Sans."
        ) from exc
    return find_font() or BUILTIN_FONT
