"""Flow: players who are not watching are called to their turn (issue 26). Discord notifies a member only of a
message that mentions them when it is created, so each turn that passes to another member creates one short
message mentioning only them, and deletes it once they have moved; a member who moves within the server's
TURN_PING_AFTER_SECONDS is never called."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path

import discord
import pytest
import simcord

from bot.config import Config
from bot.services import services
from bot.sessions import GameSession
from tests.helpers import World, custom_ids, game_message, make_config, mentioned, move_ids, said

CALL = re.compile(r"^<@(\d+)>, ")


@pytest.fixture
def config(tmp_path: Path) -> Config:
    """Calls at once (TURN_PING_AFTER_SECONDS=0), so every turn change calls its member."""
    return make_config(tmp_path / "puluc.db", turn_ping_after_seconds=0)


def calls_in(channel: simcord.ChannelHandle) -> list[discord.Message]:
    """The turn calls in a channel now: messages of the bot that start with a mention and carry no buttons."""
    return [m for m in channel.history() if not m.flags.ephemeral and not m.components and CALL.match(m.content)]


def created_calls(env: simcord.Env, channel_id: int, since: int) -> list[dict[str, object]]:
    """The calls the bot created in the channel after request number `since` (their request bodies)."""
    return [r.json for r in env.http_requests[since:]
            if r.method == "POST" and r.path == f"/channels/{channel_id}/messages" and isinstance(r.json, dict)
            and CALL.match(str(r.json.get("content") or "")) and not r.json.get("components")]


def deleted(env: simcord.Env, channel_id: int, since: int) -> list[int]:
    prefix = f"/channels/{channel_id}/messages/"
    return [int(r.path.removeprefix(prefix)) for r in env.http_requests[since:]
            if r.method == "DELETE" and r.path.startswith(prefix)]


def mover_of(session: GameSession) -> int | None:
    seat = session.state.to_move
    return None if seat is None or seat.played_by_ai else seat.user_id


async def start_team_game(world: World) -> GameSession:
    """alice, bob, carol and dave in a 2 v 2 of the traditional setup (two throws a turn), started."""
    opened = await world.alice.slash(world.games, "puluc new", team_size=2, setup="traditional")
    assert opened.response is not None
    for member, team in ((world.bob, "B"), (world.carol, "A"), (world.dave, "B")):
        lobby = game_message(world.games)
        join = next(c for c in custom_ids(lobby, "puluc:join:") if c.endswith(f":{team}"))
        await member.click(lobby, custom_id=join)
    lobby = game_message(world.games)
    await world.alice.click(lobby, custom_id=custom_ids(lobby, "puluc:start:")[0])
    session = services(world.env.bot).manager.in_channel(world.games.id)
    assert session is not None
    return session


async def test_every_turn_change_creates_one_call_of_the_member_to_move_and_deletes_the_last(world: World) -> None:
    env = world.env
    session = await start_team_game(world)
    first = mover_of(session)
    (opening,) = calls_in(world.games)  # the first player is called as the game starts
    assert [u.id for u in opening.mentions] == [first] and opening.role_mentions == []
    rng = random.Random(7)
    turn_changes = same_member = 0
    for _ in range(60):
        board = game_message(world.games)
        moves = move_ids(board)
        if not moves:
            break
        (mover,) = mentioned(board)
        on_screen = calls_in(world.games)
        assert len(on_screen) <= 1 and all(m.mentions[0].id == mover for m in on_screen)  # one call per game
        before = len(env.http_requests)
        await world.member(mover).click(board, custom_id=rng.choice(moves))
        after = mover_of(session)
        created = created_calls(env, world.games.id, before)
        assert set(deleted(env, world.games.id, before)) == {m.id for m in on_screen}  # the mover acted
        if after is None:  # the game ended
            assert created == []
            break
        if after != mover:
            turn_changes += 1
            (body,) = created
            window = env.http_requests[before:]
            board_shown = max(i for i, r in enumerate(window) if r.method == "PATCH")  # the board, edited
            call_sent = next(i for i, r in enumerate(window) if r.json is body)
            assert call_sent > board_shown  # the call never holds the board up
            mentions = body["allowed_mentions"]
            assert isinstance(mentions, dict) and mentions["parse"] == [] and mentions["users"] == [after]
            (call,) = calls_in(world.games)
            assert [u.id for u in call.mentions] == [after]
            assert f"/channels/{world.guild.id}/{world.games.id}/" in call.content  # links to the board
            assert "Puluc #" in call.content  # names the game
        else:
            same_member += 1  # their second throw: they are here, nobody is called
            assert created == [] and calls_in(world.games) == []
    assert turn_changes >= 10 and same_member >= 1


async def test_members_who_answer_within_the_setting_are_never_called(world: World) -> None:
    managers = world.guild.create_role("Managers", permissions=discord.Permissions(manage_guild=True))
    boss = world.guild.add_member(world.env.create_user("boss"), roles=[managers])
    saved = await boss.slash(world.games, "puluc-admin settings", turn_ping=30)  # this server's own delay
    assert "turn ping after 30 seconds" in said(saved)
    session = await start_team_game(world)
    rng = random.Random(11)
    for _ in range(20):
        board = game_message(world.games)
        await world.env.advance_time(20)  # each answers within 30 s
        await world.member(mentioned(board)[0]).click(board, custom_id=rng.choice(move_ids(board)))
    assert calls_in(world.games) == []
    for _ in range(10):  # on to a turn that has just passed to another member
        board = game_message(world.games)
        (mover,) = mentioned(board)
        await world.member(mover).click(board, custom_id=rng.choice(move_ids(board)))
        if mover_of(session) not in (None, mover):
            break
    waiting = mover_of(session)
    await world.env.advance_time(25)
    assert calls_in(world.games) == []
    await world.env.advance_time(6)  # now the member to move has not acted for 31 s
    (call,) = calls_in(world.games)
    assert [u.id for u in call.mentions] == [waiting]


async def test_a_dm_call_speaks_the_members_language(
    world: World, interaction_locale: Callable[[str], None]
) -> None:
    interaction_locale("fr")
    await world.carol.slash(world.games, "puluc notifications", mode="dm")
    interaction_locale("en-US")
    session = await start_team_game(world)
    rng = random.Random(9)
    for _ in range(60):
        if mover_of(session) == world.carol.id:
            break
        board = game_message(world.games)
        await world.member(mentioned(board)[0]).click(board, custom_id=rng.choice(move_ids(board)))
    assert mover_of(session) == world.carol.id
    (dm,) = [m for m in world.carol.user.dm_channel.history() if m.author.bot]
    assert dm.content.startswith("À vous de jouer dans **Puluc n°")  # her Discord's language, not the server's
    assert all("your turn in" in m.content for m in calls_in(world.games))  # the channel speaks the server's


async def test_a_dm_call_names_the_server_channel_and_game_and_falls_back_to_the_channel(world: World) -> None:
    env = world.env
    chose = await world.bob.slash(world.games, "puluc notifications", mode="dm")
    assert "direct message" in said(chose)
    session = await start_team_game(world)
    rng = random.Random(5)
    for _ in range(40):
        if mover_of(session) == world.bob.id:
            break
        board = game_message(world.games)
        await world.member(mentioned(board)[0]).click(board, custom_id=rng.choice(move_ids(board)))
    assert mover_of(session) == world.bob.id
    dms = [m for m in world.bob.user.dm_channel.history() if m.author.bot]
    assert len(dms) == 1 and calls_in(world.games) == []  # called by DM only
    text = dms[-1].content
    assert "Puluc Club" in text and "#games" in text and "Puluc #" in text
    assert f"https://discord.com/channels/{world.guild.id}/{world.games.id}/" in text

    # Bob closes his DMs: his next call comes in the channel, and he is told once, at his next interaction.
    env.inject_error("POST", f"/channels/{world.bob.user.dm_channel.id}/messages", status=403, code=50007,
                     message="Cannot send messages to this user", times=None)
    for _ in range(80):
        board = game_message(world.games)
        moves = move_ids(board)
        mover = mentioned(board)[0]
        await world.member(mover).click(board, custom_id=rng.choice(moves))
        if mover != world.bob.id and mover_of(session) == world.bob.id:
            break
    assert mover_of(session) == world.bob.id
    (call,) = calls_in(world.games)
    assert [u.id for u in call.mentions] == [world.bob.id]
    board = game_message(world.games)
    clicked = await world.bob.click(board, custom_id=move_ids(board)[0])
    notes = [m.content for m in clicked.followups if m.ephemeral]
    assert any("DMs are closed" in note for note in notes)
    again = await world.bob.slash(world.games, "puluc games")
    assert not any("DMs are closed" in m.content for m in again.followups if m.ephemeral)  # once only
    assert world.bob.id not in await services(env.bot).storage.calls.dm_refused()
