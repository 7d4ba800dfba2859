"""The ladders' contract, for every backend: rating updates as openskill computes them, provisional and
inactive players, pages and ranks, UTC days, profiles, histories, personal data and forget-me."""

from __future__ import annotations

import random
from typing import Any

import pytest
from openskill.models import PlackettLuce

from bot.ratings import DAY, NEWCOMER, REPEAT_LIMIT, REPEAT_WINDOW
from bot.ratings.types import UnrankedReason
from bot.storage import Storage
from bot.storage.errors import GameStateError, PlayerInOpenGame
from bot.storage.types import FORGOTTEN_NAME, NewEvent, SeatSpec
from tests.bot.storage.games import GUILD, play, play_many
from tests.helpers import FakeClock


async def test_duel_updates_both_ladders_as_openskill_does(storage: Storage) -> None:
    model = PlackettLuce()
    expected_a, expected_b = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
    _, report = await play(storage, [1, 2], "A")
    assert report.unranked is None and {(c.user_id, c.scope, c.result) for c in report.changes} == {
        (1, 0, "win"), (2, 0, "loss"), (1, GUILD, "win"), (2, GUILD, "loss")
    }
    for scope in (0, GUILD):
        a, b = await storage.ladders.skill(1, "duel", scope), await storage.ladders.skill(2, "duel", scope)
        assert a is not None and b is not None
        assert (a.mu, a.sigma) == (expected_a[0].mu, expected_a[0].sigma)
        assert (b.mu, b.sigma) == (expected_b[0].mu, expected_b[0].sigma)
    # the second game starts from the stored ratings, not from scratch
    expected_a2, _ = model.rate([[expected_a[0]], [expected_b[0]]], ranks=[2, 1])
    await play(storage, [1, 2], "B")
    a = await storage.ladders.skill(1, "duel", 0)
    assert a is not None and (a.mu, a.sigma) == (expected_a2[0].mu, expected_a2[0].sigma)
    assert await storage.ladders.skill(1, "team", 0) is None


async def test_team_game_updates_every_human_seat_as_openskill_does(storage: Storage) -> None:
    await play(storage, [1, 2], "A")  # user 1 has a duel rating; the team ladder is separate
    model = PlackettLuce()
    new = model.rate([[model.rating(), model.rating()], [model.rating(), model.rating()]], ranks=[2, 1])
    _, report = await play(storage, [1, 2, 3, 4], "B")
    assert report.ladder == "team" and report.unranked is None
    # seats A1, B1, A2, B2 hold users 1, 2, 3, 4: team A = users 1 and 3, team B = users 2 and 4
    for user, rating in ((1, new[0][0]), (3, new[0][1]), (2, new[1][0]), (4, new[1][1])):
        skill = await storage.ladders.skill(user, "team", 0)
        assert skill is not None and (skill.mu, skill.sigma) == (rating.mu, rating.sigma)
    assert {(c.user_id, c.scope) for c in report.changes} == {(u, s) for u in (1, 2, 3, 4) for s in (0, GUILD)}


async def test_a_draw_moves_ratings_as_openskill_does(storage: Storage) -> None:
    model = PlackettLuce()
    expected, _ = model.rate([[model.rating()], [model.rating()]], ranks=[1, 1])
    _, report = await play(storage, [1, 2], None)
    skill = await storage.ladders.skill(1, "duel", 0)
    assert skill is not None and (skill.mu, skill.sigma) == (expected[0].mu, expected[0].sigma)
    assert {c.result for c in report.changes} == {"draw"}


async def test_games_without_a_guild_rate_only_the_global_ladder(storage: Storage) -> None:
    await play(storage, [1, 2], "A", guild_id=None)
    assert await storage.ladders.skill(1, "duel", 0) is not None
    assert await storage.ladders.skill(1, "duel", GUILD) is None


@pytest.mark.parametrize(
    ("players", "kwargs", "reason"),
    [
        ([1, None], {}, UnrankedReason.AI_SEAT),
        ([1, 2], {"moves": 3}, UnrankedReason.TOO_SHORT),
        ([1, 2], {"ranked": False}, UnrankedReason.CASUAL),
        ([1, 1], {}, UnrankedReason.SAME_PLAYER),
    ],
)
async def test_unranked_games_leave_ratings_alone(
    storage: Storage, players: list[int | None], kwargs: dict[str, Any], reason: UnrankedReason
) -> None:
    _, report = await play(storage, players, "A", **kwargs)
    assert report.unranked == reason and report.changes == ()
    assert await storage.ladders.skill(1, "duel", 0) is None
    assert await storage.ladders.rating_history(1, "duel") == ()


