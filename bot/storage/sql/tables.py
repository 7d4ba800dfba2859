"""The tables both SQL backends keep, column by column: what `copy-data` moves and checks, in that order.

Both backends' migrations make these tables and columns; the types differ only in spelling (SQLite keeps
booleans as 0/1 and JSON as TEXT, PostgreSQL as boolean and jsonb). `portable` turns a row read from either
into the same Python values, so rows can be copied from one backend to the other and compared. Parents come
before children (foreign keys).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Table:
    name: str
    columns: tuple[str, ...]
    key: tuple[str, ...]  # the primary key: rows are read in this order
    booleans: frozenset[str] = frozenset()
    reals: frozenset[str] = frozenset()  # Unix times and ratings: SQLite may hand back an int for 0.0
    jsons: frozenset[str] = frozenset()

    @property
    def column_list(self) -> str:
        return ", ".join(self.columns)

    def portable(self, row: Iterable[Any]) -> tuple[Any, ...]:
        """The row with booleans as bool, reals as float and JSON as text (for writing to any backend)."""
        values = []
        for column, value in zip(self.columns, row, strict=True):
            if value is not None and column in self.booleans:
                value = bool(value)
            elif value is not None and column in self.reals:
                value = float(value)
            values.append(value)
        return tuple(values)

    def comparable(self, row: Iterable[Any]) -> tuple[Any, ...]:
        """`portable`, with JSON parsed (jsonb and TEXT spell the same value differently)."""
        return tuple(
            json.loads(value) if value is not None and column in self.jsons else value
            for column, value in zip(self.columns, self.portable(row), strict=True)
        )


TABLES: tuple[Table, ...] = (
    Table(
        "guilds",
        ("guild_id", "default_variant", "turn_timer_seconds", "locale", "created_at", "fire", "scorpion",
         "eagle_returns", "turn_ping_seconds"),
        ("guild_id",),
        booleans=frozenset({"fire", "scorpion", "eagle_returns"}),
        reals=frozenset({"created_at"}),
    ),
    Table("channel_settings", ("channel_id", "guild_id", "ranked"), ("channel_id",), booleans=frozenset({"ranked"})),
    Table(
        "players",
        ("user_id", "display_name", "last_active", "created_at"),
        ("user_id",),
        reals=frozenset({"last_active", "created_at"}),
    ),
    Table(
        "games",
        (
            "game_id", "guild_id", "channel_id", "in_thread", "message_id", "status", "host_id", "ranked", "variant",
            "rules_json", "first_team", "throw_off_json", "seed", "turn_timer_seconds", "turn_deadline", "last_seq",
            "snapshot_ppn", "snapshot_seq", "winner", "score_a", "score_b", "end_reason", "created_at", "updated_at",
            "finished_at", "pruned_at",
        ),
        ("game_id",),
        booleans=frozenset({"in_thread", "ranked"}),
        reals=frozenset({"turn_deadline", "created_at", "updated_at", "finished_at", "pruned_at"}),
        jsons=frozenset({"rules_json", "throw_off_json"}),
    ),
    Table(
        "seats",
        ("game_id", "seat", "user_id", "ai_level", "display_name", "consecutive_timeouts", "kills"),
        ("game_id", "seat"),
    ),
    Table(
        "events",
        ("game_id", "seq", "kind", "payload", "created_at"),
        ("game_id", "seq"),
        reals=frozenset({"created_at"}),
        jsons=frozenset({"payload"}),
    ),
    Table(
        "turn_calls",
        ("game_id", "guild_id", "user_id", "seq", "ping_at", "remind_at", "channel_id", "message_id"),
        ("game_id",),
        reals=frozenset({"ping_at", "remind_at"}),
    ),
    Table(
        "member_settings",
        ("user_id", "notify_mode", "locale", "dm_refused", "updated_at"),
        ("user_id",),
        booleans=frozenset({"dm_refused"}),
        reals=frozenset({"updated_at"}),
    ),
    Table(
        "ratings",
        (
            "ladder", "scope", "user_id", "mu", "sigma", "conservative", "games", "wins", "draws", "losses",
            "last_played",
        ),
        ("ladder", "scope", "user_id"),
        reals=frozenset({"mu", "sigma", "conservative", "last_played"}),
    ),
    Table(
        "rating_history",
        (
            "user_id", "ladder", "scope", "game_id", "played_at", "result", "mu_before", "sigma_before", "mu_after",
            "sigma_after", "rating_before", "rating_after", "opponent_rating",
        ),
        ("user_id", "ladder", "scope", "game_id"),
        reals=frozenset({"played_at", "mu_before", "sigma_before", "mu_after", "sigma_after"}),
    ),
    Table(
        "ladder_counts",
        ("ladder", "scope", "day", "bucket", "players"),
        ("ladder", "scope", "day", "bucket"),
    ),
    Table("seasons", ("guild_id", "season", "started_at", "ended_at"), ("guild_id", "season"),
          reals=frozenset({"started_at", "ended_at"})),
    Table(
        "season_standings",
        ("guild_id", "season", "ladder", "rank", "user_id", "display_name", "rating", "games", "wins", "draws",
         "losses"),
        ("guild_id", "season", "ladder", "rank"),
    ),
    Table(
        "tournaments",
        (
            "tournament_id", "guild_id", "channel_id", "message_id", "creator_id", "name", "format", "variant",
            "setup", "turn_timer_seconds", "round_seconds", "ranked", "status", "rounds", "round", "round_deadline",
            "created_at", "updated_at", "finished_at",
        ),
        ("tournament_id",),
        booleans=frozenset({"ranked"}),
        reals=frozenset({"round_deadline", "created_at", "updated_at", "finished_at"}),
    ),
    Table(
        "tournament_entrants",
        ("tournament_id", "number", "user_id", "display_name", "rating", "seed"),
        ("tournament_id", "number"),
    ),
    Table(
        "tournament_matches",
        (
            "tournament_id", "round", "board", "player_a", "player_b", "game_id", "thread_id", "outcome",
            "decided_by", "chance_a",
        ),
        ("tournament_id", "round", "board"),
        reals=frozenset({"chance_a"}),
    ),
    Table("player_totals", ("user_id", "scope", "variant", "games", "kills", "last_game_id"),
          ("user_id", "scope", "variant")),
    Table("player_streaks", ("user_id", "result", "length"), ("user_id",)),
)
TABLE_NAMES = tuple(t.name for t in TABLES)


def table(name: str) -> Table:
    for found in TABLES:
        if found.name == name:
            return found
    raise ValueError(f"there is no table {name!r}; the tables are {', '.join(TABLE_NAMES)}")
