"""What the tournament flow needs from outside the session layer, and the limits it keeps.

`TournamentRecords` keeps the tournaments; `MatchRooms` opens a room (a thread, in Discord) for each match;
`Adjudicator` is the hard AI's chance that team A wins a game still running when its round's time runs out.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.compute import ComputePool
from bot.limits import ADJUDICATION_LANE, lanes
from bot.seeds import ai_rng
from bot.sessions.state import GameState, Place
from bot.storage.shards import Shards
from bot.tournaments.results import TournamentUpdate
from bot.tournaments.types import DecidedBy, Entrant, Match, Outcome, Tournament, TournamentSettings

TournamentListener = Callable[[TournamentUpdate], Awaitable[None]]
# Team A's chance to win from a running game's position, by the hard AI (run off the event loop).
Adjudicator = Callable[[GameState], Awaitable[float]]

# A one-off decision that settles a match: worth the thinking time of this many of the AI's moves.
ADJUDICATION_MOVES = 3


class RoomUnavailable(Exception):
    """A match's room could not be opened now (the chat service refused or is down); the flow tries again."""


class TournamentRecords(Protocol):
    """Tournaments' settings, entrants, rounds and results (`bot.storage.sql.tournaments.TournamentStore` keeps
    them). Every method is one transaction; a write in the wrong state raises TournamentStateError."""

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

    async def open_tournaments(self, shards: Shards | None = None) -> tuple[Tournament, ...]:
        """Every open or running tournament of servers on `shards`, None: all (what start-up rebuilds)."""
        ...

    async def guild_tournaments(self, guild_id: int, limit: int = 25) -> tuple[Tournament, ...]:
        """A server's latest tournaments, newest first, finished ones included."""
        ...


class MatchRooms(Protocol):
    async def open_room(self, tournament: Tournament, match: Match) -> Place:
        """A new room for one match (a thread in the tournament's channel); RoomUnavailable when refused."""
        ...


@dataclass(frozen=True, slots=True)
class TournamentLimits:
    per_guild: int = 3  # open (not finished) tournaments a server may have at once
    per_organiser: int = 1  # open tournaments one member may have created
    per_player: int = 3  # open tournaments one member may have entered
    min_round_seconds: int = 10 * 60
    max_round_seconds: int = 7 * 86_400
    max_name: int = 60
    room_retry_seconds: float = 60.0  # a room that could not be opened is tried again this much later


DEFAULT_LIMITS = TournamentLimits()


def engine_adjudicator(budget_ms: float, compute: ComputePool | None = None) -> Adjudicator:
    """The hard AI's `win_probability`, seeded by the game and its event number (the same position always
    gets the same verdict), in the bot's compute workers (threads of this process when no pool is given)."""
    pool = compute or ComputePool(0, lanes=lanes())

    async def adjudicate(state: GameState) -> float:
        from puluc.ai import win_probability

        if state.position is None:
            raise ValueError(f"game {state.game_id} has no position to adjudicate")
        rng = ai_rng(state.seed or 0, state.seq)
        return await pool.run_in(ADJUDICATION_LANE.name, win_probability, state.position, rng, budget_ms)

    return adjudicate
