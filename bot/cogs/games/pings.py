"""Which challenge messages may ping the member they invite, so that a challenge withdrawn and made again every
few seconds (or shown again) does not ping them each time. Turn pings need no such record: a game message
pings the player to move when it is posted or edited for their turn, and `/puluc board` pings nobody.
"""

from __future__ import annotations

import time
from collections.abc import Callable

# A host's challenges ping the same member at most once in this many seconds.
CHALLENGE_PING_SECONDS = 600.0
MAX_REMEMBERED = 10_000  # challenges remembered as shown; the oldest are forgotten first


class ChallengePings:
    """Only the first message of a challenge may ping its invited member, and not even that when the same host
    pinged the same member less than `CHALLENGE_PING_SECONDS` ago."""

    def __init__(self, seconds: float = CHALLENGE_PING_SECONDS, clock: Callable[[], float] = time.monotonic) -> None:
        self._seconds = seconds
        self._clock = clock
        self._pinged: dict[tuple[int | None, int], float] = {}  # (host, invited) -> when last pinged
        self._shown: dict[int, None] = {}  # challenges (game ids) shown already, oldest first

    def allow(self, game_id: int, host_id: int | None, invited_id: int) -> bool:
        """Whether this showing of challenge `game_id` may ping `invited_id` (decided once per challenge)."""
        if game_id in self._shown:
            return False  # shown before: its first message pinged, if anything did
        self._shown[game_id] = None
        if len(self._shown) > MAX_REMEMBERED:
            del self._shown[next(iter(self._shown))]
        now = self._clock()
        self._pinged = {pair: when for pair, when in self._pinged.items() if now - when < self._seconds}
        if (host_id, invited_id) in self._pinged:
            return False
        self._pinged[(host_id, invited_id)] = now
        return True

    def forget(self, user_id: int) -> None:
        """Forget-me: no record of whom this member challenged or was challenged by stays."""
        self._pinged = {pair: when for pair, when in self._pinged.items() if user_id not in pair}
