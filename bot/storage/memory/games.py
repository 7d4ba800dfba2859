"""The in-memory fake's game log and settings: games, seats and event logs in dicts, with the same promises as
the SQL backends (an event number already taken raises `DuplicateEvent`, a gap `EventGap`, a write to a game
in the wrong state `GameStateError`, a seat change outside the lobby is refused).

Every method runs without awaiting anything, so on one event loop it is as atomic as a transaction. The
contract suite (tests/bot/storage) holds this fake to the same tests as SQLite and PostgreSQL.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.storage.errors import (
    DuplicateEvent,
    EventGap,
    GameNotFound,
    GameStateError,
    HostLimitReached,
    ShardNotHeld,
)
from bot.storage.shards import Shards
from bot.storage.types import (
    END_REASONS,
    UNCHANGED,
    EndReason,
    Event,
    FinishReport,
    Game,
    GameLog,
    GuildSettings,
    NewEvent,
    Seat,
    SeatSpec,
    Unchanged,
    check_kinds,
    turn_order,
)

OPEN_STATUSES = ("lobby", "running")


@dataclass(slots=True)
class StoredPlayer:
    display_name: str
    last_active: float


class MemoryGames:
    """Games, seats, events, players and server settings in dicts: the first layer of `MemoryStorage`.

    `fail_next` makes the next write raise that exception (to test that a failed save changes nothing)."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self._clock = clock
        self._games: dict[int, Game] = {}
        self._events: dict[int, list[Event]] = {}
        self._next_id = 1
        self._guilds: dict[int, GuildSettings] = {}
        self._channels: dict[int, tuple[int, bool]] = {}  # channel -> (guild, ranked)
        self._players: dict[int, StoredPlayer] = {}
        self.fail_next: Exception | None = None
        self._shards: Shards | None = None

    def _maybe_fail(self) -> None:
        if self.fail_next is not None:
            error, self.fail_next = self.fail_next, None
            raise error

    def _game(self, game_id: int, *allowed: str) -> Game:
        game = self._games.get(game_id)
        if game is None:
            raise GameNotFound(f"there is no game {game_id}")
        if allowed and game.status not in allowed:
            raise GameStateError(f"game {game_id} is {game.status}; this needs it to be {' or '.join(allowed)}")
        return game

    def _writable(self, game_id: int, *allowed: str) -> Game:
        """`_game`, for a write: ShardNotHeld when this store claimed shards and the game is on another."""
        game = self._game(game_id, *allowed)
        self._check_shard(game.guild_id)
        return game

    def _check_shard(self, guild_id: int | None) -> None:
        if self._shards is not None and not self._shards.owns(guild_id):
            raise ShardNotHeld(f"server {guild_id} is on a shard this store does not hold ({self._shards})")

    async def claim_shards(self, shards: Shards) -> None:
        """Hold `shards`: memory is one process, so nobody else can hold them; writes to other shards' games
        are refused from now on, as in the SQL backends."""
        self._shards = shards

    def _put(self, game: Game, **changes: Any) -> None:
        self._games[game.game_id] = replace(game, updated_at=self._clock(), **changes)

    def _touch_players(self, specs: Sequence[SeatSpec]) -> None:
        now = self._clock()
        for spec in specs:
            if spec.user_id is not None:
                self._players[spec.user_id] = StoredPlayer(spec.display_name, now)

    # --- server and channel settings ---------------------------------------------------------------------

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        return self._guilds.get(guild_id, GuildSettings(guild_id, None, None, None))

    async def update_guild_settings(
        self,
        guild_id: int,
        *,
        default_variant: str | Unchanged | None = UNCHANGED,
        turn_timer_seconds: int | Unchanged | None = UNCHANGED,
        locale: str | Unchanged | None = UNCHANGED,
        fire: bool | Unchanged | None = UNCHANGED,
        scorpion: bool | Unchanged | None = UNCHANGED,
        eagle_returns: bool | Unchanged | None = UNCHANGED,
    ) -> GuildSettings:
        self._maybe_fail()
        new = (await self.guild_settings(guild_id)).updated(
            default_variant=default_variant, turn_timer_seconds=turn_timer_seconds, locale=locale, fire=fire,
            scorpion=scorpion, eagle_returns=eagle_returns,
        )
        self._guilds[guild_id] = new
        return new

    async def set_channel_ranked(self, guild_id: int, channel_id: int, ranked: bool | None) -> None:
        self._maybe_fail()
        if ranked is None:
            self._channels.pop(channel_id, None)
            return
        self._guilds.setdefault(guild_id, GuildSettings(guild_id, None, None, None))
        self._channels[channel_id] = (guild_id, ranked)

    async def channel_ranked(self, channel_id: int) -> bool | None:
        found = self._channels.get(channel_id)
        return None if found is None else found[1]

    # --- games -------------------------------------------------------------------------------------------

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
        self._maybe_fail()
        self._check_shard(guild_id)
        if host_limit is not None and host_id is not None:
            hosted = sum(1 for g in self._games.values() if g.host_id == host_id and g.status in OPEN_STATUSES)
            if hosted >= host_limit:
                raise HostLimitReached(f"user {host_id} hosts {hosted} open games already", limit=host_limit)
        game_id, self._next_id = self._next_id, self._next_id + 1
        now = self._clock()
        if guild_id is not None:
            self._guilds.setdefault(guild_id, GuildSettings(guild_id, None, None, None))
        self._touch_players(seats)
        self._games[game_id] = Game(
            game_id=game_id, guild_id=guild_id, channel_id=channel_id, in_thread=in_thread, message_id=message_id,
            status="lobby", host_id=host_id, ranked=ranked, variant=variant, rules=copy.deepcopy(dict(rules)),
            first_team=None, throw_off=None, seed=None, turn_timer_seconds=turn_timer_seconds, turn_deadline=None,
            last_seq=0, snapshot_ppn=None, snapshot_seq=0, winner=None, scores=None, end_reason=None,
            created_at=now, updated_at=now, finished_at=None,
            seats=tuple(sorted((Seat(s.seat, s.user_id, s.ai_level, s.display_name, 0, None) for s in seats),
                               key=turn_order)),
        )
        self._events[game_id] = []
        return game_id

    async def set_seat(self, game_id: int, spec: SeatSpec) -> None:
        self._maybe_fail()
        game = self._writable(game_id, "lobby")
        self._touch_players([spec])
        seats = [s for s in game.seats if s.seat != spec.seat]
        seats.append(Seat(spec.seat, spec.user_id, spec.ai_level, spec.display_name, 0, None))
        self._put(game, seats=tuple(sorted(seats, key=turn_order)))

    async def set_seats(self, game_id: int, specs: Sequence[SeatSpec]) -> None:
        self._maybe_fail()
        game = self._writable(game_id, "lobby")
        self._touch_players(specs)
        seats = [Seat(s.seat, s.user_id, s.ai_level, s.display_name, 0, None) for s in specs]
        self._put(game, seats=tuple(sorted(seats, key=turn_order)))

    async def remove_seat(self, game_id: int, seat: str) -> None:
        self._maybe_fail()
        game = self._writable(game_id, "lobby")
        self._put(game, seats=tuple(s for s in game.seats if s.seat != seat))

    async def set_message(self, game_id: int, message_id: int | None, *, in_thread: bool | None = None) -> None:
        self._maybe_fail()
        game = self._writable(game_id)
        self._put(game, message_id=message_id, in_thread=game.in_thread if in_thread is None else in_thread)

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
    ) -> None:
        if first_team not in ("A", "B"):
            raise ValueError(f"the first team is 'A' or 'B', not {first_team!r}")
        self._maybe_fail()
        game = self._writable(game_id, "lobby")
        self._put(game, status="running", first_team=first_team, throw_off=copy.deepcopy(list(throw_off)),
                  seed=seed, snapshot_ppn=snapshot_ppn, snapshot_seq=0, turn_deadline=turn_deadline,
                  rules=game.rules if rules is None else copy.deepcopy(dict(rules)))

    def _append(self, game: Game, first_seq: int, events: Sequence[NewEvent], snapshot_ppn: str | None) -> Game:
        """Append to the log of a running game; return the game with last_seq (and snapshot) moved on."""
        if game.status != "running":
            raise GameStateError(f"game {game.game_id} is {game.status}; this needs it to be running")
        if first_seq <= game.last_seq:
            raise DuplicateEvent(f"game {game.game_id} already has event {first_seq}; the log is at {game.last_seq}")
        if first_seq > game.last_seq + 1:
            raise EventGap(f"game {game.game_id} expects event {game.last_seq + 1} next, not {first_seq}")
        now = self._clock()
        written = [Event(first_seq + i, e.kind, copy.deepcopy(e.payload), now) for i, e in enumerate(events)]
        self._events[game.game_id].extend(written)
        last = written[-1].seq
        if snapshot_ppn is None:
            return replace(game, last_seq=last)
        return replace(game, last_seq=last, snapshot_ppn=snapshot_ppn, snapshot_seq=last)

    async def append_events(
        self,
        game_id: int,
        first_seq: int,
        events: Sequence[NewEvent],
        *,
        snapshot_ppn: str | None = None,
        turn_deadline: float | Unchanged | None = UNCHANGED,
        timeouts: Mapping[str, int] | None = None,
    ) -> tuple[Event, ...]:
        if not events:
            raise ValueError("append_events needs at least one event")
        check_kinds(events)
        self._maybe_fail()
        game = self._append(self._writable(game_id), first_seq, events, snapshot_ppn)
        seats = tuple(replace(s, consecutive_timeouts=(timeouts or {}).get(s.seat, s.consecutive_timeouts))
                      for s in game.seats)
        deadline = game.turn_deadline if isinstance(turn_deadline, Unchanged) else turn_deadline
        self._put(game, seats=seats, turn_deadline=deadline)
        return tuple(self._events[game_id][-len(events):])

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
    ) -> FinishReport:
        if winner not in ("A", "B", None):
            raise ValueError(f"winner is 'A', 'B' or None for a draw, not {winner!r}")
        if end_reason not in END_REASONS - {"cancelled"}:
            raise ValueError(f"end_reason is normal, resign or timeout, not {end_reason!r}; use cancel_game")
        check_kinds(events)
        if events and first_seq is None:
            raise ValueError("first_seq is needed with events")
        self._maybe_fail()
        game = self._writable(game_id, "running")
        if events:
            assert first_seq is not None
            game = self._append(game, first_seq, events, snapshot_ppn)
        now = self._clock()
        seats = tuple(replace(s, kills=(kills or {}).get(s.seat, s.kills)) for s in game.seats)
        self._put(game, status="finished", winner=winner, scores={"A": scores.get("A", 0), "B": scores.get("B", 0)},
                  end_reason=end_reason, turn_deadline=None, finished_at=now, seats=seats)
        return self._rate_finished(self._games[game_id], now)

    def _rate_finished(self, game: Game, now: float) -> FinishReport:
        """Rate a game just finished: `bot.storage.memory.ladders.MemoryLadders` does."""
        raise NotImplementedError

    async def cancel_game(self, game_id: int, payload: Mapping[str, Any] | None = None) -> None:
        self._maybe_fail()
        game = self._writable(game_id)
        if game.status == "running":
            game = self._append(game, game.last_seq + 1, [NewEvent("cancel", dict(payload or {}))], None)
        elif game.status != "lobby":
            raise GameStateError(f"game {game_id} is already {game.status}")
        self._put(game, status="cancelled", end_reason="cancelled", turn_deadline=None, finished_at=self._clock())

    async def open_games(self) -> tuple[GameLog, ...]:
        return tuple(
            GameLog(game, tuple(self._events[game.game_id]))
            for game in sorted(self._games.values(), key=lambda g: g.game_id)
            if game.status in OPEN_STATUSES
        )

    async def game_log(self, game_id: int) -> GameLog:
        return GameLog(self._game(game_id), tuple(self._events[game_id]))

    async def get_game(self, game_id: int) -> Game:
        return self._game(game_id)
