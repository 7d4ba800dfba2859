"""The few calls the Activity makes to Discord's HTTP API: the OAuth2 code exchange, the member's own user,
the Activity instance and the server's member, each answered with a value or a precise refusal.

Every call goes to `base_url` (the DISCORD_API_URL setting: Discord's own API, or a fake one under test). No
call logs a code, an access token, the client secret or the bot token; a failure is logged by its status only.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import aiohttp

from bot.activity.errors import BadAccessToken, BadCode, DiscordUnavailable, WrongInstance

log = logging.getLogger(__name__)

# Each call is short; a Discord that does not answer within this is treated as unavailable, so the page can
# say so instead of spinning while its member waits.
CALL_TIMEOUT = aiohttp.ClientTimeout(total=10)


@dataclass(frozen=True, slots=True)
class DiscordUser:
    """The member as Discord's /users/@me tells it (scope `identify`): their id, name and client language."""

    id: int
    name: str
    locale: str | None


@dataclass(frozen=True, slots=True)
class ActivityInstance:
    """One running Activity: where it was opened and who is in it now."""

    instance_id: str
    guild_id: int | None
    channel_id: int | None
    users: frozenset[int]


class DiscordApi:
    """Discord's API for one application: its OAuth2 client (`client_id`, `client_secret`) and its bot."""

    def __init__(self, session: aiohttp.ClientSession, base_url: str, *, client_id: int, client_secret: str,
                 bot_token: str) -> None:
        self._http = session
        self._base = base_url.rstrip("/")
        self.client_id = client_id
        self._secret = client_secret
        self._bot = bot_token

    async def _call(self, method: str, path: str, *, what: str, headers: Mapping[str, str],
                    data: Mapping[str, str] | None = None) -> tuple[int, Any]:
        """The status and JSON body of one call; DiscordUnavailable for no answer, a 5xx or a rate limit."""
        try:
            async with self._http.request(method, self._base + path, headers=dict(headers), data=data,
                                          timeout=CALL_TIMEOUT) as response:
                status = response.status
                body = await response.json(content_type=None) if status != 204 else None
        except (aiohttp.ClientError, TimeoutError, ValueError) as exc:
            log.warning("Discord did not answer %s (%s)", what, type(exc).__name__)
            raise DiscordUnavailable(f"no answer to {what}") from None
        if status >= 500 or status == 429:
            log.warning("Discord answered %s with HTTP %d", what, status)
            raise DiscordUnavailable(f"HTTP {status} for {what}")
        return status, body

    def _as_bot(self) -> dict[str, str]:
        return {"Authorization": f"Bot {self._bot}"}

    async def exchange(self, code: str) -> str:
        """The access token for an authorization code from the SDK's `authorize`; BadCode when Discord refuses
        it. No redirect_uri: an Activity's code is not issued through a redirect."""
        form = {"client_id": str(self.client_id), "client_secret": self._secret,
                "grant_type": "authorization_code", "code": code}
        status, body = await self._call("POST", "/oauth2/token", what="the OAuth2 code exchange", data=form,
                                        headers={"Content-Type": "application/x-www-form-urlencoded"})
        token = body.get("access_token") if isinstance(body, dict) else None
        if status != 200 or not isinstance(token, str) or not token:
            reason = body.get("error") if isinstance(body, dict) else None
            raise BadCode(f"the token endpoint refused the code: HTTP {status} {reason or ''}".strip())
        return token

    async def me(self, access_token: str) -> DiscordUser:
        """The member the access token belongs to; BadAccessToken when Discord does not know the token."""
        status, body = await self._call("GET", "/users/@me", what="/users/@me",
                                        headers={"Authorization": f"Bearer {access_token}"})
        if status != 200 or not isinstance(body, dict) or not str(body.get("id", "")).isdigit():
            raise BadAccessToken(f"/users/@me answered HTTP {status}")
        name = body.get("global_name") or body.get("username") or str(body["id"])
        locale = body.get("locale")
        return DiscordUser(int(body["id"]), str(name), locale if isinstance(locale, str) else None)

    async def activity_instance(self, instance_id: str) -> ActivityInstance:
        """This application's running Activity instance `instance_id`; WrongInstance when there is none."""
        path = f"/applications/{self.client_id}/activity-instances/{quote(instance_id, safe='')}"
        status, body = await self._call("GET", path, what="the activity instance", headers=self._as_bot())
        if status != 200 or not isinstance(body, dict):
            raise WrongInstance(f"no activity instance {instance_id!r} (HTTP {status})")
        location = body.get("location") or {}
        return ActivityInstance(
            instance_id=str(body.get("instance_id", instance_id)),
            guild_id=_snowflake(location.get("guild_id")),
            channel_id=_snowflake(location.get("channel_id")),
            users=frozenset(found for found in map(_snowflake, body.get("users") or ()) if found is not None),
        )

    async def is_member(self, guild_id: int, user_id: int) -> bool:
        """Whether the user is a member of the server (the bot reads one member; no privileged intent)."""
        status, _ = await self._call("GET", f"/guilds/{guild_id}/members/{user_id}", what="the server member",
                                     headers=self._as_bot())
        if status in (403, 404):
            return False
        if status != 200:
            raise DiscordUnavailable(f"HTTP {status} for the server member")
        return True


def _snowflake(value: object) -> int | None:
    text = str(value) if value is not None else ""
    return int(text) if text.isdigit() else None
