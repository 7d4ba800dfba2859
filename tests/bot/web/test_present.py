"""What a game page says: one step per throw and move with its sentence, the position in words for a screen
reader, and the advantage chart's points."""

from __future__ import annotations

import dataclasses

import pytest

from bot.sessions import GameState
from bot.web.chart import advantage_chart
from bot.web.present import NARRATION_LINES, Tail, describe, ending_line, facts, plain, steps, tail
from puluc import Position, Rules
from tests.helpers import at, finished_bell_game


async def test_every_throw_and_move_is_a_step_with_its_sentence() -> None:
    state: GameState = await finished_bell_game(moves=6)
    story = steps(state, "en")
    assert len(story) == len(state.record) + 1
    assert story[0].kind == "start" and "starts" in story[0].caption
    moves = [step for step in story if step.kind == "move"]
    assert len(moves) == 6 and all("alice" in step.caption or "bob" in step.caption for step in moves)
    assert all(step.last is not None for step in moves)
    assert story[-1].position == state.position


async def test_the_page_says_the_result_and_the_story_in_the_readers_language() -> None:
    state = await finished_bell_game(moves=4)
    english, french = facts(state, "en"), facts(state, "fr")
    assert english.result is not None and "wins" in english.result
    assert french.result is not None and french.result != english.result
    assert len(english.narration) == 5 and english.turn is None  # four moves, then how it ended
    assert english.narration[-1] == "alice resigned." and french.narration[-1] == "alice abandonne."
    assert [team for team, _, _ in english.teams] == ["A", "B"]


def test_the_position_in_words_names_every_occupied_cell() -> None:
    rules = Rules.preset("bell")
    position: Position = at(rules, {3: "A1+", 6: "B1A1+"}, "A1:3,B1:4", "A1:0,B1:0", "A1")
    text = describe(position, {"A1": "alice", "B1": "bob"}, "en", "alice's turn")
    assert text.startswith("alice's turn Team A (alice): 3 at home, 2 on the road")  # the captive too
    assert "cell 3: alice" in text and "cell 6: bob on top of alice" in text


def test_discord_markup_is_left_out() -> None:
    assert plain("**Team A** wins `2:H` ~~no~~") == "Team A wins 2:H no"


def test_the_chart_needs_two_points_and_says_what_it_shows() -> None:
    assert advantage_chart([(0, 0.5)], 10, "en") is None
    chart = advantage_chart([(0, 0.5), (5, None), (10, 0.9)], 10, "en")
    assert chart is not None and "<title" in chart and "from 50% at the start to 90% at the end" in chart


def _told_by_steps(state: GameState, lang: str) -> list[str]:
    return [step.caption for step in steps(state, lang) if step.kind in ("move", "pass")][-NARRATION_LINES:]


@pytest.mark.parametrize("lang", ["en", "uk"])
async def test_a_live_pages_tail_says_what_the_whole_story_says_after_every_event(lang: str) -> None:
    state = await finished_bell_game()
    assert len(state.record) > 2 * NARRATION_LINES
    since: Tail | None = None
    for events in range(len(state.record) + 1):
        prefix = dataclasses.replace(state, record=state.record[:events])
        story = steps(prefix, lang)
        continued = tail(prefix, lang, since)
        from_start = tail(prefix, lang)
        assert continued == from_start  # the same end, told event by event or all at once
        assert continued is not None
        assert continued.events == events and continued.position == story[-1].position
        assert continued.last == story[-1].last
        assert list(continued.told) == _told_by_steps(prefix, lang)
        assert facts(prefix, lang, continued) == facts(prefix, lang, story)
        since = continued


async def test_a_tail_continues_over_several_events_at_once() -> None:
    state = await finished_bell_game()
    half = dataclasses.replace(state, record=state.record[: len(state.record) // 2])
    assert tail(state, "en", tail(half, "en")) == tail(state, "en")


async def test_a_tail_starts_over_when_the_record_no_longer_begins_with_what_it_told() -> None:
    state = await finished_bell_game()
    told = tail(state, "en")
    assert told is not None
    # Another game's tail, another language's, a renamed player's, a record that changed under it: none is
    # continued (each would tell something that did not happen here).
    other = dataclasses.replace(told, game_id=told.game_id + 1, told=("not this game",))
    assert tail(state, "en", other) == told
    assert tail(state, "fr", told) == tail(state, "fr")
    renamed = dataclasses.replace(state, seats=tuple(dataclasses.replace(seat, name=f"{seat.name}2")
                                                     for seat in state.seats))
    assert tail(renamed, "en", told) == tail(renamed, "en")
    shorter = dataclasses.replace(state, record=state.record[:5])
    assert tail(shorter, "en", told) == tail(shorter, "en")
    changed = dataclasses.replace(told, final=state.record[0], told=("changed",))
    assert tail(state, "en", changed) == told


async def test_a_game_without_a_position_has_no_tail() -> None:
    state = await finished_bell_game(moves=2)
    assert tail(dataclasses.replace(state, position=None), "en") is None


async def test_the_story_ends_with_who_gave_up_or_ran_out_of_time() -> None:
    state = await finished_bell_game(moves=3)  # alice (team A) resigns
    assert state.end_reason == "resign" and state.winner == "B"
    names = {"A1": "alice", "B1": "bob"}
    assert ending_line(state, names, "en") == "alice resigned."
    told = steps(state, "en")  # the replay's last step says it too
    assert told[-1].caption.endswith(" alice resigned.") and "resigned" not in told[-2].caption
    assert ending_line(dataclasses.replace(state, end_reason="timeout"), names, "uk") == "alice не встигає походити."
    # A team of several is named by its letter: any of its players may have given up for it.
    a1 = next(seat for seat in state.seats if seat.seat == "A1")
    team = dataclasses.replace(state, seats=(*state.seats, dataclasses.replace(a1, seat="A2", name="carol")))
    both = {**names, "A2": "carol"}
    assert ending_line(team, both, "fr") == "L’équipe A abandonne."
    timed_out = dataclasses.replace(team, end_reason="timeout")
    assert ending_line(timed_out, both, "es") == "Al equipo A se le acabó el tiempo."
    # A game won on the board, a draw, or one still running tells nothing more.
    assert ending_line(dataclasses.replace(state, end_reason="normal"), names, "en") is None
    assert ending_line(dataclasses.replace(state, winner=None), names, "en") is None
    assert ending_line(dataclasses.replace(state, status="running"), names, "en") is None
