"""Flow 7: every refusal a user can cause gets one clear sentence, shown only to them."""

from __future__ import annotations

import discord
import pytest
import simcord

from tests.helpers import World, custom_ids, game_message, said


async def test_a_second_game_in_a_busy_channel_links_to_the_first(world: World) -> None:
    first = await world.alice.slash(world.games, "puluc new")
    assert first.response is not None
    again = await world.bob.slash(world.games, "puluc new")
    assert again.ephemeral and "already running" in said(again)
    assert f"/{world.games.id}/{first.response.id}" in said(again)
    challenge = await world.carol.slash(world.games, "puluc challenge", opponent=world.dave)
    assert "already running" in said(challenge)


async def test_option_values_outside_the_choices_never_reach_the_bot(world: World) -> None:
    with pytest.raises(simcord.OptionError):
        await world.alice.slash(world.games, "puluc new", team_size=9)
    with pytest.raises(simcord.OptionError):
        await world.alice.slash(world.games, "puluc new", variant="chess")
    with pytest.raises(simcord.OptionError):
        await world.alice.slash(world.games, "puluc new", turn_timer=5)


async def test_bad_values_the_bot_checks_get_a_clear_sentence(world: World) -> None:
    nothing = await world.alice.slash(world.games, "puluc move", move="2:H")
    assert "No game is running" in said(nothing)
    opened = await world.alice.slash(world.games, "puluc new")
    assert opened.response is not None
    await world.bob.click(opened.response.message, custom_id=custom_ids(opened.response, "puluc:join:")[0])
    lobby = game_message(world.games)
    await world.alice.click(lobby, custom_id=custom_ids(lobby, "puluc:start:")[0])
    for member in (world.alice, world.bob):
        garbled = await member.slash(world.games, "puluc move", move="banana")
        assert said(garbled).startswith("banana is not a move in notation") or "not your turn" in said(garbled)
    replay = await world.alice.slash(world.games, "puluc replay", game_id=999)
    assert "no game #999" in said(replay).lower() or "999" in said(replay)
    team = await world.carol.slash(world.guild.create_text_channel("other"), "puluc new", variant="culin",
                                   team_size=1, setup="traditional")
    assert team.response is not None  # a valid combination still opens


async def test_missing_permission_to_attach_files_is_named(world: World) -> None:
    me = world.guild.me
    assert me is not None
    no_files = world.guild.create_text_channel(
        "no-files", overwrites={me: discord.PermissionOverwrite(attach_files=False, embed_links=False)})
    for command, options in (("puluc new", {}), ("puluc ai", {}),
                             ("puluc challenge", {"opponent": world.bob})):
        refused = await world.alice.slash(no_files, command, **options)
        assert refused.ephemeral, command
        # Exactly the missing permissions are named, not the ones the bot has.
        assert "Attach Files" in said(refused) and "Embed Links" in said(refused), command
        assert "Send Messages" not in said(refused), command
    assert not [m for m in no_files.history() if not m.flags.ephemeral]  # no game was opened there


async def test_outsiders_cannot_cancel_or_resign_a_game(world: World) -> None:
    opened = await world.alice.slash(world.games, "puluc new")
    assert opened.response is not None
    outsider_cancel = await world.carol.click(opened.response.message,
                                             custom_id=custom_ids(opened.response, "puluc:cancel:")[0])
    assert "host" in said(outsider_cancel)
    resign = await world.carol.slash(world.games, "puluc resign")
    assert said(resign)
