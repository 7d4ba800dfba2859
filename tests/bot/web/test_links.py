"""Signed links: a key opens exactly the page it was made for, with this secret, and nothing else."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from bot.ui.links import KEY_PARAMETER, Page, WebLinks, configure_links, web_links

SECRET = "s" * 20 + "0123456789abcdef"


def key_in(url: str) -> str:
    return parse_qs(urlsplit(url).query)[KEY_PARAMETER][0]


def test_a_key_opens_its_own_page_only() -> None:
    links = WebLinks(SECRET)
    key = links.key(Page("g", 12))
    assert links.opens(Page("g", 12), key)
    assert not links.opens(Page("g", 13), key)
    assert not links.opens(Page("t", 12), key)  # the same number of another kind of page
    assert not links.opens(Page("g", 12), None)
    assert not links.opens(Page("g", 12), key[:-1] + ("A" if key[-1] != "A" else "B"))


def test_another_secret_makes_other_keys() -> None:
    assert WebLinks(SECRET).key(Page("g", 1)) != WebLinks(SECRET[::-1]).key(Page("g", 1))


def test_keys_are_128_bits_in_url_safe_text() -> None:
    key = WebLinks(SECRET).key(Page("s", 987654321))
    assert len(key) == 22 and all(c.isalnum() or c in "-_" for c in key)


def test_the_bots_links_carry_the_key_under_the_base_url() -> None:
    links = WebLinks(SECRET, "https://puluc.example.org")
    game = links.game(7)
    assert game is not None and game.startswith("https://puluc.example.org/g/7?")
    assert links.opens(Page("g", 7), key_in(game))
    board = links.leaderboard(55, "team", 3)
    assert board is not None and "/s/55/leaderboard?" in board and "ladder=team" in board and "season=3" in board
    assert links.opens(Page("s", 55), key_in(board))
    assert links.leaderboard(None) == "https://puluc.example.org/leaderboard?ladder=duel"  # public: no key
    profile, tournament = links.profile(9), links.tournament(4)
    assert profile is not None and links.opens(Page("p", 9), key_in(profile))
    assert tournament is not None and links.opens(Page("t", 4), key_in(tournament))


def test_no_link_buttons_without_a_base_url() -> None:
    try:
        configure_links(WebLinks(SECRET))
        assert web_links() is None
        configure_links(WebLinks(SECRET, "https://x.example"))
        assert web_links() is not None
    finally:
        configure_links(None)
