"""A game's pages: live (with its stream), a lobby, or a finished game's replay, one step at a time, with its
advantage chart, its record and its GIF."""

from __future__ import annotations

import asyncio
import logging

import aiohttp_jinja2
from aiohttp import web

from bot.cogs.games.boards import board_texts, ended_off_the_board, seat_names
from bot.limits import WEB_LANE, WEB_LIVE_LANE, WEB_REPLAY_LANE
from bot.sessions import GameState
from bot.sessions.rebuild import CorruptGame
from bot.storage import GameNotFound
from bot.ui.links import Page
from bot.ui.pictures import draw_replay
from bot.web.boards import SvgBoard, chances, draw_svg
from bot.web.chart import advantage_chart
from bot.web.common import (
    CONTEXT,
    HUB,
    context,
    key_of,
    lang_of,
    missing,
    number,
    page,
    query_int,
    refused,
    topic_version,
    with_key,
)
from bot.web.context import WebContext
from bot.web.hub import Rendered, Topic
from bot.web.i18n import wt
from bot.web.live import stream
from bot.web.present import Step, describe, facts, steps, tail

__all__ = ["game_events", "game_fragment", "game_page", "record_json", "replay_gif", "step_json"]

log = logging.getLogger(__name__)

REPLAY_THEME = "dark"


async def visible_game(request: web.Request) -> GameState | web.Response:
    """The game the address names, if the request may see it; else the page that says why not."""
    game_id = number(request, "game")
    ctx = context(request)
    try:
        state = await ctx.game(game_id)
    except GameNotFound:
        return missing(request, "game")
    except CorruptGame:
        log.exception("game %d cannot be shown", game_id)
        return missing(request, "game")
    if not await ctx.may_see(Page("g", game_id), state.place.guild_id, key_of(request)):
        return refused(request)
    return state


async def game_fragment(app: web.Application, state: GameState, lang: str, *, live: bool = False) -> Rendered:
    """The live part of a game's page; `live` for the hub's refresh after a move, whose board is never refused."""
    ctx = app[CONTEXT]
    # The story's end, continued from what the last refresh told: a move costs its own few events, on the loop.
    key = (state.game_id, lang)
    story = tail(state, lang, ctx.tails.get(key))
    if story is not None:
        ctx.tails.put(key, story)
    found = facts(state, lang, story)
    svg = None
    if state.position is not None:
        last = story.last if story is not None else None
        headline = " ".join(line for line in (found.result, found.turn, found.throws) if line)
        board = SvgBoard(state.position, last, tuple(state.turn_throws) if state.status == "running" else (),
                         seat_names(state, lang), board_texts(lang), ctx.bar_ms,
                         describe(state.position, found.names, lang, headline), ended_off_the_board(state))
        svg = await ctx.compute.run_in((WEB_LIVE_LANE if live else WEB_LANE).name, draw_svg, board)
    env = aiohttp_jinja2.get_env(app)

    def w(message: str, **params: object) -> str:
        return wt(message, lang, **params)

    html = env.get_template("_game_live.html").render(f=found, svg=svg, w=w, lang=lang, links=ctx.links)
    return Rendered(topic_version(state), state.seq, html)


async def game_page(request: web.Request) -> web.StreamResponse:
    found = await visible_game(request)
    if isinstance(found, web.Response):
        return found
    state = found
    lang = lang_of(request)
    if state.status == "finished":
        return await replay_page(request, state, lang)
    hub = request.app[HUB]
    topic = Topic("game", state.game_id)
    fragment = hub.current(topic, lang)  # what its watchers were sent: drawn once for everyone who arrives
    if fragment is None or fragment.version != topic_version(state):
        fragment = await game_fragment(request.app, state, lang)
    hub.seed(topic, state)
    values = {
        "f": facts(state, lang, []),
        "fragment": fragment.html,
        "live": state.is_open,
        "events": with_key(request, f"/g/{state.game_id}/events", seq=state.seq),
        "watchers": hub.watching(topic) + 1,  # this visitor is about to watch too
    }
    return page(request, "game.html", values, lang=lang)


async def story_of(ctx: WebContext, state: GameState, lang: str) -> list[Step]:
    key = ("steps", state.game_id, lang)
    cached = ctx.pictures.get(key)
    if cached is None:
        cached = ctx.pictures.put(key, await ctx.once(key, lambda: asyncio.to_thread(steps, state, lang)))
    assert isinstance(cached, list)
    return cached


