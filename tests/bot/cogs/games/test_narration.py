"""The game message tells what happened in sentences a player understands, in each language.

Each kind of move (entering, moving, capturing with a freed teammate, arriving with kills, the eagle's strike,
the fire, culin's round, the scorpion's backward strike) and each reason a turn passes (no move for the throw,
a lone marked side, a throw left over) is checked word for word in all four languages. Then a whole seeded
team game, played through the session layer, is narrated in each language: one sentence per move and per
passed turn, naming the player and the cells, with no English left in a translated line.
"""

from __future__ import annotations

import random
import re
import tempfile
from dataclasses import replace
from pathlib import Path

import pytest

from bot.cogs.games.texts import MAX_NARRATION_LINES, game_title, move_label, narrate, narration, told
from bot.sessions import (
    ActionResult,
    GameOptions,
    GameState,
    Happening,
    Moved,
    Place,
    Player,
    SeatState,
    SessionManager,
    Started,
    Thrown,
    TimedOut,
)
from bot.ui.i18n import SUPPORTED, catalogue
from puluc import Move, Position, Rules, Throw
from tests.helpers import CHANNEL, FakeClock, RandomPicker, at, make_manager, open_sqlite, reword

NAMES = {"en": ("Alice", "Bob"), "uk": ("Оксана", "Тарас"), "it": ("Giulia", "Marco"), "fr": ("Camille", "Hugo"),
         "es": ("Lucía", "Mateo")}
BELL = Rules.preset("bell")


def duel(rules: Rules, variant: str, lang: str) -> GameState:
    a, b = NAMES[lang]
    return GameState(game_id=12, place=Place(1, 1), host_id=1, variant=variant, rules=rules, ranked=False,
                     turn_timer=600, status="running",
                     seats=(SeatState("A1", a, user_id=1), SeatState("B1", b, user_id=2)))


def moved(position: Position, text: str, lost: tuple[int, ...] = ()) -> Moved:
    return Moved(position.to_move, position.move_effect(Move.parse(text)), "player", lost)


def said(happenings: list[Happening], rules: Rules, variant: str, lang: str) -> list[str]:
    return narrate(happenings, duel(rules, variant, lang), lang)


# --- every kind of move, word for word ---------------------------------------------------------------------

