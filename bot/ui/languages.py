"""The language of each server's public messages (its /puluc-admin setting, else its Discord locale), and the
theme its pictures are drawn in (its palette setting, `bot.ui.palettes`)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import discord

from bot.storage.errors import StorageUnavailable
from bot.ui.i18n import public_language
from bot.ui.palettes import theme_for

log = logging.getLogger(__name__)

# A server's language setting as stored (None: not set), read once per server and remembered.
StoredLocale = Callable[[int], Awaitable[str | None]]
# A server's palette setting as stored (None: the standard one).
StoredPalette = Callable[[int], Awaitable[str | None]]


class GuildLanguages:
    """What language everyone in a server reads: the game messages, the tournament cards, the seasons' news."""

    def __init__(self, client: discord.Client, stored: StoredLocale | None = None,
                 stored_palette: StoredPalette | None = None) -> None:
        self._client = client
        self._stored = stored
        self._stored_palette = stored_palette
        self._settings: dict[int, str | None] = {}
        self._palettes: dict[int, str | None] = {}

    async def get(self, guild_id: int | None) -> str:
        """The language of public messages in a server (its /puluc-admin setting, else its Discord locale)."""
        if guild_id is None:
            return public_language(None)
        if guild_id not in self._settings and self._stored is not None:
            try:
                self._settings[guild_id] = await self._stored(guild_id)
            except StorageUnavailable as exc:  # not remembered: the setting is read again next time
                log.warning("server %d: its language setting cannot be read now (%s)", guild_id, exc.reason)
        guild = self._client.get_guild(guild_id)
        return public_language(guild.preferred_locale if guild else None, self._settings.get(guild_id))

    async def theme(self, guild_id: int | None) -> str:
        """The renderer theme of a server's pictures: "contrast" when it chose the high-contrast palette."""
        if guild_id is None or self._stored_palette is None:
            return theme_for(None)
        if guild_id not in self._palettes:
            try:
                self._palettes[guild_id] = await self._stored_palette(guild_id)
            except StorageUnavailable as exc:  # the standard palette meanwhile; read again next time
                log.warning("server %d: its palette setting cannot be read now (%s)", guild_id, exc.reason)
        return theme_for(self._palettes.get(guild_id))

    def forget(self, guild_id: int) -> None:
        """Called when a server changes its language or palette setting."""
        self._settings.pop(guild_id, None)
        self._palettes.pop(guild_id, None)
