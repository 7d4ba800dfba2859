"""Flow: slow games (issue 26). A player who has not moved TURN_PING_AFTER_SECONDS (30) after their turn began is
called; a long turn adds one reminder when a quarter of it is left; a correspondence turn of days keeps its
call, reminder and timer across a restart; `/puluc games` lists a member's open games; `/puluc notifications`
takes only its three choices."""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest
import simcord
import simcord.interactions as sim_interactions

from bot.services import services
from bot.sessions import GameSession
from tests.helpers import MakeBot, World, custom_ids, embed_text, game_message, mentioned, said

CALL = re.compile(r"^<@(\d+)>, ")
HOUR = 3_600


def calls_in(channel: simcord.ChannelHandle) -> list[discord.Message]:
    """The turn calls in a channel now: messages of the bot that start with a mention and carry no buttons."""
    return [m for m in channel.history() if not m.flags.ephemeral and not m.components and CALL.match(m.content)]


async def start_duel(world: World, channel: simcord.ChannelHandle, turn_timer: int) -> GameSession:
    opened = await world.alice.slash(channel, "puluc new", turn_timer=turn_timer)
    assert opened.response is not None
    await world.bob.click(opened.response.message, custom_id=custom_ids(opened.response, "puluc:join:")[0])
    lobby = game_message(channel)
    await world.alice.click(lobby, custom_id=custom_ids(lobby, "puluc:start:")[0])
    session = services(world.env.bot).manager.in_channel(channel.id)
    assert session is not None
    return session


