"""What the bot asks of its database: the `Storage` protocol, one interface for every backend.

`GameRepository` is the part the game sessions use (games, seats, the append-only event log); `Storage` adds
what the rest of the bot needs (server and channel settings, ladders, profiles, privacy, health). Every
method is one transaction, committed before it returns. Backends: `bot.storage.sqlite` and
`bot.storage.postgres` (both running the queries of `bot.storage.sql`), and `bot.storage.memory` for tests;
they raise only `bot.storage.errors`, never a driver's exception (a full disk or a lost server is
`StorageUnavailable`: nothing of the call was stored). tests/bot/storage/test_contract_*.py hold all three to
this protocol.
This module must never import a database driver or discord.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from bot.ratings.seasons import Season, SeasonPage
from bot.storage.shards import Shards
from bot.storage.types import (
    GLOBAL_SCOPE,
    UNCHANGED,
    EndReason,
    Event,
    FinishReport,
    ForgetReport,
    Game,
    GameLog,
    GameSummary,
    GuildSettings,
    LeaderboardPage,
    NewEvent,
    PersonalData,
    Profile,
    RatingPoint,
    SeatSpec,
    Standing,
    StoredCounts,
    Unchanged,
)
from bot.tournaments.types import (
    DecidedBy,
    Entrant,
    Match,
    Outcome,
    Tournament,
    TournamentSettings,
)

if TYPE_CHECKING:
    from bot.ratings import Skill


class GameRepository(Protocol):
    """Durable storage of games, seats and event logs. Every method is one transaction."""

    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        host_id: int | None,
        variant: str,
        rules: Mapping[str, Any],
        turn_timer_seconds: int,
        ranked: bool = False,
        in_thread: bool = False,
        message_id: int | None = None,
        seats: Sequence[SeatSpec] = (),
        host_limit: int | None = None,
    ) -> int:
        """Open a lobby; with `host_limit`, HostLimitReached when the host already hosts that many open games
        (counted in the same transaction, so it holds across processes)."""
        ...

    async def set_seat(self, game_id: int, spec: SeatSpec) -> None: ...

    async def set_seats(self, game_id: int, specs: Sequence[SeatSpec]) -> None:
        """Replace every seat of a lobby by `specs`, in one transaction (balancing the teams)."""
        ...

    async def remove_seat(self, game_id: int, seat: str) -> None: ...

    async def set_message(self, game_id: int, message_id: int | None, *, in_thread: bool | None = None) -> None: ...

    async def start_game(
        self,
        game_id: int,
        *,
        first_team: str,
        throw_off: Sequence[Any],
        seed: int | None,
        snapshot_ppn: str,
        turn_deadline: float | None,
        rules: Mapping[str, Any] | None = None,
    ) -> None: ...

    async def append_events(
        self,
        game_id: int,
        first_seq: int,
        events: Sequence[NewEvent],
        *,
        snapshot_ppn: str | None = None,
        turn_deadline: float | Unchanged | None = UNCHANGED,
        timeouts: Mapping[str, int] | None = None,
    ) -> tuple[Event, ...]: ...

    async def finish_game(
        self,
        game_id: int,
        *,
        winner: str | None,
        scores: Mapping[str, int],
        end_reason: EndReason,
        kills: Mapping[str, int] | None = None,
        events: Sequence[NewEvent] = (),
        first_seq: int | None = None,
        snapshot_ppn: str | None = None,
    ) -> FinishReport: ...

    async def cancel_game(self, game_id: int, payload: Mapping[str, Any] | None = None) -> None: ...

    async def open_games(self) -> tuple[GameLog, ...]: ...

    async def game_log(self, game_id: int) -> GameLog: ...


class TournamentStore(Protocol):
    """Durable storage of tournaments: settings, entrants, rounds and results. Every method is one
    transaction; a write to a tournament in the wrong state raises TournamentStateError."""

    async def create_tournament(
        self, *, guild_id: int, channel_id: int, creator_id: int, settings: TournamentSettings
    ) -> int: ...

    async def join_tournament(self, tournament_id: int, user_id: int, display_name: str) -> Entrant:
        """Enter a player (numbered after the last one); AlreadyEntered when they are in already."""
        ...

    async def leave_tournament(self, tournament_id: int, user_id: int) -> None: ...

    async def start_tournament(self, tournament_id: int, *, entrants: Sequence[Entrant], rounds: int) -> None:
        """Open -> running, with every entrant's seed and rating."""
        ...

    async def add_round(self, tournament_id: int, round_no: int, matches: Sequence[Match], deadline: float) -> None:
        """The next round's matches (byes already decided) and its deadline; `round_no` must follow the last."""
        ...

    async def set_match_game(
        self, tournament_id: int, round_no: int, board: int, *, game_id: int, thread_id: int
    ) -> None: ...

    async def decide_match(
        self,
        tournament_id: int,
        round_no: int,
        board: int,
        *,
        outcome: Outcome,
        decided_by: DecidedBy,
        chance_a: float | None = None,
    ) -> bool:
        """Record a match's result; False (and nothing written) when it was decided already."""
        ...

    async def finish_tournament(self, tournament_id: int) -> None: ...

    async def cancel_tournament(self, tournament_id: int) -> None: ...

    async def set_tournament_message(self, tournament_id: int, message_id: int | None) -> None: ...

    async def tournament(self, tournament_id: int) -> Tournament:
        """A tournament with its entrants and matches; TournamentNotFound when there is none."""
        ...

    async def open_tournaments(self) -> tuple[Tournament, ...]:
        """Every open or running tournament (what start-up rebuilds)."""
        ...

    async def guild_tournaments(self, guild_id: int, limit: int = 25) -> tuple[Tournament, ...]:
        """A server's latest tournaments, newest first, finished ones included."""
        ...


