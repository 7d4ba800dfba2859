"""The in-memory fake's tournaments: the same promises as the SQL backends, kept in dicts, for tests.

The top layer of `bot.storage.memory.MemoryStorage`; the contract suite (tests/bot/storage) holds it to the
same tests as SQLite and PostgreSQL. It must never be used by the running bot.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from bot.storage.errors import AlreadyEntered, PlayerInOpenGame, TournamentNotFound, TournamentStateError
from bot.storage.memory.seasons import MemorySeasons
from bot.storage.types import FORGOTTEN_NAME
from bot.tournaments.types import (
    DecidedBy,
    Entrant,
    Match,
    Outcome,
    Tournament,
    TournamentSettings,
)


class MemoryTournaments(MemorySeasons):
    """`TournamentStore` in a dict of frozen `Tournament` values, on top of the seasons, ladders and games."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        super().__init__(clock)
        self._tournaments: dict[int, Tournament] = {}

    def _forget_in_tournaments(self, user_id: int) -> None:
        """Forget-me's part: refused while the player is in an open tournament; otherwise their entries show a
        former player and the tournaments they created no longer name them."""
        open_ones = [t.tournament_id for t in self._tournaments.values()
                     if t.is_open and t.entrant_of(user_id) is not None]
        if open_ones:
            raise PlayerInOpenGame(f"leave your open tournaments first (tournament {open_ones[0]})")
        for tournament in list(self._tournaments.values()):
            entrants = tuple(replace(e, user_id=None, display_name=FORGOTTEN_NAME) if e.user_id == user_id else e
                             for e in tournament.entrants)
            creator = None if tournament.creator_id == user_id else tournament.creator_id
            self._tournaments[tournament.tournament_id] = replace(tournament, entrants=entrants, creator_id=creator)

    def _tournament(self, tournament_id: int, *allowed: str) -> Tournament:
        found = self._tournaments.get(tournament_id)
        if found is None:
            raise TournamentNotFound(f"there is no tournament {tournament_id}")
        if allowed and found.status not in allowed:
            raise TournamentStateError(
                f"tournament {tournament_id} is {found.status}; this needs it to be {' or '.join(allowed)}")
        return found

    def _for_write(self, tournament_id: int, *allowed: str) -> Tournament:
        """`_tournament`, for a write: ShardNotHeld when this store claimed shards and the tournament's server
        is on another (a tournament belongs to its server's shard, like the games)."""
        found = self._tournament(tournament_id, *allowed)
        self._check_shard(found.guild_id)
        return found

    def _save(self, tournament: Tournament, **changes: Any) -> None:
        self._tournaments[tournament.tournament_id] = replace(tournament, **changes)

    async def create_tournament(
        self, *, guild_id: int, channel_id: int, creator_id: int, settings: TournamentSettings
    ) -> int:
        self._check_shard(guild_id)
        tournament_id = max(self._tournaments, default=0) + 1
        self._tournaments[tournament_id] = Tournament(
            tournament_id, guild_id, channel_id, None, creator_id, settings, "open", None, 0, None, self._clock(),
            None, (), ())
        return tournament_id

    async def join_tournament(self, tournament_id: int, user_id: int, display_name: str) -> Entrant:
        found = self._for_write(tournament_id, "open")
        if found.entrant_of(user_id) is not None:
            raise AlreadyEntered(f"user {user_id} is already in tournament {tournament_id}")
        entrant = Entrant(max((e.number for e in found.entrants), default=0) + 1, user_id, display_name)
        self._save(found, entrants=(*found.entrants, entrant))
        return entrant

    async def leave_tournament(self, tournament_id: int, user_id: int) -> None:
        found = self._for_write(tournament_id, "open")
        self._save(found, entrants=tuple(e for e in found.entrants if e.user_id != user_id))

    async def start_tournament(self, tournament_id: int, *, entrants: Sequence[Entrant], rounds: int) -> None:
        found = self._for_write(tournament_id, "open")
        seeded = {e.number: e for e in entrants}
        updated = tuple(replace(e, rating=seeded[e.number].rating, seed=seeded[e.number].seed)
                        if e.number in seeded else e for e in found.entrants)
        self._save(found, status="running", rounds=rounds, entrants=updated)

    async def add_round(self, tournament_id: int, round_no: int, matches: Sequence[Match], deadline: float) -> None:
        found = self._for_write(tournament_id, "running")
        if round_no != found.round + 1:
            raise TournamentStateError(f"tournament {tournament_id} is at round {found.round}, not {round_no - 1}")
        added = tuple(Match(round_no, m.board, m.a, m.b, outcome=m.outcome, decided_by=m.decided_by)
                      for m in matches)
        self._save(found, round=round_no, round_deadline=deadline, matches=found.matches + added)

    def _change_match(self, found: Tournament, round_no: int, board: int, **changes: Any) -> None:
        self._save(found, matches=tuple(replace(m, **changes) if (m.round, m.board) == (round_no, board) else m
                                        for m in found.matches))

    async def set_match_game(
        self, tournament_id: int, round_no: int, board: int, *, game_id: int, thread_id: int
    ) -> None:
        found = self._for_write(tournament_id, "running")
        self._change_match(found, round_no, board, game_id=game_id, thread_id=thread_id)

    async def decide_match(
        self,
        tournament_id: int,
        round_no: int,
        board: int,
        *,
        outcome: Outcome,
        decided_by: DecidedBy,
        chance_a: float | None = None,
    ) -> bool:
        found = self._for_write(tournament_id, "running")
        match = next((m for m in found.matches if (m.round, m.board) == (round_no, board)), None)
        if match is None or match.decided:
            return False
        self._change_match(found, round_no, board, outcome=outcome, decided_by=decided_by, chance_a=chance_a)
        return True

    async def finish_tournament(self, tournament_id: int) -> None:
        found = self._for_write(tournament_id, "running")
        self._save(found, status="finished", round_deadline=None, finished_at=self._clock())

    async def cancel_tournament(self, tournament_id: int) -> None:
        found = self._for_write(tournament_id, "open", "running")
        self._save(found, status="cancelled", round_deadline=None, finished_at=self._clock())

    async def set_tournament_message(self, tournament_id: int, message_id: int | None) -> None:
        self._save(self._for_write(tournament_id), message_id=message_id)

    async def tournament(self, tournament_id: int) -> Tournament:
        return self._tournament(tournament_id)

    async def open_tournaments(self) -> tuple[Tournament, ...]:
        return tuple(t for _, t in sorted(self._tournaments.items()) if t.is_open)

    async def guild_tournaments(self, guild_id: int, limit: int = 25) -> tuple[Tournament, ...]:
        mine = [t for _, t in sorted(self._tournaments.items()) if t.guild_id == guild_id]
        return tuple(reversed(mine[-limit:])) if limit > 0 else ()
