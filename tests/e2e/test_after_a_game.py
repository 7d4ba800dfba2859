"""After a ranked 1 v 1 played to the end with buttons, every command a player can run on that game works:
board (while it runs), history, profile, leaderboard, replay (command and button), rematch and forget-me.

The game is the bot's own, stored by the bot (no hand-made logs), so the stored event shapes are exactly
the ones the replay has to read.
"""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.services import services
from bot.ui.i18n import t
from puluc import GameRecord
from tests.helpers import World, custom_ids, embed_text, game_message, mentioned, move_ids, said

pytestmark = pytest.mark.worker_processes  # a whole flow: the bot as deployed, with its worker processes


async def test_every_command_works_on_a_game_the_bot_played(world: World) -> None:
    challenged = await world.alice.slash(world.games, "puluc challenge", opponent=world.bob, ranked=True)
    assert challenged.response is not None
    (accept,) = custom_ids(challenged.response, "puluc:accept:")
    await world.bob.click(challenged.response.message, custom_id=accept)
    rng = random.Random(20)
    clicks = 0
    for _ in range(3):
        board = game_message(world.games)
        await world.member(mentioned(board)[0]).click(board, custom_id=rng.choice(move_ids(board)))
        clicks += 1

    before = game_message(world.games)
    reposted = await world.carol.slash(world.games, "puluc board")
    assert reposted.response is not None and not reposted.ephemeral
    now = game_message(world.games)
    assert now.id == reposted.response.id != before.id
    assert move_ids(now) == move_ids(before)  # the same position, at the bottom
    (old,) = [m for m in world.games.history() if m.id == before.id]
    assert custom_ids(old, enabled=False) == []  # the old message lost its buttons
    while move_ids(board := game_message(world.games)):  # whoever the message names clicks, to the end
        await world.member(mentioned(board)[0]).click(board, custom_id=rng.choice(move_ids(board)))
        clicks += 1

    final = game_message(world.games)
    (replay_button,) = custom_ids(final, "puluc:replay:")
    (rematch_button,) = custom_ids(final, "puluc:rematch:")
    game_id = int(replay_button.split(":")[2])
    stored = await services(world.env.bot).storage.games.get_game(game_id)
    assert stored.status == "finished"

    history = await world.alice.slash(world.games, "puluc history")
    assert history.response is not None
    assert f"#{game_id}" in embed_text(history.response) and "/puluc replay" in embed_text(history.response)

    profile = await world.bob.slash(world.games, "puluc profile")
    assert profile.response is not None and "1 game" in embed_text(profile.response)

    leaderboard = await world.alice.slash(world.games, "puluc leaderboard")
    assert leaderboard.response is not None and "1 ranked game" in embed_text(leaderboard.response)

    replayed = await world.carol.slash(world.games, "puluc replay", game_id=game_id)
    assert replayed.response is not None and not replayed.ephemeral, said(replayed)
    gif, record_file = replayed.response.attachments
    assert (gif.filename, record_file.filename) == (f"puluc-{game_id}.gif", f"puluc-{game_id}.json")
    record = GameRecord.from_json((await record_file.read()).decode())
    assert len(record.moves) == clicks  # every click, once: nothing lost, nothing doubled
    outcome = record.replay().outcome()
    assert outcome is not None and outcome.winner == stored.winner
    assert record.seats == {"A1": "alice", "B1": "bob"}
    animation = Image.open(io.BytesIO(await gif.read()))
    assert getattr(animation, "n_frames", 1) == clicks + 1

    pressed = await world.carol.click(final, custom_id=replay_button)
    assert pressed.ephemeral and pressed.response is not None
    same_gif, same_record = pressed.response.attachments
    assert await same_gif.read() == await gif.read()
    assert await same_record.read() == await record_file.read()

    rematch = await world.bob.click(final, custom_id=rematch_button)
    assert rematch.response is not None and f"#{game_id + 1}" in embed_text(rematch.response)
    lobby = services(world.env.bot).manager.in_channel(world.games.id)
    assert lobby is not None and [(s.seat, s.user_id) for s in lobby.state.seats] == [("B1", world.bob.id)]

    busy = await world.bob.slash(world.games, "puluc forget-me")  # bob sits in the rematch's lobby
    assert busy.response is not None
    refused = await world.bob.click(busy.response, label=t("privacy.forget.confirm", "en"))
    assert refused.response is not None and refused.response.content == t("privacy.forget.open_game", "en")
    prompt = await world.alice.slash(world.games, "puluc forget-me")
    assert prompt.response is not None
    done = await world.alice.click(prompt.response, label=t("privacy.forget.confirm", "en"))
    assert done.response is not None and done.response.content.startswith("Done")

    after = await world.bob.slash(world.games, "puluc replay", game_id=game_id)  # still there, anonymised
    assert after.response is not None and not after.ephemeral
    _, anonymised = after.response.attachments
    again = GameRecord.from_json((await anonymised.read()).decode())
    assert again.seats["B1"] == "bob" and again.seats["A1"] != "alice"
    assert [str(m) for m in again.moves] == [str(m) for m in record.moves]
