"""Games need people: a game whose every player's seat has gone to the AI ends (cancelled: unrated, no rematch,
and its message says why in every language), and the caps on open games and on games with AI seats hold, per
member and per server, refusing without changing anything."""

from __future__ import annotations

import pytest

from bot.cogs.games import texts, views
from bot.sessions import Cancelled, GameOptions, SessionManager, TakenOver
from bot.sessions.errors import ServerAIGamesFull, ServerGamesFull, TooManyAIGames
from bot.sessions.manager import Limits
from bot.sessions.state import MAX_TIMEOUTS, Place
from bot.storage import Storage
from bot.ui.i18n import SUPPORTED, t
from tests.helpers import AI_DELAY, ALICE, BOB, CAROL, CHANNEL, DAVE, FakeClock, RandomPicker

TIMER = 600
OTHER_SERVER = Place(guild_id=10, channel_id=900)


def manager_with(storage: Storage, clock: FakeClock, picker: RandomPicker, **limits: int) -> SessionManager:
    return SessionManager(storage.games, picker=picker, clock=clock, seeds=lambda: 5,
                          limits=Limits(max_open_per_host=5, ai_delay=AI_DELAY, **limits))


def in_channel(channel_id: int) -> Place:
    return Place(guild_id=CHANNEL.guild_id, channel_id=channel_id)


async def test_a_game_whose_last_player_goes_to_the_ai_ends_unrated_without_rematch(
    manager: SessionManager, storage: Storage, clock: FakeClock
) -> None:
    lobby = await manager.open_lobby(ALICE, CHANNEL, GameOptions(team_size=2, turn_timer=TIMER))
    session = manager.get(lobby.game_id)
    for team in ("A", "B", "B"):
        await session.add_ai(ALICE.user_id, team, "easy")
    await session.start(ALICE.user_id, 21)
    for _ in range(500):  # alice never plays: her turns run out, the AI seats play theirs
        state = session.state
        if state.status != "running":
            break
        mover = state.to_move
        assert mover is not None
        clock.advance(AI_DELAY if mover.played_by_ai else TIMER)
        assert await manager.fire_due() == [session.game_id]
    state = session.state
    assert state.status == "cancelled" and state.abandoned, "a game nobody plays does not play itself"
    seat = state.seat("A1")
    assert seat is not None and seat.taken_over and seat.timeouts == MAX_TIMEOUTS
    assert manager.deadlines.get(session.game_id) is None
    stored = await storage.games.game_log(session.game_id)
    assert stored.game.status == "cancelled"
    kinds = [event.kind for event in stored.events]
    assert kinds[-2:] == ["ai_takeover", "cancel"] and stored.events[-1].payload == {"by": "abandoned"}
    for lang in SUPPORTED:
        embed = texts.end_embed(state, lang, [], None, image=False)
        assert t("limits.abandoned", lang) in (embed.description or "")
        assert views.end_view(state, lang).children == [], "no rematch for a game nobody played"


async def test_the_ending_is_told_with_the_take_over(
    manager: SessionManager, clock: FakeClock
) -> None:
    heard = []

    async def listener(result) -> None:  # type: ignore[no-untyped-def]
        heard.append(result)

    manager.add_listener(listener)
    lobby = await manager.open_lobby(ALICE, CHANNEL, GameOptions(team_size=2, turn_timer=TIMER))
    session = manager.get(lobby.game_id)
    for team in ("A", "B", "B"):
        await session.add_ai(ALICE.user_id, team, "easy")
    await session.start(ALICE.user_id, 21)
    while session.state.status == "running":
        mover = session.state.to_move
        assert mover is not None
        clock.advance(AI_DELAY if mover.played_by_ai else TIMER)
        await manager.fire_due()
    last = heard[-1]
    assert TakenOver("A1") in last.happenings and Cancelled(None) in last.happenings
    assert last.cancelled and last.finished is None  # cancelled: nothing is rated