ENTER = {
    "en": "Alice entered a piece on cell 3 and captured 1 piece.",
    "uk": "Оксана вводить фішку на клітинку 3 і бере в полон 1 фішку.",
    "it": "Giulia ha fatto entrare una pedina nella casella 3 e ha catturato 1 pedina.",
    "fr": "Camille a fait entrer un pion sur la case 3 et a capturé 1 pion.",
    "es": "Lucía sacó una ficha a la casilla 3 y capturó 1 ficha.",
}
CAPTURE_AND_FREE = {
    "en": "Alice moved a piece from cell 2 to cell 5, captured 1 piece and freed 1 piece of their team.",
    "uk": "Оксана веде фішку з клітинки 2 на клітинку 5, бере в полон 1 фішку і звільняє 1 фішку своєї команди.",
    "it": "Giulia ha mosso una pedina dalla casella 2 alla casella 5, ha catturato 1 pedina e ha liberato 1 pedina "
          "della sua squadra.",
    "fr": "Camille a déplacé un pion de la case 2 à la case 5, a capturé 1 pion et a libéré 1 pion de son équipe.",
    "es": "Lucía movió una ficha de la casilla 2 a la casilla 5, capturó 1 ficha y liberó 1 ficha de su equipo.",
}
ARRIVAL = {
    "en": "Alice brought a stack of 3 home from cell 8, killed 1 captive and freed 1 piece of their team.",
    "uk": "Оксана приводить вежку з 3 фішок додому з клітинки 8, вбиває 1 полоненого і звільняє 1 фішку своєї "
          "команди.",
    "it": "Giulia ha riportato a casa una pila di 3 pedine dalla casella 8, ha eliminato 1 prigioniero e ha "
          "liberato 1 pedina della sua squadra.",
    "fr": "Camille a ramené une pile de 3 pions au camp depuis la case 8, a éliminé 1 prisonnier et a libéré 1 pion "
          "de son équipe.",
    "es": "Lucía llevó una pila de 3 fichas a casa desde la casilla 8, eliminó 1 prisionera y liberó 1 ficha de su "
          "equipo.",
}
EAGLE = {
    "en": "Alice moved a piece from cell 2 to cell 5 and struck down the enemy piece there. The striking piece is "
          "gone too.",
    "uk": "Оксана веде фішку з клітинки 2 на клітинку 5 і вбиває фішку суперника на цій клітинці. Фішка, що "
          "вдарила, теж вибуває.",
    "it": "Giulia ha mosso una pedina dalla casella 2 alla casella 5 e ha eliminato la pedina nemica che si trovava "
          "lì. Anche la pedina che ha colpito esce dal gioco.",
    "fr": "Camille a déplacé un pion de la case 2 à la case 5 et a éliminé le pion ennemi qui s’y trouvait. Le pion "
          "qui a frappé sort lui aussi du jeu.",
    "es": "Lucía movió una ficha de la casilla 2 a la casilla 5 y eliminó la ficha enemiga que estaba ahí. La ficha "
          "que golpeó también sale del juego.",
}
EAGLE_RETURNS = {
    "en": "The striking piece went back home.",
    "uk": "Фішка, що вдарила, повертається додому.",
    "it": "La pedina che ha colpito è tornata a casa.",
    "fr": "Le pion qui a frappé est rentré au camp.",
    "es": "La ficha que golpeó volvió a casa.",
}
FIRE = {
    "en": "Alice moved a piece from cell 2 to cell 5 and the fire burned everything on that cell.",
    "uk": "Оксана веде фішку з клітинки 2 на клітинку 5 і втрачає у вогні все, що було на цій клітинці.",
    "it": "Giulia ha mosso una pedina dalla casella 2 alla casella 5 e il fuoco ha bruciato tutto ciò che c'era su "
          "quella casella.",
    "fr": "Camille a déplacé un pion de la case 2 à la case 5 et le feu a tout emporté.",
    "es": "Lucía movió una ficha de la casilla 2 a la casilla 5 y el fuego quemó todo lo que había en esa casilla.",
}
CULIN = {
    "en": "Alice took a stack of 2 from cell 2 round past the end of its route to cell 2 and killed 1 captive.",
    "uk": "Оксана веде вежку з 2 фішок з клітинки 2 за кінець шляху й далі по колу на клітинку 2 і вбиває 1 "
          "полоненого.",
    "it": "Giulia ha portato una pila di 2 pedine dalla casella 2 oltre la fine del percorso e di nuovo fino alla "
          "casella 2 e ha eliminato 1 prigioniero.",
    "fr": "Camille a mené une pile de 2 pions de la case 2 au-delà du bout de son parcours et de nouveau jusqu’à la "
          "case 2 et a éliminé 1 prisonnier.",
    "es": "Lucía llevó una pila de 2 fichas de la casilla 2, más allá del final de su recorrido y dando la vuelta, "
          "hasta la casilla 2 y eliminó 1 prisionera.",
}
SCORPION = {
    "en": "Alice moved a piece back from cell 6 to cell 4 and captured 1 piece.",
    "uk": "Оксана веде фішку назад з клітинки 6 на клітинку 4 і бере в полон 1 фішку.",
    "it": "Giulia ha mosso una pedina all'indietro dalla casella 6 alla casella 4 e ha catturato 1 pedina.",
    "fr": "Camille a fait reculer un pion de la case 6 à la case 4 et a capturé 1 pion.",
    "es": "Lucía movió una ficha hacia atrás de la casilla 6 a la casilla 4 y capturó 1 ficha.",
}


@pytest.mark.parametrize("lang", SUPPORTED)
def test_entering_onto_an_enemy_captures_it(lang: str) -> None:
    position = at(BELL, {3: "B1+"}, "A1:5,B1:4", "A1:0,B1:0", "A1", "3")
    assert said([moved(position, "3:H")], BELL, "bell", lang) == [ENTER[lang]]


