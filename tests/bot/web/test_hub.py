"""The live hub: a change is loaded and drawn once per language however many watch, and every watcher gets the
newest; a slow watcher skips to the present; the count of watchers goes out at most once a second."""

from __future__ import annotations

import asyncio
import contextvars
from typing import Any

import pytest

from bot.limits import WEB_LIVE_LANE
from bot.storage import Change
from bot.web import hub as hub_module
from bot.web.common import CONTEXT
from bot.web.hub import Hub, Rendered, Topic
from bot.web.pages import render_topic
from tests.bot.web.conftest import Site
from tests.helpers import started_duel

GAME = Topic("game", 7)


class FakeGame:
    def __init__(self, seq: int) -> None:
        self.seq = seq


def make_hub(loads: list[int], renders: list[tuple[int, str]], newest: list[int]) -> Hub:
    async def load(topic: Topic) -> Any:
        loads.append(topic.id)
        return FakeGame(newest[0])

    async def render(topic: Topic, state: Any, lang: str) -> Rendered:
        renders.append((state.seq, lang))
        await asyncio.sleep(0)
        return Rendered(state.seq, state.seq, f"<p>{state.seq} {lang}</p>")

    return Hub(load, render, lambda state: state.seq)


async def settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


async def test_one_load_and_one_drawing_per_language_for_a_thousand_watchers() -> None:
    loads: list[int] = []
    renders: list[tuple[int, str]] = []
    hub = make_hub(loads, renders, [5])
    watchers = [hub.watch(GAME, "en" if i % 3 else "fr") for i in range(1000)]
    hub.note_change(Change("game", 7, 5))
    await settle()
    assert loads == [7]
    assert sorted(renders) == [(5, "en"), (5, "fr")]
    for watcher in watchers:
        fragment, _ = watcher.take()
        assert fragment is not None and fragment.html == f"<p>5 {watcher.lang}</p>"


NOTED_BY: contextvars.ContextVar[str] = contextvars.ContextVar("noted_by", default="nobody")


async def test_a_refresh_runs_in_the_hubs_context_not_in_the_one_that_noted_the_change() -> None:
    seen: list[str] = []

    async def load(topic: Topic) -> Any:
        seen.append(NOTED_BY.get())
        return FakeGame(3)

    async def render(topic: Topic, state: Any, lang: str) -> Rendered:
        seen.append(NOTED_BY.get())
        return Rendered(state.seq, state.seq, "<p></p>")

    hub = Hub(load, render, lambda state: state.seq)
    hub.watch(GAME, "en")

    async def interaction() -> None:  # a session's task, with its own ids bound (as `bot.logs.bind` does)
        NOTED_BY.set("game 7's interaction")
        hub.note_change(Change("game", 7, 3))

    await asyncio.get_running_loop().create_task(interaction())
    await settle()
    assert seen == ["nobody", "nobody"]


async def test_a_change_already_shown_is_not_loaded_again() -> None:
    loads: list[int] = []
    renders: list[tuple[int, str]] = []
    hub = make_hub(loads, renders, [3])
    hub.watch(GAME, "en")
    hub.note_state(GAME, FakeGame(3))  # this process played it
    await settle()
    hub.note_change(Change("game", 7, 2))  # an older notification arriving late
    await settle()
    assert loads == [] and renders == [(3, "en")]


async def test_a_slow_watcher_gets_only_the_newest() -> None:
    hub = make_hub([], [], [0])
    watcher = hub.watch(GAME, "en")
    for seq in (1, 2, 3):
        hub.note_state(GAME, FakeGame(seq))
        await settle()
    fragment, _ = watcher.take()
    assert fragment is not None and fragment.seq == 3
    assert watcher.take() == (None, None)


async def test_nobody_watching_costs_nothing() -> None:
    loads: list[int] = []
    renders: list[tuple[int, str]] = []
    hub = make_hub(loads, renders, [1])
    hub.note_change(Change("game", 7, 1))
    hub.note_state(GAME, FakeGame(1))
    await settle()
    assert loads == [] and renders == []
    watcher = hub.watch(GAME, "en")
    hub.leave(watcher)
    assert hub.watching(GAME) == 0 and hub.watchers == 0


async def test_the_count_goes_out_once_per_interval(monkeypatch: Any) -> None:
    monkeypatch.setattr(hub_module, "COUNT_EVERY", 0.01)
    hub = make_hub([], [], [0])
    first = hub.watch(GAME, "en")
    others = [hub.watch(GAME, "en") for _ in range(49)]
    await asyncio.sleep(0.05)
    assert first.take() == (None, 50)
    hub.leave(others[0])
    await asyncio.sleep(0.05)
    assert first.take() == (None, 49)


async def test_a_live_refresh_draws_in_a_lane_that_never_refuses(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A move on a watched game must reach its watchers: the refresh is never answered 'busy' as a page load
    may be (100 games moving at once once filled the pages' line and delayed their watchers by a retry)."""
    session = await started_duel(site.manager)
    app = site.client.app
    compute = app[CONTEXT].compute
    used: list[str] = []
    run_in = compute.run_in

    async def recording(lane: str, fn: Any, *args: Any, **kwargs: Any) -> Any:
        used.append(lane)
        return await run_in(lane, fn, *args, **kwargs)

    monkeypatch.setattr(compute, "run_in", recording)
    rendered = await render_topic(app)(Topic("game", session.state.game_id), session.state, "en")
    assert rendered
    assert used == [WEB_LIVE_LANE.name]
    assert not compute.lane(WEB_LIVE_LANE.name).waiting, "the live lane has no waiting line to overflow"
