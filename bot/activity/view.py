"""What the Activity's page shows of a channel's game to one member, as JSON: the board (SVG), whose turn it
is, the throw, the score, the narration, and, for the member to move only, the moves as pieces to touch.

A move's `from` and `to` name the board's places as the SVG's `data-` attributes and the game message's badges
do (`renderer.label_target`): a cell number, or `home-A` / `home-B` (a piece entering from its home, a stack
arriving at one). Everything is in the member's language; every text is plain text (the page never inserts it
as markup).
"""

from __future__ import annotations

from typing import Any

from bot.cogs.games.texts import game_title, move_label, seat_name, throws_text
from bot.sessions import GameState
from bot.ui.i18n import t
from renderer import label_target

JsonObject = dict[str, Any]

#: The page's own words (the `[activity.page]` table), sent with the sign-in in the member's language; the ones
#: with placeholders (whose turn it is) come filled in, in each view.
PAGE_TEXTS = (
    "activity.page.loading",
    "activity.page.signing_in",
    "activity.page.no_game",
    "activity.page.lobby",
    "activity.page.spectating",
    "activity.page.pick_piece",
    "activity.page.pick_target",
    "activity.page.enter",
    "activity.page.arrive",
    "activity.page.cancel",
    "activity.page.offline",
    "activity.page.board",
    "activity.page.moves",
    "activity.page.keyboard",
    "activity.page.authorize",
)


def page_texts(lang: str) -> dict[str, str]:
    """The page's words in `lang`, by their key without the `activity.page.` prefix."""
    return {key.removeprefix("activity.page."): t(key, lang) for key in PAGE_TEXTS}


def place_key(value: int | str | None, team: str) -> str:
    """A board place as the page names it: a cell number, or `home-<team>` for a home (None: the mover's)."""
    return f"home-{team}" if value is None else str(value)


def moves_of(state: GameState, user_id: int, lang: str) -> list[JsonObject]:
    """The member's moves when it is their turn (none otherwise): each with where it starts and lands."""
    mover = state.to_move
    if state.status != "running" or mover is None or mover.user_id != user_id or mover.played_by_ai:
        return []
    found = []
    for option in state.legal_options():
        effect = option.effect
        found.append({
            "move": option.notation,
            "from": place_key(effect.source, mover.team),
            "to": place_key(label_target(state.rules, effect), mover.team),
            "label": move_label(effect, lang),
            "captures": bool(effect.captures or effect.kills),
        })
    return found


def game_view(state: GameState | None, user_id: int, lang: str, *, narration: list[str], svg: str | None
              ) -> JsonObject:
    """The page's whole view of the channel's game (None: no game here) for the member `user_id`."""
    if state is None:
        return {"status": "none", "message": t("activity.page.no_game", lang)}
    you = state.seat_of(user_id)
    view: JsonObject = {
        "status": state.status,
        "game_id": str(state.game_id),
        "seq": state.seq,
        "title": game_title(state, lang),
        "you": you.seat if you is not None else None,
        "svg": svg,
        "narration": narration,
        "moves": moves_of(state, user_id, lang),
    }
    if state.status == "lobby":
        view["turn"] = t("activity.page.lobby", lang)
        return view
    if state.position is not None:
        scores = state.position.scores() if state.status == "running" else (state.scores or state.position.scores())
        view["score"] = [t("game.team_score", lang, team=team, count=scores[team]) for team in ("A", "B")]
    mover = state.to_move
    if state.status == "running" and mover is not None:
        name = seat_name(mover, lang)
        if mover.user_id == user_id and not mover.played_by_ai:
            view["turn"] = t("activity.page.your_turn", lang)
        elif mover.played_by_ai:
            view["turn"] = t("activity.page.ai_turn", lang, player=name)
        else:
            view["turn"] = t("activity.page.their_turn", lang, player=name)
        view["mover"] = mover.seat
        if state.turn_throws:
            view["throw"] = t("game.threw", lang, player=name,
                              throws=throws_text((throw.value for throw in state.turn_throws), lang))
    elif state.status == "finished":
        scores = state.scores or {"A": 0, "B": 0}
        view["turn"] = (t("game.draw", lang, score_a=scores["A"], score_b=scores["B"]) if state.winner is None
                        else t("game.won", lang, team=state.winner, score_a=scores["A"], score_b=scores["B"]))
    else:
        view["turn"] = t("game.cancelled", lang)
    return view