@pytest.mark.parametrize("lang", SUPPORTED)
def test_a_capture_names_the_captives_and_the_freed_teammates(lang: str) -> None:
    position = at(BELL, {2: "A1+", 5: "B1A1+"}, "A1:3,B1:4", "A1:0,B1:0", "A1", "3")
    assert said([moved(position, "3:2")], BELL, "bell", lang) == [CAPTURE_AND_FREE[lang]]


@pytest.mark.parametrize("lang", SUPPORTED)
def test_an_arrival_counts_the_killed_and_the_freed(lang: str) -> None:
    position = at(BELL, {8: "A1B1A1+"}, "A1:3,B1:4", "A1:0,B1:0", "A1", "2")
    assert said([moved(position, "2:8")], BELL, "bell", lang) == [ARRIVAL[lang]]


@pytest.mark.parametrize("lang", SUPPORTED)
def test_an_eagle_strikes_and_is_spent_or_flies_home(lang: str) -> None:
    for rules, last in ((Rules.preset("eagle"), None), (Rules.preset("eagle", eagle_returns=True), EAGLE_RETURNS)):
        position = at(rules, {2: "A1+", 5: "B1+"}, "A1:4,B1:4", "A1:0,B1:0", "A1", "3")
        (line,) = said([moved(position, "3:2")], rules, "eagle", lang)
        first = EAGLE[lang].rsplit(". ", 1)[0] + "."
        assert line == (EAGLE[lang] if last is None else f"{first} {last[lang]}")


@pytest.mark.parametrize("lang", SUPPORTED)
def test_a_stack_that_stops_on_the_fire_is_lost(lang: str) -> None:
    rules = Rules.preset("fire")
    position = at(rules, {2: "A1+"}, "A1:4,B1:5", "A1:0,B1:0", "A1", "3")
    assert said([moved(position, "3:2")], rules, "fire", lang) == [FIRE[lang]]


@pytest.mark.parametrize("lang", SUPPORTED)
def test_culin_arrives_and_walks_on(lang: str) -> None:
    rules = Rules.preset("culin")
    position = at(rules, {2: "A1B1-"}, "A1:4,B1:4", "A1:0,B1:0", "A1", "3")
    assert said([moved(position, "3:2")], rules, "culin", lang) == [CULIN[lang]]


@pytest.mark.parametrize("lang", SUPPORTED)
def test_a_scorpion_strikes_backward(lang: str) -> None:
    rules = Rules.preset("scorpion")
    position = at(rules, {6: "A1+", 4: "B1+"}, "A1:4,B1:4", "A1:0,B1:0", "A1", "2")
    assert said([moved(position, "2:6b")], rules, "scorpion", lang) == [SCORPION[lang]]


# --- why a turn passed -------------------------------------------------------------------------------------

PASSES = {
    "en": ["Bob threw 4 but cannot move, so the turn passes.",
           "Bob threw only one marked side, which means no move, so the turn passes.",
           "Alice cannot use the remaining throw of 2, so the turn passes."],
    "uk": ["Тарас кидає 4, але не може походити, тож черга переходить далі.",
           "Тарас кидає палички, і випадає лише один позначений бік: ходу немає, тож черга переходить далі.",
           "Оксана не може використати кидок 2, що лишився, тож черга переходить далі."],
    "it": ["Marco ha lanciato 4 ma non può muovere, quindi il turno passa.",
           "Nel lancio di Marco è uscito un solo lato segnato, che vuol dire nessuna mossa, quindi il turno passa.",
           "Giulia non può usare il lancio rimasto (2), quindi il turno passa."],
    "fr": ["Hugo a lancé 4 mais ne peut pas jouer\u00a0: le tour passe.",
           "Hugo n’a obtenu qu’une seule face marquée, ce qui ne permet pas de jouer\u00a0: le tour passe.",
           "Camille ne peut pas utiliser le lancer restant (2)\u00a0: le tour passe."],
    "es": ["Mateo tiró 4, pero no tiene ninguna jugada posible, así que pasa el turno.",
           "Mateo sacó una sola cara marcada, y con una sola no se mueve: pasa el turno.",
           "Lucía no puede usar el tiro de 2 que le queda, así que pasa el turno."],
}