async def advance_hours(env: simcord.Env, hours: int) -> None:
    """Days of simulated time, a few hours per step: the timer loops wake every 30 s, and each step must
    settle within SimCord's bound even on a busy machine."""
    for _ in range(hours // 3):
        await env.advance_time(3 * HOUR)
    if hours % 3:
        await env.advance_time((hours % 3) * HOUR)


def to_move(session: GameSession) -> int:
    seat = session.state.to_move
    assert seat is not None and seat.user_id is not None
    return seat.user_id


async def test_a_long_turn_is_pinged_then_reminded_with_a_quarter_left(world: World) -> None:
    session = await start_duel(world, world.games, 600)
    sleeper = to_move(session)
    await world.env.advance_time(29)
    assert calls_in(world.games) == []
    await world.env.advance_time(2)
    (ping,) = calls_in(world.games)
    assert [u.id for u in ping.mentions] == [sleeper] and "your turn" in ping.content

    await world.env.advance_time(450 - 31 + 1)  # a quarter of the 10 minutes is left
    (reminder,) = calls_in(world.games)  # the reminder replaced the ping: one call per game
    assert reminder.id != ping.id and [u.id for u in reminder.mentions] == [sleeper]
    assert "2 minutes left" in reminder.content

    await world.env.advance_time(150)  # the timer plays for them: their reminder goes, the other is called
    other = to_move(session)
    assert other != sleeper and [s.timeouts for s in session.state.seats if s.user_id == sleeper] == [1]
    assert calls_in(world.games) == []
    await world.env.advance_time(31)
    (ping,) = calls_in(world.games)
    assert [u.id for u in ping.mentions] == [other]


async def test_a_short_turn_has_no_reminder(world: World) -> None:
    session = await start_duel(world, world.games, 300)
    await world.env.advance_time(31)
    (ping,) = calls_in(world.games)
    await world.env.advance_time(260)  # a quarter of 5 minutes is left: no reminder for turns under 10 minutes
    assert [m.id for m in calls_in(world.games)] == [ping.id]
    assert session.state.seq > 0


async def test_a_three_day_turn_keeps_its_call_reminder_and_timer_across_a_restart(
    world: World, simcord_env: simcord.Env, bots: MakeBot
) -> None:
    session = await start_duel(world, world.games, 3 * 86_400)
    assert "3 days" in embed_text(game_message(world.games))  # the lobby and the game show the chosen timer
    sleeper = to_move(session)
    seq = session.state.seq
    await simcord_env.advance_time(31)
    (ping,) = calls_in(world.games)
    stored = await services(simcord_env.bot).storage.calls.calls()
    assert [(c.user_id, c.message_id) for c in stored] == [(sleeper, ping.id)]

    old = services(simcord_env.bot)
    await old.manager.stop_timers()
    await old.calls.stop()
    await simcord_env.restart_bot(bots())
    await simcord_env.advance_time(HOUR)
    assert [m.id for m in calls_in(world.games)] == [ping.id]  # no second ping after the restart

    await advance_hours(simcord_env, 52)
    await simcord_env.advance_time(HOUR - 31 + 1)  # 18 hours (a quarter of 3 days) left
    (reminder,) = calls_in(world.games)  # the ping the old process sent was deleted by the new one
    assert reminder.id != ping.id and "18 hours left" in reminder.content
    reloaded = services(simcord_env.bot).manager.in_channel(world.games.id)
    assert reloaded is not None and reloaded.state.seq == seq  # nothing played meanwhile

    await advance_hours(simcord_env, 18)  # the turn's 3 days are over: the timer plays once
    assert [(s.user_id, s.timeouts) for s in reloaded.state.seats if s.timeouts] == [(sleeper, 1)]
    assert calls_in(world.games) == []
    assert embed_text(game_message(world.games)).count("ran out of time") == 1


async def test_games_lists_the_callers_open_games_here_newest_first(world: World) -> None:
    other = world.guild.create_text_channel("slow")
    lobby = await world.alice.slash(world.games, "puluc new", team_size=2)
    assert lobby.response is not None
    duel = await start_duel(world, other, 86_400)
    elsewhere = world.env.create_guild("Elsewhere")
    alice_elsewhere = elsewhere.add_member(world.alice.user)
    away = elsewhere.create_text_channel("away")
    outside = await alice_elsewhere.slash(away, "puluc new")  # another server's game is not listed here
    assert outside.response is not None

    listed = await world.alice.slash(world.games, "puluc games")
    assert listed.ephemeral
    text = embed_text(listed.followups[-1] if listed.followups else listed.response)
    lines = [line for line in text.splitlines() if "Puluc #" in line]
    assert len(lines) == 2
    assert f"Puluc #{duel.game_id}" in lines[0] and "Puluc #" in lines[1]  # newest first
    assert f"<t:{int(duel.state.deadline or 0)}:R>" in lines[0]
    assert f"https://discord.com/channels/{world.guild.id}/{other.id}/{duel.state.message_id}" in lines[0]
    assert ("your turn" in lines[0]) == (to_move(duel) == world.alice.id)
    assert "against bob" in lines[0]
    assert "lobby, 1 of 4 seats taken" in lines[1]
    assert f"/{world.games.id}/" in lines[1]

    bobs = await world.bob.slash(world.games, "puluc games")
    bob_text = embed_text(bobs.followups[-1] if bobs.followups else bobs.response)
    assert "against alice" in bob_text and "lobby" not in bob_text
    nothing = await world.eve.slash(world.games, "puluc games")
    assert "no open game" in embed_text(nothing.followups[-1] if nothing.followups else nothing.response)


async def test_notifications_takes_its_choices_and_refuses_anything_else(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    storage = services(world.env.bot).storage
    original = sim_interactions.validate_option_value

    def any_mode(command_name: str, option: dict[str, Any], value: Any) -> Any:
        # A client that sends a value outside the choices (Discord's own client cannot).
        if option.get("name") == "mode":
            option = {key: found for key, found in option.items() if key != "choices"}
        return original(command_name, option, value)

    monkeypatch.setattr(sim_interactions, "validate_option_value", any_mode)
    refused = await world.alice.slash(world.games, "puluc notifications", mode="sms")
    assert refused.ephemeral and "sms is not a way to be called" in said(refused)
    assert (await storage.players.personal_data(world.alice.id)).notify_mode is None  # nothing stored

    for mode, words in (("off", "no longer call you"), ("dm", "direct message"), ("channel", "mention you")):
        chose = await world.alice.slash(world.games, "puluc notifications", mode=mode)
        assert chose.ephemeral and words in said(chose)
        assert (await storage.calls.member(world.alice.id)).notify_mode == mode
    shown = await world.alice.slash(world.games, "puluc privacy")
    assert "Turn calls: In the game's channel" in embed_text(shown.followups[-1] if shown.followups else shown.response)


async def test_off_means_no_call_at_all(world: World) -> None:
    await world.alice.slash(world.games, "puluc notifications", mode="off")
    await world.bob.slash(world.games, "puluc notifications", mode="off")
    session = await start_duel(world, world.games, 600)
    await world.env.advance_time(500)  # past the ping and the reminder
    assert calls_in(world.games) == []
    assert mentioned(game_message(world.games)) == [to_move(session)]  # the board still says whose turn it is
