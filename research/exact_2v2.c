/* Exact best response to puluc.ai's medium in traditional ants 2 v 2 (ants route, stack capture, bell sticks, two
 * throws a turn, one active piece per seat), on a road of ROAD cells (odd, 5 to 41; the bot's 2 v 2 road is 19),
 * and upper bounds for the games too large to solve. Built and driven by research/exact_2v2.py; a research tool
 * run by hand, not part of the product.
 *
 *   exact_2v2 count ROAD [HOMES]       positions reachable with any play (a hash set: memory grows with the count)
 *   exact_2v2 solve ROAD [HOMES [TABLE]]  the best response's exact chance against medium, and medium's own;
 *                                      TABLE: write every state's key and value (exact_2v2.py reads it)
 *   exact_2v2 turns ROAD               reads states from stdin, prints every end of the turn and medium's (checks)
 *   exact_2v2 hindsight ROAD HOMES N [SEED]           the bound of team A knowing every throw in advance
 *   exact_2v2 dual ROAD HOMES N ESTIMATE [SEED]       the same with a penalty for that knowledge (see dual())
 *
 * HOMES ("5,5,5,5", seats A1,B1,A2,B2) starts the game with fewer pieces (the others dead): tiny cases for tests.
 *
 * Why the best response is a small problem per position: with one active piece a seat moves its one stack or, when
 * it has none, enters a piece, so each throw value allows at most one move and a turn of two throws can end in at
 * most two ways (the order of the throws). With medium's choices fixed (its one-ply evaluation, ties shared
 * equally: medium picks among them at random), the team that plays against it faces a Markov decision process
 * whose chance is the sticks; its optimal value from the start is the most any pair of players at all can score
 * against two medium players. Team A is that team here; team B plays medium. Values are computed for both seats
 * to start (A1 first: the best response moves first; B1 first: it moves second).
 *
 * A state is the position before a throw: which seat throws, pieces at home per seat, and for each seat the stack
 * it tops, if any (one at most: one active piece): its cell, direction and how many pieces of each seat lie under
 * the top. Their order under the top never matters again (the top only changes by a capture, which puts a whole
 * stack on top; an arrival resolves every piece by its seat), nor do kills (the team that is not out always wins,
 * and a team's kills are the enemy's pieces neither at home nor on the road). Swapping A1 with A2 and B1 with B2
 * keeps the turn order and the teams, so a state with A2 or B2 to throw is stored as its swap (A1 or B1 to throw).
 *
 * The value V(s) = P(team A wins | s) is the least fixed point of V(s) = sum over the 15 throw pairs of
 * max over the ends (A to throw) or medium's mean over its ends (B to throw), by Gauss-Seidel sweeps from 0 (so
 * a team that could only stall gets nothing for it). The pieces killed never fall, so states are solved in layers
 * from the most killed down, each until no value moves by 1e-13.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXL 41
#define SEATS 4
#define PIECES 5
#define PLACEMENTS 252 /* ways to place one seat's pieces at home and under the four tops: 5 or fewer in 6 places */
#define OUTCOMES 15    /* unordered pairs of throws 1..5 */

typedef struct {
    int8_t cell[SEATS];         /* index (0 = cell 1) of the stack seat s tops, or -1 */
    uint8_t dir[SEATS];         /* its top's direction in the owner's frame: 0 outbound (+), 1 inbound (-) */
    uint8_t below[SEATS][SEATS]; /* below[s][j]: pieces of seat j under seat s's top */
    uint8_t home[SEATS];
    uint8_t turn; /* the seat to throw (or to move): 0 A1, 1 B1, 2 A2, 3 B2 */
} State;

static int L = 19;
static const double PROB[6] = {0, 4 / 16.0, 6 / 16.0, 4 / 16.0, 1 / 16.0, 1 / 16.0};
static int OA[OUTCOMES], OB[OUTCOMES];
static double OP[OUTCOMES];

static void outcomes(void) {
    int c = 0;
    for (int a = 1; a <= 5; a++)
        for (int b = a; b <= 5; b++) {
            OA[c] = a;
            OB[c] = b;
            OP[c++] = PROB[a] * PROB[b] * (a == b ? 1 : 2);
        }
}

/* ---- rules ---------------------------------------------------------------------------------------------- */

static int own_to_index(int team, int c) { return team == 0 ? c - 1 : L - c; } /* own-frame cell 1..L */
static int index_to_own(int team, int i) { return team == 0 ? i + 1 : L - i; }

static int top_at(const State *s, int i) {
    for (int k = 0; k < SEATS; k++)
        if (s->cell[k] == i) return k;
    return -1;
}

static int stack_size(const State *s, int k) {
    int n = 1;
    for (int j = 0; j < SEATS; j++) n += s->below[k][j];
    return n;
}

static void clear_stack(State *s, int k) {
    s->cell[k] = -1;
    s->dir[k] = 0;
    memset(s->below[k], 0, SEATS);
}

/* Seat t's move with a throw of n (RULES.md sections 4, 5: ants route, stack capture, one active piece) into *o;
 * 0 when there is none. */
static int move(const State *s, int t, int n, State *o) {
    int team = t & 1, dest, dir;
    *o = *s;
    int src = s->cell[t];
    if (src < 0) {
        if (!s->home[t]) return 0;
        o->home[t]--;
        dest = own_to_index(team, n);
        dir = n >= L; /* landing on cell L turns a piece inbound, even when entering */
    } else {
        int c = index_to_own(team, src), p = s->dir[t] ? 2 * L - c : c, q = p + n;
        uint8_t below[SEATS];
        memcpy(below, s->below[t], SEATS);
        clear_stack(o, t);
        if (q > 2 * L - 1) { /* arrival at its own home: enemies under the top die, the team's pieces go home */
            o->home[t]++;
            for (int j = 0; j < SEATS; j++)
                if ((j & 1) == team) o->home[j] += below[j];
            return 1;
        }
        memcpy(o->below[t], below, SEATS);
        dest = own_to_index(team, q <= L ? q : 2 * L - q);
        dir = q >= L;
    }
    int j = top_at(o, dest); /* the moving stack has left its cell: it may land where it started */
    if (j >= 0) {
        if ((j & 1) == team) return 0; /* never onto the own team */
        o->below[t][j]++;               /* capture: the whole stack goes under the mover, which turns inbound */
        for (int k = 0; k < SEATS; k++) o->below[t][k] += o->below[j][k];
        clear_stack(o, j);
        dir = 1;
    }
    o->cell[t] = (int8_t)dest;
    o->dir[t] = (uint8_t)dir;
    return 1;
}

