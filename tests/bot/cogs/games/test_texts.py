"""What players read outside the move narration: help that lists every command and explains the board, the
variant picker, invitations, permission refusals, and game messages with no English left in a translation."""

from __future__ import annotations

import re
from dataclasses import replace

import discord
import pytest
from discord import app_commands

from bot.cogs.games.texts import challenge_text, end_embed, game_embed, help_embeds, lobby_embed, variant_title
from bot.sessions import GameState, Place, SeatState
from bot.sessions.errors import IllegalMoveError, UnreadableMove
from bot.ui.i18n import SUPPORTED, catalogue, choices, t
from bot.ui.replies import BotLacksPermissions, error_text
from puluc import PRESETS, Position, Rules

OTHER_LANGUAGES = [lang for lang in SUPPORTED if lang != "en"]


def subcommands() -> list[str]:
    return sorted({key.split(".")[1] for key in catalogue("en") if key.startswith("cmd.")} - {"puluc"})


def text_of(embeds: list[discord.Embed]) -> str:
    parts: list[str] = []
    for embed in embeds:
        parts += [embed.title or "", embed.description or ""]
        parts += [f"{field.name}\n{field.value}" for field in embed.fields]
        parts.append(embed.footer.text or "" if embed.footer else "")
    return "\n".join(parts)


# --- help --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", SUPPORTED)
def test_help_lists_every_command_by_its_name_in_the_readers_language(lang: str) -> None:
    shown = text_of(help_embeds(lang))
    group = t("cmd.puluc.name", lang)
    admin = ("settings", "season")  # the /puluc-admin commands
    missing = [name for name in subcommands()
               if f"/{group} {t(f'cmd.{name}.name', lang)}" not in shown and name not in admin]
    assert missing == []
    assert f"/{t('admin.name', lang)} {t('cmd.settings.name', lang)}" in shown
    assert f"/{t('admin.name', lang)} {t('cmd.season.name', lang)} {t('cmd.season.start.name', lang)}" in shown


@pytest.mark.parametrize("lang", SUPPORTED)
def test_help_names_permissions_as_discord_labels_them(lang: str) -> None:
    shown = text_of(help_embeds(lang))
    assert t("perm.manage_messages", lang) in shown and t("perm.manage_guild", lang) in shown
    for option in ("fire", "scorpion", "eagle_returns"):
        assert t(f"cmd.new.opt.{option}.name", lang) in shown


@pytest.mark.parametrize("lang", SUPPORTED)
def test_help_has_a_page_on_reading_the_board(lang: str) -> None:
    commands, board = help_embeds(lang)
    assert board.title == t("help.board.title", lang)
    assert [field.name for field in board.fields] == [
        t(f"help.board.{section}.title", lang) for section in ("header", "homes", "road", "stacks", "moves")]
    assert board.image.url == "attachment://legend.png"  # the labelled picture the cog attaches
    assert all(len(field.value or "") <= 1024 for embed in (commands, board) for field in embed.fields)
    assert len(commands) + len(board) <= 6000  # Discord's limit for all the embeds of one message


# --- the variant picker ------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", SUPPORTED)
def test_every_variant_choice_has_a_subtitle_and_no_default_marker(lang: str) -> None:
    for preset in PRESETS:
        label = t(f"choice.variant.{preset}", lang)
        name, _, subtitle = label.partition(":")
        assert name.strip() and subtitle.strip(), f"{lang} {preset}: {label!r} has no subtitle"
        assert variant_title(preset, lang).split()[0] in label  # the short name the titles use
        assert "(" not in label  # no "(default)": the picker cannot know a server's own default
    assert [c.value for c in choices("variant")] == list(PRESETS)


# --- messages a game shows -----------------------------------------------------------------------------------


def team_game(lang: str) -> GameState:
    rules = Rules.preset("ants", team_size=2, fire=True)
    seats = (SeatState("A1", "Alice", user_id=1), SeatState("B1", "Bob", user_id=2),
             SeatState("A2", "Carol", user_id=3), SeatState("B2", "hard", ai_level="hard"))
    return GameState(game_id=7, place=Place(1, 1), host_id=1, variant="ants", rules=rules, ranked=True,
                     turn_timer=600, status="lobby", seats=seats)


