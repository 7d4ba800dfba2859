"""The load benchmark's spammers (issue 27): members who ask for hints and replays as fast as the bot lets them,
while the tables of benchmarks/load.py play. Used by benchmarks/load.py (`--spammers N`); never imported by the
bot.

Each spammer is a member of one of the load's servers with two channels of its own: in one it plays the AI
(casual, so hints are allowed) and asks `/puluc hint`, then plays the position's first move so that its next
hint is about a new position (the bot keeps each position's hint); in the other it first plays `OWN_GAMES`
games against the AI, `OWN_MOVES` moves each (then resigns), and during the load asks `/puluc replay` of the
newest finished game of its server it has not replayed yet (one of its own when there is none: those are
drawn once, then taken from the bot's cache). Each kind goes on by itself: at once after
an answer, after the time the bot named when it was refused with a limit (a Discord timestamp), after a second
when the bot said it was busy. What is counted: asked, served, limited, busy, and the time from asking to the
answer of those served.
"""

from __future__ import annotations

import asyncio
import re
import time
from dataclasses import dataclass, field
from typing import Any

import discord
import simcord
from load_players import MENTION, Table, button_ids, emit_click, emit_slash, kind_of, signature

from bot.ui.i18n import t

EPHEMERAL = 64
RETRY = re.compile(r"<t:(\d+):R>")
BUSY_PAUSE_S = 1.0
ANSWER_TIMEOUT_S = 30.0
SETUP_TIMEOUT_S = 60.0
OWN_GAMES = 2  # finished games of its own, to replay
OWN_MOVES = 30  # moves it plays in each before resigning: a replay of some length


@dataclass
class KindRecord:
    asked: int = 0
    served: int = 0
    limited: int = 0
    busy: int = 0
    other: int = 0
    answered: list[float] = field(default_factory=list)  # seconds from asking to a served answer


@dataclass
class SpamRecord:
    hint: KindRecord = field(default_factory=KindRecord)
    replay: KindRecord = field(default_factory=KindRecord)


def newest(env: simcord.Env, channel_id: int) -> list[Any]:
    """The channel's public messages, newest first."""
    stored = env.backend.messages.get(channel_id, {})
    return [m for m in reversed(stored.values()) if not m.flags & EPHEMERAL]


def game_message(env: simcord.Env, channel_id: int) -> Any:
    return next((m for m in newest(env, channel_id) if m.components), None)


def replay_id(stored: Any) -> int | None:
    """The game id of a finished game's message (its Replay button), or None."""
    if stored is None:
        return None
    found = next((cid for cid, _ in button_ids(stored) if kind_of(cid) == "replay"), None)
    return None if found is None else int(found.split(":")[2])


async def until(condition: Any, what: str, within: float = SETUP_TIMEOUT_S) -> Any:
    deadline = time.perf_counter() + within
    while not (found := condition()):
        if time.perf_counter() > deadline:
            raise RuntimeError(f"spammer set-up: {what} not within {within:g} s")
        await asyncio.sleep(0.05)
    return found


