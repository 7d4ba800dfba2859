"""Text formats of RULES.md §10: move notation (`3:7`, `2:H`, `2:7b`) and Puluc Position Notation (PPN).

Both round-trip exactly. Parsing is strict: anything malformed or impossible raises ValueError with a
message that says what is wrong, and nothing else.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .routes import tables_for
from .rules import PIECES_PER_SEAT, Rules, seat_index, seat_name

if TYPE_CHECKING:
    from .position import Move, Position

_MOVE_RE = re.compile(r"([0-9]+):(H|[0-9]+)(b?)")
_STACK_RE = re.compile(r"((?:[AB][1-8])+)([+-])")
_SEAT_RE = re.compile(r"[AB][1-8]")
_NUMBER_RE = re.compile(r"0|[1-9][0-9]?")
_PENDING_RE = re.compile(r"[0-9](,[0-9])*")


def parse_move(text: str) -> Move:
    from .position import MOVES

    if not isinstance(text, str):
        raise ValueError(f"a move is text like 3:7, not {type(text).__name__}")
    match = _MOVE_RE.fullmatch(text.strip())
    if match is None:
        raise ValueError(f"{text!r} is not a move: write <throw>:<cell or H>[b], e.g. 2:H, 3:7 or 2:7b")
    throw, source_text, back = match.groups()
    n = int(throw)
    if not 1 <= n <= 5:
        raise ValueError(f"{text!r}: a throw is 1 to 5")
    source = 0 if source_text == "H" else int(source_text)
    if source_text != "H" and not 1 <= source <= 41:
        raise ValueError(f"{text!r}: a cell is 1 to 41")
    if back and source == 0:
        raise ValueError(f"{text!r}: entering from home is never backward")
    if source_text != "H" and source_text != str(source):
        raise ValueError(f"{text!r}: write the cell without leading zeros")
    if throw != str(n):
        raise ValueError(f"{text!r}: write the throw without leading zeros")
    move: Move = MOVES[1 if back else 0][n][source]
    return move


def format_ppn(pos: Position) -> str:
    board = "/".join("." if s is None else "".join(seat_name(x) for x in s[1:]) + "+-"[s[0]] for s in pos._board)
    home = ",".join(f"{seat_name(i)}:{h}" for i, h in enumerate(pos._home))
    kills = ",".join(f"{seat_name(i)}:{k}" for i, k in enumerate(pos._kills))
    pending = ",".join(map(str, pos._pending)) or "-"
    return f"{board} {home} {kills} {seat_name(pos._turn)} {pending}"


def parse_ppn(rules: Rules, text: str) -> Position:
    from .position import Position

    if not isinstance(text, str):
        raise ValueError("a PPN position is text")
    parts = text.split(" ")
    if len(parts) != 5:
        raise ValueError(f"PPN has five fields separated by single spaces, found {len(parts)}")
    board_text, home_text, kills_text, turn_text, pending_text = parts
    t = tables_for(rules)
    seats = t.seats
    length = t.length

    cells = board_text.split("/")
    if len(cells) != length:
        raise ValueError(f"PPN board has {len(cells)} cells; these rules have a road of {length}")
    board: list[tuple[int, ...] | None] = []
    on_road = [0] * seats
    for number, cell in enumerate(cells, start=1):
        if cell == ".":
            board.append(None)
            continue
        match = _STACK_RE.fullmatch(cell)
        if match is None:
            raise ValueError(f"PPN cell {number}: {cell!r} is not '.' or seats top first and + or -, e.g. B2A1-")
        pieces = tuple(_seat(name, seats, f"cell {number}") for name in _SEAT_RE.findall(match.group(1)))
        direction = 0 if match.group(2) == "+" else 1
        if direction == 1 and rules.route == "army":
            raise ValueError(f"PPN cell {number}: on the army route every stack moves '+'")
        if rules.fire and number == rules.fire_cell:
            raise ValueError(f"PPN cell {number}: a stack cannot stand on the fire")
        if rules.capture == "eagle" and len(pieces) > 1:
            raise ValueError(f"PPN cell {number}: with eagle capture there are no stacks of several pieces")
        for p in pieces:
            on_road[p] += 1
        board.append((direction, *pieces))

    home = _per_seat(home_text, seats, "pieces at home")
    kills = _per_seat(kills_text, seats, "kills")
    turn = _seat(turn_text, seats, "seat to move")
    if pending_text == "-":
        pending: tuple[int, ...] = ()
    else:
        if _PENDING_RE.fullmatch(pending_text) is None:
            raise ValueError(f"PPN pending throws {pending_text!r}: values joined by ',' (e.g. 3,2) or '-'")
        pending = tuple(int(v) for v in pending_text.split(","))
        if len(pending) > rules.throws_per_turn:
            raise ValueError(f"PPN has {len(pending)} pending throws; a turn has {rules.throws_per_turn}")
        if any(v not in t.throw_values or v == 0 for v in pending):
            raise ValueError(f"PPN pending throws {pending_text!r}: values must be from {sorted(t.throw_values - {0})}")

    missing = [0] * seats
    for i in range(seats):
        missing[i] = PIECES_PER_SEAT - home[i] - on_road[i]
        if missing[i] < 0:
            raise ValueError(f"PPN: {seat_name(i)} has more than {PIECES_PER_SEAT} pieces at home and on the road")
    killed = [0] * seats
    gone = [0] * seats
    for team in (0, 1):
        enemy_kills = sum(kills[i] for i in range(seats) if i & 1 != team)
        team_missing = sum(missing[i] for i in range(seats) if i & 1 == team)
        if enemy_kills > team_missing:
            raise ValueError(f"PPN: team {'AB'[team]}'s enemies killed {enemy_kills} but only {team_missing} are off")
        may_vanish = rules.fire or rules.capture == "eagle"
        if not may_vanish and enemy_kills != team_missing:
            raise ValueError(
                f"PPN: team {'AB'[team]} has {team_missing} pieces off the road and out of home but "
                f"{enemy_kills} were killed; without fire or eagle every lost piece is a kill"
            )
        # Which seat lost which way is not in PPN: credit kills in seat order, the rest is gone.
        to_kill = enemy_kills
        for i in range(team, seats, 2):
            killed[i] = min(missing[i], to_kill)
            to_kill -= killed[i]
            gone[i] = missing[i] - killed[i]

    pos = Position._make(t, tuple(board), tuple(home), tuple(kills), tuple(killed), tuple(gone), turn, pending)
    if pending and not pos.is_over and not pos.legal_moves():
        raise ValueError("PPN: the player to move has pending throws but no legal move (the turn would have passed)")
    return pos


def _seat(name: str, seats: int, where: str) -> int:
    try:
        index = seat_index(name)
    except ValueError as exc:
        raise ValueError(f"PPN {where}: {exc}") from None
    if index >= seats:
        raise ValueError(f"PPN {where}: seat {name} is beyond a {seats // 2} v {seats // 2} game")
    return index


def _per_seat(text: str, seats: int, what: str) -> list[int]:
    items = text.split(",")
    expected = [seat_name(i) for i in range(seats)]
    if len(items) != seats:
        raise ValueError(f"PPN {what}: expected {seats} entries ({','.join(expected)}), found {len(items)}")
    values = []
    for item, name in zip(items, expected, strict=True):
        seat, _, number = item.partition(":")
        if seat != name or _NUMBER_RE.fullmatch(number) is None:
            raise ValueError(f"PPN {what}: expected {name}:<count> in seat order, found {item!r}")
        values.append(int(number))
    return values
