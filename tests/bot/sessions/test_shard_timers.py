"""Turn timers with shards: of two bot processes' managers on one PostgreSQL database (shards 0 and 1 of 2), only
the one that runs the game's server loads the game and times it out, once; the other never sees it."""

from __future__ import annotations

from bot.sessions import GameOptions, Limits, Place, Player, SessionManager
from bot.storage import Shards, open_storage
from tests.helpers import FakeClock, first_legal

GUILD_ON_SHARD_1 = 1001 << 22


async def test_a_turn_timer_fires_once_in_the_process_that_owns_the_server(
    postgres_url: str, clock: FakeClock
) -> None:
    first_store, second_store = await open_storage(postgres_url, clock=clock), await open_storage(postgres_url,
                                                                                                clock=clock)
    try:
        await first_store.claim_shards(Shards(2, (0,)))
        await second_store.claim_shards(Shards(2, (1,)))
        owner = SessionManager(second_store.games, picker=first_legal, clock=clock, seeds=lambda: 5,
                               shards=Shards(2, (1,)), limits=Limits(ai_delay=0.0))
        alice, bob = Player(1, "alice"), Player(2, "bob")
        lobby = await owner.open_lobby(alice, Place(GUILD_ON_SHARD_1, 77), GameOptions(turn_timer=30))
        await owner.get(lobby.game_id).join(bob)
        await owner.get(lobby.game_id).start(alice.user_id, owner.seeds())
        await owner.fire_due()  # the opening throw
        seq = owner.get(lobby.game_id).state.seq

        # Both processes restart (their timers were down) and reload what is theirs; the turn ran out meanwhile.
        clock.advance(31)
        owner = SessionManager(second_store.games, picker=first_legal, clock=clock, shards=Shards(2, (1,)),
                               limits=Limits(ai_delay=0.0))
        other = SessionManager(first_store.games, picker=first_legal, clock=clock, shards=Shards(2, (0,)),
                               limits=Limits(ai_delay=0.0))
        assert (await owner.load(), await other.load()) == (1, 0)
        assert await other.fire_due() == []
        assert await owner.fire_due() == [lobby.game_id]
        assert await owner.fire_due() == []  # once

        log = await first_store.games.game_log(lobby.game_id)
        timed_out = [s for s in log.game.seats if s.consecutive_timeouts]
        assert len(timed_out) == 1 and timed_out[0].consecutive_timeouts == 1
        assert log.game.last_seq > seq
    finally:
        await first_store.close()
        await second_store.close()
