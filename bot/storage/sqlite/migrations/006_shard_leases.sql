-- Which bot process holds which shard (`bot.storage.shards`); a game write checks its row in the same transaction.
-- On SQLite one process holds the file (a lock file beside it), so the rows are its own.

CREATE TABLE shard_leases (
    shard_count  INTEGER NOT NULL CHECK (shard_count >= 1),
    shard_id     INTEGER NOT NULL CHECK (shard_id >= 0 AND shard_id < shard_count),
    owner        TEXT NOT NULL,             -- a random token of the process that holds it
    acquired_at  REAL NOT NULL,
    PRIMARY KEY (shard_count, shard_id)
) WITHOUT ROWID;
