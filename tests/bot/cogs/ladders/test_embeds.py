"""The ladder embeds as pure functions: names are inert text, places and histories read right in each language."""

from __future__ import annotations

import pytest

from bot.cogs.ladders.embeds import MAX_NAME, caller_line, history_line, leaderboard_embed, player_name
from bot.storage.types import FORGOTTEN_NAME, GameSummary, LeaderboardPage, Standing
from bot.ui.i18n import SUPPORTED, t
from tests.helpers import reword


def standing(user_id: int, name: str, *, games: int = 8, wins: int = 6, rank: int | None = 1,
             provisional: bool = False, active: bool = True) -> Standing:
    return Standing("duel", 0, user_id, name, 1834, games, wins, 0, games - wins, provisional, active, rank)


def test_a_name_cannot_format_the_embed_or_mention_anyone() -> None:
    shown = player_name("**boss** @everyone", "en")
    assert "\\*\\*boss\\*\\*" in shown
    assert "@everyone" not in shown


def test_a_long_name_is_cut_to_a_fixed_length() -> None:
    shown = player_name("x" * 200, "en")
    assert len(shown) == MAX_NAME and shown.endswith("…")


@pytest.mark.parametrize("lang", SUPPORTED)
def test_a_forgotten_player_shows_the_neutral_label_in_the_readers_language(lang: str) -> None:
    assert player_name(FORGOTTEN_NAME, lang) == t("profile.forgotten", lang)


def test_the_callers_place_says_ranked_provisional_inactive_or_unrated() -> None:
    assert caller_line(standing(1, "a", rank=37), "en") == "`#37` · 1834 · 8 games · 75% won"
    provisional = caller_line(standing(1, "a", games=1, wins=1, rank=None, provisional=True), "en")
    assert provisional == "Your rating 1834 is provisional: 1 ranked game played, 5 needed to be listed."
    assert "not listed" in caller_line(standing(1, "a", rank=None, active=False), "en")
    assert caller_line(None, "en").startswith("You have no rating on this ladder yet")
    # Away so long that the rating is uncertain again: provisional, though the games were played.
    away = caller_line(standing(1, "a", games=40, rank=None, provisional=True, active=False), "en")
    assert away.startswith("Your rating is 1834 and provisional again")


def test_the_caller_is_marked_on_the_page_that_lists_them() -> None:
    page = LeaderboardPage("duel", 0, 0, (standing(1, "ana"), standing(2, "ben", rank=2)), False, False,
                           standing(2, "ben", rank=2))
    embed = leaderboard_embed(page, "en", caller_id=2)
    assert (embed.description or "").splitlines() == [
        "`#1` **ana** · 1834 · 8 games · 75% won",
        "`#2` **ben** · 1834 · 8 games · 75% won ◀",
    ]


def test_a_history_line_names_partners_and_a_cancelled_game_has_no_result() -> None:
    game = GameSummary(12, "bell", 1, False, "cancelled", "A1", ("ana",), ("ben", FORGOTTEN_NAME), None,
                       "cancelled", 1_800_000_000.0)
    line = history_line(game, "en")
    assert line.startswith("`#12` ")
    assert "**Cancelled**" in line and "casual" in line
    assert " · with ana against ben, Former player · " in line
    assert "<t:1800000000:R>" in line


@pytest.mark.parametrize(
    ("lang", "shown"),
    [("en", "AI (Hard)"), ("uk", "ШІ (Складний)"), ("it", "IA (Difficile)"), ("fr", "IA (Difficile)")],
)
def test_an_ai_opponent_in_a_history_is_named_in_the_readers_language(lang: str, shown: str) -> None:
    game = GameSummary(5, "bell", 1, False, "finished", "A1", (), ("AI (hard)",), "win", "normal", 1.0)
    assert f" {shown} " in history_line(game, lang)
    assert player_name("AI (hardest)", lang) == "AI (hardest)"  # a name that only looks alike stays a name


def test_a_language_may_name_the_teammates_where_its_sentence_wants(monkeypatch: pytest.MonkeyPatch) -> None:
    game = GameSummary(12, "bell", 2, True, "finished", "B2", ("ana",), ("ben", "cy"), "win", None, 1_800_000_000.0)
    teammates_first = "Con {names}: `#{game_id}` {variant} · **{result}** · contro {opponents} · {mode} · {when}"
    reword(monkeypatch, "it", {"profile.history.line_team": teammates_first})
    line = history_line(game, "it")
    assert line.startswith("Con ana: `#12` Bell · **Vittoria** · contro ben, cy · ")
    alone = GameSummary(13, "bell", 1, True, "finished", "A1", (), ("ben",), "win", None, 1_800_000_000.0)
    assert history_line(alone, "it").startswith("`#13` Bell · **Vittoria** · contro ben · ")
