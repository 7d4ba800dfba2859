"""`/puluc-admin settings` through SimCord: the rules a server adds to its games by default (fire, scorpion,
returning eagles), shown in the reply, used by `/puluc new`, `/puluc ai` and `/puluc challenge` when they name
none, and refused (saving nothing) when they do not suit the server's default variant."""

from __future__ import annotations

import re
from collections.abc import Callable

import discord
import pytest
import simcord

from bot.services import services
from bot.storage.types import GuildSettings
from bot.ui.replies import Refusal
from tests.helpers import World, accepted_challenge, game_message, mentioned, move_ids, said


@pytest.fixture
def boss(world: World) -> simcord.MemberActor:
    """A member who may manage the server."""
    managers = world.guild.create_role("Managers", permissions=discord.Permissions(manage_guild=True))
    return world.guild.add_member(world.env.create_user("boss"), roles=[managers])


async def saved_settings(world: World) -> GuildSettings:
    return await services(world.env.bot).storage.server_settings.guild_settings(world.guild.id)


def lobby_title(world: World, channel: simcord.ChannelHandle) -> str:
    return game_message(channel).embeds[0].title or ""


async def test_default_rules_are_saved_shown_and_used_where_a_game_names_none(
    world: World, boss: simcord.MemberActor
) -> None:
    saved = await boss.slash(world.games, "puluc-admin settings", default_variant="eagle", fire=True,
                             eagle_returns=True)
    assert saved.ephemeral and "default variant Eagle + fire + returning eagles;" in said(saved)
    current = await boss.slash(world.games, "puluc-admin settings")
    assert said(current).startswith("Current settings: default variant Eagle + fire + returning eagles;")

    await world.alice.slash(world.games, "puluc new")
    assert lobby_title(world, world.games) == "Puluc #1: Eagle + fire + returning eagles, 1 v 1, modern"
    # The host's own choice wins over the server's default.
    second = world.guild.create_text_channel("second")
    await world.bob.slash(second, "puluc new", fire=False)
    assert lobby_title(world, second) == "Puluc #2: Eagle + returning eagles, 1 v 1, modern"
    # Another variant takes the defaults it can: Bell burns, but has no eagles to return.
    third = world.guild.create_text_channel("third")
    await world.carol.slash(third, "puluc new", variant="bell")
    assert lobby_title(world, third) == "Puluc #3: Bell + fire, 1 v 1, modern"

    manager = services(world.env.bot).manager
    fourth = world.guild.create_text_channel("fourth")
    await world.dave.slash(fourth, "puluc ai")
    against_ai = manager.in_channel(fourth.id)
    assert against_ai is not None
    rules = against_ai.state.rules
    assert (rules.capture, rules.fire, rules.eagle_returns) == ("eagle", True, True)
    fifth = world.guild.create_text_channel("fifth")
    challenged = await world.eve.slash(fifth, "puluc challenge", opponent=world.alice, variant="ants")
    assert not challenged.ephemeral, said(challenged)
    challenge = manager.in_channel(fifth.id)
    assert challenge is not None
    assert (challenge.state.rules.fire, challenge.state.rules.eagle_returns) == (True, False)


async def test_a_default_rule_the_default_variant_cannot_take_is_refused_and_saves_nothing(
    world: World, boss: simcord.MemberActor
) -> None:
    before = await saved_settings(world)
    refused = await boss.slash(world.games, "puluc-admin settings", eagle_returns=True, turn_timer=300)
    assert refused.ephemeral and said(refused) == (
        "Nothing was saved. The returning eagle is a house rule of the Eagle variant; choose Eagle to use it. "
        "A rule this server adds by default must suit its default variant (Bell); change both in one command if "
        "you need to.")
    assert await saved_settings(world) == before  # not even the turn timer
    simcord.assert_error(world.env, Refusal)

    await boss.slash(world.games, "puluc-admin settings", scorpion=True)
    # A new default variant must suit the rules already chosen, too.
    culin = await boss.slash(world.games, "puluc-admin settings", default_variant="culin")
    assert "Scorpion cannot be added to Culin" in said(culin) and "(Culin)" in said(culin)
    assert (await saved_settings(world)).default_variant is None
    both = await boss.slash(world.games, "puluc-admin settings", default_variant="culin", scorpion=False)
    assert "default variant Culin;" in said(both)
    settings = await saved_settings(world)
    assert (settings.default_variant, settings.scorpion) == ("culin", False)
    await world.alice.slash(world.games, "puluc new")
    assert lobby_title(world, world.games) == "Puluc #1: Culin, 1 v 1, modern"


REFUSED = {
    "uk": "Нічого не збережено. Скорпіона не можна додати до Куліна: його вежки й так ідуть назад. Правило, яке "
          "сервер типово додає до ігор, має підходити до його типового варіанту (Кулін); за потреби змініть обидва "
          "в одній команді.",
    "it": "Non è stato salvato nulla. Lo scorpione non si può aggiungere a Culin: le sue pile vanno già "
          "all'indietro. Una regola che il server aggiunge in modo predefinito deve essere compatibile con la sua "
          "variante predefinita (Culin); se serve, cambia entrambe nello stesso comando.",
    "fr": "Rien n’a été enregistré. Le scorpion ne peut pas s’ajouter à Culin\u00a0: ses piles reculent déjà. Une "
          "règle que ce serveur ajoute par défaut doit convenir à sa variante par défaut (Culin)\u202f; changez les "
          "deux dans la même commande si besoin.",
}


@pytest.mark.parametrize("code", REFUSED)
async def test_the_refusal_is_said_in_the_managers_language(
    world: World, boss: simcord.MemberActor, interaction_locale: Callable[[str], None], code: str
) -> None:
    interaction_locale(code)
    refused = await boss.slash(world.games, "puluc-admin settings", default_variant="culin", scorpion=True)
    assert refused.ephemeral and said(refused) == REFUSED[code]
    assert await saved_settings(world) == GuildSettings(world.guild.id, None, None, None)


async def test_a_language_changed_mid_game_retells_the_game_so_far_in_the_new_one(
    world: World, boss: simcord.MemberActor
) -> None:
    await accepted_challenge(world)

    async def move() -> list[str]:
        board = game_message(world.games)
        (mover,) = mentioned(board)
        await world.member(mover).click(board, custom_id=move_ids(board)[0])
        return (game_message(world.games).embeds[0].description or "").splitlines()

    english = await move()
    opening = next(line for line in english if "won the opening throw" in line)
    assert any(re.search(r"\bcell \d+", line) for line in english), english
    await boss.slash(world.games, "puluc-admin settings", language="fr")
    french = await move()
    team = opening.split()[1]
    assert f"L’équipe {team} a remporté le lancer d’ouverture et commence." in french
    assert len([line for line in french if re.search(r"\bcase \d+", line)]) >= 2, french  # both moves
    assert not set(english) & set(french)
    assert not [line for line in french if re.search(r"\b(cell|Team|threw|moved|entered|turn)\b", line)]