@pytest.mark.parametrize("lang", SUPPORTED)
def test_a_passed_turn_says_why_with_the_throw(lang: str) -> None:
    no_move = Thrown("B1", (Throw.from_code("1111"),), True)
    lone_side = Thrown("B1", (Throw.from_code("1000", "pass-on-one"),), True)
    two_throws = Rules.preset("ants", throws_per_turn=2)
    position = at(two_throws, {3: "A1+"}, "A1:4,B1:5", "A1:0,B1:0", "A1", "3,2")
    village = duel(Rules.preset("village"), "village", lang)
    village = replace(village, position=Position.start(village.rules))
    lines = said([no_move], BELL, "bell", lang) + narrate([lone_side], village, lang)
    lines += said([moved(position, "3:3", lost=(2,))], two_throws, "ants", lang)[1:]
    assert lines == PASSES[lang]


OUT_OF_PIECES = {
    "en": "Bob threw 4 and 2 but has no piece left to move, so the turn passes.",
    "uk": "Тарас кидає 4 і 2, але не має жодної фішки, якою можна походити, тож черга переходить далі.",
    "it": "Marco ha lanciato 4 e 2 ma non ha più pedine da muovere, quindi il turno passa.",
    "fr": "Hugo a lancé 4 et 2 mais n’a plus de pion à jouer\u00a0: le tour passe.",
    "es": "Mateo tiró 4 y 2, pero no le quedan fichas que mover, así que pasa el turno.",
}


@pytest.mark.parametrize("lang", SUPPORTED)
def test_a_player_with_no_piece_left_is_told_so(lang: str) -> None:
    teams = Rules.preset("ants", team_size=2)
    game = duel(teams, "ants", lang)
    position = at(teams, {}, "A1:5,B1:0,A2:5,B2:5", "A1:5,B1:0,A2:0,B2:0", "A2")
    game = replace(game, position=position)
    both = (Throw.from_code("1111"), Throw.from_code("1100"))
    assert narrate([Thrown("B1", both, True)], game, lang) == [OUT_OF_PIECES[lang]]


@pytest.mark.parametrize("lang", SUPPORTED)
def test_a_throw_that_moves_nobody_is_not_narrated_as_a_pass(lang: str) -> None:
    assert said([Thrown("B1", (Throw.from_code("1100"),), False)], BELL, "bell", lang) == []


def test_a_timed_out_turn_says_the_bot_moved_when_it_did() -> None:
    position = at(BELL, {}, "A1:5,B1:5", "A1:0,B1:0", "B1", "2")
    timer_move = Moved("B1", position.move_effect(Move.parse("2:H")), "timer")
    assert said([TimedOut("B1", 1), timer_move], BELL, "bell", "en") == [
        "Bob ran out of time (1 of 3 in a row), so the bot moved instead.", "Bob entered a piece on cell 8."]
    assert said([TimedOut("B1", 3)], BELL, "bell", "en") == ["Bob ran out of time (3 of 3 in a row)."]


# --- titles ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "title"),
    [("en", "Puluc #12: Ants + fire + scorpion, 2 v 2, traditional"),
     ("uk", "Пулук №\u00a012: Мурахи + вогонь + скорпіон, 2 на 2, традиційний"),
     ("it", "Puluc n. 12: Formiche + fuoco + scorpione, 2 contro 2, tradizionale"),
     ("fr", "Puluc n°\u00a012\u00a0: Fourmis + feu + scorpion, 2 contre 2, traditionnel")],
)
def test_a_title_names_the_added_rules_and_the_team_size_in_the_readers_words(lang: str, title: str) -> None:
    rules = Rules.preset("ants", team_size=2, fire=True, scorpion=True)
    state = duel(rules, "ants", lang)
    assert game_title(state, lang) == title
    assert game_title(state, lang).count(":") == 1


