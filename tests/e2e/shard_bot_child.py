"""A child process of the shard tests: the real bot (bot/app.py, every cog) on some shards of a PostgreSQL
deployment, inside its own offline Discord (SimCord) holding one server of those shards.

Run as `python -m tests.e2e.shard_bot_child DATABASE_URL SHARD_COUNT SHARD_IDS GUILD_ID INDEX STATE_FILE`.
The server has a #games channel and three members, `alice<INDEX>`, `bob<INDEX>` and `carol<INDEX>`. The parent drives it
through stdin, one JSON command a line, and reads one JSON answer a line on stdout (the first one says
{"ready": ...}, or {"refused": ...} and exit 3 when another live process holds a shard):

    {"op": "challenge", "opponent": "bob"}   alice challenges bob or carol (ranked), who accepts
    {"op": "move"}                           whoever the game message names clicks its first move button
    {"op": "resign"}                         whoever must move resigns with `/puluc resign`
    {"op": "timed"}                          alice opens `/puluc new turn_timer:30`, bob joins, alice starts
    {"op": "advance", "seconds": 31}         Discord's clock (and so the bot's) moves on
    {"op": "leaderboard"}                    `/puluc leaderboard scope:global`, as bob: the embed's text

Every answer also carries `loaded` (the open games this bot holds) and `errors` (anything the bot raised
that was not a refusal it answered, and every ERROR it logged). After every command the Discord side of the
server (the channel's messages, their attachments, the id allocator and the clock) is written to STATE_FILE;
a process started on an existing STATE_FILE rebuilds the same server, members and ids, then puts that back,
so the messages posted before a SIGKILL are there, buttons and all, as they would be on Discord, which
outlives the bot.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import pickle
import sys
from pathlib import Path
from typing import Any

import simcord

from bot.app import PulucBot, StartupError
from bot.services import services
from bot.storage.shards import Shards, parse_shard_ids
from bot.storage.urls import parse_database_url
from tests.helpers import (
    ErrorLog,
    custom_ids,
    embed_text,
    game_message,
    is_refusal,
    make_config,
    mentioned,
    move_ids,
    said,
    seeded_bot,
)

# Each process's Discord starts its clock this much later, so the two simulated Discords never hand out the
# same user, channel or message ids (their snowflakes carry the time): one server's players must be other
# people than the other's, as on Discord.
ID_SPACING_SECONDS = 3600.0


class Server:
    """The bot in its offline Discord, with the one server the parent plays in."""

    def __init__(self, env: simcord.Env, bot: PulucBot, index: int, state_file: Path) -> None:
        self.env, self.bot, self.state_file = env, bot, state_file
        self.guild = env.create_guild(f"Server {index}", id=int(sys.argv[4]))
        self.games = self.guild.create_text_channel("games")
        self.alice = self.guild.add_member(env.create_user(f"alice{index}"))
        self.bob = self.guild.add_member(env.create_user(f"bob{index}"))
        self.carol = self.guild.add_member(env.create_user(f"carol{index}"))
        self.members = (self.alice, self.bob, self.carol)
        self.seen_errors = 0
        self.logged = ErrorLog()  # ERROR records: a crash the bot survived is still a failure here
        logging.getLogger().addHandler(self.logged)

    def member(self, user_id: int) -> simcord.MemberActor:
        return next(m for m in self.members if m.id == user_id)

    # -- Discord's side, kept across a SIGKILL of the bot ----------------------------------------------------

    def save(self) -> None:
        backend = self.env.backend
        state = {
            "elapsed": backend.clock.elapsed,
            "messages": backend.messages[self.games.id],
            "blobs": backend.cdn._blobs,  # the attachments (boards) those messages show
            "reserved": backend._reserved_ids,
            "sequences": backend._sequences,
        }
        partial = self.state_file.with_suffix(".partial")
        partial.write_bytes(pickle.dumps(state))
        os.replace(partial, self.state_file)

    async def restore(self) -> None:
        """Put back the channel as the previous process left it (private SimCord state: see the docstring)."""
        state = pickle.loads(self.state_file.read_bytes())
        backend = self.env.backend
        backend.messages[self.games.id] = state["messages"]
        backend.cdn._blobs.update(state["blobs"])
        backend._reserved_ids |= state["reserved"]
        for millisecond, sequence in state["sequences"].items():
            backend._sequences[millisecond] = max(sequence, backend._sequences.get(millisecond, 0))
        await self.env.advance_time(max(0.0, state["elapsed"] - backend.clock.elapsed))

    # -- what players do --------------------------------------------------------------------------------------

    def game_id(self) -> int | None:
        session = services(self.bot).manager.in_channel(self.games.id)
        return None if session is None else session.game_id

    async def challenge(self, opponent: str = "bob") -> dict[str, Any]:
        guest = self.bob if opponent == "bob" else self.carol
        challenged = await self.alice.slash(self.games, "puluc challenge", opponent=guest, ranked=True)
        assert challenged.response is not None, said(challenged)
        (accept,) = custom_ids(challenged.response, "puluc:accept:")
        await guest.click(challenged.response.message, custom_id=accept)
        return {"game": self.game_id(), "message": game_message(self.games).id}

    async def move(self) -> dict[str, Any]:
        board = game_message(self.games)
        (mover,) = mentioned(board)
        buttons = move_ids(board)
        session = services(self.bot).manager.in_channel(self.games.id)
        assert session is not None, "no game runs in #games"
        clicked = await self.member(mover).click(board, custom_id=buttons[0])
        state = session.state
        return {"game": state.game_id, "seq": state.seq, "status": state.status, "message": board.id,
                "clicked": buttons[0], "buttons": buttons, "said": said(clicked),
                "now": game_message(self.games).id}

    async def resign(self) -> dict[str, Any]:
        session = services(self.bot).manager.in_channel(self.games.id)
        assert session is not None and session.state.to_move is not None, "nobody is to move in #games"
        loser = session.state.to_move.user_id
        assert loser is not None
        await self.member(loser).slash(self.games, "puluc resign")
        return {"game": session.game_id, "status": session.state.status, "winner": session.state.winner}

    async def timed(self) -> dict[str, Any]:
        opened = await self.alice.slash(self.games, "puluc new", turn_timer=30)
        assert opened.response is not None, said(opened)
        await self.bob.click(opened.response.message, custom_id=custom_ids(opened.response, "puluc:join:")[0])
        lobby = game_message(self.games)
        await self.alice.click(lobby, custom_id=custom_ids(lobby, "puluc:start:")[0])
        board = game_message(self.games)
        return {"game": self.game_id(), "mover": mentioned(board)[0]}

    async def advance(self, seconds: float) -> dict[str, Any]:
        await self.env.advance_time(seconds)
        session = services(self.bot).manager.in_channel(self.games.id)
        timeouts = {} if session is None else {str(s.user_id): s.timeouts for s in session.state.seats}
        shown = [embed_text(m) for m in self.games.history() if custom_ids(m, enabled=False)]
        return {"timeouts": timeouts, "ran_out": sum(text.count("ran out of time") for text in shown)}

    async def leaderboard(self) -> dict[str, Any]:
        shown = await self.bob.slash(self.games, "puluc leaderboard", scope="global")
        assert shown.response is not None, said(shown)
        return {"text": embed_text(shown.response)}

    async def run(self, command: dict[str, Any]) -> dict[str, Any]:
        op = command.pop("op")
        answer: dict[str, Any] = await getattr(self, op)(**command)
        await self.env.settle()
        self.save()
        errors = self.env.errors[self.seen_errors:]
        self.seen_errors += len(errors)
        answer["errors"] = [repr(e) for e in errors if not is_refusal(e)] + [str(r) for r in self.logged.records]
        self.logged.records.clear()
        answer["loaded"] = [s.game_id for s in services(self.bot).manager.sessions]
        return answer


def report(line: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(line, separators=(",", ":")) + "\n")
    sys.stdout.flush()


async def commands() -> asyncio.StreamReader:
    reader = asyncio.StreamReader()
    loop = asyncio.get_running_loop()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    return reader


async def main(url: str, shards: Shards, index: int, state_file: Path) -> int:
    config = make_config(state_file.with_suffix(".unused.db"), database=parse_database_url(url), shards=shards)
    bot = seeded_bot(config, seed=1000 + index)
    try:
        async with simcord.run(bot, check_errors=False) as env:
            await env.advance_time(index * ID_SPACING_SECONDS)
            server = Server(env, bot, index, state_file)
            if state_file.exists():  # noqa: ASYNC240 - one stat before the shard starts serving
                await server.restore()
            report({"ready": True, "loaded": [s.game_id for s in services(bot).manager.sessions],
                    "channel": server.games.id, "players": [m.id for m in server.members]})
            reader = await commands()
            while line := await reader.readline():
                report(await server.run(json.loads(line)))
            await bot.close()
    except StartupError as exc:
        report({"refused": str(exc)})
        return 3
    return 0


if __name__ == "__main__":
    db_url, count, ids, _guild, index_text, state_path = sys.argv[1:7]
    shard_count = int(count)
    sys.exit(asyncio.run(main(db_url, Shards(shard_count, parse_shard_ids(ids, shard_count)), int(index_text),
                              Path(state_path))))
