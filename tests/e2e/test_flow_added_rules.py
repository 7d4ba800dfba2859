"""Flow: the rules a host can add to a variant in `/puluc new` (fire, scorpion, the returning eagle), played
through to the end, and the combinations RULES.md forbids refused with a sentence in the player's language."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest

from bot.services import services
from bot.sessions import GameSession
from tests.helpers import World, components_of, custom_ids, embed_text, game_message, said

pytestmark = pytest.mark.worker_processes  # a whole flow: the bot as deployed, with its worker processes

BURNED = re.compile(r"cell 5 and the fire burned everything on that cell")


async def lobby_against_the_ai(world: World, **options: object) -> tuple[GameSession, str]:
    """alice opens a lobby with these options, seats the AI in team B and starts; returns the session and
    the lobby's title."""
    opened = await world.alice.slash(world.games, "puluc new", **options)
    assert opened.response is not None and not opened.ephemeral, said(opened)
    (add_ai,) = custom_ids(opened.response, "puluc:addai:")
    await world.alice.click(opened.response.message, custom_id=add_ai)
    lobby = game_message(world.games)
    title = lobby.embeds[0].title or ""
    (start,) = custom_ids(lobby, "puluc:start:")
    await world.alice.click(lobby, custom_id=start)
    session = services(world.env.bot).manager.in_channel(world.games.id)
    assert session is not None
    return session, title


async def play_to_the_end(world: World, prefer: Callable[[str, bool], bool], seed: int,
                          until: Callable[[str], bool] | None = None) -> str:
    """alice clicks move buttons until the game ends (or the game messages say what `until` waits for),
    taking a button `prefer(label, first_time)` likes when there is one; returns everything they said."""
    rng = random.Random(seed)
    told: list[str] = []
    liked: set[str] = set()
    for _ in range(1_000):
        board = game_message(world.games)
        told.append(embed_text(board))
        buttons = [c for c in components_of(board) if c.get("custom_id", "").startswith("puluc:move:")]
        if not buttons or (until is not None and until(told[-1])):
            return "\n".join(told)
        wanted = [b for b in buttons if prefer(b["label"], b["label"] not in liked)]
        choice: dict[str, Any] = rng.choice(wanted or buttons)
        liked.add(choice["label"])
        await world.alice.click(board, custom_id=choice["custom_id"])
    raise AssertionError("the game did not end")


async def test_fire_and_scorpion_added_to_bell_are_played_and_kept_by_the_rematch(world: World) -> None:
    session, title = await lobby_against_the_ai(world, fire=True, scorpion=True)
    assert title == "Puluc #1: Bell + fire + scorpion, 1 v 1, modern"
    rules = session.state.rules
    assert (rules.route, rules.fire, rules.scorpion) == ("army", True, True)
    told = await play_to_the_end(world, lambda label, first: " back to " in label or (", burns" in label and first),
                                 seed=6)
    assert BURNED.search(told)  # the middle cell of a Bell road burns
    assert session.state.status == "finished" and ("wins" in told or "draw" in told)
    (rematch,) = custom_ids(game_message(world.games), "puluc:rematch:")
    await world.alice.click(game_message(world.games), custom_id=rematch)
    again = services(world.env.bot).manager.in_channel(world.games.id)
    assert again is not None and again.state.game_id == 2
    assert (again.state.rules.fire, again.state.rules.scorpion) == (True, True)
    assert game_message(world.games).embeds[0].title == "Puluc #2: Bell + fire + scorpion, 1 v 1, modern"


async def test_the_returning_eagle_flies_home_after_its_strike(world: World) -> None:
    session, title = await lobby_against_the_ai(world, variant="eagle", eagle_returns=True)
    assert title == "Puluc #1: Eagle + returning eagles, 1 v 1, modern"
    assert session.state.rules.capture == "eagle" and session.state.rules.eagle_returns
    strike = "struck down the enemy piece there. The striking piece went back home."
    told = await play_to_the_end(world, lambda label, _first: ", kills" in label, seed=7,
                                 until=lambda text: strike in text)
    assert strike in told
    assert "is gone too" not in told


REFUSALS = {
    "en-US": ("Scorpion cannot be added to Culin: its stacks already run backward.",
              "The returning eagle is a house rule of the Eagle variant; choose Eagle to use it."),
    "uk": ("Скорпіона не можна додати до Куліна: його вежки й так ідуть назад.",
           "«Повернення орла» — домашнє правило варіанту Орел; щоб його ввімкнути, виберіть Орла."),
    "it": ("Lo scorpione non si può aggiungere a Culin: le sue pile vanno già all'indietro.",
           "L'aquila che ritorna è una regola della casa della variante Aquila; scegli Aquila per usarla."),
    "fr": ("Le scorpion ne peut pas s’ajouter à Culin\u00a0: ses piles reculent déjà.",
           "L’aigle qui revient est une règle maison de la variante Aigle\u202f; choisissez Aigle pour l’utiliser."),
}


@pytest.mark.parametrize("code", REFUSALS)
async def test_forbidden_combinations_are_refused_in_the_players_language(
    world: World, interaction_locale: Callable[[str], None], code: str
) -> None:
    interaction_locale(code)
    scorpion_on_culin, returns_without_eagle = REFUSALS[code]
    culin = await world.alice.slash(world.games, "puluc new", variant="culin", scorpion=True)
    assert culin.ephemeral and said(culin) == scorpion_on_culin
    bell = await world.alice.slash(world.games, "puluc new", eagle_returns=True)
    assert bell.ephemeral and said(bell) == returns_without_eagle
    assert services(world.env.bot).manager.in_channel(world.games.id) is None  # nothing was opened
