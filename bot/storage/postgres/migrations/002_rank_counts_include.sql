-- The rank counts' key carries the count itself (INCLUDE), so summing the buckets above a player is an index-only
-- scan of a few pages instead of one heap page per bucket (2 ms -> 0.3 ms at 100,000 players; SQLite's ladder_counts
-- is WITHOUT ROWID, clustered on its key, and needs no such change).

ALTER TABLE ladder_counts DROP CONSTRAINT ladder_counts_pkey, ADD PRIMARY KEY (ladder, scope, day, bucket) INCLUDE (players);
