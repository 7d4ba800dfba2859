"""Discord failing while a move is shown: the move is saved first, so the player never hears an error, and the
game message catches up with the true position within a bounded (simulated) time.

SimCord answers chosen REST calls with 503, 500 or 429, once or for good (`env.inject_error`), on each route
the bot uses to show a move: the clicking player's interaction edit, the channel message edit, the channel
send (a fresh game message) and follow-ups (the mover's note). Time is the simulated clock: the bot's retry
pauses pass only when the test advances it.
"""

from __future__ import annotations

import asyncio
import fnmatch
import random
from typing import Any

import aiohttp
import discord
import pytest
import simcord
import simcord.http.router as sim_router
from simcord.backend.errors import BackendError

from bot.services import services
from bot.sessions import GameSession, GameState
from tests.helpers import (
    World,
    accepted_challenge,
    custom_ids,
    game_message,
    logged_moves,
    mentioned,
    move_ids,
    notation,
    said,
)

ROUTES = {
    "interaction edit": ("PATCH", "/webhooks/*/messages/@original"),
    "message edit": ("PATCH", "/channels/*/messages/*"),
    "channel send": ("POST", "/channels/*/messages"),
    "follow-up": ("POST", "/webhooks/*/*"),
}
# Longer than every retry of one show together (the bot's pauses are 0.5 + 1 + 2 + 4 s per call).
BOUND_SECONDS = 60
FRESH_AFTER = 8  # bot.cogs.games.presenter.FRESH_AFTER: more newer messages than this and the game is reposted


@pytest.fixture(autouse=True)
def simulated_pauses(world: World, simcord_env: simcord.Env) -> None:
    """The bot's retry pauses run on SimCord's clock: they pass when the test advances time, never by
    waiting for real."""

    async def pause(seconds: float) -> None:
        await simcord_env.external_wait(asyncio.sleep(seconds), reason="the bot's pause before a retry")

    services(simcord_env.bot).presenter.publisher.sleep = pause


def turn_of(custom_id: str) -> int:
    """The game event a button was made for: `puluc:<kind>:<game>:<turn>:<arg>`."""
    return int(custom_id.split(":")[3])


def assert_shows(message: discord.Message, state: GameState) -> None:
    """The message is the game as it stands: its buttons are for the current event and the current mover's
    legal moves, and it names that mover."""
    mover = state.to_move
    assert mover is not None and mover.user_id is not None
    turns = {turn_of(c) for c in custom_ids(message) if c.startswith(("puluc:move:", "puluc:pick:", "puluc:resign:"))}
    assert turns == {state.seq}
    assert {notation(c) for c in move_ids(message)} == {o.notation for o in state.legal_options()}
    assert mentioned(message) == [mover.user_id]


def a_move(session: GameSession, rng: random.Random) -> tuple[int, str]:
    state = session.state
    mover = state.to_move
    assert mover is not None and mover.user_id is not None
    return mover.user_id, rng.choice(state.legal_options()).notation


async def play_a_move(world: World, session: GameSession, rng: random.Random, *, by_click: bool = True
                      ) -> tuple[discord.Message, str, simcord.InteractionResult]:
    """The player to move plays a random legal move, with its button on the game message or with
    `/puluc move`: (the game message as it was, the move, the interaction)."""
    before = game_message(world.games)
    user_id, move = a_move(session, rng)
    if by_click:
        (button,) = [c for c in move_ids(before) if notation(c) == move]
        return before, move, await world.member(user_id).click(before, custom_id=button)
    return before, move, await world.member(user_id).slash(world.games, "puluc move", move=move)


def discord_cannot_show_anything(env: simcord.Env) -> None:
    """Every route that could show a move answers 503 until the test clears the faults."""
    for route in ("interaction edit", "message edit", "channel send"):
        env.inject_error(*ROUTES[route], status=503, times=None)


async def chatter(world: World, count: int) -> None:
    for i in range(count):
        await world.carol.send(world.games, f"chat {i}")


@pytest.mark.parametrize("times", [1, None], ids=["once", "repeatedly"])
@pytest.mark.parametrize("status", [503, 500, 429])
@pytest.mark.parametrize("route", list(ROUTES))
async def test_a_saved_move_reaches_the_channel_whatever_discord_answers(
    world: World, simcord_env: simcord.Env, route: str, status: int, times: int | None
) -> None:
    session = await accepted_challenge(world)
    rng = random.Random(status)
    if route == "channel send":
        await chatter(world, FRESH_AFTER + 1)  # the game message scrolled away: the bot posts a fresh one
    simcord_env.inject_error(*ROUTES[route], status=status, times=times)

    _, move, result = await play_a_move(world, session, rng, by_click=route == "interaction edit")
    played = [move]
    await simcord_env.advance_time(BOUND_SECONDS)
    simcord_env.backend.faults.clear()

    assert_shows(game_message(world.games), session.state)
    assert await logged_moves(world, session.game_id) == played
    told = said(result)
    assert "wrong" not in told and "not played" not in told
    if route != "interaction edit" and not (route == "follow-up" and times is None):
        assert "Played" in told  # the command's answer got through, on a retry if need be
    _, move, _ = await play_a_move(world, session, rng)  # the game goes on from the message everyone sees
    played.append(move)
    assert_shows(game_message(world.games), session.state)
    assert await logged_moves(world, session.game_id) == played


