"""The tutorial's lessons, without Discord: each is a legal engine position with its throws fixed, offers a right
choice and at least one wrong one, the right choice advances, and a wrong one explains and changes nothing."""

from __future__ import annotations

import pytest

from bot.learning.lessons import LESSON_KEYS, LESSONS, Lesson, lesson_at
from bot.ui.i18n import SUPPORTED, catalogue
from puluc import PRESETS, Move, MoveEffect, Position


@pytest.mark.parametrize("lesson", LESSONS, ids=LESSON_KEYS)
def test_each_lesson_is_an_engine_position_that_round_trips_its_ppn(lesson: Lesson) -> None:
    before = Position.from_ppn(lesson.rules, lesson.ppn)
    assert before.to_ppn() == lesson.ppn
    position = lesson.position()
    if not lesson.is_question:
        assert sorted(position.pending) == sorted(lesson.throws)
        assert position.to_move == "A1"


@pytest.mark.parametrize("lesson", LESSONS, ids=LESSON_KEYS)
def test_the_right_choice_advances_and_every_wrong_one_explains_and_changes_nothing(lesson: Lesson) -> None:
    choices = lesson.choices()
    right = [choice for choice in choices if choice in lesson.right]
    wrong = [choice for choice in choices if choice not in lesson.right]
    assert right and wrong, f"{lesson.key}: a lesson needs a right choice and a wrong one"
    before = lesson.position().to_ppn()
    for choice in wrong:
        verdict = lesson.answer(choice)
        assert not verdict.right and verdict.after is None
        assert verdict.reason == f"learn.{lesson.key}.wrong"
        assert lesson.position().to_ppn() == before  # nothing changed: the same board and throws
    for choice in right:
        verdict = lesson.answer(choice)
        assert verdict.right and verdict.reason == f"learn.{lesson.key}.right"
        if not lesson.is_question:
            assert verdict.after == lesson.position().play(Move.parse(choice))


def test_the_lessons_teach_what_they_say() -> None:
    """Each move lesson's right move does its lesson's thing, by the engine's own account of the move."""
    effect = {key: lesson_at(LESSON_KEYS.index(key)) for key in LESSON_KEYS}

    def right_effect(key: str) -> MoveEffect:
        lesson = effect[key]
        (move,) = lesson.right
        return lesson.position().move_effect(Move.parse(move))

    assert right_effect("enter").source is None
    assert right_effect("capture").captured == ("B1",)
    assert right_effect("free").captured == ("B1", "A1")
    assert right_effect("home").kills == 1 and right_effect("home").arrives
    assert right_effect("eagle").kills == 1
    assert Move.parse(next(iter(effect["scorpion"].right))).backward
    assert right_effect("culin").dest == 2 and right_effect("culin").captures
    fire = effect["fire"]
    burning = [c for c in fire.choices() if fire.position().move_effect(Move.parse(c)).burns]
    assert burning and not set(burning) & fire.right
    ants = effect["ants"].answer("2:3")
    turned = ants.after.stack_at(5) if ants.after is not None else None
    assert turned is not None and turned.direction == "-"
    team = effect["team"].position()
    assert team.rules.throws_per_turn == 2 and team.rules.one_active
    assert not any(Move.parse(c).enters for c in effect["team"].choices())  # one active piece: no entering


def test_the_throw_of_five_answers_come_from_the_sticks() -> None:
    five = lesson_at(LESSON_KEYS.index("five"))
    assert five.answer("1").right
    assert five.answer("6").values["throws"] == [2]
    assert five.answer("4").values["throws"] == [1, 3]
    village = lesson_at(LESSON_KEYS.index("village"))
    assert village.answer("1").right and village.answer("1").values["value"] == 0
    assert village.answer("0").values["value"] == 5


def test_an_offer_the_lesson_does_not_make_is_refused() -> None:
    with pytest.raises(ValueError, match="offers no choice"):
        lesson_at(0).answer("5:H")
    with pytest.raises(ValueError, match="no lesson"):
        lesson_at(len(LESSONS))


def test_every_variant_has_a_lesson_and_every_lesson_has_words_in_every_language() -> None:
    assert {lesson.variant for lesson in LESSONS} == set(PRESETS)
    assert any(lesson.team_size > 1 for lesson in LESSONS)
    for lang in SUPPORTED:
        for key in LESSON_KEYS:
            for part in ("title", "text", "right", "wrong"):
                assert f"learn.{key}.{part}" in catalogue(lang), (lang, key, part)
