"""The pages: each handler reads what its address names (through `WebContext`), checks who may see it, and
fills a template. Addresses are numbers and a few words; anything else is 404 before the database is asked.

    /                               what this is
    /g/<game>                       a live game (updating by itself), a lobby, or a finished game's replay
    /g/<game>/events                the live game's Server-Sent Events
    /g/<game>/step/<n>              one step of a finished game (JSON, for the stepper)
    /g/<game>/record.json           the game's record;  /g/<game>/replay.gif  its animated replay
    /leaderboard                    the all-servers ladders (global names only)
    /s/<server>/leaderboard         a server's ladders, current or a closed season
    /p/<user>                       a player's profile (all servers; global names only)
    /t/<tournament>                 a tournament's standings or bracket (updating while it runs)
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Mapping
from typing import Any

import aiohttp_jinja2
from aiohttp import web

from bot.cogs.games.boards import board_texts, seat_names
from bot.cogs.games.texts import variant_title
from bot.ratings import PAGE_SIZE
from bot.ratings.types import LADDERS
from bot.sessions import GameState
from bot.sessions.rebuild import CorruptGame
from bot.storage import GameNotFound
from bot.storage.errors import SeasonNotFound, TournamentNotFound
from bot.storage.types import GLOBAL_SCOPE
from bot.tournaments.elimination import advancer
from bot.tournaments.standings import bracket_places, seeds, table
from bot.tournaments.types import Tournament
from bot.ui.links import KEY_PARAMETER, Page
from bot.ui.pictures import draw_replay
from bot.web.boards import SvgBoard, chances, draw_svg
from bot.web.chart import advantage_chart
from bot.web.context import WebContext
from bot.web.hub import Hub, Rendered, Topic
from bot.web.i18n import LANGUAGES, negotiate, wt
from bot.web.present import Step, describe, facts, steps

__all__ = ["CONTEXT", "HUB", "add_routes", "render_topic", "topic_version"]

log = logging.getLogger(__name__)

CONTEXT: web.AppKey[WebContext] = web.AppKey("puluc_web_context", WebContext)
HUB: web.AppKey[Hub] = web.AppKey("puluc_web_hub", Hub)
MAX_ID = 2**63 - 1
REPLAY_THEME = "dark"


# -- helpers ---------------------------------------------------------------------------------------------


def lang_of(request: web.Request) -> str:
    return negotiate(request.headers.get("Accept-Language"), request.query.get("lang"))


def number(request: web.Request, name: str) -> int:
    text = request.match_info[name]
    if not text.isdigit() or len(text) > 19 or not 0 < int(text) <= MAX_ID:
        raise web.HTTPNotFound()
    return int(text)


def query_int(request: web.Request, name: str, default: int, low: int, high: int) -> int:
    text = request.query.get(name)
    if text is None or not text.lstrip("-").isdigit() or len(text) > 9:
        return default
    return min(max(int(text), low), high)


def key_of(request: web.Request) -> str | None:
    key = request.query.get(KEY_PARAMETER)
    return key if key is not None and len(key) <= 64 else None


def context(request: web.Request) -> WebContext:
    return request.app[CONTEXT]


def page(request: web.Request, template: str, values: Mapping[str, Any], *, status: int = 200,
         lang: str | None = None) -> web.Response:
    lang = lang or lang_of(request)
    key = key_of(request)

    def w(message: str, **params: object) -> str:
        return wt(message, lang, **params)

    base = {"lang": lang, "w": w, "key": key, "languages": LANGUAGES, "path": request.path}
    response = aiohttp_jinja2.render_template(template, request, {**base, **values}, status=status)
    response.headers["Cache-Control"] = "no-store" if key is not None else "no-cache"
    response.headers["Content-Language"] = lang
    return response


def refused(request: web.Request) -> web.Response:
    lang = lang_of(request)
    return page(request, "message.html", {"title": wt("private.title", lang), "text": wt("private.text", lang)},
                status=403, lang=lang)


def missing(request: web.Request, what: str) -> web.Response:
    lang = lang_of(request)
    return page(request, "message.html", {"title": wt("missing.title", lang), "text": wt(f"missing.{what}", lang)},
                status=404, lang=lang)


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


def with_key(request: web.Request, path: str, **query: str | int) -> str:
    """`path` for a link on this page: the page's own key goes along (it opens the same game's parts)."""
    key = key_of(request)
    params = {**{k: str(v) for k, v in query.items()}, **({KEY_PARAMETER: key} if key else {})}
    if not params:
        return path
    from urllib.parse import urlencode

    return f"{path}?{urlencode(params)}"


# -- the live fragment, shared by the page and the hub ---------------------------------------------------


def topic_version(state: Any) -> object:
    """What tells two states of a topic apart: a game's event number, status and seats; a whole tournament."""
    if isinstance(state, GameState):
        return (state.seq, state.status, tuple((s.seat, s.name, s.ai_level, s.taken_over) for s in state.seats))
    return state


