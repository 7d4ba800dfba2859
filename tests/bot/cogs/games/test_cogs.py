"""The game cogs through a simulated Discord (SimCord), one command or button at a time: the lobby, the
menu, resigning, timers, threads, cooldowns, settings, translations, a message that scrolled away.

Whole flows (a challenge played to its result, 2 v 2, the AI, autocomplete, restarts, concurrent and stale
clicks, refusals) have their one home in tests/e2e.
"""

from __future__ import annotations

from typing import Any

import discord
import pytest
import simcord
import simcord.interactions as sim_interactions

from bot.cogs.games.presenter import FRESH_AFTER
from bot.services import services
from bot.ui.replies import Refusal
from tests.helpers import World, custom_ids, game_message, move_ids, present, said


async def started_duel(world: World) -> discord.Message:
    opened = await world.alice.slash(world.games, "puluc new")
    message = present(opened.response).message
    await world.bob.click(message, custom_id="puluc:join:1:0:B")
    await world.alice.click(message, custom_id="puluc:start:1:0:-")
    return message


async def test_a_lobby_fills_starts_and_shows_the_board_with_move_buttons(world: World) -> None:
    opened = await world.alice.slash(world.games, "puluc new")
    lobby = present(opened.response)
    assert not opened.ephemeral
    assert "Puluc #1" in present(lobby.embeds[0].title)
    # alice fills team A: its Join button shows, disabled; only team B can be joined.
    assert "puluc:join:1:0:A" in custom_ids(lobby, enabled=False)
    assert custom_ids(lobby, "puluc:join:") == ["puluc:join:1:0:B"]

    await world.bob.click(lobby.message, custom_id="puluc:join:1:0:B")
    assert "bob" in present(present(world.games.last_message).embeds[0].fields[1].value)

    await world.alice.click(lobby.message, custom_id="puluc:start:1:0:-")
    board = game_message(world.games)
    assert custom_ids(board, "puluc:move:1:") and custom_ids(board, "puluc:resign:1:")
    assert board.embeds[0].image.url == "attachment://board.png"
    (attachment,) = board.attachments
    assert attachment.filename == "board.png"


async def test_settings_are_hidden_from_members_without_manage_server(world: World) -> None:
    assert "puluc-admin settings" not in world.alice.available_commands(world.games)
    managers = world.guild.create_role("Managers", permissions=discord.Permissions(manage_guild=True))
    boss = world.guild.add_member(world.env.create_user("boss"), roles=[managers])
    saved = await boss.slash(world.games, "puluc-admin settings", ranked=False, turn_timer=120)
    assert saved.ephemeral and "2 minutes" in present(saved.response).content

    refused = await world.alice.slash(world.games, "puluc new", ranked=True)
    assert refused.ephemeral and "turned off" in present(refused.response).content
    simcord.assert_error(world.env, Refusal)


async def test_an_absent_player_gets_a_move_played_when_the_timer_runs_out(world: World) -> None:
    await started_duel(world)
    session = services(world.env.bot).manager.get(1)
    mover = session.state.to_move
    assert mover is not None
    seq = session.state.seq

    await world.env.advance_time(599)
    assert session.state.seq == seq
    await world.env.advance_time(2)

    assert session.state.seq > seq
    assert present(session.state.seat(mover.seat)).timeouts == 1
    told = game_message(world.games).embeds[0].description
    assert told is not None and "ran out of time (1 of 3 in a row), so the bot moved instead." in told


async def test_resigning_asks_first_then_ends_with_rematch_and_replay(world: World) -> None:
    message = await started_duel(world)
    asked = await world.bob.click(message, custom_id=custom_ids(game_message(world.games), "puluc:resign:")[0])
    question = present(asked.response)
    assert asked.ephemeral and "Really resign" in question.content

    await world.bob.click(question, custom_id=custom_ids(question, "puluc:confirm:")[0])

    final = game_message(world.games)
    assert "Team A wins" in present(final.embeds[0].description)
    assert set(custom_ids(final)) == {"puluc:rematch:1:0:-", "puluc:replay:1:0:-"}
    replay = await world.carol.click(final, custom_id="puluc:replay:1:0:-")
    gif, record = present(replay.response).attachments  # the same answer as /puluc replay, shown only to carol
    assert replay.ephemeral and (gif.filename, record.filename) == ("puluc-1.gif", "puluc-1.json")
    rematch = await world.bob.click(final, custom_id="puluc:rematch:1:0:-")
    assert "Puluc #2" in present(present(rematch.response).embeds[0].title)