def test_a_preset_that_has_the_rule_already_does_not_repeat_it() -> None:
    assert game_title(duel(Rules.preset("fire"), "fire", "en"), "en") == "Puluc #12: Fire, 1 v 1, modern"
    returning = duel(Rules.preset("eagle", eagle_returns=True), "eagle", "en")
    assert game_title(returning, "en") == "Puluc #12: Eagle + returning eagles, 1 v 1, modern"


# --- a whole game ------------------------------------------------------------------------------------------

PLAYERS = (Player(101, "Alice"), Player(102, "Bob"), Player(103, "Carol"), Player(104, "Dave"))
GAME_SEED = 3  # a 2 v 2 ants game with captures, kills, freed teammates, passes and left-over throws


async def seeded_team_game() -> tuple[GameState, list[ActionResult]]:
    """A traditional 2 v 2 ants game, every seat choosing captures and kills when it can (else at random)."""
    with tempfile.TemporaryDirectory() as folder:
        storage = await open_sqlite(Path(folder) / "puluc.db")
        try:
            return await _played_team_game(make_manager(storage.games, FakeClock(), RandomPicker(), seed=GAME_SEED))
        finally:
            await storage.close()


async def _played_team_game(manager: SessionManager) -> tuple[GameState, list[ActionResult]]:
    lobby = await manager.open_lobby(PLAYERS[0], CHANNEL, GameOptions(variant="ants", team_size=2))
    session = manager.get(lobby.game_id)
    results = [lobby]
    for player in PLAYERS[1:]:
        results.append(await session.join(player))
    results.append(await session.start(PLAYERS[0].user_id, manager.seeds()))
    rng = random.Random(GAME_SEED)
    while session.state.status == "running":
        state = session.state
        assert state.to_move is not None and state.to_move.user_id is not None
        pick = max(state.legal_options(), key=lambda o: (bool(o.effect.captured) or o.effect.kills > 0, rng.random()))
        results.append(await session.play(state.to_move.user_id, pick.notation, turn=state.seq))
    return session.state, results


def english_words() -> set[str]:
    """The words of the English narration, to find any left in a translated line."""
    texts = [str(m) for k, m in catalogue("en").items() if k.startswith("narrate.") and isinstance(m, str)]
    texts += [form for k, m in catalogue("en").items() if k.startswith("narrate.") and not isinstance(m, str)
              for form in m.values()]
    words = {w.lower() for text in texts for w in re.findall(r"[A-Za-z]{3,}", re.sub(r"\{\w+\}", " ", text))}
    return words - {"player"}


@pytest.fixture(scope="module")
def team_game() -> tuple[GameState, list[ActionResult]]:
    import asyncio

    return asyncio.run(seeded_team_game())


def test_the_seeded_game_has_every_kind_of_event(team_game: tuple[GameState, list[ActionResult]]) -> None:
    happened = [h for result in team_game[1] for h in result.happenings]
    moves = [h for h in happened if isinstance(h, Moved)]
    assert any(m.effect.captured for m in moves) and any(m.effect.kills for m in moves)
    assert any(m.effect.freed for m in moves) and any(m.lost for m in moves)
    assert any(isinstance(h, Thrown) and h.passed for h in happened)
    assert team_game[0].status == "finished"


@pytest.mark.parametrize("lang", SUPPORTED)
def test_a_whole_game_is_told_move_by_move(lang: str, team_game: tuple[GameState, list[ActionResult]]) -> None:
    final, results = team_game
    foreign = english_words() if lang != "en" else set()
    for result in results:
        lines = narrate(result.happenings, result.state, lang)
        expected: list[Happening] = []
        for happening in result.happenings:
            if isinstance(happening, Started) or (isinstance(happening, Thrown) and happening.passed):
                expected.append(happening)
            elif isinstance(happening, Moved):
                expected += [happening, happening] if happening.lost else [happening]
        assert len(lines) == len(expected)
        for line, happening in zip(lines, expected, strict=True):
            assert "{" not in line and line.endswith((".", "!")), line
            if isinstance(happening, Moved | Thrown):
                seat = final.seat(happening.seat)
                assert seat is not None and seat.name in line, line
            if isinstance(happening, Moved) and line.count(".") == 1 and not happening.lost:
                cells = [c for c in (happening.effect.source, happening.effect.dest) if c is not None]
                assert all(re.search(rf"\b{cell}\b", line) for cell in cells), line
            left = {w.lower() for w in re.findall(r"[A-Za-z]{3,}", line)} - {p.name.lower() for p in PLAYERS}
            assert not left & foreign, f"English in {lang}: {line}"


