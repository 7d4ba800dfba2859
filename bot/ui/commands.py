"""Slash commands named in public messages as Discord command mentions.

A message everyone in a channel reads is in the server's language, but each member's client shows the commands
in its own: a typed "/пулук лідери" is the Ukrainian name even to a member whose Discord is in English. A
mention (`</puluc leaderboard:ID>`) is shown by every client in its own language, and clicking it fills in the
command. It needs the id Discord gave the top-level command when the bot synced its commands
(`bot.app.PulucBot.sync_commands` tells `CommandMentions.learn`); until then, or for a command Discord does not
know, the mention falls back to the command's English name typed out ("/puluc leaderboard").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from discord import app_commands

__all__ = ["CommandMentions", "Mention"]

# A command's full English name ("puluc tournament standings") to the text that names it in a message.
Mention = Callable[[str], str]


class CommandMentions:
    """The ids of the synced top-level commands, and mentions of any command under them."""

    def __init__(self) -> None:
        self._ids: dict[str, int] = {}

    def learn(self, synced: Iterable[app_commands.AppCommand]) -> None:
        """Remember the ids Discord gave the commands (what `CommandTree.sync` returns)."""
        self._ids = {command.name: command.id for command in synced}

    def __call__(self, name: str) -> str:
        """A mention of the command `name` (its full English name: "puluc tournament standings"), or the name
        typed out when its id is unknown."""
        found = self._ids.get(name.split(" ", 1)[0])
        return f"</{name}:{found}>" if found is not None else f"/{name}"
