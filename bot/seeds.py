"""The random generators of a game: each is seeded by the game's seed and an event number.

A game replays exactly from its seed, and no random state has to survive a restart: the throw recorded as
event `seq` comes from `throw_rng(seed, seq)`, and the AI's choice after event `seq` (a move, a hint, the "who
is ahead" bar, a chart point) from `ai_rng(seed, seq)`. Its own module, importing nothing but `random`, so
that the compute workers (bot.ui.pictures) seed the AI as the sessions do without loading the sessions.
"""

from __future__ import annotations

import random


def throw_rng(seed: int, seq: int) -> random.Random:
    """The generator for the throw recorded as event `seq` of the game with this seed."""
    return random.Random(f"puluc-throw:{seed}:{seq}")


def ai_rng(seed: int, seq: int) -> random.Random:
    """The generator the AI uses when it chooses a move after event `seq`."""
    return random.Random(f"puluc-ai:{seed}:{seq}")
