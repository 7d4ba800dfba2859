"""With WEB_BASE_URL set, the bot's messages carry a button to their web page: the game message, `/puluc replay`,
`/puluc leaderboard`, `/puluc profile` and the tournament card; each link opens its page (signed)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from bot.config import Config
from bot.ui.links import KEY_PARAMETER, Page, WebLinks
from tests.bot.web.conftest import SECRET
from tests.helpers import World, accepted_challenge, components_of, custom_ids, game_message, make_config

BASE = "https://puluc.example.org"


@pytest.fixture
def config(tmp_path: Path) -> Config:
    return make_config(tmp_path / "puluc.db", web_secret=SECRET, web_base_url=BASE)


def links_of(message: object) -> list[str]:
    return [item["url"] for item in components_of(message) if item.get("url")]


def opens(url: str, page: Page) -> bool:
    return WebLinks(SECRET).opens(page, parse_qs(urlsplit(url).query)[KEY_PARAMETER][0])


async def test_every_message_links_to_its_page(world: World) -> None:
    session = await accepted_challenge(world)
    game_id = session.state.game_id
    (live,) = links_of(game_message(world.games))
    assert live.startswith(f"{BASE}/g/{game_id}?") and opens(live, Page("g", game_id))

    await world.alice.slash(world.games, "puluc resign")
    (finished,) = links_of(game_message(world.games))
    assert finished == live

    replay = await world.bob.slash(world.games, "puluc replay", game_id=game_id)
    assert replay.response is not None and links_of(replay.response) == [live]

    board = await world.bob.slash(world.games, "puluc leaderboard")
    assert board.response is not None
    (server,) = [url for url in links_of(board.response) if url.startswith(BASE)]
    assert f"/s/{world.guild.id}/leaderboard?" in server and opens(server, Page("s", world.guild.id))
    everyone = await world.bob.slash(world.games, "puluc leaderboard", scope="global")
    assert everyone.response is not None
    assert f"{BASE}/leaderboard?ladder=duel" in links_of(everyone.response)

    profile = await world.bob.slash(world.games, "puluc profile")
    assert profile.response is not None
    (mine,) = links_of(profile.response)
    assert opens(mine, Page("p", world.bob.id))


async def test_the_tournament_card_links_to_its_page(world: World) -> None:
    await world.alice.slash(world.games, "puluc tournament create", name="Spring Cup", format="round_robin")
    card = next(m for m in reversed(world.games.history()) if custom_ids(m, "puluc:tour:"))
    urls = [url for url in links_of(card) if url.startswith(f"{BASE}/t/")]
    assert len(urls) == 1
    tournament_id = int(urlsplit(urls[0]).path.rsplit("/", 1)[1])
    assert opens(urls[0], Page("t", tournament_id))
