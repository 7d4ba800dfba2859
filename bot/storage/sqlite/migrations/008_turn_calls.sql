-- Turn pings and reminders (issue 26): the one call of each running game, each member's way of being called,
-- and a server's own delay before a ping. A call lives with its game (its server's shard, its deadline), so
-- it survives restarts and moves with the game.

CREATE TABLE turn_calls (
    game_id     INTEGER PRIMARY KEY REFERENCES games (game_id) ON DELETE CASCADE,
    guild_id    INTEGER,                  -- the game's server: a process loads the calls of its own shards
    user_id     INTEGER NOT NULL,         -- the member whose turn it is
    seq         INTEGER NOT NULL CHECK (seq >= 0),  -- the game's event at which this call was made
    ping_at     REAL,                     -- when to ping them; NULL: pinged, or no ping this turn
    remind_at   REAL,                     -- when to remind them (a quarter of the turn left); NULL: none
    channel_id  INTEGER,                  -- where the ping or reminder now shown was sent (a channel or a DM)
    message_id  INTEGER                   -- that message, deleted once they act; NULL: none shown
);

CREATE INDEX turn_calls_by_guild ON turn_calls (guild_id);

CREATE TABLE member_settings (
    user_id      INTEGER PRIMARY KEY,
    notify_mode  TEXT NOT NULL CHECK (notify_mode IN ('channel', 'dm', 'off')),
    locale       TEXT,                    -- the member's Discord language when they chose: their DMs' language
    dm_refused   INTEGER NOT NULL DEFAULT 0 CHECK (dm_refused IN (0, 1)),  -- a DM bounced; not told yet
    updated_at   REAL NOT NULL
);

ALTER TABLE guilds ADD COLUMN turn_ping_seconds INTEGER CHECK (turn_ping_seconds >= 0);
