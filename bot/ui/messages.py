"""What the game messages say: session states and results turned into translated embeds and lines.

Pure functions from `bot.sessions` values to `discord.Embed`s and strings in one language; no I/O, no
rendering (board images come from `bot.ui.presenter`), no game decisions. Every user-visible word comes from
the catalogues through `bot.ui.i18n.t`.
"""

from __future__ import annotations

from collections.abc import Iterable

import discord

from bot.sessions import (
    Cancelled,
    Finished,
    GameState,
    Happening,
    Joined,
    Left,
    Moved,
    Resigned,
    SeatState,
    Started,
    TakenOver,
    Thrown,
    TimedOut,
)
from bot.storage.types import GLOBAL_SCOPE, FinishReport
from bot.ui.i18n import t
from puluc import MoveEffect, Position, Throw

COLOUR_LOBBY = discord.Colour(0xC9A227)
COLOUR_GAME = discord.Colour(0x2E7D5B)
COLOUR_END = discord.Colour(0x6B4E9B)
MAX_LABEL = 80
MAX_NARRATION_LINES = 12
BOARD_FILE = "board.png"
LEGEND_FILE = "legend.png"


# --- names ---------------------------------------------------------------------------------------------


def seat_name(seat: SeatState, lang: str) -> str:
    """A seat's player as shown in text: the member's name, or "AI (hard)" in the reader's language."""
    if seat.ai_level is not None:
        return t("seat.ai", lang, level=t(f"choice.difficulty.{seat.ai_level}", lang))
    if seat.taken_over:
        return t("seat.taken_over", lang, name=seat.name)
    return seat.name


def seat_mention(seat: SeatState, lang: str) -> str:
    """A mention that pings the member whose turn it is (AI seats are named, not pinged)."""
    if seat.user_id is not None and not seat.played_by_ai:
        return f"<@{seat.user_id}>"
    return seat_name(seat, lang)


def variant_title(variant: str, lang: str) -> str:
    return t(f"rules.preset.{variant}.title", lang)


def game_title(state: GameState, lang: str) -> str:
    size = state.rules.team_size
    return t("game.title", lang, game_id=state.game_id, variant=variant_title(state.variant, lang),
             size=f"{size} v {size}", setup=t(f"game.setup_{state.rules.setup}", lang))


