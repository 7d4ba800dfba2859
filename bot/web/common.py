"""What every page handler shares: the application's keys, reading an address's numbers and the key, the
page's language, and filling a template (escaped) with the site's common values."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode

import aiohttp_jinja2
from aiohttp import web

from bot.sessions import GameState
from bot.ui.links import KEY_PARAMETER
from bot.web.context import WebContext
from bot.web.hub import Hub
from bot.web.i18n import LANGUAGES, negotiate, wt

__all__ = ["CONTEXT", "HUB", "MAX_ID", "context", "key_of", "lang_of", "missing", "number", "page", "query_int",
           "refused", "topic_version", "with_key"]

CONTEXT: web.AppKey[WebContext] = web.AppKey("puluc_web_context", WebContext)
HUB: web.AppKey[Hub] = web.AppKey("puluc_web_hub", Hub)
MAX_ID = 2**63 - 1


def lang_of(request: web.Request) -> str:
    return negotiate(request.headers.get("Accept-Language"), request.query.get("lang"))


def number(request: web.Request, name: str) -> int:
    text = request.match_info[name]
    if not text.isdigit() or len(text) > 19 or not 0 < int(text) <= MAX_ID:
        raise web.HTTPNotFound
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


def with_key(request: web.Request, path: str, **query: str | int) -> str:
    """`path` for a link on this page: the page's own key goes along (it opens the same game's parts)."""
    key = key_of(request)
    params = {**{k: str(v) for k, v in query.items()}, **({KEY_PARAMETER: key} if key else {})}
    return f"{path}?{urlencode(params)}" if params else path


def topic_version(state: Any) -> object:
    """What tells two states of a topic apart: a game's event number, status and seats; a whole tournament."""
    if isinstance(state, GameState):
        return (state.seq, state.status, tuple((s.seat, s.name, s.ai_level, s.taken_over) for s in state.seats))
    return state
