"""The component rows of each game message, built from a session state: lobby, challenge, game, end."""

from __future__ import annotations

import discord

from bot.cogs.games.boards import MAX_MOVE_BUTTONS
from bot.cogs.games.components import GameButton
from bot.cogs.games.lobby import LOBBY_BUTTONS, LobbyButton
from bot.cogs.games.play import MoveMenu, PlayButton
from bot.cogs.games.texts import MAX_LABEL, move_label
from bot.sessions import GameState, MoveOption
from bot.ui.i18n import t
from bot.ui.links import web_links
from bot.ui.views.ids import NO_ARG, ComponentId
from bot.ui.views.web import with_link

MAX_MENU_OPTIONS = 25


def _button(kind: str, state: GameState, label: str, style: discord.ButtonStyle, *, arg: str = NO_ARG,
            row: int | None = None, turn: int | None = None) -> GameButton:
    component = ComponentId(kind, state.game_id, state.seq if turn is None else turn, arg)
    button: type[GameButton] = LobbyButton if kind in LOBBY_BUTTONS else PlayButton  # the cog that answers it
    return button(component, label=label, style=style, row=row)


def lobby_view(state: GameState, lang: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    green, grey, blue, red = (discord.ButtonStyle.success, discord.ButtonStyle.secondary,
                              discord.ButtonStyle.primary, discord.ButtonStyle.danger)
    if state.tournament_id is not None:  # a tournament match: seated already, either player starts it
        view.add_item(_button("start", state, t("button.start", lang), blue))
        return view
    free = state.free_seats()
    for team in ("A", "B"):
        has_free = any(seat[0] == team for seat in free)
        join = _button("join", state, t("button.join_team", lang, team=team), green, arg=team, row=0)
        join.item.disabled = not has_free
        view.add_item(join)
    for team in ("A", "B"):
        has_free = any(seat[0] == team for seat in free)
        add = _button("addai", state, t("button.add_ai", lang, team=team), grey, arg=team, row=0)
        add.item.disabled = not has_free
        view.add_item(add)
    view.add_item(_button("leave", state, t("button.leave", lang), grey, row=1))
    start = _button("start", state, t("button.start", lang), blue, row=1)
    start.item.disabled = bool(free)
    view.add_item(start)
    if state.rules.team_size > 1:  # the host balances the teams by rating once every seat is taken
        balance = _button("balance", state, t("button.balance", lang), grey, row=1)
        balance.item.disabled = bool(free)
        view.add_item(balance)
    view.add_item(_button("cancel", state, t("button.cancel", lang), red, row=1))
    return view


def challenge_view(state: GameState, invited_id: int, lang: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(_button("accept", state, t("button.accept", lang), discord.ButtonStyle.success,
                          arg=str(invited_id)))
    view.add_item(_button("decline", state, t("button.decline", lang), discord.ButtonStyle.danger,
                          arg=str(invited_id)))
    return view


def game_view(state: GameState, lang: str, *, activity: bool = False) -> discord.ui.View:
    """One button per legal move (a menu when there are more than 20), Resign, and with the Discord Activity
    configured (`activity`) "Play on the board", which opens it."""
    view = discord.ui.View(timeout=None)
    options = state.legal_options() if state.to_move is not None and not state.to_move.played_by_ai else []
    if len(options) <= MAX_MOVE_BUTTONS:
        for index, option in enumerate(options):
            view.add_item(_move_button(state, option, index + 1, lang, row=index // 5))
    else:
        choices = [
            discord.SelectOption(label=move_label(o.effect, lang)[:100], value=o.notation)
            for o in options[:MAX_MENU_OPTIONS]
        ]
        view.add_item(MoveMenu(ComponentId("pick", state.game_id, state.seq), choices,
                               placeholder=t("game.pick_move", lang), row=0))
    view.add_item(_button("resign", state, t("button.resign", lang), discord.ButtonStyle.danger, row=4))
    if activity:  # valid at any turn of the game: made for turn 0, never stale
        view.add_item(_button("launch", state, t("button.play_on_board", lang), discord.ButtonStyle.primary, row=4,
                              turn=0))
    return _web(view, state, lang, row=4)


def _web(view: discord.ui.View, state: GameState, lang: str, *, row: int | None = None) -> discord.ui.View:
    """The game's web page (live while it runs, its replay once finished) as a link button, when there is one."""
    links = web_links()
    return with_link(view, links.game(state.game_id) if links is not None else None, lang, row=row) or view


def _move_button(state: GameState, option: MoveOption, number: int, lang: str, *, row: int) -> GameButton:
    # The number matches the badge the board draws on the move's destination (`bot.ui.pictures.move_labels`).
    style = discord.ButtonStyle.success if option.effect.captures or option.effect.kills else (
        discord.ButtonStyle.primary)
    label = f"{number}. {move_label(option.effect, lang)}"[:MAX_LABEL]
    return _button("move", state, label, style, arg=option.notation, row=row)


def end_view(state: GameState, lang: str) -> discord.ui.View:
    """Rematch and Replay under a finished game; a cancelled one keeps no buttons."""
    view = discord.ui.View(timeout=None)
    if state.status != "finished":
        return view
    if state.tournament_id is None:  # a tournament decides who plays whom next
        view.add_item(_button("rematch", state, t("button.rematch", lang), discord.ButtonStyle.primary, turn=0))
    view.add_item(_button("replay", state, t("button.replay", lang), discord.ButtonStyle.secondary, turn=0))
    return _web(view, state, lang)
