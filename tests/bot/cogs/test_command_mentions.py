"""Public messages name commands as Discord command mentions (`</puluc leaderboard:ID>`), which every member's
client shows in its own language, never as one language's typed words: the tournament card, the season's close
and a player's history, through SimCord, with the ids SimCord gave the commands when the bot synced them."""

from __future__ import annotations

import ast
import re
import time
from pathlib import Path

import discord
import pytest

import bot
from bot.cogs.seasons.embeds import started_text
from bot.config import Config
from bot.ratings.seasons import Season
from bot.services import mentions_of
from bot.storage.urls import SqliteUrl
from bot.ui.commands import CommandMentions
from tests.bot.storage.games import play_many
from tests.helpers import DAY, FakeClock, World, custom_ids, open_sqlite, present

TYPED = re.compile(r"(?<!<)/(puluc|пулук)\b")  # a command typed out, not inside a mention


def mention(world: World, name: str) -> str:
    """How Discord writes a mention of the command `name`, with the id SimCord gave its top-level command."""
    found = world.env.backend.find_command(name.split()[0], world.guild.id)
    assert found is not None, name
    return f"</{name}:{found['id']}>"


def mentioned_in_code() -> set[str]:
    """Every command name the bot's code asks a mention of (`mention("puluc replay")`)."""
    names = set()
    for path in Path(bot.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name | ast.Attribute)
                    and (node.func.id if isinstance(node.func, ast.Name) else node.func.attr) == "mention"
                    and node.args and isinstance(node.args[0], ast.Constant)):
                names.add(str(node.args[0].value))
    return names


async def test_the_bot_learns_the_ids_discord_gave_its_commands(world: World) -> None:
    mentions = mentions_of(world.env.bot)
    assert mentions("puluc new") == mention(world, "puluc new")
    assert mentions("puluc-admin season start") == mention(world, "puluc-admin season start")
    assert CommandMentions()("puluc new") == "/puluc new"  # before the commands are synced: typed out
    named = mentioned_in_code()
    assert named >= {"puluc tournament standings", "puluc leaderboard", "puluc replay"}
    commands = {command.qualified_name for command in world.bot.tree.walk_commands()}
    assert named <= commands


async def test_the_tournament_card_names_the_standings_command_with_a_mention(world: World) -> None:
    await world.alice.slash(world.games, "puluc tournament create", name="Winter Cup", format="swiss")
    card = next(m for m in reversed(world.games.history()) if custom_ids(m, "puluc:tour:", enabled=False))
    (embed,) = card.embeds
    assert mention(world, "puluc tournament standings") in (embed.description or "")
    assert embed.footer.text == "Tournament #1"
    assert not TYPED.search(embed.description or "")


async def test_closing_a_season_and_a_history_name_their_commands_with_mentions(
    world: World, config: Config
) -> None:
    clock = FakeClock(time.time() - 2 * DAY)
    assert isinstance(config.database, SqliteUrl)
    storage = await open_sqlite(config.database.path, clock=clock)
    try:
        await play_many(storage, clock, [world.alice.id, world.bob.id], "A", 2, guild_id=world.guild.id)
    finally:
        await storage.close()
    managers = world.guild.create_role("Managers", permissions=discord.Permissions(manage_guild=True))
    boss = world.guild.add_member(world.env.create_user("boss"), roles=[managers])
    await boss.slash(world.games, "puluc-admin season start", confirm=True)
    told = present(world.games.last_message).content
    assert f"{mention(world, 'puluc leaderboard')} shows them when you choose season 1." in told
    assert not TYPED.search(told)

    history = await world.bob.slash(world.games, "puluc history")
    assert history.response is not None and history.response.ephemeral  # personal: only the caller sees it
    (embed,) = history.response.embeds
    assert (embed.description or "").endswith(f"Watch one again with {mention(world, 'puluc replay')} and its number.")
    assert not TYPED.search(embed.description or "")


@pytest.mark.parametrize("lang", ["uk", "es"])
def test_a_mention_is_the_same_in_every_language(lang: str) -> None:
    closed = Season(guild_id=1, number=3, started_at=0.0, ended_at=1.0)
    text = started_text(closed, [], lang, lambda name: f"</{name}:42>")
    assert "</puluc leaderboard:42>" in text and not TYPED.search(text)