async def game_fragment(app: web.Application, state: GameState, lang: str) -> Rendered:
    ctx = app[CONTEXT]
    story = await asyncio.to_thread(steps, state, lang)
    found = facts(state, lang, story)
    svg = None
    if state.position is not None:
        last = story[-1].last if story else None
        headline = " ".join(line for line in (found.result, found.turn, found.throws) if line)
        board = SvgBoard(state.position, last, tuple(state.turn_throws) if state.status == "running" else (),
                         seat_names(state, lang), board_texts(lang), ctx.bar_ms,
                         describe(state.position, found.names, lang, headline))
        svg = await ctx.compute.run(draw_svg, board)
    env = aiohttp_jinja2.get_env(app)

    def w(message: str, **params: object) -> str:
        return wt(message, lang, **params)

    html = env.get_template("_game_live.html").render(f=found, svg=svg, w=w, lang=lang, links=ctx.links)
    return Rendered(topic_version(state), state.seq, html)


async def tournament_fragment(app: web.Application, tournament: Tournament, lang: str) -> Rendered:
    ctx = app[CONTEXT]
    env = aiohttp_jinja2.get_env(app)

    def w(message: str, **params: object) -> str:
        return wt(message, lang, **params)

    html = env.get_template("_tournament_live.html").render(**tournament_values(ctx, tournament, lang), w=w,
                                                            lang=lang)
    return Rendered(topic_version(tournament), 0, html)


def render_topic(app: web.Application) -> Any:
    async def render(topic: Topic, state: Any, lang: str) -> Rendered:
        if topic.kind == "game":
            return await game_fragment(app, state, lang)
        return await tournament_fragment(app, state, lang)

    return render


# -- pages -----------------------------------------------------------------------------------------------


async def index(request: web.Request) -> web.Response:
    return page(request, "index.html", {})


async def game_page(request: web.Request) -> web.StreamResponse:
    found = await visible_game(request)
    if isinstance(found, web.Response):
        return found
    state = found
    lang = lang_of(request)
    if state.status == "finished":
        return await replay_page(request, state, lang)
    fragment = await game_fragment(request.app, state, lang)
    request.app[HUB].seed(Topic("game", state.game_id), state)
    values = {
        "f": facts(state, lang, []),
        "fragment": fragment.html,
        "live": state.is_open,
        "events": with_key(request, f"/g/{state.game_id}/events", seq=state.seq),
        "watchers": request.app[HUB].watching(Topic("game", state.game_id)),
    }
    return page(request, "game.html", values, lang=lang)


async def story_of(ctx: WebContext, state: GameState, lang: str) -> list[Step]:
    cached = ctx.pictures.get(("steps", state.game_id, lang))
    if cached is None:
        cached = ctx.pictures.put(("steps", state.game_id, lang), await asyncio.to_thread(steps, state, lang))
    assert isinstance(cached, list)
    return cached


async def step_svg(ctx: WebContext, state: GameState, story: list[Step], number: int, lang: str) -> str:
    key = ("svg", state.game_id, number, lang)
    cached = ctx.pictures.get(key)
    if cached is None:
        step = story[number]
        names = seat_names(state, lang)
        board = SvgBoard(step.position, step.last, (), names, board_texts(lang), ctx.bar_ms,
                         describe(step.position, names, lang, step.caption))
        cached = ctx.pictures.put(key, await ctx.compute.run(draw_svg, board))
    assert isinstance(cached, str)
    return cached


async def chart_of(ctx: WebContext, state: GameState, story: list[Step], lang: str) -> str | None:
    key = ("chart", state.game_id, lang)
    cached = ctx.pictures.get(key)
    if cached is None:
        points = [step for step in story if step.turn or step is story[-1]]
        values = await ctx.compute.run(chances, [step.position for step in points], ctx.bar_ms)
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


async def step_json(request: web.Request) -> web.StreamResponse:
    found = await visible_game(request)
    if isinstance(found, web.Response):
        return found
    if found.status != "finished":
        raise web.HTTPNotFound()
    ctx = context(request)
    lang = lang_of(request)
    story = await story_of(ctx, found, lang)
    text = request.match_info["step"]
    if not text.isdigit() or int(text) >= len(story):
        raise web.HTTPNotFound()
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
        raise web.HTTPNotFound()
    text = await asyncio.to_thread(found.game_record().to_json, 2)
    return web.Response(text=text, content_type="application/json", headers={
        "Content-Disposition": f'attachment; filename="puluc-game-{found.game_id}.json"',
        "Cache-Control": "private, max-age=3600" if found.status == "finished" else "no-store"})


