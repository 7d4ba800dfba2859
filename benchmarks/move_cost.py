"""CPU per move, split as issue 33 asks: the bot's process and the compute workers, for 1 v 1, 2 v 2 and 8 v 8,
next to the cost of drawing and encoding that move's board PNG measured in the same run.

Run by hand: `python benchmarks/move_cost.py [--moves 200] [--team-sizes 1 2 8] [--variant ants] [--bar-ms 4]`.
One core is enough; it prints numbers and the machine's load, and asserts nothing. Issue 33's goal: the CPU a
move costs (bot process plus workers, without the simulated Discord) at most 1.5 times that board's PNG.

Each move is played by people (random legal moves, seeded) through the bot's own code, one at a time, with the
real `SessionManager` on a SQLite file and a `ComputePool` of one worker (`bot.compute`), and timed in phases
with this process's CPU clock (all its threads: the SQLite thread's work counts):
- session: `GameSession.play` (the rules, the event log's write to the database);
- job: the board request made (`bot.cogs.games.boards.board_request`) and handed to the worker, its PNG taken
  back (this process's side of the hand-over; the worker's CPU is read from /proc, `load_probes.cpu_seconds`);
- compose: what the presenter composes besides the picture (narration, text, embed, buttons);
- payload: discord.py turning that into the request body it would send (`handle_message_parameters` and the
  JSON), without sending: the simulated Discord's own cost, which a real Discord does not put on the bot, is
  not in these figures (benchmarks/load.py measures with it).
Before the timed moves of a team size, ten untimed ones fill the caches a running bot has filled (its board's
background and palette, sprites, the database's statements). Then, in this process and for the same boards:
the worker's job (`draw_board`), the PNG alone (`render_board`: drawing and encoding) and its encoding alone
(palette mapping and zlib).
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import random
import tempfile
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import discord
from discord.http import handle_message_parameters
from discord.utils import _to_json
from load_probes import cpu_seconds, descendants
from percentiles import percentile  # benchmarks/percentiles.py: the one definition
from PIL import Image

from bot.app import WORKER_PRELOAD
from bot.cogs.games import texts, views
from bot.cogs.games.boards import board_request
from bot.compute import ComputePool
from bot.config_spec import ADVANTAGE_BAR_MS
from bot.sessions import GameOptions, GameState, Moved, Place, Player, SessionManager
from bot.storage import open_storage
from bot.storage.urls import SqliteUrl
from bot.ui.pictures import BoardRequest, draw_board, move_labels, warm_up
from puluc import Move, MoveEffect, Position
from renderer import board_image, render_board
from renderer.board import PNG_COMPRESS_LEVEL, board_palette

PHASES = ("session", "job", "compose", "payload")


@dataclass
class Costs:
    """CPU milliseconds per move, by phase, and the boards whose pictures were drawn."""

    phases: dict[str, list[float]] = field(default_factory=lambda: {name: [] for name in PHASES})
    requests: list[BoardRequest] = field(default_factory=list)
    png_bytes: list[int] = field(default_factory=list)
    worker_ms: float = 0.0


async def first_legal(position: Position, level: str, rng: random.Random) -> Move:
    return position.legal_moves()[0]


def _seeds() -> Callable[[], int]:
    seeds = iter(range(1, 100_000))
    return lambda: next(seeds)


async def _new_game(manager: SessionManager, team_size: int, variant: str, number: int) -> GameState:
    players = [Player(1000 * number + k, f"player{k}") for k in range(2 * team_size)]
    place = Place(guild_id=1, channel_id=100 + number)
    lobby = await manager.open_lobby(players[0], place, GameOptions(variant=variant, team_size=team_size))
    session = manager.get(lobby.game_id)
    for player in players[1:]:
        await session.join(player)
    return (await session.start(players[0].user_id, manager.seeds())).state


async def play_moves(pool: ComputePool, team_size: int, variant: str, moves: int, bar_ms: float) -> Costs:
    costs = Costs()
    pids = descendants(os.getpid())
    workers_before = sum(cpu_seconds(pid) for pid in pids)
    clock = time.process_time
    with tempfile.TemporaryDirectory() as directory:
        storage = await open_storage(SqliteUrl(Path(directory) / "puluc.db"))
        try:
            manager = SessionManager(storage.games, picker=first_legal, seeds=_seeds())
            number = 0
            while len(costs.requests) < moves:
                number += 1
                rng = random.Random(number)
                state = await _new_game(manager, team_size, variant, number)
                session = manager.get(state.game_id)
                narration: deque[texts.Told] = deque(maxlen=6)
                last: MoveEffect | None = None
                while state.status == "running" and len(costs.requests) < moves:
                    seat = state.to_move
                    assert seat is not None and seat.user_id is not None
                    began = clock()
                    result = await session.play(seat.user_id, rng.choice(state.legal_options()).notation,
                                                turn=state.seq)
                    played = clock()
                    state = result.state
                    narration.extend(texts.told(result.happenings, state))
                    last = next((h.effect for h in result.happenings if isinstance(h, Moved)), last)
                    request = board_request(state, last, bar_ms, "en")
                    png = await pool.run(draw_board, request)
                    drawn = clock()
                    lines = texts.narration(narration, "en")[-6:]
                    if state.status == "running":
                        content = texts.turn_text(state, "en")
                        embed = texts.game_embed(state, "en", lines, image=True)
                        view = views.game_view(state, "en")
                    else:
                        content = ""
                        embed = texts.end_embed(state, "en", lines, None, image=True)
                        view = views.end_view(state, "en")
                    composed = clock()
                    files = [discord.File(io.BytesIO(png), filename=texts.BOARD_FILE)]
                    with handle_message_parameters(content, embed=embed, view=view, attachments=files) as params:
                        _to_json(params.payload)
                    sent = clock()
                    for name, start, end in (("session", began, played), ("job", played, drawn),
                                             ("compose", drawn, composed), ("payload", composed, sent)):
                        costs.phases[name].append(1000 * (end - start))
                    costs.requests.append(request)
                    costs.png_bytes.append(len(png))
        finally:
            await storage.close()
    costs.worker_ms = 1000 * (sum(cpu_seconds(pid) for pid in pids) - workers_before) / len(costs.requests)
    return costs


def in_process(requests: list[BoardRequest]) -> dict[str, float]:
    """Mean CPU ms of the worker's job, the PNG (drawing and encoding) and the encoding alone, in this process."""

    def options(request: BoardRequest) -> dict[str, object]:
        return {
            "last_move": request.last if request.last is not None else True,
            "throw": request.throws or None,
            "labels": move_labels(request.position, request.labels_up_to) or None,
            "advantage": 0.5 if request.bar_ms > 0 else None,
            "names": request.names,
            "texts": request.texts,
        }

    prepared = [(request.position, options(request)) for request in requests]
    images = [board_image(position, **opts) for position, opts in prepared]  # type: ignore[arg-type]

    def encode(index: int) -> None:
        position = requests[index].position
        palette = board_palette(position.road_length, position.rules.team_size, None, "dark", position.rules.fire)
        out = io.BytesIO()
        images[index].quantize(palette=palette, dither=Image.Dither.NONE).save(
            out, "PNG", compress_level=PNG_COMPRESS_LEVEL
        )

    def mean_ms(run: Callable[[int], object]) -> float:
        began = time.process_time()
        for index in range(len(requests)):
            run(index)
        return 1000 * (time.process_time() - began) / len(requests)

    return {
        "job": mean_ms(lambda i: draw_board(requests[i])),
        "png": mean_ms(lambda i: render_board(prepared[i][0], **prepared[i][1])),  # type: ignore[arg-type]
        "encode": mean_ms(encode),
    }


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=200, help="moves per team size")
    parser.add_argument("--team-sizes", type=int, nargs="+", default=[1, 2, 8])
    parser.add_argument("--variant", default="ants", help="a preset (default ants: every team size plays it)")
    parser.add_argument("--bar-ms", type=float, default=ADVANTAGE_BAR_MS.default, help="ADVANTAGE_BAR_MS")
    args = parser.parse_args()
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{args.moves} moves per team size, variant {args.variant}, ADVANTAGE_BAR_MS={args.bar_ms:g}, "
          f"{os.cpu_count()} cores, load average {load}")
    pool = ComputePool(1, warm_up=partial(warm_up, None), preload=WORKER_PRELOAD)
    await pool.start()
    warm_up(None)  # this process draws the same boards again: the same caches as the worker's
    try:
        for team_size in args.team_sizes:
            # A running bot has drawn boards of this size before: their parts are cached in the worker and here.
            in_process((await play_moves(pool, team_size, args.variant, 10, args.bar_ms)).requests)
            costs = await play_moves(pool, team_size, args.variant, args.moves, args.bar_ms)
            local = in_process(costs.requests)
            bot = {name: sum(values) / len(values) for name, values in costs.phases.items()}
            bot_ms = sum(bot.values())
            total = bot_ms + costs.worker_ms
            session_p95 = percentile(costs.phases["session"], 95)
            print(
                f"{team_size} v {team_size} (L={costs.requests[0].position.road_length}): per move, the bot's process "
                f"{bot_ms:.2f} ms (session {bot['session']:.2f}, p95 {session_p95:.2f}; job hand-over "
                f"{bot['job']:.2f}; compose {bot['compose']:.2f}; payload {bot['payload']:.2f}) + the worker "
                f"{costs.worker_ms:.2f} ms = {total:.2f} ms\n"
                f"    same boards in this process: the worker's job {local['job']:.2f} ms, the PNG {local['png']:.2f} "
                f"ms (encoding {local['encode']:.2f} ms), {sum(costs.png_bytes) / len(costs.png_bytes) / 1024:.1f} "
                f"KB; move / PNG = {total / local['png']:.2f} (goal <= 1.5)"
            )
    finally:
        await pool.close()
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    asyncio.run(main())
