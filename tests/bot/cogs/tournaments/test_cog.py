"""The tournament commands and buttons one at a time, and the lobby's Balance teams button: who may press what,
stale buttons, the limits on open tournaments, and the refusals a match game gives."""

from __future__ import annotations

import re

import discord
import pytest

from bot import ratings
from bot.services import services
from tests.helpers import World, click_concurrently, custom_ids, embed_text, game_message, present, said

ROOM = re.compile(r"<#(\d+)>")


def card(world: World) -> discord.Message:
    return next(m for m in reversed(world.games.history()) if custom_ids(m, "puluc:tour:", enabled=False))


async def test_the_card_refuses_what_its_state_no_longer_allows(world: World) -> None:
    made = await world.alice.slash(world.games, "puluc tournament create", name="  Autumn   open ", format="swiss")
    assert made.ephemeral and "Autumn open" in said(made)
    announced = card(world)
    assert "Autumn open" in embed_text(announced) and "Swiss" in embed_text(announced)
    join = custom_ids(announced, "puluc:tour:join:")[0]
    for member in (world.alice, world.bob, world.carol):
        await member.click(announced, custom_id=join)
    twice = await world.bob.click(announced, custom_id=join)
    assert "already in" in said(twice)
    not_in = await world.dave.click(announced, custom_id=custom_ids(announced, "puluc:tour:leave:")[0])
    assert "not in" in said(not_in)
    assert "3 players" in embed_text(card(world))
    stranger = await world.bob.click(announced, custom_id=custom_ids(announced, "puluc:tour:start:")[0])
    assert "organiser" in said(stranger)

    await world.alice.click(announced, custom_id=custom_ids(announced, "puluc:tour:start:")[0])
    # A client still showing the card from before the start presses its Join: stale now, and the late
    # command is refused with the reason.
    (stale,) = await click_concurrently(world.env, [(world.eve, announced, join)])
    assert "out of date" in said(stale)
    late = await world.eve.slash(world.games, "puluc tournament join")
    assert "already started" in said(late)
    assert custom_ids(card(world), "puluc:tour:") == ["puluc:tour:cancel:1"]


async def test_open_tournaments_are_limited_per_organiser_and_server(world: World) -> None:
    await world.alice.slash(world.games, "puluc tournament create", name="One", format="round_robin")
    again = await world.alice.slash(world.games, "puluc tournament create", name="Two", format="round_robin")
    assert "most open tournaments" in said(again)
    await world.bob.slash(world.games, "puluc tournament create", name="Two", format="round_robin")
    await world.carol.slash(world.games, "puluc tournament create", name="Three", format="round_robin")
    full = await world.dave.slash(world.games, "puluc tournament create", name="Four", format="round_robin")
    assert "as many open tournaments" in said(full)
    which = await world.eve.slash(world.games, "puluc tournament join")
    assert "Several tournaments" in said(which)
    joined = await world.eve.slash(world.games, "puluc tournament join", tournament=2)
    assert "You are in the tournament Two" in said(joined)


async def test_a_player_in_too_many_tournaments_is_told_it_is_them_not_the_server(world: World) -> None:
    for member, name in ((world.alice, "One"), (world.bob, "Two"), (world.carol, "Three")):
        await member.slash(world.games, "puluc tournament create", name=name, format="round_robin")
    for number in (1, 2, 3):
        await world.eve.slash(world.games, "puluc tournament join", tournament=number)
    other = world.env.create_guild("Other club")
    hall = other.create_text_channel("hall")
    await other.add_member(world.env.create_user("frank")).slash(hall, "puluc tournament create", name="Four",
                                                                 format="round_robin")
    refused = await other.add_member(world.eve.user).slash(hall, "puluc tournament join", tournament=4)
    assert said(refused) == "You are already in the most open tournaments allowed (3)."
    tournaments = services(world.env.bot).tournaments
    assert [e.user_id for e in tournaments.open_in(other.id)[0].entrants] == []


async def test_a_match_game_cannot_be_left_cancelled_or_started_by_others(world: World) -> None:
    managers = world.guild.create_role("Mods", permissions=discord.Permissions(manage_messages=True))
    mod = world.guild.add_member(world.env.create_user("mod"), roles=[managers])
    await world.alice.slash(world.games, "puluc tournament create", name="Cup", format="round_robin")
    announced = card(world)
    for member in (world.alice, world.bob, world.carol):
        await member.click(announced, custom_id=custom_ids(announced, "puluc:tour:join:")[0])
    await world.alice.click(announced, custom_id=custom_ids(announced, "puluc:tour:start:")[0])
    (room,) = [t for t in world.games.threads if str(t.id) in ROOM.findall(embed_text(world.games.last_message))]
    lobby = game_message(room)
    assert custom_ids(lobby, "puluc:") == list(custom_ids(lobby, "puluc:start:"))  # Start, and only Start
    outsider = next(m for m in (world.alice, world.bob, world.carol) if m.mention not in room.history()[0].content)
    refused = await outsider.click(lobby, custom_id=custom_ids(lobby, "puluc:start:")[0])
    assert "not playing in this game" in said(refused)
    cancelled = await mod.slash(room, "puluc cancel")
    assert "tournament match" in said(cancelled)
    standings = await world.dave.slash(world.games, "puluc tournament standings")
    assert standings.response is not None and "Cup" in embed_text(standings.response)


async def test_balance_teams_seats_the_most_even_split_and_shows_each_team_s_chance(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    known = {world.alice.id: 35.0, world.bob.id: 30.0, world.carol.id: 20.0, world.dave.id: 15.0}

    async def skill(user_id: int, ladder: str, scope: int = 0) -> ratings.Skill | None:
        return ratings.Skill(known[user_id], 2.0) if ladder == "team" else None

    monkeypatch.setattr(services(world.env.bot).storage.ladders, "skill", skill)
    opened = await world.alice.slash(world.games, "puluc new", team_size=2)
    lobby = opened.response
    assert lobby is not None
    assert "puluc:balance:1:0:-" in custom_ids(lobby, enabled=False)  # disabled until every seat is taken
    for member, team in ((world.bob, "B"), (world.carol, "A"), (world.dave, "B")):
        await member.click(game_message(world.games), custom_id=f"puluc:join:1:0:{team}")
    session = services(world.env.bot).manager.get(1)
    assert [s.name for s in session.state.seats] == ["alice", "bob", "carol", "dave"]  # 35 + 20 against 30 + 15
    balance = custom_ids(game_message(world.games), "puluc:balance:")[0]
    stranger = await world.bob.click(game_message(world.games), custom_id=balance)
    assert "host" in said(stranger)

    await world.alice.click(game_message(world.games), custom_id=balance)

    teams = {team: {s.name for s in session.state.seats if s.team == team} for team in "AB"}
    assert teams == {"A": {"alice", "dave"}, "B": {"bob", "carol"}}  # 35 + 15 against 30 + 20
    assert "team A has a 50% chance to win, team B 50%" in present(world.games.last_message).content
    lobby_now = game_message(world.games)
    assert "alice" in embed_text(lobby_now).split("Team B")[0] and "dave" in embed_text(lobby_now).split("Team B")[0]
