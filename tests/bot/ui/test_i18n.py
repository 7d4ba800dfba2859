"""Rules for the message catalogues: every language says everything English says, with the same
placeholders, correct plurals and command names Discord accepts."""

from __future__ import annotations

from collections.abc import Mapping

import discord
import pytest
from discord import Locale, app_commands

from bot.ui import i18n
from bot.ui.i18n import (
    SUPPORTED,
    CatalogueError,
    PluralCountError,
    PulucTranslator,
    UnknownMessageError,
    UnsupportedLanguageError,
    catalogue,
    join_list,
    language_for,
    placeholders,
    plural_category,
    required_plural_categories,
    rules_page,
    t,
)

OTHER_LANGUAGES = [lang for lang in SUPPORTED if lang != "en"]

# The command surface the issue asks for: subcommand -> its options.
COMMANDS: dict[str, set[str]] = {
    "new": {"variant", "team_size", "setup", "ranked", "turn_timer", "thread", "fire", "scorpion", "eagle_returns"},
    "challenge": {"opponent", "variant", "ranked"},
    "ai": {"difficulty", "variant"},
    "move": {"move"},
    "board": set(),
    "resign": set(),
    "hint": set(),
    "rules": {"variant"},
    "help": set(),
    "cancel": set(),
    "settings": {"default_variant", "turn_timer", "ranked", "language", "fire", "scorpion", "eagle_returns",
                 "turn_ping", "web"},
    "leaderboard": {"scope", "ladder", "season"},
    "profile": {"user"},
    "history": {"user"},
    "replay": {"game_id"},
    "privacy": set(),
    "forget-me": set(),
    "notifications": {"mode"},
    "games": set(),
    "tournament": set(),  # a group: its subcommands' strings are under cmd.tournament.<subcommand>
    "season": set(),  # a group of /puluc-admin: `season start`
}
PRESETS = ("bell", "ants", "eagle", "scorpion", "fire", "culin", "village")
FLAGS = ("fire", "scorpion", "eagle_returns", "one_active")


def _subcommands() -> list[str]:
    names = {key.split(".")[1] for key in catalogue("en") if key.startswith("cmd.")}
    return sorted(names - {"puluc"})


def _options(command: str) -> list[str]:
    prefix = f"cmd.{command}.opt."
    return sorted({key.removeprefix(prefix).split(".")[0] for key in catalogue("en") if key.startswith(prefix)})


# --- catalogue parity -----------------------------------------------------------------------------


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_every_english_key_exists_in_every_language(lang: str) -> None:
    missing = sorted(set(catalogue("en")) - set(catalogue(lang)))
    assert missing == [], f"{lang} lacks {missing}"


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_no_language_keeps_keys_english_dropped(lang: str) -> None:
    stale = sorted(set(catalogue(lang)) - set(catalogue("en")))
    assert stale == [], f"{lang} has keys English lacks: {stale}"


@pytest.mark.parametrize("lang", SUPPORTED)
def test_plural_messages_define_the_categories_the_language_needs(lang: str) -> None:
    for key, english in catalogue("en").items():
        message = catalogue(lang).get(key, english)
        assert isinstance(message, str) == isinstance(english, str), f"{lang} {key}: plural in one, not other"
        if isinstance(message, Mapping):
            assert required_plural_categories(lang) <= set(message), f"{lang} {key}: {sorted(message)}"


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_placeholders_match_english(lang: str) -> None:
    for key, message in catalogue(lang).items():
        assert placeholders(message) == placeholders(catalogue("en")[key]), f"{lang} {key}"


@pytest.mark.parametrize("lang", SUPPORTED)
def test_every_plural_form_uses_the_same_placeholders(lang: str) -> None:
    for key, message in catalogue(lang).items():
        if isinstance(message, Mapping):
            forms = {category: placeholders(form) for category, form in message.items()}
            assert len(set(forms.values())) == 1, f"{lang} {key}: {forms}"
            assert "count" in placeholders(message), f"{lang} {key} never shows the count"


@pytest.mark.parametrize("lang", SUPPORTED)
def test_every_message_formats_with_its_placeholders(lang: str) -> None:
    for key, message in catalogue(lang).items():
        params: dict[str, object] = {name: f"<{name}>" for name in placeholders(message)}
        params["count"] = 3
        assert t(key, lang, **params).strip(), f"{lang} {key} formats to nothing"


