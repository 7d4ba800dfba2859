"""A finished game's replay as Discord attachments: the animated board (GIF) and the game's record (JSON), for
`/puluc replay` and the Replay button alike.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import discord

from bot.cogs.games.boards import board_texts, seat_names
from bot.cogs.games.texts import variant_label
from bot.compute import ComputePool
from bot.limits import REPLAY, Cache
from bot.sessions import GameState
from bot.ui.i18n import t
from bot.ui.pictures import replay_files

REPLAY_THEME = "dark"


@dataclass(frozen=True)
class Replay:
    """The replay's answer: its sentence and its files (the GIF left out when it is too large to upload)."""

    text: str
    files: list[discord.File]


ReplayCache = Cache[tuple[int, str, tuple[str, ...]], tuple[bytes, str]]


async def replay_of(state: GameState, lang: str, filesize_limit: int, compute: ComputePool,
                    cache: ReplayCache | None = None) -> Replay:
    """The replay of a finished game, captioned in `lang` and fitted to what the channel accepts
    (`interaction.filesize_limit`), drawn in the replay lane of `compute`'s workers, or taken from `cache`
    (a finished game never changes: the same game, language and names give the same files)."""
    # The names are the stored ones: a player who asked to be forgotten is already a former player there. The
    # worker gets the record and the words, not the session's state: it loads nothing of the bot but pictures.
    names = seat_names(state, lang)
    kept_as = (state.game_id, lang, tuple(f"{seat}={name}" for seat, name in sorted(names.items())))
    found = cache.get(kept_as) if cache is not None and state.status == "finished" else None
    if found is None:
        found = await compute.run_in(REPLAY.lane.name, replay_files, state.game_record(), REPLAY_THEME, names,
                                     board_texts(lang))
        if cache is not None and state.status == "finished":
            cache.put(kept_as, found)
    gif, record_json = found
    game_id = state.game_id
    files = [discord.File(io.BytesIO(record_json.encode()), filename=f"puluc-{game_id}.json")]
    key = "ladder.replay.done"
    if len(gif) + len(record_json) <= filesize_limit:
        files.insert(0, discord.File(io.BytesIO(gif), filename=f"puluc-{game_id}.gif"))
    else:
        key = "ladder.replay.too_big"
    return Replay(t(key, lang, game_id=game_id, variant=variant_label(state.variant, lang)), files)
