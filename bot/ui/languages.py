"""The language of each server's public messages: its /puluc-admin setting, else its Discord locale."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import discord

from bot.storage.errors import StorageUnavailable
from bot.ui.i18n import public_language

log = logging.getLogger(__name__)

# A server's language setting as stored (None: not set), read once per server and remembered.
StoredLocale = Callable[[int], Awaitable[str | None]]


class GuildLanguages:
    """What language everyone in a server reads: the game messages, the tournament cards, the seasons' news."""

    def __init__(self, client: discord.Client, stored: StoredLocale | None = None) -> None:
        self._client = client
        self._stored = stored
        self._settings: dict[int, str | None] = {}

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

    def forget(self, guild_id: int) -> None:
        """Called when a server changes its language setting."""
        self._settings.pop(guild_id, None)
