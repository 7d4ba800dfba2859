"""Exact chances to win of a solved game (Bell 1 v 1), read from a table made by research/exact_table.py.

Bell 1 v 1 is solved: research/exact_1v1.c computes, for each of its 9,830,420 positions where a seat must
throw, that seat's chance to win when both sides play perfectly. An `ExactTable` holds those chances in 12
bits each (a step of 1/4095: every chance within 0.013 points of the solver's) in the order of a ranking of a
slightly larger set of positions (10,999,026: every board of the 252 stacks the game can build, times the
homes), so that no position is stored, only its value: 16.5 MB in memory, about 11.6 MB compressed.

The bytes come from the caller (the bot ships them as package data); this module only parses them, and it
does no I/O. Format: MAGIC, a little-endian u32 and that many bytes of the rules as JSON, a u16 count of stack
patterns and each as a u8 size and a u16 of bits (bit j set: the j-th piece from the top is the enemy's of the
seat about to throw), a u32 count of entries, then zlib's compression of the low bytes of the entries followed
by their high nibbles two to a byte (even entries in the low nibble).
"""

from __future__ import annotations

import json
import struct
import zlib
from collections.abc import Sequence

from ..errors import ErrorCode, InvalidRequestError
from ..position import TOP, Position
from ..rules import PIECES_PER_SEAT, Rules
from .chance import result_chance
from .search import turn_ends

__all__ = ["MAGIC", "ExactTable", "Ranker"]

MAGIC = b"puluc-exact-1\n"
#: Values are stored as round(chance * SCALE).
SCALE = 4095

#: A cell as the ranking reads it: (pieces in the stack, bits of the enemy's pieces from the top); (0, 0) empty.
Cell = tuple[int, int]


class Ranker:
    """A one-to-one numbering of the boards made of `patterns` on a road of `cells` cells, times the homes.

    A position seen from the seat about to throw ("mine", entering at cell 0): each cell empty or one of the
    patterns, at most PIECES_PER_SEAT pieces of each side on the road, and each side's pieces at home from 0 to
    what is left. Its number counts the positions before it in the order of cell 0's pattern, then cell 1's, ...,
    then my home, then the enemy's: a mixed-radix number whose digits' weights depend on the pieces used so far.
    """

    def __init__(self, patterns: Sequence[Cell], cells: int) -> None:
        self.patterns = [(0, 0), *sorted(set(patterns) - {(0, 0)})]
        self.symbol = {p: i for i, p in enumerate(self.patterns)}
        self.cells = cells
        top = PIECES_PER_SEAT
        counts = [(size - bits.bit_count(), bits.bit_count()) for size, bits in self.patterns]
        self.counts = counts
        # after[k][m][e]: the positions that complete cells k.. when m of mine and e of the enemy's are on cells <k
        after = [[[0] * (top + 1) for _ in range(top + 1)] for _ in range(cells + 1)]
        for m in range(top + 1):
            for e in range(top + 1):
                after[cells][m][e] = (top + 1 - m) * (top + 1 - e)
        for k in range(cells - 1, -1, -1):
            for m in range(top + 1):
                for e in range(top + 1):
                    after[k][m][e] = sum(after[k + 1][m + a][e + b] for a, b in counts if m + a <= top and e + b <= top)
        self.size = after[0][0][0]
        # before[k][m][e][s]: how many positions put a pattern before s on cell k, with cells <k as they are
        self.before: list[list[list[list[int]]]] = []
        for k in range(cells):
            rows = []
            for m in range(top + 1):
                row = []
                for e in range(top + 1):
                    acc = 0
                    firsts = []
                    for a, b in counts:
                        firsts.append(acc)
                        if m + a <= top and e + b <= top:
                            acc += after[k + 1][m + a][e + b]
                    row.append(firsts)
                rows.append(row)
            self.before.append(rows)

    def rank(self, board: Sequence[Cell], home_mine: int, home_enemy: int) -> int:
        """The number of the position: `board` from my entry, each cell (size, enemy bits); KeyError if a
        pattern is unknown, ValueError if the pieces do not add up."""
        m = e = total = 0
        top = PIECES_PER_SEAT
        for k, cell in enumerate(board):
            s = self.symbol[cell]
            total += self.before[k][m][e][s]
            a, b = self.counts[s]
            m += a
            e += b
            if m > top or e > top:
                raise ValueError("more than five pieces of a side on the road")
        if not (0 <= home_mine <= top - m and 0 <= home_enemy <= top - e):
            raise ValueError("the pieces at home and on the road do not add up")
        return total + home_mine * (top + 1 - e) + home_enemy


