"""One member cannot slow the bot down for everyone else (issue 27): Replay and Hint spam while another game
is played never holds that game's boards up, a member past a limit is told privately when to ask again and
nothing changes, and a full waiting line answers "busy" at once.

What is measured is the order in which the compute pool hands out its slots (a board's job against the
replays and hints waiting with it), never a duration.
"""

from __future__ import annotations

import functools
import re
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import discord
import pytest
import simcord

import puluc.ai
from bot.cogs.games import replay_files as replay_module
from bot.compute import ComputePool, Lane
from bot.config import Config
from bot.config_spec import HINTS_PER_MEMBER, REPLAYS_PER_MEMBER, REPLAYS_PER_SERVER
from bot.limits import REPLAY
from bot.services import services
from bot.ui.i18n import t
from bot.ui.pictures import replay_files as draw_replay
from tests.helpers import (
    World,
    accepted_challenge,
    custom_ids,
    emit_click,
    emit_slash,
    game_message,
    make_config,
    mentioned,
    move_ids,
    said,
)

P = ParamSpec("P")
T = TypeVar("T")
RETRY = re.compile(r"<t:(\d+):R>")
COSTLY_SECONDS = 0.05


def costly(job: Callable[P, T]) -> Callable[P, T]:
    """`job`, holding its worker `COSTLY_SECONDS` longer (in the worker's thread: the event loop runs on)."""
    @functools.wraps(job)
    def held(*args: P.args, **kwargs: P.kwargs) -> T:
        time.sleep(COSTLY_SECONDS)
        return job(*args, **kwargs)

    return held


@pytest.fixture
def limits() -> dict[str, int]:
    """The test bot's limits (`Config.limits` entries); a test parametrizes it for others."""
    return {}


@pytest.fixture
def config(tmp_path: Path, limits: dict[str, int]) -> Config:
    return make_config(tmp_path / "puluc.db", limits={**make_config(tmp_path / "x.db").limits, **limits})


def channel(world: World, name: str) -> simcord.ChannelHandle:
    return world.guild.create_text_channel(name)


async def finished_against_the_ai(world: World, where: simcord.ChannelHandle) -> discord.Message:
    """carol plays the AI in `where` and resigns: the final message, with its Replay button."""
    started = await world.carol.slash(where, "puluc ai", difficulty="easy")
    assert started.response is not None
    resigned = await world.carol.slash(where, "puluc resign")
    assert resigned.ephemeral, said(resigned)
    final = game_message(where)
    assert custom_ids(final, "puluc:replay:")
    return final


async def daves_turn(world: World, where: simcord.ChannelHandle) -> None:
    """dave plays the AI in `where` (a casual game: hints allowed) and it is his turn."""
    started = await world.dave.slash(where, "puluc ai", difficulty="easy")
    assert started.response is not None
    assert mentioned(game_message(where)) == [world.dave.id]


class Slots:
    """Every slot the compute pool handed out, in order: ("wait" | "go", lane, job number, background jobs
    waiting when it was asked for)."""

    def __init__(self, pool: ComputePool, monkeypatch: pytest.MonkeyPatch) -> None:
        self.events: list[tuple[str, str, int, int]] = []
        acquire: Callable[[Lane], Awaitable[None]] = pool._acquire
        count = iter(range(1_000_000))

        async def recorded(lane: Lane) -> None:
            job = next(count)
            waiting = sum(n for name, n in pool.waiting_in.items() if name != "game")
            self.events.append(("wait", lane.name, job, waiting))
            await acquire(lane)
            self.events.append(("go", lane.name, job, waiting))

        monkeypatch.setattr(pool, "_acquire", recorded)

    def overtaken(self) -> list[int]:
        """The game jobs some replay or hint started before, although it asked after them."""
        found = []
        for index, (step, lane, job, _) in enumerate(self.events):
            if step != "wait" or lane != "game":
                continue
            go = next(i for i, e in enumerate(self.events) if e[:3] == ("go", lane, job))
            if any(e[0] == "go" and e[1] != "game" for e in self.events[index + 1:go]):
                found.append(job)
        return found

    def boards_amid_spam(self) -> int:
        """Game jobs asked for while replays or hints waited."""
        return sum(1 for step, lane, _, waiting in self.events if step == "wait" and lane == "game" and waiting)


@pytest.mark.parametrize("limits", [{REPLAYS_PER_MEMBER.name: 0, REPLAYS_PER_SERVER.name: 0,
                                     HINTS_PER_MEMBER.name: 0, "HINTS_PER_SERVER": 0}])
