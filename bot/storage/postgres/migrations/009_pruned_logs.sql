-- Retention (SQLite's version 10): when a finished or cancelled game's event log was pruned; NULL while whole.

ALTER TABLE games ADD COLUMN pruned_at double precision;

CREATE INDEX games_to_prune ON games (finished_at) WHERE pruned_at IS NULL AND status IN ('finished', 'cancelled');
