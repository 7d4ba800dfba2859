"""Why the Activity refused a request: one exception per reason, each naming its catalogue key and HTTP status.

The routes (`bot.activity.routes`) answer each with its status and the sentence its key names in the member's
language; the exception's own text is for the log and never holds a code, a token or a secret.
"""

from __future__ import annotations


class ActivityRefusal(ValueError):
    """A request the Activity refuses; `key` names its sentence (`activity.error.*`), `status` the HTTP answer."""

    key = "activity.error.internal"
    status = 400


class BadRequest(ActivityRefusal):
    """The page sent something that is not what the Activity's API takes (a bug or a hand-made request)."""

    key = "activity.error.bad_request"
    status = 400


class BadCode(ActivityRefusal):
    """Discord's token endpoint refused the authorization code (wrong, used already, or expired)."""

    key = "activity.error.bad_code"
    status = 401


class BadAccessToken(ActivityRefusal):
    """Discord does not know the access token the page sent (/users/@me answered 401)."""

    key = "activity.error.bad_code"
    status = 401


class WrongInstance(ActivityRefusal):
    """The Activity instance does not exist, is not this application's, or the member is not in it."""

    key = "activity.error.wrong_instance"
    status = 403


class OtherServer(ActivityRefusal):
    """The member is not in the server the Activity and its game belong to."""

    key = "activity.error.other_server"
    status = 403


class SessionExpired(ActivityRefusal):
    """The Activity's own session ran out: the page signs in again (silently, the member saw it before). `lang`
    is the member's language, which the (genuine) ticket still tells."""

    key = "activity.error.session_expired"
    status = 401

    def __init__(self, detail: str, *, lang: str) -> None:
        super().__init__(detail)
        self.lang = lang


class BadSession(ActivityRefusal):
    """A session token that is not one the Activity signed (tampered, another deployment's, or garbled)."""

    key = "activity.error.bad_session"
    status = 401


class NotThisGame(ActivityRefusal):
    """A move for another game than the one running where the Activity was opened."""

    key = "activity.error.not_this_game"
    status = 409


class WrongProcess(ActivityRefusal):
    """A request for a server whose games another process runs: the reverse proxy routes /activity/shard-N/
    to the wrong process (a deployment mistake, said to the member as "try again later" and logged)."""

    key = "activity.error.misrouted"
    status = 421


class TooFast(ActivityRefusal):
    """One member asked more than the Activity answers one member (a stuck page, or a hand-made flood)."""

    key = "activity.error.too_fast"
    status = 429


class Failed(ActivityRefusal):
    """The Activity failed on its own side (a bug: logged with its traceback)."""

    key = "activity.error.internal"
    status = 500


class DiscordUnavailable(ActivityRefusal):
    """Discord did not answer, or answered with a server error: nothing is refused, try again."""

    key = "activity.error.discord_unavailable"
    status = 503