def test_a_plural_table_mixed_with_other_keys_is_rejected() -> None:
    with pytest.raises(CatalogueError, match="mixes plural categories"):
        i18n.parse_catalogue('[game.pieces]\none = "{count} piece"\nlabel = "Pieces"\n')


def test_a_number_where_text_belongs_is_rejected() -> None:
    with pytest.raises(CatalogueError, match="must be text"):
        i18n.parse_catalogue("[error]\nnot_your_turn = 3\n")


def test_broken_toml_names_the_file() -> None:
    with pytest.raises(CatalogueError, match=r"uk\.toml"):
        i18n.parse_catalogue("[error\n", "uk.toml")


# --- slash command strings ------------------------------------------------------------------------


def test_catalogue_has_every_command_and_option_of_the_issue() -> None:
    assert set(_subcommands()) == set(COMMANDS)
    for command, options in COMMANDS.items():
        assert set(_options(command)) == options, command


@pytest.mark.parametrize("name", ["нова", "forget-me", "team_size", "modalità", "défi", "खेल", "เกม", "x" * 32])
def test_discord_accepts_these_command_names(name: str) -> None:
    assert i18n.is_valid_command_name(name)


@pytest.mark.parametrize("name", ["", "New", "Нова", "two words", "it's", "x" * 33, "a.b", "über!"])
def test_discord_rejects_these_command_names(name: str) -> None:
    assert not i18n.is_valid_command_name(name)


@pytest.mark.parametrize("lang", SUPPORTED)
def test_localized_command_and_option_names_are_valid_for_discord(lang: str) -> None:
    names = [key for key in catalogue(lang) if key.startswith("cmd.") and key.endswith(".name")]
    bad = {key: catalogue(lang)[key] for key in names if not i18n.is_valid_command_name(str(catalogue(lang)[key]))}
    assert bad == {}


@pytest.mark.parametrize("lang", SUPPORTED)
def test_subcommand_names_are_unique_in_each_language(lang: str) -> None:
    names = [t(f"cmd.{command}.name", lang) for command in _subcommands()]
    assert len(names) == len(set(names)), sorted(names)


@pytest.mark.parametrize("lang", SUPPORTED)
def test_option_names_are_unique_within_each_command(lang: str) -> None:
    for command in _subcommands():
        names = [t(f"cmd.{command}.opt.{option}.name", lang) for option in _options(command)]
        assert len(names) == len(set(names)), f"{lang} {command}: {names}"


@pytest.mark.parametrize("lang", SUPPORTED)
def test_descriptions_and_choice_names_fit_discord(lang: str) -> None:
    for key, message in catalogue(lang).items():
        if (key.startswith("cmd.") and key.endswith(".desc")) or key.startswith("choice."):
            assert isinstance(message, str) and 1 <= len(message) <= 100, f"{lang} {key}: {len(message)}"


def test_variant_choices_are_the_seven_presets_in_order() -> None:
    assert [choice.value for choice in i18n.choices("variant")] == list(PRESETS)
    assert [choice.value for choice in i18n.choices("difficulty")] == ["easy", "medium", "hard"]


def test_command_helpers_default_to_the_english_text_and_carry_the_key() -> None:
    name = i18n.option_name("settings", "default_variant")
    assert name.message == "default_variant"
    assert name.extras == {"key": "cmd.settings.opt.default_variant.name"}
    with pytest.raises(UnknownMessageError):
        i18n.command_name("teleport")


# --- translator -----------------------------------------------------------------------------------

OTHER_CONTEXT: app_commands.TranslationContextTypes = app_commands.TranslationContext(
    app_commands.TranslationContextLocation.other, None
)


@pytest.mark.parametrize(
    ("locale", "expected"),
    [(Locale.ukrainian, "нова"), (Locale.italian, "nuova"), (Locale.french, "nouvelle"),
     (Locale.spain_spanish, "nueva"), (Locale.latin_american_spanish, "nueva")],
)
async def test_translator_gives_localized_command_names(locale: Locale, expected: str) -> None:
    assert await PulucTranslator().translate(i18n.command_name("new"), locale, OTHER_CONTEXT) == expected


