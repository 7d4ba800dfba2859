-- Seasons of a server's ladders, and each closed season's final leaderboards.

CREATE TABLE seasons (
    guild_id    INTEGER NOT NULL,
    season      INTEGER NOT NULL CHECK (season >= 1),
    started_at  REAL,                       -- NULL for a server's first season
    ended_at    REAL NOT NULL,
    PRIMARY KEY (guild_id, season)
) WITHOUT ROWID;

CREATE TABLE season_standings (
    guild_id      INTEGER NOT NULL,
    season        INTEGER NOT NULL,
    ladder        TEXT NOT NULL CHECK (ladder IN ('duel', 'team')),
    rank          INTEGER NOT NULL CHECK (rank >= 1),
    user_id       INTEGER,                  -- NULL once the player asked to be forgotten
    display_name  TEXT NOT NULL,
    rating        INTEGER NOT NULL,
    games         INTEGER NOT NULL,
    wins          INTEGER NOT NULL,
    draws         INTEGER NOT NULL,
    losses        INTEGER NOT NULL,
    PRIMARY KEY (guild_id, season, ladder, rank),
    FOREIGN KEY (guild_id, season) REFERENCES seasons (guild_id, season) ON DELETE CASCADE
) WITHOUT ROWID;

CREATE INDEX season_standings_by_user ON season_standings (user_id) WHERE user_id IS NOT NULL;
