"""What the tournament flow needs from outside the session layer, and the limits it keeps.

`MatchRooms` opens a room (a thread, in Discord) for each match; `Adjudicator` is the hard AI's chance that
team A wins a game still running when its round's time runs out. The bot implements both; tests give
stand-ins. This module must never import discord.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

from bot.compute import ComputePool
from bot.seeds import ai_rng
from bot.sessions.state import GameState, Place
from bot.tournaments.results import TournamentUpdate
from bot.tournaments.types import Match, Tournament

TournamentListener = Callable[[TournamentUpdate], Awaitable[None]]
# Team A's chance to win from a running game's position, by the hard AI (run off the event loop).
Adjudicator = Callable[[GameState], Awaitable[float]]

# A one-off decision that settles a match: worth the thinking time of this many of the AI's moves.
ADJUDICATION_MOVES = 3


class RoomUnavailable(Exception):
    """A match's room could not be opened now (the chat service refused or is down); the flow tries again."""


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
    pool = compute or ComputePool(0)

    async def adjudicate(state: GameState) -> float:
        from puluc.ai import win_probability

        if state.position is None:
            raise ValueError(f"game {state.game_id} has no position to adjudicate")
        rng = ai_rng(state.seed or 0, state.seq)
        return await pool.run(win_probability, state.position, rng, budget_ms)

    return adjudicate