/* 0 while both teams play, else 1 + the winning team: a team is out with no piece at home and none on top, and
 * the team that is not out always wins (the out team's pieces are all killed or held; the mover is never out). */
static int over(const State *s) {
    int alive[2] = {0, 0};
    for (int k = 0; k < SEATS; k++)
        if (s->home[k] || s->cell[k] >= 0) alive[k & 1] = 1;
    if (alive[0] && alive[1]) return 0;
    if (!alive[0] && !alive[1]) { fprintf(stderr, "both teams out\n"); exit(3); }
    return alive[0] ? 1 : 2;
}

/* Each team's score (RULES.md section 7): enemy pieces killed (those neither at home nor on the road) and held. */
static void scores(const State *s, int score[2]) {
    int left[2] = {0, 0};
    score[0] = score[1] = 0;
    for (int k = 0; k < SEATS; k++) {
        left[k & 1] += s->home[k];
        if (s->cell[k] < 0) continue;
        left[k & 1]++;
        for (int j = 0; j < SEATS; j++) {
            left[j & 1] += s->below[k][j];
            if ((j & 1) != (k & 1)) score[k & 1] += s->below[k][j];
        }
    }
    score[0] += 2 * PIECES - left[1];
    score[1] += 2 * PIECES - left[0];
}

/* ---- medium's evaluation: puluc/ai/evaluate.py evaluate(..., SIMPLE_WEIGHTS), the same float operations ---- */

static double progress_of(int team, int dir, int i) {
    int c = index_to_own(team, i), p = dir ? 2 * L - c : c, left = 2 * L - p, full = 2 * L - 1;
    double x = 1.0 - (double)(left - 1) / (double)full;
    return x > 0.0 ? x : 0.0;
}

/* gains[n]: the size of the enemy stack seat k could capture with a throw of n (capture_gains). */
static void capture_gains(const State *s, int k, int gains[6]) {
    int team = k & 1, src = s->cell[k];
    for (int n = 0; n < 6; n++) gains[n] = 0;
    for (int n = 1; n <= 5; n++) {
        int dest = -1;
        if (src < 0 && s->home[k]) {
            dest = own_to_index(team, n);
        } else if (src >= 0) {
            int c = index_to_own(team, src), p = s->dir[k] ? 2 * L - c : c, q = p + n;
            if (q <= 2 * L - 1) dest = own_to_index(team, q <= L ? q : 2 * L - q);
            if (dest == src) dest = -1;
        }
        if (dest < 0) continue;
        int j = top_at(s, dest);
        if (j >= 0 && (j & 1) != team) gains[n] = stack_size(s, j);
    }
}

static double expected_gain(const int gains[6], int pending) {
    if (pending) return (double)gains[pending];
    double total = 0.0;
    for (int o = 0; o < OUTCOMES; o++) {
        double pa = PROB[OA[o]] * PROB[OB[o]];
        double p = OA[o] == OB[o] ? pa : pa + pa;
        total += p * (double)(gains[OA[o]] > gains[OB[o]] ? gains[OA[o]] : gains[OB[o]]);
    }
    return total;
}

/* Team A's value of the position `s` in which seat `mover` is to move with the pending throw `pending` (0: it must
 * throw). */
static double evaluate(const State *s, int mover, int pending) {
    int score[2], won = over(s);
    scores(s, score);
    if (won) {
        int diff = score[0] - score[1];
        return (double)diff + (diff > 0 ? 3.0 : diff < 0 ? -3.0 : 0.0);
    }
    double ahead[2] = {0.0, 0.0};
    score[0] = score[1] = 0;
    for (int i = 0; i < L; i++) { /* cell by cell, as evaluate() sums them */
        int k = top_at(s, i);
        if (k < 0) continue;
        int team = k & 1, caps = 0, own = 1;
        for (int j = 0; j < SEATS; j++) {
            if ((j & 1) != team) caps += s->below[k][j];
            else own += s->below[k][j];
        }
        score[team] += caps;
        double pr = progress_of(team, s->dir[k], i);
        if (pr != 0.0) ahead[team] += pr * (0.2 * caps + 0.05 * own);
    }
    int left[2] = {0, 0}; /* the kills: enemy pieces neither at home nor on the road */
    for (int k = 0; k < SEATS; k++) {
        left[k & 1] += s->home[k] + (s->cell[k] >= 0);
        if (s->cell[k] >= 0)
            for (int j = 0; j < SEATS; j++) left[j & 1] += s->below[k][j];
    }
    score[0] += 2 * PIECES - left[1];
    score[1] += 2 * PIECES - left[0];
    double value = (double)(score[0] - score[1]);
    value = value + ahead[0];
    value = value - ahead[1];
    int gains[6];
    capture_gains(s, mover, gains);
    double gain = expected_gain(gains, pending);
    value += (mover & 1) == 0 ? 0.6 * gain : -0.6 * gain;
    return value;
}

/* ---- turns ---------------------------------------------------------------------------------------------- */

typedef struct {
    int won; /* 0: the game goes on and `st` is the next seat's state before its throw; else 1 + the winning team */
    State st;
} End;

static int same_end(const End *a, const End *b) {
    if (a->won || b->won) return a->won == b->won;
    return !memcmp(&a->st, &b->st, sizeof(State));
}

/* The end of a turn after the position `m`, its seat having no move left (or none it may make). */
static End finish(const State *m) {
    End e;
    memset(&e, 0, sizeof e);
    e.won = over(m);
    e.st = *m;
    e.st.turn = (uint8_t)((m->turn + 1) % SEATS);
    if (e.won) memset(&e.st, 0, sizeof e.st);
    return e;
}

/* After the first move `m` of a turn whose other throw is `rest`: the end of the turn. */
static End second(const State *m, int rest) {
    State m2;
    if (!over(m) && move(m, m->turn, rest, &m2)) return finish(&m2);
    return finish(m);
}

/* Every end of the turn of s (throws a, b), each once, and which of them medium reaches (bit e of *pick: medium
 * plays towards end e; each such end equally likely, as medium picks at random among its best first moves). A
 * throw that allows a move must be used (RULES.md section 6); with none the turn passes. */