async def replay_gif(request: web.Request) -> web.StreamResponse:
    found = await visible_game(request)
    if isinstance(found, web.Response):
        return found
    if found.status != "finished":
        raise web.HTTPNotFound()
    ctx = context(request)
    lang = lang_of(request)
    key = ("gif", found.game_id, lang)
    gif = ctx.pictures.get(key)
    if gif is None:
        gif = ctx.pictures.put(key, await ctx.compute.run(
            draw_replay, found.game_record(), REPLAY_THEME, seat_names(found, lang), board_texts(lang)))
    assert isinstance(gif, bytes)
    return web.Response(body=gif, content_type="image/gif", headers={
        "Content-Disposition": f'attachment; filename="puluc-game-{found.game_id}.gif"',
        "Cache-Control": "private, max-age=86400"})


# -- leaderboards and profiles ----------------------------------------------------------------------------


def _ladder(request: web.Request) -> str:
    ladder = request.query.get("ladder", "duel")
    return ladder if ladder in LADDERS else "duel"


async def global_leaderboard(request: web.Request) -> web.Response:
    return await leaderboard(request, None)


async def server_leaderboard(request: web.Request) -> web.Response:
    guild_id = number(request, "guild")
    if not await context(request).may_see(Page("s", guild_id), guild_id, key_of(request)):
        return refused(request)
    return await leaderboard(request, guild_id)


async def leaderboard(request: web.Request, guild_id: int | None) -> web.Response:
    ctx = context(request)
    lang = lang_of(request)
    ladder = _ladder(request)
    page_no = query_int(request, "page", 0, 0, 10_000)
    scope = GLOBAL_SCOPE if guild_id is None else guild_id
    closed = () if guild_id is None else await ctx.storage.seasons.seasons(guild_id)
    season = query_int(request, "season", 0, 0, 1_000_000) if guild_id is not None else 0
    rows: list[dict[str, Any]] = []
    has_previous = has_next = False
    if season and any(s.number == season for s in closed):
        assert guild_id is not None
        try:
            archived = await ctx.storage.seasons.season_leaderboard(guild_id, season, ladder, page_no)
        except SeasonNotFound:
            return missing(request, "season")
        has_previous, has_next = archived.has_previous, archived.has_next
        rows = [{"rank": e.rank, "name": e.display_name, "user_id": e.user_id, "rating": e.rating,
                 "games": e.games, "record": f"{e.wins}–{e.draws}–{e.losses}"} for e in archived.entries]
    else:
        season = 0
        board = await ctx.storage.ladders.leaderboard(ladder, scope, page_no)
        has_previous, has_next = board.has_previous, board.has_next
        rows = [{"rank": s.rank, "name": s.display_name, "user_id": s.user_id, "rating": s.rating, "games": s.games,
                 "record": f"{s.wins}–{s.draws}–{s.losses}"} for s in board.entries]
    base = "/leaderboard" if guild_id is None else f"/s/{guild_id}/leaderboard"

    def link(**changes: int | str) -> str:
        query: dict[str, str | int] = {"ladder": ladder, **({"season": season} if season else {}), "page": page_no}
        query.update(changes)
        if query.get("season") == 0:
            query.pop("season")
        if query.get("page") == 0:
            query.pop("page")
        return with_key(request, base, **query)

    for row in rows:
        row["profile"] = ctx.links.path(f"/p/{row['user_id']}", Page("p", row["user_id"])) if row["user_id"] else None
    values = {
        "scope": "global" if guild_id is None else "server",
        "ladder": ladder,
        "ladders": LADDERS,
        "season": season,
        "seasons": [s.number for s in closed],
        "rows": rows,
        "first_rank": page_no * PAGE_SIZE + 1,
        "previous": link(page=page_no - 1) if has_previous else None,
        "next": link(page=page_no + 1) if has_next else None,
        "link": link,
    }
    return page(request, "leaderboard.html", values, lang=lang)


async def profile(request: web.Request) -> web.Response:
    user_id = number(request, "user")
    ctx = context(request)
    if not ctx.links.opens(Page("p", user_id), key_of(request)):
        return refused(request)
    lang = lang_of(request)
    found = await ctx.storage.players.profile(user_id)
    if found is None:
        return missing(request, "player")
    standings = [s for s in found.standings if s.scope == GLOBAL_SCOPE]
    values = {
        "player": found,
        "standings": standings,
        "favourite": variant_title(found.favourite_variant, lang) if found.favourite_variant else None,
    }
    return page(request, "profile.html", values, lang=lang)


