"""Hints at the session layer: the hard player's move with the caller's team's chance to win, casual only."""

from __future__ import annotations

import random

import pytest

from bot.seeds import ai_rng
from bot.sessions import GameOptions, SessionManager
from bot.sessions.errors import HintNotAllowed, NotYourTurn
from bot.sessions.manager import engine_advisor
from bot.storage import Storage
from puluc import Position
from puluc.ai import Hint, hint
from tests.helpers import ALICE, BOB, CHANNEL, FakeClock, RandomPicker, make_manager, started_duel


class RecordingAdvisor:
    """Stands in for the hard player: the last legal move, a fixed chance, and every generator it was given."""

    def __init__(self, chance: float) -> None:
        self.chance = chance
        self.draws: list[float] = []

    async def __call__(self, position: Position, rng: random.Random) -> Hint:
        self.draws.append(rng.random())
        return Hint(position.legal_moves()[-1], self.chance, alternatives=(), depth=1)


def advised_manager(storage: Storage, clock: FakeClock, picker: RandomPicker,
                    advisor: RecordingAdvisor) -> SessionManager:
    # The advisor is the seam the bot fills with the real AI (bot.services).
    return make_manager(storage.games, clock, picker, advisor=advisor)


async def test_a_hint_names_the_advised_move_and_the_callers_chance(storage: Storage, clock: FakeClock,
                                                                     picker: RandomPicker) -> None:
    advisor = RecordingAdvisor(0.62)
    session = await started_duel(advised_manager(storage, clock, picker, advisor))
    seat = session.state.to_move
    position = session.state.position
    assert seat is not None and seat.user_id is not None and position is not None
    suggestion = await session.suggest(seat.user_id)
    assert suggestion.move == position.legal_moves()[-1]
    assert suggestion.notation == str(suggestion.move)
    assert suggestion.effect == position.move_effect(suggestion.move)
    assert suggestion.chance == pytest.approx(0.62)


async def test_asking_twice_gives_the_same_hint_from_the_games_own_generator(storage: Storage, clock: FakeClock,
                                                                             picker: RandomPicker) -> None:
    advisor = RecordingAdvisor(0.5)
    session = await started_duel(advised_manager(storage, clock, picker, advisor))
    seat = session.state.to_move
    assert seat is not None and seat.user_id is not None
    await session.suggest(seat.user_id)
    await session.suggest(seat.user_id)
    state = session.state
    assert state.seed is not None
    assert advisor.draws == [ai_rng(state.seed, state.seq).random()] * 2


async def test_hints_are_refused_in_ranked_games_and_off_turn(storage: Storage, clock: FakeClock,
                                                              picker: RandomPicker) -> None:
    advisor = RecordingAdvisor(0.5)
    manager = advised_manager(storage, clock, picker, advisor)
    ranked = await manager.challenge(ALICE, BOB, CHANNEL, GameOptions(ranked=True))
    game = manager.get(ranked.game_id)
    await game.accept(BOB, BOB.user_id, 4)
    seat = game.state.to_move
    assert seat is not None and seat.user_id is not None
    with pytest.raises(HintNotAllowed):
        await game.suggest(seat.user_id)
    await game.cancel(ALICE.user_id)

    casual = await started_duel(manager)
    seat = casual.state.to_move
    assert seat is not None
    waiting = BOB if seat.user_id == ALICE.user_id else ALICE
    with pytest.raises(NotYourTurn):
        await casual.suggest(waiting.user_id)
    assert advisor.draws == []


async def test_the_engine_advisor_is_the_hard_players_hint(manager: SessionManager) -> None:
    session = await started_duel(manager)  # the manager's default advisor is the real AI
    state = session.state
    seat = state.to_move
    assert seat is not None and seat.user_id is not None and state.position is not None and state.seed is not None
    suggestion = await session.suggest(seat.user_id)
    expected = hint(state.position, ai_rng(state.seed, state.seq), budget_ms=300)
    assert (suggestion.move, suggestion.chance) == (expected.move, expected.expected_value)


async def test_the_engine_advisor_reports_the_movers_chance_between_zero_and_one() -> None:
    from puluc import Rules, Throw

    position = Position.start(Rules.preset("bell"), "B").throw([Throw.roll(random.Random(3), "bell")])
    advice = await engine_advisor(20)(position, random.Random(1))
    assert advice.move in position.legal_moves()
    assert 0.0 <= advice.expected_value <= 1.0
