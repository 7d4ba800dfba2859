"""What the ladder and player commands show: store values turned into translated embeds and lines.

Pure functions from `bot.storage.types` values (leaderboard pages, profiles, game summaries, personal data)
to `discord.Embed`s and strings in one language. Player names are user text: they appear only in embeds
and message text, escaped so they cannot format or break the layout, and never in images. No I/O, no
rendering, no SQL; every user-visible word comes from the catalogues through `bot.ui.i18n.t`.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

import discord

from bot.cogs.games.calls import mode_name
from bot.cogs.games.texts import variant_label
from bot.ratings import PROVISIONAL_GAMES
from bot.ratings.seasons import SeasonEntry, SeasonPage
from bot.sessions.state import ai_level_of
from bot.storage.types import (
    FORGOTTEN_NAME,
    GLOBAL_SCOPE,
    GameSummary,
    LeaderboardPage,
    PersonalData,
    Profile,
    RatingPoint,
    Standing,
)
from bot.ui.commands import Mention
from bot.ui.i18n import t
from bot.ui.safe import plain

COLOUR_LADDER = discord.Colour(0xC9A227)
COLOUR_PROFILE = discord.Colour(0x2E7D5B)
COLOUR_PRIVACY = discord.Colour(0x4A6FA5)
CHART_FILE = "rating.png"
MAX_NAME = 32  # a name longer than this is cut, so one player cannot push others off a line
PRIVACY_SECTIONS = ("players", "games", "ratings", "calls", "kept")  # what /puluc privacy explains, in order


# --- names and labels ----------------------------------------------------------------------------------


def player_name(name: str, lang: str) -> str:
    """A stored display name as embed text: the forgotten label and AI seats translated, markdown escaped,
    length capped."""
    if name == FORGOTTEN_NAME:
        return t("profile.forgotten", lang)
    level = ai_level_of(name)
    if level is not None:
        return t("seat.ai", lang, level=t(f"choice.difficulty.{level}", lang))
    shown = name if len(name) <= MAX_NAME else name[: MAX_NAME - 1] + "…"
    return plain(shown)


def ladder_label(ladder: str, lang: str) -> str:
    return t(f"choice.ladder.{ladder}", lang)


def scope_label(scope: int, lang: str) -> str:
    return t("choice.scope.global" if scope == GLOBAL_SCOPE else "choice.scope.server", lang)


def percent(rate: float) -> int:
    return round(rate * 100)


def when(timestamp: float | None) -> str:
    """A Discord timestamp: every reader's client shows it in their own language and time zone."""
    return f"<t:{int(timestamp)}:R>" if timestamp is not None else "-"


# --- leaderboard ---------------------------------------------------------------------------------------


def _entry(standing: Standing, lang: str) -> str:
    return t(
        "ladder.entry", lang, rank=standing.rank, name=player_name(standing.display_name, lang),
        rating=standing.rating, games=t("ladder.games", lang, count=standing.games),
        rate=t("ladder.win_rate", lang, rate=percent(standing.win_rate)),
    )


def caller_line(standing: Standing | None, lang: str) -> str:
    """Where the caller stands, whether or not they are on the page shown."""
    if standing is None:
        return t("ladder.you_none", lang)
    if standing.provisional and standing.games >= PROVISIONAL_GAMES:  # away so long it is uncertain again
        return t("ladder.you_absent", lang, rating=standing.rating)
    if standing.provisional:
        return t("ladder.you_provisional", lang, rating=standing.rating, count=standing.games,
                 needed=PROVISIONAL_GAMES)
    if not standing.active or standing.rank is None:
        return t("ladder.you_inactive", lang, rating=standing.rating)
    return t(
        "ladder.you_ranked", lang, rank=standing.rank, rating=standing.rating,
        games=t("ladder.games", lang, count=standing.games),
        rate=t("ladder.win_rate", lang, rate=percent(standing.win_rate)),
    )


def leaderboard_embed(page: LeaderboardPage, lang: str, caller_id: int) -> discord.Embed:
    """One page of the ladder: rank, name, rating, games and win rate, and the caller's own place."""
    embed = discord.Embed(
        title=t("ladder.title", lang, ladder=ladder_label(page.ladder, lang), scope=scope_label(page.scope, lang)),
        colour=COLOUR_LADDER,
    )
    lines = []
    for standing in page.entries:
        line = _entry(standing, lang)
        lines.append(t("ladder.entry_you", lang, entry=line) if standing.user_id == caller_id else line)
    embed.description = "\n".join(lines) if lines else t("ladder.empty", lang, count=PROVISIONAL_GAMES)
    embed.add_field(name=t("ladder.you", lang), value=caller_line(page.caller, lang), inline=False)
    embed.set_footer(text=t("ladder.footer", lang, page=page.page + 1, count=PROVISIONAL_GAMES))
    return embed


