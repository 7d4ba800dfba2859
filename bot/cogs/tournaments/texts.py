"""What tournament messages say: the announcement card, a round's pairings, results, standings and the end.

Pure functions from tournament values to translated embeds and lines; no I/O, no decisions (the session
layer makes them). Every user-visible word comes from the catalogues through `bot.ui.i18n.t`.
"""

from __future__ import annotations

import discord

from bot.cogs.games.texts import duration, variant_title
from bot.tournaments.elimination import advancer
from bot.tournaments.standings import bracket_places, seeds, table
from bot.tournaments.types import Match, Tournament
from bot.ui.commands import Mention
from bot.ui.i18n import t
from bot.ui.numbers import decimal
from bot.ui.safe import in_code, plain

COLOUR_TOURNAMENT = discord.Colour(0xB8860B)
MAX_LINES = 40  # lines of pairings or results in one message; the rest are counted
TABLE_COLUMNS = ("player", "points", "buchholz", "sonneborn", "record")  # tournament.standings.col_<name>
TABLE_FORMATS = ("round_robin", "swiss")  # the formats shown as a table, each with its tie-breaks explained
NAME_WIDTH = 16  # characters of a name in a standings table


def name_of(tournament: Tournament, number: int) -> str:
    """An entrant's name as a message shows it: plain text (no mention, link or markdown)."""
    return plain(tournament.entrant(number).display_name)


def title_of(tournament: Tournament) -> str:
    """The tournament's name as a message shows it: plain text (its organiser typed it)."""
    return plain(tournament.settings.name)


def percent(chance: float) -> str:
    return f"{round(chance * 100):d}"


def summary(tournament: Tournament, lang: str) -> str:
    """"Swiss · Bell · ranked · rounds of 24 hours"."""
    settings = tournament.settings
    return t("tournament.card.format", lang, format=t(f"tournament.format.{settings.format}", lang),
             variant=variant_title(settings.variant, lang),
             mode=t("tournament.card.ranked" if settings.ranked else "tournament.card.casual", lang),
             limit=duration(settings.round_seconds, lang))


def card_embed(tournament: Tournament, lang: str, mention: Mention) -> discord.Embed:
    """The announcement: what it is, where it stands, who plays, and the command that shows the standings."""
    embed = discord.Embed(title=t("tournament.card.title", lang, name=title_of(tournament)),
                          colour=COLOUR_TOURNAMENT)
    lines = [summary(tournament, lang)]
    if tournament.status == "open":
        organiser = f"<@{tournament.creator_id}>" if tournament.creator_id else "?"
        lines.append(t("tournament.card.open", lang, organiser=organiser))
    elif tournament.status == "running":
        lines.append(t("tournament.card.round", lang, round=tournament.round, rounds=tournament.rounds or 0,
                       when=f"<t:{int(tournament.round_deadline or 0)}:R>"))
    elif tournament.status == "finished":
        lines.append(t("tournament.card.finished", lang, winner=_winner_name(tournament)))
    else:
        lines.append(t("tournament.card.cancelled", lang))
    lines.append(t("tournament.card.standings", lang, standings=mention("puluc tournament standings")))
    embed.description = "\n".join(lines)
    entrants = sorted(tournament.entrants, key=lambda e: (e.seed or e.number))
    names = [f"{e.seed}. {plain(e.display_name)} ({e.rating})" if e.seed is not None else plain(e.display_name)
             for e in entrants]
    shown = "\n".join(names)
    if len(shown) > 1000:
        shown = shown[:1000].rsplit("\n", 1)[0] + "\n…"
    embed.add_field(name=t("tournament.card.players", lang, count=len(entrants)), value=shown or "—", inline=False)
    embed.set_footer(text=t("tournament.card.footer", lang, tournament_id=tournament.tournament_id))
    return embed


def _winner_name(tournament: Tournament) -> str:
    if tournament.settings.format == "single_elimination":
        return name_of(tournament, bracket_places(tournament)[0][1])
    return name_of(tournament, table(tournament)[0].entrant)


