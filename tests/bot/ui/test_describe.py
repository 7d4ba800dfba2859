"""Boards in words: a board's description names every stack and piece its image shows, fits Discord's limit in
every language, and rides on every board, chart and replay the bot attaches (SimCord reads it)."""

from __future__ import annotations

import random
import re

import pytest

from bot.ui.describe import MAX_DESCRIPTION, describe_board, describe_chart, describe_rating_chart
from bot.ui.i18n import SUPPORTED
from puluc import Game, Move, Position, Rules, Throw
from puluc.ai import choose_move
from tests.helpers import World, game_message, move_ids, said


def crowded(rules: Rules, seed: int, moves: int = 400) -> Position:
    """The position with the most stacks on the road in an easy-player game of `rules`."""
    rng = random.Random(seed)
    game = Game.new(rules, rng)
    best = game.position
    for _ in range(moves):
        if game.position.is_over:
            break
        if game.position.must_throw:
            game.roll(rng)
        else:
            game.play(choose_move(game.position, "easy", rng))
        if len(game.position.stacks()) >= len(best.stacks()):
            best = game.position
    return best


def names_for(rules: Rules) -> dict[str, str]:
    return {seat: f"Player {seat} with a long name" for seat in rules.seats}


def shows_every_stack(text: str, position: Position, names: dict[str, str]) -> list[str]:
    """What of the position the description leaves out: each stack by cell and every piece in it, top first."""
    missing = []
    for cell, stack in position.stacks():
        short = f"{cell} {'>'.join(stack.pieces)}→"
        if short in text:
            continue
        found = re.search(rf"(Cell {cell}: .*?\.)(?= Cell | Pieces)", text)
        if found is None:
            missing.append(f"cell {cell}")
            continue
        said_ = found.group(1)
        for seat in stack.pieces:
            if names[seat] not in said_:
                missing.append(f"{seat} in cell {cell}")
    return missing


@pytest.mark.parametrize(("size", "variant"), [(1, "bell"), (2, "ants"), (8, "ants"), (8, "bell")])
def test_the_description_names_every_stack_and_piece_on_the_board(size: int, variant: str) -> None:
    rules = Rules.preset(variant, team_size=size)
    position = crowded(rules, seed=size)
    assert len(position.stacks()) >= 3
    names = names_for(rules)
    text = describe_board(position, "en", names)
    assert shows_every_stack(text, position, names) == []
    assert len(text) <= MAX_DESCRIPTION and not text.endswith("…")
    for seat in rules.seats:  # every seat's pieces at home and kills are told, by name or by seat
        home, kills = position.home(seat), position.kills(seat)
        assert f"{names[seat]}: {home} at home, {kills} killed" in text or f"{seat} {home}/{kills}" in text
    scores = position.scores()
    assert f"Score: team A {scores['A']}, team B {scores['B']}." in text


@pytest.mark.parametrize("lang", SUPPORTED)
def test_a_crowded_eight_a_side_board_fits_discords_limit_in_every_language(lang: str) -> None:
    rules = Rules.preset("ants", team_size=8)
    position = crowded(rules, seed=5)
    text = describe_board(position, lang, names_for(rules), happened="x" * 200)
    assert len(text) <= MAX_DESCRIPTION
    for cell, stack in position.stacks():  # the compact form still names each stack, seats top first
        assert f"{cell} {'>'.join(stack.pieces)}→" in text


def test_whose_turn_the_throw_and_what_happened_are_told() -> None:
    rules = Rules.preset("bell")
    position = Position.from_ppn(rules, "./B1+/./././A1+/./A1B1+/. A1:3,B1:3 A1:0,B1:0 A1 3")
    text = describe_board(position, "en", {"A1": "Alice", "B1": "Bob"}, happened="Bob entered a piece on cell 2.")
    assert "Alice (team A) threw 3 and is to move." in text
    assert "Just now: Bob entered a piece on cell 2." in text
    assert "Cell 8: a stack of 2 owned by Alice (team A), heading for team B's home, holding 1 captive (Bob)." in text


def test_a_finished_game_says_who_won() -> None:
    rng = random.Random(3)
    game = Game.new(Rules.preset("bell"), rng)
    while not game.position.is_over:
        if game.position.must_throw:
            game.roll(rng)
        else:
            game.play(choose_move(game.position, "easy", rng))
    position = game.position
    outcome = position.outcome()
    assert outcome is not None
    text = describe_board(position, "en")
    assert "The game is over" in text and f"{outcome.scores['A']} to {outcome.scores['B']}" in text


def test_a_chart_is_told_by_its_start_end_and_extremes() -> None:
    text = describe_chart([(1, 0.5), (2, 0.8), (3, 0.1), (4, 1.0)], "en", marked=[2, 3])
    assert "50% at the start, 100% after turn 4" in text
    assert "highest 100% (turn 4), lowest 10% (turn 3)" in text and "Marked turns: 2 and 3." in text


async def test_every_board_the_game_sends_carries_its_description(world: World) -> None:
    await world.alice.slash(world.games, "puluc ai", difficulty="easy")
    rng = random.Random(4)
    for _ in range(6):
        board = game_message(world.games)
        (attachment,) = [a for a in board.attachments if a.filename == "board.png"]
        assert attachment.description is not None and attachment.description.startswith("Puluc board")
        assert "alice" in attachment.description
        moves = move_ids(board)
        if not moves:
            break
        await world.alice.click(board, custom_id=rng.choice(moves))
    asked = await world.alice.slash(world.games, "puluc board", text=True)
    assert asked.response is not None and asked.response.ephemeral
    board = game_message(world.games)
    (attachment,) = [a for a in board.attachments if a.filename == "board.png"]
    assert said(asked) == attachment.description


async def test_the_rules_and_help_pictures_carry_descriptions(world: World) -> None:
    for command, options in (("puluc rules", {"variant": "eagle"}), ("puluc help", {})):
        answered = await world.alice.slash(world.games, command, **options)
        messages = [*answered.followups, *([answered.response] if answered.response else [])]
        files = [a for m in messages for a in m.attachments]
        assert files and all(a.description and a.description.startswith("Puluc board") for a in files)


def test_a_rating_chart_is_told_by_its_games_and_ratings() -> None:
    text = describe_rating_chart([(1, 1500.0), (2, 1530.4), (3, 1512.0)], "Alice", "en")
    assert text == "Rating chart of Alice over 3 games: from 1500 to 1512, highest 1530."


def test_a_turn_of_two_throws_says_which_is_still_to_play() -> None:
    rules = Rules.preset("ants", team_size=2)
    road = "/".join(["A1+", *["."] * 18])
    position = Position.from_ppn(rules, f"{road} A1:4,B1:5,A2:5,B2:5 A1:0,B1:0,A2:0,B2:0 A1 -")
    thrown = position.throw([3, 2])
    throws = (Throw.for_value(3), Throw.for_value(2))
    assert "threw 3 and 2 and is to move." in describe_board(thrown, "en", throws=throws)
    played = thrown.play(Move.parse("3:1"))
    assert played.pending == (2,)
    assert "threw 3 and 2 and is to move. Still to play: 2." in describe_board(played, "en", throws=throws)