async def test_a_team_game_with_a_player_left_goes_on(manager: SessionManager, clock: FakeClock) -> None:
    lobby = await manager.open_lobby(ALICE, CHANNEL, GameOptions(team_size=2, turn_timer=TIMER))
    session = manager.get(lobby.game_id)
    await session.join(BOB, "A")
    await session.add_ai(ALICE.user_id, "B", "easy")
    await session.add_ai(ALICE.user_id, "B", "easy")
    await session.start(ALICE.user_id, 21)
    while (seat := session.state.seat("A1")) is not None and not seat.taken_over:  # alice walks away, bob plays
        mover = session.state.to_move
        assert mover is not None
        if mover.user_id == BOB.user_id:
            await session.play(BOB.user_id, session.state.legal_options()[0].notation)
            continue
        clock.advance(AI_DELAY if mover.played_by_ai else TIMER)
        await manager.fire_due()
        assert session.state.status == "running"
    assert not session.state.nobody_left and session.state.status == "running"


async def test_a_member_may_host_only_so_many_games_with_ai_seats(
    storage: Storage, clock: FakeClock, picker: RandomPicker
) -> None:
    manager = manager_with(storage, clock, picker, max_ai_per_host=1)
    await manager.play_ai(ALICE, in_channel(1), GameOptions(), "easy")
    with pytest.raises(TooManyAIGames) as refused:
        await manager.play_ai(ALICE, in_channel(2), GameOptions(), "easy")
    assert refused.value.params == {"limit": 1}
    assert manager.in_channel(2) is None  # nothing was created
    lobby = await manager.open_lobby(ALICE, in_channel(3), GameOptions(team_size=2))  # a game of people is fine
    session = manager.get(lobby.game_id)
    with pytest.raises(TooManyAIGames):
        await session.add_ai(ALICE.user_id, "B", "easy")
    assert [s.seat for s in session.state.seats] == ["A1"]  # and the lobby is as it was
    await manager.play_ai(BOB, in_channel(4), GameOptions(), "easy")  # another member is not held back


async def test_a_lobby_with_an_ai_seat_already_takes_more(
    storage: Storage, clock: FakeClock, picker: RandomPicker
) -> None:
    manager = manager_with(storage, clock, picker, max_ai_per_host=1)
    lobby = await manager.open_lobby(ALICE, in_channel(1), GameOptions(team_size=2))
    session = manager.get(lobby.game_id)
    await session.add_ai(ALICE.user_id, "B", "easy")
    await session.add_ai(ALICE.user_id, "B", "easy")  # the same game: still one game with AI seats
    assert len(session.state.seats) == 3


async def test_a_server_may_hold_only_so_many_open_games(
    storage: Storage, clock: FakeClock, picker: RandomPicker
) -> None:
    manager = manager_with(storage, clock, picker, max_open_per_server=2)
    await manager.open_lobby(ALICE, in_channel(1), GameOptions())
    await manager.challenge(BOB, CAROL, in_channel(2), GameOptions())
    with pytest.raises(ServerGamesFull) as refused:
        await manager.open_lobby(DAVE, in_channel(3), GameOptions())
    assert refused.value.params == {"limit": 2}
    assert manager.in_channel(3) is None
    await manager.open_lobby(DAVE, OTHER_SERVER, GameOptions())  # another server is not held back


async def test_a_server_may_hold_only_so_many_games_with_ai_seats(
    storage: Storage, clock: FakeClock, picker: RandomPicker
) -> None:
    manager = manager_with(storage, clock, picker, max_ai_per_server=1)
    await manager.play_ai(ALICE, in_channel(1), GameOptions(), "easy")
    with pytest.raises(ServerAIGamesFull):
        await manager.play_ai(BOB, in_channel(2), GameOptions(), "easy")
    lobby = await manager.open_lobby(BOB, in_channel(3), GameOptions(team_size=2))
    with pytest.raises(ServerAIGamesFull):
        await manager.get(lobby.game_id).add_ai(BOB.user_id, "A", "easy")
    await manager.play_ai(BOB, OTHER_SERVER, GameOptions(), "easy")


async def test_a_rematch_against_the_ai_counts_as_a_game_with_ai_seats(
    storage: Storage, clock: FakeClock, picker: RandomPicker
) -> None:
    manager = manager_with(storage, clock, picker, max_ai_per_host=1)
    first = await manager.play_ai(ALICE, in_channel(1), GameOptions(), "easy")
    finished = (await manager.get(first.game_id).resign(ALICE.user_id)).state
    await manager.play_ai(ALICE, in_channel(2), GameOptions(), "easy")
    with pytest.raises(TooManyAIGames):
        await manager.rematch(finished, ALICE)