@pytest.mark.parametrize("locale", [Locale.american_english, Locale.british_english, Locale.german, Locale.japanese])
async def test_translator_leaves_english_and_unknown_locales_to_the_default(locale: Locale) -> None:
    assert await PulucTranslator().translate(i18n.command_name("new"), locale, OTHER_CONTEXT) is None


async def test_translator_uses_the_message_as_key_when_no_key_is_given() -> None:
    string = app_commands.locale_str("choice.difficulty.hard")
    assert await PulucTranslator().translate(string, Locale.ukrainian, OTHER_CONTEXT) == "Складний"
    untranslated = app_commands.locale_str("no such text")
    assert await PulucTranslator().translate(untranslated, Locale.ukrainian, OTHER_CONTEXT) is None


async def test_discord_payload_carries_localized_names_choices_and_descriptions() -> None:
    group = app_commands.Group(name=i18n.command_name("puluc"), description=i18n.command_description("puluc"))

    @group.command(name=i18n.command_name("rules"), description=i18n.command_description("rules"))
    @app_commands.rename(variant=i18n.option_name("rules", "variant"))
    @app_commands.describe(variant=i18n.option_description("rules", "variant"))
    @app_commands.choices(variant=i18n.choices("variant"))
    async def rules(interaction: discord.Interaction, variant: str) -> None:
        """Only its payload is inspected."""

    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    payload = await group.get_translated_payload(tree, PulucTranslator())
    assert payload["name"] == "puluc" and payload["name_localizations"]["uk"] == "пулук"
    sub = payload["options"][0]
    assert sub["name"] == "rules"
    assert sub["name_localizations"] == {"uk": "правила", "it": "regole", "fr": "règles", "es-ES": "reglas",
                                         "es-419": "reglas"}
    option = sub["options"][0]
    assert option["name"] == "variant" and option["name_localizations"]["fr"] == "variante"
    assert option["description_localizations"]["uk"] == "Який варіант пояснити (якщо порожньо — загальні правила)"
    eagle = next(choice for choice in option["choices"] if choice["value"] == "eagle")
    assert eagle["name"] == "Eagle: no stacks, one strike each"
    assert eagle["name_localizations"] == {
        "uk": "Орел: без вежок, кожна фішка б’є раз",
        "it": "Aquila: niente pile, un solo colpo",
        "fr": "Aigle\u00a0: pas de piles, chaque pion frappe une fois",
        "es-ES": "Águila: sin pilas, cada ficha golpea una vez",
        "es-419": "Águila: sin pilas, cada ficha golpea una vez",
    }


# --- languages ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("locale", "lang"),
    [
        ("en-US", "en"),
        ("en-GB", "en"),
        ("uk", "uk"),
        ("it", "it"),
        ("fr", "fr"),
        ("fr_FR", "fr"),
        (Locale.ukrainian, "uk"),
        (Locale.italian, "it"),
        (Locale.french, "fr"),
        ("es-ES", "es"),
        ("es-419", "es"),
        ("es_MX", "es"),
        (Locale.spain_spanish, "es"),
        (Locale.latin_american_spanish, "es"),
        (Locale.british_english, "en"),
        ("de", "en"),
        ("pt-BR", "en"),
        (Locale.russian, "en"),
        ("", "en"),
        (None, "en"),
    ],
)
def test_language_for_maps_discord_locales(locale: str | Locale | None, lang: str) -> None:
    assert language_for(locale) == lang


def test_unknown_locale_falls_back_to_english_text() -> None:
    assert t("error.not_your_turn", Locale.japanese) == "It is not your turn."
    assert t("error.not_your_turn", "de") == t("error.not_your_turn", "en")


def test_key_missing_in_a_language_falls_back_to_english(monkeypatch: pytest.MonkeyPatch) -> None:
    real = i18n.catalogue

    def without_host_only(lang: str) -> Mapping[str, i18n.Message]:
        return {k: v for k, v in real(lang).items() if not (lang == "uk" and k == "error.host_only")}

    monkeypatch.setattr(i18n, "catalogue", without_host_only)
    assert t("error.host_only", "uk") == "Only the host of this game can do that."
    assert t("error.not_your_turn", "uk") == "Зараз не ваша черга."


