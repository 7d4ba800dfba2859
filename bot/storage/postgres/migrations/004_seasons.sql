-- Seasons of a server's ladders, and each closed season's final leaderboards (SQLite's version 5).

CREATE TABLE seasons (
    guild_id    bigint NOT NULL,
    season      integer NOT NULL CHECK (season >= 1),
    started_at  double precision,           -- NULL for a server's first season
    ended_at    double precision NOT NULL,
    PRIMARY KEY (guild_id, season)
);

CREATE TABLE season_standings (
    guild_id      bigint NOT NULL,
    season        integer NOT NULL,
    ladder        text COLLATE "C" NOT NULL CHECK (ladder IN ('duel', 'team')),
    rank          integer NOT NULL CHECK (rank >= 1),
    user_id       bigint,                   -- NULL once the player asked to be forgotten
    display_name  text NOT NULL,
    rating        integer NOT NULL,
    games         integer NOT NULL,
    wins          integer NOT NULL,
    draws         integer NOT NULL,
    losses        integer NOT NULL,
    PRIMARY KEY (guild_id, season, ladder, rank),
    FOREIGN KEY (guild_id, season) REFERENCES seasons (guild_id, season) ON DELETE CASCADE
);

CREATE INDEX season_standings_by_user ON season_standings (user_id) WHERE user_id IS NOT NULL;
