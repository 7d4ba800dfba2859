"""The board palettes a server may choose (`/puluc-admin settings palette:`), and the renderer theme of each.

Why a server setting rather than a member's preference: a game's board is one picture in the channel that
every player and onlooker sees, and Discord cannot show each reader a picture of their own, so the palette a
member with low vision needs has to be the channel's. The high-contrast palette is built to stay readable for
everyone (tests/renderer/test_contrast.py), so a server that turns it on for one member costs the others nothing.
The tutorial, reviews and every other picture of the server follow the same setting.
"""

from __future__ import annotations

from typing import Final

#: The choices, the first the default (stored as None).
PALETTES: Final = ("standard", "high_contrast")
_THEMES: Final = {"standard": "dark", "high_contrast": "contrast"}


def theme_for(palette: str | None) -> str:
    """The renderer theme of a stored palette (None, or an unknown one, is the standard dark theme)."""
    return _THEMES.get(palette or "standard", "dark")
