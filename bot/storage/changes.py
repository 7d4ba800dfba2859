"""What a write tells other processes: "game 12 is at event 40", "tournament 3 changed".

On PostgreSQL every write to a game's log or status and every write to a tournament sends a notification in the
same transaction (`NOTIFY`, delivered when it commits, only then), so a process that watches (the web companion,
`puluc-bot web`) hears of a move whichever process played it. SQLite has one process, which tells its own
listeners directly, and sends nothing. This module is the names and the payload format, nothing else.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal, Protocol

__all__ = ["GAMES_CHANNEL", "TOURNAMENTS_CHANNEL", "Change", "ChangeFeed", "OnChange", "OnResync", "parse_change"]

GAMES_CHANNEL = "puluc_games"  # payload "<game_id>:<last event number>"
TOURNAMENTS_CHANNEL = "puluc_tournaments"  # payload "<tournament_id>"


@dataclass(frozen=True, slots=True)
class Change:
    """One committed write: what changed (`kind`, `id`) and, for a game, its newest event number."""

    kind: Literal["game", "tournament"]
    id: int
    seq: int = 0


def parse_change(channel: str, payload: str) -> Change | None:
    """The change a notification names, or None for one this bot does not send (never raises)."""
    try:
        if channel == GAMES_CHANNEL:
            game, _, seq = payload.partition(":")
            return Change("game", int(game), int(seq or 0))
        if channel == TOURNAMENTS_CHANNEL:
            return Change("tournament", int(payload))
    except ValueError:
        return None
    return None


OnChange = Callable[[Change], None]
OnResync = Callable[[], Awaitable[None]]


class ChangeFeed(Protocol):
    """A running subscription to other processes' changes; `close` ends it."""

    async def close(self) -> None: ...