def duration(seconds: int, lang: str) -> str:
    if seconds % 3600 == 0:
        return t("time.hours", lang, count=seconds // 3600)
    if seconds % 60 == 0:
        return t("time.minutes", lang, count=seconds // 60)
    return t("time.seconds", lang, count=seconds)


def throws_text(throws: Iterable[Throw]) -> str:
    return " + ".join(str(throw.value) for throw in throws)


# --- moves ---------------------------------------------------------------------------------------------


def move_label(effect: MoveEffect, lang: str) -> str:
    """A short description of a move for a button: "throw 3: piece on 5 → 8, captures"."""
    move = effect.move
    what = t("move.piece", lang) if effect.pieces == 1 else t("move.stack", lang, count=effect.pieces)
    if effect.source is None:
        text = t("move.enter", lang, throw=move.throw, dest=effect.dest if effect.dest is not None else "?")
    elif effect.arrives and effect.dest is None:
        text = t("move.arrive", lang, throw=move.throw, what=what, source=effect.source)
    elif move.backward:
        text = t("move.back", lang, throw=move.throw, what=what, source=effect.source, dest=effect.dest)
    else:
        text = t("move.step", lang, throw=move.throw, what=what, source=effect.source, dest=effect.dest)
    if effect.captures:
        text += t("move.captures", lang)
    if effect.kills:
        text += t("move.kills", lang, count=effect.kills)
    if effect.burns:
        text += t("move.burns", lang)
    return text[:MAX_LABEL]


# --- narration -----------------------------------------------------------------------------------------


def narrate(happenings: Iterable[Happening], state: GameState, lang: str) -> list[str]:
    """One line per thing that happened, in order, for the game message."""
    lines: list[str] = []

    def who(seat: str) -> str:
        found = state.seat(seat)
        return seat_name(found, lang) if found is not None else seat

    for happening in happenings:
        match happening:
            case Started(first=first):
                lines.append(t("game.first", lang, team=first))
            case Thrown(seat=seat, throws=throws, passed=passed):
                if passed:
                    lines.append(t("game.no_move", lang, player=who(seat), throws=throws_text(throws)))
            case Moved(seat=seat, effect=effect, by=by):
                key = "game.timer_moved" if by == "timer" else "game.moved"
                lines.append(t(key, lang, player=who(seat), move=move_label(effect, lang)))
            case TimedOut(seat=seat, count=count):
                lines.append(t("game.timed_out", lang, player=who(seat), count=count))
            case TakenOver(seat=seat):
                taken = state.seat(seat)
                lines.append(t("game.taken_over", lang, player=taken.name if taken is not None else seat))
            case Resigned(seat=seat):
                lines.append(t("game.resigned", lang, player=who(seat)))
            case Joined() | Left() | Cancelled() | Finished():
                pass
    return lines[-MAX_NARRATION_LINES:]


# --- embeds --------------------------------------------------------------------------------------------


def _footer(state: GameState, lang: str) -> str:
    mode = t("game.ranked", lang) if state.ranked else t("game.casual", lang)
    return t("game.footer", lang, mode=mode, timer=duration(state.turn_timer, lang), game_id=state.game_id)


def lobby_embed(state: GameState, lang: str) -> discord.Embed:
    """The lobby: seats by team, free seats marked, the host named."""
    embed = discord.Embed(title=game_title(state, lang), colour=COLOUR_LOBBY)
    host = state.seat_of(state.host_id) if state.host_id is not None else None
    embed.description = t("lobby.intro", lang, host=host.name if host else "?")
    for team in ("A", "B"):
        lines = []
        for name in state.rules.seats:
            if name[0] != team:
                continue
            seat = state.seat(name)
            shown = t("lobby.free", lang) if seat is None else seat_name(seat, lang)
            if seat is not None and seat.user_id is not None and seat.user_id == state.host_id:
                shown = t("lobby.host", lang, name=shown)
            lines.append(f"`{name}` {shown}")
        embed.add_field(name=t("game.team", lang, team=team), value="\n".join(lines), inline=True)
    embed.set_footer(text=_footer(state, lang))
    return embed


def challenge_text(state: GameState, invited_id: int, lang: str) -> str:
    host = state.seat_of(state.host_id) if state.host_id is not None else None
    mode = t("game.ranked", lang) if state.ranked else t("game.casual", lang)
    return t("challenge.invite", lang, opponent=f"<@{invited_id}>", host=host.name if host else "?",
             variant=variant_title(state.variant, lang), mode=mode)


def _seat_status(position: Position, seat: SeatState, lang: str) -> str:
    return t(
        "game.status", lang, seat=f"`{seat.seat}` {seat_name(seat, lang)}",
        home=t("game.status_home", lang, count=position.home(seat.seat)),
        road=t("game.status_road", lang, count=position.on_road(seat.seat)),
        kills=t("game.status_kills", lang, count=position.kills(seat.seat)),
    )


def _team_fields(embed: discord.Embed, state: GameState, lang: str) -> None:
    pos = state.position
    assert pos is not None
    scores = pos.scores()
    for team in ("A", "B"):
        lines = [_seat_status(pos, seat, lang) for seat in state.seats if seat.team == team]
        embed.add_field(name=t("game.team_score", lang, team=team, score=scores[team]),
                        value="\n".join(lines)[:1024], inline=False)


def turn_text(state: GameState, lang: str) -> str:
    """The message content above the embed: whose turn it is, with a mention that pings them."""
    seat = state.to_move
    if seat is None:
        return ""
    if seat.played_by_ai:
        return t("game.ai_turn", lang, player=seat_name(seat, lang))
    return t("game.your_turn", lang, player=seat_mention(seat, lang))


def game_embed(state: GameState, lang: str, narration: list[str], *, image: bool) -> discord.Embed:
    """The running game: what just happened, the sticks, each seat's pieces, the turn deadline."""
    embed = discord.Embed(title=game_title(state, lang), colour=COLOUR_GAME)
    lines = list(narration)
    seat = state.to_move
    if seat is not None and state.turn_throws:
        lines.append(t("game.threw", lang, player=seat_name(seat, lang), throws=throws_text(state.turn_throws)))
    if seat is not None and state.deadline is not None and not seat.played_by_ai:
        lines.append(t("game.deadline", lang, when=f"<t:{int(state.deadline)}:R>"))
    embed.description = "\n".join(lines)[:4000] or None
    _team_fields(embed, state, lang)
    if image:
        embed.set_image(url=f"attachment://{BOARD_FILE}")
    embed.set_footer(text=_footer(state, lang))
    return embed


def end_embed(state: GameState, lang: str, narration: list[str], finished: Finished | None,
              *, image: bool) -> discord.Embed:
    """The finished (or cancelled) game: result, scores, rating changes."""
    embed = discord.Embed(title=game_title(state, lang), colour=COLOUR_END)
    lines = list(narration)
    if state.status == "cancelled":
        lines.append(t("game.cancelled", lang))
    else:
        scores = state.scores or {"A": 0, "B": 0}
        if state.winner is None:
            lines.append(t("game.draw", lang, score_a=scores["A"], score_b=scores["B"]))
        else:
            lines.append(t("game.won", lang, team=state.winner, score_a=scores["A"], score_b=scores["B"]))
    embed.description = "\n".join(lines)[:4000]
    if state.position is not None:
        _team_fields(embed, state, lang)
    report = finished.report if finished is not None else None
    if report is not None:
        embed.add_field(name=t("game.ratings", lang), value=ratings_text(report, state, lang)[:1024], inline=False)
    if image:
        embed.set_image(url=f"attachment://{BOARD_FILE}")
    embed.set_footer(text=_footer(state, lang))
    return embed


def ratings_text(report: FinishReport, state: GameState, lang: str) -> str:
    if report.unranked is not None:
        return t(f"game.unranked.{report.unranked.value}", lang)
    names = {s.user_id: s.name for s in state.seats if s.user_id is not None}
    lines = []
    for change in report.changes:
        if change.scope != GLOBAL_SCOPE:
            continue  # the global ladder is the one worth a line; the server ladder moves alike
        delta = change.after - change.before
        lines.append(t("game.rating_change", lang, player=names.get(change.user_id, "?"), before=change.before,
                       after=change.after, delta=f"{delta:+d}"))
    return "\n".join(lines) or t("game.unranked.casual", lang)


def rules_embed(lang: str, page_title: str, description: str, fields: Iterable[tuple[str, str]],
                footer: str, *, image: bool) -> discord.Embed:
    embed = discord.Embed(title=page_title, description=description[:4096], colour=COLOUR_GAME)
    for name, value in fields:
        embed.add_field(name=name[:256], value=value[:1024], inline=False)
    embed.set_footer(text=footer[:2048])
    if image:
        embed.set_image(url=f"attachment://{BOARD_FILE}")
    return embed


def board_help_embed(lang: str) -> discord.Embed:
    """The "reading the board" page: what every part and sign of a board means, with the labelled picture."""
    embed = discord.Embed(title=t("board.help.title", lang), description=t("board.help.body", lang),
                          colour=COLOUR_GAME)
    embed.set_image(url=f"attachment://{LEGEND_FILE}")
    return embed


def help_embed(lang: str) -> discord.Embed:
    embed = discord.Embed(title=t("help.title", lang), description=t("help.intro", lang), colour=COLOUR_GAME)
    for section in ("start", "play", "more"):
        embed.add_field(name=t(f"help.{section}.title", lang), value=t(f"help.{section}.body", lang), inline=False)
    return embed
