"""The game cogs through a simulated Discord (SimCord): lobby -> start -> clicks -> end, refusals, restarts.

A few flows that prove the glue between slash commands, buttons, the session layer and the presenter.
The full end-to-end suite is tests/bot/e2e (its own issue).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord
import simcord.interactions as sim_interactions

from bot.app import PulucBot
from bot.config import Settings
from bot.services import services
from bot.sessions.errors import ChannelBusy
from bot.ui.replies import BotLacksPermissions, Refusal
from tests.e2e.conftest import World, make_settings
from tests.simcord_raw import emit_click


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return make_settings(tmp_path / "puluc.db")


@pytest.fixture
def simcord_bot(settings: Settings) -> PulucBot:
    return PulucBot(settings)


@pytest.fixture
def world(simcord_env: simcord.Env) -> World:
    return World(simcord_env)


def custom_ids(components: list[Any]) -> Iterator[str]:
    """custom_ids of raw component dicts (SimCord responses) or discord.py ActionRows (channel messages)."""
    for row in components:
        children = row.get("components", []) if isinstance(row, dict) else row.children
        for child in children:
            custom_id = child.get("custom_id") if isinstance(child, dict) else getattr(child, "custom_id", None)
            if custom_id:
                yield custom_id


def said(result: simcord.InteractionResult) -> str:
    """Everything the bot told the person who acted, ephemeral answers and follow-ups together."""
    parts = [m.content for m in result.followups]
    if result.response is not None and result.response.ephemeral:
        parts.insert(0, result.response.content)
    return "\n".join(parts)


async def click_concurrently(env: simcord.Env, clicks: list[tuple[Any, discord.Message, str]]) -> None:
    """Deliver several clicks before the bot handles any of them (SimCord private API, see the notes)."""
    for actor, message, custom_id in clicks:
        emit_click(env, actor, message, custom_id)
    await env.settle()


async def started_duel(world: World) -> discord.Message:
    opened = await world.alice.slash(world.games, "puluc new")
    message = opened.response.message
    await world.bob.click(message, custom_id="puluc:join:1:0:B")
    await world.alice.click(message, custom_id="puluc:start:1:0:-")
    return message


def game_message(world: World) -> Any:
    return world.games.last_message


async def test_a_lobby_fills_starts_and_shows_the_board_with_move_buttons(world: World) -> None:
    opened = await world.alice.slash(world.games, "puluc new")
    lobby = opened.response
    assert lobby is not None and not opened.ephemeral
    assert "Puluc #1" in lobby.embeds[0].title
    assert "puluc:join:1:0:A" in custom_ids(lobby.components)

    await world.bob.click(lobby.message, custom_id="puluc:join:1:0:B")
    assert "bob" in world.games.last_message.embeds[0].fields[1].value

    await world.alice.click(lobby.message, custom_id="puluc:start:1:0:-")
    board = game_message(world)
    moves = [c for c in custom_ids(board.components) if c.startswith("puluc:move:1:")]
    assert moves and "puluc:resign:1:" in " ".join(custom_ids(board.components))
    assert board.embeds[0].image.url == "attachment://board.png"
    (attachment,) = board.attachments
    assert attachment.filename == "board.png"


async def test_only_the_seat_to_move_may_press_a_move(world: World) -> None:
    message = await started_duel(world)
    session = services(world.env.bot).manager.get(1)
    mover = session.state.to_move
    assert mover is not None and mover.user_id is not None
    waiting = world.bob if mover.user_id == world.alice.id else world.alice
    move_id = next(c for c in custom_ids(game_message(world).components) if c.startswith("puluc:move:"))

    refused = await waiting.click(message, custom_id=move_id)
    assert "not your turn" in said(refused)
    outsider = await world.carol.click(message, custom_id=move_id)
    assert "not playing" in said(outsider)
    assert session.state.seq == int(move_id.split(":")[3])

    await world.member(mover.user_id).click(message, custom_id=move_id)
    assert session.state.seq > int(move_id.split(":")[3])


async def test_two_clicks_at_once_play_one_move_and_the_other_hears_it_is_stale(world: World) -> None:
    message = await started_duel(world)
    session = services(world.env.bot).manager.get(1)
    mover = session.state.to_move
    assert mover is not None and mover.user_id is not None
    player = world.member(mover.user_id)
    move_id = next(c for c in custom_ids(game_message(world).components) if c.startswith("puluc:move:"))
    moves_before = len(session.state.record)

    await click_concurrently(world.env, [(player, message, move_id), (player, message, move_id)])

    moves = [e for e in session.state.record[moves_before:] if hasattr(e, "move")]
    assert len(moves) == 1
    assert session.state.to_move != mover or len(session.state.record) > moves_before + 1


async def test_buttons_keep_working_after_a_restart(world: World, settings: Settings) -> None:
    message = await started_duel(world)
    await world.env.restart_bot(PulucBot(settings))

    session = services(world.env.bot).manager.get(1)
    mover = session.state.to_move
    assert mover is not None and mover.user_id is not None
    seq = session.state.seq
    move_id = next(c for c in custom_ids(game_message(world).components) if c.startswith("puluc:move:"))
    await world.member(mover.user_id).click(message, custom_id=move_id)
    assert services(world.env.bot).manager.get(1).state.seq > seq


async def test_a_game_against_the_ai_answers_every_human_move(world: World) -> None:
    seeds = iter(range(40, 1000))
    services(world.env.bot).manager.seeds = lambda: next(seeds)  # the same game on every run
    started = await world.alice.slash(world.games, "puluc ai", difficulty="easy")
    assert started.response is not None and started.response.embeds
    session = services(world.env.bot).manager.get(1)
    for _ in range(1000):
        state = session.state
        if state.status != "running":
            break
        mover = state.to_move
        assert mover is not None and mover.user_id == world.alice.id  # the AI never keeps the turn
        move_id = next(c for c in custom_ids(game_message(world).components) if c.startswith("puluc:move:"))
        await world.alice.click(game_message(world), custom_id=move_id)
    assert session.state.status == "finished"
    final = game_message(world)
    assert "puluc:rematch:1:0:-" in custom_ids(final.components)


async def test_a_second_game_in_the_same_channel_points_to_the_first(world: World) -> None:
    await world.alice.slash(world.games, "puluc new")
    again = await world.bob.slash(world.games, "puluc new")
    assert again.ephemeral and "already running" in again.response.content
    assert "https://discord.com/channels/" in again.response.content
    simcord.assert_error(world.env, ChannelBusy)


async def test_missing_bot_permissions_are_named(world: World) -> None:
    me = world.guild.me
    assert me is not None
    no_files = world.guild.create_text_channel(
        "no-files", overwrites={me: discord.PermissionOverwrite(attach_files=False, embed_links=False)}
    )
    refused = await world.alice.slash(no_files, "puluc new")
    assert refused.ephemeral
    assert "Embed Links" in refused.response.content and "Attach Files" in refused.response.content
    assert "Send Messages" not in refused.response.content
    simcord.assert_error(world.env, BotLacksPermissions)


async def test_settings_are_hidden_from_members_without_manage_server(world: World) -> None:
    assert "puluc-admin settings" not in world.alice.available_commands(world.games)
    managers = world.guild.create_role("Managers", permissions=discord.Permissions(manage_guild=True))
    boss = world.guild.add_member(world.env.create_user("boss"), roles=[managers])
    saved = await boss.slash(world.games, "puluc-admin settings", ranked=False, turn_timer=120)
    assert saved.ephemeral and "2 minutes" in saved.response.content

    refused = await world.alice.slash(world.games, "puluc new", ranked=True)
    assert refused.ephemeral and "turned off" in refused.response.content
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
    assert session.state.seat(mover.seat).timeouts == 1  # type: ignore[union-attr]
    assert "Time ran out" in game_message(world).embeds[0].description


async def test_a_challenge_is_accepted_only_by_the_challenged_member(world: World) -> None:
    sent = await world.alice.slash(world.games, "puluc challenge", opponent=world.bob)
    invite = sent.response
    assert invite is not None and f"<@{world.bob.id}>" in invite.content
    accept_id = f"puluc:accept:1:0:{world.bob.id}"

    wrong = await world.carol.click(invite.message, custom_id=accept_id)
    assert "someone else" in said(wrong)
    await world.bob.click(invite.message, custom_id=accept_id)
    assert services(world.env.bot).manager.get(1).state.status == "running"


async def test_typed_moves_autocomplete_to_the_callers_legal_moves(world: World) -> None:
    await started_duel(world)
    session = services(world.env.bot).manager.get(1)
    mover = session.state.to_move
    assert mover is not None and mover.user_id is not None
    player = world.member(mover.user_id)
    waiting = world.bob if player is world.alice else world.alice

    offered = await player.autocomplete(world.games, "puluc move", "move", "")
    legal = {o.notation for o in session.state.legal_options()}
    assert {c["value"] for c in offered} == legal
    assert all(c["name"].startswith("throw ") for c in offered)
    assert await waiting.autocomplete(world.games, "puluc move", "move", "") == []

    seq = session.state.seq
    played = await player.slash(world.games, "puluc move", move=offered[0]["value"])
    assert played.ephemeral and "Played" in played.response.content
    assert session.state.seq > seq


async def test_resigning_asks_first_then_ends_with_rematch_and_replay(world: World) -> None:
    message = await started_duel(world)
    asked = await world.bob.click(message, custom_id=next(
        c for c in custom_ids(game_message(world).components) if c.startswith("puluc:resign:")))
    assert asked.ephemeral and "Really resign" in asked.response.content

    await world.bob.click(asked.response, custom_id=next(
        c for c in custom_ids(asked.response.components) if c.startswith("puluc:confirm:")))

    final = game_message(world)
    assert "Team A wins" in final.embeds[0].description
    assert set(custom_ids(final.components)) == {"puluc:rematch:1:0:-", "puluc:replay:1:0:-"}
    replay = await world.carol.click(final, custom_id="puluc:replay:1:0:-")
    gif, record = replay.response.attachments  # the same answer as /puluc replay, shown only to carol
    assert replay.ephemeral and (gif.filename, record.filename) == ("puluc-1.gif", "puluc-1.json")
    rematch = await world.bob.click(final, custom_id="puluc:rematch:1:0:-")
    assert rematch.response is not None and "Puluc #2" in rematch.response.embeds[0].title


async def test_a_lobby_can_open_in_its_own_thread(world: World) -> None:
    opened = await world.alice.slash(world.games, "puluc new", thread=True, team_size=2)
    (thread,) = world.games.threads
    assert opened.ephemeral and thread.mention in opened.response.content
    assert "Puluc #1" in thread.last_message.embeds[0].title
    assert services(world.env.bot).manager.in_channel(thread.id) is not None


async def test_creating_games_too_fast_is_slowed_down(world: World) -> None:
    services(world.env.bot).cooldowns.seconds = 5
    await world.alice.slash(world.games, "puluc new")
    other = world.guild.create_text_channel("other")
    again = await world.alice.slash(other, "puluc new")
    assert again.ephemeral and "Slow down" in again.response.content
    simcord.assert_error(world.env, discord.app_commands.CommandOnCooldown)


async def test_rules_and_help_answer_only_the_caller(world: World) -> None:
    rules = await world.alice.slash(world.games, "puluc rules", variant="fire")
    assert rules.ephemeral and rules.response.embeds[0].title == "Fire"
    assert rules.response.embeds[0].image.url == "attachment://board.png"
    helped = await world.alice.slash(world.games, "puluc help")
    assert helped.ephemeral and "/puluc new" in helped.response.embeds[0].fields[0].value


async def test_a_move_can_be_picked_from_the_menu(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    import bot.ui.views.builders as builders

    monkeypatch.setattr(builders, "MAX_MOVE_BUTTONS", 0)
    message = await started_duel(world)
    session = services(world.env.bot).manager.get(1)
    mover = session.state.to_move
    assert mover is not None and mover.user_id is not None
    (menu_id,) = [c for c in custom_ids(game_message(world).components) if c.startswith("puluc:pick:")]
    seq = session.state.seq

    await world.member(mover.user_id).select(message, [session.state.legal_options()[0].notation],
                                             custom_id=menu_id)
    assert session.state.seq > seq


async def test_commands_are_published_with_their_translations(world: World) -> None:
    published = await world.env.bot.tree.fetch_commands()
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
    move_id = next(c for c in custom_ids(game_message(world).components) if c.startswith("puluc:move:"))
    original = sim_interactions.base_payload

    def in_french(*args: Any, **kwargs: Any) -> Any:
        record, payload = original(*args, **kwargs)
        payload["locale"] = "fr"
        return record, payload

    monkeypatch.setattr(sim_interactions, "base_payload", in_french)
    refused = await waiting.click(message, custom_id=move_id)
    assert "Ce n'est pas votre tour." in said(refused)


async def test_a_game_message_that_scrolled_away_is_posted_again_at_the_bottom(world: World) -> None:
    message = await started_duel(world)
    session = services(world.env.bot).manager.get(1)
    mover = session.state.to_move
    assert mover is not None and mover.user_id is not None
    move_id = next(c for c in custom_ids(game_message(world).components) if c.startswith("puluc:move:"))
    for number in range(10):
        await world.carol.send(world.games, f"chatting {number}")

    await world.member(mover.user_id).click(message, custom_id=move_id)

    latest = world.games.last_message
    assert latest.id != message.id and latest.embeds and "Puluc #1" in latest.embeds[0].title
    assert session.state.message_id == latest.id
    old = next(m for m in world.games.history() if m.id == message.id)
    assert list(custom_ids(old.components)) == []


async def test_a_click_on_a_button_the_message_no_longer_shows_is_told_it_is_stale(world: World) -> None:
    message = await started_duel(world)
    session = services(world.env.bot).manager.get(1)
    mover = session.state.to_move
    assert mover is not None and mover.user_id is not None
    old_id = next(c for c in custom_ids(game_message(world).components) if c.startswith("puluc:move:"))
    await world.member(mover.user_id).click(message, custom_id=old_id)
    seq = session.state.seq
    current = world.env.backend.get_message(message.channel.id, message.id)
    assert old_id not in custom_ids(current.components)

    # A client still showing the old buttons sends the click; Discord attaches the message as it is now.
    record = emit_click(world.env, world.member(mover.user_id), message, old_id)
    await world.env.settle()

    assert record.responded and record.ephemeral
    assert session.state.seq == seq