async def test_ai_takeover_makes_the_game_unranked(storage: Storage) -> None:
    game_id = await storage.games.create_game(guild_id=GUILD, channel_id=1, host_id=1, variant="bell", rules={},
                                        turn_timer_seconds=60, ranked=True,
                                        seats=[SeatSpec("A1", "a", user_id=1), SeatSpec("B1", "b", user_id=2)])
    await storage.games.start_game(game_id, first_team="A", throw_off=[], seed=None, snapshot_ppn="s",
                                   turn_deadline=None)
    await storage.games.append_events(game_id, 1, [NewEvent("move", {"move": "1:H"})] * 8 + [
        NewEvent("ai_takeover", {"seat": "B1"})])
    report = await storage.games.finish_game(game_id, winner="A", scores={"A": 5, "B": 0}, end_reason="timeout")
    assert report.unranked == UnrankedReason.AI_SEAT


async def test_a_game_is_finished_and_rated_only_once(storage: Storage) -> None:
    game_id, _ = await play(storage, [1, 2], "A")
    with pytest.raises(GameStateError, match="finished"):
        await storage.games.finish_game(game_id, winner="A", scores={"A": 1, "B": 0}, end_reason="normal")
    standing = await storage.ladders.standing(1, "duel", 0)
    assert standing is not None and standing.games == 1


async def test_provisional_players_are_marked_and_left_off_the_leaderboard(storage: Storage, clock: FakeClock) -> None:
    await play_many(storage, clock, [1, 2], "A", 4)
    standing = await storage.ladders.standing(1, "duel", 0)
    assert standing is not None and standing.provisional and standing.rank is None
    assert (await storage.ladders.leaderboard("duel", 0)).entries == ()
    _, report = await play(storage, [1, 2], "A")
    assert not any(c.provisional for c in report.changes)
    board = await storage.ladders.leaderboard("duel", 0)
    assert [(e.user_id, e.rank, e.games, e.wins, e.display_name) for e in board.entries] == [
        (1, 1, 5, 5, "user1"), (2, 2, 5, 0, "user2")
    ]
    assert board.entries[0].rating > board.entries[1].rating
    assert await storage.integrity_check() == "ok"


async def test_leaderboard_lists_only_players_active_in_30_days(storage: Storage, clock: FakeClock) -> None:
    await play_many(storage, clock, [1, 2], "A", 5)
    clock.advance(days=20)
    await play_many(storage, clock, [3, 4], "A", 5)
    clock.advance(days=10)  # users 1 and 2 last played 31 days ago (play_many took a day)
    board = await storage.ladders.leaderboard("duel", 0, caller_id=1)
    assert [e.user_id for e in board.entries] == [3, 4]
    assert board.caller is not None and not board.caller.active and board.caller.rank is None


