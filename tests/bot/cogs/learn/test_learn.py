"""`/puluc learn` under SimCord: every lesson played through as a member would, a wrong button explained with
the board unchanged, the right one advancing, each board described, and the last lesson's game against easy."""

from __future__ import annotations

from typing import Any

import simcord

from bot.learning.lessons import LESSON_KEYS, LESSONS
from tests.helpers import World, custom_ids, embed_text, game_message, mentioned

PREFIX = "puluc:learn:"


def tutorial(started: simcord.InteractionResult) -> Any:
    """The member's tutorial message as it stands now (ephemeral: the answer to their command, edited in place)."""
    response = started.response or next(iter(started.followups), None)
    assert response is not None, "no tutorial message"
    return response.message


def lesson_png(message: Any) -> Any:
    (attachment,) = [a for a in message.attachments if a.filename == "lesson.png"]
    return attachment


async def test_every_lesson_played_through_wrong_then_right(world: World) -> None:
    started = await world.alice.slash(world.games, "puluc learn")
    assert started.response is not None and started.response.ephemeral
    for index, lesson in enumerate(LESSONS):
        message = tutorial(started)
        assert f"Lesson {index + 1} of {len(LESSONS)}" in embed_text(message)
        board = lesson_png(message)
        assert board.description and "cells" in board.description
        choices = {cid.removeprefix(f"{PREFIX}{index}:"): cid for cid in custom_ids(message, f"{PREFIX}{index}:")}
        assert set(choices) == set(lesson.choices())
        wrong = next(c for c in choices if c not in lesson.right)
        before = await board.read()
        await world.alice.click(message, custom_id=choices[wrong])
        message = tutorial(started)
        assert "Not this one" in embed_text(message)
        assert await lesson_png(message).read() == before  # a wrong choice changes nothing on the board
        assert set(custom_ids(message, f"{PREFIX}{index}:")) == set(choices.values())  # and they may try again
        right = next(c for c in choices if c in lesson.right)
        await world.alice.click(message, custom_id=choices[right])
        message = tutorial(started)
        assert "Well done" in embed_text(message)
        if index + 1 < len(LESSONS):
            await world.alice.click(message, custom_id=f"{PREFIX}{index + 1}:next")
    last = tutorial(started)
    assert "That was the last lesson" in embed_text(last)
    assert f"{PREFIX}{len(LESSONS) - 1}:play" in custom_ids(last)
    await world.alice.click(last, custom_id=f"{PREFIX}{len(LESSONS) - 1}:play")
    game = game_message(world.games)
    assert "AI (Easy)" in embed_text(game) and mentioned(game) == [world.alice.id]


async def test_a_lesson_can_be_chosen(world: World) -> None:
    started = await world.alice.slash(world.games, "puluc learn", lesson="fire")
    message = tutorial(started)
    assert f"Lesson {LESSON_KEYS.index('fire') + 1} of {len(LESSONS)}: Fire" in embed_text(message)
    assert "Cell 5 burns." in lesson_png(message).description
