"""What the Activity knows of each channel's game, kept current by every saved action, and the waits of the
live connections for the next change.

`ChannelFeed` listens to the session manager (`SessionManager.add_change_listener`, called at once on every
saved action, players' and timers' alike), so an open Activity sees a move within the event loop's next turn,
whether it came from a button, a slash command, a timer or another Activity. It keeps the last finished game of
a channel too, so its Activity can show the final board. It never touches Discord and never blocks.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field

from bot.cogs.games.texts import Told, narration, told
from bot.sessions import ActionResult, GameState, Moved, SessionManager
from puluc import MoveEffect

#: The narration lines the Activity shows, as the game message does.
NARRATION_ITEMS = 6


@dataclass
class _Channel:
    version: int = 0
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    finished: GameState | None = None  # the last game that ended here, shown until another starts
    told: deque[Told] = field(default_factory=lambda: deque(maxlen=NARRATION_ITEMS))
    game_id: int | None = None  # the game `told` and `last_move` are about
    last_move: MoveEffect | None = None  # the move the board marks (kept across the throws that follow it)


class ChannelFeed:
    """The game of each channel and a version that grows with every change there."""

    def __init__(self, manager: SessionManager) -> None:
        self._manager = manager
        self._channels: dict[int, _Channel] = {}
        manager.add_change_listener(self._changed)

    def _channel(self, channel_id: int) -> _Channel:
        return self._channels.setdefault(channel_id, _Channel())

    def _changed(self, result: ActionResult) -> None:
        state = result.state
        channel = self._channel(state.place.channel_id)
        if channel.game_id != state.game_id:
            channel.game_id = state.game_id
            channel.told.clear()
            channel.last_move = None
        channel.told.extend(told(result.happenings, state))
        for happening in result.happenings:
            if isinstance(happening, Moved):
                channel.last_move = happening.effect
        channel.finished = None if state.is_open else state
        self.touch(state.place.channel_id)

    def touch(self, channel_id: int) -> None:
        """Wake every connection waiting on this channel (a change, or a new lobby)."""
        channel = self._channel(channel_id)
        channel.version += 1
        channel.changed.set()
        channel.changed = asyncio.Event()

    def version(self, channel_id: int) -> int:
        return self._channel(channel_id).version

    def state(self, channel_id: int) -> GameState | None:
        """The open game of the channel, else the last one that ended there since this process started."""
        session = self._manager.in_channel(channel_id)
        if session is not None:
            return session.state
        found = self._channels.get(channel_id)
        return found.finished if found is not None else None

    def narration(self, state: GameState, lang: str) -> list[str]:
        """What happened lately in the channel's game, in `lang` (the lines of the game message's narration)."""
        found = self._channels.get(state.place.channel_id)
        items: Iterable[Told] = found.told if found is not None and found.game_id == state.game_id else ()
        return narration(items, lang)[-NARRATION_ITEMS:]

    def last_move(self, state: GameState) -> MoveEffect | None:
        """The move the board of the channel's game marks, as the game message's board does."""
        found = self._channels.get(state.place.channel_id)
        return found.last_move if found is not None and found.game_id == state.game_id else None

    async def wait(self, channel_id: int, seen: int, within: float) -> int:
        """The channel's version once it is past `seen`, or as it is after `within` seconds."""
        channel = self._channel(channel_id)
        if channel.version == seen:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(channel.changed.wait(), within)
        return channel.version