class ExactTable:
    """Each position's exact chance to win for the seat about to throw, under one set of rules.

    Build it from the bytes of a table file (`from_bytes`); `chance` gives team A's chance in any position of
    those rules, `seat_chance` the thrower's chance before a throw.
    """

    __slots__ = ("_high", "_low", "ranker", "rules")

    def __init__(self, rules: Rules, ranker: Ranker, low: bytes, high: bytes) -> None:
        if (rules.team_size, rules.throws_per_turn, rules.route, rules.capture) != (1, 1, "army", "stack") or (
            rules.fire or rules.scorpion
        ):
            # Elsewhere a position needs more than its board and homes: directions, or kills (the score decides).
            raise ValueError("exact tables hold 1 v 1 Bell games: army route, stack capture, one throw a turn")
        if len(low) != ranker.size or len(high) != (ranker.size + 1) // 2:
            raise ValueError(f"an exact table of {ranker.size} entries needs that many values")
        self.rules = rules
        self.ranker = ranker
        self._low = low
        self._high = high

    # -- the file format ----------------------------------------------------------------------------------

    @classmethod
    def from_values(cls, rules: Rules, ranker: Ranker, values: Sequence[float]) -> ExactTable:
        """A table of `values` (the thrower's chance, by rank; for research/exact_table.py)."""
        codes = [round(min(1.0, max(0.0, v)) * SCALE) for v in values]
        low = bytes(c & 255 for c in codes)
        high = bytearray((len(codes) + 1) // 2)
        for i, c in enumerate(codes):
            high[i >> 1] |= (c >> 8) << (4 * (i & 1))
        return cls(rules, ranker, low, bytes(high))

    def to_bytes(self) -> bytes:
        """The table as a file's bytes (see the module docstring)."""
        rules = json.dumps(self.rules.to_dict(), sort_keys=True).encode()
        head = [MAGIC, struct.pack("<I", len(rules)), rules, struct.pack("<H", len(self.ranker.patterns) - 1)]
        head += [struct.pack("<BH", size, bits) for size, bits in self.ranker.patterns[1:]]
        head.append(struct.pack("<I", self.ranker.size))
        return b"".join(head) + zlib.compress(self._low + self._high, 9)

    @classmethod
    def from_bytes(cls, data: bytes) -> ExactTable:
        """Parse a table file's bytes; ValueError when they are not one (or not whole)."""
        if not data.startswith(MAGIC):
            raise ValueError("not a puluc exact table")
        at = len(MAGIC)
        (length,) = struct.unpack_from("<I", data, at)
        rules = Rules.from_dict(json.loads(data[at + 4 : at + 4 + length]))
        at += 4 + length
        (count,) = struct.unpack_from("<H", data, at)
        at += 2
        patterns = [struct.unpack_from("<BH", data, at + 3 * i) for i in range(count)]
        at += 3 * count
        (size,) = struct.unpack_from("<I", data, at)
        ranker = Ranker(patterns, rules.road_length)
        if ranker.size != size:
            raise ValueError(f"the table's {size} entries do not match its patterns' {ranker.size}")
        try:
            values = zlib.decompress(data[at + 4 :])
        except zlib.error as exc:
            raise ValueError(f"the table's values are damaged: {exc}") from exc
        return cls(rules, ranker, values[:size], values[size:])

    # -- reading ------------------------------------------------------------------------------------------

    def covers(self, rules: Rules) -> bool:
        """Whether this table holds the exact chances of games under `rules`."""
        return rules == self.rules

    def _value(self, index: int) -> float:
        high = self._high[index >> 1] >> (4 * (index & 1)) & 15
        return (high << 8 | self._low[index]) / SCALE

    def seat_chance(self, position: Position) -> float:
        """The exact chance that the seat of `position`, which must throw, wins with perfect play."""
        if position.rules != self.rules:
            raise InvalidRequestError(
                "the position is not of this exact table's rules",
                ErrorCode.UNKNOWN_CHOICE,
                field="rules",
                value=position.rules.to_dict(),
            )
        me = position.turn_index
        board = position.raw_board if me == 0 else position.raw_board[::-1]
        cells: list[Cell] = []
        for stack in board:
            if stack is None:
                cells.append((0, 0))
                continue
            bits = 0
            for j, seat in enumerate(stack[TOP:]):
                if seat != me:
                    bits |= 1 << j
            cells.append((len(stack) - 1, bits))
        home = position.raw_home
        try:
            index = self.ranker.rank(cells, home[me], home[1 - me])
        except (KeyError, ValueError) as exc:
            raise InvalidRequestError(
                f"no exact value for this position: {position.to_ppn()}",
                ErrorCode.UNKNOWN_CHOICE,
                field="position",
                value=position.to_ppn(),
            ) from exc
        return self._value(index)

    def end_chance(self, end: Position, team: int) -> float:
        """`team`'s exact chance after its turn ended in `end` (the other seat throws next, or it is over)."""
        if end.is_over:
            chance = result_chance(end)
            return chance if team == 0 else 1.0 - chance
        return 1.0 - self.seat_chance(end)

    def chance(self, position: Position) -> float:
        """Team A's exact chance to win from `position`: a finished game, before a throw, or throws in hand
        (the best end of the turn for its seat).

        >>> from puluc import Position, Rules
        >>> rules = Rules.preset("bell", road_length=5)
        >>> ranker = Ranker([(1, 0), (1, 1)], 5)  # lone pieces only: the thrower's (no enemy bit) or the enemy's
        >>> table = ExactTable.from_values(rules, ranker, [0.25] * ranker.size)  # every thrower wins a quarter
        >>> round(table.chance(Position.start(rules, first="B")), 3)  # B to throw, so A's chance is 0.75
        0.75
        """
        if position.is_over:
            return result_chance(position)
        team = position.turn_index & 1
        if position.must_throw:
            mine = self.seat_chance(position)
        else:
            mine = max(self.end_chance(end, team) for end in turn_ends(position))
        return mine if team == 0 else 1.0 - mine