async def test_replay_and_hint_spam_never_holds_up_another_games_boards(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    finished = await finished_against_the_ai(world, channel(world, "replays"))
    hints = channel(world, "hints")
    await daves_turn(world, hints)
    (replay_button,) = custom_ids(finished, "puluc:replay:")
    session = await accepted_challenge(world)
    pool = services(world.env.bot).compute
    slots = Slots(pool, monkeypatch)
    # Replays and hints as costly as on a long 8 v 8 (seconds), scaled down: each holds its worker a while.
    monkeypatch.setattr(replay_module, "replay_files", costly(draw_replay))
    monkeypatch.setattr(puluc.ai, "hint", costly(puluc.ai.hint))
    spam: list[Any] = []
    for _ in range(3):
        spam += [emit_click(world.env, world.eve, finished, replay_button) for _ in range(3)]
        spam += [emit_slash(world.env, world.dave, hints, "puluc hint") for _ in range(3)]
        board = game_message(world.games)
        player = world.member(mentioned(board)[0])
        before = session.state.seq
        moved = emit_click(world.env, player, board, move_ids(board)[0])
        await world.env.settle()
        assert simcord.InteractionResult(world.env, moved).response is not None
        assert session.state.seq > before or session.state.status != "running"
    assert slots.boards_amid_spam() > 0, "the spam was waiting when the boards were asked for"
    assert slots.overtaken() == [], "no replay or hint went before a game's board that waited with it"
    answers = [said(simcord.InteractionResult(world.env, record)) for record in spam]
    busy = t("limits.busy", "en")
    assert any(busy not in answer for answer in answers), "the spam was served too, once a worker was free"


@pytest.mark.parametrize("limits", [{HINTS_PER_MEMBER.name: 2}])
async def test_past_the_hint_limit_a_member_is_told_privately_when_to_ask_again(world: World) -> None:
    hints = world.games
    await daves_turn(world, hints)
    session = services(world.env.bot).manager.in_channel(hints.id)
    assert session is not None
    for _ in range(2):
        asked = await world.dave.slash(hints, "puluc hint")
        assert "would play" in said(asked)
    state, shown = session.state, len(hints.history())
    refused = await world.dave.slash(hints, "puluc hint")
    assert refused.ephemeral and refused.response is not None
    found = RETRY.search(said(refused))
    assert found is not None, said(refused)
    now = discord.utils.utcnow().timestamp()
    assert now < int(found.group(1)) <= now + 31  # two a minute: one more in 30 s
    assert said(refused) == t("limits.member", "en", when=found.group(0))
    assert session.state is state and len(hints.history()) == shown, "a refusal changes nothing"
    await world.env.advance_time(30)
    assert "would play" in said(await world.dave.slash(hints, "puluc hint"))


@pytest.mark.parametrize("limits", [{REPLAYS_PER_MEMBER.name: 1}])
async def test_past_the_replay_limit_the_button_says_when_to_ask_again(world: World) -> None:
    finished = await finished_against_the_ai(world, world.games)
    (replay_button,) = custom_ids(finished, "puluc:replay:")
    first = await world.eve.click(finished, custom_id=replay_button)
    assert first.response is not None and first.response.attachments
    again = await world.eve.click(finished, custom_id=replay_button)
    assert again.ephemeral and RETRY.search(said(again)), said(again)
    assert all(not message.attachments for message in again.followups)
    other = await world.alice.click(finished, custom_id=replay_button)  # another member may still
    assert other.response is not None and other.response.attachments


async def test_a_full_replay_line_answers_busy_at_once(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    finished = await finished_against_the_ai(world, world.games)
    (replay_button,) = custom_ids(finished, "puluc:replay:")
    pool = services(world.env.bot).compute
    # Every worker a replay may use is busy and the replays' waiting line is full.
    monkeypatch.setattr(pool, "_handed_background", pool.background_limit)
    monkeypatch.setitem(pool.waiting_in, REPLAY.lane.name, REPLAY.lane.waiting)
    pressed = await world.eve.click(finished, custom_id=replay_button)
    assert pressed.ephemeral and said(pressed) == t("limits.busy", "en")
    assert all(not message.attachments for message in pressed.followups)
    replayed = await world.eve.slash(world.games, "puluc replay", game_id=int(replay_button.split(":")[2]))
    assert replayed.ephemeral and said(replayed) == t("limits.busy", "en"), "refused before a public answer"


async def test_a_kept_replay_is_forgotten_with_its_player(world: World) -> None:
    finished = await finished_against_the_ai(world, world.games)
    (replay_button,) = custom_ids(finished, "puluc:replay:")
    first = await world.eve.click(finished, custom_id=replay_button)
    assert first.response is not None and first.response.attachments
    kept = services(world.env.bot).replays
    assert len(kept) == 1
    again = await world.alice.click(finished, custom_id=replay_button)  # drawn once, sent twice
    assert again.response is not None and kept.hits == 1
    prompt = await world.carol.slash(world.games, "puluc forget-me")
    assert prompt.response is not None
    done = await world.carol.click(prompt.response, label=t("privacy.forget.confirm", "en"))
    assert done.response is not None and done.response.content != t("privacy.forget.open_game", "en")
    assert len(kept) == 0, "the replay showing carol's name is not kept after she asked to be forgotten"
    later = await world.bob.click(finished, custom_id=replay_button)
    assert later.response is not None
    (record,) = [a for a in later.response.attachments if a.filename.endswith(".json")]
    assert "carol" not in (await record.read()).decode()
