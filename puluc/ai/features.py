"""The hard player's evaluation: a logistic model of the chance to win, over a few features of a position.

`win_logit` reads a position where a seat must throw (the search's horizon) and returns the log-odds that
team A wins. The features are differences between the teams (A minus B) of: kills, captives held and how
far their stacks have come, pieces at home, stacks on top and their progress, freed compatriots, whether
the team is down to one or two active pieces, the seats that still play, and the exact threats of the next
two turns: for the seat about to throw and the seat after it, the expected size of its best capture and the
expected number of enemy pieces in reach (every throw weighted by its probability, entering pieces included;
with two throws a turn, also a stack moved by one throw and then the other).

The weights are a logistic regression fitted to the exact chance to win (the solution of Bell) of
717,361 positions, taken when a seat must throw, from 20,000 Bell games between medium and perfect players
with 0 to 40% random moves, by Newton's method on the cross-entropy with a small ridge:
`python research/exact_1v1.py --variant bell --fit 20000` reproduces them. On 180,807 held-out positions the
predicted chance is off by 3.5 points on average (the earlier fit to game results: 3.9), and the search's
look-ahead brings a hard decision within about 0.06 points of the best move on average. The features are
route-agnostic (progress comes from the route tables), so these weights serve the 1 v 1 variants on the army,
ants and return routes; team games, eagles and the culin route have their own, learned by self-play
(TEAM_WIN_WEIGHTS, EAGLE_WIN_WEIGHTS, CULIN_WIN_WEIGHTS). This module keeps no mutable state and never moves
pieces.
"""

from __future__ import annotations

from ..position import DIRECTION, TOP, Position
from ..routes import LAND, MovePlan
from ..rules import Rules
from .evaluate import Model, capture_targets

#: Feature names, in the order of WIN_WEIGHTS (each is team A's value minus team B's).
FEATURES = (
    "kills",
    "captives",
    "captive_progress",
    "home",
    "tops",
    "top_progress",
    "compatriots",
    "one_active",
    "two_active",
    "mover_gain",
    "next_gain",
    "mover_reach",
    "next_reach",
    "mover_reach_towers",
    "next_reach_towers",
    "alive_seats",
)
#: Each feature's index in FEATURES (and in the weights).
(
    KILLS,
    CAPTIVES,
    CAPTIVE_PROGRESS,
    HOME,
    TOPS,
    TOP_PROGRESS,
    COMPATRIOTS,
    ONE_ACTIVE,
    TWO_ACTIVE,
    MOVER_GAIN,
    NEXT_GAIN,
    MOVER_REACH,
    NEXT_REACH,
    MOVER_REACH_TOWERS,
    NEXT_REACH_TOWERS,
    ALIVE_SEATS,
) = range(len(FEATURES))
#: Log-odds of a win per unit of each feature (see the module docstring for the fit).
WIN_WEIGHTS = (
    0.636,
    0.041,
    0.712,
    0.271,
    0.424,
    -0.210,
    -0.018,
    -0.655,
    -0.197,
    0.339,
    -0.108,
    0.139,
    0.201,
    -0.025,
    -0.042,
    0.0,
)
#: The same for games with more than one player a side, where no exact solution exists: learned by self-play on
#: traditional ants 2 v 2 (every seat picks the end of its turn these weights rate best, 10% of turns at random),
#: each round refitted to the TD(0.7) returns of 20,000 games: `python research/fit_evaluation.py --variant
#: ants-2v2 --games 20000 --rounds 2` reproduces them. Held-out log-loss against the games' results 0.5166, the
#: earlier fit to results of medium's games 0.5177, and a third round no better: the game's luck, not the fit,
#: limits how well any weights of these features predict a result (a coin would score 0.693).
TEAM_WIN_WEIGHTS = (
    0.347,
    -0.077,
    0.468,
    0.121,
    0.068,
    0.014,
    0.081,
    -0.892,
    -0.301,
    0.202,
    0.080,
    0.153,
    0.063,
    -0.022,
    -0.040,
    0.061,
)


