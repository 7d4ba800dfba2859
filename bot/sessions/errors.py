"""Why a game action was refused: one exception class per reason, each naming its message key.

The session layer raises these; the cogs turn `error.key` and `error.params` into one friendly, translated
sentence (`bot.ui.i18n.t`). The exception text itself is for logs.
"""

from __future__ import annotations


class SessionError(ValueError):
    """An action the game refuses. `key` is the i18n message key, `params` fill its placeholders."""

    key = "error.internal"

    def __init__(self, detail: str, **params: object) -> None:
        super().__init__(detail)
        self.params: dict[str, object] = params


class GameNotOpen(SessionError):
    """No open session has this game id: the game is over or never existed (and, asked for a finished game,
    none can be read). Not bot.storage.errors.GameNotFound, which is the database's "no such game"."""

    key = "error.game_finished"


class ReplayPruned(SessionError):
    """A finished game whose moves were pruned (FINISHED_GAME_RETENTION_DAYS): its result stands, its replay
    is gone."""

    key = "retention.pruned"

    def __init__(self, detail: str, *, game_id: int) -> None:
        super().__init__(detail, game_id=game_id)


class NoGameHere(SessionError):
    key = "error.no_game_here"


class ChannelBusy(SessionError):
    """A game already runs (or waits in a lobby) in this channel or thread."""

    key = "error.game_running"

    def __init__(self, detail: str, *, game_id: int, channel_id: int, message_id: int | None) -> None:
        super().__init__(detail)
        self.game_id = game_id
        self.channel_id = channel_id
        self.message_id = message_id


class TooManyGames(SessionError):
    key = "error.too_many_games"


class TooManyAIGames(SessionError):
    """The host already has the most open games with AI seats allowed (MAX_AI_GAMES_PER_USER)."""

    key = "limits.ai_games"


class ServerGamesFull(SessionError):
    """The server already has the most open lobbies and games allowed (MAX_OPEN_GAMES_PER_SERVER)."""

    key = "limits.server_games"


class ServerAIGamesFull(SessionError):
    """The server already has the most open games with AI seats allowed (MAX_AI_GAMES_PER_SERVER)."""

    key = "limits.server_ai_games"


class GameOver(SessionError):
    key = "error.game_finished"


class NotStarted(SessionError):
    key = "error.not_started"


class AlreadyStarted(SessionError):
    key = "error.already_started"


class StaleAction(SessionError):
    """The button was made for an earlier position of the game."""

    key = "error.stale_button"


class NotAPlayer(SessionError):
    key = "error.not_a_player"


class NotYourTurn(SessionError):
    key = "error.not_your_turn"


class SeatPlayedByAI(SessionError):
    key = "error.seat_taken_over"


class IllegalMoveError(SessionError):
    key = "error.illegal_move"


class UnreadableMove(IllegalMoveError):
    """Typed text that is not move notation at all (the engine's InvalidMoveError)."""

    key = "error.move_notation"


class HostOnly(SessionError):
    key = "error.host_only"


class AlreadySeated(SessionError):
    key = "error.already_seated"


class TeamFull(SessionError):
    key = "error.team_full"


class SeatsEmpty(SessionError):
    key = "error.seats_empty"


class NotInvited(SessionError):
    key = "error.not_invited"


class SelfChallenge(SessionError):
    key = "error.challenge_self"


class HintNotAllowed(SessionError):
    key = "error.hint_ranked"


class TournamentMatch(SessionError):
    """A tournament match cannot be left, cancelled or rematched on its own: its tournament decides."""

    key = "error.tournament.match_game"


class InvalidOptions(SessionError):
    """The game options do not make a valid set of rules. `params` hold the reason in the engine's terms:
    `code` (a `puluc.ErrorCode` value) and the fields that explain it (`field`, `value`, `low`, `high`, ...)."""

    key = "error.invalid_rules"


class NotSaved(SessionError):
    """The database could not store the action now (disk full, unreachable or restarting, a lock held too
    long): nothing of it was saved and the game is as it was; the same action may succeed in a moment.
    `reason` is the storage layer's short code ("disk_full", "unreachable", ...)."""

    key = "error.not_saved"

    def __init__(self, detail: str, *, reason: str) -> None:
        super().__init__(detail)
        self.reason = reason


class MoveNotSaved(NotSaved):
    """A move (or resignation) that could not be saved, so it was not played."""

    key = "error.move_not_saved"
