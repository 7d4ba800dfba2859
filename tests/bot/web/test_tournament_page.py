"""A tournament's page: its entrants while open, then its table (round robin, Swiss) or bracket (knockout),
each match with its result and its game; and it changes by itself when a result comes in."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from bot.storage import Change
from bot.tournaments.types import Match, TournamentSettings
from bot.ui.links import Page
from bot.web.hub import Topic
from tests.bot.web.conftest import Site
from tests.helpers import CHANNEL

GUILD = CHANNEL.guild_id or 0


async def make_tournament(site: Site, format: str, names: tuple[str, ...]) -> int:
    settings = TournamentSettings("Spring <Cup>", format, "bell", None, 600, 3600, False)  # type: ignore[arg-type]
    tid = await site.storage.tournaments.create_tournament(guild_id=GUILD, channel_id=CHANNEL.channel_id,
                                                           creator_id=101, settings=settings)
    for number, name in enumerate(names, start=1):
        await site.storage.tournaments.join_tournament(tid, 100 + number, name)
    return tid


@pytest.mark.parametrize("format", ["round_robin", "single_elimination", "swiss"])
async def test_a_tournament_shows_its_entrants_then_its_results(site: Site, format: str) -> None:
    tid = await make_tournament(site, format, ("alice", "bob", "carol", "dave"))
    path = site.signed(f"/t/{tid}", Page("t", tid))
    assert (await site.client.get(f"/t/{tid}")).status == 403
    opened = await (await site.client.get(path)).text()
    assert "4 players entered" in opened and "Spring &lt;Cup&gt;" in opened and "carol" in opened

    stored = await site.storage.tournaments.tournament(tid)
    entrants = tuple(replace(e, seed=e.number) for e in stored.entrants)
    await site.storage.tournaments.start_tournament(tid, entrants=entrants, rounds=2)
    await site.storage.tournaments.add_round(tid, 1, [Match(1, 1, 1, 4), Match(1, 2, 2, 3)], deadline=2e9)
    await site.storage.tournaments.decide_match(tid, 1, 1, outcome="a", decided_by="game")
    page = await (await site.client.get(path)).text()
    assert "Round 1" in page and "1–0" in page and "playing" in page
    assert ("Bracket" if format == "single_elimination" else "Standings") in page


async def test_a_watched_tournament_sends_the_new_table(site: Site) -> None:
    tid = await make_tournament(site, "round_robin", ("alice", "bob"))
    stored = await site.storage.tournaments.tournament(tid)
    await site.storage.tournaments.start_tournament(tid, entrants=stored.entrants, rounds=1)
    await site.storage.tournaments.add_round(tid, 1, [Match(1, 1, 1, 2)], deadline=2e9)
    stream = await site.client.get(site.signed(f"/t/{tid}/events", Page("t", tid)))
    await stream.content.readuntil(b"\n\n")
    await site.storage.tournaments.decide_match(tid, 1, 1, outcome="b", decided_by="game")
    site.hub.note_change(Change("tournament", tid))  # what the change feed (or this process's manager) says
    while True:
        block = (await stream.content.readuntil(b"\n\n")).decode()
        if "event: board" in block:
            break
    html = json.loads(block.split("data: ", 1)[1])["html"]
    assert "0–1" in html
    assert site.hub.watching(Topic("tournament", tid)) == 1
    stream.close()
