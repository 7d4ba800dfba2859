-- Retention (issue 27): when a finished or cancelled game's event log was pruned (FINISHED_GAME_RETENTION_DAYS);
-- NULL while its log is whole. Its row, seats, result and ratings stay.

ALTER TABLE games ADD COLUMN pruned_at REAL;

CREATE INDEX games_to_prune ON games (finished_at) WHERE pruned_at IS NULL AND status IN ('finished', 'cancelled');
