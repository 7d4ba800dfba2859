"""The sticks table and the throw-off (RULES.md §2, §8)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from puluc import InvalidThrowError, Throw, throw_off, throw_probabilities


@pytest.mark.parametrize(
    ("code", "bell", "pass_on_one"),
    [
        ("0000", 5, 5),
        ("1000", 1, 0),
        ("0110", 2, 2),
        ("1101", 3, 3),
        ("1111", 4, 4),
    ],
)
def test_value_follows_the_counting_sides(code: str, bell: int, pass_on_one: int) -> None:
    assert Throw.from_code(code).value == bell
    assert Throw.from_code(code, "pass-on-one").value == pass_on_one


def test_probabilities_are_sixteenths() -> None:
    assert throw_probabilities("bell") == {5: 1 / 16, 1: 4 / 16, 2: 6 / 16, 3: 4 / 16, 4: 1 / 16}
    assert throw_probabilities("pass-on-one")[0] == 4 / 16


def test_rolls_follow_the_distribution() -> None:
    rng = random.Random(5)
    counts = Counter(Throw.roll(rng).value for _ in range(16000))
    for value, p in throw_probabilities("bell").items():
        assert abs(counts[value] / 16000 - p) < 0.015


def test_same_seed_same_throws() -> None:
    a = [Throw.roll(random.Random(9)).code for _ in range(3)]
    b = [Throw.roll(random.Random(9)).code for _ in range(3)]
    assert a == b


def test_for_value_gives_that_value() -> None:
    for value in (1, 2, 3, 4, 5):
        assert Throw.for_value(value, rng=random.Random(value)).value == value
    with pytest.raises(InvalidThrowError, match="not a value"):
        Throw.for_value(1, "pass-on-one")


def test_bad_face_code_is_refused() -> None:
    with pytest.raises(InvalidThrowError, match="four characters"):
        Throw.from_code("102")


def test_throw_off_ends_with_a_higher_value() -> None:
    for seed in range(50):
        result = throw_off(random.Random(seed))
        *ties, last = result.rounds
        assert all(a.value == b.value for a, b in ties)
        assert last[0].value != last[1].value
        assert result.first == ("A" if last[0].value > last[1].value else "B")