#: The same for 1 v 1 with eagle capture, where a capture kills the target and spends the eagle (or sends it
#: home), there are no captives, and the score, not who runs out, decides: learned by self-play as the team
#: weights, over the eight eagle variants in turn (with and without fire, scorpion and the eagle's return), six
#: rounds of 20,000 games from the Bell weights: `python research/fit_evaluation.py --variant eagle
#: eagle+returns eagle+fire eagle+returns+fire eagle+scorpion eagle+returns+scorpion eagle+fire+scorpion
#: eagle+returns+fire+scorpion --rounds 3`, then the same with `--seed 1` from its weights. Each round lowered
#: the held-out log-loss a little: about 0.554 with the Bell weights, 0.545 after three rounds, 0.544 after six.
EAGLE_WIN_WEIGHTS = (
    0.939,
    0.0,
    0.0,
    0.0,
    0.088,
    -0.004,
    0.0,
    -0.444,
    -0.175,
    0.426,
    -0.054,
    0.251,
    0.153,
    0.0,
    0.0,
    0.0,
)

#: The same for 1 v 1 on the culin route (fire or not), where a lone piece circles for ever, so only a stack that
#: captured has progress (its walk back to arrive), and a captive is worth little until its stack nears the
#: arrival (the Bell weights, fitted where progress always counts, valued a culin captive at almost nothing and
#: took a lone piece before a tower holding their own): learned by self-play as the team weights, three rounds of
#: 20,000 games from the Bell weights: `python research/fit_evaluation.py --variant culin --rounds 3`. Held-out
#: log-loss 0.574 with the Bell weights, 0.564 after three rounds. Hard against medium (benchmarks/ai.py,
#: paired games): culin 56.0% of 1,000 (53.2-58.8; with the Bell weights and no walk-back progress 50.7% of 700),
#: culin+fire 63.7% of 400 (59.4-68.1; before 60.6%, 55.8-65.4, on the same seeds).
CULIN_WIN_WEIGHTS = (
    0.674,
    0.055,
    0.666,
    0.270,
    0.280,
    -0.042,
    0.179,
    -0.324,
    -0.077,
    0.382,
    -0.017,
    0.126,
    0.292,
    0.017,
    -0.137,
    0.000,
)
#: The same for team games on the culin route: learned by self-play as the team weights, two rounds of 20,000
#: games of traditional culin 2 v 2 from TEAM_WIN_WEIGHTS (`python research/fit_evaluation.py --variant
#: culin-2v2`). They moved little (held-out log-loss 0.5246 with the team weights, 0.5204 after two rounds), and
#: play alike: 180 of 200 paired games against medium ended as with the team weights. There the sticks and the
#: one active piece leave few choices: hard's turn is one of medium's at 94% of the turns with a real choice, so
#: hard against medium stays near even (49.2% of 400 paired games, 45.5-53.0; medium against easy 78.5% of 1,000).
CULIN_TEAM_WIN_WEIGHTS = (
    0.336,
    0.005,
    0.368,
    0.145,
    0.089,
    0.052,
    0.107,
    -0.773,
    -0.239,
    0.203,
    0.081,
    0.133,
    0.052,
    -0.042,
    -0.044,
    0.090,
)


def _two_step_targets(model: Model, pos: Position, seat: int) -> list[list[int]]:
    """targets[a][b]: the cells (a bit per cell index) of the enemy stacks `seat` could capture by moving one
    stack (or an entering piece) a cells to an empty cell and then b further, within one turn of two throws."""
    t = model.t
    board = pos.raw_board
    team = seat & 1
    mine = [i for i, s in enumerate(board) if s is not None and s[TOP] == seat]
    fwd = t.fwd[team]
    back = t.back[team] if t.scorpion else None
    firsts: list[tuple[int, MovePlan]] = []  # (throw, a first step that lands on an empty cell)
    can_enter = pos.raw_home[seat] > 0 and not (t.one_active and mine)
    for a in range(1, 6):
        plan = t.enter[team][a]
        if can_enter and plan is not None and board[plan.dest] is None:
            firsts.append((a, plan))
        for i in mine:
            plan = fwd[board[i][DIRECTION]][i][a]  # type: ignore[index]
            if plan is not None and plan.kind == LAND and (board[plan.dest] is None or plan.dest == i):
                firsts.append((a, plan))
    targets = [[0] * 6 for _ in range(6)]
    for a, first in firsts:
        here, d, left = first.dest, first.direction, first.source
        row = targets[a]
        for b in range(1, 6):
            for plan in (fwd[d][here][b], back[d][here][b] if back is not None else None):
                if plan is None or plan.kind != LAND:
                    continue
                dest = plan.dest
                target = board[dest]
                if target is not None and dest != here and dest != left and target[TOP] & 1 != team:
                    row[b] |= 1 << dest
    return targets