def test_what_happened_is_kept_without_words_and_said_in_any_language_later(
    team_game: tuple[GameState, list[ActionResult]],
) -> None:
    """The game message keeps what happened as `Told` values (no text in them) and words them when it is shown,
    so a server that changes its language mid-game reads the whole story in the new one."""
    results = team_game[1]
    kept = [item for result in results for item in told(result.happenings, result.state)]
    assert not [item for item in kept for value in (item.happening, item.rules, item.pieces, item.timer_moved)
                if isinstance(value, str)]
    for lang in SUPPORTED:
        each = [line for result in results for line in narrate(result.happenings, result.state, lang)]
        assert narration(kept, lang) == each[-MAX_NARRATION_LINES:]


# --- a language that orders the sentence otherwise ---------------------------------------------------------

# French messages written here in another order: what came of a move first, then the move; the striker's fate
# before the strike. Each sentence is one message, so the words land where the message puts them.
OUTCOME_FIRST = {
    "narrate.sentence_and": "Résultat : {outcome}, quand {action}.",
    "narrate.sentence_list": "Résultats : {outcomes}, quand {action}.",
    "narrate.striker_gone": "Le pion qui a frappé sort lui aussi du jeu, après ceci : {move}",
    "move.with_effects": "{effects} ← {move}",
}


def test_a_language_may_say_what_came_of_a_move_before_the_move(monkeypatch: pytest.MonkeyPatch) -> None:
    reword(monkeypatch, "fr", OUTCOME_FIRST)
    entering = at(BELL, {3: "B1+"}, "A1:5,B1:4", "A1:0,B1:0", "A1", "3")
    assert said([moved(entering, "3:H")], BELL, "bell", "fr") == [
        "Résultat : a capturé 1 pion, quand Camille a fait entrer un pion sur la case 3."]
    freeing = at(BELL, {2: "A1+", 5: "B1A1+"}, "A1:3,B1:4", "A1:0,B1:0", "A1", "3")
    assert said([moved(freeing, "3:2")], BELL, "bell", "fr") == [
        ("Résultats : a capturé 1 pion et a libéré 1 pion de son équipe, quand Camille a déplacé un pion de la case 2 "
         "à la case 5.")]
    eagle = Rules.preset("eagle")
    striking = at(eagle, {2: "A1+", 5: "B1+"}, "A1:4,B1:4", "A1:0,B1:0", "A1", "3")
    assert said([moved(striking, "3:2")], eagle, "eagle", "fr") == [
        ("Le pion qui a frappé sort lui aussi du jeu, après ceci : Résultat : a éliminé le pion ennemi qui s’y "
         "trouvait, quand Camille a déplacé un pion de la case 2 à la case 5.")]
    assert move_label(entering.move_effect(Move.parse("3:H")), "fr") == "capture ← lancer 3\u00a0: entrer un pion en 3"
    english = move_label(entering.move_effect(Move.parse("3:H")), "en")
    assert english == "throw 3: enter a piece on 3, captures"


def test_a_buttons_effects_are_listed_in_the_languages_words(monkeypatch: pytest.MonkeyPatch) -> None:
    eagle = Rules.preset("eagle")
    effect = at(eagle, {2: "A1+", 5: "B1+"}, "A1:4,B1:4", "A1:0,B1:0", "A1", "3").move_effect(Move.parse("3:2"))
    assert (effect.captures, effect.kills) == (True, 1)
    assert move_label(effect, "uk") == "кидок 3: фішка з 2 → 5, бере в полон, вбиває 1"
    reword(monkeypatch, "uk", {"list.comma": "{first}; {rest}", "move.with_effects": "{move} ({effects})"})
    assert move_label(effect, "uk") == "кидок 3: фішка з 2 → 5 (бере в полон; вбиває 1)"