def result_line(tournament: Tournament, match: Match, lang: str) -> str:
    """One decided match in a few words: "alice beat bob", "carol: bye", "dave and eve: neither started"."""
    a = name_of(tournament, match.a)
    if match.b is None:
        return t("tournament.result.bye", lang, player=a)
    b = name_of(tournament, match.b)
    if match.outcome is None:
        return t("tournament.result.pending", lang, a=a, b=b)
    winner = match.winner()
    if match.decided_by == "adjudication":
        if winner is None:
            line = t("tournament.result.adjudicated_even", lang, a=a, b=b)
        else:
            loser = b if winner == match.a else a
            chance_a = match.chance_a if match.chance_a is not None else 0.5
            line = t("tournament.result.adjudicated", lang, winner=name_of(tournament, winner), loser=loser,
                     chance=percent(chance_a if winner == match.a else 1 - chance_a))
    elif match.outcome == "none":
        line = t("tournament.result.forfeit", lang, a=a, b=b)
    elif winner is None:
        line = t("tournament.result.draw", lang, a=a, b=b)
    else:
        line = t("tournament.result.won", lang, winner=name_of(tournament, winner), loser=b if winner == match.a else a)
    if tournament.settings.format == "single_elimination" and match.decided and winner is None:
        through = advancer(match, seeds(tournament))
        line = t("tournament.result.seed_through", lang, result=line, player=name_of(tournament, through))
    return line


def decision_text(tournament: Tournament, match: Match, lang: str) -> str | None:
    """What the match's room is told when the round's time limit decided it (None for other results)."""
    if match.b is None or match.decided_by not in ("forfeit", "adjudication"):
        return None
    a, b = name_of(tournament, match.a), name_of(tournament, match.b)
    if match.decided_by == "forfeit":
        text = t("tournament.decided.forfeit", lang, a=a, b=b)
    else:
        chance = match.chance_a if match.chance_a is not None else 0.5
        winner = match.winner()
        if winner is None:
            text = t("tournament.decided.adjudicated_even", lang, a=a, chance=percent(chance))
        else:
            text = t("tournament.decided.adjudicated", lang, a=a, chance=percent(chance),
                     winner=name_of(tournament, winner))
    if tournament.settings.format == "single_elimination" and match.winner() is None:
        text = t("tournament.decided.seed_through", lang, decision=text,
                 player=name_of(tournament, advancer(match, seeds(tournament))))
    return text


def _capped(lines: list[str], lang: str) -> list[str]:
    if len(lines) <= MAX_LINES:
        return lines
    return [*lines[:MAX_LINES], t("tournament.more", lang, count=len(lines) - MAX_LINES)]


def round_embed(tournament: Tournament, round_no: int, lang: str) -> discord.Embed:
    """A new round: the last round's results, then who plays whom and where."""
    embed = discord.Embed(title=t("tournament.round.title", lang, name=title_of(tournament), round=round_no,
                                  rounds=tournament.rounds or 0), colour=COLOUR_TOURNAMENT)
    lines: list[str] = []
    pairings = []
    for match in tournament.round_matches(round_no):
        if match.b is None:
            pairings.append(t("tournament.result.bye", lang, player=name_of(tournament, match.a)))
        else:
            where = f"<#{match.thread_id}>" if match.thread_id else t("tournament.round.no_room", lang)
            pairings.append(t("tournament.round.match", lang, a=name_of(tournament, match.a),
                              b=name_of(tournament, match.b), room=where))
    lines += _capped(pairings, lang)
    if tournament.round_deadline is not None and round_no == tournament.round:
        lines.append(t("tournament.round.ends", lang, when=f"<t:{int(tournament.round_deadline)}:R>"))
    embed.description = "\n".join(lines)[:4000]
    if round_no > 1:
        results = _capped([result_line(tournament, m, lang) for m in tournament.round_matches(round_no - 1)], lang)
        embed.add_field(name=t("tournament.round.results", lang, round=round_no - 1),
                        value="\n".join(results)[:1024], inline=False)
    return embed


def standings_embed(tournament: Tournament, lang: str) -> discord.Embed:
    """The table (round robin, Swiss) or the bracket (single elimination), as far as it has been played."""
    embed = discord.Embed(title=t("tournament.standings.title", lang, name=title_of(tournament)),
                          colour=COLOUR_TOURNAMENT)
    if tournament.status == "open":
        embed.description = t("tournament.standings.not_started", lang)
        return embed
    if tournament.settings.format == "single_elimination":
        embed.description = bracket_text(tournament, lang)
    else:
        embed.description = table_text(tournament, lang)
        embed.set_footer(text=t(f"tournament.standings.tiebreaks_{tournament.settings.format}", lang))
    embed.add_field(name=t("tournament.standings.progress", lang),
                    value=_progress(tournament, lang), inline=False)
    return embed


