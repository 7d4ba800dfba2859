"""What the game sessions need from the database: the records of their games."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any, Protocol

from bot.storage.shards import Shards
from bot.storage.types import UNCHANGED, EndReason, Event, FinishReport, GameLog, NewEvent, SeatSpec, Unchanged


class GameRecords(Protocol):
    """Games, seats and their append-only event logs (`bot.storage.sql.games.GameStore` keeps them). Every
    method is one transaction, committed before it returns."""

    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        host_id: int | None,
        variant: str,
        rules: Mapping[str, Any],
        turn_timer_seconds: int,
        ranked: bool = False,
        in_thread: bool = False,
        message_id: int | None = None,
        seats: Sequence[SeatSpec] = (),
        host_limit: int | None = None,
    ) -> int:
        """Open a lobby; with `host_limit`, HostLimitReached when the host already hosts that many open games
        (counted in the same transaction, so it holds across processes)."""
        ...

    async def set_seat(self, game_id: int, spec: SeatSpec) -> None: ...

    async def set_seats(self, game_id: int, specs: Sequence[SeatSpec]) -> None:
        """Replace every seat of a lobby by `specs`, in one transaction (balancing the teams)."""
        ...

    async def remove_seat(self, game_id: int, seat: str) -> None: ...

    async def set_message(self, game_id: int, message_id: int | None, *, in_thread: bool | None = None) -> None: ...

    async def start_game(
        self,
        game_id: int,
        *,
        first_team: str,
        throw_off: Sequence[Any],
        seed: int | None,
        snapshot_ppn: str,
        turn_deadline: float | None,
        rules: Mapping[str, Any] | None = None,
    ) -> None: ...

    async def append_events(
        self,
        game_id: int,
        first_seq: int,
        events: Sequence[NewEvent],
        *,
        snapshot_ppn: str | None = None,
        turn_deadline: float | Unchanged | None = UNCHANGED,
        timeouts: Mapping[str, int] | None = None,
    ) -> tuple[Event, ...]: ...

    async def finish_game(
        self,
        game_id: int,
        *,
        winner: str | None,
        scores: Mapping[str, int],
        end_reason: EndReason,
        kills: Mapping[str, int] | None = None,
        events: Sequence[NewEvent] = (),
        first_seq: int | None = None,
        snapshot_ppn: str | None = None,
    ) -> FinishReport: ...

    async def cancel_game(self, game_id: int, payload: Mapping[str, Any] | None = None) -> None: ...

    def open_game_batches(self, shards: Shards | None = None) -> AsyncIterator[tuple[GameLog, ...]]:
        """The open games of servers on `shards` (None: all), with their logs, a batch at a time; other shards'
        games are never read."""
        ...

    async def game_log(self, game_id: int) -> GameLog: ...
