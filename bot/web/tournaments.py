"""A tournament's page: its entrants while open, then its table or bracket and every round's matches, live
while it runs."""

from __future__ import annotations

from typing import Any

import aiohttp_jinja2
from aiohttp import web

from bot.cogs.games.texts import variant_title
from bot.storage.errors import TournamentNotFound
from bot.tournaments.elimination import advancer
from bot.tournaments.standings import bracket_places, seeds, table
from bot.tournaments.types import Tournament
from bot.ui.links import Page
from bot.web.common import (
    CONTEXT,
    HUB,
    context,
    key_of,
    lang_of,
    missing,
    number,
    page,
    refused,
    topic_version,
    with_key,
)
from bot.web.context import WebContext
from bot.web.hub import Rendered, Topic
from bot.web.i18n import wt
from bot.web.live import stream

__all__ = ["tournament_events", "tournament_fragment", "tournament_page"]


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


async def tournament_fragment(app: web.Application, tournament: Tournament, lang: str) -> Rendered:
    ctx = app[CONTEXT]
    env = aiohttp_jinja2.get_env(app)

    def w(message: str, **params: object) -> str:
        return wt(message, lang, **params)

    html = env.get_template("_tournament_live.html").render(**tournament_values(ctx, tournament, lang), w=w,
                                                            lang=lang)
    return Rendered(topic_version(tournament), 0, html)


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


async def tournament_events(request: web.Request) -> web.StreamResponse:
    tournament_id = number(request, "tournament")
    ctx = context(request)
    try:
        tournament = await ctx.storage.tournaments.tournament(tournament_id)
    except TournamentNotFound:
        raise web.HTTPNotFound from None
    if not await ctx.may_see(Page("t", tournament_id), tournament.guild_id, key_of(request)):
        raise web.HTTPForbidden
    return await stream(request, Topic("tournament", tournament_id), -1, tournament)
