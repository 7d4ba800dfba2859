"""The bot's pictures: boards in the reader's language with the players' names and the buttons' numbers, the
rules pages' examples, the legend, and `--demo` drawing exactly what the game message shows."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from PIL import Image

from bot.cli import demo
from bot.cogs.games.boards import (
    MAX_MOVE_BUTTONS,
    RULES_EXAMPLES,
    board_description,
    board_request,
    board_texts,
    ended_off_the_board,
    rules_example,
    seat_names,
)
from bot.services import services
from bot.sessions import GameState, Place, SeatState
from bot.ui.i18n import SUPPORTED
from bot.ui.pictures import draw_board, draw_legend, draw_position, move_labels
from puluc import PRESETS, Position, Rules
from renderer.fonts import text_width
from renderer.layout import layout_for
from renderer.legend import key_room
from renderer.panels import turn_line
from renderer.paths import move_path
from renderer.texts import DEFAULT_TEXTS, resolve
from tests.helpers import (
    World,
    custom_ids,
    finished_bell_game,
    game_message,
    move_ids,
    played,
    present,
    random_record,
)


def running(position: Position, *, ai: str | None = None) -> GameState:
    rules = position.rules
    seats = tuple(
        SeatState(seat, f"player {seat}", user_id=None if ai else i + 1, ai_level=ai)
        for i, seat in enumerate(rules.seats)
    )
    return GameState(game_id=7, place=Place(1, 2), host_id=1, variant="bell", rules=rules, ranked=False,
                     turn_timer=600, status="running", seats=seats, seed=3, first="A", position=position, seq=11)


@pytest.mark.parametrize("lang", SUPPORTED)
def test_every_language_has_every_word_the_boards_draw(lang: str) -> None:
    texts = board_texts(lang)
    assert set(texts) == set(DEFAULT_TEXTS)
    resolve(texts)  # the renderer accepts them: known keys, only the placeholders it fills
    if lang != "en":
        assert texts["to_move"] != DEFAULT_TEXTS["to_move"] and texts["legend_title"] != DEFAULT_TEXTS["legend_title"]


@pytest.mark.parametrize("lang", SUPPORTED)
def test_the_legend_words_fit_their_column_in_every_language(lang: str) -> None:
    size = layout_for(9, 1).text_size
    for key, text in board_texts(lang).items():
        if key.startswith("legend_") and key != "legend_title":
            assert text_width(text, size) <= key_room(), f"{lang} {key}: {text!r} would be cut"


def test_the_header_names_the_player_in_the_readers_language() -> None:
    position = Position.start(Rules.preset("bell")).throw([3])
    state = running(position)
    assert seat_names(state, "en")["A1"] == "player A1"
    assert turn_line(position, seat_names(state, "uk"), board_texts("uk")) == "A1 player A1 ходить"
    ai = running(position, ai="hard")
    assert turn_line(position, seat_names(ai, "fr"), board_texts("fr")).startswith("À A1 ")
    english, french = (draw_board(board_request(state, None, 0, lang)) for lang in ("en", "fr"))
    assert english != french


@pytest.mark.parametrize("variant", ["bell", "ants", "village"])
def test_badges_carry_every_buttons_number_including_arrivals(variant: str) -> None:
    rules = Rules.preset(variant, team_size=2)
    arrivals = 0
    positions = (random_record(rules, seed, 400).positions() for seed in range(1, 4))
    for position in (p for game in positions for p in game):
        if position.is_over or not position.legal_moves():
            continue
        labels = move_labels(position, MAX_MOVE_BUTTONS)
        for number, move in enumerate(position.legal_moves(), start=1):
            effect = position.move_effect(move)
            key: int | str = effect.dest if effect.dest is not None else f"home-{move_path(rules, effect).home}"
            arrivals += effect.dest is None
            assert str(number) in labels[key].split(",") or labels[key].endswith("+"), (position.to_ppn(), move)
    assert arrivals, "no arrival was labelled; pick other seeds"


def test_no_badges_when_the_moves_are_a_menu_or_the_ai_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    position = next(
        p for seed in range(1, 30) if (p := played(Rules.preset("bell"), seed, 6).throw([2])).legal_moves()
    )
    assert badges(running(position))
    assert badges(running(position, ai="medium")) == {}
    import bot.cogs.games.boards as boards

    monkeypatch.setattr(boards, "MAX_MOVE_BUTTONS", len(position.legal_moves()) - 1)
    assert badges(running(position)) == {}
    assert MAX_MOVE_BUTTONS >= 20


def badges(state: GameState) -> dict[int | str, str]:
    """The badges a worker draws on the game message's board of `state`."""
    request = board_request(state, None)
    return move_labels(request.position, request.labels_up_to)


