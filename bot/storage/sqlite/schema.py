"""The database schema as a list of forward migrations, tracked with `PRAGMA user_version`.

Migration N takes a database at version N - 1 to version N and must never be edited once released: a
change is always a new migration appended to `MIGRATIONS`. Each migration runs in one transaction together
with its `user_version` bump, so a crash leaves the file at the old version or the new one, never between.
This module holds DDL only; the queries live in `bot.storage.sql` (shared with PostgreSQL, whose schema in
`bot.storage.postgres.schema` has the same tables and columns: `bot.storage.sql.tables`).

Timestamps are Unix seconds (REAL, UTC). Discord snowflakes fit SQLite's 64-bit INTEGER.
"""

from __future__ import annotations

import sqlite3

from bot.storage.sql import versions

# Version 1: servers, players, games, seats and the append-only event log.
_V1 = (
    """
    CREATE TABLE guilds (
        guild_id            INTEGER PRIMARY KEY,
        default_variant     TEXT,               -- preset name; NULL = the bot's default
        turn_timer_seconds  INTEGER,            -- NULL = the bot's default
        locale              TEXT,               -- NULL = follow Discord's guild locale
        created_at          REAL NOT NULL
    )
    """,
    """
    CREATE TABLE channel_settings (
        channel_id  INTEGER PRIMARY KEY,
        guild_id    INTEGER NOT NULL REFERENCES guilds (guild_id) ON DELETE CASCADE,
        ranked      INTEGER NOT NULL CHECK (ranked IN (0, 1))
    )
    """,
    """
    CREATE TABLE players (
        user_id       INTEGER PRIMARY KEY,
        display_name  TEXT NOT NULL,
        last_active   REAL NOT NULL,
        created_at    REAL NOT NULL
    )
    """,
    """
    CREATE TABLE games (
        game_id             INTEGER PRIMARY KEY,
        guild_id            INTEGER,            -- NULL in direct messages
        channel_id          INTEGER NOT NULL,
        in_thread           INTEGER NOT NULL CHECK (in_thread IN (0, 1)),
        message_id          INTEGER,            -- the message that shows the board now
        status              TEXT NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'cancelled')),
        host_id             INTEGER,            -- NULL once the host asked to be forgotten
        ranked              INTEGER NOT NULL CHECK (ranked IN (0, 1)),
        variant             TEXT NOT NULL,
        rules_json          TEXT NOT NULL,
        first_team          TEXT CHECK (first_team IN ('A', 'B')),
        throw_off_json      TEXT,
        seed                INTEGER,
        turn_timer_seconds  INTEGER NOT NULL,
        turn_deadline       REAL,               -- timers survive restarts: the deadline, not a countdown
        last_seq            INTEGER NOT NULL DEFAULT 0,
        snapshot_ppn        TEXT,               -- position after event snapshot_seq, checked against a replay
        snapshot_seq        INTEGER NOT NULL DEFAULT 0,
        winner              TEXT CHECK (winner IN ('A', 'B')),  -- NULL: draw, or not finished
        score_a             INTEGER,
        score_b             INTEGER,
        end_reason          TEXT CHECK (end_reason IN ('normal', 'resign', 'timeout', 'cancelled')),
        created_at          REAL NOT NULL,
        updated_at          REAL NOT NULL,
        finished_at         REAL
    )
    """,
    # Start-up reloads the few unfinished games among millions: a partial index keeps that instant.
    "CREATE INDEX games_open ON games (status) WHERE status IN ('lobby', 'running')",
    """
    CREATE TABLE seats (
        game_id               INTEGER NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
        seat                  TEXT NOT NULL CHECK (seat GLOB '[AB][1-8]'),
        user_id               INTEGER REFERENCES players (user_id) ON DELETE SET NULL,
        ai_level              INTEGER,
        display_name          TEXT NOT NULL,    -- as shown when the game was played
        consecutive_timeouts  INTEGER NOT NULL DEFAULT 0,
        kills                 INTEGER,          -- set when the game finishes
        PRIMARY KEY (game_id, seat),
        CHECK (user_id IS NULL OR ai_level IS NULL)
    ) WITHOUT ROWID
    """,
    # Not partial: SQLite's foreign-key check on deleting a player needs a full index on seats.user_id.
    "CREATE INDEX seats_by_user ON seats (user_id, game_id)",
    "CREATE INDEX games_by_host ON games (host_id) WHERE host_id IS NOT NULL",
    # The primary key is the UNIQUE (game_id, seq) guard: an event can never be applied twice.
    """
    CREATE TABLE events (
        game_id     INTEGER NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
        seq         INTEGER NOT NULL CHECK (seq >= 1),
        kind        TEXT NOT NULL,
        payload     TEXT NOT NULL,
        created_at  REAL NOT NULL,
        PRIMARY KEY (game_id, seq)
    ) WITHOUT ROWID
    """,
)