def _threats(model: Model, pos: Position, seat: int) -> tuple[float, float, float]:
    """What `seat` can capture in its next turn: (expected best capture, expected pieces in reach, the same for
    towers of two or more pieces only), sizes counted in pieces of the target stack. With two throws a turn a
    stack may also reach a target with both, one after the other."""
    board = pos.raw_board
    one = capture_targets(model, pos, seat)
    if model.t.throws_per_turn == 1:
        turns = [(one[n], p) for n, p in model.singles]
    else:
        two = _two_step_targets(model, pos, seat)
        turns = [(one[a] | one[b] | two[a][b] | two[b][a], p) for a, b, p in model.pairs]
    gain = 0.0
    hit: dict[int, float] = {}
    for cells, p in turns:
        best = 0
        while cells:
            low = cells & -cells
            cells ^= low
            dest = low.bit_length() - 1
            size = len(board[dest]) - 1  # type: ignore[arg-type]
            if size > best:
                best = size
            hit[dest] = hit.get(dest, 0.0) + p
        gain += p * best
    reach = 0.0
    towers = 0.0
    for dest, p in hit.items():
        size = len(board[dest]) - 1  # type: ignore[arg-type]
        reach += p * size
        if size > 1:
            towers += p * size
    return gain, reach, towers


def features(model: Model, pos: Position) -> list[float]:
    """The FEATURES of `pos` (a position whose seat must throw), team A minus team B."""
    f = ([0.0] * len(FEATURES), [0.0] * len(FEATURES))
    progress = model.progress
    alive = [pieces > 0 for pieces in pos.raw_home]  # per seat: a piece at home or on top, so it still plays
    for i, s in enumerate(pos.raw_board):
        if s is None:
            continue
        alive[s[TOP]] = True
        team = s[TOP] & 1
        caps = 0
        for seat in s[TOP + 1 :]:
            if seat & 1 != team:
                caps += 1
        pr = progress[team][s[DIRECTION]][i]
        ft = f[team]
        ft[CAPTIVES] += caps
        ft[CAPTIVE_PROGRESS] += caps * pr
        ft[TOPS] += 1
        ft[TOP_PROGRESS] += pr
        ft[COMPATRIOTS] += len(s) - 2 - caps
    for seat, k in enumerate(pos.raw_kills):
        f[seat & 1][KILLS] += k
    for seat, h in enumerate(pos.raw_home):
        f[seat & 1][HOME] += h
    for seat, playing in enumerate(alive):
        if playing:
            f[seat & 1][ALIVE_SEATS] += 1
    for ft in f:
        active = ft[HOME] + ft[TOPS]
        ft[ONE_ACTIVE] = 1.0 if active == 1 else 0.0
        ft[TWO_ACTIVE] = 1.0 if active == 2 else 0.0
    mover = pos.turn_index
    # In team games the seat after the mover is always on the other team (seats alternate teams).
    for seat, gain_at, reach_at, towers_at in (
        (mover, MOVER_GAIN, MOVER_REACH, MOVER_REACH_TOWERS),
        ((mover + 1) % model.t.seats, NEXT_GAIN, NEXT_REACH, NEXT_REACH_TOWERS),
    ):
        gain, reach, towers = _threats(model, pos, seat)
        ft = f[seat & 1]
        ft[gain_at] += gain
        ft[reach_at] += reach
        ft[towers_at] += towers
    a, b = f
    return [x - y for x, y in zip(a, b, strict=True)]


def weights_for(rules: Rules) -> tuple[float, ...]:
    """The weights that serve `rules`: team games, 1 v 1 eagles and the culin route have their own."""
    if rules.route == "culin":
        return CULIN_TEAM_WIN_WEIGHTS if rules.team_size > 1 else CULIN_WIN_WEIGHTS
    if rules.team_size > 1:
        return TEAM_WIN_WEIGHTS
    return EAGLE_WIN_WEIGHTS if rules.capture == "eagle" else WIN_WEIGHTS


def win_logit(model: Model, pos: Position) -> float:
    """Log-odds that team A wins from `pos`, a running game whose seat must throw."""
    weights = weights_for(model.rules)
    total = 0.0
    for w, x in zip(weights, features(model, pos), strict=True):
        total += w * x
    return total
