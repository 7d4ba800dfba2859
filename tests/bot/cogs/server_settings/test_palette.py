"""`/puluc-admin settings palette:` under SimCord: a server that chooses the high-contrast palette gets every
board (the game's, the tutorial's) in it from then on, and can go back to the standard one."""

from __future__ import annotations

import discord
import pytest
import simcord

from bot.services import services
from renderer.theme import THEMES
from tests.helpers import World, board_image, game_message, pixels, said

BLACK = THEMES["contrast"].background
DARK = THEMES["dark"].background


@pytest.fixture
def boss(world: World) -> simcord.MemberActor:
    managers = world.guild.create_role("Managers", permissions=discord.Permissions(manage_guild=True))
    return world.guild.add_member(world.env.create_user("boss"), roles=[managers])


def page(image: object) -> tuple[int, ...]:
    """The colour of the picture's corner: the page around the board."""
    return tuple(pixels(image.convert("RGB"))[0])  # type: ignore[attr-defined]


async def test_the_high_contrast_palette_is_saved_and_used_for_every_board(world: World, boss: simcord.MemberActor
                                                                         ) -> None:
    await world.alice.slash(world.games, "puluc ai", difficulty="easy")
    assert page(await board_image(game_message(world.games))) == DARK
    saved = await boss.slash(world.games, "puluc-admin settings", palette="high_contrast")
    assert "palette: High contrast" in said(saved)
    stored = await services(world.env.bot).storage.server_settings.guild_settings(world.guild.id)
    assert stored.palette == "high_contrast"
    await world.alice.slash(world.games, "puluc board")
    assert page(await board_image(game_message(world.games))) == BLACK
    back = await boss.slash(world.games, "puluc-admin settings", palette="standard")
    assert "palette: Standard" in said(back)
    stored = await services(world.env.bot).storage.server_settings.guild_settings(world.guild.id)
    assert stored.palette is None
    await world.alice.slash(world.games, "puluc board")
    assert page(await board_image(game_message(world.games))) == DARK
