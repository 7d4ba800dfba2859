"""Turn calls and members' notification choices, for every backend: a game's call is one row that a new call
replaces, stays on its server's shard, and goes with forget-me; a member's choice is one of three, kept for
every server, and a bad one stores nothing."""

from __future__ import annotations

import pytest

from bot.storage import Storage
from bot.storage.errors import ShardNotHeld
from bot.storage.shards import Shards
from bot.storage.types import MemberSettings, TurnCall
from tests.bot.storage.games import GUILD, finish, running_duel

ALICE = 1  # Ana, who plays A1 in the duels of tests/bot/storage/games.py
SHARD_1 = 1001 << 22


async def test_a_games_call_is_one_row_that_a_new_call_replaces(storage: Storage) -> None:
    game_id = await running_duel(storage)
    ping = TurnCall(game_id, GUILD, ALICE, 3, ping_at=1030.0, remind_at=1450.0)
    await storage.calls.put_call(ping)
    assert await storage.calls.calls() == (ping,)
    sent = TurnCall(game_id, GUILD, ALICE, 3, None, 1450.0, channel_id=77, message_id=88)
    await storage.calls.put_call(sent)
    assert await storage.calls.calls() == (sent,)
    await storage.calls.drop_call(game_id, GUILD)
    assert await storage.calls.calls() == ()


async def test_a_call_is_written_only_by_the_holder_of_its_servers_shard(storage: Storage) -> None:
    game_id = await running_duel(storage, guild_id=SHARD_1)
    await storage.claim_shards(Shards(2, (0,)))
    with pytest.raises(ShardNotHeld):
        await storage.calls.put_call(TurnCall(game_id, SHARD_1, ALICE, 1, 10.0, None))
    assert await storage.calls.calls() == ()


async def test_a_members_choice_is_kept_and_a_bad_one_stores_nothing(storage: Storage) -> None:
    assert await storage.calls.member(ALICE) == MemberSettings(ALICE)  # never chose: in the channel
    await storage.calls.set_notify_mode(ALICE, "dm", "uk")
    await storage.calls.set_dm_refused(ALICE, True)
    assert await storage.calls.member(ALICE) == MemberSettings(ALICE, "dm", "uk", dm_refused=True)
    assert await storage.calls.dm_refused() == frozenset({ALICE})
    with pytest.raises(ValueError, match="sms"):
        await storage.calls.set_notify_mode(ALICE, "sms", "uk")  # type: ignore[arg-type]
    assert (await storage.calls.member(ALICE)).notify_mode == "dm"
    await storage.calls.set_notify_mode(ALICE, "off", "en")  # a new choice clears the bounced DM
    assert await storage.calls.member(ALICE) == MemberSettings(ALICE, "off", "en")
    assert (await storage.players.personal_data(ALICE)).notify_mode == "off"


async def test_forget_me_erases_the_choice_and_the_calls(storage: Storage) -> None:
    game_id = await running_duel(storage)
    await storage.calls.set_notify_mode(ALICE, "dm", "fr")
    await storage.calls.put_call(TurnCall(game_id, GUILD, ALICE, 1, None, None, 5, 6))
    await finish(storage, game_id, "A")
    await storage.players.forget_me(ALICE)
    assert await storage.calls.member(ALICE) == MemberSettings(ALICE)
    assert (await storage.players.personal_data(ALICE)).notify_mode is None
    assert await storage.calls.calls() == ()