static int turn_ends(const State *s, int a, int b, End *ends, int *pick) {
    State m[2];
    int thrown[2] = {a, b}, legal[2] = {0, 0}, c = 0, at[2] = {-1, -1};
    for (int k = 0; k < (a == b ? 1 : 2); k++) legal[k] = move(s, s->turn, thrown[k], &m[k]);
    if (!legal[0] && !legal[1]) {
        ends[0] = finish(s);
        *pick = 1;
        return 1;
    }
    double score[2], sign = (s->turn & 1) == 0 ? 1.0 : -1.0, best = -INFINITY;
    for (int k = 0; k < 2; k++) {
        if (!legal[k]) continue;
        End e = second(&m[k], thrown[1 - k]);
        for (at[k] = 0; at[k] < c && !same_end(&ends[at[k]], &e); at[k]++) continue;
        if (at[k] == c) ends[c++] = e;
        /* medium's one-ply look: the position right after this first move, for the mover's team */
        State probe, after = m[k];
        int rest = thrown[1 - k], goes_on = !over(&m[k]) && move(&m[k], s->turn, rest, &probe);
        if (!goes_on) after.turn = (uint8_t)((s->turn + 1) % SEATS);
        score[k] = sign * evaluate(&after, after.turn, goes_on ? rest : 0);
        if (score[k] > best) best = score[k];
    }
    *pick = 0;
    for (int k = 0; k < 2; k++)
        if (legal[k] && score[k] >= best - 1e-9) *pick |= 1 << at[k];
    return c;
}

/* ---- keys: a state as a 64-bit number ----------------------------------------------------------------- */

static int16_t place_rank[6 * 6 * 6 * 6 * 6];
static uint8_t place_of[PLACEMENTS][5];

static void placements(void) {
    int r = 0;
    memset(place_rank, 0xff, sizeof place_rank);
    for (int x = 0; x < 6 * 6 * 6 * 6 * 6; x++) {
        int d[5], sum = 0;
        for (int k = 0, y = x; k < 5; k++, y /= 6) sum += d[k] = y % 6;
        if (sum > PIECES) continue;
        for (int k = 0; k < 5; k++) place_of[r][k] = (uint8_t)d[k];
        place_rank[x] = (int16_t)r++;
    }
    if (r != PLACEMENTS) { fprintf(stderr, "placements: %d\n", r); exit(3); }
}

/* Seats A1 <-> A2 and B1 <-> B2: the same game with the teammates' names exchanged. */
static void swap_seats(const State *a, State *b) {
    for (int s = 0; s < SEATS; s++) {
        int t = s ^ 2;
        b->cell[t] = a->cell[s];
        b->dir[t] = a->dir[s];
        b->home[t] = a->home[s];
        for (int j = 0; j < SEATS; j++) b->below[t][j ^ 2] = a->below[s][j];
    }
    b->turn = (uint8_t)(a->turn ^ 2);
}

/* The key: turn (A1 or B1 after the swap), then each seat's stack (0 none, else 1 + 2 * cell + direction), then
 * where each seat's pieces are (home and under each top), as mixed-radix digits. */
static uint64_t encode(const State *s0) {
    State sw;
    const State *s = s0;
    if (s0->turn >= 2) { swap_seats(s0, &sw); s = &sw; }
    uint64_t k = s->turn, radix = 2 * (uint64_t)L + 1;
    for (int t = 0; t < SEATS; t++) k = k * radix + (s->cell[t] < 0 ? 0 : 1 + 2 * (uint64_t)s->cell[t] + s->dir[t]);
    for (int j = 0; j < SEATS; j++) {
        int x = s->home[j];
        for (int t = 0; t < SEATS; t++) x = x * 6 + s->below[t][j];
        k = k * PLACEMENTS + (uint64_t)place_rank[x];
    }
    return k;
}

static void decode(uint64_t k, State *s) {
    uint64_t radix = 2 * (uint64_t)L + 1;
    memset(s, 0, sizeof *s);
    for (int j = SEATS - 1; j >= 0; j--) {
        const uint8_t *d = place_of[k % PLACEMENTS];
        k /= PLACEMENTS;
        /* place_rank's digits run from the last seat's count (lowest) to home (highest) */
        s->home[j] = d[4];
        for (int t = 0; t < SEATS; t++) s->below[t][j] = d[3 - t];
    }
    for (int t = SEATS - 1; t >= 0; t--) {
        int v = (int)(k % radix);
        k /= radix;
        s->cell[t] = (int8_t)(v ? (v - 1) / 2 : -1);
        s->dir[t] = (uint8_t)(v ? (v - 1) % 2 : 0);
    }
    s->turn = (uint8_t)k;
}

/* Pieces no longer in the game (killed): never fewer after a move, so it orders the solve. */
static int removed(const State *s) {
    int n = 4 * PIECES;
    for (int t = 0; t < SEATS; t++) {
        n -= s->home[t];
        if (s->cell[t] >= 0) n -= stack_size(s, t);
    }
    return n;
}

/* ---- the set of states: an open-addressing table of 64-bit keys ----------------------------------------- */

static uint64_t hmask, *keys, kcap;
static uint32_t *slots, nstates;

static uint64_t mix(uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ULL;
    return k ^ (k >> 33);
}

static void grow(int bits) {
    free(slots);
    hmask = (1ULL << bits) - 1;
    slots = calloc(hmask + 1, 4);
    if (!slots) { fprintf(stderr, "out of memory (%llu slots)\n", (unsigned long long)hmask + 1); exit(2); }
    for (uint32_t q = 0; q < nstates; q++) {
        uint64_t h = mix(keys[q]) & hmask;
        while (slots[h]) h = (h + 1) & hmask;
        slots[h] = q + 1;
    }
}

static uint32_t intern(uint64_t k, int insert) {
    for (uint64_t h = mix(k) & hmask;; h = (h + 1) & hmask) {
        uint32_t v = slots[h];
        if (v && keys[v - 1] == k) return v - 1;
        if (!v) {
            if (!insert) { fprintf(stderr, "unknown state %llx\n", (unsigned long long)k); exit(3); }
            if (nstates == UINT32_MAX - 8) { fprintf(stderr, "too many states\n"); exit(2); }
            if (nstates == kcap) {
                keys = realloc(keys, (kcap *= 2) * 8);
                if (!keys) { fprintf(stderr, "out of memory (keys)\n"); exit(2); }
            }
            keys[nstates] = k;
            slots[h] = ++nstates;
            if (nstates > (hmask + 1) / 2) {
                int bits = 1;
                while ((1ULL << bits) <= hmask) bits++;
                grow(bits + 1);
            }
            return nstates - 1;
        }
    }
}

