"""The link button to a message's web page (`bot.web`), added when WEB_BASE_URL is set (`bot.ui.links`)."""

from __future__ import annotations

import discord

from bot.ui.i18n import t

__all__ = ["with_link"]


def with_link(view: discord.ui.View | None, url: str | None, lang: str, *,
              row: int | None = None) -> discord.ui.View | None:
    """`view` with a link button to `url` (a new view when there was none); unchanged when `url` is None."""
    if url is None:
        return view
    view = view if view is not None else discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(style=discord.ButtonStyle.link, url=url, label=t("web.button", lang), row=row))
    return view
