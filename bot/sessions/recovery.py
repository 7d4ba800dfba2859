"""Start-up recovery: turn stored game logs back into puluc records and positions, and check snapshots.

A running game is rebuilt from its event log (the truth); the stored position snapshot must equal the
replay at the snapshot's event number, otherwise the game is reported, not silently trusted. Event payloads
of kind 'throw' and 'move' are exactly the record's event objects ({"throw": [3], "faces": ["1110"]},
{"move": "3:H"}). This module must never run SQL (it reads `GameRepository.open_games()`) nor import discord.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from bot.storage.protocol import GameRepository
from bot.storage.types import GameLog
from puluc import GameRecord, InvalidRecordError, Position

ENGINE_KINDS = ("throw", "move")  # the event kinds the engine replays; the rest are the bot's business


class SnapshotMismatch(ValueError):
    """The stored snapshot differs from the replay of the log: the log wins, and the game is flagged."""


@dataclass(frozen=True, slots=True)
class RebuiltGame:
    log: GameLog
    record: GameRecord
    position: Position  # after every event of the log


def record_of(log: GameLog) -> GameRecord:
    """The game's puluc record (also what the replay command exports); InvalidRecordError if it does not
    replay (its `event` counts only the engine's events, throws and moves)."""
    game = log.game
    if game.first_team is None:
        raise ValueError(f"game {game.game_id} has not started, so it has no record yet")
    data: dict[str, Any] = {
        "format": "puluc-record",
        "version": 1,
        "rules": game.rules,
        "first": game.first_team,
        "seats": {s.seat: s.display_name for s in game.seats},
        "events": [e.payload for e in log.events if e.kind in ENGINE_KINDS],
    }
    if game.seed is not None:
        data["seed"] = game.seed
    if game.throw_off:
        data["throw_off"] = game.throw_off
    return GameRecord.from_dict(data)


def rebuild(log: GameLog) -> RebuiltGame:
    """Replay a started game's log and check the stored snapshot against the replay."""
    record = record_of(log)
    positions = list(record.positions())
    game = log.game
    if game.snapshot_ppn is not None:
        engine_events = sum(1 for e in log.events if e.kind in ENGINE_KINDS and e.seq <= game.snapshot_seq)
        replayed = positions[engine_events].to_ppn()
        if replayed != game.snapshot_ppn:
            raise SnapshotMismatch(
                f"game {game.game_id}: snapshot at event {game.snapshot_seq} is {game.snapshot_ppn!r} "
                f"but the log replays to {replayed!r}"
            )
    return RebuiltGame(log, record, positions[-1])


Failure = InvalidRecordError | SnapshotMismatch


def _rebuild_all(logs: tuple[GameLog, ...]) -> tuple[list[RebuiltGame], list[tuple[GameLog, Failure]]]:
    rebuilt: list[RebuiltGame] = []
    failed: list[tuple[GameLog, Failure]] = []
    for log in logs:
        if log.game.status != "running":
            continue
        try:
            rebuilt.append(rebuild(log))
        except (InvalidRecordError, SnapshotMismatch) as error:  # report it, keep the others
            failed.append((log, error))
    return rebuilt, failed


async def rebuild_running_games(store: GameRepository) -> tuple[list[RebuiltGame], list[tuple[GameLog, Failure]]]:
    """Every running game rebuilt (replays run in a worker thread), and those that failed with why."""
    logs = await store.open_games()
    return await asyncio.to_thread(_rebuild_all, logs)
