"""What discord.py's HTTP session reports through the trace `start_health` installs: Discord's 429s and 5xx, and
how long after its creation each interaction was acknowledged. A local server answers as Discord would."""

from __future__ import annotations

from collections.abc import AsyncIterator
from types import SimpleNamespace

import aiohttp
import pytest
from aiohttp import web

from bot.ops import metrics
from bot.ops.health import discord_trace

DISCORD_EPOCH_MS = 1_420_070_400_000


def snowflake(unix_ms: int) -> int:
    """A Discord id created at `unix_ms`."""
    return (unix_ms - DISCORD_EPOCH_MS) << 22


@pytest.fixture
async def discord_api() -> AsyncIterator[str]:
    """A local stand-in for Discord's REST API: 429 on /rate, 502 on /broken, 204 for interaction callbacks."""

    async def rate(request: web.Request) -> web.Response:
        return web.json_response({"retry_after": 0.1, "global": False}, status=429)

    async def broken(request: web.Request) -> web.Response:
        return web.Response(status=502)

    async def callback(request: web.Request) -> web.Response:
        return web.Response(status=204)

    app = web.Application()
    app.router.add_get("/api/v10/rate", rate)
    app.router.add_get("/api/v10/broken", broken)
    app.router.add_post("/api/v10/interactions/{id}/{token}/callback", callback)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    yield f"http://127.0.0.1:{port}/api/v10"
    await runner.cleanup()


def value(name: str, **labels: str) -> float:
    found = metrics.REGISTRY.get_sample_value(name, labels)
    return 0.0 if found is None else found


async def test_rate_limits_and_server_errors_are_counted(discord_api: str) -> None:
    before = value("puluc_discord_http_errors_total", status="429"), value("puluc_discord_http_errors_total",
                                                                          status="5xx")
    async with aiohttp.ClientSession(trace_configs=[discord_trace()]) as session:
        for path in ("/rate", "/rate", "/broken"):
            async with session.get(discord_api + path) as answer:
                await answer.read()
    after = value("puluc_discord_http_errors_total", status="429"), value("puluc_discord_http_errors_total",
                                                                         status="5xx")
    assert (after[0] - before[0], after[1] - before[1]) == (2, 1)


async def test_an_interactions_acknowledgement_is_timed_from_its_creation(discord_api: str) -> None:
    created_ms = 1_800_000_000_000
    answered_ms = created_ms + 1_700  # Discord accepts the response 1.7 s after the interaction was created
    count, total = value("puluc_acknowledge_seconds_count"), value("puluc_acknowledge_seconds_sum")
    slow = value("puluc_acknowledge_seconds_bucket", le="1.5")
    async with aiohttp.ClientSession(trace_configs=[discord_trace(lambda: answered_ms / 1000)]) as session:
        url = f"{discord_api}/interactions/{snowflake(created_ms)}/aW50ZXJhY3Rpb24/callback"
        async with session.post(url, json={"type": 5}) as answer:
            assert answer.status == 204
    assert value("puluc_acknowledge_seconds_count") - count == 1
    assert value("puluc_acknowledge_seconds_sum") - total == pytest.approx(1.7)
    assert value("puluc_acknowledge_seconds_bucket", le="1.5") == slow, "1.7 s is counted above 1.5 s"


@pytest.mark.parametrize(
    ("custom_id", "component_type", "kind"),
    [("puluc:move:12:3:2:H", 2, "button puluc:move"), ("puluc:pick:12:3:-", 3, "menu puluc:pick"),
     ("ladder:page:7", 2, "button ladder:page"), ("", 2, "button")],
)
def test_a_component_kind_keeps_the_custom_ids_words_and_never_its_ids(
    custom_id: str, component_type: int, kind: str
) -> None:
    interaction = SimpleNamespace(type=SimpleNamespace(name="component"),
                                  data={"custom_id": custom_id, "component_type": component_type})
    assert metrics.interaction_kind(interaction) == kind
