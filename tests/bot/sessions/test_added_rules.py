"""Rules a host adds to a variant (fire, scorpion, the returning eagle): what the engine gets, what it refuses
and why (its code and fields, for a translated refusal), and whole games played with them, stored, read back
and rematched with the same rules."""

from __future__ import annotations

import random

import pytest

from bot.sessions import GameOptions, Moved, SessionManager
from bot.sessions.errors import InvalidOptions
from bot.sessions.rebuild import state_from_log
from bot.sessions.state import rule_fits, server_rules
from bot.storage import Storage
from bot.storage.types import GuildSettings
from puluc import PRESETS
from tests.helpers import ALICE, started_duel

MAX_GAMES = 40  # a backward strike needs the dice to offer one; seeded games find it in the first few


def test_added_rules_reach_the_engine() -> None:
    rules = GameOptions(variant="bell", fire=True, scorpion=True).rules()
    assert (rules.route, rules.capture, rules.fire, rules.scorpion, rules.eagle_returns) == (
        "army", "stack", True, True, False)
    assert GameOptions(variant="eagle", eagle_returns=True).rules().eagle_returns
    assert GameOptions(variant="village", team_size=2, scorpion=True).rules().one_active  # the setup stays


def test_which_variants_take_which_added_rule() -> None:
    fits = {(variant, rule) for variant in PRESETS for rule in ("fire", "scorpion", "eagle_returns")
            if rule_fits(variant, rule)}
    assert {v for v, r in fits if r == "fire"} == set(PRESETS)
    assert {v for v, r in fits if r == "scorpion"} == set(PRESETS) - {"culin"}
    assert {v for v, r in fits if r == "eagle_returns"} == {"eagle"}
    assert not rule_fits("chess", "fire")  # an unknown variant takes nothing


def test_a_servers_default_rules_go_where_the_variant_takes_them() -> None:
    everything = GuildSettings(1, "eagle", None, None, fire=True, scorpion=True, eagle_returns=True)
    assert server_rules("eagle", everything) == {"fire": True, "scorpion": True, "eagle_returns": True}
    assert server_rules("culin", everything) == {"fire": True, "scorpion": False, "eagle_returns": False}
    unset = GuildSettings(1, None, None, None, fire=None, scorpion=False)
    assert server_rules("bell", unset) == {"fire": False, "scorpion": False, "eagle_returns": False}


def test_not_adding_a_rule_keeps_the_variants_own() -> None:
    assert GameOptions(variant="fire").rules().fire
    assert GameOptions(variant="scorpion").rules().scorpion


@pytest.mark.parametrize(
    ("options", "params"),
    [
        (GameOptions(variant="culin", scorpion=True), {"code": "scorpion_on_culin", "field": "scorpion"}),
        (GameOptions(variant="bell", eagle_returns=True),
         {"code": "eagle_returns_without_eagle", "field": "eagle_returns"}),
        (GameOptions(variant="chess"), {"code": "unknown_choice", "field": "preset", "value": "chess"}),
        (GameOptions(team_size=9), {"code": "out_of_range", "field": "team_size", "low": 1, "high": 8}),
        (GameOptions(turn_timer=5), {"code": "out_of_range", "field": "turn_timer", "low": 30, "high": 604_800}),
    ],
)
def test_a_refused_combination_carries_the_engines_code_and_fields(
    options: GameOptions, params: dict[str, object]
) -> None:
    with pytest.raises(InvalidOptions) as refused:
        options.rules()
    assert params.items() <= refused.value.params.items()


async def test_games_with_fire_and_scorpion_burn_strike_backward_and_come_back_the_same(
    manager: SessionManager, storage: Storage
) -> None:
    options = GameOptions(variant="bell", fire=True, scorpion=True)
    rng = random.Random(19)
    backward = burned = None
    for _ in range(MAX_GAMES):
        session = await started_duel(manager, options)
        while session.state.status == "running":
            state = session.state
            assert state.to_move is not None and state.to_move.user_id is not None
            choices = state.legal_options()
            wanted = [o for o in choices if o.move.backward or (o.effect.burns and burned is None)]
            result = await session.play(state.to_move.user_id, rng.choice(wanted or choices).notation, turn=state.seq)
            for happening in result.happenings:
                if isinstance(happening, Moved) and happening.effect.move.backward:
                    backward = backward or happening
                if isinstance(happening, Moved) and happening.effect.burns:
                    burned = burned or happening
        stored = state_from_log(await storage.games.game_log(session.state.game_id))
        assert (stored.rules.fire, stored.rules.scorpion, stored.status) == (True, True, "finished")
        if backward is not None and burned is not None:
            break
    assert backward is not None and backward.effect.captured  # a backward move always captures
    assert burned is not None and burned.effect.dest == 5  # the middle cell of the 9-cell road
    rematch = await manager.rematch(session.state, ALICE)
    assert (rematch.state.rules.fire, rematch.state.rules.scorpion) == (True, True)
