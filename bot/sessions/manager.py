"""All live game sessions of the bot: creating games, finding them by id or channel, reloading them at
start-up, and firing their deadlines (AI pauses and turn timers).

Limits that span games live here: one open game per channel or thread, and at most `max_open_per_host`
open lobbies or games per host (counted by the storage, so it holds across bot processes). With `shards`, the
manager loads, times and plays only the games of servers on this process's shards; the storage refuses
writes to any other (`Storage.claim_shards`). Results of timer-driven actions (AI moves, time-outs) go to the listeners
the bot registers, since no interaction is waiting for them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from bot.compute import ComputePool
from bot.config_spec import (
    AI_MOVE_DELAY_SECONDS,
    LOBBY_EXPIRY_SECONDS,
    MAX_AI_GAMES_PER_SERVER,
    MAX_AI_GAMES_PER_USER,
    MAX_OPEN_GAMES_PER_SERVER,
    MAX_OPEN_GAMES_PER_USER,
)
from bot.limits import HINT, Cache, lanes
from bot.logs import bind as bind_log
from bot.sessions.errors import (
    ChannelBusy,
    GameNotOpen,
    NotAPlayer,
    NotSaved,
    ReplayPruned,
    SelfChallenge,
    ServerAIGamesFull,
    ServerGamesFull,
    TooManyAIGames,
    TooManyGames,
)
from bot.sessions.ports import GameRecords
from bot.sessions.rebuild import CorruptGame, read_game, read_open_games, state_from_log
from bot.sessions.results import ActionResult, Joined
from bot.sessions.saving import storage_errors
from bot.sessions.session import Advisor, Clock, GameSession, MovePicker
from bot.sessions.state import GameOptions, GameState, Place, Player, SeatState, ai_level_number, ai_seat_name
from bot.sessions.timers import RETRY_SECONDS, DeadlineScheduler
from bot.storage.errors import GameNotFound, HostLimitReached
from bot.storage.shards import Shards
from bot.storage.types import SeatSpec
from puluc import Move, Position, Rules

if TYPE_CHECKING:
    from puluc.ai import Hint

log = logging.getLogger(__name__)

Listener = Callable[[ActionResult], Awaitable[None]]
ChangeListener = Callable[[ActionResult], None]
# Timed actions (AI moves, time-outs) running at once, across games: each waits for the database and the AI's
# worker; more at once would only lengthen the queues there.
MAX_ACTIONS_AT_ONCE = 32
EndListener = Callable[[GameState], Awaitable[None]]


def system_seed() -> int:
    """A fresh game seed; 63 bits so it fits SQLite's signed INTEGER."""
    return random.SystemRandom().getrandbits(63)


def engine_picker(budget_ms: int, compute: ComputePool | None = None) -> MovePicker:
    """The real AI (`puluc.ai.choose_move`), run in the bot's compute workers (threads of this process when no
    pool is given) so the event loop never waits on it."""
    pool = compute or ComputePool(0, lanes=lanes())

    async def pick(position: Position, level: str, rng: random.Random) -> Move:
        from puluc.ai import choose_move

        return await pool.run(choose_move, position, level, rng, budget_ms)

    return pick


# The default thinking time of a hint (puluc.ai.hint's own default); the bot passes its configured budget.
HINT_BUDGET_MS = 300


# Hints kept, by position: one per position asked about lately (a few hundred bytes each).
HINTS_KEPT = 4096


def engine_advisor(budget_ms: float = HINT_BUDGET_MS, compute: ComputePool | None = None,
                   cache: Cache[tuple[Rules, str], Hint] | None = None) -> Advisor:
    """The real hard player's advice (`puluc.ai.hint`), run in the hint lane of the bot's compute workers
    (threads of this process when no pool is given) so the event loop never waits on it and no game's board
    waits behind it. Each position's advice is kept (`cache`): asking again costs no search."""
    pool = compute or ComputePool(0, lanes=lanes())
    kept: Cache[tuple[Rules, str], Hint] = cache if cache is not None else Cache(HINTS_KEPT)

    async def advise(position: Position, rng: random.Random) -> Hint:
        from puluc.ai import hint

        key = (position.rules, position.to_ppn())  # the rules, the position and its throws: all a hint needs
        found = kept.get(key)
        if found is None:
            found = await pool.run_in(HINT.lane.name, hint, position, rng, budget_ms)
            kept.put(key, found)
        return found

    return advise


