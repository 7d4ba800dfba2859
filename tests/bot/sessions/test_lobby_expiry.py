"""A lobby nobody starts closes after LOBBY_EXPIRY_SECONDS, counted from its creation even across a restart; a
started game, a tournament match and a lobby that fills in time are not touched (issue 27, item 6)."""

from __future__ import annotations

from bot.config_spec import LOBBY_EXPIRY_SECONDS
from bot.sessions import ActionResult, Cancelled, GameOptions, SessionManager
from bot.storage import Storage
from tests.helpers import ALICE, BOB, CHANNEL, OTHER_CHANNEL, FakeClock, RandomPicker, make_manager

EXPIRY = LOBBY_EXPIRY_SECONDS.default


async def test_a_lobby_nobody_starts_closes_at_its_expiry(manager: SessionManager, clock: FakeClock,
                                                          storage: Storage) -> None:
    opened = await manager.open_lobby(ALICE, CHANNEL, GameOptions())
    told: list[ActionResult] = []

    async def hear(result: ActionResult) -> None:
        told.append(result)

    manager.add_listener(hear)
    assert manager.lobby_expires(opened.state) == clock.now + EXPIRY

    clock.advance(EXPIRY - 1)
    assert await manager.fire_due() == []
    clock.advance(2)
    assert await manager.fire_due() == [opened.game_id]

    assert manager.in_channel(CHANNEL.channel_id) is None and manager.open_count(ALICE.user_id) == 0
    assert (await storage.games.get_game(opened.game_id)).status == "cancelled"
    (result,) = told
    assert Cancelled(None, "expired") in result.happenings


async def test_joining_keeps_the_expiry_of_the_lobbys_creation(manager: SessionManager, clock: FakeClock) -> None:
    opened = await manager.open_lobby(ALICE, CHANNEL, GameOptions(team_size=2))
    clock.advance(EXPIRY / 2)
    await manager.get(opened.game_id).join(BOB)  # a join does not restart the hour, nor cancel the timer
    clock.advance(EXPIRY / 2 + 1)
    await manager.fire_due()
    assert manager.in_channel(CHANNEL.channel_id) is None


async def test_a_started_game_never_expires_as_a_lobby(manager: SessionManager, clock: FakeClock) -> None:
    opened = await manager.open_lobby(ALICE, CHANNEL, GameOptions())
    session = manager.get(opened.game_id)
    await session.join(BOB)
    await session.start(ALICE.user_id, manager.seeds())
    assert manager.lobby_expires(session.state) is None


async def test_the_expiry_counts_from_the_creation_across_a_restart(storage: Storage, clock: FakeClock,
                                                                    picker: RandomPicker) -> None:
    first = make_manager(storage.games, clock, picker)
    opened = await first.open_lobby(ALICE, CHANNEL, GameOptions())
    second = await first.open_lobby(BOB, OTHER_CHANNEL, GameOptions())
    clock.advance(EXPIRY - 10)

    again = make_manager(storage.games, clock, picker)
    assert await again.load() == 2
    clock.advance(11)
    assert await again.fire_due() == sorted([opened.game_id, second.game_id])
    assert again.sessions == ()
