"""Issue 27, items 4-7 through the offline Discord: what a member types pings and disguises nothing, a server's
data stays in it, lobbies expire, a lost server or channel closes its games, and forget-me forgets what the
running bot holds in memory."""

from __future__ import annotations

import re
from pathlib import Path

import discord
import pytest
import simcord

from bot.config import Config
from bot.services import services
from bot.sessions.errors import ReplayPruned
from bot.storage.types import FORGOTTEN_NAME
from tests.helpers import World, accepted_challenge, custom_ids, embed_text, game_message, make_config, said

LOBBY_EXPIRY = 900  # seconds: shorter than three turn timers (30 minutes), so a started game outlives it


@pytest.fixture
def config(tmp_path: Path) -> Config:
    return make_config(tmp_path / "puluc.db", lobby_expiry_seconds=LOBBY_EXPIRY)

# A name written to ping a member and everyone, and to pass a link off as something else.
HOSTILE = "{bob} @here [gift](https://evil.io)"
LINK = re.compile(r"\]\(\s*<?https?://")
USER_MENTION = re.compile(r"<@!?\d+>")


def hostile_name(world: World) -> str:
    return HOSTILE.format(bob=world.bob.mention)


def public_messages(channel: simcord.ChannelHandle) -> list[discord.Message]:
    return [m for m in channel.history() if not m.flags.ephemeral]


def assert_inert(world: World, message: discord.Message) -> None:
    """The message pings nobody and shows no mention or masked link that came from a member's text."""
    text = f"{message.content}\n{embed_text(message)}"
    assert pinged(world, message) == [] and not message.mention_everyone and message.role_mentions == []
    assert not USER_MENTION.search(text), text
    assert not LINK.search(text), text
    assert "https://evil" not in text  # not even a bare link


def pinged(world: World, message: discord.Message) -> list[int]:
    """Whom Discord notified for this message: mentions its allowed_mentions let through (SimCord's record)."""
    stored = world.env.backend.get_message(message.channel.id, message.id)
    return list(stored.ping_user_ids)


# --- 4. nothing a member types can ping or disguise -------------------------------------------------------


async def test_a_mention_and_a_masked_link_in_a_tournament_name_ping_and_link_nobody(world: World) -> None:
    name = hostile_name(world)
    made = await world.alice.slash(world.games, "puluc tournament create", name=name, format="round_robin")
    assert "announced" in said(made)
    card = next(m for m in reversed(world.games.history()) if custom_ids(m, "puluc:tour:"))
    (join,) = custom_ids(card, "puluc:tour:join:")
    await world.bob.click(card, custom_id=join)
    cancelled = await world.alice.slash(world.games, "puluc tournament cancel")
    assert not cancelled.ephemeral or "cancel" in said(cancelled).lower()

    shown = public_messages(world.games)
    assert len(shown) >= 2  # the card and the notice that it was called off
    for message in shown:
        assert_inert(world, message)
    # The name is still there, as the characters typed.
    assert "gift" in embed_text(card) and "here" in embed_text(card)


async def test_a_display_name_cannot_ping_from_a_game_message(world: World) -> None:
    trickster = world.guild.add_member(world.env.create_user("trick", global_name=f"{world.eve.mention} @here"))
    lobby = await trickster.slash(world.games, "puluc new")
    assert lobby.response is not None
    for message in public_messages(world.games):
        assert_inert(world, message)


async def test_a_challenge_withdrawn_and_made_again_pings_the_opponent_once(world: World) -> None:
    first = await world.alice.slash(world.games, "puluc challenge", opponent=world.bob)
    assert first.response is not None
    assert pinged(world, game_message(world.games)) == [world.bob.id]  # the invitation pings bob
    await world.alice.slash(world.games, "puluc cancel")

    again = await world.alice.slash(world.games, "puluc challenge", opponent=world.bob)
    assert again.response is not None
    invitation = game_message(world.games)
    assert world.bob.mention in invitation.content  # still named, so bob sees it is for him
    assert pinged(world, invitation) == []  # but not pinged a second time


