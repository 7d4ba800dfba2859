"""Boards in words: the description (alt text) every board, replay and chart the bot attaches carries.

Discord reads an attachment's description to a screen reader in place of the picture, and `/puluc board
text:true` answers with the same words. A board's description says what its image shows: whose turn it is,
the throw, every stack on the road (its cell, its pieces top first, where it is heading), each seat's pieces at
home and kills, the score, and what just happened. Discord accepts at most `MAX_DESCRIPTION` characters, so a
crowded board (8 v 8) is told in a compact form (seats instead of names, one short entry per stack), and only
as a last resort are the last stacks counted rather than listed. Pure: words from the catalogues, no Discord.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from bot.ui.i18n import join_list, t
from puluc import Position, Stack, Throw
from renderer.panels import result

if TYPE_CHECKING:
    from renderer import Ended

#: Discord's limit on an attachment's description.
MAX_DESCRIPTION = 1024
#: A player's name is cut to this many characters in a description (names are the members' own).
MAX_NAME = 32


def _name(names: Mapping[str, str], seat: str) -> str:
    name = names.get(seat) or seat
    return name if len(name) <= MAX_NAME else name[: MAX_NAME - 1] + "…"


def _heading(position: Position, stack: Stack) -> str:
    """Which home the stack is walking toward, as a team letter: A's pieces going out head for B's end."""
    outward = stack.direction == "+"
    going_to_b = (stack.team == "A") == outward
    return "B" if going_to_b else "A"


def _stack_full(position: Position, cell: int, stack: Stack, names: Mapping[str, str], lang: str) -> str:
    owner = _name(names, stack.owner)
    heading = _heading(position, stack)
    if len(stack.pieces) == 1:
        return t("describe.piece", lang, cell=cell, player=owner, team=stack.team, home=heading)
    parts = []
    if stack.captives:
        parts.append(t("describe.captives", lang, count=len(stack.captives),
                       players=join_list([_name(names, s) for s in stack.captives], lang)))
    if stack.compatriots:
        parts.append(t("describe.freed", lang, count=len(stack.compatriots),
                       players=join_list([_name(names, s) for s in stack.compatriots], lang)))
    return t("describe.stack", lang, cell=cell, count=len(stack.pieces), player=owner, team=stack.team,
             home=heading, under=join_list(parts, lang))


def _then(items: Sequence[str], lang: str) -> str:
    """Items that hold commas of their own, one after another: "a; b; c"."""
    if not items:
        return ""
    text = items[-1]
    for item in reversed(items[:-1]):
        text = t("describe.then", lang, first=item, rest=text)
    return text


def _stack_short(position: Position, cell: int, stack: Stack) -> str:
    """"7 B2>A1>A3→A": cell, seats top first, and the home it heads for."""
    return f"{cell} {'>'.join(stack.pieces)}→{_heading(position, stack)}"


def throws_words(throws: Sequence[Throw] | Sequence[int], lang: str) -> str:
    values = [str(throw.value if isinstance(throw, Throw) else throw) for throw in throws]
    return join_list(values, lang)


def _turn(position: Position, names: Mapping[str, str], throws: Sequence[Throw] | None, lang: str,
          ended: Ended | None = None) -> str:
    over = result(position, ended)  # the image's header reads the same
    if over is not None:
        scores = over.scores
        if over.winner is None:
            key = "describe.over_cancelled" if over.called_off else "describe.over_draw"
            return t(key, lang, score_a=scores["A"], score_b=scores["B"])
        return t("describe.over_won", lang, team=over.winner, score_a=scores["A"], score_b=scores["B"])
    seat = position.to_move
    player = _name(names, seat)
    team = position.team_to_move
    if position.pending:
        shown = throws or position.pending
        said = t("describe.turn_threw", lang, player=player, team=team, throws=throws_words(shown, lang))
        if len(position.pending) < len(shown):  # a throw of the turn is played already
            said += " " + t("describe.left", lang, throws=throws_words(position.pending, lang))
        return said
    return t("describe.turn_throw", lang, player=player, team=team)


def _seats(position: Position, names: Mapping[str, str], lang: str, *, short: bool) -> str:
    seats = position.rules.seats
    if short:
        compact = ", ".join(f"{seat} {position.home(seat)}/{position.kills(seat)}" for seat in seats)
        return t("describe.seats_short", lang, seats=compact)
    parts = [t("describe.seat", lang, player=_name(names, seat), home=position.home(seat), kills=position.kills(seat))
             for seat in seats]
    return t("describe.seats", lang, seats=_then(parts, lang))


def describe_board(
    position: Position,
    lang: str,
    names: Mapping[str, str] | None = None,
    *,
    throws: Sequence[Throw] | None = None,
    happened: str | None = None,
    limit: int = MAX_DESCRIPTION,
    ended: Ended | None = None,
) -> str:
    """The words of a board image of `position` for a reader who cannot see it, at most `limit` characters.

    `names` maps seats to the players' names as the image shows them (seats stand for themselves otherwise);
    `throws` are the turn's throws the image draws; `happened` is what just happened, in a sentence; `ended`:
    how a game over its position cannot tell ended (a resignation, a time-out, a cancellation), as the image says.
    """
    names = names or {}
    rules = position.rules
    scores = position.scores()
    head = [
        t("describe.board", lang, cells=rules.road_length),
        _turn(position, names, throws, lang, ended),
    ]
    if happened:
        head.append(t("describe.happened", lang, what=happened))
    score = t("describe.score", lang, score_a=scores["A"], score_b=scores["B"])
    stacks = position.stacks()
    if rules.fire:
        head.append(t("describe.fire", lang, cell=(rules.road_length + 1) // 2))

    full = [_stack_full(position, cell, stack, names, lang) for cell, stack in stacks]
    road = t("describe.road", lang, stacks=" ".join(full)) if full else t("describe.empty", lang)
    text = " ".join([*head, road, _seats(position, names, lang, short=False), score])
    if len(text) <= limit:
        return text
    # Crowded: seats instead of names, each stack as "cell seats→home".
    short = [_stack_short(position, cell, stack) for cell, stack in stacks]
    tail = [_seats(position, names, lang, short=True), score]
    for shown in range(len(short), -1, -1):
        listed = _then(short[:shown], lang)
        if shown < len(short):
            listed = t("describe.more", lang, stacks=listed, count=len(short) - shown)
        road = t("describe.road_short", lang, stacks=listed) if short else t("describe.empty", lang)
        text = " ".join([*head, road, *tail])
        if len(text) <= limit:
            return text
    return text[: limit - 1] + "…"


def percent_text(chance: float, lang: str) -> str:
    """A chance as the language writes a percentage: "62%", "62 %" in French."""
    return t("board.percent", lang, percent=round(chance * 100))


def describe_chart(series: Sequence[tuple[object, float]], lang: str, marked: Sequence[object] = (),
                   limit: int = MAX_DESCRIPTION) -> str:
    """An advantage chart in words: where team A's chance to win started and ended, and its high and low turns;
    `marked` names the turns the chart marks (a review's costliest decisions)."""
    if not series:
        return t("describe.chart_empty", lang)
    first, last = series[0], series[-1]
    high = max(series, key=lambda point: point[1])
    low = min(series, key=lambda point: point[1])
    text = t("describe.chart", lang, start=percent_text(first[1], lang), end=percent_text(last[1], lang),
             turns=last[0], high=percent_text(high[1], lang), high_turn=high[0],
             low=percent_text(low[1], lang), low_turn=low[0])
    if marked:
        text += " " + t("describe.chart_marked", lang, turns=join_list([str(m) for m in marked], lang))
    return text if len(text) <= limit else text[: limit - 1] + "…"


def describe_rating_chart(series: Sequence[tuple[object, float]], player: str, lang: str) -> str:
    """A player's rating chart in words: how many games, first and last rating, the highest."""
    if not series:
        return t("describe.chart_empty", lang)
    high = max(value for _, value in series)
    return t("describe.rating_chart", lang, player=player[:MAX_NAME], count=len(series),
             start=round(series[0][1]), end=round(series[-1][1]), high=round(high))[:MAX_DESCRIPTION]