# Version 2: ranked ladders. `conservative` (mu - 3 sigma) is stored so leaderboards and ranks are index
# range scans; the index also carries games and last_played so rank counts never touch the table.
_V2 = (
    """
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
    ) WITHOUT ROWID
    """,
    "CREATE INDEX ratings_board ON ratings (ladder, scope, conservative, last_played, games)",
    "CREATE INDEX ratings_by_user ON ratings (user_id)",  # forget-me and its foreign-key check
    """
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
    ) WITHOUT ROWID
    """,
    "CREATE INDEX rating_history_by_game ON rating_history (game_id)",
    # How many listed (non-provisional) ratings fall on each UTC day of last ranked game and each quarter
    # point of conservative rating. A rank is then a sum over at most 31 days x a few hundred buckets plus
    # an exact count inside one bucket, instead of a count over every player ahead (100k rows: too slow).
    # Kept in step with `ratings` by the same transactions; SqlStore.rebuild_ladder_counts recomputes it.
    """
    CREATE TABLE ladder_counts (
        ladder   TEXT NOT NULL,
        scope    INTEGER NOT NULL,
        day      INTEGER NOT NULL,              -- int(last_played / 86400)
        bucket   INTEGER NOT NULL,              -- floor(conservative * 4)
        players  INTEGER NOT NULL,
        PRIMARY KEY (ladder, scope, day, bucket)
    ) WITHOUT ROWID
    """,
)

# Version 3: the leaderboard index in leaderboard order (conservative DESC, then user id), so a page is read
# in index order and the scan stops after the page instead of sorting every rating of the ladder.
_V3 = (
    "DROP INDEX ratings_board",
    "CREATE INDEX ratings_board ON ratings (ladder, scope, conservative DESC, user_id, games, last_played)",
)

# Version 4: tournaments. Matches name entrants by their number in the tournament, never by user id, so
# forgetting a player touches only the entrant row.
_V4 = (
    """
    CREATE TABLE tournaments (
        tournament_id       INTEGER PRIMARY KEY,
        guild_id            INTEGER NOT NULL,
        channel_id          INTEGER NOT NULL,   -- where the tournament is announced and its threads open
        message_id          INTEGER,            -- the announcement with Join / Leave / Start
        creator_id          INTEGER,            -- NULL once the creator asked to be forgotten
        name                TEXT NOT NULL,
        format              TEXT NOT NULL CHECK (format IN ('round_robin', 'single_elimination', 'swiss')),
        variant             TEXT NOT NULL,
        setup               TEXT,               -- NULL: the variant's default
        turn_timer_seconds  INTEGER NOT NULL,
        round_seconds       INTEGER NOT NULL,   -- a round's time limit
        ranked              INTEGER NOT NULL CHECK (ranked IN (0, 1)),
        status              TEXT NOT NULL CHECK (status IN ('open', 'running', 'finished', 'cancelled')),
        rounds              INTEGER,            -- planned, set at the start
        round               INTEGER NOT NULL DEFAULT 0,
        round_deadline      REAL,               -- survives restarts: the deadline, not a countdown
        created_at          REAL NOT NULL,
        updated_at          REAL NOT NULL,
        finished_at         REAL
    )
    """,
    "CREATE INDEX tournaments_by_guild ON tournaments (guild_id, tournament_id)",
    "CREATE INDEX tournaments_open ON tournaments (status) WHERE status IN ('open', 'running')",
    """
    CREATE TABLE tournament_entrants (
        tournament_id  INTEGER NOT NULL REFERENCES tournaments (tournament_id) ON DELETE CASCADE,
        number         INTEGER NOT NULL CHECK (number >= 1),  -- order of joining
        user_id        INTEGER,                 -- NULL once the player asked to be forgotten
        display_name   TEXT NOT NULL,
        rating         INTEGER,                 -- the rating the seed came from, set at the start
        seed           INTEGER,                 -- 1 = best, set at the start
        PRIMARY KEY (tournament_id, number),
        UNIQUE (tournament_id, user_id)
    ) WITHOUT ROWID
    """,
    "CREATE INDEX tournament_entrants_by_user ON tournament_entrants (user_id) WHERE user_id IS NOT NULL",
    """
    CREATE TABLE tournament_matches (
        tournament_id  INTEGER NOT NULL REFERENCES tournaments (tournament_id) ON DELETE CASCADE,
        round          INTEGER NOT NULL CHECK (round >= 1),
        board          INTEGER NOT NULL CHECK (board >= 1),
        player_a       INTEGER NOT NULL,        -- entrant numbers
        player_b       INTEGER,                 -- NULL: a bye for player_a
        game_id        INTEGER REFERENCES games (game_id),
        thread_id      INTEGER,
        outcome        TEXT CHECK (outcome IN ('a', 'b', 'draw', 'none')),
        decided_by     TEXT CHECK (decided_by IN ('game', 'bye', 'forfeit', 'adjudication')),
        chance_a       REAL,                    -- adjudication: the hard AI's chance that player_a wins
        PRIMARY KEY (tournament_id, round, board),
        CHECK ((outcome IS NULL) = (decided_by IS NULL))
    ) WITHOUT ROWID
    """,
    "CREATE INDEX tournament_matches_by_game ON tournament_matches (game_id) WHERE game_id IS NOT NULL",
)

