"""The tournament flow runs on the session layer's fixtures: the same storage and manager."""

from tests.bot.sessions.conftest import manager, picker, storage

__all__ = ["manager", "picker", "storage"]
