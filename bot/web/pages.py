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

from typing import Any

from aiohttp import web

from bot.web.common import page
from bot.web.games import game_events, game_fragment, game_page, record_json, replay_gif, step_json
from bot.web.hub import Rendered, Topic
from bot.web.ladders import global_leaderboard, profile, server_leaderboard
from bot.web.tournaments import tournament_events, tournament_fragment, tournament_page

__all__ = ["add_routes", "render_topic"]


def render_topic(app: web.Application) -> Any:
    async def render(topic: Topic, state: Any, lang: str) -> Rendered:
        if topic.kind == "game":
            return await game_fragment(app, state, lang, live=True)
        return await tournament_fragment(app, state, lang)

    return render


async def index(request: web.Request) -> web.Response:
    return page(request, "index.html", {})


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
