"""Saving a game action, in the players' terms: what the storage layer's refusals and outages mean for the
action, and whether a save that failed without an answer was stored after all.

A database can fail after it committed (the connection lost while COMMIT's answer was on its way): the
player would be told "not played" about a move that is in the log, and every later move would collide
with it. `landed` reads the log back to tell.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from contextlib import contextmanager

from bot.sessions.errors import GameNotOpen, GameOver, NotSaved, StaleAction
from bot.sessions.ports import GameRecords
from bot.storage.errors import DuplicateEvent, EventGap, GameStateError, ShardNotHeld, StorageUnavailable
from bot.storage.types import NewEvent


@contextmanager
def storage_errors(not_saved: type[NotSaved] = NotSaved) -> Iterator[None]:
    """The store's refusals, in the players' terms: somebody acted first, the game already ended (or belongs
    to another bot process), or the database could not save it now (`not_saved`, which names what was not
    done)."""
    try:
        yield
    except (DuplicateEvent, EventGap) as exc:
        raise StaleAction(str(exc)) from exc
    except GameStateError as exc:
        raise GameOver(str(exc)) from exc
    except ShardNotHeld as exc:  # another bot process owns the game (its server's shard): not ours to play
        raise GameNotOpen(str(exc)) from exc
    except StorageUnavailable as exc:
        raise not_saved(str(exc), reason=exc.reason) from exc


class Landed(enum.Enum):
    YES = "stored"  # exactly these events follow in the log
    NO = "not stored"  # the log ends where it did before the save
    UNKNOWN = "unknown"  # the log cannot be read now, or it moved on some other way


async def landed(records: GameRecords, game_id: int, first_seq: int, events: list[NewEvent], *,
                 finished: bool) -> Landed:
    """Whether `events`, saved from `first_seq` on (finishing the game when `finished`), are in the log."""
    try:
        stored = await records.game_log(game_id)
    except StorageUnavailable:
        return Landed.UNKNOWN
    tail = [(e.kind, e.payload) for e in stored.events if e.seq >= first_seq]
    if tail == [(e.kind, e.payload) for e in events] and (stored.game.status == "finished") == finished:
        return Landed.YES
    if not tail and stored.game.status != "finished":
        return Landed.NO
    return Landed.UNKNOWN
