"""The four sticks of a throw: counting sides light, plain sides dark, one group per throw."""

from __future__ import annotations

import pytest

from puluc import Throw
from renderer import BadThrow, render_throw
from renderer.theme import THEMES
from tests.helpers import pixels, rgb


def test_counting_and_plain_sides_are_both_drawn() -> None:
    theme = THEMES["dark"]
    image = rgb(render_throw(Throw.from_code("1010")))
    colours = set(pixels(image))
    assert theme.stick_face in colours and theme.stick_back in colours


def test_all_sticks_up_shows_no_plain_side() -> None:
    theme = THEMES["dark"]
    colours = set(pixels(rgb(render_throw(Throw.from_code("1111")))))
    assert theme.stick_face in colours and theme.stick_back not in colours


def test_two_throws_are_drawn_side_by_side() -> None:
    one = rgb(render_throw(Throw.from_code("1000")))
    two = rgb(render_throw([Throw.from_code("1000"), Throw.from_code("0110")]))
    assert two.height == one.height and two.width > one.width * 3 // 2


def test_throw_image_is_small_enough_to_sit_beside_the_board() -> None:
    image = rgb(render_throw(Throw.from_code("0000"), theme="light"))
    assert image.width <= 240 and image.height <= 140


@pytest.mark.parametrize("bad", [[], ["1010"], 3])
def test_non_throws_are_refused(bad: object) -> None:
    with pytest.raises(BadThrow):
        render_throw(bad)  # type: ignore[arg-type]