class KeyedLocks:
    """One `asyncio.Lock` per key, kept only while someone holds it or waits for it."""

    def __init__(self) -> None:
        self._locks: dict[Hashable, tuple[asyncio.Lock, list[int]]] = {}

    def __len__(self) -> int:
        return len(self._locks)

    @contextlib.asynccontextmanager
    async def hold(self, key: Hashable) -> AsyncIterator[None]:
        lock, users = self._locks.setdefault(key, (asyncio.Lock(), [0]))
        users[0] += 1
        try:
            async with lock:
                yield
        finally:
            users[0] -= 1
            if not users[0]:
                del self._locks[key]


@dataclass(frozen=True, slots=True)
class Limits:
    """The settings the session layer obeys; the defaults are those of MAX_OPEN_GAMES_PER_USER,
    AI_MOVE_DELAY_SECONDS, MAX_OPEN_GAMES_PER_SERVER, MAX_AI_GAMES_PER_USER, MAX_AI_GAMES_PER_SERVER and
    LOBBY_EXPIRY_SECONDS (bot/config_spec.py)."""

    max_open_per_host: int = MAX_OPEN_GAMES_PER_USER.default
    ai_delay: float = AI_MOVE_DELAY_SECONDS.default
    max_open_per_server: int = MAX_OPEN_GAMES_PER_SERVER.default
    max_ai_per_host: int = MAX_AI_GAMES_PER_USER.default
    max_ai_per_server: int = MAX_AI_GAMES_PER_SERVER.default
    lobby_expiry: float = LOBBY_EXPIRY_SECONDS.default


