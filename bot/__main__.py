"""The `puluc-bot` command (also `python -m bot`): run the bot, check the setup, or play an offline demo.

`--version` prints the installed release (CHANGELOG.md), the Python and the discord.py it runs on.

Every failure a server owner can cause ends here as lines on stderr and exit code 1, never a traceback: one
line per problem, all of them found in one run (every setting, the database, the font), then every typo hint.
`--check` and start-up report the same findings (`bot.cli.preflight`): which `.env` was read, which database
(new, or existing with how many games and players), which font; `--check` prints them, and the invite link,
and changes nothing. The token never appears in what it prints.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import platform
import sys
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING

from bot.config import ConfigError, ConfigReport, find_env_file, read_config

if TYPE_CHECKING:
    from bot.cli.preflight import Preflight

__all__ = ["main", "version_text"]

PROG = "puluc-bot"

log = logging.getLogger("bot")


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line and run the chosen mode; return the exit code."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["copy-data"]:
        from bot.cli.copy_data import main as copy_data

        return copy_data(argv[1:])
    if argv[:1] == ["web"]:
        from bot.cli.web import main as web

        return web(argv[1:])
    if argv[:1] == ["backup"]:
        from bot.cli.backup import main as backup

        return backup(argv[1:])
    args = _parser().parse_args(argv)
    if args.version:
        print(version_text())
        return 0
    if args.demo is not None:
        if args.env_file is not None:
            return _fail("--demo needs no settings, so --env-file does nothing with it; leave one of them out.")
        return _demo(args.demo, 1 if args.seed is None else args.seed)
    if args.seed is not None:
        return _fail(f"--seed chooses the game of --demo and nothing else; write {PROG} --demo OUTDIR --seed N.")

    try:
        report = read_config(os.environ, find_env_file(args.env_file))
    except ConfigError as exc:
        return _fail(*exc.problems)

    if args.check:
        return asyncio.run(_check(report))

    if not report.problems:
        from bot.logs import setup_logging

        config = report.config
        setup_logging(config.log_level_number, secrets=config.secrets, json_lines=config.log_format == "JSON",
                      shard_count=config.shards.count if config.shards is not None else None)
    return asyncio.run(_start(report))


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Run the Puluc Discord bot. Settings come from the environment and a .env file "
        "(see .env.example); the environment wins.",
        epilog="To back up the database while the bot runs: puluc-bot backup PATH. To move it to another backend: "
        "puluc-bot copy-data SOURCE_URL TARGET_URL. To serve the web pages alone beside shard processes on "
        "PostgreSQL: puluc-bot web.",
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument(
        "--check",
        action="store_true",
        help="check the settings, the database and the font without connecting to Discord or changing "
        "anything, then exit",
    )
    mode.add_argument(
        "--demo",
        metavar="OUTDIR",
        type=Path,
        help="play one AI-vs-AI game offline and write its board images, replay GIF and record to OUTDIR "
        "(a new or empty folder, or one holding an earlier demo, which is replaced)",
    )
    mode.add_argument("--version", action="store_true", help="print the installed version and exit")
    parser.add_argument(
        "--env-file",
        metavar="PATH",
        type=Path,
        help="the settings file to read, which must exist (default: .env in the current folder, if there is "
        "one); relative paths in it are relative to its folder",
    )
    parser.add_argument("--seed", type=int, help="random seed for --demo (default: 1)")
    return parser


async def _check(report: ConfigReport) -> int:
    found = await _survey(report)
    if found is None:
        return 1
    for line in (*found.findings(), *found.notes):
        print(f"{PROG}: {line}")
    config = report.config
    guilds = f"server {config.dev_guild_id}" if config.dev_guild_id is not None else "all servers"
    print(
        f"{PROG}: configuration OK: commands will sync to {guilds}; the token looks well formed "
        "(Discord is not contacted by --check)."
    )
    return 0


async def _start(report: ConfigReport) -> int:
    found = await _survey(report)
    if found is None:
        return 1
    for line in found.findings(starting=True):
        log.info("%s", line)
    for line in found.notes:
        log.warning("%s", line)
    from bot.app import run_bot

    return await run_bot(report.config)


async def _survey(report: ConfigReport) -> Preflight | None:
    """What `--check` and start-up find; None once every problem (settings, database, font) and every hint
    has been printed, one line each."""
    from bot.cli.preflight import survey

    found = await survey(report.config, skip=report.failed)
    if report.problems or found.problems:
        _fail(*report.problems, *found.problems, hints=report.config.hints)
        return None
    return found


def _demo(outdir: Path, seed: int) -> int:
    # The demo needs no token and no database: it plays through the session steps and draws with bot.cogs.games.boards.
    from bot.cli.demo import DemoFolderInUse, run_demo

    try:
        print(run_demo(outdir, seed=seed))
    except DemoFolderInUse as exc:
        return _fail(f"{exc}.")
    except OSError as exc:
        return _fail(f"cannot write the demo to {outdir}: {exc.strerror or exc}.")
    return 0


def version_text() -> str:
    """`puluc-bot 0.2.0 (Python 3.11.7, discord.py 2.7.1)`: the installed release, which a non-editable install
    keeps until it is installed again (docs/OPERATIONS.md, Upgrading)."""
    try:
        version = metadata.version("puluc-bot")
    except metadata.PackageNotFoundError:
        version = "(not installed: run pip install . in its folder)"
    return f"{PROG} {version} (Python {platform.python_version()}, discord.py {metadata.version('discord.py')})"


def _fail(*problems: str, hints: Sequence[str] = ()) -> int:
    """Print every problem, then every hint, one line each on stderr; the exit code 1."""
    for problem in problems:
        print(f"{PROG}: error: {problem}", file=sys.stderr)
    for hint in hints:
        print(f"{PROG}: hint: {hint}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
