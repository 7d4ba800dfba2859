"""With Activities turned on, Discord keeps an Entry Point command for the application and refuses a bulk
overwrite of the global commands that leaves it out (error 50240). The bot's global sync sends it back with
the bot's own commands."""

from __future__ import annotations

from typing import Any

import pytest

from bot.app import ENTRY_POINT, PulucBot
from tests.helpers import World

LAUNCH = {"id": "1300000000000000001", "application_id": "1", "version": "1", "type": ENTRY_POINT, "name": "launch",
          "description": "", "handler": 2, "integration_types": [0, 1], "contexts": [0, 1, 2]}


def bot_of(world: World) -> PulucBot:
    bot = world.env.bot
    assert isinstance(bot, PulucBot) and bot.application_id is not None
    return bot


async def test_a_global_sync_keeps_discords_entry_point_command(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    bot = bot_of(world)
    http = bot.http
    stored = await http.get_global_commands(bot.application_id or 0)
    sent: list[list[dict[str, Any]]] = []
    upsert = http.bulk_upsert_global_commands

    async def listed(application_id: int) -> list[Any]:
        return [*stored, LAUNCH]

    async def overwrite(application_id: int, payload: list[dict[str, Any]]) -> list[Any]:
        sent.append(payload)
        if not any(command.get("type") == ENTRY_POINT for command in payload):
            raise AssertionError("Discord answers 50240: the Entry Point command cannot be removed in bulk")
        # What SimCord knows of (it has no Entry Point commands); Discord would echo the Entry Point too.
        return [*await upsert(application_id, payload=[c for c in payload if c.get("type") != ENTRY_POINT]), LAUNCH]

    monkeypatch.setattr(http, "get_global_commands", listed)
    monkeypatch.setattr(http, "bulk_upsert_global_commands", overwrite)
    synced = await bot.tree.sync()
    (payload,) = sent
    kept = [command for command in payload if command.get("type") == ENTRY_POINT]
    assert kept == [{key: value for key, value in LAUNCH.items() if key not in ("application_id", "version")}]
    assert {command["name"] for command in payload if command.get("type") != ENTRY_POINT} == {
        command.name for command in bot.tree.get_commands()}
    assert [command.name for command in synced] == [command["name"] for command in payload[:-1]]


async def test_without_an_entry_point_the_sync_is_discord_pys_own(world: World) -> None:
    bot = bot_of(world)
    synced = await bot.tree.sync()
    assert {command.name for command in synced} == {command.name for command in bot.tree.get_commands()}
