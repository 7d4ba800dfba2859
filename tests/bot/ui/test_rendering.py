"""Every message renders in every language with realistic values, and says what it was given.

Each key of each catalogue is formatted the way the code formats it, with sample values: players and
tournaments with feminine and with masculine names, counts of 0, 1, 2, 5 and 21 (which fall in different
plural categories in different languages), and decimal ratings, chances and scores. For each rendering:
- every value the code passes (the English message's placeholders) appears in the text, so no translation
  silently drops one, and no brace is left over;
- a plural message picks the form of the count's CLDR category (checked against a table written here, not
  against the rules in `bot.ui.i18n`), and a fractional count is refused rather than guessed;
- the text has no doubled space and no stray space at its ends; and no message is a fragment the code appends to
  another (", captures", " · with {names}"): each sentence is one message, so each language orders its parts.

Then the words around a name: a player's or a tournament's name has no known gender, so in the languages
whose participles and adjectives agree ("mieux placé", "è iniziato", "está listo", "вищий"), no such word
may take the name as its subject; a tournament's name is wrapped in the noun ("le tournoi {name}") instead.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import pytest

from bot.ui import i18n
from bot.ui.i18n import SUPPORTED, PluralCountError, catalogue, placeholders, t

COUNTS = (0, 1, 2, 5, 21)

# CLDR plural categories of the sample counts, written out by hand from CLDR's plurals.xml.
CATEGORIES: dict[str, dict[int, str]] = {
    "en": {0: "other", 1: "one", 2: "other", 5: "other", 21: "other"},
    "it": {0: "other", 1: "one", 2: "other", 5: "other", 21: "other"},
    "es": {0: "other", 1: "one", 2: "other", 5: "other", 21: "other"},
    "fr": {0: "one", 1: "one", 2: "other", 5: "other", 21: "other"},
    "uk": {0: "many", 1: "one", 2: "few", 5: "many", 21: "one"},
}

# (feminine, masculine) names of people and of tournaments, as players of each language might have.
PEOPLE = {
    "en": ("Alice", "Bob"), "uk": ("Оксана", "Тарас"), "it": ("Giulia", "Marco"), "fr": ("Juliette", "Hugo"),
    "es": ("Lucía", "Mateo"),
}
TOURNAMENTS = {
    "en": ("Winter Cup", "Summer Trophy"), "uk": ("Зимова ліга", "Літній кубок"),
    "it": ("Coppa d’inverno", "Trofeo d’estate"), "fr": ("Coupe d’hiver", "Trophée d’été"),
    "es": ("Copa de invierno", "Trofeo de verano"),
}

PERSON = frozenset({"player", "winner", "loser", "host", "opponent", "organiser", "name", "a", "b"})
LISTS = frozenset({"names", "opponents"})
DECIMAL = frozenset({"chance", "percent", "rate", "rating", "before", "after", "delta", "score", "score_a", "score_b"})
NUMBER = frozenset({
    "limit", "low", "high", "needed", "page", "rank", "players", "season", "current", "next", "round", "rounds",
    "game_id", "tournament_id", "number", "throw", "source", "dest", "cell", "first", "second", "size",
})
NOT_A_PERSON = {"perm.quoted": {"name"}, "lobby.balanced": {"a", "b"}}  # a permission's label; two percentages


def is_tournament_name(key: str, placeholder: str) -> bool:
    return placeholder == "name" and key.startswith("tournament.")


def sample(key: str, names: set[str], lang: str, gender: int, count: int, decimals: bool) -> dict[str, object]:
    """A value for every placeholder of `key`: names of the given gender, `count`, decimals or whole numbers."""
    values: dict[str, object] = {}
    for name in sorted(names):
        if name == "count":
            values[name] = count
        elif name in DECIMAL or (name in NOT_A_PERSON.get(key, ()) and name in {"a", "b"}):
            values[name] = "54.5" if decimals else "54"
        elif is_tournament_name(key, name):
            values[name] = TOURNAMENTS[lang][gender]
        elif name in PERSON and name not in NOT_A_PERSON.get(key, ()):
            values[name] = PEOPLE[lang][gender] if name not in ("b", "loser") else PEOPLE[lang][1 - gender]
        elif name in LISTS:
            values[name] = ", ".join(PEOPLE[lang])
        elif name in NUMBER:
            values[name] = str(count or 3)
        else:
            values[name] = f"⟨{name}⟩"  # text the code builds (a summary, a link, a Discord timestamp)
    return values


def problems_rendering(lang: str, key: str) -> list[str]:
    message = catalogue(lang)[key]
    names = set(placeholders(catalogue("en")[key]))  # what the code passes: the English message's placeholders
    found = []
    for gender in (0, 1):
        for count in COUNTS:
            for decimals in (False, True):
                values = sample(key, names, lang, gender, count, decimals)
                text = t(key, lang, **values)
                where = f"{lang} {key} ({values})"
                missing = [name for name, value in values.items() if str(value) not in text]
                if missing:
                    found.append(f"{where}: {missing} not shown in {text!r}")
                if "{" in text or "}" in text:
                    found.append(f"{where}: brace left in {text!r}")
                if "  " in text or text != text.strip():
                    found.append(f"{where}: stray space in {text!r}")
                if not isinstance(message, str):
                    category = CATEGORIES[lang][count]
                    expected = message.get(category, message.get("other", "")).format(**values)
                    if text != expected:
                        found.append(f"{where}: {text!r} is not the {category!r} form {expected!r}")
    return found


@pytest.mark.parametrize("lang", SUPPORTED)
def test_every_message_renders_with_every_value_it_is_given(lang: str) -> None:
    found = [problem for key in catalogue("en") for problem in problems_rendering(lang, key)]
    assert found == []


@pytest.mark.parametrize("lang", SUPPORTED)
def test_no_message_is_a_fragment_appended_to_another(lang: str) -> None:
    joined = re.compile(r"^[\s,;:·]|\s$")
    fragments = {key: message for key, message in catalogue(lang).items()
                 if any(joined.search(form) for form in ([message] if isinstance(message, str) else message.values()))}
    assert fragments == {}


def test_the_plural_table_covers_every_language() -> None:
    assert set(CATEGORIES) == set(SUPPORTED) == set(PEOPLE) == set(TOURNAMENTS)


@pytest.mark.parametrize("lang", SUPPORTED)
def test_each_plural_message_has_a_form_for_each_category_its_counts_fall_in(lang: str) -> None:
    plurals = {key: message for key, message in catalogue(lang).items() if not isinstance(message, str)}
    assert len(plurals) > 30
    needed = set(CATEGORIES[lang].values())
    lacking = {key: sorted(needed - set(message)) for key, message in plurals.items()
               if not needed <= set(message) and "other" not in message}
    assert lacking == {}


@pytest.mark.parametrize("lang", SUPPORTED)
@pytest.mark.parametrize("count", [1.5, 0.5])
def test_a_fractional_count_is_refused(lang: str, count: float) -> None:
    with pytest.raises(PluralCountError):
        t("game.status_home", lang, count=count)


@pytest.mark.parametrize(
    ("lang", "one", "many"),
    [("uk", "21 фішка вдома", "11 фішок вдома"), ("fr", "0 pion au camp", "2 pions au camp"),
     ("es", "1 ficha en casa", "21 fichas en casa"), ("it", "1 pedina a casa", "0 pedine a casa")],
)
def test_the_counts_that_trip_translators_take_the_right_form(lang: str, one: str, many: str) -> None:
    for text in (one, many):
        count = int(text.split()[0])
        assert t("game.status_home", lang, count=count) == text


# --- names of unknown gender -------------------------------------------------------------------------------

# A word that agrees with its subject in gender, after a name in the same clause, would be wrong for half the
# names. English has none; Ukrainian narrates in the present tense, which does not agree either.
AGREEING = {
    "fr": r"\b(est|était|sera|s’est|sont)\s+(\w+\s+)?(placé|classé|qualifié|inscrit|éliminé|prêt|seul|parti|arrivé|"
          r"resté|allé|sorti|entré|rentré|retiré|annulé|terminé|commencé|battu)\b|\bmieux placé\b|\btous deux\b"
          r"|\bexempt\b",
    "it": r"\b(è|era|sarà|si è|sono)\s+(\w+\s+)?(piazzato|classificato|qualificato|iscritto|eliminato|pronto|solo|"
          r"arrivato|rimasto|andato|uscito|entrato|tornato|ritirato|partito|iniziato|concluso|annullato|stato)\b",
    "es": r"\b(está|es|fue|quedó|queda|estaba|será|estás)\s+(\w+\s+)?(listo|solo|inscrito|clasificado|eliminado|"
          r"preparado|retirado|cancelado|terminado|empezado|colocado|calificado)\b|\bmejor colocado\b"
          r"|\bti mismo\b|\bbienvenido\b",
    "uk": r"\b(здався|виграв|програв|почав|пропустив|вийшов|зробив|кинув|записався|вищий|нижчий|готовий|"
          r"скасований|завершений|розпочатий)\b",
    "en": r"(?!)",
}
# The noun, maybe with the tournament's number after it ("le tournoi n° {tournament_id}, {name}, …").
NOUN_BEFORE = re.compile(r"(tournoi|torneo|турнір\w*|tournament)\s*((n[°.º]*|#|№)\s*\{tournament_id\},?\s*)?[«*]*$",
                         re.IGNORECASE)
# A name after a preposition is not the subject ("Nel lancio di {player} è uscito un solo lato").
PREPOSITION_BEFORE = {
    "fr": r"\b(de|à|pour|avec|du|par|contre|chez)\s*$", "it": r"\b(di|a|da|per|con|del|della|al|alla)\s*$",
    "es": r"\b(de|a|para|con|del|al|por|contra)\s*$", "uk": r"(?!)", "en": r"\b(of|in|from|to)\s*$",
}
CLAUSE_END = re.compile(r"[.;!?]|\s—\s")  # not the colon: "{player} : exempt" is one clause


def agreeing_with_a_name(lang: str, key: str, template: str) -> list[str]:
    """Each word that would agree in gender with a name placeholder it follows in the same clause."""
    agreeing = re.compile(AGREEING[lang])
    found = []
    for match in re.finditer(r"\{(\w+)\}", template):
        name = match.group(1)
        if name not in PERSON or name in NOT_A_PERSON.get(key, ()):
            continue
        before = template[: match.start()]
        if NOUN_BEFORE.search(before) or re.search(PREPOSITION_BEFORE[lang], before):
            continue  # "le tournoi {name} est annulé": the noun is the subject
        clause = CLAUSE_END.split(template[match.end():], maxsplit=1)[0]
        found += [f"{lang} {key}: {{{name}}}…{hit.group(0)!r}" for hit in agreeing.finditer(clause)]
    return found


@pytest.mark.parametrize("lang", SUPPORTED)
def test_no_word_agrees_with_a_name_of_unknown_gender(lang: str) -> None:
    found = []
    for key, message in catalogue(lang).items():
        for form in [message] if isinstance(message, str) else list(message.values()):
            found += agreeing_with_a_name(lang, key, form)
    assert found == []


@pytest.mark.parametrize(
    ("lang", "template"),
    [("fr", "{name} est annulé."), ("fr", " ; {player} se qualifie, mieux placé comme tête de série"),
     ("fr", "ni {a} ni {b} n’a commencé la partie : tous deux la perdent."), ("it", "{name} è iniziato: via."),
     ("es", "{player} está listo."), ("uk", "; далі проходить {player} як вищий за посівом"),
     ("fr", "{player} : exempt")],
)
def test_the_agreement_check_catches_the_words_the_review_found(lang: str, template: str) -> None:
    assert agreeing_with_a_name(lang, "tournament.x", template) != []


@pytest.mark.parametrize(
    ("lang", "template"),
    [("fr", "Le tournoi {name} est annulé."), ("it", "🏆 Il torneo **{name}** è concluso: vince **{winner}**!"),
     ("es", "{player} se rindió."), ("fr", "{player} a éliminé 1 prisonnier."), ("uk", "Турнір «{name}» скасовано."),
     ("it", "Nel lancio di {player} è uscito un solo lato segnato.")],
)
def test_the_agreement_check_spares_a_wrapped_name_and_verbs_that_do_not_agree(lang: str, template: str) -> None:
    assert agreeing_with_a_name(lang, "tournament.x", template) == []


HEADING = re.compile(r"^(🏆 )?\{name\}(\s*[:·]|$)")  # a title or a label: "🏆 {name}", "{name}: table"


def bare_tournament_names(lang: str, messages: Mapping[str, object]) -> dict[str, str]:
    """The tournament messages that say something of `{name}` without the noun (or a preposition) before it."""
    bare = {}
    for key, message in messages.items():
        if not key.startswith("tournament.") or not isinstance(message, str) or "{name}" not in message:
            continue
        before = message[: message.index("{name}")]
        if not (HEADING.match(message) or NOUN_BEFORE.search(before) or re.search(PREPOSITION_BEFORE[lang], before)):
            bare[key] = message
    return bare


@pytest.mark.parametrize("lang", SUPPORTED)
def test_a_sentence_about_a_tournament_names_it_after_the_noun(lang: str) -> None:
    """English too: a new translation starts from "The tournament {name} has started", not "{name} has started"."""
    assert bare_tournament_names(lang, catalogue(lang)) == {}


def test_the_noun_check_catches_a_bare_name_and_spares_titles() -> None:
    found = bare_tournament_names("en", {
        "tournament.a": "{name} has started.", "tournament.b": "🏆 {name}", "tournament.c": "{name}: table",
        "tournament.d": "Tournament #{tournament_id}, {name}, is announced.",
        "tournament.e": "Il torneo {name} è iniziato.",
    })
    assert found == {"tournament.a": "{name} has started."}


@pytest.mark.parametrize("lang", SUPPORTED)
def test_a_feminine_tournament_name_reads_right_where_the_tournament_starts_and_ends(lang: str) -> None:
    feminine = TOURNAMENTS[lang][0]
    for key in ("tournament.done.started", "tournament.done.cancelled", "tournament.final", "tournament.cancelled"):
        text = t(key, lang, name=feminine, winner=PEOPLE[lang][0])
        before = text[: text.index(feminine)]
        assert NOUN_BEFORE.search(before), f"{lang} {key}: {text!r} does not name the tournament before {feminine}"


def test_the_samples_are_realistic_values_for_the_code_s_placeholders() -> None:
    values = sample("tournament.round.title", {"name", "round", "rounds"}, "fr", 0, 2, False)
    assert values == {"name": "Coupe d’hiver", "round": "2", "rounds": "2"}
    assert sample("lobby.balanced", {"a", "b"}, "es", 0, 1, True) == {"a": "54.5", "b": "54.5"}
    assert sample("tournament.result.won", {"winner", "loser"}, "es", 1, 1, False) == {"winner": "Mateo",
                                                                                          "loser": "Lucía"}
    assert isinstance(catalogue("uk")["game.status_home"], Mapping)


# --- the rendering check catches what it is for ------------------------------------------------------------


def test_a_form_that_drops_the_count_or_a_name_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    original = i18n.catalogue
    broken = {**original("fr"), "game.status_home": {"one": "un pion au camp", "other": "{count} pions au camp"},
              "game.resigned": "Quelqu’un abandonne.{player}"[:-8]}

    def patched(lang: str) -> Mapping[str, object]:
        return broken if lang == "fr" else original(lang)

    monkeypatch.setattr(i18n, "catalogue", patched)
    monkeypatch.setattr(f"{__name__}.catalogue", patched)
    assert any("not shown" in problem for problem in problems_rendering("fr", "game.status_home"))
    assert any("not shown" in problem for problem in problems_rendering("fr", "game.resigned"))


def test_a_count_given_the_wrong_plural_form_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(i18n._PLURAL_RULES, "uk", lambda n: "one" if n == 1 else "many")  # forgets 21 and 2-4
    found = problems_rendering("uk", "game.status_home")
    assert any("is not the 'one' form" in problem for problem in found)  # 21 фішка
    assert any("is not the 'few' form" in problem for problem in found)  # 2 фішки
