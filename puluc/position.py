"""Positions and moves: the state of a game between two events, and how a move changes it (RULES.md §3-§7).

A `Position` is immutable; `throw` and `play` return new positions. Internally the board is a tuple of
cells, each None or a raw stack tuple `(direction, top seat, ..., bottom seat)` with direction OUTBOUND (`+`)
or INBOUND (`-`) and seats as turn-order indices (A1 = 0, B1 = 1, A2 = 2, ...; team = index & 1). Moves are
looked up in precomputed route tables (`routes.py`) as `MovePlan`s. Text formats (PPN, move notation) live in
`notation.py`. The AI reads the raw state through the `raw_*` members, never the private fields.
This module does no I/O and never draws.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from .errors import (
    ErrorCode,
    IllegalMoveError,
    IllegalThrowError,
    InvalidCellError,
    InvalidSeatError,
    InvalidThrowError,
)
from .routes import ARRIVE, CULIN_ARRIVE, FROM_HOME, LAND, MovePlan, RouteTables, tables_for
from .rules import PIECES_PER_SEAT, Rules, seat_index, seat_name
from .sticks import Throw

#: A stack as the engine keeps it: (direction, top seat, ..., bottom seat), seats as turn-order indices.
RawStack = tuple[int, ...]
RawBoard = tuple[RawStack | None, ...]
#: Where a raw stack keeps its top piece's direction and its top seat (the owner).
DIRECTION, TOP = 0, 1


class Move(NamedTuple):
    """Use pending throw `throw` to enter (`source` 0 = home) or move the stack on absolute cell `source`.

    >>> Move.parse("3:7")
    Move(throw=3, source=7, backward=False)
    >>> Move.parse("2:H").enters
    True
    >>> str(Move(2, 7, backward=True))
    '2:7b'
    """

    throw: int
    source: int
    backward: bool = False

    @property
    def enters(self) -> bool:
        return self.source == 0

    def __str__(self) -> str:
        return f"{self.throw}:{'H' if self.source == 0 else self.source}{'b' if self.backward else ''}"

    @classmethod
    def parse(cls, text: str) -> Move:
        """Parse move notation `<throw>:<source>[b]`, e.g. `2:H`, `3:7`, `2:7b`; `str(move)` writes it back.

        >>> str(Move.parse("2:7b"))
        '2:7b'
        >>> Move.parse("hello")
        Traceback (most recent call last):
        ...
        puluc.errors.InvalidMoveError: 'hello' is not a move: write <throw>:<cell or H>[b], e.g. 2:H, 3:7 or 2:7b
        """
        from .notation import parse_move

        return parse_move(text)


def _intern_moves() -> tuple[tuple[tuple[Move, ...], ...], ...]:
    return tuple(tuple(tuple(Move(n, src, bool(back)) for src in range(42)) for n in range(6)) for back in (0, 1))


#: MOVES[backward][throw][source]: one shared Move object for each possible move.
MOVES = _intern_moves()


class Stack(NamedTuple):
    """A stack as players see it: seat names top first, and the top piece's direction ('+' or '-')."""

    pieces: tuple[str, ...]
    direction: str

    @property
    def owner(self) -> str:
        return self.pieces[0]

    @property
    def team(self) -> str:
        return self.pieces[0][0]

    @property
    def captives(self) -> tuple[str, ...]:
        """Enemy pieces held under the top."""
        return tuple(p for p in self.pieces[1:] if p[0] != self.team)

    @property
    def compatriots(self) -> tuple[str, ...]:
        """Freed pieces of the owner's team under the top (they go home on arrival)."""
        return tuple(p for p in self.pieces[1:] if p[0] == self.team)


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game: `winner` is "A", "B" or None for a draw; scores per team (§7)."""

    winner: str | None
    scores: dict[str, int]


@dataclass(frozen=True, slots=True)
class MoveEffect:
    """What a move does, in the players' words: for button labels, the board's last-move marker, logs."""

    move: Move
    seat: str
    source: int | None  #: absolute cell, None when entering from home
    dest: int | None  #: absolute landing cell, None when the stack left the road by arriving
    captured: tuple[str, ...]  #: pieces of the stack landed on (top first)
    arrives: bool
    kills: int  #: enemy pieces killed by this move (arrival, or eagle capture)
    freed: int  #: compatriots (own-team pieces under the top) sent home by an arrival
    burns: bool  #: the moving stack ended on the fire and is gone
    pieces: int  #: how many pieces moved

    @property
    def captures(self) -> bool:
        return bool(self.captured)


class LastMove(NamedTuple):
    """The move that led to a position, with what `MoveEffect` needs to describe it afterwards."""

    move: Move
    plan: MovePlan
    moving: RawStack  #: the moving stack as it left (an entering piece: its direction and seat)
    target: RawStack | None  #: the stack it landed on, None on an empty cell or when it arrived


class Position:
    """One moment of a game. Build with `Position.start` or `Position.from_ppn`; never mutate.

    The `raw_*` members and `plans()` are puluc.ai's window on the internal state, for its hot loops: they
    return the engine's own tuples (no copies), which callers must only read. Everything else of RULES.md
    §10 speaks in seat names and cell numbers.
    """

    __slots__ = (
        "_board",
        "_gone",
        "_home",
        "_killed",
        "_kills",
        "_last",
        "_over",
        "_pending",
        "_plans",
        "_t",
        "_turn",
    )

    _t: RouteTables
    _board: RawBoard
    _home: tuple[int, ...]
    _kills: tuple[int, ...]  # enemy pieces killed by each seat
    _killed: tuple[int, ...]  # each seat's own pieces that were killed
    _gone: tuple[int, ...]  # each seat's own pieces burned or spent as eagles
    _turn: int
    _pending: tuple[int, ...]  # () is "-": the player must throw (or, once over, nothing is left)
    _plans: dict[Move, MovePlan] | None
    _over: bool | None  # cached: is some team out (None until asked)
    _last: LastMove | None

    # -- construction -------------------------------------------------------------------------------

    @classmethod
    def start(cls, rules: Rules, first: str = "A") -> Position:
        """Every piece at home; `first` ("A" or "B") names the team whose first seat moves first.

        >>> Position.start(Rules.preset("bell"), first="B").to_move
        'B1'
        """
        if first not in ("A", "B"):
            raise InvalidSeatError(f"first must be 'A' or 'B', not {first!r}", ErrorCode.NOT_A_TEAM, seat=first)
        t = tables_for(rules)
        zeros = (0,) * t.seats
        return cls._make(
            t, (None,) * t.length, (PIECES_PER_SEAT,) * t.seats, zeros, zeros, zeros, 0 if first == "A" else 1, ()
        )

    def __reduce__(self) -> tuple[object, ...]:
        # Pickled (to the bot's worker processes) without its route tables, several KB that every process
        # builds once per rules (`tables_for` is cached): a third of the size, half the time.
        return (_restore, (self._t.rules, self._board, self._home, self._kills, self._killed, self._gone,
                           self._turn, self._pending, self._last))

    @classmethod
    def _make(
        cls,
        t: RouteTables,
        board: RawBoard,
        home: tuple[int, ...],
        kills: tuple[int, ...],
        killed: tuple[int, ...],
        gone: tuple[int, ...],
        turn: int,
        pending: tuple[int, ...],
        last: LastMove | None = None,
    ) -> Position:
        pos = object.__new__(cls)
        pos._t = t
        pos._board = board
        pos._home = home
        pos._kills = kills
        pos._killed = killed
        pos._gone = gone
        pos._turn = turn
        pos._pending = pending
        pos._plans = None
        pos._last = last
        pos._over = None
        return pos

    @classmethod
    def from_ppn(cls, rules: Rules, text: str) -> Position:
        """Parse Puluc Position Notation (RULES.md §10); raises InvalidPositionError on anything malformed.

        `to_ppn` writes back the very same text:

        >>> text = "./A1+/././././././. A1:4,B1:5 A1:0,B1:0 B1 -"
        >>> Position.from_ppn(Rules.preset("bell"), text).to_ppn() == text
        True
        >>> Position.from_ppn(Rules.preset("bell"), "././. A1:5,B1:5 A1:0,B1:0 A1 -")
        Traceback (most recent call last):
        ...
        puluc.errors.InvalidPositionError: PPN board has 3 cells; these rules have a road of 9
        """
        from .notation import parse_ppn

        return parse_ppn(rules, text)

    def to_ppn(self) -> str:
        from .notation import format_ppn

        return format_ppn(self)

    # -- reading the position -----------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        return self._t.rules

    @property
    def road_length(self) -> int:
        return self._t.length

    @property
    def to_move(self) -> str:
        """The seat whose turn it is (after the game ends: the seat that made the final move)."""
        return seat_name(self._turn)

    @property
    def team_to_move(self) -> str:
        return "AB"[self._turn & 1]

    @property
    def pending(self) -> tuple[int, ...]:
        """Pending throws in throw order; empty when the player has not thrown yet."""
        return self._pending

    @property
    def must_throw(self) -> bool:
        return not self._pending and not self.is_over

    @property
    def is_over(self) -> bool:
        over = self._over
        if over is None:
            over = self._over = _any_team_out(self._board, self._home)
        return over

    def stack_at(self, cell: int) -> Stack | None:
        """The stack on absolute cell `cell` (1..L), or None."""
        if not 1 <= cell <= self._t.length:
            raise InvalidCellError(
                f"cell must be 1 to {self._t.length}, not {cell}",
                ErrorCode.CELL_OUT_OF_RANGE,
                cell=cell,
                low=1,
                high=self._t.length,
            )
        return _public_stack(self._board[cell - 1])

    def stacks(self) -> list[tuple[int, Stack]]:
        """Every stack on the road as (absolute cell, stack), from cell 1 to L."""
        return [(i + 1, _public_stack(s)) for i, s in enumerate(self._board) if s is not None]  # type: ignore[misc]

    def home(self, seat: str) -> int:
        return self._home[self._seat(seat)]

    def kills(self, seat: str) -> int:
        """Enemy pieces this seat has killed."""
        return self._kills[self._seat(seat)]

    def killed(self, seat: str) -> int:
        """This seat's own pieces that were killed."""
        return self._killed[self._seat(seat)]

    def gone(self, seat: str) -> int:
        """This seat's own pieces burned by fire or spent as eagles."""
        return self._gone[self._seat(seat)]

    def on_road(self, seat: str) -> int:
        """This seat's pieces on the road, anywhere in a stack."""
        i = self._seat(seat)
        return sum(s.count(i) - (s[0] == i) for s in self._board if s is not None)

    def _seat(self, seat: str) -> int:
        i = seat_index(seat)
        if i >= self._t.seats:
            size = self._t.rules.team_size
            raise InvalidSeatError(
                f"seat {seat} is not in a {size} v {size} game", ErrorCode.SEAT_NOT_IN_GAME, seat=seat, team_size=size
            )
        return i

    def scores(self) -> dict[str, int]:
        """Each team's score now (§7): enemy pieces killed + enemy pieces held under its stacks."""
        scores = [0, 0]
        for i, k in enumerate(self._kills):
            scores[i & 1] += k
        for s in self._board:
            if s is not None:
                team = s[1] & 1
                scores[team] += sum(1 for seat in s[2:] if seat & 1 != team)
        return {"A": scores[0], "B": scores[1]}

    def outcome(self) -> Outcome | None:
        """None while the game runs; else the winner and the scores (§7).

        B is out: four of its pieces killed, the fifth held captive under A1.

        >>> over = Position.from_ppn(Rules.preset("bell"), "././././A1B1+/./././. A1:4,B1:0 A1:4,B1:0 B1 -")
        >>> over.outcome()
        Outcome(winner='A', scores={'A': 5, 'B': 0})
        >>> over.legal_moves()
        []
        """
        if not self.is_over:
            return None
        scores = self.scores()
        winner = None if scores["A"] == scores["B"] else ("A" if scores["A"] > scores["B"] else "B")
        return Outcome(winner, scores)

    # -- the AI's window on the internal state (read-only; see the class docstring) ---------------------

    @property
    def tables(self) -> RouteTables:
        """The route tables of this position's rules."""
        return self._t

    @property
    def raw_board(self) -> RawBoard:
        """Cells by index (cell 1 is index 0): None or a raw stack (direction, top seat, ..., bottom seat)."""
        return self._board

    @property
    def raw_home(self) -> tuple[int, ...]:
        """Pieces at home per seat index (turn order)."""
        return self._home

    @property
    def raw_kills(self) -> tuple[int, ...]:
        """Enemy pieces killed per seat index."""
        return self._kills

    @property
    def turn_index(self) -> int:
        """The seat to move as a turn-order index (A1 = 0, B1 = 1, ...); its team is `turn_index & 1`."""
        return self._turn

    def plans(self) -> dict[Move, MovePlan]:
        """Every legal move with its plan (the engine's cached dict: read it, never change it)."""
        return self._legal()

    def raw_key(self) -> tuple[object, ...]:
        """The state without the rules, for tables of positions under one set of rules (equal keys, equal
        positions: what `__eq__` compares)."""
        return (self._board, self._home, self._kills, self._turn, self._pending)

    # -- moves --------------------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every legal move with any pending throw, each once; empty when the player must throw or it's over.

        >>> pos = Position.from_ppn(Rules.preset("bell"), "./A1+/././././././. A1:4,B1:5 A1:0,B1:0 A1 3")
        >>> [str(move) for move in pos.legal_moves()]
        ['3:H', '3:2']
        """
        return list(self._legal())

    def _legal(self) -> dict[Move, MovePlan]:
        plans = self._plans
        if plans is None:
            plans = self._plans = self._generate() if self._pending and not self.is_over else {}
        return plans

    def _generate(self) -> dict[Move, MovePlan]:
        """The plan of each legal move, read from the route tables (a move may end where it started: §11.1)."""
        t = self._t
        board = self._board
        turn = self._turn
        team = turn & 1
        plans: dict[Move, MovePlan] = {}
        mine = []  # a plain loop: about twice as fast as a list comprehension on Python 3.11
        for i, s in enumerate(board):
            if s is not None and s[TOP] == turn:
                mine.append(i)
        can_enter = self._home[turn] > 0 and not (t.one_active and mine)
        enter, enter_capture = t.enter[team], t.enter_capture[team]
        fwd, fwd_capture = t.fwd[team], t.fwd_capture[team]
        back = t.back[team] if t.scorpion else None
        done = 0
        for n in self._pending:
            if done & (1 << n):
                continue
            done |= 1 << n
            if can_enter:
                plan = enter[n]
                target = board[plan.dest]  # type: ignore[union-attr]
                if target is None:
                    plans[MOVES[0][n][0]] = plan  # type: ignore[assignment]
                elif target[TOP] & 1 != team:
                    plans[MOVES[0][n][0]] = enter_capture[n]  # type: ignore[assignment]
            for i in mine:
                d = board[i][DIRECTION]  # type: ignore[index]
                plan = fwd[d][i][n]
                if plan is not None:
                    dest = plan.dest
                    if plan.kind == ARRIVE:
                        plans[MOVES[0][n][i + 1]] = plan
                    else:
                        target = board[dest]
                        if target is None or dest == i:
                            plans[MOVES[0][n][i + 1]] = plan
                        elif target[TOP] & 1 != team:
                            plans[MOVES[0][n][i + 1]] = fwd_capture[d][i][n]  # type: ignore[assignment]
                if back is not None:
                    plan = back[d][i][n]
                    if plan is not None:
                        dest = plan.dest
                        target = board[dest]
                        if target is not None and dest != i and target[TOP] & 1 != team:
                            plans[MOVES[1][n][i + 1]] = plan
        return plans

    def throw(self, values: list[int] | tuple[int, ...] | list[Throw]) -> Position:
        """The player to move throws: exactly `throws_per_turn` values from the sticks table (§6, §11.11).

        Zeros are dropped; when no pending throw allows a move the turn passes at once (auto-pass).

        >>> pos = Position.start(Rules.preset("bell")).throw([4])
        >>> pos.pending, pos.to_move
        ((4,), 'A1')
        >>> pos.throw([2])
        Traceback (most recent call last):
        ...
        puluc.errors.IllegalThrowError: A1 has already thrown (4): play a move
        """
        t = self._t
        if self.is_over:
            raise IllegalThrowError("the game is over: no more throws", ErrorCode.GAME_OVER, seat=self.to_move)
        if self._pending:
            raise IllegalThrowError(
                f"{self.to_move} has already thrown ({_fmt_pending(self._pending)}): play a move",
                ErrorCode.ALREADY_THROWN,
                seat=self.to_move,
                pending=self._pending,
            )
        vals = [v.value if isinstance(v, Throw) else v for v in values]
        if len(vals) != t.throws_per_turn:
            raise IllegalThrowError(
                f"expected {t.throws_per_turn} throw value(s) per turn, got {len(vals)}",
                ErrorCode.WRONG_THROW_COUNT,
                seat=self.to_move,
                expected=t.throws_per_turn,
                found=len(vals),
            )
        for v in vals:
            if type(v) is not int or v not in t.throw_values:
                allowed = tuple(sorted(t.throw_values))
                raise InvalidThrowError(
                    f"{v!r} is not a value of the {t.rules.sticks} sticks {list(allowed)}",
                    ErrorCode.NOT_A_THROW_VALUE,
                    value=v,
                    sticks=t.rules.sticks,
                    allowed=allowed,
                )
        pending = tuple(v for v in vals if v)
        # The last move stays visible through the throw (and an auto-pass): it is what the board shows.
        pos = Position._make(
            t, self._board, self._home, self._kills, self._killed, self._gone, self._turn, pending, self._last
        )
        pos._over = False  # a throw never ends the game
        if pending and pos._legal():
            return pos
        return pos._pass_turn()

    def _pass_turn(self) -> Position:
        pos = Position._make(
            self._t,
            self._board,
            self._home,
            self._kills,
            self._killed,
            self._gone,
            (self._turn + 1) % self._t.seats,
            (),
            self._last,
        )
        pos._over = self._over
        return pos

    def play(self, move: Move) -> Position:
        """The position after `move`; raises IllegalMoveError (a ValueError) when it is not legal here.
        The position itself is unchanged.

        >>> pos = Position.start(Rules.preset("bell")).throw([2])
        >>> pos.play(Move.parse("2:H")).stack_at(2)
        Stack(pieces=('A1',), direction='+')
        >>> pos.play(Move.parse("3:H"))
        Traceback (most recent call last):
        ...
        puluc.errors.IllegalMoveError: 3:H is not legal: no pending throw of 3 (pending: 2)
        """
        plan = self._legal().get(move)
        if plan is None:
            raise self._why_illegal(move)
        t = self._t
        turn = self._turn
        src, kind, dest, d = plan
        board = list(self._board)
        home = self._home
        kills = self._kills
        killed = self._killed
        gone = self._gone
        if src == FROM_HOME:
            home = _bump(home, turn, -1)
            moving: RawStack = (d, turn)
        else:
            moving = board[src]  # type: ignore[assignment]
            board[src] = None
        landing = moving  # what lands on dest: the whole stack, or culin's top piece after its crossing
        target = None
        if kind != LAND:
            # Arrival: enemies under the top die (credited to the owner); the owner's team goes home.
            # On culin the top piece itself stays on the road and lands after the crossing.
            team = turn & 1
            home_l, kills_l, killed_l = list(home), list(kills), list(killed)
            for seat in moving[TOP:] if kind == ARRIVE else moving[TOP + 1 :]:
                if seat & 1 == team:
                    home_l[seat] += 1
                else:
                    killed_l[seat] += 1
                    kills_l[turn] += 1
            home, kills, killed = tuple(home_l), tuple(kills_l), tuple(killed_l)
            if kind == CULIN_ARRIVE:
                landing = (d, moving[TOP])
        if kind != ARRIVE:
            target = board[dest]
            if dest == t.fire:
                gone_l = list(gone)
                for seat in landing[TOP:]:
                    gone_l[seat] += 1
                gone = tuple(gone_l)
            elif target is None:
                board[dest] = (d,) + landing[TOP:] if landing[DIRECTION] != d else landing
            elif t.eagle:
                # The eagle kills the lone target and is itself spent (or flies home, as a house rule).
                killed = _bump(killed, target[TOP], 1)
                kills = _bump(kills, turn, 1)
                board[dest] = None
                if t.eagle_returns:
                    home = _bump(home, turn, 1)
                else:
                    gone = _bump(gone, turn, 1)
            else:
                board[dest] = (d,) + landing[TOP:] + target[TOP:]
        new_board = tuple(board)
        last = LastMove(move, plan, moving, target)
        over = _any_team_out(new_board, home)
        if len(self._pending) == 1 and not over:
            # The common case: the turn's only throw is used, so go straight to the next seat.
            pos = Position._make(t, new_board, home, kills, killed, gone, (turn + 1) % t.seats, (), last)
            pos._over = False
            return pos
        pending = list(self._pending)
        pending.remove(move.throw)
        pos = Position._make(t, new_board, home, kills, killed, gone, turn, tuple(pending), last)
        pos._over = over
        if over or pos._legal():
            return pos
        return pos._pass_turn()

    def _why_illegal(self, move: object) -> IllegalMoveError:
        seat, pending = self.to_move, self._pending
        if not isinstance(move, tuple) or len(move) != 3:
            message, code = f"{move!r} is not a move", ErrorCode.NOT_A_MOVE
            return IllegalMoveError(message, code, move=None, seat=seat, pending=pending)
        played = Move(*move)
        if self.is_over:
            message, code = f"{played} is not legal: the game is over", ErrorCode.GAME_OVER
        elif not pending:
            message, code = f"{played} is not legal: {seat} must throw first", ErrorCode.MUST_THROW_FIRST
        elif played.throw not in pending:
            message = f"{played} is not legal: no pending throw of {played.throw} (pending: {_fmt_pending(pending)})"
            code = ErrorCode.NO_SUCH_THROW
        else:
            message, code = f"{played} is not legal for {seat} here", ErrorCode.NOT_LEGAL_HERE
        return IllegalMoveError(message, code, move=played, seat=seat, pending=pending)

    # -- describing moves ---------------------------------------------------------------------------

    def move_effect(self, move: Move) -> MoveEffect:
        """What `move` would do, for labels; raises IllegalMoveError when it is not legal."""
        plan = self._legal().get(move)
        if plan is None:
            raise self._why_illegal(move)
        moving = (plan.direction, self._turn) if plan.source == FROM_HOME else self._board[plan.source]
        target = None if plan.kind == ARRIVE else self._board[plan.dest]
        return self._effect(LastMove(move, plan, moving, target))  # type: ignore[arg-type]

    @property
    def last_move(self) -> MoveEffect | None:
        """The last move played before this position (kept through throws and passes; not in PPN)."""
        if self._last is None:
            return None
        return self._effect(self._last)

    def _effect(self, last: LastMove) -> MoveEffect:
        t = self._t
        move, plan, moving, target = last
        src, kind, dest = plan.source, plan.kind, plan.dest
        owner = moving[TOP]
        team = owner & 1
        below = moving[TOP + 1 :]
        arrives = kind != LAND
        kills = sum(1 for s in below if s & 1 != team) if arrives else 0
        freed = sum(1 for s in below if s & 1 == team) if arrives else 0
        burns = kind != ARRIVE and dest == t.fire
        captured: tuple[str, ...] = ()
        if target is not None and not burns and (dest != src):
            captured = tuple(seat_name(s) for s in target[TOP:])
            if t.eagle:
                kills += 1
        return MoveEffect(
            move=move,
            seat=seat_name(owner),
            source=None if src == FROM_HOME else src + 1,
            dest=None if kind == ARRIVE else dest + 1,
            captured=captured,
            arrives=arrives,
            kills=kills,
            freed=freed,
            burns=burns,
            pieces=len(moving) - 1,
        )

    # -- value semantics ----------------------------------------------------------------------------

    def _key(self) -> tuple[object, ...]:
        # Which seat lost a piece by death or by fire is a tally for display, not game state: PPN does
        # not carry it, and equal PPN means equal positions.
        return (self._t.rules, self._board, self._home, self._kills, self._turn, self._pending)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key()[1:])

    def __repr__(self) -> str:
        return f"Position({self.to_ppn()!r})"


def _any_team_out(board: RawBoard, home: tuple[int, ...]) -> bool:
    """Whether some team is out; after every move, so it stops as soon as both teams are seen in the game."""
    seen = 0  # bit 0: team A has a piece at home or on top; bit 1: team B
    team = 1
    for pieces in home:  # seats alternate teams: A1, B1, A2, B2, ...
        team ^= 1
        if pieces:
            seen |= 1 << team
    if seen == 3:
        return False
    for s in board:
        if s is not None:
            seen |= 1 << (s[TOP] & 1)
            if seen == 3:
                return False
    return True


def _bump(values: tuple[int, ...], index: int, delta: int) -> tuple[int, ...]:
    return values[:index] + (values[index] + delta,) + values[index + 1 :]


def _public_stack(raw: RawStack | None) -> Stack | None:
    if raw is None:
        return None
    return Stack(tuple(seat_name(s) for s in raw[1:]), "+-"[raw[0]])


def _fmt_pending(pending: tuple[int, ...]) -> str:
    return ",".join(map(str, pending)) or "-"


def _restore(rules: Rules, board: RawBoard, home: tuple[int, ...], kills: tuple[int, ...],
             killed: tuple[int, ...], gone: tuple[int, ...], turn: int, pending: tuple[int, ...],
             last: LastMove | None) -> Position:
    """A pickled position, rebuilt on the (cached) route tables of its rules."""
    return Position._make(tables_for(rules), board, home, kills, killed, gone, turn, pending, last)