# --- profile -------------------------------------------------------------------------------------------


def _standing_text(standing: Standing, lang: str) -> str:
    if standing.provisional and standing.games >= PROVISIONAL_GAMES:  # away so long it is uncertain again
        rating = t("profile.rating_absent", lang, rating=standing.rating)
    elif standing.provisional:
        rating = t("profile.rating_provisional", lang, rating=standing.rating, count=standing.games,
                   needed=PROVISIONAL_GAMES)
    elif standing.rank is None:
        rating = t("profile.rating_inactive", lang, rating=standing.rating)
    else:
        rating = t("profile.rating_ranked", lang, rating=standing.rating, rank=standing.rank)
    record = t(
        "profile.record", lang, games=t("profile.games", lang, count=standing.games),
        wins=t("profile.wins", lang, count=standing.wins), draws=t("profile.draws", lang, count=standing.draws),
        losses=t("profile.losses", lang, count=standing.losses),
    )
    return f"{rating}\n{record}"


def chart_ladder(profile: Profile) -> str | None:
    """The ladder the rating chart shows: the global one the player has played most (None: no ratings)."""
    global_standings = [s for s in profile.standings if s.scope == GLOBAL_SCOPE]
    if not global_standings:
        return None
    return max(global_standings, key=lambda s: s.games).ladder


def chart_series(points: Sequence[RatingPoint]) -> list[tuple[object, float]]:
    """The renderer's rating series: (Unix time, rating) after each ranked game, oldest first."""
    return [(point.played_at, float(point.rating)) for point in points]


def profile_embed(profile: Profile, lang: str, *, chart: str | None) -> discord.Embed:
    """Ratings per ladder with rank and record, kills, best win, streak and favourite variant.

    `chart` names the ladder of the attached rating chart (`CHART_FILE`), or None when there is none.
    """
    embed = discord.Embed(title=t("profile.title", lang, name=player_name(profile.display_name, lang)),
                          colour=COLOUR_PROFILE)
    if not profile.standings:
        embed.description = t("profile.no_ratings", lang)
    for standing in profile.standings:
        embed.add_field(
            name=t("profile.ladder", lang, ladder=ladder_label(standing.ladder, lang),
                   scope=scope_label(standing.scope, lang)),
            value=_standing_text(standing, lang), inline=True,
        )
    embed.add_field(
        name=t("profile.overall", lang),
        value=t("profile.overall_value", lang, finished=t("profile.finished", lang, count=profile.finished_games),
                kills=t("profile.kills", lang, count=profile.kills)),
        inline=False,
    )
    best = [
        t("profile.best_win_line", lang, ladder=ladder_label(ladder, lang), game_id=win.game_id,
          rating=win.opponent_rating)
        for ladder, win in profile.best_wins.items()
    ]
    embed.add_field(name=t("profile.best_win", lang), value="\n".join(best) or t("profile.no_win", lang), inline=True)
    streak = profile.streak
    run = t(f"profile.streak_{streak.result}", lang, count=streak.length) if streak else t("profile.no_streak", lang)
    embed.add_field(name=t("profile.streak", lang), value=run, inline=True)
    favourite = profile.favourite_variant
    embed.add_field(name=t("profile.favourite", lang),
                    value=variant_label(favourite, lang) if favourite else "-", inline=True)
    if profile.seasons:
        placed = [t("profile.season_line", lang, rank=p.rank, players=p.players, ladder=ladder_label(p.ladder, lang),
                    season=p.season) for p in profile.seasons]
        embed.add_field(name=t("profile.seasons", lang), value="\n".join(placed), inline=False)
    if chart is not None:
        embed.set_image(url=f"attachment://{CHART_FILE}")
        embed.set_footer(text=t("profile.chart", lang, ladder=ladder_label(chart, lang)))
    return embed


# --- history -------------------------------------------------------------------------------------------


def _names(names: Sequence[str], lang: str) -> str:
    return ", ".join(player_name(name, lang) for name in names) or "-"


