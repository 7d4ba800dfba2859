"""Server settings: `/puluc-admin settings` (Manage Server) sets the default variant and the rules added to
it by default (fire, scorpion, returning eagles), the default turn timer, how soon a player is pinged to their
turn, whether ranked games are allowed in this channel, and the language of public game messages. A default
rule must suit the default variant: a change that would break that is refused and saves nothing.

Discord hides a command from members without its `default_permissions` only for top-level commands, so
the settings live in their own `/puluc-admin` group rather than under `/puluc`. Games in progress keep the
options they started with.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.games.texts import duration, turn_timer_choices, variant_title, variant_with_rules
from bot.config_spec import TURN_PING_AFTER_SECONDS
from bot.services import services
from bot.sessions import DEFAULT_VARIANT, GameOptions
from bot.sessions.errors import InvalidOptions
from bot.storage.types import GuildSettings
from bot.ui.i18n import (
    choices,
    command_description,
    command_name,
    language_for,
    option_description,
    option_name,
    t,
)
from bot.ui.replies import Refusal, acknowledge, rules_refusal

SETTINGS_OPTIONS = ("default_variant", "turn_timer", "ranked", "language", "fire", "scorpion", "eagle_returns",
                    "turn_ping", "web")


def _admin_text(field: str) -> app_commands.locale_str:
    # The group is not a /puluc subcommand, so its strings live under [admin], not [cmd.*].
    key = f"admin.{field}"
    return app_commands.locale_str(t(key, "en"), key=key)


class Settings(commands.Cog):
    """Per-server and per-channel defaults for new games."""

    admin = app_commands.Group(
        name=_admin_text("name"),
        description=_admin_text("desc"),
        default_permissions=discord.Permissions(manage_guild=True),
        guild_only=True,
    )

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @admin.command(name=command_name("settings"), description=command_description("settings"))
    @app_commands.rename(**{o: option_name("settings", o) for o in SETTINGS_OPTIONS})
    @app_commands.describe(**{o: option_description("settings", o) for o in SETTINGS_OPTIONS})
    @app_commands.choices(default_variant=choices("variant"), language=choices("language"), web=choices("web"))
    @app_commands.choices(turn_timer=turn_timer_choices())
    @app_commands.checks.has_permissions(manage_guild=True)
    async def settings(
        self,
        interaction: discord.Interaction[Any],
        default_variant: str | None = None,
        turn_timer: int | None = None,
        ranked: bool | None = None,
        language: str | None = None,
        fire: bool | None = None,
        scorpion: bool | None = None,
        eagle_returns: bool | None = None,
        turn_ping: app_commands.Range[int, TURN_PING_AFTER_SECONDS.minimum, TURN_PING_AFTER_SECONDS.maximum]
        | None = None,
        web: str | None = None,
    ) -> None:
        games = services(self.bot)
        storage = games.storage
        guild_id = interaction.guild_id
        channel_id = interaction.channel_id
        assert guild_id is not None and channel_id is not None  # guild_only
        await acknowledge(interaction, ephemeral=True)
        changes: dict[str, Any] = {}
        if default_variant is not None:
            changes["default_variant"] = default_variant
        if turn_timer is not None:
            GameOptions(turn_timer=turn_timer).rules()  # a time the choices do not offer must still fit the bounds
            changes["turn_timer_seconds"] = turn_timer
        if turn_ping is not None:
            changes["turn_ping_seconds"] = turn_ping
        if language is not None:
            changes["locale"] = None if language == "auto" else language
        rules = {"fire": fire, "scorpion": scorpion, "eagle_returns": eagle_returns}
        changes.update({rule: value for rule, value in rules.items() if value is not None})
        if web is not None:
            changes["web_public"] = web == "public"
        lang = language_for(interaction.locale)
        current = await storage.server_settings.guild_settings(guild_id)
        if changes:
            default_game(current.updated(**changes), lang)  # refuses before anything is saved
            current = await storage.server_settings.update_guild_settings(guild_id, **changes)
        if ranked is not None:
            await storage.server_settings.set_channel_ranked(guild_id, channel_id, ranked)
        if language is not None:
            games.languages.forget(guild_id)
        if turn_ping is not None:
            games.calls.delays.set(guild_id, turn_ping)  # the next turns of this server's games
        channel_ranked = await storage.server_settings.channel_ranked(channel_id)
        default = default_game(current, lang)
        summary = t(
            "settings.summary", lang,
            variant=variant_with_rules(default.variant, default.rules(), lang),
            timer=duration(current.turn_timer_seconds or games.config.turn_timer_seconds, lang),
            ranked=t("settings.on" if channel_ranked else "settings.off", lang),
            language=t(f"choice.language.{current.locale or 'auto'}", lang),
        )
        summary = t("settings.ping.joined", lang, summary=summary,
                    ping=ping_summary(current.turn_ping_seconds, games.config.turn_ping_after_seconds, lang))
        key = "settings.saved" if changes or ranked is not None else "settings.current"
        text = t(key, lang, summary=summary)
        if games.config.web_secret is not None or current.web_public:  # the web pages (bot/web) are served
            text += "\n" + t("web.public" if current.web_public else "web.private", lang)
        await interaction.followup.send(text, ephemeral=True)


def ping_summary(server: int | None, default: int, lang: str) -> str:
    """When the server's players are pinged: "turn ping after 30 seconds", "turn ping at once"."""
    after = default if server is None else server
    return t("settings.ping.now", lang) if after == 0 else t("settings.ping.later", lang,
                                                              after=duration(after, lang))


def default_game(settings: GuildSettings, lang: str) -> GameOptions:
    """The game a member of this server gets by naming nothing: the default variant with the default rules.
    A `Refusal` when a default rule does not suit the default variant (it says why, in `lang`)."""
    variant = settings.default_variant or DEFAULT_VARIANT
    options = GameOptions(variant, fire=bool(settings.fire), scorpion=bool(settings.scorpion),
                          eagle_returns=bool(settings.eagle_returns))
    try:
        options.rules()
    except InvalidOptions as exc:
        raise Refusal("error.default_rules", reason=rules_refusal(exc, lang),
                      variant=variant_title(variant, lang)) from exc
    return options


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Settings(bot))
