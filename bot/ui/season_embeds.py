"""What the season commands show: an archived leaderboard, and the closing of a season.

Pure functions from `bot.storage.season_types` values to translated embeds and lines; no I/O. Every word comes
from the catalogues through `bot.ui.i18n.t`.
"""

from __future__ import annotations

from datetime import UTC, datetime

import discord

from bot.storage.season_types import Season, SeasonEntry, SeasonPage
from bot.ui.i18n import t
from bot.ui.ladder_embeds import COLOUR_LADDER, ladder_label, player_name

MEDALS = ("🥇", "🥈", "🥉")


def _entry(entry: SeasonEntry, lang: str) -> str:
    return t("season.entry", lang, rank=entry.rank, name=player_name(entry.display_name, lang), rating=entry.rating,
             games=t("ladder.games", lang, count=entry.games))


def season_embed(page: SeasonPage, lang: str, caller_id: int) -> discord.Embed:
    """One page of a closed season's final leaderboard, and the caller's own line in it."""
    embed = discord.Embed(title=t("season.title", lang, ladder=ladder_label(page.ladder, lang),
                                  season=page.season.number), colour=COLOUR_LADDER)
    lines = []
    for entry in page.entries:
        line = _entry(entry, lang)
        lines.append(t("ladder.entry_you", lang, entry=line) if entry.user_id == caller_id else line)
    embed.description = "\n".join(lines) if lines else t("season.empty", lang, season=page.season.number)
    mine = page.caller
    embed.add_field(name=t("ladder.you", lang),
                    value=_entry(mine, lang) if mine is not None else t("season.you_none", lang), inline=False)
    embed.set_footer(text=t("season.footer", lang, season=page.season.number, page=page.page + 1))
    embed.timestamp = datetime.fromtimestamp(page.season.ended_at, UTC)  # when it ended, in the reader's zone
    return embed


def podium(page: SeasonPage, lang: str) -> str:
    """The top three of a closed season's ladder in one line, or None said so."""
    top = [f"{medal} {player_name(e.display_name, lang)}" for medal, e in zip(MEDALS, page.entries, strict=False)]
    return t("season.podium", lang, ladder=ladder_label(page.ladder, lang),
             names=" · ".join(top) if top else t("season.nobody", lang))


def started_text(closed: Season, podiums: list[str], lang: str) -> str:
    """What the channel is told when a server's season closes."""
    return "\n".join([t("season.started", lang, season=closed.number, next=closed.number + 1), *podiums])
