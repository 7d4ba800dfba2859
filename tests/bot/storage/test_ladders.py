"""Ranked ladders in the repository: rating updates, provisional and inactivity rules, profiles, forget-me."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import pytest
from openskill.models import PlackettLuce

from bot.storage.errors import GameStateError, PlayerInOpenGame
from bot.storage.ratings import NEWCOMER, PROVISIONAL_GAMES
from bot.storage.sqlite.schema import REBUILD_LADDER_COUNTS
from bot.storage.sqlite.store import Store
from bot.storage.types import FORGOTTEN_NAME, NewEvent, SeatSpec, UnrankedReason

if TYPE_CHECKING:
    from tests.helpers import FakeClock

GUILD = 10


async def play(
    store: Store,
    players: list[int | None],
    winner: str | None,
    *,
    ranked: bool = True,
    moves: int = 6,
    guild_id: int | None = GUILD,
    variant: str = "bell",
    kills: dict[str, int] | None = None,
    ai_level: int = 2,
) -> tuple[int, object]:
    """Play a whole game: players fill A1, B1, A2, B2, ... (None = an AI seat); return id and report."""
    names = ["A1", "B1", "A2", "B2", "A3", "B3"]
    seats = [SeatSpec(seat, f"user{u}", user_id=u) if u is not None else SeatSpec(seat, "AI", ai_level=ai_level)
             for seat, u in zip(names, players, strict=False)]
    game_id = await store.create_game(guild_id=guild_id, channel_id=1, host_id=players[0], variant=variant,
                                      rules={}, turn_timer_seconds=60, ranked=ranked, seats=seats)
    await store.start_game(game_id, first_team="A", throw_off=[], seed=None, snapshot_ppn="start",
                           turn_deadline=None)
    await store.append_events(game_id, 1, [NewEvent("move", {"move": "1:H"})] * max(moves - 1, 0) or
                              [NewEvent("throw", {"throw": [1]})])
    last = (await store.get_game(game_id)).last_seq
    report = await store.finish_game(game_id, winner=winner, scores={"A": 1, "B": 0}, end_reason="normal",
                                     kills=kills, events=[NewEvent("move", {"move": "1:H"})], first_seq=last + 1)
    return game_id, report


async def test_duel_updates_both_ladders_as_openskill_does(store: Store) -> None:
    model = PlackettLuce()
    expected_a, expected_b = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
    await play(store, [1, 2], "A")
    for scope in (0, GUILD):
        a, b = await store.skill(1, "duel", scope), await store.skill(2, "duel", scope)
        assert a is not None and b is not None
        assert (a.mu, a.sigma) == (expected_a[0].mu, expected_a[0].sigma)
        assert (b.mu, b.sigma) == (expected_b[0].mu, expected_b[0].sigma)
    # the second game starts from the stored ratings, not from scratch
    expected_a2, _ = model.rate([[expected_a[0]], [expected_b[0]]], ranks=[2, 1])
    await play(store, [1, 2], "B")
    a = await store.skill(1, "duel", 0)
    assert a is not None and (a.mu, a.sigma) == (expected_a2[0].mu, expected_a2[0].sigma)
    assert await store.skill(1, "team", 0) is None


async def test_team_game_updates_every_human_seat_as_openskill_does(store: Store) -> None:
    await play(store, [1, 2], "A")  # user 1 has a duel rating; the team ladder is separate
    model = PlackettLuce()
    new = model.rate([[model.rating(), model.rating()], [model.rating(), model.rating()]], ranks=[2, 1])
    _, report = await play(store, [1, 2, 3, 4], "B")
    assert report.ladder == "team" and report.unranked is None
    # seats A1, B1, A2, B2 hold users 1, 2, 3, 4: team A = users 1 and 3, team B = users 2 and 4
    for user, rating in ((1, new[0][0]), (3, new[0][1]), (2, new[1][0]), (4, new[1][1])):
        skill = await store.skill(user, "team", 0)
        assert skill is not None and (skill.mu, skill.sigma) == (rating.mu, rating.sigma)
    assert {(c.user_id, c.scope) for c in report.changes} == {(u, s) for u in (1, 2, 3, 4) for s in (0, GUILD)}


async def test_games_without_a_guild_rate_only_the_global_ladder(store: Store) -> None:
    await play(store, [1, 2], "A", guild_id=None)
    assert await store.skill(1, "duel", 0) is not None
    assert await store.skill(1, "duel", GUILD) is None


@pytest.mark.parametrize(
    ("players", "kwargs", "reason"),
    [
        ([1, None], {}, UnrankedReason.AI_SEAT),
        ([1, 2], {"moves": 3}, UnrankedReason.TOO_SHORT),
        ([1, 2], {"ranked": False}, UnrankedReason.CASUAL),
    ],
)
async def test_unranked_games_leave_ratings_alone(
    store: Store, players: list[int | None], kwargs: dict[str, object], reason: UnrankedReason
) -> None:
    _, report = await play(store, players, "A", **kwargs)  # type: ignore[arg-type]
    assert report.unranked == reason and report.changes == ()
    assert await store.skill(1, "duel", 0) is None


async def test_ai_takeover_makes_the_game_unranked(store: Store) -> None:
    game_id = await store.create_game(guild_id=GUILD, channel_id=1, host_id=1, variant="bell", rules={},
                                      turn_timer_seconds=60, ranked=True,
                                      seats=[SeatSpec("A1", "a", user_id=1), SeatSpec("B1", "b", user_id=2)])
    await store.start_game(game_id, first_team="A", throw_off=[], seed=None, snapshot_ppn="s", turn_deadline=None)
    await store.append_events(game_id, 1, [NewEvent("move", {"move": "1:H"})] * 8 + [NewEvent("ai_takeover",
                                                                                            {"seat": "B1"})])
    report = await store.finish_game(game_id, winner="A", scores={"A": 5, "B": 0}, end_reason="timeout")
    assert report.unranked == UnrankedReason.AI_SEAT


async def test_a_game_is_finished_and_rated_only_once(store: Store) -> None:
    game_id, _ = await play(store, [1, 2], "A")
    with pytest.raises(GameStateError, match="finished"):
        await store.finish_game(game_id, winner="A", scores={"A": 1, "B": 0}, end_reason="normal")
    standing = await store.standing(1, "duel", 0)
    assert standing is not None and standing.games == 1


async def test_provisional_players_are_marked_and_left_off_the_leaderboard(store: Store) -> None:
    for _ in range(4):
        await play(store, [1, 2], "A")
    standing = await store.standing(1, "duel", 0)
    assert standing is not None and standing.provisional and standing.rank is None
    assert (await store.leaderboard("duel", 0)).entries == ()
    await play(store, [1, 2], "A")
    board = await store.leaderboard("duel", 0)
    assert [(e.user_id, e.rank, e.games, e.wins) for e in board.entries] == [(1, 1, 5, 5), (2, 2, 5, 0)]
    assert board.entries[0].rating > board.entries[1].rating


async def test_leaderboard_lists_only_players_active_in_30_days(store: Store, clock: FakeClock) -> None:
    for _ in range(5):
        await play(store, [1, 2], "A")
    clock.advance(days=20)
    for _ in range(5):
        await play(store, [3, 4], "A")
    clock.advance(days=11)  # users 1 and 2 last played 31 days ago
    board = await store.leaderboard("duel", 0, caller_id=1)
    assert [e.user_id for e in board.entries] == [3, 4]
    assert board.caller is not None and not board.caller.active and board.caller.rank is None


async def test_leaderboard_pages_and_the_callers_rank_off_the_page(store: Store) -> None:
    for pair in range(6):  # twelve players, winners better than losers
        for _ in range(5):
            await play(store, [100 + 2 * pair, 101 + 2 * pair], "A")
    first = await store.leaderboard("duel", 0, 0, caller_id=111)
    second = await store.leaderboard("duel", 0, 1)
    assert len(first.entries) == 10 and first.has_next and not first.has_previous
    assert len(second.entries) == 2 and second.has_previous and not second.has_next
    listed = first.entries + second.entries
    assert [e.rating for e in listed] == sorted((e.rating for e in listed), reverse=True)
    assert [e.rank for e in listed] == list(range(1, 13))
    # equal ratings are ordered by user id, and the caller's own rank agrees with the pages
    assert [e.user_id for e in listed] == [100, 102, 104, 106, 108, 110, 101, 103, 105, 107, 109, 111]
    assert first.caller is not None and first.caller.user_id == 111 and first.caller.rank == 12


async def test_ladders_are_kept_per_server_and_global(store: Store) -> None:
    for _ in range(5):
        await play(store, [1, 2], "A", guild_id=10)
        await play(store, [1, 3], "B", guild_id=11)
    in_10 = await store.standing(1, "duel", 10)
    in_11 = await store.standing(1, "duel", 11)
    overall = await store.standing(1, "duel", 0)
    assert in_10 is not None and in_11 is not None and overall is not None
    assert (in_10.wins, in_11.losses, overall.games) == (5, 5, 10)
    assert [e.user_id for e in (await store.leaderboard("duel", 11)).entries] == [3, 1]


async def test_profile_collects_kills_best_win_streak_and_favourite_variant(store: Store) -> None:
    await play(store, [1, 2], "B", kills={"A1": 1, "B1": 3})
    await play(store, [1, 3], "A", variant="ants", kills={"A1": 4, "B1": 0})
    await play(store, [1, 2], "A", variant="ants", kills={"A1": 2, "B1": 1})
    profile = await store.profile(1, GUILD)
    assert profile is not None
    assert (profile.finished_games, profile.kills, profile.favourite_variant) == (3, 7, "ants")
    assert profile.streak is not None and (profile.streak.result, profile.streak.length) == ("win", 2)
    # user 2 had beaten user 1 before, so user 2 was the stronger opponent of the two beaten
    assert profile.best_wins["duel"].opponent_rating > NEWCOMER.display
    assert {(s.ladder, s.scope) for s in profile.standings} == {("duel", GUILD), ("duel", 0)}
    history = await store.rating_history(1, "duel")
    assert len(history) == 3 and history[-1].rating == profile.standings[-1].rating


async def test_history_lists_games_from_the_players_seat(store: Store) -> None:
    first, _ = await play(store, [1, 2], "B")
    second, _ = await play(store, [1, 2, 3, 4], None)
    history = await store.game_history(1)
    assert [(h.game_id, h.result) for h in history] == [(second, "draw"), (first, "loss")]
    assert history[0].teammates == ("user3",) and history[0].opponents == ("user2", "user4")


async def test_forget_me_erases_the_player_but_keeps_others_records(store: Store) -> None:
    for _ in range(5):
        game_id, _ = await play(store, [1, 2], "A")
    before = await store.skill(2, "duel", 0)
    report = await store.forget_me(1)
    assert (report.seats_anonymised, report.ratings_deleted, report.player_deleted) == (5, 2, True)
    assert await store.skill(1, "duel", 0) is None
    assert await store.profile(1) is None
    assert await store.game_history(1) == ()
    game = await store.get_game(game_id)
    assert (game.seat("A1").user_id, game.seat("A1").display_name, game.host_id) == (None, FORGOTTEN_NAME, None)
    assert await store.skill(2, "duel", 0) == before
    assert (await store.game_history(2))[0].opponents == (FORGOTTEN_NAME,)
    data = await store.personal_data(1)
    assert (data.seats, data.ratings, data.rating_history, data.display_name) == (0, 0, 0, None)
    assert await store.integrity_check() == "ok"


async def test_forget_me_waits_until_the_player_leaves_open_games(store: Store) -> None:
    await store.create_game(guild_id=GUILD, channel_id=1, host_id=1, variant="bell", rules={},
                            turn_timer_seconds=60, seats=[SeatSpec("A1", "a", user_id=1)])
    with pytest.raises(PlayerInOpenGame, match="open games"):
        await store.forget_me(1)


async def test_ranks_agree_with_the_leaderboard_and_counts_stay_in_step(store: Store, clock: FakeClock) -> None:
    rng = random.Random(5)
    for game in range(200):  # 17 players, random pairings and results, over about 60 days
        pool = range(1, 17) if game < 80 else range(1, 13)  # 13 to 16 stop playing after 25 days
        a, b = rng.sample(pool, 2)
        await play(store, [a, b], rng.choice(["A", "B", None]))
        clock.advance(seconds=rng.uniform(0, 0.6 * 86400))
    await play(store, [17, 1], "A")  # 17 stays provisional
    await store.forget_me(16)
    pages = [await store.leaderboard("duel", 0, page) for page in range(3)]
    listed = [e for page in pages for e in page.entries]
    assert [e.user_id for e in listed if e.user_id > 12] == []
    assert len(listed) == 12
    for user in range(1, 18):
        standing = await store.standing(user, "duel", 0)
        if user == 16:
            assert standing is None
            continue
        assert standing is not None
        expected = next((e.rank for e in listed if e.user_id == user), None)
        assert standing.rank == expected
    async with store._write() as db:
        maintained = list(await db.execute_fetchall("SELECT * FROM ladder_counts ORDER BY 1, 2, 3, 4"))
        for statement in REBUILD_LADDER_COUNTS:
            await db.execute(statement, {"min_games": PROVISIONAL_GAMES} if ":min_games" in statement else {})
        rebuilt = list(await db.execute_fetchall("SELECT * FROM ladder_counts ORDER BY 1, 2, 3, 4"))
    assert [tuple(r) for r in maintained] == [tuple(r) for r in rebuilt]