class Spammer:
    """One member asking for hints and replays as fast as it is let."""

    def __init__(self, env: simcord.Env, guild: simcord.GuildHandle, index: int, tables: list[Table]) -> None:
        self.env = env
        self.member = guild.add_member(env.create_user(f"spammer-{index}"))
        self.hints = guild.create_text_channel(f"spam-hints-{index}")
        self.replays = guild.create_text_channel(f"spam-replays-{index}")
        self.tables = tables  # the tables of its server: their finished games are replayed
        self.own_games: list[int] = []
        self.replayed: set[int] = set()

    async def set_up(self) -> None:
        """Finished games of its own, played against the AI, and a game against the AI to ask hints in, on its
        turn."""
        for _ in range(OWN_GAMES):
            self.own_games.append(await self._play_one())
        emit_slash(self.env, self.member, self.hints, "puluc ai", {"difficulty": "easy"})
        await until(self._my_turn, "its turn against the AI")

    async def _play_one(self) -> int:
        """A game against the AI in its replays channel, `OWN_MOVES` moves long at most; its id once over."""
        channel = self.replays
        known = replay_id(game_message(self.env, channel.id))

        def ended() -> int | None:
            found = replay_id(game_message(self.env, channel.id))
            return found if found is not None and found != known else None

        emit_slash(self.env, self.member, channel, "puluc ai", {"difficulty": "easy"})
        await until(lambda: self._turn_in(channel) or ended(), "a game against the AI")
        for _ in range(OWN_MOVES):
            turn = self._turn_in(channel)
            if turn is None:
                break
            stored, move = turn
            before = signature(stored)
            emit_click(self.env, self.member, stored, move)
            await until(lambda: signature(game_message(self.env, channel.id)) != before  # noqa: B023 (awaited here)
                        and (self._turn_in(channel) or ended()), "the AI's answer")
        game = ended()
        if game is None:
            emit_slash(self.env, self.member, channel, "puluc resign", {})
            game = await until(ended, "its resigned game")
        return int(game)

    def _my_turn(self) -> Any:
        return self._turn_in(self.hints)

    def _turn_in(self, channel: simcord.ChannelHandle) -> Any:
        """(the game message, its first move button) while it is this member's turn in `channel`, else None."""
        stored = game_message(self.env, channel.id)
        if stored is None or str(self.member.id) not in MENTION.findall(stored.content or ""):
            return None
        moves = [cid for cid, disabled in button_ids(stored) if not disabled and kind_of(cid) == "move"]
        return (stored, moves[0]) if moves else None

    async def ask(self, kind: KindRecord, name: str, channel: simcord.ChannelHandle,
                  options: dict[str, Any]) -> float:
        """Ask once; return how long to wait before asking again."""
        kind.asked += 1
        started = time.perf_counter()
        interaction_id = emit_slash(self.env, self.member, channel, name, options)
        answer = await self._answer(interaction_id)
        if answer is None:
            kind.other += 1
            return BUSY_PAUSE_S
        text, files = answer
        if files or "would play" in text:
            kind.served += 1
            kind.answered.append(time.perf_counter() - started)
            return 0.0
        found = RETRY.search(text)
        if found is not None:
            kind.limited += 1
            return max(0.05, int(found.group(1)) - discord.utils.utcnow().timestamp())
        if text == t("limits.busy", "en"):
            kind.busy += 1
        else:
            kind.other += 1
        return BUSY_PAUSE_S

    async def _answer(self, interaction_id: int) -> tuple[str, int] | None:
        """The text and the number of files of the interaction's answer, once it has one (None: none came)."""
        backend = self.env.backend
        record = backend.interactions[interaction_id]
        deadline = time.perf_counter() + ANSWER_TIMEOUT_S
        while time.perf_counter() < deadline:
            messages = []
            if record.message_id is not None:
                messages.append(backend.get_message(record.channel_id, record.message_id))
            messages += [backend.get_message(record.channel_id, m) for m in record.followup_ids]
            done = [m for m in messages if m.content or m.attachments]
            if done:
                return "\n".join(m.content or "" for m in done), sum(len(m.attachments) for m in done)
            await asyncio.sleep(0.02)
        return None

    async def spam_hints(self, record: SpamRecord, until_time: float) -> None:
        while time.perf_counter() < until_time:
            turn = self._my_turn()
            if turn is None:  # the AI is moving
                await asyncio.sleep(0.05)
                continue
            pause = await self.ask(record.hint, "puluc hint", self.hints, {})
            if pause == 0.0:
                stored, move = turn
                before = signature(stored)
                emit_click(self.env, self.member, stored, move)  # a new position for the next hint
                deadline = time.perf_counter() + ANSWER_TIMEOUT_S
                # The simulated Discord's messages are polled, as a player looks at the channel.
                while signature(game_message(self.env, self.hints.id)) == before and time.perf_counter() < deadline:  # noqa: ASYNC110
                    await asyncio.sleep(0.02)
            else:
                await asyncio.sleep(pause)

    async def spam_replays(self, record: SpamRecord, until_time: float) -> None:
        while time.perf_counter() < until_time:
            finished = [found for table in self.tables if (found := replay_id(table.game_message())) is not None]
            fresh = [game for game in (*finished, *self.own_games) if game not in self.replayed]
            game = max(fresh) if fresh else self.own_games[len(self.replayed) % len(self.own_games)]
            pause = await self.ask(record.replay, "puluc replay", self.replays, {"game_id": game})
            if pause == 0.0:
                self.replayed.add(game)
            await asyncio.sleep(pause)

    async def run(self, record: SpamRecord, until_time: float) -> None:
        await asyncio.gather(self.spam_hints(record, until_time), self.spam_replays(record, until_time))