async def step_svg(ctx: WebContext, state: GameState, story: list[Step], number: int, lang: str) -> str:
    key = ("svg", state.game_id, number, lang)
    cached = ctx.pictures.get(key)
    if cached is None:
        step = story[number]
        names = seat_names(state, lang)
        last_step = number == len(story) - 1  # a game given up ends there: its header says so
        board = SvgBoard(step.position, step.last, (), names, board_texts(lang), ctx.bar_ms,
                         describe(step.position, names, lang, step.caption),
                         ended_off_the_board(state) if last_step else None)
        cached = ctx.pictures.put(key, await ctx.once(key, lambda: ctx.compute.run_in(WEB_LANE.name, draw_svg, board)))
    assert isinstance(cached, str)
    return cached


async def chart_of(ctx: WebContext, state: GameState, story: list[Step], lang: str) -> str | None:
    key = ("chart", state.game_id, lang)
    cached = ctx.pictures.get(key)
    if cached is None:
        points = [step for step in story if step.turn or step is story[-1]]
        positions = [step.position for step in points]
        values = await ctx.once(key, lambda: ctx.compute.run_in(WEB_LANE.name, chances, positions, ctx.bar_ms))
        cached = ctx.pictures.put(key, advantage_chart([(s.number, v) for s, v in zip(points, values, strict=True)],
                                                       len(story) - 1, lang) or "")
    assert isinstance(cached, str)
    return cached or None


async def replay_page(request: web.Request, state: GameState, lang: str) -> web.Response:
    ctx = context(request)
    story = await story_of(ctx, state, lang)
    last = len(story) - 1
    current = query_int(request, "step", last, 0, last)
    svg, chart = await asyncio.gather(step_svg(ctx, state, story, current, lang), chart_of(ctx, state, story, lang))
    game = f"/g/{state.game_id}"
    values = {
        "f": facts(state, lang, story),
        "svg": svg,
        "chart": chart,
        "step": current,
        "last": last,
        "caption": story[current].caption,
        "step_url": with_key(request, f"{game}/step/0").replace("/step/0", "/step/{n}", 1),
        "link": lambda n: with_key(request, game, step=n),
        "record_url": with_key(request, f"{game}/record.json"),
        "gif_url": with_key(request, f"{game}/replay.gif"),
        "form_action": game,
    }
    return page(request, "replay.html", values, lang=lang)


async def finished_game(request: web.Request) -> GameState | web.Response:
    """`visible_game`, for what only a finished game has (its steps, its GIF): 404 while it is open."""
    found = await visible_game(request)
    if isinstance(found, GameState) and found.status != "finished":
        raise web.HTTPNotFound
    return found


async def step_json(request: web.Request) -> web.StreamResponse:
    found = await finished_game(request)
    if isinstance(found, web.Response):
        return found
    ctx = context(request)
    lang = lang_of(request)
    story = await story_of(ctx, found, lang)
    text = request.match_info["step"]
    if not text.isdigit() or int(text) >= len(story):
        raise web.HTTPNotFound
    current = int(text)
    svg = await step_svg(ctx, found, story, current, lang)
    body = {"step": current, "last": len(story) - 1, "caption": story[current].caption, "svg": svg,
            "label": wt("replay.position", lang, step=current, last=len(story) - 1)}
    return web.json_response(body, headers={"Cache-Control": "private, max-age=3600"})


async def record_json(request: web.Request) -> web.StreamResponse:
    found = await visible_game(request)
    if isinstance(found, web.Response):
        return found
    if found.position is None:
        raise web.HTTPNotFound
    text = await asyncio.to_thread(found.game_record().to_json, 2)
    return web.Response(text=text, content_type="application/json", headers={
        "Content-Disposition": f'attachment; filename="puluc-game-{found.game_id}.json"',
        "Cache-Control": "private, max-age=3600" if found.status == "finished" else "no-store"})


async def replay_gif(request: web.Request) -> web.StreamResponse:
    found = await finished_game(request)
    if isinstance(found, web.Response):
        return found
    ctx = context(request)
    lang = lang_of(request)
    gif = ctx.gifs.get((found.game_id, lang))
    if gif is None:
        made = await ctx.once(("gif", found.game_id, lang), lambda: ctx.compute.run_in(
            WEB_REPLAY_LANE.name, draw_replay, found.game_record(), REPLAY_THEME, seat_names(found, lang),
            board_texts(lang)))
        gif = ctx.gifs.put((found.game_id, lang), made)
    return web.Response(body=gif, content_type="image/gif", headers={
        "Content-Disposition": f'attachment; filename="puluc-game-{found.game_id}.gif"',
        "Cache-Control": "private, max-age=86400"})


async def game_events(request: web.Request) -> web.StreamResponse:
    found = await visible_game(request)
    if isinstance(found, web.Response):
        return found
    since = query_int(request, "seq", -1, -1, 10**9)
    return await stream(request, Topic("game", found.game_id), since, found)
