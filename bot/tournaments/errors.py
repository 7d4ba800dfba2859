"""Why a tournament action was refused: one exception per reason, each naming its message key (as the game
sessions' errors do)."""

from __future__ import annotations

from bot.sessions.errors import SessionError


class TournamentNotOpen(SessionError):
    """No open or running tournament has this id (it ended, was cancelled, or never existed here)."""

    key = "error.tournament.unknown"


class TournamentStarted(SessionError):
    """Joining or leaving is only possible before the start."""

    key = "error.tournament.started"


class AlreadyInTournament(SessionError):
    key = "error.tournament.already_in"


class NotInTournament(SessionError):
    key = "error.tournament.not_in"


class OrganiserOnly(SessionError):
    """Starting and cancelling are for the organiser: the creator, or a member who may manage the server."""

    key = "error.tournament.organiser_only"


class TooFewEntrants(SessionError):
    key = "error.tournament.too_few"


class TournamentFull(SessionError):
    key = "error.tournament.full"


class TooManyTournaments(SessionError):
    """The server already has as many open tournaments as allowed (`limit`)."""

    key = "error.tournament.too_many"


class TooManyForOrganiser(SessionError):
    """This organiser already has as many open tournaments as allowed (`limit`)."""

    key = "error.tournament.too_many_yours"


class TooManyEntered(SessionError):
    """This player is already in as many open tournaments as allowed (`limit`)."""

    key = "error.tournament.too_many_entered"


class BadTournamentName(SessionError):
    """An empty name, or one longer than `limit` characters."""

    key = "error.tournament.name"


class BadRoundLimit(SessionError):
    """A round's time limit outside `low` minutes to `high` hours."""

    key = "error.tournament.round_limit"