class SeasonStore(Protocol):
    """Seasons of a server's ladders (the all-servers ladders have none). Every method is one transaction."""

    async def start_season(self, guild_id: int) -> Season:
        """Close the server's current season: archive its final leaderboards, reset its ratings; return it."""
        ...

    async def current_season(self, guild_id: int) -> int:
        """The season the server's ladders are in now (1 before any was closed)."""
        ...

    async def seasons(self, guild_id: int) -> tuple[Season, ...]:
        """The server's closed seasons, oldest first."""
        ...

    async def season_leaderboard(
        self, guild_id: int, season: int, ladder: str, page: int = 0, *, caller_id: int | None = None
    ) -> SeasonPage:
        """A page of a closed season's final leaderboard; SeasonNotFound for a season not closed."""
        ...


class Storage(GameRepository, TournamentStore, SeasonStore, Protocol):
    """Everything the bot stores. Open one with `bot.storage.open_storage(url)`; close it once."""

    @property
    def where(self) -> str:
        """Which database this is, for people: an absolute file path, or host/database (never a password)."""
        ...

    async def close(self) -> None: ...

    async def claim_shards(self, shards: Shards) -> None:
        """Make this process the one writer of the games and tournaments of servers on `shards`
        (bot.storage.shards), until `close` or the process's end: ShardsTaken when another live process holds
        one of them. From then on a write to a game or tournament of a server on another shard, or on one taken
        over, raises ShardNotHeld and writes nothing (checked in the write's own transaction). A store that
        never claimed writes any game."""
        ...

    # -- health
    async def integrity_check(self) -> str:
        """"ok", or the problems the database found in itself."""
        ...

    async def schema_version(self) -> int: ...

    async def counts(self) -> StoredCounts:
        """How many games and players the database holds (cheap enough for a start-up message)."""
        ...

    # -- games
    async def get_game(self, game_id: int) -> Game: ...

    # -- server and channel settings
    async def guild_settings(self, guild_id: int) -> GuildSettings: ...

    async def update_guild_settings(
        self,
        guild_id: int,
        *,
        default_variant: str | Unchanged | None = UNCHANGED,
        turn_timer_seconds: int | Unchanged | None = UNCHANGED,
        locale: str | Unchanged | None = UNCHANGED,
        fire: bool | Unchanged | None = UNCHANGED,
        scorpion: bool | Unchanged | None = UNCHANGED,
        eagle_returns: bool | Unchanged | None = UNCHANGED,
    ) -> GuildSettings:
        """Change the given settings (None resets one to the bot's default) and return them all."""
        ...

    async def set_channel_ranked(self, guild_id: int, channel_id: int, ranked: bool | None) -> None: ...

    async def channel_ranked(self, channel_id: int) -> bool | None: ...

    # -- ladders and players
    async def leaderboard(
        self, ladder: str, scope: int, page: int = 0, *, caller_id: int | None = None
    ) -> LeaderboardPage: ...

    async def standing(self, user_id: int, ladder: str, scope: int) -> Standing | None: ...

    async def skill(self, user_id: int, ladder: str, scope: int = GLOBAL_SCOPE) -> Skill | None: ...

    async def rating_history(
        self, user_id: int, ladder: str, scope: int = GLOBAL_SCOPE, limit: int = 200
    ) -> tuple[RatingPoint, ...]: ...

    async def profile(self, user_id: int, guild_id: int | None = None) -> Profile | None: ...

    async def game_history(
        self, user_id: int, limit: int = 10, *, before_game_id: int | None = None
    ) -> tuple[GameSummary, ...]: ...

    # -- privacy
    async def personal_data(self, user_id: int) -> PersonalData: ...

    async def forget_me(self, user_id: int) -> ForgetReport: ...
