"""The custom_id of every game message's button and menu, `puluc:<kind>:<game_id>:<turn>:<arg>`: all a component
needs, so buttons keep working after a restart (`turn` makes a button of an earlier position stale).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# kind -> what its arg holds
LOBBY_KINDS = ("join", "addai", "leave", "start", "cancel", "balance")
CHALLENGE_KINDS = ("accept", "decline")
PLAY_KINDS = ("move", "pick", "resign", "confirm", "launch")  # launch: open the Activity
END_KINDS = ("rematch", "replay")
KINDS = LOBBY_KINDS + CHALLENGE_KINDS + PLAY_KINDS + END_KINDS

NO_ARG = "-"
MAX_CUSTOM_ID = 100



def pattern(kinds: tuple[str, ...]) -> str:
    """The regular expression of the custom_ids of these kinds (a DynamicItem template)."""
    return (
        r"puluc:(?P<kind>" + "|".join(kinds) + r"):(?P<game_id>[0-9]{1,20}):(?P<turn>[0-9]{1,10})"
        r":(?P<arg>[A-Za-z0-9:_-]{1,24})"
    )


SELECT_KINDS = ("pick",)
BUTTON_KINDS = tuple(kind for kind in KINDS if kind not in SELECT_KINDS)
_COMPILED = re.compile(pattern(KINDS))


@dataclass(frozen=True, slots=True)
class ComponentId:
    """A parsed custom_id."""

    kind: str
    game_id: int
    turn: int
    arg: str = NO_ARG

    def __str__(self) -> str:
        text = f"puluc:{self.kind}:{self.game_id}:{self.turn}:{self.arg}"
        if self.kind not in KINDS or not _COMPILED.fullmatch(text) or len(text) > MAX_CUSTOM_ID:
            raise ValueError(f"not a valid component id: {text!r}")
        return text

    @classmethod
    def parse(cls, text: str) -> ComponentId:
        match = _COMPILED.fullmatch(text)
        if match is None:
            raise ValueError(f"not a Puluc component id: {text!r}")
        return cls.from_match(match)

    @classmethod
    def from_match(cls, match: re.Match[str]) -> ComponentId:
        return cls(match["kind"], int(match["game_id"]), int(match["turn"]), match["arg"])