@pytest.mark.parametrize("variant", PRESETS)
def test_each_rules_page_shows_its_variant_at_work(variant: str) -> None:
    assert set(RULES_EXAMPLES) == set(PRESETS)
    position = rules_example(variant)
    before = Position.from_ppn(Rules.preset(variant), RULES_EXAMPLES[variant][0])
    effect = position.last_move
    assert effect is not None and not position.is_over
    path = move_path(position.rules, effect)
    special = {
        "bell": effect.arrives and path.home == "B" and effect.kills == 1,  # the army marches into B's home
        "ants": effect.captures and (stack := position.stack_at(6)) is not None and stack.direction == "-",
        "eagle": effect.kills == 1 and position.gone("A1") == before.gone("A1") + 1,  # the eagle is spent
        "scorpion": effect.move.backward and effect.captures,
        "fire": effect.burns,
        "culin": len(path.legs) == 2 and path.legs[1].jump,  # off cell 9, on again at cell 1
        "village": effect.arrives and path.home == "A",  # a lone piece past the end goes straight home
    }
    assert special[variant]
    png = draw_position(position, board_texts("it"))
    assert Image.open(io.BytesIO(png)).format == "PNG"


def test_the_legend_is_drawn_in_each_language() -> None:
    pictures = {lang: draw_legend(board_texts(lang)) for lang in SUPPORTED}
    assert len(set(pictures.values())) == len(SUPPORTED)
    width, height = Image.open(io.BytesIO(pictures["uk"])).size
    assert width == 800 and height > width // 2


# -- the demo draws what the bot sends -----------------------------------------------------------------


async def test_the_demo_draws_exactly_the_board_the_game_message_carries(world: World) -> None:
    opened = await world.alice.slash(world.games, "puluc new")
    message = present(opened.response).message
    await world.bob.click(message, custom_id="puluc:join:1:0:B")
    await world.alice.click(message, custom_id="puluc:start:1:0:-")
    bot = services(world.env.bot)
    for _ in range(3):  # a few moves in: a last move, throws, badges and names on the board
        session = bot.manager.get(1)
        mover = session.state.to_move
        assert mover is not None and mover.user_id is not None
        shown = game_message(world.games)
        await world.member(mover.user_id).click(shown, custom_id=move_ids(shown)[0])
    shown = game_message(world.games)
    assert custom_ids(shown, "puluc:move:")
    (attachment,) = [a for a in shown.attachments if a.filename == "board.png"]
    sent = await attachment.read()
    state = bot.manager.get(1).state
    drawn = demo.board_png(state, bot.presenter.last_move(1), "en", bot.config.advantage_bar_ms)
    assert drawn == sent
    # A demo board that skipped the game message's parts (names, badges) would differ.
    assert demo.board_png(replace(state, seats=tuple(replace(s, name="x") for s in state.seats)),
                          bot.presenter.last_move(1), "en", bot.config.advantage_bar_ms) != sent


async def test_a_game_given_up_or_cancelled_ends_its_board_with_its_result() -> None:
    from renderer import Ended

    resigned = await finished_bell_game(moves=3)  # alice (team A) resigns on a running position
    assert resigned.position is not None and resigned.position.outcome() is None
    assert ended_off_the_board(resigned) == Ended("B")
    request = board_request(resigned, None, lang="fr")
    assert request.ended == Ended("B") and request.throws == ()
    assert turn_line(request.position, request.names, request.texts, ended=request.ended).startswith(
        "L’équipe B gagne")
    assert draw_board(request) != draw_board(replace(request, ended=None)), "the header is drawn from it"
    told = board_description(resigned, "en")  # the image's words for a screen reader say the same
    assert "team B wins, 0 to 0" in told and "to move" not in told and "to throw" not in told
    cancelled = board_description(replace(resigned, status="cancelled", winner=None), "fr")
    assert "La partie a été annulée" in cancelled
    assert ended_off_the_board(replace(resigned, status="cancelled", winner=None)) == Ended(None)
    assert ended_off_the_board(replace(resigned, status="running", winner=None)) is None
    won = await finished_bell_game()  # played to the end: the board itself says who won
    assert won.position is not None and won.position.is_over and ended_off_the_board(won) is None
