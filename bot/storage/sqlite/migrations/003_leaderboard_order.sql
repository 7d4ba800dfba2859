-- The leaderboard index in leaderboard order (conservative DESC, then user id), so a page is read in index order and
-- the scan stops after the page instead of sorting every rating of the ladder.

DROP INDEX ratings_board;

CREATE INDEX ratings_board ON ratings (ladder, scope, conservative DESC, user_id, games, last_played);
