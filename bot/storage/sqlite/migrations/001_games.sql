-- Servers, players, games, seats and the append-only event log.

CREATE TABLE guilds (
    guild_id            INTEGER PRIMARY KEY,
    default_variant     TEXT,               -- preset name; NULL = the bot's default
    turn_timer_seconds  INTEGER,            -- NULL = the bot's default
    locale              TEXT,               -- NULL = follow Discord's guild locale
    created_at          REAL NOT NULL
);

CREATE TABLE channel_settings (
    channel_id  INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL REFERENCES guilds (guild_id) ON DELETE CASCADE,
    ranked      INTEGER NOT NULL CHECK (ranked IN (0, 1))
);

CREATE TABLE players (
    user_id       INTEGER PRIMARY KEY,
    display_name  TEXT NOT NULL,
    last_active   REAL NOT NULL,
    created_at    REAL NOT NULL
);

CREATE TABLE games (
    game_id             INTEGER PRIMARY KEY,
    guild_id            INTEGER,            -- NULL in direct messages
    channel_id          INTEGER NOT NULL,
    in_thread           INTEGER NOT NULL CHECK (in_thread IN (0, 1)),
    message_id          INTEGER,            -- the message that shows the board now
    status              TEXT NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'cancelled')),
    host_id             INTEGER,            -- NULL once the host asked to be forgotten
    ranked              INTEGER NOT NULL CHECK (ranked IN (0, 1)),
    variant             TEXT NOT NULL,
    rules_json          TEXT NOT NULL,
    first_team          TEXT CHECK (first_team IN ('A', 'B')),
    throw_off_json      TEXT,
    seed                INTEGER,
    turn_timer_seconds  INTEGER NOT NULL,
    turn_deadline       REAL,               -- timers survive restarts: the deadline, not a countdown
    last_seq            INTEGER NOT NULL DEFAULT 0,
    snapshot_ppn        TEXT,               -- position after event snapshot_seq, checked against a replay
    snapshot_seq        INTEGER NOT NULL DEFAULT 0,
    winner              TEXT CHECK (winner IN ('A', 'B')),  -- NULL: draw, or not finished
    score_a             INTEGER,
    score_b             INTEGER,
    end_reason          TEXT CHECK (end_reason IN ('normal', 'resign', 'timeout', 'cancelled')),
    created_at          REAL NOT NULL,
    updated_at          REAL NOT NULL,
    finished_at         REAL
);

-- Start-up reloads the few unfinished games among millions: a partial index keeps that instant.
CREATE INDEX games_open ON games (status) WHERE status IN ('lobby', 'running');

CREATE TABLE seats (
    game_id               INTEGER NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    seat                  TEXT NOT NULL CHECK (seat GLOB '[AB][1-8]'),
    user_id               INTEGER REFERENCES players (user_id) ON DELETE SET NULL,
    ai_level              INTEGER,
    display_name          TEXT NOT NULL,    -- as shown when the game was played
    consecutive_timeouts  INTEGER NOT NULL DEFAULT 0,
    kills                 INTEGER,          -- set when the game finishes
    PRIMARY KEY (game_id, seat),
    CHECK (user_id IS NULL OR ai_level IS NULL)
) WITHOUT ROWID;

-- Not partial: SQLite's foreign-key check on deleting a player needs a full index on seats.user_id.
CREATE INDEX seats_by_user ON seats (user_id, game_id);

CREATE INDEX games_by_host ON games (host_id) WHERE host_id IS NOT NULL;

-- The primary key is the UNIQUE (game_id, seq) guard: an event can never be applied twice.
CREATE TABLE events (
    game_id     INTEGER NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL CHECK (seq >= 1),
    kind        TEXT NOT NULL,
    payload     TEXT NOT NULL,
    created_at  REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