def history_line(game: GameSummary, lang: str) -> str:
    """One game: its number, variant, result, opponents (and teammates, in a team game), mode and when."""
    values = {
        "game_id": game.game_id, "variant": variant_label(game.variant, lang),
        "result": t(f"profile.history.{game.result or 'cancelled'}", lang), "opponents": _names(game.opponents, lang),
        "mode": t("profile.history.ranked" if game.ranked else "profile.history.casual", lang),
        "when": when(game.finished_at),
    }
    if game.teammates:
        return t("profile.history.line_team", lang, names=_names(game.teammates, lang), **values)
    return t("profile.history.line", lang, **values)


def history_embed(name: str, games: Sequence[GameSummary], lang: str, mention: Mention) -> discord.Embed:
    """A player's last games, a line each, and the command that plays one again (a mention: the embed is public,
    and each reader's client names the command in its own language)."""
    embed = discord.Embed(title=t("profile.history.title", lang, name=player_name(name, lang)),
                          colour=COLOUR_PROFILE)
    if games:
        replay = t("profile.history.replay", lang, replay=mention("puluc replay"))
        lines = "\n".join(history_line(game, lang) for game in games)[: 4096 - len(replay) - 2]
        embed.description = f"{lines}\n\n{replay}"
    else:
        embed.description = t("profile.history.empty", lang)
    return embed


# --- privacy -------------------------------------------------------------------------------------------


def privacy_embed(data: PersonalData, lang: str, retention_days: int = 0) -> discord.Embed:
    """What the bot stores and why, how long finished games are kept (`retention_days`, 0: for ever), then
    what it holds about this user, then how to erase it."""
    embed = discord.Embed(title=t("privacy.title", lang), description=t("privacy.intro", lang),
                          colour=COLOUR_PRIVACY)
    for section in PRIVACY_SECTIONS:
        embed.add_field(name=t(f"privacy.{section}.title", lang), value=t(f"privacy.{section}.body", lang),
                        inline=False)
    kept = t("retention.days", lang, count=retention_days) if retention_days else t("retention.keep", lang)
    embed.add_field(name=t("retention.title", lang), value=kept, inline=False)
    if data.display_name is None and data.seats == 0 and data.ratings == 0 and data.notify_mode is None:
        yours = t("privacy.yours_nothing", lang)
    else:
        lines = []
        if data.display_name is not None:
            lines.append(t("privacy.yours_name", lang, name=player_name(data.display_name, lang)))
        if data.last_active is not None:
            lines.append(t("privacy.yours_active", lang, when=when(data.last_active)))
        lines += [
            t("privacy.count_seats", lang, count=data.seats),
            t("privacy.count_hosted", lang, count=data.hosted_games),
            t("privacy.count_ratings", lang, count=data.ratings),
            t("privacy.count_history", lang, count=data.rating_history),
            t("privacy.notify.mode", lang, mode=mode_name(data.notify_mode, lang)),
        ]
        yours = "\n".join(lines)
    embed.add_field(name=t("privacy.yours", lang), value=yours, inline=False)
    embed.set_footer(text=t("privacy.footer", lang))
    return embed


def _season_entry(entry: SeasonEntry, lang: str) -> str:
    return t("season.entry", lang, rank=entry.rank, name=player_name(entry.display_name, lang), rating=entry.rating,
             games=t("ladder.games", lang, count=entry.games))


def season_embed(page: SeasonPage, lang: str, caller_id: int) -> discord.Embed:
    """One page of a closed season's final leaderboard, and the caller's own line in it."""
    embed = discord.Embed(title=t("season.title", lang, ladder=ladder_label(page.ladder, lang),
                                  season=page.season.number), colour=COLOUR_LADDER)
    lines = []
    for entry in page.entries:
        line = _season_entry(entry, lang)
        lines.append(t("ladder.entry_you", lang, entry=line) if entry.user_id == caller_id else line)
    embed.description = "\n".join(lines) if lines else t("season.empty", lang, season=page.season.number)
    mine = page.caller
    embed.add_field(name=t("ladder.you", lang),
                    value=_season_entry(mine, lang) if mine is not None else t("season.you_none", lang), inline=False)
    embed.set_footer(text=t("season.footer", lang, season=page.season.number, page=page.page + 1))
    embed.timestamp = datetime.fromtimestamp(page.season.ended_at, UTC)  # when it ended, in the reader's zone
    return embed
