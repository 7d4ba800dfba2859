-- Tournaments. Matches name entrants by their number in the tournament, never by user id, so forgetting a player
-- touches only the entrant row.

CREATE TABLE tournaments (
    tournament_id       INTEGER PRIMARY KEY,
    guild_id            INTEGER NOT NULL,
    channel_id          INTEGER NOT NULL,   -- where the tournament is announced and its threads open
    message_id          INTEGER,            -- the announcement with Join / Leave / Start
    creator_id          INTEGER,            -- NULL once the creator asked to be forgotten
    name                TEXT NOT NULL,
    format              TEXT NOT NULL CHECK (format IN ('round_robin', 'single_elimination', 'swiss')),
    variant             TEXT NOT NULL,
    setup               TEXT,               -- NULL: the variant's default
    turn_timer_seconds  INTEGER NOT NULL,
    round_seconds       INTEGER NOT NULL,   -- a round's time limit
    ranked              INTEGER NOT NULL CHECK (ranked IN (0, 1)),
    status              TEXT NOT NULL CHECK (status IN ('open', 'running', 'finished', 'cancelled')),
    rounds              INTEGER,            -- planned, set at the start
    round               INTEGER NOT NULL DEFAULT 0,
    round_deadline      REAL,               -- survives restarts: the deadline, not a countdown
    created_at          REAL NOT NULL,
    updated_at          REAL NOT NULL,
    finished_at         REAL
);

CREATE INDEX tournaments_by_guild ON tournaments (guild_id, tournament_id);

CREATE INDEX tournaments_open ON tournaments (status) WHERE status IN ('open', 'running');

CREATE TABLE tournament_entrants (
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (tournament_id) ON DELETE CASCADE,
    number         INTEGER NOT NULL CHECK (number >= 1),  -- order of joining
    user_id        INTEGER,                 -- NULL once the player asked to be forgotten
    display_name   TEXT NOT NULL,
    rating         INTEGER,                 -- the rating the seed came from, set at the start
    seed           INTEGER,                 -- 1 = best, set at the start
    PRIMARY KEY (tournament_id, number),
    UNIQUE (tournament_id, user_id)
) WITHOUT ROWID;

CREATE INDEX tournament_entrants_by_user ON tournament_entrants (user_id) WHERE user_id IS NOT NULL;

CREATE TABLE tournament_matches (
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (tournament_id) ON DELETE CASCADE,
    round          INTEGER NOT NULL CHECK (round >= 1),
    board          INTEGER NOT NULL CHECK (board >= 1),
    player_a       INTEGER NOT NULL,        -- entrant numbers
    player_b       INTEGER,                 -- NULL: a bye for player_a
    game_id        INTEGER REFERENCES games (game_id),
    thread_id      INTEGER,
    outcome        TEXT CHECK (outcome IN ('a', 'b', 'draw', 'none')),
    decided_by     TEXT CHECK (decided_by IN ('game', 'bye', 'forfeit', 'adjudication')),
    chance_a       REAL,                    -- adjudication: the hard AI's chance that player_a wins
    PRIMARY KEY (tournament_id, round, board),
    CHECK ((outcome IS NULL) = (decided_by IS NULL))
) WITHOUT ROWID;

CREATE INDEX tournament_matches_by_game ON tournament_matches (game_id) WHERE game_id IS NOT NULL;
