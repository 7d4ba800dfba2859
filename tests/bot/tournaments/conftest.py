"""The tournament flow runs on the session layer's fixtures: the same repositories and manager."""

from tests.bot.sessions.conftest import manager, picker, repo

__all__ = ["manager", "picker", "repo"]
