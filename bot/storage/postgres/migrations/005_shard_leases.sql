-- Which bot process holds which shard (`bot.storage.shards`; SQLite's version 6). The holder also keeps a
-- session-level advisory lock per shard on a connection of its own, so a process that dies (its connection closes)
-- frees its shards at once; a game write checks the row in the same transaction.

CREATE TABLE shard_leases (
    shard_count  integer NOT NULL CHECK (shard_count >= 1),
    shard_id     integer NOT NULL CHECK (shard_id >= 0 AND shard_id < shard_count),
    owner        text NOT NULL,             -- a random token of the process that holds it
    acquired_at  double precision NOT NULL,
    PRIMARY KEY (shard_count, shard_id)
);
