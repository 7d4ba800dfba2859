"""Text formats of RULES.md §10: move notation (`3:7`, `2:H`, `2:7b`) and Puluc Position Notation (PPN).

Both round-trip exactly. Parsing is strict: malformed move text raises `InvalidMoveError`, and malformed or
impossible PPN raises `InvalidPositionError`, each with a code and a message that say what is wrong, and
nothing else.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .errors import ErrorCode, InvalidMoveError, InvalidPositionError, InvalidSeatError
from .routes import tables_for
from .rules import MAX_ROAD, PIECES_PER_SEAT, Rules, seat_index, seat_name

if TYPE_CHECKING:
    from .position import Move, Position

_MOVE_RE = re.compile(r"([0-9]+):(H|[0-9]+)(b?)")
_STACK_RE = re.compile(r"((?:[AB][1-8])+)([+-])")
_SEAT_RE = re.compile(r"[AB][1-8]")
_NUMBER_RE = re.compile(r"0|[1-9][0-9]?")
_PENDING_RE = re.compile(r"[0-9](,[0-9])*")
MAX_THROW = 5  # the highest value any sticks table gives


def parse_move(text: str) -> Move:
    from .position import MOVES

    if not isinstance(text, str):
        raise InvalidMoveError(f"a move is text like 3:7, not {type(text).__name__}", ErrorCode.NOT_TEXT, text=None)
    match = _MOVE_RE.fullmatch(text.strip())
    if match is None:
        raise InvalidMoveError(
            f"{text!r} is not a move: write <throw>:<cell or H>[b], e.g. 2:H, 3:7 or 2:7b",
            ErrorCode.NOT_MOVE_NOTATION,
            text=text,
        )
    throw, source_text, back = match.groups()
    n = int(throw)
    if not 1 <= n <= MAX_THROW:
        raise InvalidMoveError(
            f"{text!r}: a throw is 1 to {MAX_THROW}", ErrorCode.THROW_OUT_OF_RANGE, text=text, low=1, high=MAX_THROW
        )
    source = 0 if source_text == "H" else int(source_text)
    if source_text != "H" and not 1 <= source <= MAX_ROAD:
        raise InvalidMoveError(
            f"{text!r}: a cell is 1 to {MAX_ROAD}", ErrorCode.CELL_OUT_OF_RANGE, text=text, low=1, high=MAX_ROAD
        )
    if back and source == 0:
        raise InvalidMoveError(f"{text!r}: entering from home is never backward", ErrorCode.BACKWARD_ENTRY, text=text)
    if source_text != "H" and source_text != str(source):
        raise InvalidMoveError(f"{text!r}: write the cell without leading zeros", ErrorCode.LEADING_ZERO, text=text)
    if throw != str(n):
        raise InvalidMoveError(f"{text!r}: write the throw without leading zeros", ErrorCode.LEADING_ZERO, text=text)
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
        raise InvalidPositionError(f"a PPN position is text, not {type(text).__name__}", ErrorCode.NOT_TEXT)
    parts = text.split(" ")
    if len(parts) != 5:
        raise InvalidPositionError(
            f"PPN has five fields separated by single spaces, found {len(parts)}",
            ErrorCode.WRONG_FIELD_COUNT,
            expected=5,
            found=len(parts),
        )
    board_text, home_text, kills_text, turn_text, pending_text = parts
    t = tables_for(rules)
    seats = t.seats
    length = t.length

    cells = board_text.split("/")
    if len(cells) != length:
        raise InvalidPositionError(
            f"PPN board has {len(cells)} cells; these rules have a road of {length}",
            ErrorCode.WRONG_CELL_COUNT,
            field=1,
            expected=length,
            found=len(cells),
        )
    board: list[tuple[int, ...] | None] = []
    on_road = [0] * seats
    for number, cell in enumerate(cells, start=1):
        if cell == ".":
            board.append(None)
            continue
        match = _STACK_RE.fullmatch(cell)
        if match is None:
            raise InvalidPositionError(
                f"PPN cell {number}: {cell!r} is not '.' or seats top first and + or -, e.g. B2A1-",
                ErrorCode.NOT_A_STACK,
                field=1,
                cell=number,
                text=cell,
            )
        pieces = tuple(_seat(name, seats, 1, f"cell {number}") for name in _SEAT_RE.findall(match.group(1)))
        direction = 0 if match.group(2) == "+" else 1
        if direction == 1 and rules.route == "army":
            raise InvalidPositionError(
                f"PPN cell {number}: on the army route every stack moves '+'",
                ErrorCode.BACKWARD_ON_ARMY,
                field=1,
                cell=number,
                text=cell,
            )
        if rules.fire and number == rules.fire_cell:
            raise InvalidPositionError(
                f"PPN cell {number}: a stack cannot stand on the fire",
                ErrorCode.STACK_ON_FIRE,
                field=1,
                cell=number,
                text=cell,
            )
        if rules.capture == "eagle" and len(pieces) > 1:
            raise InvalidPositionError(
                f"PPN cell {number}: with eagle capture there are no stacks of several pieces",
                ErrorCode.TOWER_UNDER_EAGLE,
                field=1,
                cell=number,
                text=cell,
            )
        for p in pieces:
            on_road[p] += 1
        board.append((direction, *pieces))

    home = _per_seat(home_text, seats, 2, "pieces at home")
    kills = _per_seat(kills_text, seats, 3, "kills")
    turn = _seat(turn_text, seats, 4, "seat to move")
    pending = _pending(pending_text, rules, t.throw_values)

    missing = [0] * seats
    for i in range(seats):
        missing[i] = PIECES_PER_SEAT - home[i] - on_road[i]
        if missing[i] < 0:
            raise InvalidPositionError(
                f"PPN: {seat_name(i)} has more than {PIECES_PER_SEAT} pieces at home and on the road",
                ErrorCode.TOO_MANY_PIECES,
                seat=seat_name(i),
                expected=PIECES_PER_SEAT,
                found=home[i] + on_road[i],
            )
    killed = [0] * seats
    gone = [0] * seats
    for team in (0, 1):
        name = "AB"[team]
        enemy_kills = sum(kills[i] for i in range(seats) if i & 1 != team)
        team_missing = sum(missing[i] for i in range(seats) if i & 1 == team)
        if enemy_kills > team_missing:
            raise InvalidPositionError(
                f"PPN: team {name}'s enemies killed {enemy_kills} but only {team_missing} are off",
                ErrorCode.KILLS_EXCEED_LOSSES,
                field=3,
                team=name,
                expected=team_missing,
                found=enemy_kills,
            )
        may_vanish = rules.fire or rules.capture == "eagle"
        if not may_vanish and enemy_kills != team_missing:
            raise InvalidPositionError(
                f"PPN: team {name} has {team_missing} pieces off the road and out of home but "
                f"{enemy_kills} were killed; without fire or eagle every lost piece is a kill",
                ErrorCode.LOSS_WITHOUT_KILL,
                team=name,
                expected=team_missing,
                found=enemy_kills,
            )
        # Which seat lost which way is not in PPN: credit kills in seat order, the rest is gone.
        to_kill = enemy_kills
        for i in range(team, seats, 2):
            killed[i] = min(missing[i], to_kill)
            to_kill -= killed[i]
            gone[i] = missing[i] - killed[i]

    pos = Position._make(t, tuple(board), tuple(home), tuple(kills), tuple(killed), tuple(gone), turn, pending)
    if pending and not pos.is_over and not pos.legal_moves():
        raise InvalidPositionError(
            "PPN: the player to move has pending throws but no legal move (the turn would have passed)",
            ErrorCode.PENDING_WITHOUT_MOVE,
            field=5,
            seat=seat_name(turn),
            text=pending_text,
        )
    return pos


def _seat(name: str, seats: int, field: int, where: str) -> int:
    try:
        index = seat_index(name)
    except InvalidSeatError as exc:
        raise InvalidPositionError(f"PPN {where}: {exc}", exc.code, field=field, seat=name) from exc
    if index >= seats:
        raise InvalidPositionError(
            f"PPN {where}: seat {name} is beyond a {seats // 2} v {seats // 2} game",
            ErrorCode.SEAT_NOT_IN_GAME,
            field=field,
            seat=name,
            expected=seats // 2,
        )
    return index


def _per_seat(text: str, seats: int, field: int, what: str) -> list[int]:
    items = text.split(",")
    expected = [seat_name(i) for i in range(seats)]
    if len(items) != seats:
        raise InvalidPositionError(
            f"PPN {what}: expected {seats} entries ({','.join(expected)}), found {len(items)}",
            ErrorCode.WRONG_ENTRY_COUNT,
            field=field,
            expected=seats,
            found=len(items),
        )
    values = []
    for item, name in zip(items, expected, strict=True):
        seat, _, number = item.partition(":")
        if seat != name or _NUMBER_RE.fullmatch(number) is None:
            raise InvalidPositionError(
                f"PPN {what}: expected {name}:<count> in seat order, found {item!r}",
                ErrorCode.NOT_SEAT_ORDER,
                field=field,
                seat=name,
                text=item,
            )
        values.append(int(number))
    return values


def _pending(text: str, rules: Rules, throw_values: frozenset[int]) -> tuple[int, ...]:
    if text == "-":
        return ()
    if _PENDING_RE.fullmatch(text) is None:
        raise InvalidPositionError(
            f"PPN pending throws {text!r}: values joined by ',' (e.g. 3,2) or '-'",
            ErrorCode.NOT_PENDING_THROWS,
            field=5,
            text=text,
        )
    pending = tuple(int(v) for v in text.split(","))
    if len(pending) > rules.throws_per_turn:
        raise InvalidPositionError(
            f"PPN has {len(pending)} pending throws; a turn has {rules.throws_per_turn}",
            ErrorCode.TOO_MANY_THROWS,
            field=5,
            text=text,
            expected=rules.throws_per_turn,
            found=len(pending),
        )
    if any(v not in throw_values or v == 0 for v in pending):
        raise InvalidPositionError(
            f"PPN pending throws {text!r}: values must be from {sorted(throw_values - {0})}",
            ErrorCode.NOT_A_THROW_VALUE,
            field=5,
            text=text,
        )
    return pending
