"""The SimCord world of the end-to-end tests: the real `PulucBot` (bot/app.py) on a temporary database.

Members act through SimCord's actors (slash commands, clicks, autocomplete) and tests assert on what they
see: messages, embeds, attachments, buttons, ephemeral answers. Helpers here read messages the way a
player does (the mention names whose turn it is, the buttons say what can be done). The AI thinks for
10 ms and moves at once, so whole games take seconds; the renderer is the real one.
"""

from __future__ import annotations

import io
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord
from discord import app_commands
from PIL import Image

from bot.app import PulucBot
from bot.config import Settings
from bot.sessions import SessionError, SessionManager
from bot.storage.urls import SqliteUrl
from tests.simcord_raw import emit_click

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GAbCdE.e2eTestTokenThatIsNotReal0123456789"
MENTION = re.compile(r"<@!?(\d+)>")
MAX_CLICKS = 2_000  # far more than any game here needs; a game that never ends fails instead of hanging


def make_settings(path: Path, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "discord_token": TOKEN, "database": SqliteUrl(path),
        "ai_budget_ms": 10, "ai_move_delay_seconds": 0.0, "command_cooldown_seconds": 0.0,
    }
    values.update(overrides)
    return Settings(**values)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return make_settings(tmp_path / "puluc.db")


@pytest.fixture
def seeded_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Game seeds (throw-offs and throws) from a fixed sequence instead of the system's randomness, so a
    test sees the same games on every run."""
    seeds = random.Random(2026)
    defaults = SessionManager.__init__.__kwdefaults__
    assert defaults is not None and "seeds" in defaults
    monkeypatch.setitem(defaults, "seeds", lambda: seeds.getrandbits(63))


@pytest.fixture
def simcord_bot(settings: Settings, seeded_games: None) -> PulucBot:
    return PulucBot(settings)


class World:
    """A server with a games channel and five members."""

    def __init__(self, env: simcord.Env) -> None:
        self.env = env
        self.guild = env.create_guild("Puluc Club")
        self.games = self.guild.create_text_channel("games")
        self.alice = self.guild.add_member(env.create_user("alice"))
        self.bob = self.guild.add_member(env.create_user("bob"))
        self.carol = self.guild.add_member(env.create_user("carol"))
        self.dave = self.guild.add_member(env.create_user("dave"))
        self.eve = self.guild.add_member(env.create_user("eve"))
        self.members = (self.alice, self.bob, self.carol, self.dave, self.eve)

    def member(self, user_id: int) -> simcord.MemberActor:
        return next(m for m in self.members if m.id == user_id)


def is_refusal(error: BaseException) -> bool:
    """A refusal the bot answered with a sentence (SimCord records those too, see its notes, P2)."""
    original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    return isinstance(original, SessionError | app_commands.CheckFailure)


@pytest.fixture
def world(simcord_env: simcord.Env) -> Iterator[World]:
    yield World(simcord_env)
    # Refusals are expected (each test asserts the sentence the user saw); anything else is a bot error.
    unexpected = [error for error in simcord_env.errors if not is_refusal(error)]
    assert not unexpected, f"the bot raised: {unexpected!r}"


# -- reading messages as a player does --------------------------------------------------------------------


def components_of(message: Any) -> list[dict[str, Any]]:
    """Buttons and menus of a message as raw dicts (from a SimCord response or a discord.Message)."""
    rows = message.components
    found: list[dict[str, Any]] = []
    for row in rows:
        if isinstance(row, dict):
            found += row.get("components", [])
        else:
            found += [child.to_dict() for child in row.children]
    return found


def custom_ids(message: Any, prefix: str = "puluc:", *, enabled: bool = True) -> list[str]:
    return [c["custom_id"] for c in components_of(message)
            if c.get("custom_id", "").startswith(prefix) and not (enabled and c.get("disabled"))]


def move_ids(message: Any) -> list[str]:
    return custom_ids(message, "puluc:move:")


def notation(custom_id: str) -> str:
    """The move a move button plays: `puluc:move:<game>:<turn>:<throw>:<source>` -> "<throw>:<source>"."""
    return custom_id.split(":", 4)[4]


def turn_of(custom_id: str) -> int:
    return int(custom_id.split(":")[3])


def mentioned(message: Any) -> list[int]:
    return [int(found) for found in MENTION.findall(message.content or "")]


def game_message(channel: simcord.ChannelHandle) -> discord.Message:
    """The newest public message with Puluc buttons in the channel: the game as everyone sees it."""
    for message in reversed(channel.history()):
        if not message.flags.ephemeral and custom_ids(message, enabled=False):
            return message
    raise AssertionError(f"no game message in #{channel.name}")


def said(result: simcord.InteractionResult) -> str:
    """Everything the bot told only the person who acted (ephemeral answer and follow-ups)."""
    parts = [m.content for m in result.followups if m.ephemeral]
    if result.response is not None and result.response.ephemeral:
        parts.insert(0, result.response.content)
    return "\n".join(parts)


async def board_image(message: Any) -> Image.Image:
    """The board PNG attached to a game message, opened with Pillow."""
    (attachment,) = [a for a in message.attachments if a.filename == "board.png"]
    image = Image.open(io.BytesIO(await attachment.read()))
    image.load()
    return image


def embed_text(message: Any) -> str:
    """Title, description, fields and footer of every embed, as one text."""
    parts: list[str] = []
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or ""]
        parts += [f"{field.name}: {field.value}" for field in embed.fields]
        parts.append(embed.footer.text or "" if embed.footer else "")
    return "\n".join(parts)


# -- acting --------------------------------------------------------------------------------------------


async def click_concurrently(
    env: simcord.Env, clicks: list[tuple[simcord.MemberActor, discord.Message, str]]
) -> list[simcord.InteractionResult]:
    """Deliver several clicks before the bot handles any of them, then let it finish them all."""
    records = [emit_click(env, actor, message, custom_id) for actor, message, custom_id in clicks]
    await env.settle()
    return [simcord.InteractionResult(env, record) for record in records]


async def play_to_the_end(
    world: World, channel: simcord.ChannelHandle, rng: random.Random, *, max_clicks: int = MAX_CLICKS
) -> int:
    """Whoever the game message mentions clicks a random move button, until no move is offered;
    returns the number of clicks."""
    for clicks in range(max_clicks):
        message = game_message(channel)
        moves = move_ids(message)
        if not moves:
            return clicks
        (mover,) = mentioned(message)
        await world.member(mover).click(message, custom_id=rng.choice(moves))
    raise AssertionError(f"the game in #{channel.name} did not end after {max_clicks} clicks")
