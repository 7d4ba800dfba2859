"""Games played at random for the benchmarks that fill a database with running games (`startup.py`,
`storage.py`): real throws and moves, logged as the bot stores them."""

from __future__ import annotations

import random
from typing import Any

from puluc import Game


def running_log(game: Game, rng: random.Random) -> list[tuple[str, dict[str, Any]]] | None:
    """Play `game` at random for 20 to 60 events, on until it waits for a move; its log as the bot stores it
    (kind, payload), or None when the game ended on the way (only games still being played are wanted)."""
    log: list[tuple[str, dict[str, Any]]] = []
    target = rng.randint(20, 60)
    while game.outcome() is None and (len(log) < target or game.position.must_throw):
        if game.position.must_throw:
            seat = game.position.to_move
            throws = game.roll(rng)
            log.append(("throw", {"seat": seat, "faces": [t.code for t in throws],
                                  "values": [t.value for t in throws]}))
        else:
            move = rng.choice(game.position.legal_moves())
            game.play(move)
            log.append(("move", {"move": str(move)}))
    return None if game.outcome() is not None else log