async def test_a_lobby_can_open_in_its_own_thread(world: World) -> None:
    opened = await world.alice.slash(world.games, "puluc new", thread=True, team_size=2)
    (thread,) = world.games.threads
    assert opened.ephemeral and thread.mention in present(opened.response).content
    assert "Puluc #1" in present(present(thread.last_message).embeds[0].title)
    assert services(world.env.bot).manager.in_channel(thread.id) is not None


async def test_creating_games_too_fast_is_slowed_down(world: World) -> None:
    services(world.env.bot).cooldowns.seconds = 5
    await world.alice.slash(world.games, "puluc new")
    other = world.guild.create_text_channel("other")
    again = await world.alice.slash(other, "puluc new")
    assert again.ephemeral and "Slow down" in present(again.response).content
    simcord.assert_error(world.env, discord.app_commands.CommandOnCooldown)


async def test_rules_and_help_answer_only_the_caller(world: World) -> None:
    rules = await world.alice.slash(world.games, "puluc rules", variant="fire")
    shown = present(rules.response).embeds[0]
    assert rules.ephemeral and shown.title == "Fire: ants with a burning middle cell"
    assert shown.image.url == "attachment://board.png"
    helped = await world.alice.slash(world.games, "puluc help")
    commands, board = present(helped.response).embeds
    assert helped.ephemeral and "/puluc new" in present(commands.fields[0].value)
    assert board.title == "Reading the board"


async def test_a_move_can_be_picked_from_the_menu(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.cogs.games import views

    monkeypatch.setattr(views, "MAX_MOVE_BUTTONS", 0)
    message = await started_duel(world)
    session = services(world.env.bot).manager.get(1)
    mover = session.state.to_move
    assert mover is not None and mover.user_id is not None
    (menu_id,) = custom_ids(game_message(world.games), "puluc:pick:")
    seq = session.state.seq

    await world.member(mover.user_id).select(message, [session.state.legal_options()[0].notation],
                                             custom_id=menu_id)
    assert session.state.seq > seq


async def test_commands_are_published_with_their_translations(world: World) -> None:
    published = await world.bot.tree.fetch_commands()
    puluc = next(c for c in published if c.name == "puluc")
    assert puluc.name_localizations[discord.Locale.ukrainian] == "пулук"
    admin = next(c for c in published if c.name == "puluc-admin")
    assert admin.default_member_permissions is not None and admin.default_member_permissions.manage_guild


async def test_a_refusal_speaks_the_language_of_the_person_who_clicked(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    message = await started_duel(world)
    session = services(world.env.bot).manager.get(1)
    mover = session.state.to_move
    assert mover is not None
    waiting = world.bob if mover.user_id == world.alice.id else world.alice
    move_id = move_ids(game_message(world.games))[0]
    original = sim_interactions.base_payload

    def in_french(*args: Any, **kwargs: Any) -> Any:
        record, payload = original(*args, **kwargs)
        payload["locale"] = "fr"
        return record, payload

    monkeypatch.setattr(sim_interactions, "base_payload", in_french)
    refused = await waiting.click(message, custom_id=move_id)
    assert "Ce n’est pas votre tour." in said(refused)


@pytest.mark.parametrize(("chat", "edited_in_place"), [(FRESH_AFTER - 1, True), (FRESH_AFTER, False)])
async def test_a_game_message_is_edited_while_among_the_newest_and_reposted_once_below_them(
    world: World, chat: int, edited_in_place: bool
) -> None:
    message = await started_duel(world)
    session = services(world.env.bot).manager.get(1)
    mover = session.state.to_move
    assert mover is not None and mover.user_id is not None
    for number in range(chat):
        await world.carol.send(world.games, f"chatting {number}")

    await world.member(mover.user_id).click(message, custom_id=move_ids(game_message(world.games))[0])

    assert (session.state.message_id == message.id) is edited_in_place
    assert game_message(world.games).id == session.state.message_id


async def test_a_game_message_that_scrolled_away_is_posted_again_at_the_bottom(world: World) -> None:
    message = await started_duel(world)
    session = services(world.env.bot).manager.get(1)
    mover = session.state.to_move
    assert mover is not None and mover.user_id is not None
    move_id = move_ids(game_message(world.games))[0]
    for number in range(10):
        await world.carol.send(world.games, f"chatting {number}")

    await world.member(mover.user_id).click(message, custom_id=move_id)

    latest = game_message(world.games)
    assert latest.id != message.id and latest.embeds and "Puluc #1" in present(latest.embeds[0].title)
    assert session.state.message_id == latest.id
    old = next(m for m in world.games.history() if m.id == message.id)
    assert custom_ids(old, enabled=False) == []
