"""Member-supplied text made safe to show: it can neither ping anyone nor dress itself up as something else.

Names (display names, tournament names) are typed by members and shown to others. Shown as they are, a name
holding `<@id>` or `@everyone` pings, `[text](url)` shows as a disguised link, `**` or `#` restyle the message
and a backtick breaks out of a code block. `plain` is the one way such text enters a message's content, an
embed, a select option or a button label; `in_code` is the one way it enters a code block. Neither is needed for
pictures (they draw the text as it is) nor for thread names (Discord renders neither mentions nor markdown
there). Messages are also sent with no mentions allowed by default (`bot/app.py`), so a mention that got past
this would still ping nobody; this keeps them from even looking like mentions or links.
"""

from __future__ import annotations

import re

import discord

__all__ = ["in_code", "pings", "plain"]

ZERO_WIDTH = "\u200b"
# `<@id>`, `<@!id>`, `<@&role>`, `<#channel>`, `</command:id>`, `<t:...>`, `<:emoji:id>`: a zero-width space after
# the `<` keeps each from being parsed. `@everyone`, `@here` and `@name` lose their meaning the same way.
_ANGLE = re.compile(r"<(?=[@#/:at])")
_AT = re.compile(r"@(?=\S)")
# A URL scheme: broken so that no text becomes a link at all (a masked link's target, or a bare one).
_SCHEME = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*):(?=//)")


def plain(text: str) -> str:
    """`text` as literal words: no mention, no link, no markdown (each shown as the characters typed)."""
    text = _ANGLE.sub("<" + ZERO_WIDTH, text)
    text = _AT.sub("@" + ZERO_WIDTH, text)
    text = _SCHEME.sub(lambda m: m.group(1) + ":" + ZERO_WIDTH, text)
    return discord.utils.escape_markdown(text)


def in_code(text: str) -> str:
    """`text` inside a code block: nothing renders there, but a backtick would end the block."""
    return text.replace("`", "ˋ")


def pings(*user_ids: int | None) -> discord.AllowedMentions:
    """Exactly these members may be pinged by a message (the bot's default is nobody)."""
    ids = sorted({uid for uid in user_ids if uid is not None})
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(id=uid) for uid in ids])
