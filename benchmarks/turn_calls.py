"""Turn calls benchmark (issue 26): the calls and the extra Discord requests a 100-move 2 v 2 causes.

Run by hand:
  python benchmarks/turn_calls.py                    # TURN_PING_AFTER_SECONDS at its default (30) and at 0
  python benchmarks/turn_calls.py --think 20-60      # players who take longer than the default to move

Four members play a traditional 2 v 2 (two throws a turn) with the real bot in SimCord's in-memory Discord, on
its virtual clock: before every click the member to move thinks a seeded random time in --think seconds.
When a game ends before --moves moves, the host presses Rematch and they go on. Counted from SimCord's request
log: turn changes between members (the turn passes from one person to another), calls created (a new message
that mentions the member to move), calls deleted, DMs, and every Discord request besides those the game itself
makes without calls (the board edits, the interaction answers). The goal: at most one create and one delete per
turn change (a game's start calls its first player too, and its end deletes the last call), and nothing at all
while members answer within the setting. Counts, not timings: the board's
latency under load is benchmarks/load.py's (run it with TURN_PING_AFTER_SECONDS=0 and without).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import simcord

from bot.app import PulucBot
from bot.config import Config
from bot.config_spec import TURN_PING_AFTER_SECONDS
from bot.services import services
from bot.storage.urls import SqliteUrl

TOKEN = "MTA1NzQ4OTk4NzY1NDMyMTAxMg.GhXyZw.turnCallsBenchmarkNotReal0000"
CALL = re.compile(r"^<@\d+>, ")


@dataclass
class Counts:
    setting: int
    moves: int = 0
    games: int = 0  # games started during the count (rematches: each calls its first player)
    turn_changes: int = 0
    created: int = 0
    deleted: int = 0
    dms: int = 0
    requests: int = 0  # every Discord request of the bot during the moves

    def row(self) -> str:
        per = max(self.turn_changes + self.games, 1)
        return (f"{self.setting:>7} s  {self.moves:>5}  {self.games:>5}  {self.turn_changes:>12}  {self.created:>7}  "
                f"{self.deleted:>7}  {self.dms:>3}  {self.created / per:>13.2f}  {self.deleted / per:>13.2f}  "
                f"{self.requests:>8}")


def buttons(message: Any, prefix: str) -> list[str]:
    found = []
    for row in message.components:
        for child in getattr(row, "children", []):
            custom_id = getattr(child, "custom_id", None) or ""
            if custom_id.startswith(prefix) and not getattr(child, "disabled", False):
                found.append(custom_id)
    return found


def board_of(channel: simcord.ChannelHandle) -> Any:
    for message in reversed(channel.history()):
        if not message.flags.ephemeral and buttons(message, "puluc:"):
            return message
    raise RuntimeError("no game message")


async def play(setting: int, moves: int, think: tuple[float, float], seed: int) -> Counts:
    counts = Counts(setting)
    with tempfile.TemporaryDirectory() as folder:
        config = Config(discord_token=TOKEN, database=SqliteUrl(Path(folder) / "puluc.db"), ai_budget_ms=10,
                        ai_move_delay_seconds=0.0, command_cooldown_seconds=0.0, workers=0,
                        turn_ping_after_seconds=setting)
        bot = PulucBot(config)
        async with simcord.run(bot, check_errors=False) as env:
            guild = env.create_guild("Bench")
            channel = guild.create_text_channel("games")
            members = [guild.add_member(env.create_user(name)) for name in ("ana", "bo", "cy", "di")]
            by_id = {m.id: m for m in members}
            manager = services(bot).manager
            rng = random.Random(seed)
            opened = await members[0].slash(channel, "puluc new", team_size=2, setup="traditional")
            assert opened.response is not None
            for member, team in zip(members[1:], ("B", "A", "B"), strict=True):
                join = next(c for c in buttons(board_of(channel), "puluc:join:") if c.endswith(f":{team}"))
                await member.click(board_of(channel), custom_id=join)
            await members[0].click(board_of(channel), custom_id=buttons(board_of(channel), "puluc:start:")[0])
            start = len(env.http_requests)
            counts.games = 0  # the first game started (and called its first player) before the count
            while counts.moves < moves:
                session = manager.in_channel(channel.id)
                board = board_of(channel)
                if session is None:  # the game ended: play on in a rematch
                    await members[0].click(board, custom_id=buttons(board, "puluc:rematch:")[0])
                    for member, team in zip(members[1:], ("B", "A", "B"), strict=True):
                        lobby = board_of(channel)
                        join = next(c for c in buttons(lobby, "puluc:join:") if c.endswith(f":{team}"))
                        await member.click(lobby, custom_id=join)
                    lobby = board_of(channel)
                    await members[0].click(lobby, custom_id=buttons(lobby, "puluc:start:")[0])
                    counts.games += 1
                    continue
                seat = session.state.to_move
                assert seat is not None and seat.user_id is not None
                await env.advance_time(rng.uniform(*think))
                await by_id[seat.user_id].click(board, custom_id=rng.choice(buttons(board, "puluc:move:")))
                counts.moves += 1
                after = session.state.to_move
                if after is not None and after.user_id not in (None, seat.user_id):
                    counts.turn_changes += 1
            await env.settle()
            for request in env.http_requests[start:]:
                counts.requests += 1
                body = request.json if isinstance(request.json, dict) else {}
                if request.method == "POST" and request.path == f"/channels/{channel.id}/messages" \
                        and CALL.match(str(body.get("content") or "")) and not body.get("components"):
                    counts.created += 1
                elif request.method == "DELETE" and request.path.startswith(f"/channels/{channel.id}/messages/"):
                    counts.deleted += 1
                elif request.method == "POST" and request.path.startswith("/channels/") \
                        and request.path != f"/channels/{channel.id}/messages":
                    counts.dms += 1
        await bot.close()
    return counts


def think_range(text: str) -> tuple[float, float]:
    low, _, high = text.partition("-")
    pair = (float(low), float(high or low))
    if not 0 <= pair[0] <= pair[1]:
        raise argparse.ArgumentTypeError(f"--think {text}: the range must be 0 <= low <= high")
    return pair


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--moves", type=int, default=100, help="moves to play (default 100)")
    parser.add_argument("--think", type=think_range, default=(2.0, 4.0), metavar="LOW-HIGH",
                        help="seconds each member thinks before a move, on the virtual clock (default 2-4)")
    parser.add_argument("--seed", type=int, default=26)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    print(f"{args.moves}-move 2 v 2 (traditional), members thinking {args.think[0]:g}-{args.think[1]:g} s")
    print("A turn starts when a game starts or the turn passes to another member; a game's end deletes its call.")
    print("setting  moves  games  turn changes  created  deleted  DMs  created/start   deleted/start  requests")
    for setting in (TURN_PING_AFTER_SECONDS.default, 0):
        print(asyncio.run(play(setting, args.moves, args.think, args.seed)).row())


if __name__ == "__main__":
    main()
