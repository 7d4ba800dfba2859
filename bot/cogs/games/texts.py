"""What the game messages say: session states and results turned into embeds and lines in one language."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import discord
from discord import app_commands

from bot import ratings
from bot.config_spec import TURN_TIMER_CHOICES
from bot.sessions import (
    MAX_TIMEOUTS,
    Cancelled,
    Finished,
    GameState,
    Happening,
    Moved,
    Resigned,
    SeatState,
    Started,
    TakenOver,
    Thrown,
    TimedOut,
)
from bot.storage.types import GLOBAL_SCOPE, FinishReport
from bot.ui.i18n import UnknownMessageError, choice_name, join_list, t
from bot.ui.numbers import signed
from bot.ui.safe import plain
from puluc import PRESETS, MoveEffect, Position, Rules, Throw

COLOUR_LOBBY = discord.Colour(0xC9A227)
COLOUR_GAME = discord.Colour(0x2E7D5B)
COLOUR_END = discord.Colour(0x6B4E9B)
MAX_LABEL = 80
MAX_NARRATION_LINES = 12
BOARD_FILE = "board.png"
LEGEND_FILE = "legend.png"


# --- names ---------------------------------------------------------------------------------------------


def seat_label(seat: SeatState, lang: str) -> str:
    """A seat's player as drawn in a picture: the member's name as typed, or "AI (hard)" in the reader's
    language."""
    if seat.ai_level is not None:
        return t("seat.ai", lang, level=t(f"choice.difficulty.{seat.ai_level}", lang))
    if seat.taken_over:
        return t("seat.taken_over", lang, name=seat.name)
    return seat.name


def seat_name(seat: SeatState, lang: str) -> str:
    """A seat's player as shown in a message: `seat_label` with the member's name made plain (no mention,
    link or markdown)."""
    if seat.ai_level is not None:
        return seat_label(seat, lang)
    if seat.taken_over:
        return t("seat.taken_over", lang, name=plain(seat.name))
    return plain(seat.name)


def seat_mention(seat: SeatState, lang: str) -> str:
    """A mention that pings the member whose turn it is (AI seats are named, not pinged)."""
    if seat.user_id is not None and not seat.played_by_ai:
        return f"<@{seat.user_id}>"
    return seat_name(seat, lang)


def variant_title(variant: str, lang: str) -> str:
    """A variant's short name ("Bell", "Ants")."""
    return t(f"variant.{variant}", lang)


def added_rules(variant: str, rules: Rules) -> tuple[str, ...]:
    """The rules these game rules add to their variant: fire, scorpion, the returning eagle."""
    _route, _capture, scorpion, fire, _sticks = PRESETS[variant]
    added = []
    if rules.fire and not fire:
        added.append("fire")
    if rules.scorpion and not scorpion:
        added.append("scorpion")
    if rules.eagle_returns:
        added.append("eagle_returns")
    return tuple(added)


def variant_with_rules(variant: str, rules: Rules, lang: str) -> str:
    """A variant with what these rules add to it: "Ants + fire + scorpion" (just "Ants" when nothing)."""
    name = variant_title(variant, lang)
    added = added_rules(variant, rules)
    if not added:
        return name
    return t("variant.with_options", lang, variant=name, options=" + ".join(t(f"option.{a}", lang) for a in added))


def game_variant(state: GameState, lang: str) -> str:
    """The variant of a game with what was added to it: "Ants + fire + scorpion"."""
    return variant_with_rules(state.variant, state.rules, lang)


def game_title(state: GameState, lang: str) -> str:
    size = t("game.size", lang, size=state.rules.team_size)
    return t("game.title", lang, game_id=state.game_id, variant=game_variant(state, lang), size=size,
             setup=t(f"game.setup_{state.rules.setup}", lang))


