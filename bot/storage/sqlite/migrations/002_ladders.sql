-- Ranked ladders. `conservative` (mu - 3 sigma) is stored so leaderboards and ranks are index range scans; the index
-- also carries games and last_played so rank counts never touch the table.

CREATE TABLE ratings (
    ladder        TEXT NOT NULL CHECK (ladder IN ('duel', 'team')),
    scope         INTEGER NOT NULL,         -- guild id, or 0 for the global ladder
    user_id       INTEGER NOT NULL REFERENCES players (user_id) ON DELETE CASCADE,
    mu            REAL NOT NULL,
    sigma         REAL NOT NULL,
    conservative  REAL NOT NULL,
    games         INTEGER NOT NULL,
    wins          INTEGER NOT NULL,
    draws         INTEGER NOT NULL,
    losses        INTEGER NOT NULL,
    last_played   REAL NOT NULL,
    PRIMARY KEY (ladder, scope, user_id)
) WITHOUT ROWID;

CREATE INDEX ratings_board ON ratings (ladder, scope, conservative, last_played, games);

CREATE INDEX ratings_by_user ON ratings (user_id);

-- forget-me and its foreign-key check
CREATE TABLE rating_history (
    user_id          INTEGER NOT NULL REFERENCES players (user_id) ON DELETE CASCADE,
    ladder           TEXT NOT NULL CHECK (ladder IN ('duel', 'team')),
    scope            INTEGER NOT NULL,
    game_id          INTEGER NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    played_at        REAL NOT NULL,
    result           TEXT NOT NULL CHECK (result IN ('win', 'draw', 'loss')),
    mu_before        REAL NOT NULL,
    sigma_before     REAL NOT NULL,
    mu_after         REAL NOT NULL,
    sigma_after      REAL NOT NULL,
    rating_before    INTEGER NOT NULL,
    rating_after     INTEGER NOT NULL,
    opponent_rating  INTEGER NOT NULL,      -- mean displayed rating of the other team before the game
    PRIMARY KEY (user_id, ladder, scope, game_id)  -- a game rates a player once per ladder
) WITHOUT ROWID;

CREATE INDEX rating_history_by_game ON rating_history (game_id);

-- How many listed (non-provisional) ratings fall on each UTC day of last ranked game and each quarter point of
-- conservative rating. A rank is then a sum over at most 31 days x a few hundred buckets plus an exact count inside
-- one bucket, instead of a count over every player ahead (100k rows: too slow). Kept in step with `ratings` by the
-- same transactions; SqlStore.rebuild_ladder_counts recomputes it.
CREATE TABLE ladder_counts (
    ladder   TEXT NOT NULL,
    scope    INTEGER NOT NULL,
    day      INTEGER NOT NULL,              -- int(last_played / 86400)
    bucket   INTEGER NOT NULL,              -- floor(conservative * 4)
    players  INTEGER NOT NULL,
    PRIMARY KEY (ladder, scope, day, bucket)
) WITHOUT ROWID;
