"""Seasons through the offline Discord: a server manager closes a season (asked to confirm first), the
channel hears the podiums, the archived leaderboard and the profile's placement show it, and the wrong season
or the all-servers ladder is refused."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator

import discord
import pytest
import simcord

from bot.config import Config
from bot.storage import Storage
from bot.storage.urls import SqliteUrl
from bot.ui.replies import Refusal
from tests.bot.storage.games import play_many
from tests.helpers import DAY, FakeClock, World, embed_text, open_sqlite, present, said


@pytest.fixture
async def rated(world: World, config: Config) -> AsyncIterator[Storage]:
    """alice beat bob five times and carol beat dave five times, two days ago, on this server's ladders (the
    storage tests' games name a player "user<id>")."""
    assert isinstance(config.database, SqliteUrl)
    path = config.database.path
    clock = FakeClock(time.time() - 2 * DAY)
    storage = await open_sqlite(path, clock=clock)
    try:
        for winner, loser in ((world.alice, world.bob), (world.carol, world.dave)):
            await play_many(storage, clock, [winner.id, loser.id], "A", 5, guild_id=world.guild.id)
        yield storage
    finally:
        await storage.close()


def manager(world: World) -> simcord.MemberActor:
    managers = world.guild.create_role("Managers", permissions=discord.Permissions(manage_guild=True))
    return world.guild.add_member(world.env.create_user("boss"), roles=[managers])


async def test_a_manager_closes_the_season_after_confirming(world: World, rated: Storage) -> None:
    assert "puluc-admin season start" not in world.alice.available_commands(world.games)
    boss = manager(world)
    asked = await boss.slash(world.games, "puluc-admin season start")
    assert asked.ephemeral and "confirm: True" in said(asked)
    assert await rated.seasons.current_season(world.guild.id) == 1  # nothing happened yet

    closed = await boss.slash(world.games, "puluc-admin season start", confirm=True)

    assert closed.response is None or not closed.ephemeral
    told = present(world.games.last_message).content
    assert "Season 1 is over" in told and "Season 2 starts now" in told
    alice, bob, carol = (f"user{m.id}" for m in (world.alice, world.bob, world.carol))
    assert f"1 v 1: 🥇 {alice} · 🥈 {carol}" in told or f"1 v 1: 🥇 {carol} · 🥈 {alice}" in told
    assert "Teams: nobody was listed" in told
    assert await rated.seasons.current_season(world.guild.id) == 2
    live = await world.alice.slash(world.games, "puluc leaderboard")
    assert live.response is not None and alice not in embed_text(live.response)  # fresh ratings

    archived = await world.bob.slash(world.games, "puluc leaderboard", season=1)
    assert archived.response is not None
    text = embed_text(archived.response)
    assert "season 1" in text and alice in text and f"{bob}** · " in text and "◀" in text  # bob sees his line
    profile = await world.alice.slash(world.games, "puluc profile")
    assert profile.response is not None and "Best season placements" in embed_text(profile.response)
    assert "of 4 · 1 v 1 · season 1" in embed_text(profile.response)


async def test_an_unknown_season_and_the_all_servers_ladder_are_refused(world: World, rated: Storage) -> None:
    future = await world.alice.slash(world.games, "puluc leaderboard", season=4)
    assert "no season 4" in said(future) and "season 1 now" in said(future)
    everywhere = await world.alice.slash(world.games, "puluc leaderboard", scope="global", season=1)
    assert "have no seasons" in said(everywhere)
    current = await world.alice.slash(world.games, "puluc leaderboard", season=1)  # the season running now
    assert current.response is not None and f"user{world.alice.id}" in embed_text(current.response)
    simcord.assert_error(world.env, Refusal)
    assert await rated.seasons.current_season(world.guild.id) == 1