def duration(seconds: int, lang: str) -> str:
    """A turn timer in words, in its largest whole unit: "7 days", "90 minutes", "45 seconds"."""
    if seconds % 86_400 == 0:
        return t("time.days", lang, count=seconds // 86_400)
    if seconds % 3600 == 0:
        return t("time.hours", lang, count=seconds // 3600)
    if seconds % 60 == 0:
        return t("time.minutes", lang, count=seconds // 60)
    return t("time.seconds", lang, count=seconds)


def throws_text(values: Iterable[int], lang: str) -> str:
    """The values of a turn's throws as words: "3", "3 and 2"."""
    shown = [str(value) for value in values]
    if len(shown) == 2:
        return t("game.throws_two", lang, first=shown[0], second=shown[1])
    return ", ".join(shown)


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
    effects = []
    if effect.captures:
        effects.append(t("move.captures", lang))
    if effect.kills:
        effects.append(t("move.kills", lang, count=effect.kills))
    if effect.burns:
        effects.append(t("move.burns", lang))
    if effects:
        text = t("move.with_effects", lang, move=text, effects=join_list(effects, lang, narrow=True))
    return text[:MAX_LABEL]


# --- narration -----------------------------------------------------------------------------------------


def _outcomes(effect: MoveEffect, rules: Rules, lang: str) -> list[str]:
    """What a move did besides going somewhere, in the order it happened (arrival first: a culin stack
    arrives, then lands)."""
    eagle = rules.capture == "eagle"
    struck = eagle and bool(effect.captured)
    killed = effect.kills - (1 if struck else 0)  # an eagle's strike kills one; arrivals kill the captives
    found = []
    if killed:
        found.append(t("narrate.killed", lang, count=killed))
    if effect.freed:
        found.append(t("narrate.rescued", lang, count=effect.freed))
    if struck:
        found.append(t("narrate.struck", lang))
    elif effect.captured:
        enemies = sum(1 for seat in effect.captured if seat[0] != effect.seat[0])
        friends = len(effect.captured) - enemies
        found.append(t("narrate.captured", lang, count=enemies))
        if friends:
            found.append(t("narrate.rescued", lang, count=friends))
    if effect.burns:
        found.append(t("narrate.burned", lang))
    return found


def move_sentence(effect: MoveEffect, rules: Rules, player: str, lang: str) -> str:
    """One sentence saying who moved what from where to where, and what came of it.

    "Alice moved a stack of 2 from cell 3 to cell 6, captured 1 piece and freed 1 piece of their team."
    Cells are the board's numbers (counted from team A's end), as on the buttons.
    """
    what = t("narrate.piece", lang) if effect.pieces == 1 else t("narrate.stack", lang, count=effect.pieces)
    where = {"player": player, "what": what, "source": effect.source, "dest": effect.dest}
    if effect.source is None:
        action = t("narrate.enter", lang, **where)
    elif effect.arrives and effect.dest is None:
        action = t("narrate.home", lang, **where)
    elif effect.arrives:
        action = t("narrate.round", lang, **where)  # culin: the stack arrived and its top piece walks on
    elif effect.move.backward:
        action = t("narrate.back", lang, **where)
    else:
        action = t("narrate.move", lang, **where)
    outcomes = _outcomes(effect, rules, lang)
    if not outcomes:
        sentence = t("narrate.sentence", lang, action=action)
    elif len(outcomes) == 1:
        sentence = t("narrate.sentence_and", lang, action=action, outcome=outcomes[0])
    else:
        sentence = t("narrate.sentence_list", lang, action=action, outcomes=join_list(outcomes, lang))
    if rules.capture == "eagle" and effect.captured:  # the striker's fate, said after the strike
        sentence = t("narrate.striker_home" if rules.eagle_returns else "narrate.striker_gone", lang, move=sentence)
    return sentence


def can_move_pieces(position: Position | None, seat: str) -> bool:
    """Whether the seat has a piece at home or on top of a stack (else every throw of theirs passes)."""
    if position is None:
        return True
    return position.home(seat) > 0 or any(stack.owner == seat for _, stack in position.stacks())


def pass_sentence(player: str, throws: tuple[Throw, ...], pieces: bool, lang: str) -> str:
    """Why a turn passed right after its throw: the player has no piece left, a lone marked side never moves,
    or no move fits the throw."""
    values = throws_text((throw.value for throw in throws), lang)
    if not pieces:
        return t("narrate.pass_out", lang, player=player, throws=values)
    if all(throw.value == 0 for throw in throws):
        return t("narrate.pass_zero" if len(throws) == 1 else "narrate.pass_zero_each", lang, player=player)
    return t("narrate.pass", lang, player=player, throws=values)


@dataclass(frozen=True, slots=True)
class Told:
    """One thing the game message tells, kept without words, so that it is said in whatever language the server
    reads when the message is shown: a happening, with what its sentence needs of the game right after it."""

    happening: Happening
    rules: Rules
    seat: SeatState | None = None  # the seat it is about, as it stood then (None: nobody sits there now)
    pieces: bool = True  # a passed turn: whether the player had a piece to move
    timer_moved: bool = False  # a time-out: whether the bot moved for the player


NARRATED = (Started, Thrown, Moved, TimedOut, TakenOver, Resigned, Cancelled)


def told(happenings: Iterable[Happening], state: GameState) -> list[Told]:
    """What of these happenings the game message tells, in order; `state` is the game right after them."""
    happened = list(happenings)
    found = []
    for happening in happened:
        if not isinstance(happening, NARRATED) or (isinstance(happening, Thrown) and not happening.passed):
            continue
        seat: str | None = getattr(happening, "seat", None)
        found.append(Told(
            happening, state.rules, state.seat(seat) if seat is not None else None,
            pieces=not isinstance(happening, Thrown) or can_move_pieces(state.position, happening.seat),
            timer_moved=isinstance(happening, TimedOut)
            and any(isinstance(h, Moved) and h.seat == seat and h.by == "timer" for h in happened),
        ))
    return found


def said(item: Told, lang: str) -> list[str]:
    """The line (two when a throw was lost) telling one thing that happened, in `lang`."""
    happening, seat = item.happening, item.seat
    who = seat_name(seat, lang) if seat is not None else getattr(happening, "seat", "?")
    match happening:
        case Started(first=first):
            return [t("game.first", lang, team=first)]
        case Thrown(throws=throws):
            return [pass_sentence(who, throws, item.pieces, lang)]
        case Moved(effect=effect, lost=lost):
            lines = [move_sentence(effect, item.rules, who, lang)]
            if lost:
                lines.append(t("narrate.lost", lang, player=who, throws=throws_text(lost, lang)))
            return lines
        case TimedOut(count=count):
            key = "game.timed_out_played" if item.timer_moved else "game.timed_out"
            return [t(key, lang, player=who, count=count, limit=MAX_TIMEOUTS)]
        case TakenOver(seat=taken):
            player = plain(seat.name) if seat is not None else taken
            return [t("game.taken_over", lang, player=player, limit=MAX_TIMEOUTS)]
        case Resigned():
            return [t("game.resigned", lang, player=who)]
        case Cancelled(why="expired"):
            return [t("expiry.closed", lang)]
    return []


def narration(items: Iterable[Told], lang: str) -> list[str]:
    """The lines telling these things in `lang`, the last `MAX_NARRATION_LINES` of them."""
    return [line for item in items for line in said(item, lang)][-MAX_NARRATION_LINES:]


def narrate(happenings: Iterable[Happening], state: GameState, lang: str) -> list[str]:
    """One line per thing that happened, in order, for the game message; `state` is the game right after."""
    return narration(told(happenings, state), lang)


# --- embeds --------------------------------------------------------------------------------------------


def _footer(state: GameState, lang: str) -> str:
    mode = t("game.ranked", lang) if state.ranked else t("game.casual", lang)
    return t("game.footer", lang, mode=mode, timer=duration(state.turn_timer, lang), game_id=state.game_id)


def lobby_embed(state: GameState, lang: str, expires: float | None = None) -> discord.Embed:
    """The lobby: seats by team, free seats marked, the host named, and when it closes unstarted."""
    embed = discord.Embed(title=game_title(state, lang), colour=COLOUR_LOBBY)
    host = state.seat_of(state.host_id) if state.host_id is not None else None
    if state.tournament_id is not None:
        a, b = state.seat("A1"), state.seat("B1")
        embed.description = t("lobby.match_intro", lang, a=plain(a.name) if a else "?",
                              b=plain(b.name) if b else "?")
    else:
        embed.description = t("lobby.intro", lang, host=plain(host.name) if host else "?")
    if expires is not None:
        embed.description += "\n" + t("expiry.lobby", lang, when=f"<t:{int(expires)}:R>")
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
    key = "challenge.invite_ranked" if state.ranked else "challenge.invite_casual"
    return t(key, lang, opponent=f"<@{invited_id}>", host=plain(host.name) if host else "?",
             variant=game_variant(state, lang))


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
        embed.add_field(name=t("game.team_score", lang, team=team, count=scores[team]),
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
        values = (throw.value for throw in state.turn_throws)
        lines.append(t("game.threw", lang, player=seat_name(seat, lang), throws=throws_text(values, lang)))
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
    if state.abandoned:
        lines.append(t("limits.abandoned", lang))
    elif state.status == "cancelled":
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
        return t(f"game.unranked.{report.unranked.value}", lang, limit=ratings.REPEAT_LIMIT)
    names = {s.user_id: plain(s.name) for s in state.seats if s.user_id is not None}
    lines = []
    for change in report.changes:
        if change.scope != GLOBAL_SCOPE:
            continue  # the global ladder is the one worth a line; the server ladder moves alike
        delta = change.after - change.before
        lines.append(t("game.rating_change", lang, player=names.get(change.user_id, "?"), before=change.before,
                       after=change.after, delta=signed(delta)))
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


HELP_SECTIONS = ("start", "play", "players", "server")
BOARD_SECTIONS = ("header", "homes", "road", "stacks", "moves")  # as the legend picture numbers them


def help_embeds(lang: str) -> list[discord.Embed]:
    """`/puluc help`: every command, then how to read the board (with the labelled picture, `LEGEND_FILE`)."""
    names = {
        "fire": t("cmd.new.opt.fire.name", lang),
        "scorpion": t("cmd.new.opt.scorpion.name", lang),
        "eagle_returns": t("cmd.new.opt.eagle_returns.name", lang),
        "manage_messages": t("perm.manage_messages", lang),
        "manage_guild": t("perm.manage_guild", lang),
    }
    commands = discord.Embed(title=t("help.title", lang), description=t("help.intro", lang), colour=COLOUR_GAME)
    for section in HELP_SECTIONS:
        commands.add_field(name=t(f"help.{section}.title", lang), value=t(f"help.{section}.body", lang, **names),
                           inline=False)
    commands.set_footer(text=t("help.footer", lang))
    board = discord.Embed(title=t("help.board.title", lang), description=t("help.board.intro", lang),
                          colour=COLOUR_GAME)
    for section in BOARD_SECTIONS:
        board.add_field(name=t(f"help.board.{section}.title", lang), value=t(f"help.board.{section}.body", lang),
                        inline=False)
    board.set_image(url=f"attachment://{LEGEND_FILE}")
    return [commands, board]


def variant_label(variant: str, lang: str) -> str:
    try:
        return t(f"variant.{variant}", lang)
    except UnknownMessageError:  # a variant stored by a newer version than this catalogue knows
        return variant


def turn_timer_choices() -> list[app_commands.Choice[int]]:
    """The named turn times the commands offer (TURN_TIMER_CHOICES), from 30 seconds to 7 days."""
    return [app_commands.Choice(name=choice_name("turn_timer", str(seconds)), value=seconds)
            for seconds in TURN_TIMER_CHOICES]
