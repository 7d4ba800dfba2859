"""Seasons, for every backend: starting a season archives the server's final leaderboards and resets its
ratings (the all-servers ladders keep theirs), archived pages read back, profiles show the best placements,
and forget-me reaches the archive."""

from __future__ import annotations

import pytest

from bot.ratings import NEWCOMER
from bot.storage import Storage
from bot.storage.errors import SeasonNotFound
from bot.storage.types import FORGOTTEN_NAME, SeasonPlacement
from tests.bot.storage.games import GUILD, play, play_many
from tests.helpers import FakeClock

OTHER_GUILD = GUILD + 1


async def test_season_start_archives_the_final_leaderboards_and_resets_the_server(
    storage: Storage, clock: FakeClock
) -> None:
    await play_many(storage, clock, [1, 2], "A", 5)
    await play_many(storage, clock, [1, 2, 3, 4], "B", 5)  # the team ladder too
    await play(storage, [5, 6], "A")  # provisional: not on the final leaderboard
    await play_many(storage, clock, [7, 8], "A", 5, guild_id=OTHER_GUILD)
    live = await storage.ladders.leaderboard("duel", GUILD)
    assert await storage.seasons.current_season(GUILD) == 1

    closed = await storage.seasons.start_season(GUILD)

    assert (closed.guild_id, closed.number, closed.started_at, closed.ended_at) == (GUILD, 1, None, clock.now)
    assert await storage.seasons.current_season(GUILD) == 2
    archived = await storage.seasons.season_leaderboard(GUILD, 1, "duel", caller_id=2)
    assert [(e.rank, e.user_id, e.rating, e.games, e.wins) for e in archived.entries] == [
        (s.rank, s.user_id, s.rating, s.games, s.wins) for s in live.entries
    ]
    assert archived.caller is not None and archived.caller.user_id == 2 and archived.caller.rank == 2
    teams = await storage.seasons.season_leaderboard(GUILD, 1, "team")
    assert [e.user_id for e in teams.entries] == [2, 4, 1, 3]  # team B (2 and 4) won all five
    # The server starts afresh; the all-servers ladder and the other server keep their ratings.
    assert await storage.ladders.skill(1, "duel", GUILD) is None
    assert (await storage.ladders.leaderboard("duel", GUILD)).entries == ()
    assert await storage.ladders.rating_history(1, "duel", GUILD) == ()
    overall = await storage.ladders.standing(1, "duel", 0)
    assert overall is not None and overall.games == 5
    assert [e.user_id for e in (await storage.ladders.leaderboard("duel", OTHER_GUILD)).entries] == [7, 8]
    _, fresh = await play(storage, [1, 2], "A")
    server_change = next(c for c in fresh.changes if c.user_id == 1 and c.scope == GUILD)
    assert server_change.before == NEWCOMER.display and server_change.provisional
    assert await storage.integrity_check() == "ok"


async def test_seasons_follow_each_other_and_unknown_ones_are_refused(storage: Storage, clock: FakeClock) -> None:
    first = await storage.seasons.start_season(GUILD)  # a season with nobody listed still closes
    clock.advance(days=30)
    second = await storage.seasons.start_season(GUILD)
    assert (second.number, second.started_at) == (2, first.ended_at)
    assert await storage.seasons.seasons(GUILD) == (first, second)
    assert (await storage.seasons.season_leaderboard(GUILD, 1, "duel")).entries == ()
    with pytest.raises(SeasonNotFound):
        await storage.seasons.season_leaderboard(GUILD, 3, "duel")
    with pytest.raises(SeasonNotFound):
        await storage.seasons.season_leaderboard(OTHER_GUILD, 1, "duel")
    with pytest.raises(ValueError, match="no seasons"):
        await storage.seasons.start_season(0)  # the all-servers ladders have no seasons


async def test_archived_pages_and_the_profiles_best_placements(storage: Storage, clock: FakeClock) -> None:
    for pair in range(6):  # twelve players, winners first
        await play_many(storage, clock, [100 + 2 * pair, 101 + 2 * pair], "A", 5)
    await storage.seasons.start_season(GUILD)
    first = await storage.seasons.season_leaderboard(GUILD, 1, "duel", 0, caller_id=111)
    second = await storage.seasons.season_leaderboard(GUILD, 1, "duel", 1)
    assert len(first.entries) == 10 and first.has_next and not first.has_previous
    assert len(second.entries) == 2 and second.has_previous and not second.has_next
    assert first.caller is not None and first.caller.rank == 12
    await play_many(storage, clock, [111, 100], "A", 5)  # season 2: 111 on top
    await storage.seasons.start_season(GUILD)
    profile = await storage.players.profile(111, GUILD)
    assert profile is not None
    assert profile.seasons == (SeasonPlacement(GUILD, 2, "duel", 1, 2), SeasonPlacement(GUILD, 1, "duel", 12, 12))
    elsewhere = await storage.players.profile(111, OTHER_GUILD)
    assert elsewhere is not None and elsewhere.seasons == ()


async def test_forget_me_anonymises_the_archive(storage: Storage, clock: FakeClock) -> None:
    await play_many(storage, clock, [1, 2], "A", 5)
    await storage.seasons.start_season(GUILD)
    await storage.players.forget_me(1)
    archived = await storage.seasons.season_leaderboard(GUILD, 1, "duel", caller_id=1)
    assert [(e.user_id, e.display_name) for e in archived.entries] == [(None, FORGOTTEN_NAME), (2, "user2")]
    assert archived.caller is None
