"""`/puluc games`' list as a member reads it (issue 26): at most 25 games, newest first, a count of the rest,
names shown as written."""

from __future__ import annotations

from bot.cogs.games.calls import time_left
from bot.cogs.games.notify import MAX_LISTED, games_embed
from bot.sessions import GameState, Place, SeatState
from puluc import Rules

ME, THEM = 1, 2


def lobby(game_id: int, their_name: str = "bob") -> GameState:
    return GameState(game_id=game_id, place=Place(10, 100 + game_id), host_id=ME, variant="bell",
                     rules=Rules.preset("bell"), ranked=False, turn_timer=600, status="lobby",
                     seats=(SeatState("A1", "me", user_id=ME), SeatState("B1", their_name, user_id=THEM)),
                     message_id=900 + game_id)


def test_the_list_shows_at_most_25_games_and_counts_the_rest() -> None:
    states = [lobby(game_id) for game_id in range(40, 10, -1)]  # 30 games, newest first
    text = games_embed(states, ME, "en").description or ""
    lines = text.splitlines()
    assert len(lines) == MAX_LISTED + 1 == 26
    assert lines[0].startswith("**Puluc #40") and lines[24].startswith("**Puluc #16")
    assert lines[-1] == "…and 5 more games."
    assert "https://discord.com/channels/10/140/940" in lines[0]
    assert len(text) <= 4_096


def test_names_are_shown_as_written_and_mention_nobody() -> None:
    state = lobby(1, their_name="**bo** @everyone")
    running = GameState(**{**state.__dict__, "status": "running"})
    text = games_embed([running], ME, "en").description or ""
    assert "\\*\\*bo\\*\\*" in text and "@everyone" not in text


def test_an_empty_list_says_how_to_start_a_game() -> None:
    assert "/puluc new" in (games_embed([], ME, "en").description or "")


def test_time_left_is_said_in_round_units_of_at_least_two() -> None:
    assert [time_left(s, "en") for s in (150, 2 * 3600 - 1, 18 * 3600, 3 * 86_400, 45)] == [
        "2 minutes", "119 minutes", "18 hours", "3 days", "45 seconds"]
    assert time_left(150, "uk") == "2 хвилини"
