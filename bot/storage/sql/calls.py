"""Turn calls and members' notification choices (issue 26): the one call of each running game (its ping, its
reminder and the message now calling the player) and how each member wants to be called, on every server.

A call is written by the process that runs its game, after the game's own save (`bot.sessions.calls`), and
checks the game's shard lease like every game write; a process loads only its own shards' calls.
"""

from __future__ import annotations

from bot.storage.sql.leases import Leases
from bot.storage.sql.port import Database, Row
from bot.storage.types import NOTIFY_MODES, MemberSettings, NotifyMode, TurnCall

_CALL_COLUMNS = "game_id, guild_id, user_id, seq, ping_at, remind_at, channel_id, message_id"


def _call(row: Row) -> TurnCall:
    return TurnCall(int(row[0]), row[1], int(row[2]), int(row[3]), row[4], row[5], row[6], row[7])


class CallStore:
    """Turn calls and members' ways of being called. Every method is one transaction, committed before it
    returns."""

    def __init__(self, db: Database, leases: Leases) -> None:
        self._db = db
        self._leases = leases

    # -- turn calls -------------------------------------------------------------------------------------

    async def calls(self) -> tuple[TurnCall, ...]:
        """Every stored call (of open games: a call is dropped when its game ends), by game."""
        rows = await self._db.fetch(f"SELECT {_CALL_COLUMNS} FROM turn_calls ORDER BY game_id")
        return tuple(_call(row) for row in rows)

    async def put_call(self, call: TurnCall) -> None:
        """Store the game's call in place of its old one (ShardNotHeld, and nothing written, when another
        process runs the game's server now)."""
        async with self._db.write() as tx:
            await self._leases.check(tx, call.guild_id)
            await tx.execute(
                f"INSERT INTO turn_calls ({_CALL_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (game_id) DO UPDATE SET guild_id = excluded.guild_id, user_id = excluded.user_id, "
                "seq = excluded.seq, ping_at = excluded.ping_at, remind_at = excluded.remind_at, "
                "channel_id = excluded.channel_id, message_id = excluded.message_id",
                call.game_id, call.guild_id, call.user_id, call.seq, call.ping_at, call.remind_at, call.channel_id,
                call.message_id,
            )

    async def drop_call(self, game_id: int, guild_id: int | None) -> None:
        """Forget the game's call (its turn went to the AI, or the game ended)."""
        async with self._db.write() as tx:
            await self._leases.check(tx, guild_id)
            await tx.execute("DELETE FROM turn_calls WHERE game_id = ?", game_id)

    # -- members ----------------------------------------------------------------------------------------

    async def member(self, user_id: int) -> MemberSettings:
        """How this member wants to be called (the default, in the channel, when they never chose)."""
        rows = await self._db.fetch(
            "SELECT notify_mode, locale, dm_refused FROM member_settings WHERE user_id = ?", user_id
        )
        row = rows[0] if rows else None
        if row is None:
            return MemberSettings(user_id)
        return MemberSettings(user_id, row[0], row[1], bool(row[2]))

    async def set_notify_mode(self, user_id: int, mode: NotifyMode, locale: str | None) -> MemberSettings:
        """Choose how this member is called, on every server; `locale` is their Discord language, for DMs.
        ValueError, and nothing stored, for a mode that is none of `NOTIFY_MODES`."""
        if mode not in NOTIFY_MODES:
            raise ValueError(f"a notification mode is one of {', '.join(NOTIFY_MODES)}, not {mode!r}")
        async with self._db.write() as tx:
            await tx.execute(
                "INSERT INTO member_settings (user_id, notify_mode, locale, dm_refused, updated_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET notify_mode = excluded.notify_mode, "
                "locale = excluded.locale, dm_refused = excluded.dm_refused, updated_at = excluded.updated_at",
                user_id, mode, locale, False, self._db.clock(),
            )
        return MemberSettings(user_id, mode, locale, False)

    async def set_dm_refused(self, user_id: int, refused: bool) -> None:
        """Mark that a DM to this member bounced (True) or that they have been told (False)."""
        async with self._db.write() as tx:
            await tx.execute("UPDATE member_settings SET dm_refused = ? WHERE user_id = ?", refused, user_id)

    async def dm_refused(self) -> frozenset[int]:
        """The members whose DMs bounced and who have not been told yet."""
        rows = await self._db.fetch("SELECT user_id FROM member_settings WHERE dm_refused = ?", True)
        return frozenset(int(row[0]) for row in rows)