static State start_state(const int homes[SEATS], int turn) {
    State s;
    memset(&s, 0, sizeof s);
    for (int t = 0; t < SEATS; t++) {
        s.cell[t] = -1;
        s.home[t] = (uint8_t)homes[t];
    }
    s.turn = (uint8_t)turn;
    return s;
}

/* Every state reachable from both starts, breadth first: with any play (any), or with any play of team A and
 * medium's of team B (the best response's problem). */
static void explore(const int homes[SEATS], int any) {
    keys = malloc((kcap = 1 << 20) * 8);
    grow(21);
    for (int turn = 0; turn < 2; turn++) {
        State s0 = start_state(homes, turn);
        intern(encode(&s0), 1);
    }
    End ends[2];
    clock_t cpu0 = clock();
    for (uint32_t q = 0; q < nstates; q++) {
        State s;
        int pick;
        decode(keys[q], &s);
        for (int o = 0; o < OUTCOMES; o++) {
            int c = turn_ends(&s, OA[o], OB[o], ends, &pick);
            for (int e = 0; e < c; e++)
                if (!ends[e].won && (any || !(s.turn & 1) || pick >> e & 1)) intern(encode(&ends[e].st), 1);
        }
        if ((q & 0xffffff) == 0xffffff)
            fprintf(stderr, "  %u explored, %u found, %.0f s cpu\n", q + 1, nstates,
                    (double)(clock() - cpu0) / CLOCKS_PER_SEC);
    }
}

/* ---- solve ---------------------------------------------------------------------------------------------- */

#define WIN_A UINT32_MAX
#define WIN_B (UINT32_MAX - 1)
#define NONE (UINT32_MAX - 2)

static uint32_t end_index(const End *e) {
    if (e->won) return e->won == 1 ? WIN_A : WIN_B;
    return intern(encode(&e->st), 0);
}

static double value_at(uint32_t x, const double *v) { return x == WIN_A ? 1.0 : x == WIN_B ? 0.0 : v[x]; }

/* The mean of the values of the ends in `bits` (medium's: each equally likely). */
static double medium_mean(const uint32_t end[2], int bits, const double *v) {
    if (bits == 3) return 0.5 * (value_at(end[0], v) + value_at(end[1], v));
    return value_at(end[bits == 2], v);
}

static double *solved; /* after solve: team A's best-response chance by state index */
static const char *table_path; /* where solve writes its table, or NULL */

static int by_key(const void *a, const void *b) {
    uint64_t x = keys[*(const uint32_t *)a], y = keys[*(const uint32_t *)b];
    return x < y ? -1 : x > y;
}

/* The table: the state count (4 bytes), the keys in increasing order (8 bytes each), then each state's
 * best-response value (a 4-byte float), all little-endian. exact_2v2.py computes the same keys. */
static int write_table(const char *path, const double *v) {
    uint32_t *order = malloc((uint64_t)nstates * 4);
    if (!order) { fprintf(stderr, "out of memory (table)\n"); return 2; }
    for (uint32_t q = 0; q < nstates; q++) order[q] = q;
    qsort(order, nstates, 4, by_key);
    FILE *f = fopen(path, "wb");
    if (!f) { perror(path); return 2; }
    fwrite(&nstates, 4, 1, f);
    for (uint32_t q = 0; q < nstates; q++) fwrite(&keys[order[q]], 8, 1, f);
    for (uint32_t q = 0; q < nstates; q++) {
        float x = (float)v[order[q]];
        fwrite(&x, 4, 1, f);
    }
    free(order);
    return fclose(f) ? 2 : 0;
}

static int solve(const int homes[SEATS]) {
    clock_t cpu0 = clock();
    explore(homes, 0);
    fprintf(stderr, "states (before a throw, A2/B2 to throw stored as A1/B1): %u, %.0f s cpu\n", nstates,
            (double)(clock() - cpu0) / CLOCKS_PER_SEC);
    /* br[q]: team A's chance playing the best response; med[q]: team A's chance playing medium itself. */
    double *br = calloc(nstates, 8), *med = calloc(nstates, 8);
    uint8_t *layer = malloc(nstates);
    uint32_t *ids = malloc((uint64_t)nstates * 4);
    if (!br || !med || !layer || !ids) { fprintf(stderr, "out of memory (values)\n"); return 2; }
    uint64_t choices = 0, medium_ties = 0;
    for (uint32_t q = 0; q < nstates; q++) {
        State s;
        decode(keys[q], &s);
        layer[q] = (uint8_t)(removed(&s) | (s.turn & 1) << 7); /* and whether team B throws */
    }
    /* The successors of one layer, kept while it is solved: for each state and throw pair up to two ends (team A:
     * every end; team B: medium's), and 2 bits a pair for the ends medium picks. */
    typedef struct { uint32_t end[2]; } Succ;
    for (int k = 4 * PIECES; k >= 0; k--) {
        uint32_t m = 0;
        for (uint32_t q = 0; q < nstates; q++)
            if ((layer[q] & 0x7f) == k) ids[m++] = q;
        if (!m) continue;
        Succ *g = malloc((uint64_t)m * OUTCOMES * sizeof(Succ));
        uint32_t *picks = malloc((uint64_t)m * 4);
        if (!g || !picks) { fprintf(stderr, "out of memory (layer of %u)\n", m); return 2; }
        End ends[2];
        for (uint32_t e = 0; e < m; e++) {
            State s;
            decode(keys[ids[e]], &s);
            picks[e] = 0;
            for (int o = 0; o < OUTCOMES; o++) {
                Succ *x = &g[(uint64_t)e * OUTCOMES + o];
                int pick, c = turn_ends(&s, OA[o], OB[o], ends, &pick);
                if (s.turn & 1) { /* keep medium's ends only */
                    if (pick == 2) ends[0] = ends[1];
                    c = pick == 3 ? 2 : 1;
                    pick = c == 2 ? 3 : 1;
                } else {
                    choices += c > 1;
                }
                medium_ties += pick == 3;
                x->end[0] = end_index(&ends[0]);
                x->end[1] = c > 1 ? end_index(&ends[1]) : NONE;
                picks[e] |= (uint32_t)pick << (2 * o);
            }
        }
        int it;
        for (it = 0;; it++) { /* Gauss-Seidel sweeps over the layer */
            double delta = 0;
            for (uint32_t e = 0; e < m; e++) {
                uint32_t q = ids[e];
                int a_moves = !(layer[q] & 0x80);
                double vb = 0, vm = 0;
                const Succ *x = &g[(uint64_t)e * OUTCOMES];
                for (int o = 0; o < OUTCOMES; o++, x++) {
                    int bits = picks[e] >> (2 * o) & 3;
                    double b = medium_mean(x->end, bits, br);
                    if (a_moves) {
                        b = value_at(x->end[0], br);
                        if (x->end[1] != NONE && value_at(x->end[1], br) > b) b = value_at(x->end[1], br);
                    }
                    vb += OP[o] * b;
                    vm += OP[o] * medium_mean(x->end, bits, med);
                }
                double d = fabs(vb - br[q]) + fabs(vm - med[q]);
                if (d > delta) delta = d;
                br[q] = vb;
                med[q] = vm;
            }
            if (delta < 1e-13) break;
        }
        free(g);
        free(picks);
        fprintf(stderr, "layer of %2d killed: %10u states, %4d sweeps, %.0f s cpu\n", k, m, it + 1,
                (double)(clock() - cpu0) / CLOCKS_PER_SEC);
    }
    double first[2], medium_first[2];
    for (int turn = 0; turn < 2; turn++) {
        State s0 = start_state(homes, turn);
        uint32_t q = intern(encode(&s0), 0);
        first[turn] = br[q];
        medium_first[turn] = med[q];
    }
    solved = br;
    free(med);
    if (table_path && write_table(table_path, br)) return 2;
    printf("states %u\n", nstates);
    printf("choices %llu\n", (unsigned long long)choices);
    printf("medium_ties %llu\n", (unsigned long long)medium_ties);
    printf("best_response %.9f %.9f %.9f\n", first[0], first[1], (first[0] + first[1]) / 2);
    printf("medium %.9f %.9f %.9f\n", medium_first[0], medium_first[1], (medium_first[0] + medium_first[1]) / 2);
    printf("cpu_seconds %.1f\n", (double)(clock() - cpu0) / CLOCKS_PER_SEC);
    return 0;
}

