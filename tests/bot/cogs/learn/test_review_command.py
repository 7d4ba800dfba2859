"""`/puluc review` under SimCord: who may review which game, what the answer shows (exact for Bell 1 v 1, every
attachment described), and the review kept per game."""

from __future__ import annotations

import random

from bot.cogs.learn.reviews import Reviews
from tests.helpers import World, custom_ids, embed_text, game_message, move_ids


async def test_review_answers_the_player_with_the_exact_review_and_keeps_it(world: World) -> None:
    await world.alice.slash(world.games, "puluc ai", difficulty="easy")
    rng = random.Random(8)
    for _ in range(1_000):
        board = game_message(world.games)
        moves = move_ids(board)
        if not moves:
            break
        await world.alice.click(board, custom_id=rng.choice(moves))
    asked = await world.alice.slash(world.games, "puluc review", game=1)
    response = asked.response
    assert response is not None and response.ephemeral
    text = embed_text(response)
    assert "Review of game #1: alice" in text and "The chances are exact" in text
    assert "Turn " in text and "(best " in text
    files = response.attachments
    assert files and all(a.description for a in files)
    assert files[0].filename == "review.png" and (files[0].description or "").startswith("Advantage chart")
    learn = world.env.bot.get_cog("Learn")  # type: ignore[attr-defined]
    reviews = getattr(learn, "reviews", None)
    assert isinstance(reviews, Reviews)
    assert len(reviews) == 1
    again = await world.bob.slash(world.games, "puluc review", game=1, seat="a1")
    assert again.response is not None and "Review of game #1: alice" in embed_text(again.response)
    assert len(reviews) == 1  # the same review, from the cache
    replayed = await world.alice.slash(world.games, "puluc replay", game_id=1)
    messages = [*replayed.followups, *([replayed.response] if replayed.response else [])]
    (gif,) = [a for m in messages for a in m.attachments if a.filename.endswith(".gif")]
    assert gif.description is not None and gif.description.startswith("Replay of game #1 (Bell)")
    assert "The game is over" in gif.description and len(gif.description) <= 1024


async def test_review_refuses_an_unknown_or_unfinished_game_and_a_missing_seat(world: World) -> None:
    asked = await world.alice.slash(world.games, "puluc review", game=99)
    assert asked.response is not None and "There is no finished game #99 here" in asked.response.content
    await world.alice.slash(world.games, "puluc ai", difficulty="easy")
    running = await world.alice.slash(world.games, "puluc review", game=1)
    assert running.response is not None and "is not over yet" in running.response.content


async def test_forget_me_drops_the_kept_reviews_of_the_members_games(world: World) -> None:
    await world.alice.slash(world.games, "puluc ai", difficulty="easy")
    rng = random.Random(5)
    for _ in range(1_000):
        board = game_message(world.games)
        moves = move_ids(board)
        if not moves:
            break
        await world.alice.click(board, custom_id=rng.choice(moves))
    await world.alice.slash(world.games, "puluc review", game=1)
    reviews = getattr(world.env.bot.get_cog("Learn"), "reviews", None)  # type: ignore[attr-defined]
    assert isinstance(reviews, Reviews) and len(reviews) == 1
    asked = await world.alice.slash(world.games, "puluc forget-me")
    assert asked.response is not None
    (confirm,) = custom_ids(asked.response.message, "puluc:forget:yes")
    await world.alice.click(asked.response.message, custom_id=confirm)
    assert len(reviews) == 0