async def test_activity_is_counted_in_whole_utc_days(storage: Storage, clock: FakeClock) -> None:
    """A game late in a UTC day counts for that day, truncated, never rounded up to the next (SQLite's CAST
    truncates; PostgreSQL's ::bigint would round 0.7 of a day up): the 30-day window ends at a day boundary."""
    day_start = (clock.now // DAY) * DAY
    clock.now = day_start + 0.7 * DAY
    for opponent in (2, 2, 3, 3, 4):  # five ranked games at once: no line-up more than REPEAT_LIMIT times
        await play(storage, [1, opponent], "A")
    assert await storage.integrity_check() == "ok"  # rank counts bucketed as Python's int() and floor() do
    clock.now = day_start + 30 * DAY + 0.9 * DAY  # 30 days later: the game's day is still in the window
    standing = await storage.ladders.standing(1, "duel", 0)
    assert standing is not None and standing.active and standing.rank == 1
    clock.now = day_start + 31 * DAY + 0.1 * DAY  # the next day: out, although under 31 x 24 h have passed
    standing = await storage.ladders.standing(1, "duel", 0)
    assert standing is not None and not standing.active and standing.rank is None
    assert (await storage.ladders.leaderboard("duel", 0)).entries == ()


async def test_leaderboard_pages_and_the_callers_rank_off_the_page(storage: Storage, clock: FakeClock) -> None:
    for pair in range(6):  # twelve players, winners better than losers
        await play_many(storage, clock, [100 + 2 * pair, 101 + 2 * pair], "A", 5)
    first = await storage.ladders.leaderboard("duel", 0, 0, caller_id=111)
    second = await storage.ladders.leaderboard("duel", 0, 1)
    assert len(first.entries) == 10 and first.has_next and not first.has_previous
    assert len(second.entries) == 2 and second.has_previous and not second.has_next
    listed = first.entries + second.entries
    assert [e.rating for e in listed] == sorted((e.rating for e in listed), reverse=True)
    assert [e.rank for e in listed] == list(range(1, 13))
    # equal ratings are ordered by user id, and the caller's own rank agrees with the pages
    assert [e.user_id for e in listed] == [100, 102, 104, 106, 108, 110, 101, 103, 105, 107, 109, 111]
    assert first.caller is not None and first.caller.user_id == 111 and first.caller.rank == 12
    with pytest.raises(ValueError, match="pages start at 0"):
        await storage.ladders.leaderboard("duel", 0, -1)
    with pytest.raises(ValueError, match="the ladder is 'duel' or 'team'"):
        await storage.ladders.leaderboard("chess", 0)


async def test_ladders_are_kept_per_server_and_global(storage: Storage, clock: FakeClock) -> None:
    for i in range(5):
        if i == REPEAT_LIMIT:  # more games between the same two in 24 hours would be unranked
            clock.advance(seconds=REPEAT_WINDOW)
        await play(storage, [1, 2], "A", guild_id=10)
        await play(storage, [1, 3], "B", guild_id=11)
    in_10 = await storage.ladders.standing(1, "duel", 10)
    in_11 = await storage.ladders.standing(1, "duel", 11)
    overall = await storage.ladders.standing(1, "duel", 0)
    assert in_10 is not None and in_11 is not None and overall is not None
    assert (in_10.wins, in_11.losses, overall.games) == (5, 5, 10)
    assert [e.user_id for e in (await storage.ladders.leaderboard("duel", 11)).entries] == [3, 1]


async def test_profile_collects_kills_best_win_streak_and_favourite_variant(storage: Storage) -> None:
    await play(storage, [1, 2], "B", kills={"A1": 1, "B1": 3})
    await play(storage, [1, 3], "A", variant="ants", kills={"A1": 4, "B1": 0})
    await play(storage, [1, 2], "A", variant="ants", kills={"A1": 2, "B1": 1})
    profile = await storage.players.profile(1, GUILD)
    assert profile is not None
    assert (profile.display_name, profile.finished_games, profile.kills, profile.favourite_variant) == (
        "user1", 3, 7, "ants"
    )
    assert profile.streak is not None and (profile.streak.result, profile.streak.length) == ("win", 2)
    # user 2 had beaten user 1 before, so user 2 was the stronger opponent of the two beaten
    assert profile.best_wins["duel"].opponent_rating > NEWCOMER.display
    assert "team" not in profile.best_wins
    assert [(s.ladder, s.scope) for s in profile.standings] == [("duel", GUILD), ("duel", 0)]
    history = await storage.ladders.rating_history(1, "duel")
    assert len(history) == 3 and history[-1].rating == profile.standings[-1].rating
    assert [p.game_id for p in history] == sorted(p.game_id for p in history)  # oldest first
    assert await storage.players.profile(999) is None


async def test_history_lists_games_from_the_players_seat(storage: Storage) -> None:
    first, _ = await play(storage, [1, 2], "B")
    second, _ = await play(storage, [1, 2, 3, 4], None)
    lobby = await storage.games.create_game(guild_id=GUILD, channel_id=1, host_id=1, variant="bell", rules={},
                                      turn_timer_seconds=60, seats=[SeatSpec("A1", "user1", user_id=1)])
    await storage.games.cancel_game(lobby)
    history = await storage.players.game_history(1)
    assert [(h.game_id, h.result, h.seat) for h in history] == [
        (lobby, None, "A1"), (second, "draw", "A1"), (first, "loss", "A1")
    ]
    assert history[0].teammates == () and history[0].opponents == ()
    assert history[1].teammates == ("user3",) and history[1].opponents == ("user2", "user4")
    assert (history[2].variant, history[2].guild_id, history[2].ranked, history[2].end_reason) == (
        "bell", GUILD, True, "normal"
    )
    older = await storage.players.game_history(1, 1, before_game_id=second)
    assert [h.game_id for h in older] == [first]
    assert [h.game_id for h in await storage.players.game_history(1, 2)] == [lobby, second]


async def test_personal_data_counts_what_points_at_the_user(storage: Storage) -> None:
    await play(storage, [1, 2], "A")
    data = await storage.players.personal_data(1)
    assert (data.display_name, data.seats, data.hosted_games, data.ratings, data.rating_history) == (
        "user1", 1, 1, 2, 2
    )
    assert data.last_active is not None
    stranger = await storage.players.personal_data(999)
    assert (stranger.display_name, stranger.seats, stranger.ratings) == (None, 0, 0)


async def test_forget_me_erases_the_player_but_keeps_others_records(storage: Storage, clock: FakeClock) -> None:
    game_id, _ = await play_many(storage, clock, [1, 2], "A", 5)
    before = await storage.ladders.skill(2, "duel", 0)
    report = await storage.players.forget_me(1)
    assert (report.seats_anonymised, report.games_unhosted, report.ratings_deleted, report.history_deleted,
            report.player_deleted) == (5, 5, 2, 10, True)
    assert await storage.ladders.skill(1, "duel", 0) is None
    assert await storage.players.profile(1) is None
    assert await storage.players.game_history(1) == ()
    game = await storage.games.get_game(game_id)
    assert (game.seat("A1").user_id, game.seat("A1").display_name, game.host_id) == (None, FORGOTTEN_NAME, None)
    assert await storage.ladders.skill(2, "duel", 0) == before
    assert (await storage.players.game_history(2))[0].opponents == (FORGOTTEN_NAME,)
    data = await storage.players.personal_data(1)
    assert (data.seats, data.ratings, data.rating_history, data.display_name) == (0, 0, 0, None)
    assert [e.user_id for e in (await storage.ladders.leaderboard("duel", 0)).entries] == [2]
    assert await storage.integrity_check() == "ok"
    again = await storage.players.forget_me(1)
    assert (again.seats_anonymised, again.player_deleted) == (0, False)


async def test_forget_me_waits_until_the_player_leaves_open_games(storage: Storage) -> None:
    game_id = await storage.games.create_game(guild_id=GUILD, channel_id=1, host_id=1, variant="bell", rules={},
                                        turn_timer_seconds=60, seats=[SeatSpec("A1", "a", user_id=1)])
    with pytest.raises(PlayerInOpenGame, match=f"open games first \\(game {game_id}\\)"):
        await storage.players.forget_me(1)
    assert (await storage.players.personal_data(1)).seats == 1


async def test_ranks_agree_with_the_leaderboard_and_counts_stay_in_step(storage: Storage, clock: FakeClock) -> None:
    rng = random.Random(5)
    for game in range(200):  # 17 players, random pairings and results, over about 60 days
        pool = range(1, 17) if game < 80 else range(1, 13)  # 13 to 16 stop playing after 25 days
        a, b = rng.sample(pool, 2)
        await play(storage, [a, b], rng.choice(["A", "B", None]))
        clock.advance(seconds=rng.uniform(0, 0.6 * 86400))
    await play(storage, [17, 1], "A")  # 17 stays provisional
    await storage.players.forget_me(16)
    pages = [await storage.ladders.leaderboard("duel", 0, page) for page in range(3)]
    listed = [e for page in pages for e in page.entries]
    assert [e.user_id for e in listed if e.user_id > 12] == []
    assert len(listed) == 12
    for user in range(1, 18):
        standing = await storage.ladders.standing(user, "duel", 0)
        if user == 16:
            assert standing is None
            continue
        assert standing is not None
        expected = next((e.rank for e in listed if e.user_id == user), None)
        assert standing.rank == expected
        profile = await storage.players.profile(user)
        assert profile is not None and profile.standings[0].rank == expected
    assert await storage.integrity_check() == "ok"  # the maintained rank counts equal a recount