/* ---- hindsight: an upper bound for the full game ----------------------------------------------------------- */

/* A scenario fixes the chance of a whole game in advance: the throws of the game's t-th turn and a number in [0, 1)
 * that picks among medium's tied ends in it, whoever plays. Team A told the scenario beforehand wins whenever some
 * sequence of its choices wins; no player who sees only the past can do better on any scenario, so the mean over
 * scenarios of that (a perfect-hindsight relaxation) bounds the best response from above. */
#define MAX_TURNS 4000
static int sc_a[MAX_TURNS], sc_b[MAX_TURNS];
static double sc_u[MAX_TURNS];
static uint64_t rng_state;

static double uniform(void) { /* splitmix64 */
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return (double)((z ^ (z >> 31)) >> 11) / 9007199254740992.0;
}

static void draw_scenario(void) {
    for (int t = 0; t < MAX_TURNS; t++) {
        double x = uniform(), acc = 0;
        int o = 0;
        while (o < OUTCOMES - 1 && x >= (acc += OP[o])) o++;
        sc_a[t] = OA[o];
        sc_b[t] = OB[o];
        sc_u[t] = uniform();
    }
}

static uint64_t nodes, node_limit;
static int cut; /* a search gave up: the scenario counts as won (the bound stays a bound) */

/* 1 when team A can win from s at turn t of the scenario; `playing_medium`: team A plays medium itself (no
 * choice: the scenario's medium game). */
static int can_win(const State *s, int t, int playing_medium) {
    for (;;) {
        if (t >= MAX_TURNS || ++nodes > node_limit) { cut = 1; return 1; }
        End ends[2];
        int pick, c = turn_ends(s, sc_a[t], sc_b[t], ends, &pick);
        if (!(s->turn & 1) && !playing_medium && c == 2) {
            for (int e = 0; e < 2; e++)
                if (ends[e].won ? ends[e].won == 1 : can_win(&ends[e].st, t + 1, 0)) return 1;
            return 0;
        }
        int e = 0;
        if (pick == 3) e = sc_u[t] < 0.5 ? 0 : 1;
        else if (pick == 2) e = 1;
        if (ends[e].won) return ends[e].won == 1;
        s = &ends[e].st;
        t++;
    }
}

static int hindsight(const int homes[SEATS], long scenarios, uint64_t seed, uint64_t limit) {
    clock_t cpu0 = clock();
    long won[2] = {0, 0}, med[2] = {0, 0}, cuts = 0;
    uint64_t most = 0;
    rng_state = seed;
    node_limit = limit;
    for (long k = 0; k < scenarios; k++) {
        draw_scenario();
        for (int turn = 0; turn < 2; turn++) {
            State s0 = start_state(homes, turn);
            nodes = 0;
            cut = 0;
            won[turn] += can_win(&s0, 0, 0);
            if (nodes > most) most = nodes;
            cuts += cut;
            nodes = 0;
            med[turn] += can_win(&s0, 0, 1);
        }
    }
    printf("scenarios %ld\n", scenarios);
    printf("hindsight %.6f %.6f %.6f\n", (double)won[0] / scenarios, (double)won[1] / scenarios,
           (double)(won[0] + won[1]) / (2.0 * scenarios));
    printf("medium %.6f %.6f %.6f\n", (double)med[0] / scenarios, (double)med[1] / scenarios,
           (double)(med[0] + med[1]) / (2.0 * scenarios));
    printf("cut %ld\n", cuts);
    printf("most_nodes %llu\n", (unsigned long long)most);
    printf("cpu_seconds %.1f\n", (double)(clock() - cpu0) / CLOCKS_PER_SEC);
    return 0;
}

/* A sharper bound: the same relaxation with a penalty for knowing the chance in advance (the duality of
 * information relaxations, Brown, Smith and Sun 2010). Let phi(s, w) be any number for a state s and the chance w
 * of its turn, and z = phi(s, w) - E_w' phi(s, w'). Whatever a player who sees only the past does, each z has mean
 * zero, so the mean over scenarios of max over team A's choices of (result - sum of z) still bounds the best
 * response from above, for ANY phi; the closer phi is to the true values, the tighter: with the exact values the
 * bound is exact. Here phi(s, w) is the estimate V of the end of the turn that team A picks (the better one for V)
 * or medium reaches; V is the solved value (exact, on games small enough) or a logistic curve of medium's own
 * evaluation, 1 / (1 + exp(-scale * evaluate)). */