def test_public_messages_follow_the_server_setting_over_its_locale() -> None:
    assert i18n.public_language("fr", "uk") == "uk"
    assert i18n.public_language(Locale.italian, "auto") == "it"
    assert i18n.public_language("pt-BR", None) == "en"
    with pytest.raises(UnsupportedLanguageError, match="choose auto or one of"):
        i18n.public_language("fr", "klingon")


# --- plurals --------------------------------------------------------------------------------------

PLURAL_TABLE = [
    ("uk", 0, "many"),
    ("uk", 1, "one"),
    ("uk", 2, "few"),
    ("uk", 4, "few"),
    ("uk", 5, "many"),
    ("uk", 11, "many"),
    ("uk", 12, "many"),
    ("uk", 14, "many"),
    ("uk", 21, "one"),
    ("uk", 22, "few"),
    ("uk", 25, "many"),
    ("uk", 101, "one"),
    ("uk", 111, "many"),
    ("uk", 112, "many"),
    ("uk", 122, "few"),
    ("uk", 1001, "one"),
    ("uk", -2, "few"),
    ("fr", 0, "one"),
    ("fr", 1, "one"),
    ("fr", 2, "other"),
    ("fr", 1_000_000, "many"),
    ("en", 0, "other"),
    ("en", 1, "one"),
    ("en", 2, "other"),
    ("en", 1_000_000, "other"),
    ("it", 0, "other"),
    ("it", 1, "one"),
    ("it", 2, "other"),
    ("it", 1_000_000, "many"),
    ("es", 0, "other"),
    ("es", 1, "one"),
    ("es", 2, "other"),
    ("es", 21, "other"),
    ("es", 1_000_000, "many"),
    ("es", 2_000_000, "many"),
    ("es", 1_000_001, "other"),
]


@pytest.mark.parametrize(("lang", "n", "category"), PLURAL_TABLE)
def test_plural_category_follows_cldr(lang: str, n: int, category: str) -> None:
    assert plural_category(lang, n) == category


@pytest.mark.parametrize("count", [1.5, True, "3", None])
def test_plural_count_must_be_an_integer(count: object) -> None:
    with pytest.raises(PluralCountError):
        plural_category("uk", count)  # type: ignore[arg-type]


def test_plural_rules_exist_only_for_supported_languages() -> None:
    with pytest.raises(UnsupportedLanguageError):
        plural_category("de", 1)


@pytest.mark.parametrize(
    ("lang", "count", "text"),
    [
        ("uk", 1, "1 фішка вдома"),
        ("uk", 2, "2 фішки вдома"),
        ("uk", 5, "5 фішок вдома"),
        ("uk", 21, "21 фішка вдома"),
        ("uk", 11, "11 фішок вдома"),
        ("en", 1, "1 piece at home"),
        ("en", 0, "0 pieces at home"),
        ("it", 1, "1 pedina a casa"),
        ("it", 4, "4 pedine a casa"),
        ("fr", 0, "0 pion au camp"),
        ("fr", 1, "1 pion au camp"),
        ("fr", 2, "2 pions au camp"),
        ("es", 0, "0 fichas en casa"),
        ("es", 1, "1 ficha en casa"),
        ("es", 21, "21 fichas en casa"),
    ],
)
def test_game_status_uses_the_right_plural(lang: str, count: int, text: str) -> None:
    assert t("game.status_home", lang, count=count) == text


def test_million_falls_back_to_other_when_many_is_not_written() -> None:
    assert t("game.status_home", "fr", count=1_000_000) == "1000000 pions au camp"
    assert t("game.status_home", "es", count=1_000_000) == "1000000 fichas en casa"


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("en", "Slow down: try again in 3 seconds."),
        ("uk", "Не поспішайте: спробуйте ще раз через 3 секунди."),
        ("it", "Piano: riprova tra 3 secondi."),
        ("fr", "Doucement\u00a0: réessayez dans 3 secondes."),
        ("es", "Más despacio: vuelve a intentarlo en 3 segundos."),
    ],
)
def test_cooldown_error_in_every_language(lang: str, text: str) -> None:
    assert t("error.cooldown", lang, count=3) == text


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("en", "2:7b is not a legal move right now."),
        ("uk", "Хід 2:7b зараз неможливий."),
        ("it", "2:7b non è una mossa valida adesso."),
        ("fr", "2:7b n’est pas un coup permis maintenant."),
        ("es", "2:7b no es una jugada válida ahora."),
    ],
)
def test_illegal_move_error_names_the_move(lang: str, text: str) -> None:
    assert t("error.illegal_move", lang, move="2:7b") == text


