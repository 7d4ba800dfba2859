"""The leaderboards (a server's, this season or a closed one; all servers') and a player's profile."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from bot.cogs.games.texts import variant_title
from bot.ratings import PAGE_SIZE
from bot.ratings.types import LADDERS
from bot.storage.errors import SeasonNotFound
from bot.storage.types import GLOBAL_SCOPE
from bot.ui.links import Page
from bot.web.common import context, key_of, lang_of, missing, number, page, query_int, refused, with_key

__all__ = ["global_leaderboard", "profile", "server_leaderboard"]


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