static double scale = 0.5;

static double noise; /* experiments: the exact value plus this much deterministic noise (a fixed number a state) */

static double learned_estimate(const State *s);
static int learned;
static double estimate(const State *s) {
    if (learned) return learned_estimate(s);
    if (solved && noise > 0) {
        uint64_t h1 = mix(encode(s) ^ 0x1234567ULL), h2 = mix(h1);
        double u1 = ((h1 >> 11) + 0.5) / 9007199254740992.0, u2 = (h2 >> 11) / 9007199254740992.0;
        return solved[intern(encode(s), 0)] + noise * sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2);
    }
    if (solved) return solved[intern(encode(s), 0)];
    double e = evaluate(s, s->turn, 0);
    return 1.0 / (1.0 + exp(-scale * e));
}

static double end_estimate(const End *e) { return e->won ? (e->won == 1 ? 1.0 : 0.0) : estimate(&e->st); }

/* A richer estimate: a logistic model over features of the state, fitted to the results of medium-against-medium
 * games on the same road and pieces (Newton's method on the log-loss). Features are team A's minus team B's except
 * where said: kills, captives held, captives times their stack's progress, pieces at home, tops, tops' progress,
 * compatriots under own tops, a team down to one and to two active pieces, seats still playing; then, exactly over
 * the 15 throws of a turn, the expected best gain of score (captures and arrivals) of the seat to throw and of the
 * three seats after it as if each threw now, each signed for its team; and a constant for the seat to throw. */
#define NF 18
static double weights[NF];

static double expected_gain_now(const State *s0, int seat) {
    State s = *s0;
    s.turn = (uint8_t)seat;
    int base[2];
    scores(&s, base);
    int sign = (seat & 1) ? -1 : 1;
    double total = 0;
    for (int o = 0; o < OUTCOMES; o++) {
        End ends[2];
        int pick, c = turn_ends(&s, OA[o], OB[o], ends, &pick);
        double best = -1e9;
        for (int e = 0; e < c; e++) {
            double g;
            if (ends[e].won) g = 10;  /* a won game: worth a lot */
            else {
                int sc[2];
                scores(&ends[e].st, sc);
                g = sign * ((sc[0] - base[0]) - (sc[1] - base[1]));
            }
            if (g > best) best = g;
        }
        total += OP[o] * best;
    }
    return total;
}

static void features(const State *s, double *f) {
    double t[2][9];
    memset(t, 0, sizeof t);
    int score[2];
    scores(s, score);
    int left[2] = {0, 0};
    for (int k = 0; k < SEATS; k++) {
        int team = k & 1;
        left[team] += s->home[k];
        t[team][3] += s->home[k];
        if (s->home[k] || s->cell[k] >= 0) t[team][8] += 1;
        if (s->cell[k] < 0) continue;
        int caps = 0, comp = 0;
        for (int j = 0; j < SEATS; j++) {
            if ((j & 1) != team) caps += s->below[k][j];
            else comp += s->below[k][j];
        }
        double pr = progress_of(team, s->dir[k], s->cell[k]);
        t[team][1] += caps;
        t[team][2] += caps * pr;
        t[team][4] += 1;
        t[team][5] += pr;
        t[team][6] += comp;
    }
    for (int team = 0; team < 2; team++) {
        t[team][0] = score[team] - t[team][1];
        double active = t[team][3] + t[team][4];
        t[team][7] = active == 1 ? 1 : 0;
        f[9 + team] = active == 2 ? 1 : 0;
    }
    for (int i = 0; i < 9; i++) f[i] = t[0][i] - t[1][i];
    f[9] -= f[10];
    f[10] = 0;
    for (int k = 0; k < 4; k++) {
        int seat = (s->turn + k) % SEATS;
        f[10 + k] = ((seat & 1) ? -1 : 1) * expected_gain_now(s, seat);
    }
    f[14] = (s->turn & 1) ? -1 : 1;
    f[15] = f[0] * f[0] * (f[0] < 0 ? -1 : 1);
    f[16] = f[1] * f[2];
    f[17] = 1;
}

static double learned_estimate(const State *s) {
    double f[NF], z = 0;
    features(s, f);
    for (int i = 0; i < NF; i++) z += weights[i] * f[i];
    return 1.0 / (1.0 + exp(-z));
}

static void learn(const int homes[SEATS], int games) {
    int cap = 1 << 23, n = 0;
    double *x = malloc((uint64_t)cap * NF * sizeof(double));
    uint8_t *y = malloc(cap);
    if (!x || !y) { fprintf(stderr, "out of memory (learn)\n"); exit(2); }
    for (int g = 0; g < games; g++) {
        draw_scenario();
        for (int turn = 0; turn < 2; turn++) {
            State s = start_state(homes, turn);
            int first = n, result = -1;
            for (int t = 0; t < MAX_TURNS && result < 0; t++) {
                if (n < cap) features(&s, &x[(uint64_t)n++ * NF]);
                End ends[2];
                int pick;
                turn_ends(&s, sc_a[t], sc_b[t], ends, &pick);
                int e = pick == 3 ? (sc_u[t] < 0.5 ? 0 : 1) : pick == 2;
                if (ends[e].won) result = ends[e].won == 1;
                else s = ends[e].st;
            }
            for (int i = first; i < n; i++) y[i] = (uint8_t)(result == 1);
        }
    }
    memset(weights, 0, sizeof weights);
    for (int it = 0; it < 30; it++) {
        double grad[NF] = {0}, hess[NF][NF + 1];
        memset(hess, 0, sizeof hess);
        for (int i = 0; i < n; i++) {
            const double *f = &x[(uint64_t)i * NF];
            double z = 0;
            for (int a = 0; a < NF; a++) z += weights[a] * f[a];
            double q = 1.0 / (1.0 + exp(-z)), r = q * (1 - q);
            for (int a = 0; a < NF; a++) {
                grad[a] += (q - y[i]) * f[a];
                for (int b = 0; b < NF; b++) hess[a][b] += r * f[a] * f[b];
            }
        }
        for (int a = 0; a < NF; a++) { hess[a][a] += 1e-6 * n; hess[a][NF] = grad[a]; }
        for (int a = 0; a < NF; a++) { /* Gaussian elimination with partial pivoting */
            int piv = a;
            for (int b = a + 1; b < NF; b++) if (fabs(hess[b][a]) > fabs(hess[piv][a])) piv = b;
            for (int c = 0; c <= NF; c++) { double tmp = hess[a][c]; hess[a][c] = hess[piv][c]; hess[piv][c] = tmp; }
            for (int b = 0; b < NF; b++) {
                if (b == a) continue;
                double m = hess[b][a] / hess[a][a];
                for (int c = a; c <= NF; c++) hess[b][c] -= m * hess[a][c];
            }
        }
        double step = 0;
        for (int a = 0; a < NF; a++) { double d = hess[a][NF] / hess[a][a]; weights[a] -= d; step = fmax(step, fabs(d)); }
        if (step < 1e-8) break;
    }
    double loss = 0;
    for (int i = 0; i < n; i++) {
        double z = 0;
        for (int a = 0; a < NF; a++) z += weights[a] * x[(uint64_t)i * NF + a];
        double q = 1.0 / (1.0 + exp(-z));
        loss -= y[i] ? log(q) : log(1 - q);
    }
    fprintf(stderr, "learned from %d positions of %d games a start: log-loss %.4f\n", n, games, loss / n);
    free(x);
    free(y);
    learned = 1;
}

