"""Links to the web companion's pages (`bot.web`), signed so that a private server's pages open only from them.

A page of a server (a game, its leaderboards, a tournament) is public once the server's managers say so
(`/puluc-admin settings web:public`); otherwise it needs the key the bot puts in the links it hands out: an
HMAC-SHA256 of what the page shows (`g12`: game 12), made with WEB_SECRET and cut to 128 bits, so nobody
can make one for another page without the secret. The key carries no expiry: a link stays good as long as
WEB_SECRET is unchanged (changing it ends every link handed out).

This module is the one place keys are made and checked; it knows no Discord and no storage.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass, field
from urllib.parse import urlencode

__all__ = ["KEY_PARAMETER", "Page", "WebLinks", "configure_links", "web_links"]

KEY_PARAMETER = "k"
_KEY_BYTES = 16


@dataclass(frozen=True, slots=True)
class Page:
    """What a signed key opens: one game, one server's leaderboards, one tournament or one player's profile."""

    kind: str  # "g" game, "s" server, "t" tournament, "p" player
    id: int

    @property
    def subject(self) -> bytes:
        return f"puluc-web:{self.kind}{self.id}".encode()


@dataclass(frozen=True)
class WebLinks:
    """Makes and checks the keys of WEB_SECRET, and the addresses under WEB_BASE_URL (None: keys only)."""

    secret: str = field(repr=False)
    base_url: str | None = None

    def key(self, page: Page) -> str:
        digest = hmac.new(self.secret.encode(), page.subject, hashlib.sha256).digest()[:_KEY_BYTES]
        return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")

    def opens(self, page: Page, key: str | None) -> bool:
        """Whether `key` is this page's key (compared in constant time)."""
        return key is not None and hmac.compare_digest(self.key(page), key)

    def path(self, path: str, page: Page | None, **query: str | int) -> str:
        """`path` with the query and, when `page` is given, its key: "/g/12?k=..."."""
        params = {name: str(value) for name, value in query.items()}
        if page is not None:
            params[KEY_PARAMETER] = self.key(page)
        return f"{path}?{urlencode(params)}" if params else path

    def url(self, path: str) -> str | None:
        """The absolute address of `path` under WEB_BASE_URL, or None when it is not set."""
        return None if self.base_url is None else self.base_url + path

    # -- the pages the bot links to ----------------------------------------------------------------------

    def game(self, game_id: int) -> str | None:
        return self.url(self.path(f"/g/{game_id}", Page("g", game_id)))

    def leaderboard(self, guild_id: int | None, ladder: str = "duel", season: int | None = None) -> str | None:
        if guild_id is None:
            return self.url(self.path("/leaderboard", None, ladder=ladder))
        query: dict[str, str | int] = {"ladder": ladder} if season is None else {"ladder": ladder, "season": season}
        return self.url(self.path(f"/s/{guild_id}/leaderboard", Page("s", guild_id), **query))

    def profile(self, user_id: int) -> str | None:
        return self.url(self.path(f"/p/{user_id}", Page("p", user_id)))

    def tournament(self, tournament_id: int) -> str | None:
        return self.url(self.path(f"/t/{tournament_id}", Page("t", tournament_id)))


_configured: WebLinks | None = None


def configure_links(links: WebLinks | None) -> None:
    """Set the process's links (at start-up, from WEB_SECRET and WEB_BASE_URL; None: no links)."""
    global _configured
    _configured = links


def web_links() -> WebLinks | None:
    """The links to hand out, or None when WEB_BASE_URL is not set (then messages carry no link button)."""
    return _configured if _configured is not None and _configured.base_url is not None else None