async def test_a_click_whose_message_cannot_be_edited_posts_a_fresh_one_and_says_the_move_counted(
    world: World, simcord_env: simcord.Env
) -> None:
    session = await accepted_challenge(world)
    before = game_message(world.games)
    (mover,) = mentioned(before)
    for method, path in (ROUTES["interaction edit"], ROUTES["message edit"]):
        simcord_env.inject_error(method, path, status=503, times=None)

    clicked = await world.member(mover).click(before, custom_id=move_ids(before)[0])
    await simcord_env.advance_time(BOUND_SECONDS)
    simcord_env.backend.faults.clear()

    fresh = game_message(world.games)
    assert fresh.id != before.id
    assert_shows(fresh, session.state)
    assert "Played" in said(clicked)
    stale = await world.member(mentioned(fresh)[0]).click(before, custom_id=move_ids(before)[0])
    assert "out of date" in said(stale)  # the old message could not be stripped; its buttons refuse
    assert len(await logged_moves(world, session.game_id)) == 1


async def test_a_deleted_game_message_is_posted_again(world: World, simcord_env: simcord.Env) -> None:
    session = await accepted_challenge(world)
    gone = game_message(world.games)
    simcord_env.backend.delete_message(world.games.id, gone.id)  # a moderator cleaned the channel

    user_id, move = a_move(session, random.Random(1))
    result = await world.member(user_id).slash(world.games, "puluc move", move=move)

    fresh = game_message(world.games)
    assert fresh.id != gone.id
    assert_shows(fresh, session.state)
    assert "Played" in said(result)
    assert session.state.message_id == fresh.id


class Transport:
    """Failures SimCord cannot inject: a call that gets no answer at all (a timeout, as aiohttp raises it),
    and a call Discord carried out but whose answer was lost (a 503 after the message was created)."""

    def __init__(self) -> None:
        self.timeouts: list[tuple[str, str]] = []
        self.lost_answers: list[tuple[str, str]] = []

    def take(self, pending: list[tuple[str, str]], method: str, path: str) -> bool:
        for wanted in pending:
            if wanted[0] == method and fnmatch.fnmatch(path, wanted[1]):
                pending.remove(wanted)
                return True
        return False


@pytest.fixture
def transport(monkeypatch: pytest.MonkeyPatch) -> Transport:
    flaky = Transport()
    real = sim_router.dispatch

    def dispatch(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
        if flaky.take(flaky.timeouts, method, path):
            raise aiohttp.ServerTimeoutError(f"timeout on {method} {path}")
        answer = real(backend, method, path, **kwargs)
        if flaky.take(flaky.lost_answers, method, path):
            raise BackendError(503, 0, "Service Unavailable (the answer was lost)")
        return answer

    monkeypatch.setattr(sim_router, "dispatch", dispatch)
    return flaky


@pytest.mark.parametrize("route", ["interaction edit", "message edit"])
async def test_a_timeout_while_showing_a_move_is_retried(
    world: World, simcord_env: simcord.Env, transport: Transport, route: str
) -> None:
    session = await accepted_challenge(world)
    transport.timeouts.append(ROUTES[route])

    before, move, _ = await play_a_move(world, session, random.Random(2), by_click=route == "interaction edit")
    await simcord_env.advance_time(BOUND_SECONDS)

    assert not transport.timeouts  # the timeout happened
    shown = game_message(world.games)
    assert shown.id == before.id
    assert_shows(shown, session.state)
    assert await logged_moves(world, session.game_id) == [move]


async def test_a_game_discord_would_not_show_is_shown_once_discord_is_back(
    world: World, simcord_env: simcord.Env
) -> None:
    session = await accepted_challenge(world)
    discord_cannot_show_anything(simcord_env)

    before, move, clicked = await play_a_move(world, session, random.Random(3))
    await simcord_env.advance_time(BOUND_SECONDS)
    assert game_message(world.games).id == before.id
    assert turn_of(move_ids(game_message(world.games))[0]) < session.state.seq  # still the old position

    simcord_env.backend.faults.clear()  # Discord is back
    await simcord_env.advance_time(BOUND_SECONDS * 6)

    assert_shows(game_message(world.games), session.state)
    assert "wrong" not in said(clicked)
    assert await logged_moves(world, session.game_id) == [move]


async def test_a_fresh_message_posted_twice_leaves_one_with_live_buttons(
    world: World, simcord_env: simcord.Env, transport: Transport
) -> None:
    session = await accepted_challenge(world)
    await chatter(world, FRESH_AFTER + 1)
    transport.lost_answers.append(ROUTES["channel send"])  # posted, but the bot hears 503 and posts again

    _, move, _ = await play_a_move(world, session, random.Random(4), by_click=False)
    await simcord_env.advance_time(BOUND_SECONDS)

    with_buttons = [m for m in world.games.history() if move_ids(m)]
    assert len(with_buttons) == 1 and with_buttons[0].id == session.state.message_id
    assert_shows(with_buttons[0], session.state)
    assert await logged_moves(world, session.game_id) == [move]


async def test_a_click_refused_on_a_message_left_behind_shows_the_game_at_once(
    world: World, simcord_env: simcord.Env
) -> None:
    session = await accepted_challenge(world)
    discord_cannot_show_anything(simcord_env)
    before, move, _ = await play_a_move(world, session, random.Random(5))
    await simcord_env.advance_time(BOUND_SECONDS)  # every retry failed; the next try is minutes away
    simcord_env.backend.faults.clear()
    behind = game_message(world.games)
    assert behind.id == before.id and move_ids(behind) == move_ids(before)

    (button,) = [c for c in move_ids(behind) if notation(c) == move]
    refused = await world.member(mentioned(before)[0]).click(behind, custom_id=button)  # the old button again

    assert "out of date" in said(refused)
    assert_shows(game_message(world.games), session.state)  # shown at once, not after the next retry
    assert await logged_moves(world, session.game_id) == [move]
