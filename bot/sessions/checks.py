"""Who may do what, and where a newcomer sits: pure checks on a game state that raise `SessionError`s.

Shared by the session's actions; no locks, no storage, no discord.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bot.sessions.errors import (
    AlreadySeated,
    AlreadyStarted,
    GameOver,
    HostOnly,
    NotAPlayer,
    NotStarted,
    NotYourTurn,
    SeatPlayedByAI,
    SeatsEmpty,
    StaleAction,
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


def require_starter(state: GameState, user_id: int) -> None:
    """The host starts a lobby; a tournament match has no host, so either of its players starts it."""
    if state.tournament_id is not None:
        if state.seat_of(user_id) is None:
            raise NotAPlayer(f"user {user_id} does not play match game {state.game_id}")
    elif user_id != state.host_id:
        raise HostOnly(f"user {user_id} may not start game {state.game_id}")


def rearranged(state: GameState, user_id: int, team_a: Sequence[str], team_b: Sequence[str]) -> GameState:
    """The full lobby with the players of the seats `team_a` in A1, A2, ... and those of `team_b` in B1, B2, ...
    (only the host may; a lobby that changed since the split was computed refuses it as stale)."""
    if user_id != state.host_id:
        raise HostOnly(f"user {user_id} is not the host of game {state.game_id}")
    if state.free_seats():
        raise SeatsEmpty(f"game {state.game_id} has empty seats {state.free_seats()}")
    now = {seat.seat: seat for seat in state.seats}
    if sorted([*team_a, *team_b]) != sorted(now) or len(team_a) != len(team_b):
        raise StaleAction(f"game {state.game_id}: {team_a} v {team_b} is not its seats {sorted(now)}")
    seats = [replace(now[old], seat=f"{team}{place}")
             for team, names in (("A", team_a), ("B", team_b)) for place, old in enumerate(names, start=1)]
    order = state.rules.seats
    return replace(state, seats=tuple(sorted(seats, key=lambda s: order.index(s.seat))))
