"""Playing from the Activity: the same checks as a button (the seat to move only, a stale position refused,
two taps at once apply one move), the game message in the channel following, and the live board following a
button click."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from aiohttp import ClientResponse

from bot.services import services
from tests.helpers import ActivityPage as Page
from tests.helpers import accepted_challenge, game_message, logged_moves, move_ids, notation


def mover_and_other(page: Page, game_id: int) -> tuple[int, int]:
    state = services(page.world.env.bot).manager.get(game_id).state
    assert state.to_move is not None and state.to_move.user_id is not None
    mover = state.to_move.user_id
    other = page.world.bob.id if mover == page.world.alice.id else page.world.alice.id
    return mover, other


async def test_the_member_to_move_plays_a_move_and_the_game_message_follows(page: Page) -> None:
    world = page.world
    session = await accepted_challenge(world)
    mover, _ = mover_and_other(page, session.game_id)
    ticket = await page.ticket(mover)
    status, view = await page.call("GET", "game", ticket)
    assert status == 200 and view["moves"]
    before = game_message(world.games)
    assert {notation(custom_id) for custom_id in move_ids(before)} == {move["move"] for move in view["moves"]}
    chosen = view["moves"][-1]
    status, after = await page.call("POST", "move", ticket,
                                    json={"game_id": view["game_id"], "seq": view["seq"], "move": chosen["move"]})
    assert status == 200, after
    assert after["seq"] > view["seq"]
    assert (await logged_moves(world, session.game_id))[-1] == chosen["move"]
    await page.activity.settled()
    await world.env.settle()
    shown = game_message(world.games)
    assert shown.id == before.id, "the game message is edited in place, as after a button"
    assert all(f":{after['seq']}:" in custom_id for custom_id in move_ids(shown)), "its buttons: the new position"


async def test_a_member_not_to_move_is_refused_and_nothing_changes(page: Page) -> None:
    world = page.world
    session = await accepted_challenge(world)
    mover, other = mover_and_other(page, session.game_id)
    status, view = await page.call("GET", "game", await page.ticket(mover))
    move = {"game_id": view["game_id"], "seq": view["seq"], "move": view["moves"][0]["move"]}
    other_ticket = await page.ticket(other)
    status, body = await page.call("POST", "move", other_ticket, json=move)
    assert (status, body["error"]) == (409, "error.not_your_turn")
    assert body["message"] in ("It is not your turn.", "Ce n’est pas votre tour.")
    spectator = await page.ticket(world.carol.id)  # in the Activity, not in the game
    status, spectating = await page.call("GET", "game", spectator)
    assert spectating["you"] is None and spectating["moves"] == []
    status, body = await page.call("POST", "move", spectator, json=move)
    assert (status, body["error"]) == (409, "error.not_a_player")
    assert body["message"] == "Ви не граєте в цій грі.", "carol's Discord speaks Ukrainian"
    assert await logged_moves(world, session.game_id) == []
    assert services(world.env.bot).manager.get(session.game_id).state.seq == view["seq"]


async def test_a_move_for_a_position_that_changed_is_refused_as_stale(page: Page) -> None:
    world = page.world
    session = await accepted_challenge(world)
    mover, _ = mover_and_other(page, session.game_id)
    ticket = await page.ticket(mover)
    _, view = await page.call("GET", "game", ticket)
    status, body = await page.call("POST", "move", ticket, json={"game_id": view["game_id"], "seq": view["seq"] - 1,
                                                                 "move": view["moves"][0]["move"]})
    assert (status, body["error"]) == (409, "activity.error.stale")
    assert await logged_moves(world, session.game_id) == []


async def test_two_taps_at_once_play_one_move(page: Page) -> None:
    world = page.world
    session = await accepted_challenge(world)
    mover, _ = mover_and_other(page, session.game_id)
    ticket = await page.ticket(mover)
    _, view = await page.call("GET", "game", ticket)
    move = {"game_id": view["game_id"], "seq": view["seq"], "move": view["moves"][0]["move"]}
    answers = await asyncio.gather(page.call("POST", "move", ticket, json=move),
                                   page.call("POST", "move", ticket, json=move))
    assert sorted(status for status, _ in answers) == [200, 409]
    assert [body["error"] for status, body in answers if status == 409] == ["activity.error.stale"]
    assert await logged_moves(world, session.game_id) == [move["move"]]


async def test_a_move_for_another_game_or_a_garbled_one_is_refused(page: Page) -> None:
    world = page.world
    session = await accepted_challenge(world)
    mover, _ = mover_and_other(page, session.game_id)
    ticket = await page.ticket(mover)
    _, view = await page.call("GET", "game", ticket)
    status, body = await page.call("POST", "move", ticket, json={"game_id": str(session.game_id + 1),
                                                                 "seq": view["seq"], "move": "1:H"})
    assert (status, body["error"]) == (409, "activity.error.not_this_game")
    for garbled in ({"game_id": session.game_id, "seq": view["seq"], "move": "1:H"},
                    {"game_id": view["game_id"], "seq": "7", "move": "1:H"},
                    {"game_id": view["game_id"], "seq": view["seq"], "move": ""}):
        status, body = await page.call("POST", "move", ticket, json=garbled)
        assert (status, body["error"]) == (400, "activity.error.bad_request"), garbled
    status, body = await page.call("POST", "move", ticket, json={"game_id": view["game_id"], "seq": view["seq"],
                                                                 "move": "5:9"})
    assert (status, body["error"]) == (409, "error.illegal_move")
    assert await logged_moves(world, session.game_id) == []


async def next_game_event(response: ClientResponse) -> dict[str, Any]:
    """The next `game` event of a live stream (heartbeats skipped)."""
    name, data = "message", ""
    while True:
        line = (await asyncio.wait_for(response.content.readline(), 30)).decode().rstrip("\n")
        if line.startswith("event: "):
            name = line[7:]
        elif line.startswith("data: "):
            data = line[6:]
        elif line == "" and data:
            if name == "game":
                found: dict[str, Any] = json.loads(data)
                return found
            name, data = "message", ""


async def test_a_button_click_reaches_the_live_board(page: Page) -> None:
    world = page.world
    session = await accepted_challenge(world)
    ticket = await page.ticket(world.carol.id)  # a spectator
    response = await page.client.get("/activity/api/live", headers={"Authorization": f"Bearer {ticket}"})
    assert response.status == 200 and response.headers["Content-Type"].startswith("text/event-stream")
    first = await next_game_event(response)
    assert first["seq"] == session.state.seq and first["svg"].endswith(f'data-seq="{first["seq"]}"></svg>')
    board = game_message(world.games)
    to_move = session.state.to_move
    assert to_move is not None and to_move.user_id is not None
    mover = world.member(to_move.user_id)
    played = move_ids(board)[0]
    await mover.click(board, custom_id=played)
    followed = await next_game_event(response)
    assert followed["seq"] > first["seq"]
    assert followed["narration"] and followed["status"] == "running"
    response.close()
