"""Component ids, move labels and game views: the limits Discord enforces, checked without Discord."""

from __future__ import annotations

import random

import pytest

from bot.cogs.games.boards import MAX_MOVE_BUTTONS
from bot.cogs.games.components import GameButton
from bot.cogs.games.play import MoveMenu
from bot.cogs.games.texts import MAX_LABEL, move_label
from bot.cogs.games.views import game_view
from bot.sessions import GameState, Place, SeatState
from bot.ui.i18n import SUPPORTED
from bot.ui.views.ids import KINDS, MAX_CUSTOM_ID, ComponentId
from puluc import Position, Rules


def random_positions(rules: Rules, count: int, seed: int) -> list[Position]:
    """Positions met in random play under `rules`, each with a throw pending."""
    rng = random.Random(seed)
    found: list[Position] = []
    pos = Position.start(rules)
    while len(found) < count:
        if pos.is_over:
            pos = Position.start(rules)
        if pos.must_throw:
            pos = pos.throw([rng.choice(rules.throw_values) for _ in range(rules.throws_per_turn)])
            continue
        found.append(pos)
        pos = pos.play(rng.choice(pos.legal_moves()))
    return found


def running_state(pos: Position) -> GameState:
    rules = pos.rules
    seats = tuple(SeatState(seat, f"player {seat}", user_id=index + 1) for index, seat in enumerate(rules.seats))
    return GameState(game_id=123456789012, place=Place(1, 2), host_id=1, variant="bell", rules=rules, ranked=False,
                     turn_timer=600, status="running", seats=seats, seed=1, first="A", position=pos, seq=987654)


def test_every_component_id_round_trips_and_fits_discord() -> None:
    for kind in KINDS:
        for arg in ("-", "A", "3:17b", str(2**63)):
            component = ComponentId(kind, 2**63 - 1, 10**9, arg)
            text = str(component)
            assert len(text) <= MAX_CUSTOM_ID
            assert ComponentId.parse(text) == component


def test_a_malformed_component_id_is_refused() -> None:
    with pytest.raises(ValueError, match="not a Puluc component id"):
        ComponentId.parse("puluc:fly:1:2:-")
    with pytest.raises(ValueError, match="not a valid component id"):
        str(ComponentId("move", 1, 2, "3 7"))


@pytest.mark.parametrize("lang", SUPPORTED)
@pytest.mark.parametrize("preset", ["bell", "scorpion", "fire", "culin", "village"])
def test_move_labels_fit_a_button_in_every_language(lang: str, preset: str) -> None:
    rules = Rules.from_setup(preset, 8, "traditional")  # the longest road: two-digit cells
    for pos in random_positions(rules, 60, seed=len(preset)):
        for move in pos.legal_moves():
            label = move_label(pos.move_effect(move), lang)
            assert 0 < len(label) <= MAX_LABEL
            assert str(move.throw) in label


def test_the_game_view_has_one_button_per_move_and_a_resign_row() -> None:
    for pos in random_positions(Rules.from_setup("scorpion", 2, "traditional"), 40, seed=3):
        state = running_state(pos)
        view = game_view(state, "en")
        options = state.legal_options()
        buttons = [i for i in view.children if isinstance(i, GameButton)]
        menus = [i for i in view.children if isinstance(i, MoveMenu)]
        moves = [b for b in buttons if b.component.kind == "move"]
        if len(options) <= MAX_MOVE_BUTTONS:
            assert sorted(b.component.arg for b in moves) == sorted(o.notation for o in options)
            assert not menus
        else:
            assert len(menus) == 1 and not moves
        assert all(b.component.turn == state.seq for b in buttons)
        assert [b.component.kind for b in buttons if b.row == 4] == ["resign"]


def test_more_moves_than_buttons_become_one_menu(monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.cogs.games import views

    monkeypatch.setattr(views, "MAX_MOVE_BUTTONS", 1)
    pos = next(p for p in random_positions(Rules.preset("bell"), 50, seed=5) if len(p.legal_moves()) >= 2)
    state = running_state(pos)
    view = game_view(state, "en")
    (menu,) = [i for i in view.children if isinstance(i, MoveMenu)]
    assert menu.component == ComponentId("pick", state.game_id, state.seq)
    assert sorted(o.value for o in menu.item.options) == sorted(str(m) for m in pos.legal_moves())
    assert not [i for i in view.children if isinstance(i, GameButton) and i.component.kind == "move"]


def test_board_badges_carry_the_numbers_of_the_buttons_landing_there() -> None:
    from bot.cogs.games.boards import board_request
    from bot.ui.pictures import move_labels

    for pos in random_positions(Rules.from_setup("bell", 2, "traditional"), 40, seed=9):
        state = running_state(pos)
        request = board_request(state, None)
        labels = move_labels(request.position, request.labels_up_to)
        buttons = [b for b in game_view(state, "en").children
                   if isinstance(b, GameButton) and b.component.kind == "move"]
        for button in buttons:
            number, _ = str(button.item.label).split(". ", 1)
            effect = pos.move_effect(next(m for m in pos.legal_moves() if str(m) == button.component.arg))
            if effect.dest is not None:
                assert number in labels[effect.dest].split(",") or labels[effect.dest].endswith("+")
        assert all(1 <= len(text) <= 3 for text in labels.values())


def test_every_component_kind_is_answered_by_exactly_one_cog() -> None:
    from bot.cogs.games.lobby import Lobby
    from bot.cogs.games.play import Play

    templates = [item.__discord_ui_compiled_template__ for cog in (Lobby, Play) for item in cog.dynamic_items]
    for kind in KINDS:
        custom_id = str(ComponentId(kind, 1, 2, "A"))
        assert sum(bool(template.fullmatch(custom_id)) for template in templates) == 1, kind
