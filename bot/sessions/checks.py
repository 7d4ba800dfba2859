"""Who may do what, and where a newcomer sits: pure checks on a game state that raise `SessionError`s.

Shared by the session's actions; no locks, no storage, no discord.
"""

from __future__ import annotations

from dataclasses import replace

from bot.sessions.errors import (
    AlreadySeated,
    AlreadyStarted,
    GameOver,
    NotAPlayer,
    NotStarted,
    NotYourTurn,
    SeatPlayedByAI,
    TeamFull,
)
from bot.sessions.state import MAX_TIMEOUTS, GameState, Player, SeatState


def require_lobby(state: GameState) -> GameState:
    if state.status == "running":
        raise AlreadyStarted(f"game {state.game_id} has started")
    if state.status != "lobby":
        raise GameOver(f"game {state.game_id} is {state.status}")
    return state


def require_running(state: GameState) -> GameState:
    if state.status == "lobby":
        raise NotStarted(f"game {state.game_id} has not started")
    if state.status != "running":
        raise GameOver(f"game {state.game_id} is {state.status}")
    return state


def mover(state: GameState, user_id: int) -> SeatState:
    """The caller's seat when it is their turn (and not played by the AI); refuses otherwise."""
    if state.seat_of(user_id) is None:
        raise NotAPlayer(f"user {user_id} does not play in game {state.game_id}")
    seat = state.to_move
    if seat is None or seat.user_id != user_id:
        raise NotYourTurn(f"game {state.game_id}: {state.position and state.position.to_move} is to move")
    if seat.taken_over:
        raise SeatPlayedByAI(f"game {state.game_id}: the AI plays {seat.seat} now", limit=MAX_TIMEOUTS)
    return seat


def seat_for_newcomer(state: GameState, player: Player, team: str | None) -> str:
    seated = state.seat_of(player.user_id)
    if seated is not None:
        raise AlreadySeated(f"user {player.user_id} already sits in {seated.seat}", seat=seated.seat)
    return free_seat(state, team)


def free_seat(state: GameState, team: str | None) -> str:
    """The first free seat in turn order (of `team`, when given)."""
    free = [seat for seat in state.free_seats() if team is None or seat[0] == team]
    if not free:
        raise TeamFull(f"no free seat in team {team} of game {state.game_id}", team=team or "")
    return free[0]


def with_seat(state: GameState, seat: SeatState) -> GameState:
    order = state.rules.seats
    return replace(state, seats=tuple(sorted((*state.seats, seat), key=lambda s: order.index(s.seat))))