class SessionManager:
    """Owns every open session. Create games here; act on a game through `get(game_id)`'s methods."""

    def __init__(
        self,
        records: GameRecords,
        *,
        picker: MovePicker,
        advisor: Advisor | None = None,
        clock: Clock = time.time,
        seeds: Callable[[], int] = system_seed,
        limits: Limits = Limits(),
        shards: Shards | None = None,
    ) -> None:
        self.records = records
        self.shards = shards  # None: every server's games
        self._picker = picker
        self._advisor = advisor or engine_advisor()
        self._clock = clock
        self.seeds = seeds  # where game seeds come from; replaceable for reproducible games (tests, demos)
        self.limits = limits
        self._sessions: dict[int, GameSession] = {}
        # Indexes over `_sessions`, kept with it by `_add` and `_drop`: the open game of each channel or thread,
        # and the open games of each host (every command and autocomplete keystroke looks these up).
        self._by_channel: dict[int, GameSession] = {}
        self._by_host: dict[int, set[int]] = {}
        self._listeners: list[Listener] = []
        self._end_listeners: list[EndListener] = []
        self._change_listeners: list[ChangeListener] = []
        self._ending: set[asyncio.Task[None]] = set()
        # Games created in one channel, or by one host, wait for each other (each sees the games made before
        # it when it checks the channel and the host's count); all others are created at the same time.
        self._creating = KeyedLocks()
        self.deadlines = DeadlineScheduler(clock, self._fire)
        self._fire_slots = asyncio.Semaphore(MAX_ACTIONS_AT_ONCE)

    # -- lifecycle --------------------------------------------------------------------------------------

    async def load(self) -> int:
        """Rebuild the open games of this process's shards from the database, a batch at a time (replayed off
        the event loop); return how many loaded. Other shards' games are never read."""
        loaded = 0
        async for states, corrupt in read_open_games(self.records, self.shards):
            for bad in corrupt:
                log.error("%s; it stays in the database untouched and is not loaded", bad)
            for state in states:
                self._add(state)
            loaded += len(states)
        log.info("reloaded %d open games", loaded)
        return loaded

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process runs the games of this server (always, without shards)."""
        return self.shards is None or self.shards.owns(guild_id)

    def start_timers(self) -> None:
        """Start the deadline loop (idempotent)."""
        self.deadlines.start()

    async def stop_timers(self) -> None:
        """Stop the deadline loop and wait until it has stopped."""
        await self.deadlines.stop()

    def add_listener(self, listener: Listener) -> None:
        """`listener(result)` is awaited after every action the timers take (AI moves, time-outs)."""
        self._listeners.append(listener)

    def add_change_listener(self, listener: ChangeListener) -> None:
        """`listener(result)` is called (not awaited: it must not wait) as every accepted action of every game
        commits, whoever took it (turn calls use this)."""
        self._change_listeners.append(listener)

    def add_end_listener(self, listener: EndListener) -> None:
        """`listener(state)` runs once for every game that ends (finished or cancelled), however it ended: in
        a task of its own, so the action that ended the game never waits for it (tournaments use this)."""
        self._end_listeners.append(listener)

    async def settled(self) -> None:
        """Wait until every end listener started so far has run (tests, and shutdown)."""
        while self._ending:
            await asyncio.gather(*self._ending, return_exceptions=True)

    # -- finding games ----------------------------------------------------------------------------------

    def get(self, game_id: int) -> GameSession:
        """The open session of a game; GameNotOpen when it is over (or never existed)."""
        session = self._sessions.get(game_id)
        if session is None:
            raise GameNotOpen(f"no open game {game_id}")
        return session

    def find(self, game_id: int) -> GameSession | None:
        """The open session of a game, or None."""
        return self._sessions.get(game_id)

    def in_channel(self, channel_id: int) -> GameSession | None:
        """The open game in this channel or thread, if any."""
        return self._by_channel.get(channel_id)

    def open_count(self, host_id: int) -> int:
        return len(self._by_host.get(host_id, ()))

    @property
    def sessions(self) -> tuple[GameSession, ...]:
        return tuple(self._sessions.values())

    # -- creating games ---------------------------------------------------------------------------------

    async def open_lobby(self, host: Player, place: Place, options: GameOptions) -> ActionResult:
        """A lobby with the host in A1; others join with `get(id).join`, the host starts it."""
        options.rules()
        async with self._creation(place, host.user_id):
            self.check_can_host(host.user_id, place)
            state = await self._create(host, place, options, [SeatState("A1", host.name, user_id=host.user_id)])
        return ActionResult(state, None, (Joined("A1", host.name),))

    async def challenge(self, host: Player, opponent: Player, place: Place, options: GameOptions) -> ActionResult:
        """A 1 v 1 invitation: the host in A1, waiting for `opponent` to accept."""
        if opponent.user_id == host.user_id:
            raise SelfChallenge(f"user {host.user_id} challenged themselves")
        one_v_one = replace(options, team_size=1)
        one_v_one.rules()
        async with self._creation(place, host.user_id):
            self.check_can_host(host.user_id, place)
            state = await self._create(host, place, one_v_one, [SeatState("A1", host.name, user_id=host.user_id)],
                                       invited_id=opponent.user_id)
        return ActionResult(state, None, (Joined("A1", host.name),))

    async def play_ai(self, player: Player, place: Place, options: GameOptions, level: str) -> ActionResult:
        """A casual 1 v 1 against the AI, started at once."""
        casual = replace(options, team_size=1, ranked=False)
        casual.rules()
        async with self._creation(place, player.user_id):
            self.check_can_host(player.user_id, place, with_ai=True)
            seats = [SeatState("A1", player.name, user_id=player.user_id),
                     SeatState("B1", ai_seat_name(level), ai_level=level)]
            state = await self._create(player, place, casual, seats)
        return await self.get(state.game_id).start(player.user_id, self.seeds())

    async def rematch(self, finished: GameState, player: Player) -> ActionResult:
        """A new lobby with the same options, the caller in their old seat and the same AI seats; it starts
        at once when that fills every seat (a game against the AI)."""
        old = finished.seat_of(player.user_id)
        if old is None:
            raise NotAPlayer(f"user {player.user_id} did not play game {finished.game_id}")
        options = GameOptions.of_game(finished.variant, finished.rules, finished.ranked, finished.turn_timer)
        seats = [SeatState(old.seat, player.name, user_id=player.user_id)]
        seats += [s for s in finished.seats if s.ai_level is not None]
        async with self._creation(finished.place, player.user_id):
            self.check_can_host(player.user_id, finished.place, with_ai=any(s.ai_level is not None for s in seats))
            state = await self._create(player, finished.place, options, seats)
        if state.free_seats():
            return ActionResult(state, None, tuple(Joined(s.seat, s.name, s.ai_level) for s in state.seats))
        return await self.get(state.game_id).start(player.user_id, self.seeds())

    async def open_match(
        self, players: tuple[Player, Player], place: Place, options: GameOptions, tournament_id: int
    ) -> ActionResult:
        """A tournament match: a 1 v 1 lobby in its own room with both players seated (the first in A1), no
        host, waiting for either of them to start it. The hosting limits do not apply: the tournament opens
        it, not the players."""
        first, second = players
        seats = [SeatState("A1", first.name, user_id=first.user_id), SeatState("B1", second.name,
                                                                              user_id=second.user_id)]
        one_v_one = GameOptions(options.variant, 1, options.setup, options.ranked, options.turn_timer)
        async with self._creation(place, None):
            busy = self.in_channel(place.channel_id)
            if busy is not None:
                raise ChannelBusy(f"game {busy.game_id} is open in channel {place.channel_id}",
                                  game_id=busy.game_id, channel_id=place.channel_id, message_id=busy.state.message_id)
            state = await self._create(None, place, one_v_one, seats, tournament_id=tournament_id)
        return ActionResult(state, None, tuple(Joined(s.seat, s.name) for s in state.seats))

    async def finished_state(self, game_id: int) -> GameState:
        """A game read back from the database (for rematch and replay of finished games)."""
        session = self._sessions.get(game_id)
        if session is not None:
            return session.state
        try:
            return await read_game(self.records, game_id)
        except (GameNotFound, CorruptGame) as exc:
            raise GameNotOpen(f"game {game_id} cannot be read: {exc}") from exc

    async def replay_state(self, game_id: int) -> GameState:
        """A finished game to replay, read back from the database; ReplayPruned when its moves are no longer
        kept, GameNotOpen when it cannot be read."""
        try:
            stored = await self.records.game_log(game_id)
        except GameNotFound as exc:
            raise GameNotOpen(f"game {game_id} cannot be read: {exc}") from exc
        if stored.game.pruned_at is not None:
            raise ReplayPruned(f"game {game_id}: its log was pruned", game_id=game_id)
        try:
            return await asyncio.to_thread(state_from_log, stored)
        except CorruptGame as exc:
            raise GameNotOpen(f"game {game_id} cannot be read: {exc}") from exc

    # -- internals --------------------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def _creation(self, place: Place, host_id: int | None) -> AsyncIterator[None]:
        """Held while a game is created at `place` for `host_id`: the channel first, then the host, in the same
        order by every creation, so two of them never wait for each other in a circle."""
        async with self._creating.hold(("channel", place.channel_id)):
            if host_id is None:
                yield
                return
            async with self._creating.hold(("host", host_id)):
                yield

    def check_can_host(self, user_id: int, place: Place, *, with_ai: bool = False) -> None:
        """Raise ChannelBusy, TooManyGames or ServerGamesFull (and, for a game `with_ai` seats, TooManyAIGames
        or ServerAIGamesFull) when this user may not open a game here now."""
        busy = self.in_channel(place.channel_id)
        if busy is not None:
            s = busy.state
            raise ChannelBusy(f"game {s.game_id} is open in channel {place.channel_id}", game_id=s.game_id,
                              channel_id=s.place.channel_id, message_id=s.message_id)
        limit = self.limits.max_open_per_host
        if self.open_count(user_id) >= limit:
            raise TooManyGames(f"user {user_id} hosts {limit} open games", limit=limit)
        server = [s.state for s in self._sessions.values()
                  if s.state.place.guild_id == place.guild_id and s.state.tournament_id is None]
        if place.guild_id is not None and len(server) >= self.limits.max_open_per_server:
            raise ServerGamesFull(f"server {place.guild_id} has {len(server)} open games",
                                  limit=self.limits.max_open_per_server)
        if with_ai:
            self._check_ai_games(user_id, place.guild_id)

    def _check_ai_games(self, host_id: int | None, guild_id: int | None, *, but: int | None = None) -> None:
        """The caps on open games with AI seats, per host and per server (game `but` not counted)."""
        with_ai = [s.state for s in self._sessions.values() if s.state.has_ai_seat and s.game_id != but]
        hosted = sum(1 for state in with_ai if host_id is not None and state.host_id == host_id)
        if hosted >= self.limits.max_ai_per_host:
            raise TooManyAIGames(f"user {host_id} hosts {hosted} games with AI seats",
                                 limit=self.limits.max_ai_per_host)
        here = sum(1 for state in with_ai if guild_id is not None and state.place.guild_id == guild_id)
        if here >= self.limits.max_ai_per_server:
            raise ServerAIGamesFull(f"server {guild_id} has {here} games with AI seats",
                                    limit=self.limits.max_ai_per_server)

    def _admit_ai(self, lobby: GameState) -> None:
        """A lobby about to take its first AI seat must fit the caps on games with AI seats."""
        self._check_ai_games(lobby.host_id, lobby.place.guild_id, but=lobby.game_id)

    async def _create(
        self,
        host: Player | None,
        place: Place,
        options: GameOptions,
        seats: list[SeatState],
        invited_id: int | None = None,
        tournament_id: int | None = None,
    ) -> GameState:
        rules = options.rules()
        host_id = None if host is None else host.user_id
        specs = [
            SeatSpec(s.seat, s.name, user_id=s.user_id,
                     ai_level=None if s.ai_level is None else ai_level_number(s.ai_level))
            for s in seats
        ]
        # The host limit is counted again by the storage, in the creating transaction: other processes' games
        # (servers on other shards) count too. Tournament matches have no host and no limit.
        limit = self.limits.max_open_per_host if host_id is not None else None
        try:
            with storage_errors():
                game_id = await self.records.create_game(
                    guild_id=place.guild_id, channel_id=place.channel_id, host_id=host_id,
                    variant=options.variant, rules=rules.to_dict(), turn_timer_seconds=options.turn_timer,
                    ranked=options.ranked, in_thread=place.in_thread, seats=specs, host_limit=limit,
                )
        except HostLimitReached as exc:
            raise TooManyGames(str(exc), limit=exc.limit) from exc
        state = GameState(
            game_id=game_id, place=place, host_id=host_id, variant=options.variant, rules=rules,
            ranked=options.ranked, turn_timer=options.turn_timer, status="lobby",
            seats=tuple(sorted(seats, key=lambda s: rules.seats.index(s.seat))), invited_id=invited_id,
            tournament_id=tournament_id, opened_at=self._clock(),
        )
        self._add(state)
        return state

    def _add(self, state: GameState) -> GameSession:
        session = GameSession(state, self.records, clock=self._clock, picker=self._picker,
                              advisor=self._advisor, ai_delay=self.limits.ai_delay, on_change=self._changed,
                              admit_ai=self._admit_ai)
        self._sessions[state.game_id] = session
        self._by_channel[state.place.channel_id] = session
        if state.host_id is not None:
            self._by_host.setdefault(state.host_id, set()).add(state.game_id)
        self.deadlines.set(state.game_id, self._due(state))
        return session

    def lobby_expires(self, state: GameState) -> float | None:
        """When a lobby nobody has started closes (None for a game that started, and for tournament matches,
        whose tournament's round limit decides)."""
        if state.status != "lobby" or state.tournament_id is not None or state.opened_at is None:
            return None
        return state.opened_at + self.limits.lobby_expiry

    def _due(self, state: GameState) -> float | None:
        """When the timer must next look at this game: its turn deadline, or the lobby's expiry."""
        return state.deadline if state.status == "running" else self.lobby_expires(state)

    def _changed(self, result: ActionResult) -> None:
        state = result.state
        for hook in self._change_listeners:
            try:
                hook(result)
            except Exception:
                # The action is saved; a listener's bug must not make it look refused.
                log.exception("a change listener failed for game %d", state.game_id)
        if state.is_open:
            self.deadlines.set(state.game_id, self._due(state))
        else:
            self.deadlines.set(state.game_id, None)
            self._drop(state)
            for listener in self._end_listeners:
                task = asyncio.get_running_loop().create_task(self._tell_end(listener, state))
                self._ending.add(task)
                task.add_done_callback(self._ending.discard)

    def _drop(self, state: GameState) -> None:
        """Forget a game that is over, and its place in the indexes."""
        session = self._sessions.pop(state.game_id, None)
        if session is None:
            return
        if self._by_channel.get(state.place.channel_id) is session:
            del self._by_channel[state.place.channel_id]
        if state.host_id is not None:
            hosted = self._by_host.get(state.host_id, set())
            hosted.discard(state.game_id)
            if not hosted:
                self._by_host.pop(state.host_id, None)

    async def _tell_end(self, listener: EndListener, state: GameState) -> None:
        try:
            await listener(state)
        except Exception:
            # The game itself ended and is saved; whoever listens (a tournament) catches up on its next tick.
            log.exception("an end listener failed for game %d", state.game_id)

    async def _fire(self, game_id: int) -> None:
        session = self._sessions.get(game_id)
        if session is None:
            return
        bind_log(game_id=game_id, server_id=session.state.place.guild_id, channel_id=session.state.place.channel_id)
        try:
            # Each game fires in its own task (bot.sessions.timers); their actions (a read-back, the AI, a save)
            # are bounded together, their messages (Discord's answers, retries and 429 pauses) are not.
            async with self._fire_slots:
                if session.state.status == "lobby":
                    result = await session.expire(self._clock(), self.lobby_expires(session.state))
                    if result is not None:
                        log.info("game %d: the lobby expired unstarted after %gs", game_id, self.limits.lobby_expiry)
                else:
                    result = await session.on_deadline(self._clock())
        except NotSaved as exc:
            # Nothing was played; the same deadline is tried again once the database may be back.
            log.warning("game %d: its timed action was not saved (%s); trying again in %gs", game_id, exc.reason,
                        RETRY_SECONDS)
            self.deadlines.set(game_id, self._clock() + RETRY_SECONDS)
            return
        if result is None:
            if session.state.is_open:
                self.deadlines.set(game_id, self._due(session.state))
            return
        for listener in self._listeners:
            try:
                await listener(result)
            except Exception:
                # Showing the result failed (Discord down, message deleted); the game itself moved on.
                log.exception("a listener failed to show game %d", game_id)

    async def close_where(self, *, guild_id: int | None = None, channel_id: int | None = None) -> list[ActionResult]:
        """Call off every open game and lobby of a server, or of a channel or thread, the bot has lost (it left
        the server; the channel was deleted): unrated, each logged once. Returns what was closed (the end
        listeners, such as tournaments, hear of each); nothing is shown, since there is nowhere to show it."""
        if (guild_id is None) == (channel_id is None):
            raise ValueError("close_where takes exactly one of guild_id or channel_id")
        if channel_id is not None:
            found = self._by_channel.get(channel_id)
            doomed = [found] if found is not None else []
        else:
            doomed = [s for s in self._sessions.values() if s.state.place.guild_id == guild_id]
        closed: list[ActionResult] = []
        for session in doomed:
            try:
                result = await session.close()
            except NotSaved as exc:
                log.warning("game %d: could not be closed (%s); it stays open", session.game_id, exc.reason)
                continue
            if result is not None:
                where = f"channel {channel_id}" if channel_id is not None else f"server {guild_id}"
                log.info("game %d closed unrated: the bot lost its %s", session.game_id, where)
                closed.append(result)
        return closed

    async def fire_due(self) -> list[int]:
        """Fire every deadline that has passed now (one pass of the timer loop; tests call this)."""
        return await self.deadlines.run_due()
