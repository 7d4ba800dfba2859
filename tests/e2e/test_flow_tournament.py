"""Flow 7: tournaments through the offline Discord, to the end: a round robin of 4 (one match forfeited by the
round's time limit), a single elimination of 5 (byes for the top three seeds, a restart in the middle) and a
Swiss of 8 (a running game adjudicated by the hard AI). Players only join, press Start in their match thread
and play or resign; the bot opens the threads, calls both players, and feeds every result back itself."""

from __future__ import annotations

import re

import discord
import pytest
import simcord

from bot.services import services
from tests.helpers import MakeBot, World, custom_ids, embed_text, game_message, mentioned, move_ids, present, said

pytestmark = pytest.mark.worker_processes  # a whole flow: the bot as deployed, with its worker processes

ROOM = re.compile(r"<#(\d+)>")
HOUR = 3600


class Tournament:
    """Drives one tournament the way its players do: the card's buttons, the threads, the game buttons."""

    def __init__(self, world: World, members: list[simcord.MemberActor]) -> None:
        self.world = world
        self.members = {m.id: m for m in members}
        self.card: discord.Message | None = None

    async def create(self, organiser: simcord.MemberActor, format: str, round_limit: int = 24,
                     turn_timer: int = 600) -> str:
        made = await organiser.slash(self.world.games, "puluc tournament create", name="Spring cup", format=format,
                                     round_limit=round_limit, turn_timer=turn_timer)
        self.card = next(m for m in reversed(self.world.games.history()) if custom_ids(m, "puluc:tour:"))
        return said(made)

    async def join_all(self) -> None:
        assert self.card is not None
        (join,) = custom_ids(self.card, "puluc:tour:join:")
        for member in self.members.values():
            joined = await member.click(self.card, custom_id=join)
            assert "Spring cup" in said(joined)

    async def start(self, organiser: simcord.MemberActor) -> str:
        assert self.card is not None
        started = await organiser.click(self.card, custom_id=custom_ids(self.card, "puluc:tour:start:")[0])
        return said(started)

    def round_announcement(self, number: int) -> discord.Message:
        for message in reversed(self.world.games.history()):
            if message.embeds and f"round {number} of" in (message.embeds[0].title or ""):
                return message
        raise AssertionError(f"no announcement of round {number}")

    def rooms(self, number: int) -> list[simcord.ChannelHandle]:
        """The match threads the round's announcement links to."""
        ids = [int(found) for found in ROOM.findall(embed_text(self.round_announcement(number)))]
        threads = {thread.id: thread for thread in self.world.games.threads}
        return [threads[i] for i in ids]

    def players(self, room: simcord.ChannelHandle) -> list[int]:
        """The two players the bot called at the top of the thread."""
        call = room.history()[0]
        return mentioned(call)

    async def play(self, room: simcord.ChannelHandle, winner: int) -> None:
        """Start the match (by the loser) and let the loser resign after one move."""
        a, b = self.players(room)
        loser = self.members[b if winner == a else a]
        lobby = game_message(room)
        await loser.click(lobby, custom_id=custom_ids(lobby, "puluc:start:")[0])
        board = game_message(room)
        (mover,) = mentioned(board)
        await self.members[mover].click(board, custom_id=move_ids(board)[0])
        resigned = await loser.slash(room, "puluc resign")
        assert "resigned" in said(resigned)

    def final(self) -> discord.Message:
        return next(m for m in reversed(self.world.games.history()) if "is over" in (m.content or ""))


def more_members(world: World, *names: str) -> list[simcord.MemberActor]:
    return [world.guild.add_member(world.env.create_user(name)) for name in names]


