"""The bot's start-up and graceful shutdown, run against SimCord's offline Discord."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from pathlib import Path

import discord
import pytest
import simcord

from bot import app
from bot.app import SHUTTING_DOWN_MESSAGE, PulucBot, StartupError, run_bot
from bot.config import Config, load_config
from tests.helpers import TOKEN


@pytest.fixture
def config(tmp_path: Path) -> Config:
    return load_config({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": f"sqlite:///{tmp_path}/puluc.db"}, None)


@pytest.fixture
def simcord_bot(config: Config) -> PulucBot:
    """The bot SimCord's `simcord_env` fixture runs: a real PulucBot plus one trivial command."""
    bot = PulucBot(config)

    @bot.tree.command(name="ping", description="Answer pong")
    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pong")

    return bot


@pytest.fixture
def bot(simcord_bot: PulucBot) -> PulucBot:
    return simcord_bot


@pytest.fixture
def env(simcord_env: simcord.Env) -> simcord.Env:
    return simcord_env


def member(env: simcord.Env) -> tuple[simcord.MemberActor, simcord.ChannelHandle]:
    guild = env.create_guild()
    channel = guild.create_text_channel("general")
    return guild.add_member(env.create_user("alice")), channel


async def test_setup_hook_opens_and_migrates_the_store(env: simcord.Env, bot: PulucBot, config: Config) -> None:
    assert await bot.storage.integrity_check() == "ok"
    assert Path(config.database.where).is_file()  # noqa: ASYNC240 - one stat, after the bot is set up


async def test_bot_asks_for_no_privileged_intent(bot: PulucBot) -> None:
    assert bot.intents.guilds
    assert not (bot.intents.members or bot.intents.presences or bot.intents.message_content)


@pytest.mark.parametrize("grace", [-0.1, 3.0, 10.0])
def test_a_grace_period_that_would_miss_discords_deadline_is_refused(config: Config, grace: float) -> None:
    with pytest.raises(ValueError, match="under Discord's 3 s deadline"):
        PulucBot(config, ack_grace=grace)


async def test_commands_answer_while_running(env: simcord.Env, bot: PulucBot) -> None:
    alice, channel = member(env)
    result = await alice.slash(channel, "ping")
    assert result.response is not None and result.response.content == "pong"
    assert bot.accepting_interactions


async def test_shutdown_turns_new_interactions_away_and_closes_the_store(env: simcord.Env, bot: PulucBot) -> None:
    alice, channel = member(env)
    bot.request_shutdown()
    await asyncio.sleep(0)
    result = await alice.slash(channel, "ping")
    assert result.ephemeral
    assert result.response is not None and result.response.content == SHUTTING_DOWN_MESSAGE
    await _finished_shutdown(bot)
    assert bot.is_closed()
    with pytest.raises(RuntimeError, match="database is not open"):
        _ = bot.storage


async def test_sigterm_lets_the_interaction_in_flight_finish_before_the_store_closes(
    env: simcord.Env, bot: PulucBot
) -> None:
    handled = app.install_signal_handlers(asyncio.get_running_loop(), bot)
    assert signal.SIGTERM in handled
    seen: list[str] = []

    @bot.tree.command(name="slow", description="Take a while")
    async def slow(interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        os.kill(os.getpid(), signal.SIGTERM)
        await asyncio.sleep(0.3)
        seen.append(await bot.storage.integrity_check())  # the store is still open for work in flight
        await interaction.followup.send("finished")

    await bot.tree.sync()
    alice, channel = member(env)
    try:
        await alice.slash(channel, "slow")
        await _finished_shutdown(bot)
    finally:
        for sig in handled:
            asyncio.get_running_loop().remove_signal_handler(sig)
    assert seen == ["ok"]
    assert channel.last_message is not None and channel.last_message.content == "finished"
    assert bot.is_closed()


async def test_interaction_stuck_past_the_grace_period_is_cancelled(env: simcord.Env, bot: PulucBot) -> None:
    bot.shutdown_grace = 0.05
    outcome: list[str] = []

    @bot.tree.command(name="stuck", description="Never finish")
    async def stuck(interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        bot.request_shutdown()
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            outcome.append("cancelled")
            raise

    await bot.tree.sync()
    alice, channel = member(env)
    await alice.slash(channel, "stuck")
    await _finished_shutdown(bot)
    assert outcome == ["cancelled"]
    assert bot.is_closed()


async def test_unopenable_database_stops_start_up_with_a_clear_reason(tmp_path: Path) -> None:
    (tmp_path / "occupied").write_text("a file, not a directory")
    config = load_config({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": f"sqlite:///{tmp_path}/occupied/puluc.db"}, None)
    with pytest.raises(StartupError, match=r"cannot open the database at .*occupied/puluc\.db"):
        async with simcord.run(PulucBot(config)):
            pass


async def test_token_rejected_by_discord_exits_1_with_one_line(
    config: Config, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    async def reject(self: object, token: str) -> None:
        # What discord.py raises when Discord answers the login with 401 Unauthorized.
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setattr(discord.http.HTTPClient, "static_login", reject)
    assert await run_bot(config) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("puluc-bot: error: Discord rejected DISCORD_TOKEN")
    assert TOKEN.split(".")[0] not in err


async def _finished_shutdown(bot: PulucBot) -> None:
    for _ in range(200):
        if bot._shutdown_task is not None and bot._shutdown_task.done():
            bot._shutdown_task.result()
            return
        await asyncio.sleep(0.01)
    raise AssertionError("shutdown did not finish")


async def test_unreachable_discord_exits_1_with_one_line(
    config: Config, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    async def unreachable(self: object, token: str) -> None:
        raise ConnectionRefusedError(111, "Connection refused")

    monkeypatch.setattr(discord.http.HTTPClient, "static_login", unreachable)
    assert await run_bot(config) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("puluc-bot: error: cannot reach Discord (ConnectionRefusedError")


def invite_records(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for phase in ("setup", "call") for r in caplog.get_records(phase) if "oauth2/authorize" in r.getMessage()]


async def test_in_no_server_the_bot_logs_its_invite_link_once(
    caplog: pytest.LogCaptureFixture, env: simcord.Env, bot: PulucBot
) -> None:
    assert len(bot.guilds) == 0
    assert bot.application_id is not None
    shown = invite_records(caplog)
    assert len(shown) == 1
    link = app.invite_url(bot.application_id)
    assert link in shown[0].getMessage()
    assert shown[0].levelno == logging.WARNING
    # The permissions the README lists (their sum, 309237763072) and both scopes, for this application.
    assert f"client_id={bot.application_id}&" in link
    assert "permissions=309237763072" in link and "scope=bot+applications.commands" in link
    assert "309237763072" in (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")

    bot.dispatch("ready")  # a reconnect that could not resume brings on_ready again
    await env.settle()
    assert len(invite_records(caplog)) == 1


async def test_in_a_server_the_bot_logs_no_invite_link(
    caplog: pytest.LogCaptureFixture, env: simcord.Env, config: Config
) -> None:
    env.create_guild("Puluc Club")
    caplog.clear()
    restarted = PulucBot(config)
    await env.restart_bot(restarted)
    assert len(restarted.guilds) == 1
    assert [r for r in caplog.records if "oauth2/authorize" in r.getMessage()] == []
