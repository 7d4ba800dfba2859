"""The `puluc-bot` command (also `python -m bot`): run the bot, check the setup, or play an offline demo.

Every failure a server owner can cause ends here as one line on stderr and exit code 1, never a traceback.
This module must never print or log the Discord token.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from bot.config import ConfigError, Settings, load_settings

__all__ = ["main"]

PROG = "puluc-bot"
NO_FONT = "not found, so images use Pillow's plain built-in font (install fonts-dejavu-core)"


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line and run the chosen mode; return the exit code."""
    args = _parser().parse_args(argv)
    if args.demo is not None:
        # The demo needs no token and no database: it plays through the session steps and draws with bot.ui.boards.
        from bot.demo import run_demo

        try:
            print(run_demo(args.demo, seed=args.seed))
        except OSError as exc:
            return _fail(f"cannot write the demo to {args.demo}: {exc.strerror or exc}.")
        return 0

    try:
        settings = load_settings(os.environ, args.env_file)
    except ConfigError as exc:
        return _fail(str(exc))

    if args.check:
        return asyncio.run(_check(settings))

    import discord

    from bot.app import run_bot

    discord.utils.setup_logging(level=settings.log_level_number, root=True)
    return asyncio.run(run_bot(settings))


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Run the Puluc Discord bot. Settings come from the environment and a .env file "
        "(see .env.example); the environment wins.",
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument(
        "--check",
        action="store_true",
        help="validate the settings and the database without connecting to Discord, then exit",
    )
    mode.add_argument(
        "--demo",
        metavar="OUTDIR",
        type=Path,
        help="play one AI-vs-AI game offline and write its board images, replay GIF and record to OUTDIR",
    )
    parser.add_argument(
        "--env-file",
        metavar="PATH",
        type=Path,
        default=Path(".env"),
        help="the .env file to read (default: ./.env; a missing file is fine)",
    )
    parser.add_argument("--seed", type=int, default=1, help="random seed for --demo (default: 1)")
    return parser


async def _check(settings: Settings) -> int:
    from bot.storage import SchemaTooNew, StorageUnavailable, open_storage
    from renderer.fonts import find_font

    where = settings.database.where
    try:
        storage = await open_storage(settings.database)
    except SchemaTooNew as exc:
        return _fail(f"{where}: {exc}.")
    except StorageUnavailable as exc:
        return _fail(f"cannot open the database at {where}: {exc}; check DATABASE_URL.")
    try:
        verdict = await storage.integrity_check()
    finally:
        await storage.close()
    if verdict != "ok":
        return _fail(f"the database at {where} is damaged ({verdict}); restore it from a backup.")
    guilds = f"server {settings.dev_guild_id}" if settings.dev_guild_id is not None else "all servers"
    font = find_font(str(settings.font_path) if settings.font_path else None) or NO_FONT
    print(
        f"{PROG}: configuration OK: database {where} is migrated and intact; commands will sync to {guilds}; "
        f"board font {font}; the token looks well formed (Discord is not contacted by --check)."
    )
    return 0


def _fail(message: str) -> int:
    print(f"{PROG}: error: {message}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
