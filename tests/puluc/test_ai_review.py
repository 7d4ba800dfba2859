"""The review of a finished game (puluc.ai.review) and the exact Bell table it reads (puluc.ai.exact)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from puluc import Game, GameRecord, InvalidSeatError, Position, Rules, Throw, throw_probabilities
from puluc.ai import bar_chance, win_chance, win_probability
from puluc.ai.exact import ExactTable, Ranker
from puluc.ai.review import EXACT, SEARCH, review_game

TABLE_FILE = Path(__file__).resolve().parents[2] / "bot" / "exact" / "bell.bin"

#: A Bell game (A1 plays a random move half the time, B1 perfectly). research/exact_1v1.py's own table (the
#: solver's keys and values, not puluc.ai.exact's ranking) gives A1's costliest decisions: the turn starting at
#: position 16 (5:2 played) lost 24.69 points of chance, 36 (2:1) 10.60, 40 (1:H) 9.40, the next 20 (3:H) 3.77.
BELL_GAME = (
    "3 3:H 2 2:H 2 2:H 2 2:8 2 2:3 2 2:H 1 1:5 5 5:H 5 5:2 2 2:8 3 3:H 1 1:H 1 1:H 1 1:9 2 2:3 3 3:8 2 2:7 3 3:H "
    "2 2:1 3 3:6 1 1:H 2 2:3 2 2:9 2 2:1 3 3:H 2 2:5"
)
SOLVER_COSTLIEST = ((16, 0.24694), (36, 0.10604), (40, 0.09401))


def record_of(rules: Rules, text: str, first: str = "A") -> GameRecord:
    """A record from alternating throw values and moves, as in BELL_GAME."""
    game = Game.new(rules, random.Random(0), first=first)
    for word in text.split():
        if ":" in word:
            game.play(word)
        else:
            game.throw([Throw.for_value(int(word), rules.sticks)])
    return game.record


@pytest.fixture(scope="module")
def bell_table() -> ExactTable:
    return ExactTable.from_bytes(TABLE_FILE.read_bytes())


def test_the_review_ranks_a_bell_game_as_the_exact_solution_does(bell_table: ExactTable) -> None:
    review = review_game(record_of(Rules.preset("bell"), BELL_GAME), "A1", bell_table)
    assert review.method == EXACT
    costliest = review.costliest(3)
    assert [d.event for d in costliest] == [event for event, _ in SOLVER_COSTLIEST]
    for decision, (_, cost) in zip(costliest, SOLVER_COSTLIEST, strict=True):
        assert decision.cost == pytest.approx(cost, abs=5e-4)  # two steps of the table's 12 bits
    worst = costliest[0]
    assert [str(m) for m in worst.played] == ["5:2"]
    assert worst.best != worst.played and worst.chance_best > worst.chance_played


def test_every_decision_of_the_seat_is_a_turn_with_a_choice(bell_table: ExactTable) -> None:
    record = record_of(Rules.preset("bell"), BELL_GAME)
    review = review_game(record, "B1", bell_table)
    positions = list(record.positions())
    assert review.seat == "B1" and review.decisions
    for decision in review.decisions:
        assert positions[decision.event].must_throw and positions[decision.event].to_move == "B1"
        assert decision.before == positions[decision.event + 1]
        assert len(decision.before.legal_moves()) > 1
    # B1 played perfectly: nothing it did cost more than the table's rounding.
    assert review.total_cost < 0.002


def test_the_exact_chance_agrees_with_the_turn_it_ends(bell_table: ExactTable) -> None:
    """Before a throw, the exact chance is the average over the throws of the best end of the turn."""
    rules = Rules.preset("bell")
    position = record_of(rules, BELL_GAME).replay()
    rng = random.Random(4)
    probabilities = throw_probabilities("bell")
    checked = 0
    for pos in itertools.islice(_random_positions(rules, rng), 200):
        if pos.must_throw and not pos.is_over:
            averaged = sum(p * bell_table.chance(pos.throw([n])) for n, p in probabilities.items())
            assert bell_table.chance(pos) == pytest.approx(averaged, abs=1e-3)
            checked += 1
    assert checked > 50
    assert bell_table.chance(position) == 0.0  # B won


def _random_positions(rules: Rules, rng: random.Random) -> Iterator[Position]:
    while True:
        pos = Position.start(rules, rng.choice("AB"))
        while not pos.is_over:
            yield pos
            if pos.must_throw:
                pos = pos.throw([Throw.roll(rng, rules.sticks).value])
            else:
                pos = pos.play(rng.choice(pos.legal_moves()))


#: An ants game (A1 plays a random move half the time, B1 medium): at position 24 A1 threw 4 and moved its piece
#: from cell 1 where entering would have taken B1's tower over two of A1's own pieces (freeing them); the hard
#: search rates that at about 24 points, eight times the next costliest decision.
ANTS_GAME = (
    "1 1:H 2 2:H 2 2:H 3 3:H 2 2:2 2 2:7 2 2:H 3 3:5 3 3:H 3 3:8 3 3:3 2 2:2 4 4:1 5 5:H 5 5:H 4 4:H 3 3:5 4 4:4 "
    "2 2:2 1 1:8"
)


def test_a_game_the_table_does_not_cover_is_reviewed_by_search(bell_table: ExactTable) -> None:
    record = record_of(Rules.preset("ants"), ANTS_GAME)
    for table in (None, bell_table):  # the Bell table does not cover ants: search either way
        review = review_game(record, "A1", table)
        assert review.method == SEARCH
        worst, *others = review.costliest(3)
        assert worst.event == 24
        assert [str(m) for m in worst.played] == ["4:1"] and [str(m) for m in worst.best] == ["4:H"]
        assert worst.before.move_effect(worst.best[0]).captured == ("B1", "A1", "A1")
        assert worst.cost > 0.1 and all(worst.cost > 2 * d.cost for d in others)


def test_the_review_of_a_seat_not_in_the_game_is_refused() -> None:
    record = record_of(Rules.preset("ants"), ANTS_GAME)
    with pytest.raises(InvalidSeatError):
        review_game(record, "A2")


def test_a_record_cut_inside_a_turn_has_no_decision_for_that_turn() -> None:
    # Two throws a turn: A1 threw 2 and 3 and played one move before the record stopped.
    rules = Rules.preset("ants", throws_per_turn=2)
    game = Game.new(rules, random.Random(0), first="A")
    game.throw([Throw.for_value(2, "bell"), Throw.for_value(3, "bell")])
    game.play("2:H")
    assert review_game(game.record, "A1").decisions == ()


# -- the exact table's numbering --------------------------------------------------------------------------


def test_the_ranking_numbers_every_position_once() -> None:
    patterns = [(1, 0), (1, 1), (2, 1), (2, 2)]
    ranker = Ranker(patterns, 4)
    cells = [(0, 0), *patterns]
    seen = set()
    for board in itertools.product(cells, repeat=4):
        mine = sum(size - bits.bit_count() for size, bits in board)
        enemy = sum(bits.bit_count() for _, bits in board)
        if mine > 5 or enemy > 5:
            with pytest.raises(ValueError, match="more than five pieces"):
                ranker.rank(board, 0, 0)
            continue
        for home_mine in range(6 - mine):
            for home_enemy in range(6 - enemy):
                seen.add(ranker.rank(board, home_mine, home_enemy))
    assert seen == set(range(ranker.size))


def test_a_table_reads_back_what_it_was_made_of() -> None:
    rules = Rules.preset("bell", road_length=5)
    ranker = Ranker([(1, 0), (1, 1), (2, 1), (2, 2)], 5)
    values = [random.Random(i).random() for i in range(ranker.size)]
    table = ExactTable.from_bytes(ExactTable.from_values(rules, ranker, values).to_bytes())
    assert table.covers(rules) and not table.covers(Rules.preset("bell"))
    for other in (Rules.preset("bell", road_length=5, fire=True), Rules.preset("ants", road_length=5)):
        # Their positions need kills or directions, which no table keeps.
        with pytest.raises(ValueError, match="exact tables hold 1 v 1 Bell games"):
            ExactTable.from_values(other, ranker, values)
    rng = random.Random(3)
    for pos in itertools.islice(_random_positions(rules, rng), 300):
        if pos.must_throw and not pos.is_over and all(s is None or len(s) <= 3 for s in pos.raw_board):
            me = pos.turn_index
            board = pos.raw_board if me == 0 else pos.raw_board[::-1]
            cells = [
                (0, 0) if s is None else (len(s) - 1, sum(1 << j for j, x in enumerate(s[1:]) if x != me))
                for s in board
            ]
            index = ranker.rank(cells, pos.raw_home[me], pos.raw_home[1 - me])
            assert table.seat_chance(pos) == pytest.approx(values[index], abs=0.5 / 4095 + 1e-9)


def test_damaged_table_bytes_are_refused(bell_table: ExactTable) -> None:
    data = TABLE_FILE.read_bytes()
    with pytest.raises(ValueError, match="not a puluc exact table"):
        ExactTable.from_bytes(b"not a table" + data)
    with pytest.raises(ValueError, match="values are damaged"):
        ExactTable.from_bytes(data[:-1000])


# -- the bar ---------------------------------------------------------------------------------------------


def test_the_bar_is_exact_on_bell_and_the_evaluation_elsewhere(bell_table: ExactTable) -> None:
    bell = Position.start(Rules.preset("bell"), first="A").throw([1])
    assert bar_chance(bell, bell_table) == bell_table.chance(bell)
    assert bell_table.chance(bell) == pytest.approx(0.5192, abs=3e-4)  # the solver's value
    # Bell with fire: no table, so the search of the budget as before the table (it beat the evaluation there).
    fire = Position.start(Rules.preset("bell", fire=True), first="A").throw([2])
    assert bar_chance(fire, bell_table, 4) == win_probability(fire, random.Random(), 4)
    # A one-throw duel off the army route looks a turn further; team games read the end of the turn in hand.
    eagle = Position.start(Rules.preset("eagle"), first="B").throw([3])
    assert bar_chance(eagle, bell_table) == win_chance(eagle, turns=2) != win_chance(eagle)
    ants = Position.start(Rules.preset("ants", team_size=2), first="B").throw([3, 2])
    assert bar_chance(ants, bell_table) == win_chance(ants)


def test_win_chance_takes_the_best_end_of_the_turn_for_the_seat_to_move() -> None:
    rules = Rules.preset("ants")
    rng = random.Random(8)
    checked = 0
    for pos in itertools.islice(_random_positions(rules, rng), 400):
        if pos.is_over:
            assert win_chance(pos) in (0.0, 0.5, 1.0)
        elif not pos.must_throw and len(pos.legal_moves()) > 1:
            after = [win_chance(pos.play(m)) for m in pos.legal_moves()]
            assert win_chance(pos) == pytest.approx(max(after) if pos.team_to_move == "A" else min(after), abs=1e-12)
            checked += 1
    assert checked > 20
