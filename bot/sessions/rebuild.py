"""Rebuilding a game from its stored event log: the one way back from storage to a game. Start-up,
`/puluc replay`, the Replay button, rematch and the post-game chart all read a game through here.

The event log is the truth: the position is replayed from the start through every throw and move, and the
stored snapshot is checked against the replay at the snapshot's own event number. A throw is read from its
stick faces (`"faces"`), a move from its notation (`"move"`); the other keys of a payload (the seat, the
values, who played) are the bot's bookkeeping and are not needed to replay. Replays run in a worker thread
and only read.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import TypeVar

from bot.sessions.ports import GameRecords
from bot.sessions.state import GameState, Place, SeatState, ai_level_name
from bot.storage.shards import Shards
from bot.storage.types import Event, Game, GameLog
from puluc import InvalidRulesError, Move, Position, PulucError, Rules, Throw
from puluc.record import MoveEvent, ThrowEvent

log = logging.getLogger(__name__)

T = TypeVar("T")


class CorruptGame(ValueError):
    """A stored game whose log does not replay under its rules."""

    def __init__(self, game_id: int, detail: str) -> None:
        super().__init__(f"game {game_id}: {detail}")
        self.game_id = game_id


def state_from_log(stored: GameLog) -> GameState:
    """The state of a stored game, as the session had it after its last saved action (CorruptGame when
    its rules or its log do not replay). Runs the whole replay: call it off the event loop."""
    game = stored.game
    try:
        rules = Rules.from_dict(game.rules)
    except InvalidRulesError as exc:
        raise CorruptGame(game.game_id, f"stored rules are invalid: {exc}") from exc
    seats = tuple(
        SeatState(
            s.seat, s.display_name, user_id=s.user_id,
            ai_level=None if s.ai_level is None else ai_level_name(s.ai_level), timeouts=s.consecutive_timeouts,
        )
        for s in sorted(game.seats, key=lambda s: rules.seats.index(s.seat) if s.seat in rules.seats else 99)
    )
    state = GameState(
        game_id=game.game_id,
        place=Place(game.guild_id, game.channel_id, game.in_thread),
        host_id=game.host_id,
        variant=game.variant,
        rules=rules,
        ranked=game.ranked,
        turn_timer=game.turn_timer_seconds,
        status=game.status,
        seats=seats,
        message_id=game.message_id,
        seq=game.last_seq,
        deadline=game.turn_deadline,
        winner=game.winner,
        scores=game.scores,
        end_reason=game.end_reason,
        opened_at=game.created_at,
    )
    if game.status == "lobby" or game.first_team is None or game.pruned_at is not None:
        return state  # nothing to replay: not started, or its log was pruned (retention)
    return _rebuild(state, stored)


def _rebuild(state: GameState, stored: GameLog) -> GameState:
    game = stored.game
    sticks = state.rules.sticks
    try:
        rounds = tuple((Throw.from_code(a, sticks), Throw.from_code(b, sticks)) for a, b in _throw_off(game))
        pos = Position.start(state.rules, game.first_team or "A")
        at_snapshot = pos if game.snapshot_seq == 0 else None
        record: list[ThrowEvent | MoveEvent] = []
        turn_throws: tuple[Throw, ...] = ()
        taken_over: set[str] = set()
        for event in stored.events:
            if event.kind == "throw":
                throws = tuple(Throw.from_code(code, sticks) for code in _field(game, event, "faces", list))
                pos = pos.throw(list(throws))
                record.append(ThrowEvent(throws))
                turn_throws = throws
            elif event.kind == "move":
                move = Move.parse(_field(game, event, "move", str))
                pos = pos.play(move)
                record.append(MoveEvent(move))
            elif event.kind == "ai_takeover":
                taken_over.add(_field(game, event, "seat", str))
            if event.seq <= game.snapshot_seq:
                at_snapshot = pos
    except PulucError as exc:  # the engine refuses what was stored: a throw, a move, who went first
        raise CorruptGame(game.game_id, f"the event log does not replay: {exc}") from exc
    if game.snapshot_ppn is not None and at_snapshot is not None and at_snapshot.to_ppn() != game.snapshot_ppn:
        # The log wins; a snapshot that disagrees points at a bug (or an engine change) worth hearing about.
        log.warning("game %d: the log replays to %s at event %d but the snapshot says %s", game.game_id,
                    at_snapshot.to_ppn(), game.snapshot_seq, game.snapshot_ppn)
    seats = tuple(replace(s, taken_over=s.seat in taken_over) for s in state.seats)
    return replace(state, seats=seats, seed=game.seed, first=game.first_team, throw_off=rounds, position=pos,
                   record=tuple(record), turn_throws=turn_throws)


def _field(game: Game, event: Event, key: str, kind: type[T]) -> T:
    """`event.payload[key]`, which must be a `kind`; a payload without it is a corrupt log, not a bug."""
    value = event.payload.get(key)
    if not isinstance(value, kind):
        raise CorruptGame(game.game_id, f"event {event.seq} ({event.kind}) has no {key} {kind.__name__}")
    return value


def _throw_off(game: Game) -> list[list[str]]:
    rounds = game.throw_off or []
    if not all(isinstance(pair, list) and len(pair) == 2 and all(isinstance(c, str) for c in pair) for pair in rounds):
        raise CorruptGame(game.game_id, f"the stored throw-off is not pairs of face codes: {rounds!r}")
    return rounds


async def read_game(records: GameRecords, game_id: int) -> GameState:
    """A stored game (any status), replayed in a worker thread. The storage layer's GameNotFound when there
    is no such game; CorruptGame when its log does not replay."""
    return await asyncio.to_thread(state_from_log, await records.game_log(game_id))


def _rebuild_all(logs: tuple[GameLog, ...]) -> tuple[list[GameState], list[CorruptGame]]:
    states: list[GameState] = []
    corrupt: list[CorruptGame] = []
    for stored in logs:
        try:
            states.append(state_from_log(stored))
        except CorruptGame as exc:  # one bad game must not keep the others from loading
            corrupt.append(exc)
    return states, corrupt


async def read_open_games(
    records: GameRecords, shards: Shards | None = None
) -> AsyncIterator[tuple[list[GameState], list[CorruptGame]]]:
    """The open games (lobbies and running games) of servers on `shards` (None: every server), a batch at a
    time as the storage reads them, each batch replayed in a worker thread: the games and those that failed."""
    async for logs in records.open_game_batches(shards):
        yield await asyncio.to_thread(_rebuild_all, logs)