async def test_round_robin_of_four_with_a_forfeit_by_the_time_limit(world: World) -> None:
    cup = Tournament(world, [world.alice, world.bob, world.carol, world.dave])
    assert "announced" in await cup.create(world.alice, "round_robin", round_limit=1)
    await cup.join_all()
    card = present(cup.card)
    refused = await world.bob.click(card, custom_id=custom_ids(card, "puluc:tour:start:")[0])
    assert "organiser" in said(refused)
    assert "started" in await cup.start(world.alice)
    late = await world.eve.slash(world.games, "puluc tournament join")
    assert "already started" in said(late)

    for number in (1, 2, 3):
        rooms = cup.rooms(number)
        assert len(rooms) == 2
        for room in rooms:
            assert len(cup.players(room)) == 2 and "round" in room.history()[0].content
        if number == 2:
            # The first match is played; nobody starts the second before the round's hour is up.
            first, idle = rooms
            a, _ = cup.players(first)
            await cup.play(first, winner=a)
            await world.env.advance_time(HOUR + 5)
            assert "both of them lose it" in present(idle.last_message).content
            continue
        for room in rooms:
            a, _ = cup.players(room)
            await cup.play(room, winner=a)

    final = cup.final()
    assert "wins!" in final.content
    table = embed_text(final)
    assert "Buch" not in table and "SB" in table  # a round robin breaks ties by Sonneborn-Berger
    card = world.games.history()[[m.id for m in world.games.history()].index(card.id)]
    assert "Finished" in embed_text(card) and not custom_ids(card, "puluc:tour:")
    assert services(world.env.bot).tournaments.open_in(world.guild.id) == ()


async def test_single_elimination_of_five_with_byes_and_a_restart_in_the_middle(
    world: World, bots: MakeBot
) -> None:
    cup = Tournament(world, list(world.members))
    await cup.create(world.alice, "single_elimination")
    await cup.join_all()
    await cup.start(world.alice)
    first = embed_text(cup.round_announcement(1))
    assert first.count(": bye") == 3  # five players in a bracket of eight: the top three seeds wait
    (room,) = cup.rooms(1)
    a, _ = cup.players(room)
    await cup.play(room, winner=a)
    rooms = cup.rooms(2)
    assert len(rooms) == 2

    await world.env.restart_bot(bots())

    for room in rooms:  # the old threads and buttons keep working after the restart
        a, _ = cup.players(room)
        await cup.play(room, winner=a)
    (final_room,) = cup.rooms(3)
    a, b = cup.players(final_room)
    await cup.play(final_room, winner=b)
    final = cup.final()
    winner = world.member(b)
    assert winner.name in final.content
    standings = await world.carol.slash(world.games, "puluc tournament standings", tournament=1)
    assert standings.response is not None and f"**{winner.name}" in embed_text(standings.response)


async def test_swiss_of_eight_never_repeats_a_pairing_and_adjudicates_a_running_game(world: World) -> None:
    members = [*world.members, *more_members(world, "fay", "gus", "hal")]
    cup = Tournament(world, members)
    # Turns of a day: the running game is still running, not lost on time, when the round ends.
    await cup.create(world.alice, "swiss", round_limit=2, turn_timer=86_400)
    await cup.join_all()
    await cup.start(world.alice)
    met: list[frozenset[int]] = []
    for number in (1, 2, 3):
        rooms = cup.rooms(number)
        assert len(rooms) == 4
        met += [frozenset(cup.players(room)) for room in rooms]
        played, last = rooms[:-1], rooms[-1]
        for room in played:
            a, _ = cup.players(room)
            await cup.play(room, winner=a)
        if number < 3:
            a, _ = cup.players(last)
            await cup.play(last, winner=a)
            continue
        # The last game of the last round is still running when the round's two hours are up.
        a, _ = cup.players(last)
        lobby = game_message(last)
        await cup.members[a].click(lobby, custom_id=custom_ids(lobby, "puluc:start:")[0])
        await world.env.advance_time(2 * HOUR + 5)
        told = present(last.last_message).content
        assert "adjudication" in told and "hard AI" in told
    assert len(met) == len(set(met)) == 12
    final = cup.final()
    assert "Buch" in embed_text(final)
