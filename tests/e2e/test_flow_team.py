"""Flow 2: a 2 v 2 traditional game through the lobby: Join A / Join B / Start, two throws a turn, and a
player can never land on a teammate's stack (no button for it, and typing it is refused)."""

from __future__ import annotations

import random

import pytest

from bot.services import services
from puluc import Position
from tests.helpers import World, custom_ids, game_message, mentioned, move_ids, notation, said

pytestmark = pytest.mark.worker_processes  # a whole flow: the bot as deployed, with its worker processes


async def test_two_v_two_traditional_lobby_to_play(world: World) -> None:
    opened = await world.alice.slash(world.games, "puluc new", team_size=2, setup="traditional")
    lobby = opened.response
    assert lobby is not None
    assert not custom_ids(lobby, "puluc:start:")  # Start stays disabled until every seat is taken
    await world.bob.click(lobby.message, custom_id=custom_ids(lobby, "puluc:join:")[-1])  # Join B
    lobby_now = game_message(world.games)
    join_a = next(c for c in custom_ids(lobby_now, "puluc:join:") if c.endswith(":A"))
    await world.carol.click(lobby_now, custom_id=join_a)
    lobby_now = game_message(world.games)
    assert not [c for c in custom_ids(lobby_now, "puluc:join:") if c.endswith(":A")]  # team A is full
    refused = await world.bob.click(lobby_now, custom_id=custom_ids(lobby_now, "puluc:join:")[0])
    assert said(refused)  # bob already sits in B1
    await world.dave.click(lobby_now, custom_id=custom_ids(lobby_now, "puluc:join:")[0])
    lobby_now = game_message(world.games)
    early = await world.bob.click(lobby_now, custom_id=custom_ids(lobby_now, "puluc:start:")[0])
    assert "host" in said(early)
    await world.alice.click(lobby_now, custom_id=custom_ids(lobby_now, "puluc:start:")[0])

    session = services(world.env.bot).manager.in_channel(world.games.id)
    assert session is not None
    order = [s.user_id for s in session.state.seats]
    assert order == [world.alice.id, world.bob.id, world.carol.id, world.dave.id]  # A1 B1 A2 B2

    rng = random.Random(3)
    second_throw_seen = blocked_seen = False
    for _ in range(600):
        board = game_message(world.games)
        moves = move_ids(board)
        if not moves or (second_throw_seen and blocked_seen):
            break
        (mover_id,) = mentioned(board)
        position = session.state.position
        assert position is not None and len(session.state.turn_throws) == 2  # two throws every turn
        for move in teammate_landing_moves(position):
            blocked_seen = True
            assert move not in [notation(m) for m in moves]
            typed = await world.member(mover_id).slash(world.games, "puluc move", move=move)
            assert "not a legal move" in said(typed)
        pending_before = len(position.pending)
        await world.member(mover_id).click(board, custom_id=rng.choice(moves))
        after = game_message(world.games)
        still_pending = session.state.position is not None and session.state.position.pending
        if pending_before == 2 and move_ids(after) and still_pending and mentioned(after) == [mover_id]:
            second_throw_seen = True  # the same player moves again with the second throw
    assert second_throw_seen, "no player ever used a second throw in their turn"
    assert blocked_seen, "no position offered a landing on a teammate"


def teammate_landing_moves(position: object) -> list[str]:
    """Moves of the player to move that would stop on a teammate's stack (Bell: A runs up, B runs down)."""
    assert isinstance(position, Position)
    seat = position.to_move
    team = seat[0]
    length = position.road_length
    found = []
    for value in set(position.pending):
        for cell, stack in position.stacks():
            if stack.owner != seat:
                continue
            dest = cell + value if team == "A" else cell - value
            target = position.stack_at(dest) if 1 <= dest <= length else None
            if target is not None and target.team == team and target.owner != seat:
                found.append(f"{value}:{cell}")
    return found