/* phi(s, w) for the throws of outcome o and the tie-break u (u < 0: medium's mean over its ties, E over u). */
static double phi(const State *s, int a, int b, double u, End *ends, int *c, int *pick) {
    *c = turn_ends(s, a, b, ends, pick);
    if (!(s->turn & 1)) {
        double best = end_estimate(&ends[0]);
        if (*c == 2 && end_estimate(&ends[1]) > best) best = end_estimate(&ends[1]);
        return best;
    }
    if (*pick == 3) return u < 0 ? 0.5 * (end_estimate(&ends[0]) + end_estimate(&ends[1]))
                                 : end_estimate(&ends[u < 0.5 ? 0 : 1]);
    return end_estimate(&ends[*pick == 2]);
}

static uint64_t leaves;

/* max over team A's choices from s at turn t of (result - the penalties from t on). */
static double penalised(const State *s, int t) {
    if (t >= MAX_TURNS) { fprintf(stderr, "a scenario ran out of turns\n"); exit(3); }
    End ends[2], other[2];
    int c, pick, c2, pick2;
    double mean = 0;
    for (int o = 0; o < OUTCOMES; o++) mean += OP[o] * phi(s, OA[o], OB[o], -1, other, &c2, &pick2);
    double z = phi(s, sc_a[t], sc_b[t], sc_u[t], ends, &c, &pick) - mean;
    if (!(s->turn & 1) && c == 2) {
        double best = -INFINITY;
        for (int e = 0; e < 2; e++) {
            double v = ends[e].won ? (leaves++, ends[e].won == 1) : penalised(&ends[e].st, t + 1);
            if (v > best) best = v;
        }
        return best - z;
    }
    int e = pick == 3 ? (sc_u[t] < 0.5 ? 0 : 1) : pick == 2;
    if (!(s->turn & 1)) e = 0; /* team A with one end */
    if (ends[e].won) { leaves++; return (ends[e].won == 1) - z; }
    return penalised(&ends[e].st, t + 1) - z;
}

/* The scale of the logistic estimate that fits medium-against-medium games best (log-loss, Newton's method): the
 * evaluation before each throw against the game's result, `games` games from each start. */
static double fit_scale(const int homes[SEATS], int games) {
    int cap = 1 << 22, n = 0;
    double *x = malloc(cap * sizeof(double));
    uint8_t *y = malloc(cap);
    for (int g = 0; g < games; g++) {
        draw_scenario();
        for (int turn = 0; turn < 2; turn++) {
            State s = start_state(homes, turn);
            int first = n, result = -1;
            for (int t = 0; t < MAX_TURNS && result < 0; t++) {
                if (n < cap) x[n++] = evaluate(&s, s.turn, 0);
                End ends[2];
                int pick, c = turn_ends(&s, sc_a[t], sc_b[t], ends, &pick);
                (void)c;
                int e = pick == 3 ? (sc_u[t] < 0.5 ? 0 : 1) : pick == 2;
                if (ends[e].won) result = ends[e].won == 1;
                else s = ends[e].st;
            }
            for (int i = first; i < n; i++) y[i] = (uint8_t)(result == 1);
        }
    }
    double k = 0.5;
    for (int it = 0; it < 50; it++) {
        double grad = 0, hess = 1e-9;
        for (int i = 0; i < n; i++) {
            double q = 1.0 / (1.0 + exp(-k * x[i]));
            grad += (q - y[i]) * x[i];
            hess += q * (1 - q) * x[i] * x[i];
        }
        k -= grad / hess;
        if (fabs(grad / hess) < 1e-9) break;
    }
    free(x);
    free(y);
    return k;
}

static int dual(const int homes[SEATS], long scenarios, uint64_t seed) {
    clock_t cpu0 = clock();
    double sum[2] = {0, 0}, sq[2] = {0, 0}, pair_sq = 0;
    uint64_t most = 0;
    rng_state = seed;
    for (long k = 0; k < scenarios; k++) {
        draw_scenario();
        double v[2];
        for (int turn = 0; turn < 2; turn++) {
            State s0 = start_state(homes, turn);
            leaves = 0;
            v[turn] = penalised(&s0, 0);
            if (leaves > most) most = leaves;
            sum[turn] += v[turn];
            sq[turn] += v[turn] * v[turn];
        }
        pair_sq += (v[0] + v[1]) * (v[0] + v[1]) / 4;
    }
    double n = (double)scenarios, mean = (sum[0] + sum[1]) / (2 * n);
    double se = sqrt(fmax(0, pair_sq / n - mean * mean) / (n - 1));
    printf("scenarios %ld\n", scenarios);
    printf("scale %.6f\n", solved ? 0.0 : scale);
    printf("dual %.6f %.6f %.6f\n", sum[0] / n, sum[1] / n, mean);
    printf("dual_se %.6f %.6f %.6f\n", sqrt(fmax(0, sq[0] / n - sum[0] * sum[0] / n / n) / (n - 1)),
           sqrt(fmax(0, sq[1] / n - sum[1] * sum[1] / n / n) / (n - 1)), se);
    printf("most_leaves %llu\n", (unsigned long long)most);
    printf("dual_cpu_seconds %.1f\n", (double)(clock() - cpu0) / CLOCKS_PER_SEC);
    return 0;
}

/* ---- turns: the move generator and medium, for the cross-check against puluc ------------------------------- */

