"""What a game page shows, in the reader's language: the players, the score, whose turn, the throw, the story
so far, and a finished game's steps. Pure functions from a `GameState` to plain values for the templates
(which escape every one of them); the board itself is drawn by `bot.web.boards`.
"""

from __future__ import annotations

import collections
import re
from dataclasses import dataclass, replace

from bot.cogs.games.texts import game_title, move_sentence, pass_sentence, seat_label, throws_text
from bot.sessions import GameState
from bot.ui.i18n import t
from bot.web.i18n import wt
from puluc import MoveEffect, Position, Rules
from puluc.record import Event, MoveEvent, ThrowEvent

__all__ = ["GameFacts", "PlayerLine", "Step", "Tail", "ending_line", "facts", "plain", "steps", "tail"]

NARRATION_LINES = 8
_MARKUP = re.compile(r"\*\*|__|`|~~")


def plain(text: str) -> str:
    """A bot message without Discord's markdown (bold, code, strike-through): pages escape and style it."""
    return _MARKUP.sub("", text)


@dataclass(frozen=True, slots=True)
class PlayerLine:
    seat: str
    team: str
    name: str
    home: int | None
    road: int | None
    kills: int | None
    to_move: bool


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a replay: the position after event `number` (0: the start) and what that event was."""

    number: int
    position: Position
    last: MoveEffect | None  # the move to mark on the board (kept through the throws after it)
    caption: str
    kind: str  # "start", "throw", "pass" (a throw no move fitted) or "move"
    turn: bool  # this position starts a turn (before its throw): a point of the advantage chart


@dataclass(frozen=True, slots=True)
class GameFacts:
    """Everything a game page says in words."""

    game_id: int
    guild_id: int | None
    status: str
    seq: int
    title: str
    teams: tuple[tuple[str, int | None, tuple[PlayerLine, ...]], ...]  # (team, score, players)
    turn: str | None  # "Alice's turn" while the game runs
    throws: str | None  # "Alice threw 3."
    result: str | None  # "Team A wins, 5 to 3!" once it is over
    narration: tuple[str, ...]  # the last few things that happened, oldest first
    names: dict[str, str]  # seat -> name, for the board


def _names(state: GameState, lang: str) -> dict[str, str]:
    # The names as typed: a page escapes them as HTML (Discord's escaping, `seat_name`, is for messages).
    return {seat.seat: plain(seat_label(seat, lang)) for seat in state.seats}


def _tell(before: Position, event: Event, after: Position, names: dict[str, str], rules: Rules,
          lang: str) -> tuple[str, str, MoveEffect | None]:
    """What one event of the record was, as a step says it: its kind, its sentence (without markup) and, for a
    move, the move to mark on the board."""
    who = names.get(before.to_move, before.to_move)
    if isinstance(event, MoveEvent):
        effect = before.move_effect(event.move)
        return "move", plain(move_sentence(effect, rules, who, lang)), effect
    values = tuple(throw.value for throw in event.throws)
    if after.must_throw and not after.is_over:  # no move fitted: the turn passed at once
        pieces = before.home(before.to_move) > 0 or any(stack.owner == before.to_move for _, stack in before.stacks())
        return "pass", plain(pass_sentence(who, event.throws, pieces, lang)), None
    return "throw", plain(t("game.threw", lang, player=who, throws=throws_text(values, lang))), None


def _told(before: Position, event: Event, after: Position) -> bool:
    """Whether the story of a live page tells `event` (a move, or a throw that passed the turn)."""
    return isinstance(event, MoveEvent) or (after.must_throw and not after.is_over)


def _after(position: Position, event: Event) -> Position:
    # As `GameRecord.positions` plays it (a session's record holds only events that were legal).
    return position.throw(list(event.values)) if isinstance(event, ThrowEvent) else position.play(event.move)


def steps(state: GameState, lang: str) -> list[Step]:
    """Every step of the game so far: the start, then the position after each throw and move, with a sentence
    saying what happened (a throw that moved nothing says so, as in the game message); the last one also says
    who gave up or ran out of time, when that ended the game (`ending_line`)."""
    if state.position is None:
        return []
    names = _names(state, lang)
    record = state.game_record()
    positions = record.positions()
    position = next(positions)
    found = [Step(0, position, None, plain(t("game.first", lang, team=record.first)), "start", position.must_throw)]
    last: MoveEffect | None = None
    for number, (event, after) in enumerate(zip(record.events, positions, strict=True), start=1):
        kind, caption, effect = _tell(position, event, after, names, state.rules, lang)
        last = effect if effect is not None else last
        found.append(Step(number, after, last, caption, kind, after.must_throw and not after.is_over))
        position = after
    ending = ending_line(state, names, lang)
    if ending is not None:
        found[-1] = replace(found[-1], caption=f"{found[-1].caption} {ending}")
    return found


@dataclass(frozen=True, slots=True)
class Tail:
    """The end of a game's story, all a live page shows of it: the position after the first `events` events of
    the record, the move its board marks, and what the last few moves and passes were (`facts`' narration).
    A move extends it by the new events alone (`tail`), so a live page's refresh costs the same at move 300 as
    at move 3."""

    game_id: int
    lang: str
    names: tuple[tuple[str, str], ...]  # the seat names it was told with: a renamed player starts it over
    events: int
    final: Event | None  # the last event told, to see that the record still begins with what was told
    position: Position
    last: MoveEffect | None
    told: tuple[str, ...]  # at most NARRATION_LINES, oldest first


def tail(state: GameState, lang: str, since: Tail | None = None) -> Tail | None:
    """The end of `state`'s story (None before the game has a position), continuing `since` when the record
    still begins with what it told, else from the start. Every new event is played, but only the few the page
    shows are put into words, and only the last move is marked."""
    if state.position is None:
        return None
    names = _names(state, lang)
    events = state.record
    named = tuple(sorted(names.items()))
    if (since is not None and since.game_id == state.game_id and since.lang == lang and since.names == named
            and since.events <= len(events) and (since.events == 0 or events[since.events - 1] == since.final)):
        position, last, told, start = since.position, since.last, since.told, since.events
    else:
        position, last, told, start = next(state.game_record().positions()), None, (), 0
    shown: collections.deque[tuple[Position, Event, Position]] = collections.deque(maxlen=NARRATION_LINES)
    marked: tuple[Position, MoveEvent] | None = None  # the last move and the position it was played in
    for event in events[start:]:
        after = _after(position, event)
        if _told(position, event, after):
            shown.append((position, event, after))
        if isinstance(event, MoveEvent):
            marked = (position, event)
        position = after
    if marked is not None:
        last = marked[0].move_effect(marked[1].move)
    new = tuple(_tell(before, event, after, names, state.rules, lang)[1] for before, event, after in shown)
    return Tail(state.game_id, lang, named, len(events), events[-1] if events else None, position, last,
                (told + new)[-NARRATION_LINES:])


def result_line(state: GameState, lang: str) -> str | None:
    if state.status == "cancelled":
        return plain(t("game.cancelled", lang))
    if state.status != "finished":
        return None
    scores = state.scores or {"A": 0, "B": 0}
    if state.winner is None:
        return plain(t("game.draw", lang, score_a=scores.get("A", 0), score_b=scores.get("B", 0)))
    return plain(t("game.won", lang, team=state.winner, score_a=scores.get("A", 0), score_b=scores.get("B", 0)))


def ending_line(state: GameState, names: dict[str, str], lang: str) -> str | None:
    """How a game that did not end on the board ended, for its story: who resigned or ran out of time (the
    losing side: a player by name, a team of several by its letter); None for any other game."""
    if state.status != "finished" or state.winner not in ("A", "B") or state.end_reason not in ("resign", "timeout"):
        return None
    loser = "B" if state.winner == "A" else "A"
    seats = [seat.seat for seat in state.seats if seat.team == loser]
    if state.end_reason == "resign":
        if len(seats) == 1:
            return plain(t("game.resigned", lang, player=names[seats[0]]))
        return wt("end.team_resigned", lang, team=loser)
    if len(seats) == 1:
        return wt("end.timed_out", lang, player=names[seats[0]])
    return wt("end.team_timed_out", lang, team=loser)


def facts(state: GameState, lang: str, story: list[Step] | Tail | None = None) -> GameFacts:
    """The words of a game page; `story` is `steps(state, lang)` or `tail(state, lang)` when the caller has
    either already."""
    names = _names(state, lang)
    position = state.position
    to_move = state.to_move
    scores = position.scores() if position is not None else None
    teams = []
    for team in ("A", "B"):
        players = tuple(
            PlayerLine(
                seat.seat, team, names[seat.seat],
                None if position is None else position.home(seat.seat),
                None if position is None else position.on_road(seat.seat),
                None if position is None else position.kills(seat.seat),
                to_move is not None and to_move.seat == seat.seat,
            )
            for seat in state.seats if seat.team == team
        )
        teams.append((team, None if scores is None else scores[team], players))
    turn = throws = None
    if to_move is not None:
        turn = wt("live.turn", lang, player=names[to_move.seat])
        if state.turn_throws:
            values = (throw.value for throw in state.turn_throws)
            throws = plain(t("game.threw", lang, player=names[to_move.seat], throws=throws_text(values, lang)))
    if story is None:
        story = tail(state, lang)
    if isinstance(story, list):  # What happened lately: the moves and the turns that passed, not the throws.
        told = tuple(step.caption for step in story if step.kind in ("move", "pass"))
    else:
        told = story.told if story is not None else ()
    ending = ending_line(state, names, lang)
    return GameFacts(
        game_id=state.game_id,
        guild_id=state.place.guild_id,
        status=state.status,
        seq=state.seq,
        title=plain(game_title(state, lang)),
        teams=tuple(teams),
        turn=turn,
        throws=throws,
        result=result_line(state, lang),
        narration=((*told, ending) if ending else told)[-NARRATION_LINES:],
        names=names,
    )


def describe(position: Position, names: dict[str, str], lang: str, headline: str | None = None) -> str:
    """The position in words for a screen reader (the board's <desc>): the headline (whose turn, or the
    result), each team's pieces at home, on the road and killed, then every occupied cell from team A's end."""
    parts = [headline] if headline else []
    for team in ("A", "B"):
        seats = [seat for seat in position.rules.seats if seat[0] == team]
        players = ", ".join(names.get(seat, seat) for seat in seats)
        parts.append(wt("desc.team", lang, team=team, players=players,
                        home=sum(position.home(seat) for seat in seats),
                        road=sum(position.on_road(seat) for seat in seats),
                        kills=sum(position.kills(seat) for seat in seats)))
    cells = []
    for cell, stack in position.stacks():
        owner = names.get(stack.owner, stack.owner)
        under = stack.pieces[1:]
        if under:
            cells.append(wt("desc.stack", lang, cell=cell, owner=owner,
                            under=", ".join(names.get(seat, seat) for seat in under)))
        else:
            cells.append(wt("desc.piece", lang, cell=cell, owner=owner))
    parts.append(wt("desc.road", lang, cells="; ".join(cells)) if cells else wt("desc.empty", lang))
    return " ".join(parts)