# -- tournaments ------------------------------------------------------------------------------------------


def tournament_values(ctx: WebContext, tournament: Tournament, lang: str) -> dict[str, Any]:
    seed_of = seeds(tournament)
    names = {e.number: e.display_name for e in tournament.entrants}
    rows: list[dict[str, Any]] = []
    rounds: list[dict[str, Any]] = []
    knockout = tournament.settings.format == "single_elimination"
    if tournament.status != "open" and not knockout:
        rows = [{"place": r.place, "name": names.get(r.entrant, "?"), "points": r.points, "buchholz": r.buchholz,
                 "sonneborn": r.sonneborn_berger, "record": f"{r.wins}–{r.draws}–{r.losses}"}
                for r in table(tournament)]
    elif tournament.status != "open":
        rows = [{"place": place, "name": names.get(n, "?"), "seed": seed_of.get(n)}
                for place, n in bracket_places(tournament)]
    for round_no in range(1, tournament.round + 1):
        matches = []
        for match in tournament.round_matches(round_no):
            through = advancer(match, seed_of) if knockout and match.outcome is not None and match.b else None
            matches.append({
                "a": names.get(match.a, "?"), "b": None if match.b is None else names.get(match.b, "?"),
                "outcome": match.outcome, "through_a": through == match.a, "through_b": through == match.b,
                "game": None if match.game_id is None else ctx.links.path(f"/g/{match.game_id}",
                                                                         Page("g", match.game_id)),
            })
        rounds.append({"number": round_no, "matches": matches})
    return {"t": tournament, "rows": rows, "rounds": rounds, "knockout": knockout,
            "swiss": tournament.settings.format == "swiss",
            "entrants": [e.display_name for e in tournament.entrants],
            "variant": variant_title(tournament.settings.variant, lang)}


async def tournament_page(request: web.Request) -> web.Response:
    tournament_id = number(request, "tournament")
    ctx = context(request)
    try:
        tournament = await ctx.storage.tournaments.tournament(tournament_id)
    except TournamentNotFound:
        return missing(request, "tournament")
    if not await ctx.may_see(Page("t", tournament_id), tournament.guild_id, key_of(request)):
        return refused(request)
    lang = lang_of(request)
    fragment = await tournament_fragment(request.app, tournament, lang)
    request.app[HUB].seed(Topic("tournament", tournament_id), tournament)
    values = {"t": tournament, "fragment": fragment.html, "live": tournament.is_open,
              "events": with_key(request, f"/t/{tournament_id}/events")}
    return page(request, "tournament.html", values, lang=lang)


# -- live streams -----------------------------------------------------------------------------------------


async def game_events(request: web.Request) -> web.StreamResponse:
    from bot.web.live import stream

    found = await visible_game(request)
    if isinstance(found, web.Response):
        return found
    since = query_int(request, "seq", -1, -1, 10**9)
    return await stream(request, Topic("game", found.game_id), since, found)


async def tournament_events(request: web.Request) -> web.StreamResponse:
    from bot.web.live import stream

    tournament_id = number(request, "tournament")
    ctx = context(request)
    try:
        tournament = await ctx.storage.tournaments.tournament(tournament_id)
    except TournamentNotFound:
        raise web.HTTPNotFound() from None
    if not await ctx.may_see(Page("t", tournament_id), tournament.guild_id, key_of(request)):
        raise web.HTTPForbidden()
    return await stream(request, Topic("tournament", tournament_id), -1, tournament)


async def healthz(request: web.Request) -> web.Response:
    return web.Response(text="ok\n", headers={"Cache-Control": "no-store"})


def add_routes(app: web.Application) -> None:
    app.router.add_get("/", index)
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/g/{game}", game_page)
    app.router.add_get("/g/{game}/events", game_events)
    app.router.add_get("/g/{game}/step/{step}", step_json)
    app.router.add_get("/g/{game}/record.json", record_json)
    app.router.add_get("/g/{game}/replay.gif", replay_gif)
    app.router.add_get("/leaderboard", global_leaderboard)
    app.router.add_get("/s/{guild}/leaderboard", server_leaderboard)
    app.router.add_get("/p/{user}", profile)
    app.router.add_get("/t/{tournament}", tournament_page)
    app.router.add_get("/t/{tournament}/events", tournament_events)


def json_dumps(value: object) -> str:
    return json.dumps(value, separators=(",", ":"))
