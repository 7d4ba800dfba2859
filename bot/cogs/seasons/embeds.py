"""What the season commands show: the closing of a season and its podiums.

Pure functions from `bot.ratings.seasons` values to translated embeds and lines; no I/O. Every word comes
from the catalogues through `bot.ui.i18n.t`.
"""

from __future__ import annotations

from bot.cogs.ladders.embeds import ladder_label, player_name
from bot.ratings.seasons import Season, SeasonPage
from bot.ui.commands import Mention
from bot.ui.i18n import t

MEDALS = ("🥇", "🥈", "🥉")


def podium(page: SeasonPage, lang: str) -> str:
    """The top three of a closed season's ladder in one line, or None said so."""
    top = [f"{medal} {player_name(e.display_name, lang)}" for medal, e in zip(MEDALS, page.entries, strict=False)]
    return t("season.podium", lang, ladder=ladder_label(page.ladder, lang),
             names=" · ".join(top) if top else t("season.nobody", lang))


def started_text(closed: Season, podiums: list[str], lang: str, mention: Mention) -> str:
    """What the channel is told when a server's season closes (with the command that shows the old season)."""
    started = t("season.started", lang, season=closed.number, next=closed.number + 1,
                leaderboard=mention("puluc leaderboard"))
    return "\n".join([started, *podiums])
