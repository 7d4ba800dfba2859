"""A server's settings (default variant, added rules, turn timer, turn ping delay, language, public web pages)
and channels' ranked overrides."""

from __future__ import annotations

from bot.storage.sql.port import Database, Row, Transaction
from bot.storage.types import UNCHANGED, GuildSettings, Unchanged

_GUILD_COLUMNS = (
    "default_variant, turn_timer_seconds, locale, fire, scorpion, eagle_returns, turn_ping_seconds, web_public"
)


def _guild(guild_id: int, row: Row) -> GuildSettings:
    """A row of `_GUILD_COLUMNS` (SQLite keeps the booleans as 0 and 1)."""
    fire, scorpion, eagle_returns, web_public = (None if row[i] is None else bool(row[i]) for i in (3, 4, 5, 7))
    return GuildSettings(guild_id, row[0], row[1], row[2], fire, scorpion, eagle_returns, row[6], web_public)


async def ensure_guild(tx: Transaction, guild_id: int, now: float) -> None:
    """The server's row, created with the bot's defaults if it has none yet."""
    await tx.execute(
        "INSERT INTO guilds (guild_id, created_at) VALUES (?, ?) ON CONFLICT (guild_id) DO NOTHING", guild_id, now
    )


class ServerSettingsStore:
    """Server and channel settings. Every method is one transaction, committed before it returns."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        rows = await self._db.fetch(f"SELECT {_GUILD_COLUMNS} FROM guilds WHERE guild_id = ?", guild_id)
        return _guild(guild_id, rows[0]) if rows else GuildSettings(guild_id, None, None, None)

    async def update_guild_settings(
        self,
        guild_id: int,
        *,
        default_variant: str | Unchanged | None = UNCHANGED,
        turn_timer_seconds: int | Unchanged | None = UNCHANGED,
        locale: str | Unchanged | None = UNCHANGED,
        fire: bool | Unchanged | None = UNCHANGED,
        scorpion: bool | Unchanged | None = UNCHANGED,
        eagle_returns: bool | Unchanged | None = UNCHANGED,
        turn_ping_seconds: int | Unchanged | None = UNCHANGED,
        web_public: bool | Unchanged | None = UNCHANGED,
    ) -> GuildSettings:
        """Change the given settings (None resets one to the bot's default) and return them all."""
        async with self._db.write() as tx:
            await ensure_guild(tx, guild_id, self._db.clock())
            row = await tx.fetchrow(
                f"SELECT {_GUILD_COLUMNS} FROM guilds WHERE guild_id = ?" + self._db.dialect.lock_rows, guild_id
            )
            assert row is not None  # just ensured
            new = _guild(guild_id, row).updated(
                default_variant=default_variant, turn_timer_seconds=turn_timer_seconds, locale=locale, fire=fire,
                scorpion=scorpion, eagle_returns=eagle_returns, turn_ping_seconds=turn_ping_seconds,
                web_public=web_public,
            )
            await tx.execute(
                "UPDATE guilds SET default_variant = ?, turn_timer_seconds = ?, locale = ?, fire = ?, scorpion = ?, "
                "eagle_returns = ?, turn_ping_seconds = ?, web_public = ? WHERE guild_id = ?",
                new.default_variant,
                new.turn_timer_seconds,
                new.locale,
                new.fire,
                new.scorpion,
                new.eagle_returns,
                new.turn_ping_seconds,
                new.web_public,
                guild_id,
            )
        return new

    async def turn_ping_overrides(self) -> dict[int, float]:
        """The servers that chose their own delay before a turn ping, with it."""
        rows = await self._db.fetch(
            "SELECT guild_id, turn_ping_seconds FROM guilds WHERE turn_ping_seconds IS NOT NULL"
        )
        return {int(row[0]): float(row[1]) for row in rows}

    async def set_channel_ranked(self, guild_id: int, channel_id: int, ranked: bool | None) -> None:
        """Allow (True) or forbid (False) ranked games in a channel; None removes the override."""
        async with self._db.write() as tx:
            if ranked is None:
                await tx.execute("DELETE FROM channel_settings WHERE channel_id = ?", channel_id)
                return
            await ensure_guild(tx, guild_id, self._db.clock())
            await tx.execute(
                "INSERT INTO channel_settings (channel_id, guild_id, ranked) VALUES (?, ?, ?) "
                "ON CONFLICT (channel_id) DO UPDATE SET ranked = excluded.ranked",
                channel_id,
                guild_id,
                ranked,
            )

    async def channel_ranked(self, channel_id: int) -> bool | None:
        """The channel's ranked override, or None when the channel has none."""
        rows = await self._db.fetch("SELECT ranked FROM channel_settings WHERE channel_id = ?", channel_id)
        return bool(rows[0][0]) if rows else None
