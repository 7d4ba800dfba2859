"""The Activity's own short-lived session: a signed ticket naming the member and the place they play from.

A ticket is issued once Discord has vouched for the member (`bot.activity.signin`) and carried by every later
request of the page (the live board, the moves) in its Authorization header. It is `payload.signature`, both
base64url: the payload a small JSON object, the signature its HMAC-SHA256 under the Activity's secret, compared
in constant time. Nothing in it is secret (the member may read it); it cannot be forged or stretched. This
module must never log a ticket or the secret.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
from dataclasses import asdict, dataclass, replace

from bot.activity.errors import BadSession, SessionExpired

# Long enough for a game's turn or two without a round trip to Discord, short enough that a ticket copied out
# of a page is soon worthless; the page renews its ticket well before this (`RENEW_BEFORE`).
TICKET_SECONDS = 15 * 60
#: The page asks for a fresh ticket when its own has less than this left.
RENEW_BEFORE = 5 * 60
_VERSION = 1


@dataclass(frozen=True, slots=True)
class Ticket:
    """Who plays, where: the member, the server and channel of the Activity's instance, until `expires`."""

    user_id: int
    guild_id: int
    channel_id: int
    instance_id: str
    lang: str  # the member's language, from their Discord client's locale
    expires: float  # seconds since the epoch

    def renewed(self, now: float, seconds: float = TICKET_SECONDS) -> Ticket:
        return replace(self, expires=now + seconds)


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Signer:
    """Signs and checks tickets under one secret (the application's client secret, unless told another)."""

    def __init__(self, secret: bytes) -> None:
        if not secret:
            raise ValueError("the Activity's tickets need a secret to be signed with")
        # A key of its own, so the same secret used elsewhere (the web companion's links) never signs a ticket.
        self._key = hmac.new(secret, b"puluc-activity-ticket", hashlib.sha256).digest()

    def _signature(self, payload: bytes) -> bytes:
        return hmac.new(self._key, payload, hashlib.sha256).digest()

    def sign(self, ticket: Ticket) -> str:
        fields = asdict(ticket)
        # Ids as text: a JavaScript number cannot hold a 64-bit snowflake exactly.
        payload = json.dumps({"v": _VERSION, **{k: str(v) if k.endswith("_id") else v for k, v in fields.items()}},
                             separators=(",", ":"), sort_keys=True).encode()
        return f"{_b64(payload)}.{_b64(self._signature(payload))}"

    def check(self, token: str, now: float) -> Ticket:
        """The ticket `token` carries; BadSession when it is not one of ours, SessionExpired when it ran out."""
        payload_text, dot, signature_text = token.partition(".")
        if not dot:
            raise BadSession("a ticket without a signature")
        try:
            payload, signature = _unb64(payload_text), _unb64(signature_text)
        except (binascii.Error, ValueError):
            raise BadSession("a ticket that is not base64url") from None
        if not hmac.compare_digest(signature, self._signature(payload)):
            raise BadSession("a ticket whose signature does not match")
        try:
            fields = json.loads(payload)
            if fields.pop("v") != _VERSION:
                raise BadSession("a ticket of another version")
            ticket = Ticket(int(fields["user_id"]), int(fields["guild_id"]), int(fields["channel_id"]),
                            str(fields["instance_id"]), str(fields["lang"]), float(fields["expires"]))
        except (ValueError, KeyError, TypeError) as exc:
            raise BadSession(f"a signed ticket that cannot be read ({type(exc).__name__})") from None
        if ticket.expires <= now:
            raise SessionExpired(f"the ticket of user {ticket.user_id} expired", lang=ticket.lang)
        return ticket