def english_words() -> set[str]:
    """Words of the English catalogue that no other catalogue uses (names like Puluc or Bell are shared)."""
    def words(lang: str) -> set[str]:
        found: set[str] = set()
        for message in catalogue(lang).values():
            for form in [message] if isinstance(message, str) else list(message.values()):
                found |= {w.lower() for w in re.findall(r"[A-Za-z]{4,}", re.sub(r"\{\w+\}", " ", form))}
        return found
    return words("en") - set().union(*(words(lang) for lang in OTHER_LANGUAGES))


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_game_messages_leave_no_english_in_a_translation(lang: str) -> None:
    lobby = team_game(lang)
    running = replace(lobby, status="running", position=Position.start(lobby.rules).throw([3, 2]))
    finished = replace(running, status="finished", winner="A", scores={"A": 3, "B": 1})
    shown = text_of([lobby_embed(lobby, lang), game_embed(running, lang, [], image=False),
                     end_embed(finished, lang, [], None, image=False)])
    shown += "\n" + challenge_text(replace(lobby, seats=lobby.seats[:1]), 2, lang)
    names = {"alice", "bob", "carol"}
    left = {w.lower() for w in re.findall(r"[A-Za-z]{4,}", shown)} - names
    assert not left & english_words(), f"English in {lang}: {sorted(left & english_words())}"


@pytest.mark.parametrize(
    ("lang", "ranked", "casual"),
    [("en", "<@2>, Alice challenges you to a ranked game of Puluc (Ants + fire)!",
      "<@2>, Alice challenges you to a casual game of Puluc (Ants + fire)!"),
     ("uk", "<@2>, Alice викликає вас на рейтингову гру в Пулук (Мурахи + вогонь)!",
      "<@2>, Alice викликає вас на товариську гру в Пулук (Мурахи + вогонь)!"),
     ("it", "<@2>, Alice ti sfida a una partita classificata di Puluc (Formiche + fuoco)!",
      "<@2>, Alice ti sfida a una partita amichevole di Puluc (Formiche + fuoco)!"),
     ("fr", "<@2>, Alice vous défie à une partie classée de Puluc (Fourmis + feu)\u202f!",
      "<@2>, Alice vous défie à une partie amicale de Puluc (Fourmis + feu)\u202f!"),
     ("es", "<@2>, ¡Alice te reta a una partida clasificatoria de Puluc (Hormigas + fuego)!",
      "<@2>, ¡Alice te reta a una partida amistosa de Puluc (Hormigas + fuego)!")],
)
def test_a_challenge_says_ranked_or_casual_as_part_of_its_sentence(lang: str, ranked: str, casual: str) -> None:
    game = replace(team_game(lang), seats=team_game(lang).seats[:1])
    assert challenge_text(game, 2, lang) == ranked
    assert challenge_text(replace(game, ranked=False), 2, lang) == casual


@pytest.mark.parametrize(
    ("lang", "text"),
    [("en", "I need these permissions in this channel: Attach Files, Embed Links."),
     ("uk", "Мені потрібні такі дозволи в цьому каналі: «Прикріплювати файли», «Вбудовувати посилання»."),
     ("it", "Mi servono questi permessi in questo canale: «Allega file», «Incorpora link»."),
     ("fr", ("J’ai besoin de ces permissions dans ce salon\u00a0: «\u00a0Joindre des fichiers\u00a0», "
             "«\u00a0Intégrer des liens\u00a0».")),
     ("es", "Necesito estos permisos en este canal: «Adjuntar archivos», «Insertar enlaces».")],
)
def test_missing_permissions_are_named_as_discord_labels_them(lang: str, text: str) -> None:
    assert error_text(BotLacksPermissions(["attach_files", "embed_links"]), lang) == text
    members = app_commands.MissingPermissions(["manage_guild"])
    assert t("perm.manage_guild", lang) in (error_text(members, lang) or "")


@pytest.mark.parametrize(
    ("lang", "text"),
    [("en", ("hello is not a move in notation: write the throw, a colon and the cell it starts from (H from home), "
             "like 2:H or 3:7.")),
     ("fr", ("«\u00a0hello\u00a0» n’est pas un coup en notation\u00a0: écrivez le lancer, un deux-points et la case "
             "d’où part le coup (H depuis le camp), comme 2:H ou 3:7.")),
     ("es", ("«hello» no es una jugada en notación: escribe el tiro, dos puntos y la casilla de la que sale (H desde "
             "casa), como 2:H o 3:7."))],
)
def test_typed_text_that_is_no_move_is_explained(lang: str, text: str) -> None:
    assert error_text(UnreadableMove("unreadable move 'hello'", move="hello"), lang) == text
    assert error_text(IllegalMoveError("not legal", move="2:7b"), lang) == t("error.illegal_move", lang, move="2:7b")


@pytest.mark.parametrize("lang", SUPPORTED)
def test_each_added_rules_page_names_the_option_that_turns_it_on(lang: str) -> None:
    for option in ("fire", "scorpion", "eagle_returns"):
        name = t(f"cmd.new.opt.{option}.name", lang)
        assert name in t(f"rules.flag.{option}.body", lang), f"{lang} {option}: {name}"
        assert f"/{t('cmd.puluc.name', lang)} {t('cmd.new.name', lang)}" in t(f"rules.flag.{option}.body", lang)