async def test_the_board_names_the_player_to_move_and_pings_nobody(world: World) -> None:
    session = await accepted_challenge(world)
    board = game_message(world.games)
    mover = session.state.to_move
    assert mover is not None and mover.user_id is not None
    assert f"<@{mover.user_id}>" in board.content  # named, so they see it is their turn
    assert pinged(world, board) == []  # the turn call pings them, as they chose (/puluc notifications)


async def test_asking_for_the_board_again_pings_nobody(world: World) -> None:
    await accepted_challenge(world)
    for _ in range(3):  # anyone may ask, as often as they like: nobody is pinged by it
        asked = await world.carol.slash(world.games, "puluc board")
        assert asked.response is not None and not asked.ephemeral
        assert pinged(world, game_message(world.games)) == []


# --- 5. a server's data stays in that server ---------------------------------------------------------------


async def test_history_asked_in_another_server_shows_nothing_of_the_first(world: World) -> None:
    session = await accepted_challenge(world)
    resigned = await world.alice.slash(world.games, "puluc resign")
    assert "resigned" in said(resigned)
    game_id = session.game_id

    here = await world.bob.slash(world.games, "puluc history", user=world.alice)
    assert here.ephemeral and f"#{game_id}" in embed_text(here.response)

    other = world.env.create_guild("Elsewhere")
    hall = other.create_text_channel("hall")
    bob_there = other.add_member(world.env.create_user("bob2"))
    alice_there = other.add_member(world.env.create_user("alice2"))
    there = await bob_there.slash(hall, "puluc history", user=alice_there)
    assert there.ephemeral and "#" not in embed_text(there.response).split("\n", 1)[-1]
    asked = await bob_there.slash(hall, "puluc history")
    assert f"#{game_id}" not in embed_text(asked.response)
    # Asked about the same member, in the second server, by a player of the first one:
    alice_elsewhere = other.add_member(world.alice.user)
    theirs = await alice_elsewhere.slash(hall, "puluc history")
    assert theirs.ephemeral and f"#{game_id}" not in embed_text(theirs.response)
    assert "bob" not in embed_text(theirs.response)

    replay = await alice_elsewhere.slash(hall, "puluc replay", game_id=game_id)
    assert replay.ephemeral and f"no game #{game_id} in this server" in said(replay)


async def test_names_are_stored_as_global_names_never_server_nicknames(world: World) -> None:
    nicked = world.guild.add_member(world.env.create_user("zed", global_name="Zed Global"), nick="Secret Nick")
    await nicked.slash(world.games, "puluc new")
    storage = services(world.env.bot).storage
    data = await storage.players.personal_data(nicked.id)
    assert data.display_name == "Zed Global"
    session = services(world.env.bot).manager.in_channel(world.games.id)
    assert session is not None and session.state.seats[0].name == "Zed Global"


# --- 6. lobbies expire; a lost server or channel closes its games -----------------------------------------


async def test_a_lobby_nobody_starts_closes_after_the_expiry_and_says_so(world: World) -> None:
    await world.alice.slash(world.games, "puluc new")
    lobby = game_message(world.games)
    assert "closes <t:" in embed_text(lobby)  # it says when
    manager = services(world.env.bot).manager
    session = manager.in_channel(world.games.id)
    assert session is not None

    await world.env.advance_time(LOBBY_EXPIRY - 5)
    assert manager.in_channel(world.games.id) is session  # not yet

    await world.env.advance_time(10)
    assert manager.in_channel(world.games.id) is None
    stored = await services(world.env.bot).storage.games.get_game(session.game_id)
    assert stored.status == "cancelled"
    closed = next(m for m in reversed(world.games.history()) if m.id == lobby.id)
    assert "Nobody started this lobby in time" in embed_text(closed)
    again = await world.alice.slash(world.games, "puluc new")  # the channel and the host are free again
    assert again.response is not None and not again.ephemeral


async def test_a_started_game_does_not_expire_like_a_lobby(world: World) -> None:
    session = await accepted_challenge(world)
    await world.env.advance_time(LOBBY_EXPIRY + 10)  # the turn timer (10 minutes) plays for the absent: it goes on
    assert services(world.env.bot).manager.in_channel(world.games.id) is session
    assert session.state.status == "running"