static void print_state(const State *s) {
    printf("%d %d %d %d %d", s->turn, s->home[0], s->home[1], s->home[2], s->home[3]);
    for (int t = 0; t < SEATS; t++) {
        printf(" %d %d", s->cell[t], s->cell[t] < 0 ? 0 : s->dir[t]);
        for (int j = 0; j < SEATS; j++) printf(" %d", s->below[t][j]);
    }
}

/* One state a line: turn, homes (4), then per seat: cell (-1 none), direction, pieces under it per seat (4); then
 * the two throws. Prints each end of the turn, a line each: medium's chance of it, then "over A" / "over B" or the
 * state in the same format (before the next seat's throw); then "done". */
static int turns(void) {
    int v[31];
    for (;;) {
        for (int i = 0; i < 31; i++)
            if (scanf("%d", &v[i]) != 1) return 0;
        int ok = v[0] >= 0 && v[0] < SEATS && v[29] >= 1 && v[29] <= 5 && v[30] >= 1 && v[30] <= 5;
        for (int t = 0; t < SEATS; t++) {
            const int *w = &v[5 + 6 * t];
            ok = ok && v[1 + t] >= 0 && v[1 + t] <= PIECES && w[0] >= -1 && w[0] < L && (w[1] == 0 || w[1] == 1);
            for (int j = 0; j < SEATS; j++) ok = ok && w[2 + j] >= 0 && w[2 + j] <= PIECES;
        }
        if (!ok) { fprintf(stderr, "not a state: a value is out of range\n"); return 2; }
        State s;
        memset(&s, 0, sizeof s);
        s.turn = (uint8_t)v[0];
        for (int t = 0; t < SEATS; t++) {
            s.home[t] = (uint8_t)v[1 + t];
            const int *w = &v[5 + 6 * t];
            s.cell[t] = (int8_t)w[0];
            s.dir[t] = (uint8_t)w[1];
            for (int j = 0; j < SEATS; j++) s.below[t][j] = (uint8_t)w[2 + j];
        }
        State back;
        decode(encode(&s), &back);
        if (s.turn >= 2) { State sw; swap_seats(&back, &sw); back = sw; }
        if (memcmp(&back, &s, sizeof s)) { fprintf(stderr, "the key does not round-trip\n"); return 3; }
        End ends[2];
        int pick, c = turn_ends(&s, v[29], v[30], ends, &pick);
        int picked = (pick & 1) + (pick >> 1 & 1);
        for (int e = 0; e < c; e++) {
            printf("%.6f ", (pick >> e & 1) ? 1.0 / picked : 0.0);
            if (ends[e].won) printf("over %c", ends[e].won == 1 ? 'A' : 'B');
            else print_state(&ends[e].st);
            printf("\n");
        }
        printf("done\n");
        fflush(stdout);
    }
}

static int parse_homes(const char *text, int homes[SEATS]) {
    if (sscanf(text, "%d,%d,%d,%d", &homes[0], &homes[1], &homes[2], &homes[3]) != 4) return 0;
    for (int t = 0; t < SEATS; t++)
        if (homes[t] < 0 || homes[t] > PIECES) return 0;
    return homes[0] + homes[2] > 0 && homes[1] + homes[3] > 0;
}

/* The penalty's estimate for `dual`: medium (a logistic curve of medium's evaluation), learned (the logistic model
 * of learn()), learned:exact (the same, and its error against the solved values), exact (the solved values),
 * exact:SIGMA (those plus a fixed normal noise of SIGMA a state: how good an estimate must be). */
static int set_estimate(const char *how, const int homes[SEATS]) {
    if (!strcmp(how, "medium")) {
        rng_state = 0x5eed;
        scale = fit_scale(homes, 2000);
        return 0;
    }
    if (!strcmp(how, "learned") || !strcmp(how, "learned:exact")) {
        rng_state = 0x1ea7;
        learn(homes, 2000);
        if (!strcmp(how, "learned")) return 0;
        int rc = solve(homes);
        if (rc) return rc;
        double se = 0, sa = 0;
        for (uint32_t q = 0; q < nstates; q++) {
            State st;
            decode(keys[q], &st);
            double d = learned_estimate(&st) - solved[q];
            se += d * d;
            sa += fabs(d);
        }
        printf("learned_error %.4f %.4f\n", sqrt(se / nstates), sa / nstates); /* root mean square, mean */
        solved = NULL;
        return 0;
    }
    if (!strncmp(how, "exact", 5) && (!how[5] || how[5] == ':')) {
        noise = how[5] ? atof(how + 6) : 0;
        return solve(homes);
    }
    fprintf(stderr, "unknown estimate %s: medium, learned, learned:exact, exact or exact:SIGMA\n", how);
    return 2;
}

int main(int argc, char **argv) {
    int homes[SEATS] = {PIECES, PIECES, PIECES, PIECES};
    if (argc < 3 || (argc >= 4 && !parse_homes(argv[3], homes))) goto usage;
    const char *command = argv[1];
    L = atoi(argv[2]);
    if (L < 5 || L > MAXL || L % 2 == 0) {
        fprintf(stderr, "the road must be odd, 5 to %d cells\n", MAXL);
        return 2;
    }
    outcomes();
    placements();
    if (!strcmp(command, "count") && argc <= 4) {
        explore(homes, 1);
        printf("positions %u\n", nstates);
        return 0;
    }
    if (!strcmp(command, "solve") && argc <= 5) {
        table_path = argc == 5 ? argv[4] : NULL;
        return solve(homes);
    }
    if (!strcmp(command, "turns") && argc == 3) return turns();
    if (!strcmp(command, "hindsight") && (argc == 5 || argc == 6))
        return hindsight(homes, atol(argv[4]), argc == 6 ? strtoull(argv[5], NULL, 10) : 1, 100000000ULL);
    if (!strcmp(command, "dual") && (argc == 6 || argc == 7)) {
        int rc = set_estimate(argv[5], homes);
        return rc ? rc : dual(homes, atol(argv[4]), argc == 7 ? strtoull(argv[6], NULL, 10) : 1);
    }
usage:
    fprintf(stderr,
            "usage: exact_2v2 count ROAD [HOMES] | solve ROAD [HOMES [TABLE]] | turns ROAD\n"
            "       | hindsight ROAD HOMES SCENARIOS [SEED] | dual ROAD HOMES SCENARIOS ESTIMATE [SEED]\n"
            "HOMES: pieces at home per seat A1,B1,A2,B2, e.g. 5,5,5,5 (the others dead)\n");
    return 2;
}
