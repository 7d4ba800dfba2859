"""Whose code a process's CPU went to, from a py-spy profile: the simulated Discord, discord.py, the bot, ...

`benchmarks/load.py` measures the CPU of the bot's process with the simulated Discord (SimCord) inside it,
which a real Discord does not put on the bot. To split it, record the load with py-spy (on PyPI; not a
dependency of the project) sampling only the thread that holds the GIL, in its raw format:

    py-spy record --gil --format raw -r 250 -o load.spy -- python benchmarks/load.py --games 300 --seconds 120
    python benchmarks/cpu_owners.py load.spy

Each sample goes to the innermost frame of a known owner on its stack (SimCord calling into the bot is the
bot's; the bot calling discord.py is discord.py's; the standard library is charged to whoever called it).
Imports (start-up) are left out. Prints each owner's share of the samples, then the top functions of each.
Asserts nothing.
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path

FRAME = re.compile(r"(?P<function>.*?) \((?P<path>.*?):(?P<line>\d+)\)$")
OWNERS = (
    ("simcord/", "SimCord (the simulated Discord)"),
    ("discord/", "discord.py"),
    ("aiosqlite/", "SQLite (aiosqlite)"),
    ("sqlite3/", "SQLite (aiosqlite)"),
    ("asyncpg/", "PostgreSQL (asyncpg)"),
    ("bot/", "the bot"),
    ("puluc/", "the engine"),
    ("renderer/", "the renderer"),
    ("asyncio/", "asyncio"),
    ("concurrent/", "the worker pool's hand-over"),
    ("multiprocessing/", "the worker pool's hand-over"),
    ("load", "the benchmark"),
    ("percentiles", "the benchmark"),
)


def owner_of(path: str) -> str | None:
    for prefix, owner in OWNERS:
        if path.startswith(prefix) or f"/{prefix}" in path:
            return owner
    return None


def split(lines: list[str], top: int) -> str:
    owners: Counter[str] = Counter()
    functions: Counter[tuple[str, str]] = Counter()
    total = 0
    for line in lines:
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        frames = stack.split(";")
        if any("_find_and_load" in frame for frame in frames):
            continue  # an import: start-up, not the load
        n = int(count)
        total += n
        owner, where = "other", frames[-1]
        for frame in reversed(frames):
            match = FRAME.match(frame)
            found = owner_of(match.group("path")) if match else None
            if found is not None:
                owner, where = found, frame
                break
        owners[owner] += n
        functions[(owner, where)] += n
    if not total:
        return "no samples"
    out = [f"{total} samples (imports left out)"]
    out += [f"{100 * n / total:5.1f}%  {owner}" for owner, n in owners.most_common()]
    for owner, _ in owners.most_common(4):
        out.append(f"-- {owner}: top functions")
        ranked = [(where, n) for (who, where), n in functions.most_common() if who == owner][:top]
        out += [f"{100 * n / total:5.1f}%    {where}" for where, n in ranked]
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("profile", type=Path, help="py-spy record --format raw output")
    parser.add_argument("--top", type=int, default=8, help="functions listed per owner")
    args = parser.parse_args()
    print(split(args.profile.read_text().splitlines(), args.top))


if __name__ == "__main__":
    main()