def _progress(tournament: Tournament, lang: str) -> str:
    if tournament.status == "finished":
        return t("tournament.card.finished", lang, winner=_winner_name(tournament))
    if tournament.status == "cancelled":
        return t("tournament.card.cancelled", lang)
    return t("tournament.card.round", lang, round=tournament.round, rounds=tournament.rounds or 0,
             when=f"<t:{int(tournament.round_deadline or 0)}:R>")


def table_text(tournament: Tournament, lang: str) -> str:
    """A fixed-width table in a code block: place, player, points, the format's tie-breaks, wins-draws-losses."""
    swiss = tournament.settings.format == "swiss"

    def col(name: str) -> str:
        return t(f"tournament.standings.col_{name}", lang)

    tiebreaks = f"{col('buchholz'):>5} {col('sonneborn'):>5}" if swiss else f"{col('sonneborn'):>5}"
    rows = [f"{'#':>3} {col('player'):<{NAME_WIDTH}} {col('points'):>4} {tiebreaks} {col('record'):>7}"]
    for row in table(tournament)[:MAX_LINES]:
        name = in_code(tournament.entrant(row.entrant).display_name)[:NAME_WIDTH]
        record = f"{row.wins}-{row.draws}-{row.losses}"
        sonneborn = f"{decimal(row.sonneborn_berger, lang, 2):>5}"
        extra = f"{decimal(row.buchholz, lang):>5} {sonneborn}" if swiss else sonneborn
        rows.append(f"{row.place:>3} {name:<{NAME_WIDTH}} {decimal(row.points, lang):>4} {extra} {record:>7}")
    if len(tournament.entrants) > MAX_LINES:
        rows.append(t("tournament.more", lang, count=len(tournament.entrants) - MAX_LINES))
    return "```\n" + "\n".join(rows)[:3900] + "\n```"


def bracket_text(tournament: Tournament, lang: str) -> str:
    """Round by round, each board with its result; who goes through in bold."""
    seed_of = seeds(tournament)
    blocks = []
    for round_no in range(1, tournament.round + 1):
        lines = [f"**{t('tournament.standings.round', lang, round=round_no)}**"]
        for match in tournament.round_matches(round_no):
            a = f"{name_of(tournament, match.a)} ({seed_of[match.a]})"
            if match.b is None:
                lines.append(t("tournament.result.bye", lang, player=f"**{a}**"))
                continue
            b = f"{name_of(tournament, match.b)} ({seed_of[match.b]})"
            if match.outcome is not None:
                through = advancer(match, seed_of)
                a, b = (f"**{a}**", b) if through == match.a else (a, f"**{b}**")
            lines.append(t("tournament.bracket.match", lang, a=a, b=b))
        blocks.append("\n".join(_capped(lines, lang)))
    return "\n\n".join(blocks)[:4000]


def final_text(tournament: Tournament, winner: int, lang: str) -> str:
    return t("tournament.final", lang, name=title_of(tournament), winner=name_of(tournament, winner))


def match_players(tournament: Tournament, match: Match) -> tuple[int | None, int | None]:
    """The user ids a match's call pings (None for a forgotten player)."""
    return tournament.entrant(match.a).user_id, tournament.entrant(match.b or match.a).user_id


def match_call(tournament: Tournament, match: Match, lang: str) -> str:
    """The first words in a match's room: both players called, what it is, until when."""
    a, b = tournament.entrant(match.a), tournament.entrant(match.b or match.a)
    return t("tournament.match.call", lang, a=f"<@{a.user_id}>", b=f"<@{b.user_id}>", round=match.round,
             name=title_of(tournament), when=f"<t:{int(tournament.round_deadline or 0)}:R>")


def room_name(tournament: Tournament, match: Match, lang: str) -> str:
    """The match thread's name: names as typed, since a thread's name renders neither mentions nor markdown."""
    entrant = tournament.entrant
    return t("tournament.match.room", lang, name=tournament.settings.name, round=match.round,
             a=entrant(match.a).display_name, b=entrant(match.b or match.a).display_name)[:100]