# Version 5: seasons of a server's ladders, and each closed season's final leaderboards.
_V5 = (
    """
    CREATE TABLE seasons (
        guild_id    INTEGER NOT NULL,
        season      INTEGER NOT NULL CHECK (season >= 1),
        started_at  REAL,                       -- NULL for a server's first season
        ended_at    REAL NOT NULL,
        PRIMARY KEY (guild_id, season)
    ) WITHOUT ROWID
    """,
    """
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
    ) WITHOUT ROWID
    """,
    "CREATE INDEX season_standings_by_user ON season_standings (user_id) WHERE user_id IS NOT NULL",
)

# Version 6: which bot process holds which shard (`bot.storage.shards`); a game write checks its row in the
# same transaction. On SQLite one process holds the file (a lock file beside it), so the rows are its own.
_V6 = (
    """
    CREATE TABLE shard_leases (
        shard_count  INTEGER NOT NULL CHECK (shard_count >= 1),
        shard_id     INTEGER NOT NULL CHECK (shard_id >= 0 AND shard_id < shard_count),
        owner        TEXT NOT NULL,             -- a random token of the process that holds it
        acquired_at  REAL NOT NULL,
        PRIMARY KEY (shard_count, shard_id)
    ) WITHOUT ROWID
    """,
)

# Version 7: a server's default added rules (issue 19); NULL = not added, as before the columns existed.
_V7 = (
    "ALTER TABLE guilds ADD COLUMN fire INTEGER CHECK (fire IN (0, 1))",
    "ALTER TABLE guilds ADD COLUMN scorpion INTEGER CHECK (scorpion IN (0, 1))",
    "ALTER TABLE guilds ADD COLUMN eagle_returns INTEGER CHECK (eagle_returns IN (0, 1))",
)

MIGRATIONS: tuple[tuple[str, ...], ...] = (_V1, _V2, _V3, _V4, _V5, _V6, _V7)
LATEST_VERSION = len(MIGRATIONS)


def migrate_sync(conn: sqlite3.Connection, target: int = LATEST_VERSION) -> int:
    """Apply the missing migrations up to `target` on a plain sqlite3 connection; return the new version.

    The connection must be in autocommit mode (isolation_level=None) so the transactions here are ours.
    """
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    versions.check_version(version, LATEST_VERSION)
    while version < target:
        conn.execute("BEGIN IMMEDIATE")
        try:
            for statement in MIGRATIONS[version]:
                conn.execute(statement)
            # user_version lives in the file header and is written by this same transaction. PRAGMA takes
            # no bound parameters; the value is our own integer, formatted with :d.
            conn.execute(f"PRAGMA user_version = {version + 1:d}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        version += 1
    return version
