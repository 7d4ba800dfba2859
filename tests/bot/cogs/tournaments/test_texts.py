"""What tournament messages say, built from tournaments written out here: numbers as each language writes them,
clauses where each language's sentence puts them, and names whose gender nobody knows."""

from __future__ import annotations

import re

import pytest

from bot.cogs.tournaments.texts import decision_text, final_text, result_line, table_text
from bot.tournaments.types import (
    Entrant,
    Match,
    Tournament,
    TournamentFormat,
    TournamentSettings,
    TournamentStatus,
)
from bot.ui.i18n import SUPPORTED
from tests.helpers import reword


def tournament(matches: tuple[Match, ...], *, format: TournamentFormat = "swiss", name: str = "Winter Cup",
               entrants: int = 4, status: TournamentStatus = "running") -> Tournament:
    """A tournament of `entrants` players (alice, bob, ...) seeded in joining order, with these matches."""
    names = ("alice", "bob", "carol", "dave", "eve", "fay", "gus", "hal")
    return Tournament(
        tournament_id=7, guild_id=1, channel_id=2, message_id=3, creator_id=101,
        settings=TournamentSettings(name, format, "bell", None, 600, 86_400, True), status=status,
        rounds=3, round=max((m.round for m in matches), default=1), round_deadline=1_800_000_000.0,
        created_at=1_799_000_000.0, finished_at=None,
        entrants=tuple(Entrant(i + 1, 101 + i, names[i], 1500 - 10 * i, i + 1) for i in range(entrants)),
        matches=matches,
    )


# Round 1: alice and bob draw, carol beats dave; round 2: alice beats carol, bob and dave draw.
HALVES = (
    Match(1, 1, 1, 2, game_id=1, outcome="draw", decided_by="game"),
    Match(1, 2, 3, 4, game_id=2, outcome="a", decided_by="game"),
    Match(2, 1, 1, 3, game_id=3, outcome="a", decided_by="game"),
    Match(2, 2, 2, 4, game_id=4, outcome="draw", decided_by="game"),
)


def row(text: str, name: str) -> str:
    return next(line for line in text.splitlines() if f" {name} " in line)


@pytest.mark.parametrize(("lang", "mark"), [("uk", ","), ("it", ","), ("fr", ","), ("en", "."), ("es", ".")])
def test_a_table_writes_half_points_with_the_languages_decimal_mark(lang: str, mark: str) -> None:
    text = table_text(tournament(HALVES), lang)
    alice = row(text, "alice")
    assert f" 1{mark}5 " in alice  # a win and a draw
    assert f" 1{mark}0 " in row(text, "bob")
    other = "." if mark == "," else ","
    assert not re.search(rf"\d\{other}\d", text), text


@pytest.mark.parametrize("lang", SUPPORTED)
def test_a_table_keeps_its_columns_in_every_language(lang: str) -> None:
    lines = table_text(tournament(HALVES), lang).splitlines()[1:-1]
    assert len({len(line) for line in lines[1:]}) == 1, lines  # every player's row as wide as the others


# A knockout: alice (seed 1) and dave (seed 4) draw; bob (2) and carol (3) are adjudicated even; the final waits.
KNOCKOUT = (
    Match(1, 1, 1, 4, game_id=1, outcome="draw", decided_by="game"),
    Match(1, 2, 2, 3, game_id=2, thread_id=9, outcome="draw", decided_by="adjudication", chance_a=0.5),
    Match(2, 1, 1, 2, game_id=3),
)


def test_the_better_seed_goes_through_in_the_same_sentence_as_the_result() -> None:
    knockout = tournament(KNOCKOUT, format="single_elimination")
    assert result_line(knockout, KNOCKOUT[0], "en") == "alice and dave drew, alice goes through as the better seed"
    assert result_line(knockout, KNOCKOUT[2], "en") == "alice v bob: not decided"  # no one goes through yet
    assert decision_text(knockout, KNOCKOUT[1], "en") == (
        "Time is up for this round. From this position the hard AI gives bob exactly a 50% chance to win: a draw by "
        "adjudication. bob goes through as the better seed.")


def test_a_language_may_name_who_goes_through_before_the_result(monkeypatch: pytest.MonkeyPatch) -> None:
    reword(monkeypatch, "fr", {
        "tournament.result.seed_through": "{player} passe au tour suivant ({result})",
        "tournament.decided.seed_through": "{player} passe au tour suivant. {decision}",
    })
    knockout = tournament(KNOCKOUT, format="single_elimination")
    assert result_line(knockout, KNOCKOUT[0], "fr") == "alice passe au tour suivant (alice et dave font partie nulle)"
    decided = decision_text(knockout, KNOCKOUT[1], "fr")
    assert decided is not None and decided.startswith("bob passe au tour suivant. Le temps de la ronde est écoulé.")


FEMININE = {"en": "Winter Cup", "uk": "Зимова ліга", "it": "Coppa d’inverno", "fr": "Coupe d’hiver",
            "es": "Copa de invierno"}
ENDED = {"en": "🏆 The tournament **Winter Cup** is over: **alice** wins!",
         "uk": "🏆 Турнір **Зимова ліга** завершено: перемагає **alice**!",
         "it": "🏆 Il torneo **Coppa d’inverno** è concluso: vince **alice**!",
         "fr": "🏆 Le tournoi **Coupe d’hiver** est terminé\u00a0: **alice** le remporte\u202f!",
         "es": "🏆 El torneo **Copa de invierno** terminó: ¡gana **alice**!"}


@pytest.mark.parametrize("lang", SUPPORTED)
def test_a_tournament_with_a_feminine_name_ends_in_words_that_agree_with_the_noun(lang: str) -> None:
    cup = tournament(HALVES, format="round_robin", name=FEMININE[lang], status="finished")
    assert final_text(cup, 1, lang) == ENDED[lang]
