"""With several bot processes (SHARD_IDS), any process signs a member in and says where their server's API is,
`shard-N/api/`; each process answers its own shards' paths only, and a request the reverse proxy sent to the
wrong process is refused plainly (421) instead of showing an empty channel."""

from __future__ import annotations

from bot.storage.shards import Shards, shard_of
from tests.helpers import (
    ActivityPage,
    FakeClock,
    FakeDiscord,
    World,
    accepted_challenge,
    activity_page,
    plain_board,
)

COUNT = 2


async def get(page: ActivityPage, path: str, ticket: str) -> tuple[int, dict[str, object]]:
    response = await page.client.get(f"/activity/{path}", headers={"Authorization": f"Bearer {ticket}"})
    return response.status, await response.json() if response.content_type == "application/json" else {}


async def test_the_process_of_the_servers_shard_answers_its_shard_path(world: World, discord_api: FakeDiscord,
                                                                       clock: FakeClock) -> None:
    session = await accepted_challenge(world)
    own = shard_of(world.guild.id, COUNT)
    async with activity_page(world, discord_api, clock, shards=Shards(COUNT, (own,)), draw=plain_board) as page:
        status, body = await page.sign_in(world.alice.id)
        assert status == 200 and body["api"] == f"shard-{own}/api/"
        assert body["game"]["game_id"] == str(session.game_id)
        ticket = body["ticket"]
        status, view = await get(page, f"shard-{own}/api/game", ticket)
        assert status == 200 and view["game_id"] == str(session.game_id)
        status, _ = await get(page, "api/game", ticket)
        assert status == 404, "no path without the shard: nothing there could be routed"
        other = 1 - own
        status, refusal = await get(page, f"shard-{other}/api/game", ticket)
        assert (status, refusal["error"]) == (421, "activity.error.misrouted")


async def test_another_shards_process_signs_in_but_sends_the_member_to_their_shard(
        world: World, discord_api: FakeDiscord, clock: FakeClock) -> None:
    await accepted_challenge(world)
    own = shard_of(world.guild.id, COUNT)
    async with activity_page(world, discord_api, clock, shards=Shards(COUNT, (1 - own,)), draw=plain_board) as page:
        status, body = await page.sign_in(world.carol.id)
        assert status == 200 and body["api"] == f"shard-{own}/api/" and body["game"] is None
        status, refusal = await get(page, f"shard-{own}/api/game", body["ticket"])
        assert (status, refusal["error"]) == (421, "activity.error.misrouted")
        assert refusal["message"] == "Бот зараз не може дістатися до ігор цього сервера; спробуйте ще раз за мить."


async def test_one_process_of_every_shard_keeps_the_plain_path(world: World, discord_api: FakeDiscord,
                                                               clock: FakeClock) -> None:
    async with activity_page(world, discord_api, clock, shards=Shards.whole(COUNT), draw=plain_board) as page:
        status, body = await page.sign_in(world.bob.id)
        assert status == 200 and body["api"] == "api/"
        status, _ = await get(page, "api/game", body["ticket"])
        assert status == 200