async def test_leaving_a_server_closes_its_games_and_tournaments_unrated(world: World) -> None:
    session = await accepted_challenge(world, ranked=True)
    lounge = world.guild.create_text_channel("lounge")
    await world.carol.slash(lounge, "puluc tournament create", name="Gone cup", format="swiss")
    manager = services(world.env.bot).manager
    storage = services(world.env.bot).storage
    tournaments = services(world.env.bot).tournaments
    (cup,) = tournaments.open_in(world.guild.id)

    world.env.backend.remove_guild(world.guild.id)
    await world.env.settle()

    assert manager.in_channel(world.games.id) is None and manager.sessions == ()
    stored = await storage.games.get_game(session.game_id)
    assert stored.status == "cancelled"
    assert (await storage.players.personal_data(world.alice.id)).ratings == 0  # unrated
    assert tournaments.open_in(world.guild.id) == ()
    assert (await storage.tournaments.tournament(cup.tournament_id)).status == "cancelled"


async def test_deleting_a_channel_closes_its_lobby_and_nothing_else(world: World) -> None:
    side = world.guild.create_text_channel("side")
    await world.alice.slash(world.games, "puluc new")
    await world.bob.slash(side, "puluc new")
    manager = services(world.env.bot).manager
    doomed = manager.in_channel(side.id)
    assert doomed is not None

    world.env.backend.delete_channel(side.id)
    await world.env.settle()

    assert manager.in_channel(side.id) is None
    assert manager.in_channel(world.games.id) is not None  # another channel's lobby stays
    stored = await services(world.env.bot).storage.games.get_game(doomed.game_id)
    assert stored.status == "cancelled"


# --- 7. forget-me forgets everywhere ----------------------------------------------------------------------


async def test_forget_me_during_an_open_tournament_forgets_its_organiser_in_memory(world: World) -> None:
    made = await world.alice.slash(world.games, "puluc tournament create", name="Spring cup", format="swiss")
    assert "announced" in said(made)
    card = next(m for m in reversed(world.games.history()) if custom_ids(m, "puluc:tour:"))
    assert world.alice.mention in embed_text(card)  # the card names its organiser
    (join,) = custom_ids(card, "puluc:tour:join:")
    await world.bob.click(card, custom_id=join)

    asked = await world.alice.slash(world.games, "puluc forget-me")
    assert asked.response is not None
    done = await world.alice.click(asked.response, label="Erase my data")
    assert done.response is not None and done.response.content.startswith("Done")

    tournaments = services(world.env.bot).tournaments
    (open_one,) = tournaments.open_in(world.guild.id)
    assert open_one.creator_id is None  # memory agrees with the database
    assert all(e.user_id != world.alice.id for e in open_one.entrants)
    shown = next(m for m in reversed(world.games.history()) if m.id == card.id)
    assert world.alice.mention not in embed_text(shown) and str(world.alice.id) not in embed_text(shown)
    # The tournament carries on for the others: bob is still entered.
    assert open_one.entrant_of(world.bob.id) is not None
    assert FORGOTTEN_NAME not in [e.display_name for e in open_one.entrants]  # alice never entered


async def test_a_pruned_game_cannot_be_replayed_and_says_why(world: World) -> None:
    session = await accepted_challenge(world)
    resigned = await world.alice.slash(world.games, "puluc resign")
    assert "resigned" in said(resigned)
    games = services(world.env.bot)
    assert await games.storage.games.prune_finished(86_400) == 0  # finished just now: kept

    assert await games.storage.games.prune_finished(0) == 1
    stored = await games.storage.games.game_log(session.game_id)
    assert stored.events == () and stored.game.winner is not None  # the result stays

    asked = await world.carol.slash(world.games, "puluc replay", game_id=session.game_id)
    assert asked.ephemeral and "no longer kept" in said(asked)
    try:
        await games.manager.replay_state(session.game_id)
    except ReplayPruned:
        pass
    else:
        raise AssertionError("a pruned game was replayed")