def test_plural_message_without_count_is_refused() -> None:
    with pytest.raises(PluralCountError, match="needs count"):
        t("game.status_home", "uk")


def test_missing_placeholder_value_is_refused() -> None:
    with pytest.raises(i18n.MissingPlaceholderError, match=r"\{link\}"):
        t("error.game_running", "en")


def test_unknown_key_is_refused() -> None:
    with pytest.raises(UnknownMessageError):
        t("error.no_such_error", "fr")


# --- rules pages ----------------------------------------------------------------------------------

EMBED_TOTAL = 6000


def _check_embed_limits(page: i18n.RulesPage) -> None:
    assert 1 <= len(page.title) <= 256
    assert 1 <= len(page.description) <= 4096
    assert 1 <= len(page.fields) <= 25
    for name, value in page.fields:
        assert 1 <= len(name) <= 256 and 1 <= len(value) <= 1024, name
    assert len(page.footer) <= 2048
    total = len(page.title) + len(page.description) + len(page.footer) + sum(len(n) + len(v) for n, v in page.fields)
    assert total <= EMBED_TOTAL


def test_rules_text_exists_for_every_preset_and_flag() -> None:
    assert i18n.presets() == PRESETS
    assert i18n.flags() == FLAGS


@pytest.mark.parametrize("lang", SUPPORTED)
@pytest.mark.parametrize("preset", PRESETS)
def test_preset_rules_page_fits_an_embed(lang: str, preset: str) -> None:
    page = rules_page(lang, preset)
    _check_embed_limits(page)
    labels = [t(f"rules.label.{field}", lang) for field in ("route", "capture", "end", "sticks")]
    assert [name for name, _ in page.fields] == labels


@pytest.mark.parametrize("lang", SUPPORTED)
def test_general_rules_page_fits_an_embed_and_explains_every_flag(lang: str) -> None:
    page = rules_page(lang)
    _check_embed_limits(page)
    names = [name for name, _ in page.fields]
    for flag in FLAGS:
        assert t(f"rules.flag.{flag}.title", lang) in names


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_rules_are_written_in_each_language_not_copied_from_english(lang: str) -> None:
    for preset in (None, *PRESETS):
        localized, english = rules_page(lang, preset), rules_page("en", preset)
        same = [name for (name, value), (_, en) in zip(localized.fields, english.fields, strict=True) if value == en]
        assert same == [] and localized.description != english.description, f"{lang} {preset}: {same}"


def test_rules_page_follows_the_locale_of_the_reader() -> None:
    assert rules_page(Locale.ukrainian, "village").title == "Село: один позначений бік — ходу немає"
    assert rules_page(Locale.latin_american_spanish, "village").title == "Aldea: una sola cara marcada no mueve"
    assert rules_page(Locale.german, "village").title == "Village: one marked side means no move"


def test_unknown_preset_has_no_rules_page() -> None:
    with pytest.raises(UnknownMessageError, match="presets: bell"):
        rules_page("en", "chess")


@pytest.mark.parametrize(("lang", "two", "three"), [
    ("en", "a and b", "a, b and c"), ("uk", "a і b", "a, b і c"), ("it", "a e b", "a, b e c"),
    ("fr", "a et b", "a, b et c"), ("es", "a y b", "a, b y c"),
])
def test_a_list_is_joined_in_the_languages_words(lang: str, two: str, three: str) -> None:
    assert (join_list([], lang), join_list(["a"], lang)) == ("", "a")
    assert (join_list(["a", "b"], lang), join_list(["a", "b", "c"], lang)) == (two, three)
    assert join_list(["a", "b", "c"], lang, narrow=True) == "a, b, c"
