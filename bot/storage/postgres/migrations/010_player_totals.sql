-- What a profile reads (SQLite's version 11): a player's totals per server and over all servers (scope 0), per
-- variant, and their current streak of equal ranked results on the all-servers ladders.

CREATE TABLE player_totals (
    user_id       bigint NOT NULL REFERENCES players (user_id) ON DELETE CASCADE,
    scope         bigint NOT NULL,              -- 0: every server; otherwise a server's id
    variant       text NOT NULL,
    games         integer NOT NULL,             -- finished games (seats in them)
    kills         integer NOT NULL,
    last_game_id  bigint NOT NULL,              -- the newest of them: ties of the favourite variant go to it
    PRIMARY KEY (user_id, scope, variant)
);

CREATE TABLE player_streaks (
    user_id  bigint PRIMARY KEY REFERENCES players (user_id) ON DELETE CASCADE,
    result   text NOT NULL CHECK (result IN ('win', 'draw', 'loss')),
    length   integer NOT NULL CHECK (length >= 1)
);

INSERT INTO player_totals (user_id, scope, variant, games, kills, last_game_id)
SELECT s.user_id, 0, g.variant, count(*), coalesce(sum(s.kills), 0), max(g.game_id)
FROM seats s JOIN games g ON g.game_id = s.game_id
WHERE g.status = 'finished' AND s.user_id IS NOT NULL
GROUP BY s.user_id, g.variant;

INSERT INTO player_totals (user_id, scope, variant, games, kills, last_game_id)
SELECT s.user_id, g.guild_id, g.variant, count(*), coalesce(sum(s.kills), 0), max(g.game_id)
FROM seats s JOIN games g ON g.game_id = s.game_id
WHERE g.status = 'finished' AND s.user_id IS NOT NULL AND g.guild_id IS NOT NULL
GROUP BY s.user_id, g.guild_id, g.variant;

INSERT INTO player_streaks (user_id, result, length)
WITH ordered AS (
    SELECT user_id, result, row_number() OVER (PARTITION BY user_id ORDER BY played_at DESC, game_id DESC) AS n
    FROM rating_history WHERE scope = 0
), newest AS (
    SELECT user_id, result FROM ordered WHERE n = 1
), broken AS (
    SELECT o.user_id, min(o.n) AS n FROM ordered o JOIN newest w ON w.user_id = o.user_id
    WHERE o.result <> w.result GROUP BY o.user_id
), counted AS (
    SELECT user_id, count(*) AS n FROM ordered GROUP BY user_id
)
SELECT w.user_id, w.result, coalesce(b.n - 1, c.n)
FROM newest w JOIN counted c ON c.user_id = w.user_id LEFT JOIN broken b ON b.user_id = w.user_id;
