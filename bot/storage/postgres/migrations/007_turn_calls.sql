-- Turn pings and reminders, members' ways of being called, a server's own ping delay (SQLite's version 8).

CREATE TABLE turn_calls (
    game_id     bigint PRIMARY KEY REFERENCES games (game_id) ON DELETE CASCADE,
    guild_id    bigint,
    user_id     bigint NOT NULL,
    seq         integer NOT NULL CHECK (seq >= 0),
    ping_at     double precision,
    remind_at   double precision,
    channel_id  bigint,
    message_id  bigint
);

CREATE INDEX turn_calls_by_guild ON turn_calls (guild_id);

CREATE TABLE member_settings (
    user_id      bigint PRIMARY KEY,
    notify_mode  text NOT NULL CHECK (notify_mode IN ('channel', 'dm', 'off')),
    locale       text,
    dm_refused   boolean NOT NULL DEFAULT false,
    updated_at   double precision NOT NULL
);

ALTER TABLE guilds ADD COLUMN turn_ping_seconds integer CHECK (turn_ping_seconds >= 0);
