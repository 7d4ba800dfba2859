"""Signing a member in as Discord requires, and issuing the Activity's own ticket.

The page's `authorize` gave it a code; here the code becomes an access token at Discord's token endpoint (with
the client secret), the token names the member (/users/@me), and the bot asks Discord whether that member is
in the Activity instance the page says it runs in, and where that instance was opened. Only the instance's own
location counts (never a channel or server the page names), and the member must belong to that server. Then
the member gets a ticket for that channel (`bot.activity.tickets`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from bot.activity.discord_api import DiscordApi, DiscordUser
from bot.activity.errors import OtherServer, WrongInstance
from bot.activity.tickets import TICKET_SECONDS, Ticket
from bot.ui.i18n import language_for

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class SignedIn:
    """The member Discord vouched for, their access token (for the SDK's `authenticate`) and their ticket."""

    user: DiscordUser
    access_token: str
    ticket: Ticket


async def sign_in(api: DiscordApi, code: str, instance_id: str, now: float,
                  seconds: float = TICKET_SECONDS) -> SignedIn:
    """Exchange `code`, identify the member and check the instance and the server; each failure is its own
    refusal (BadCode, WrongInstance, OtherServer, DiscordUnavailable)."""
    access_token = await api.exchange(code)
    user = await api.me(access_token)
    instance = await api.activity_instance(instance_id)
    if user.id not in instance.users:
        raise WrongInstance(f"user {user.id} is not in activity instance {instance_id!r}")
    if instance.channel_id is None or instance.guild_id is None:
        # Opened in a DM or a group DM: games are played in server channels only.
        raise OtherServer(f"activity instance {instance_id!r} is not in a server channel")
    if not await api.is_member(instance.guild_id, user.id):
        raise OtherServer(f"user {user.id} is not a member of server {instance.guild_id}")
    log.info("user %d opened the Activity in channel %d", user.id, instance.channel_id)
    ticket = Ticket(user.id, instance.guild_id, instance.channel_id, instance.instance_id,
                    language_for(user.locale), now + seconds)
    return SignedIn(user, access_token, ticket)
