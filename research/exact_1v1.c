/* Exact solutions of Puluc 1 v 1 on the army (Bell) and ants routes, stack capture, bell sticks, with one throw
 * a turn (modern, road of 9) or two throws and one active piece (traditional, road of 9, or any length given
 * in the environment variable PULUC_ROAD). Built and driven by
 * research/exact_1v1.py; a research tool run by hand, not part of the product (the AI is pure Python).
 *
 *   exact_1v1 count ROUTE SETUP            how many positions are reachable (cheap: no values)
 *   exact_1v1 solve ROUTE SETUP TABLE      every reachable position and its value -> TABLE
 *   exact_1v1 match ROUTE SETUP TABLE POLICY X Y
 *                                          X's exact chance to beat Y, each side starting half the games
 *
 * ROUTE is army or ants, SETUP modern or traditional. A state is seen from the seat about to throw ("me",
 * moving from index 0 towards L - 1; the enemy moves the other way): the stack on each cell top first (bit j of
 * `bits` set = piece j is the enemy's), the top piece's direction in its owner's frame, and both homes. Kills
 * need no place: with stack capture and no fire the team that is not out always wins (RULES.md section 7: the
 * out team's pieces are all killed or held, so the other scores all five), and the mover never puts itself out.
 * Values: W(s) = P(me wins | s, before my throw), the maximin value when both sides play perfectly, by value
 * iteration. The total of killed pieces never falls, so the states are solved in layers from the most killed
 * down, each to a change below 1e-11 (Gauss-Seidel sweeps over one layer's successor lists, built per layer, so
 * memory stays at about 30 bytes a state plus the largest layer's lists).
 *
 * A turn of two throws is one decision here: its end is chosen among every way to play the throws (either
 * order; a throw that allows a move must be used, RULES.md section 6). Players for `match`: br (the best
 * response to Y: the most any player can win against Y), perfect (maximises W, ties shared equally), medium
 * (the ends puluc.ai's medium reaches, read from POLICY, written by exact_1v1.py; ties shared equally), easy
 * (every legal move equally at each step).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXL 41
#define PIECES 5
#define MAX_ENDS 64
#define MAX_MOVES 16
static int L = 9; /* the road's length */
typedef struct {
    uint8_t len[MAXL];
    uint8_t dir[MAXL]; /* the top piece's direction in its owner's frame: 0 outbound (+), 1 inbound (-) */
    uint16_t bits[MAXL];
    uint8_t home[2];
    uint8_t kills[2]; /* enemy pieces killed by each side: kept only when the score can decide (eagle, fire) */
} State;

static const double PROB[6] = {0, 4 / 16.0, 6 / 16.0, 4 / 16.0, 1 / 16.0, 1 / 16.0};
static int ants;        /* the ants route (else army) */
static int traditional; /* two throws a turn and one active piece (else one throw a turn) */
static int eagle;       /* eagle capture: the target dies, the eagle is spent (or, returns, flies home) */
static int returns;     /* the eagle's house rule */
static int scorpion;    /* backward moves that capture */
static int fire = -1;   /* the burning cell's index, or -1 */
static int scored;      /* kills are part of the state: the score, not who runs out, decides */
/* The ends of a turn that finish the game, by the mover's result; other ends are state keys (never these). */
#define WIN_KEY UINT64_MAX
#define DRAW_KEY (UINT64_MAX - 1)
#define LOSS_KEY (UINT64_MAX - 2)
#define WIN_IDX UINT32_MAX
#define DRAW_IDX (UINT32_MAX - 1)
#define LOSS_IDX (UINT32_MAX - 2)
#define IS_OVER(k) ((k) >= LOSS_KEY)
/* The mover's chance from a finished game's end key. */
static double result(uint64_t k) { return k == WIN_KEY ? 1.0 : k == DRAW_KEY ? 0.5 : 0.0; }

/* On a longer road (traditional only: at most two stacks) the key lists the stacks instead: for each, its cell
 * (6 bits), direction (1), size (4) and pieces top first (a bit each, 1 = enemy); then the cell 63; homes at bits
 * 56 and 60. exact_1v1.py computes the same key. */
static uint64_t encode_sparse(const State *s) {
    uint64_t k = 0;
    int sh = 0;
    for (int i = 0; i < L; i++) {
        if (!s->len[i]) continue;
        k |= (uint64_t)i << sh | (uint64_t)s->dir[i] << (sh + 6) | (uint64_t)s->len[i] << (sh + 7);
        k |= (uint64_t)s->bits[i] << (sh + 11);
        sh += 11 + s->len[i];
    }
    k |= (uint64_t)63 << sh;
    return k | (uint64_t)s->home[0] << 56 | (uint64_t)s->home[1] << 60;
}

static void decode_sparse(uint64_t k, State *s) {
    memset(s, 0, sizeof *s);
    for (int sh = 0;;) {
        int i = (k >> sh) & 63;
        if (i == 63) break;
        s->dir[i] = (k >> (sh + 6)) & 1;
        s->len[i] = (k >> (sh + 7)) & 15;
        s->bits[i] = (uint16_t)((k >> (sh + 11)) & ((1u << s->len[i]) - 1));
        sh += 11 + s->len[i];
    }
    s->home[0] = (k >> 56) & 15;
    s->home[1] = (k >> 60) & 15;
}

/* Key: for each cell its pieces top first (1 mine, 2 enemy), then 3 (empty, or the top is outbound) or 0 (the
 * top is inbound); homes at bits 40 and 44. exact_1v1.py computes the same key from a Position. */
static uint64_t encode(const State *s) {
    if (L != 9) return encode_sparse(s);
    uint64_t k = 0;
    int sh = 0;
    for (int i = 0; i < L; i++) {
        for (int j = 0; j < s->len[i]; j++, sh += 2) k |= (uint64_t)(1 + ((s->bits[i] >> j) & 1)) << sh;
        if (!(s->len[i] && s->dir[i])) k |= (uint64_t)3 << sh;
        sh += 2;
    }
    k |= (uint64_t)s->kills[0] << 48 | (uint64_t)s->kills[1] << 52;
    return k | (uint64_t)s->home[0] << 40 | (uint64_t)s->home[1] << 44;
}

static void decode(uint64_t k, State *s) {
    if (L != 9) { decode_sparse(k, s); return; }
    memset(s, 0, sizeof *s);
    int sh = 0;
    for (int i = 0; i < L; i++) {
        for (;;) {
            int sym = (k >> sh) & 3;
            sh += 2;
            if (sym == 3) break;
            if (sym == 0) { s->dir[i] = 1; break; }
            s->bits[i] |= (uint16_t)((sym - 1) << s->len[i]);
            s->len[i]++;
        }
    }
    s->home[0] = (k >> 40) & 15;
    s->home[1] = (k >> 44) & 15;
    s->kills[0] = (k >> 48) & 15;
    s->kills[1] = (k >> 52) & 15;
}

/* The same position seen from the other team. */
static void flip(const State *a, State *b) {
    for (int i = 0; i < L; i++) {
        int n = a->len[i];
        b->len[L - 1 - i] = (uint8_t)n;
        b->dir[L - 1 - i] = a->dir[i];
        b->bits[L - 1 - i] = n ? (uint16_t)(a->bits[i] ^ ((1u << n) - 1)) : 0;
    }
    b->home[0] = a->home[1];
    b->home[1] = a->home[0];
    b->kills[0] = a->kills[1];
    b->kills[1] = a->kills[0];
}

static int mine(const State *s, int i) { return s->len[i] && !(s->bits[i] & 1); }

/* Whether side 0 (me) or 1 (the enemy) is out: no piece at home and none on top of a stack. */
static int out(const State *s, int side) {
    if (s->home[side]) return 0;
    for (int i = 0; i < L; i++)
        if (s->len[i] && (s->bits[i] & 1) == side) return 0;
    return 1;
}

/* Pieces no longer in the game (killed, burned or spent): never fewer after a move, so it orders the solve. */
static int removed(const State *s) {
    int on = 0;
    for (int i = 0; i < L; i++) on += s->len[i];
    return 2 * PIECES - s->home[0] - s->home[1] - on;
}

/* A side's score (RULES.md section 7): enemy pieces it killed plus enemy pieces held under its stacks. Without
 * eagle or fire every enemy piece not at home or on the road was killed, so the kills need no place. */
static int score(const State *s, int side) {
    int held = 0, enemy_left = s->home[1 - side];
    for (int i = 0; i < L; i++) {
        if (!s->len[i]) continue;
        int top = s->bits[i] & 1;
        for (int j = 0; j < s->len[i]; j++) {
            int piece = (s->bits[i] >> j) & 1;
            if (piece != side) {
                enemy_left++;
                if (top == side) held++;
            }
        }
    }
    return held + (scored ? s->kills[side] : PIECES - enemy_left);
}

/* The end of a move for me: 0 while the game goes on, else WIN_KEY, DRAW_KEY or LOSS_KEY. */
static uint64_t finished(const State *t) {
    if (!out(t, 0) && !out(t, 1)) return 0;
    int mine = score(t, 0), theirs = score(t, 1);
    return mine > theirs ? WIN_KEY : mine == theirs ? DRAW_KEY : LOSS_KEY;
}

/* The stack (or entering piece) `moving` of mine, `size` pieces (bits: 1 = enemy), lands on index `dest` with
 * direction `dir`: burns on the fire, lands on an empty cell, or captures. 0 when the landing is not legal. */
static int land(State *t, int dest, int size, uint16_t bits, int dir, int backward) {
    int target = t->len[dest];
    if (backward && !(target && (t->bits[dest] & 1))) return 0;  // a scorpion's move always captures
    if (dest == fire) return 1;                                    // burned whole: gone, no kills
    if (!target) {
        t->len[dest] = (uint8_t)size;
        t->bits[dest] = bits;
        t->dir[dest] = (uint8_t)dir;
        return 1;
    }
    if (!(t->bits[dest] & 1)) return 0;  // never onto an own stack
    if (eagle) {                         // the lone target dies; the eagle is spent or flies home
        t->len[dest] = 0;
        t->bits[dest] = 0;
        t->dir[dest] = 0;
        t->kills[0]++;
        if (returns) t->home[0]++;
        return 1;
    }
    t->bits[dest] = (uint16_t)(bits | (t->bits[dest] << size));
    t->len[dest] = (uint8_t)(size + target);
    t->dir[dest] = (uint8_t)(ants ? 1 : 0);  // a capture turns the ants inbound; army stays outbound
    return 1;
}

/* Every legal move of mine with a throw of n: the states after it (not flipped) and their sources (0 = enter,
 * i + 1 = the stack on index i, forward; -(i + 1) backward). */
static int moves(const State *s, int n, State *out_, int *src) {
    int c = 0, tops = 0;
    for (int i = 0; i < L; i++) tops += mine(s, i);
    if (s->home[0] && !(traditional && tops)) {
        State *t = &out_[c];
        *t = *s;
        t->home[0]--;
        if (land(t, n - 1, 1, 0, ants && n >= L, 0)) src[c++] = 0;
    }
    for (int i = 0; i < L; i++) {
        if (!mine(s, i)) continue;
        int size = s->len[i], dest, dir, arrive;
        uint16_t bits = s->bits[i];
        if (ants) {
            int p = s->dir[i] ? 2 * L - (i + 1) : i + 1, q = p + n;
            arrive = q > 2 * L - 1;
            dest = (q <= L ? q : 2 * L - q) - 1;
            dir = q >= L;
        } else {
            dest = i + n;
            arrive = dest >= L;
            dir = 0;
        }
        State *t = &out_[c];
        *t = *s;
        t->len[i] = 0;
        t->bits[i] = 0;
        t->dir[i] = 0;
        if (arrive) {  // enemy pieces are killed, own pieces go home
            int enemies = __builtin_popcount(bits);
            t->home[0] += (uint8_t)(size - enemies);
            if (scored) t->kills[0] += (uint8_t)enemies;
            src[c++] = i + 1;
        } else if (land(t, dest, size, bits, dir, 0)) {
            src[c++] = i + 1;
        }
        if (scorpion) {  // back along the route by n, only onto an enemy stack
            int q = (ants ? (s->dir[i] ? 2 * L - (i + 1) : i + 1) : i + 1) - n;
            if (q < 1) continue;
            int back = (q <= L ? q : 2 * L - q) - 1;
            if (back == i) continue;
            t = &out_[c];
            *t = *s;
            t->len[i] = 0;
            t->bits[i] = 0;
            t->dir[i] = 0;
            if (land(t, back, size, bits, ants ? 1 : 0, 1)) src[c++] = -(i + 1);
        }
    }
    return c;
}

/* The key of a move's end for the enemy to face next, or the game's result for me (WIN_KEY, DRAW_KEY, LOSS_KEY). */
static uint64_t end_key(const State *t) {
    uint64_t over = finished(t);
    if (over) return over;
    State f;
    flip(t, &f);
    return encode(&f);
}

static int add_end(uint64_t *ends, int c, uint64_t key) {
    for (int e = 0; e < c; e++)
        if (ends[e] == key) return c;
    ends[c] = key;
    return c + 1;
}

/* The ends of my turn with throws a (and b, traditional): distinct end keys (end_key). With no legal move at all
 * the only end is the unchanged board (a pass). */
static int turn_ends(const State *s, int a, int b, uint64_t *ends) {
    State first[MAX_MOVES], second[MAX_MOVES], f;
    int src[MAX_MOVES], c = 0;
    int throws[2] = {a, b}, count = traditional ? 2 : 1;
    for (int k = 0; k < count; k++) {
        if (k == 1 && a == b) break;
        int m = moves(s, throws[k], first, src);
        for (int j = 0; j < m; j++) {
            const State *t = &first[j];
            int m2 = (count == 2 && !finished(t)) ? moves(t, throws[1 - k], second, src) : 0;
            if (m2 == 0) c = add_end(ends, c, end_key(t));
            for (int j2 = 0; j2 < m2; j2++) c = add_end(ends, c, end_key(&second[j2]));
        }
    }
    if (!c) {
        flip(s, &f);
        ends[c++] = encode(&f);
    }
    return c;
}

/* The throws of a turn: (a, b, probability); b is unused with one throw a turn. */
static int outcomes(int *oa, int *ob, double *op) {
    int c = 0;
    for (int a = 1; a <= 5; a++) {
        if (!traditional) { oa[c] = a; ob[c] = 0; op[c++] = PROB[a]; continue; }
        for (int b = a; b <= 5; b++) { oa[c] = a; ob[c] = b; op[c++] = PROB[a] * PROB[b] * (a == b ? 1 : 2); }
    }
    return c;
}

/* ---- the set of states ----------------------------------------------------------------------------- */

static uint64_t hmask, *keys, kcap;
static uint32_t *slots, nstates; /* an open-addressing table of state index + 1 (0: empty), keyed by keys[] */

static uint64_t mix(uint64_t k) {
    k ^= k >> 33; k *= 0xff51afd7ed558ccdULL; k ^= k >> 33; k *= 0xc4ceb9fe1a85ec53ULL;
    return k ^ (k >> 33);
}

static void grow(int bits) {  /* a table of 2^bits slots holding every state so far */
    free(slots);
    hmask = (1ULL << bits) - 1;
    slots = calloc(hmask + 1, 4);
    if (!slots) { fprintf(stderr, "out of memory\n"); exit(2); }
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
            if (!insert) { fprintf(stderr, "unknown state %llx\n", (unsigned long long)k); exit(2); }
            if (nstates == kcap) keys = realloc(keys, (kcap *= 2) * 8);
            keys[nstates] = k;
            slots[h] = ++nstates;
            if (nstates > (hmask + 1) / 3) {
                int bits = 1;
                while ((1ULL << bits) <= hmask) bits++;
                grow(bits + 1);
            }
            return nstates - 1;
        }
    }
}

/* Every reachable state, breadth first from the start (either side to throw first). */
static void explore(void) {
    keys = malloc((kcap = 1 << 20) * 8);
    grow(20);
    State s0 = {0}, s;
    s0.home[0] = s0.home[1] = PIECES;
    intern(encode(&s0), 1);
    int oa[15], ob[15];
    double op[15];
    int no = outcomes(oa, ob, op);
    uint64_t ends[MAX_ENDS];
    for (uint32_t q = 0; q < nstates; q++) {
        decode(keys[q], &s);
        for (int o = 0; o < no; o++) {
            int c = turn_ends(&s, oa[o], ob[o], ends);
            for (int e = 0; e < c; e++)
                if (!IS_OVER(ends[e])) intern(ends[e], 1);
        }
    }
    fprintf(stderr, "reachable positions (seen by the player to throw): %u\n", nstates);
}

/* ---- solve ---------------------------------------------------------------------------------------- */

static uint64_t *sort_base;
static int by_key(const void *a, const void *b) {
    uint64_t x = sort_base[*(const uint32_t *)a], y = sort_base[*(const uint32_t *)b];
    return x < y ? -1 : x > y;
}

/* The successors of every state of one layer, for fast sweeps: for state ids[e] and outcome o, entries
 * off[e * no + o] .. off[e * no + o + 1] of succ, each a state index, or WIN_IDX, DRAW_IDX or LOSS_IDX. */
typedef struct {
    uint32_t *off, *succ;
} Layer;

static Layer build_layer(const uint32_t *ids, uint32_t m, int no, const int *oa, const int *ob) {
    Layer g;
    uint64_t cap = (uint64_t)m * no * 2 + 16, n = 0;
    uint64_t ends[MAX_ENDS];
    g.off = malloc(((uint64_t)m * no + 1) * 4);
    g.succ = malloc(cap * 4);
    for (uint32_t e = 0; e < m; e++) {
        State s;
        decode(keys[ids[e]], &s);
        for (int o = 0; o < no; o++) {
            g.off[(uint64_t)e * no + o] = (uint32_t)n;
            int c = turn_ends(&s, oa[o], ob[o], ends);
            if (n + c > cap) g.succ = realloc(g.succ, (cap *= 2) * 4);
            for (int j = 0; j < c; j++)
                g.succ[n++] = IS_OVER(ends[j]) ? (uint32_t)(WIN_IDX - (WIN_KEY - ends[j])) : intern(ends[j], 0);
        }
    }
    if (n >= UINT32_MAX) { fprintf(stderr, "layer too large\n"); exit(2); }
    g.off[(uint64_t)m * no] = (uint32_t)n;
    return g;
}

static int solve(const char *path) {
    explore();
    double *w = malloc((uint64_t)nstates * 8);
    uint8_t *layer = malloc(nstates);
    uint32_t *ids = malloc((uint64_t)nstates * 4);
    int oa[15], ob[15];
    double op[15];
    int no = outcomes(oa, ob, op);
    for (uint32_t q = 0; q < nstates; q++) {
        State s;
        decode(keys[q], &s);
        layer[q] = (uint8_t)removed(&s);
        w[q] = 0.5;
    }
    for (int k = 2 * PIECES; k >= 0; k--) {
        uint32_t m = 0;
        for (uint32_t q = 0; q < nstates; q++)
            if (layer[q] == k) ids[m++] = q;
        if (!m) continue;
        Layer g = build_layer(ids, m, no, oa, ob);
        int it;
        for (it = 0;; it++) {  // Gauss-Seidel sweeps over the layer
            double delta = 0;
            for (uint32_t e = 0; e < m; e++) {
                double v = 0;
                for (int o = 0; o < no; o++) {
                    uint32_t a = g.off[(uint64_t)e * no + o], b = g.off[(uint64_t)e * no + o + 1];
                    double best = 0;
                    for (uint32_t j = a; j < b; j++) {
                        uint32_t t = g.succ[j];
                        double x = t >= LOSS_IDX ? result(WIN_KEY - (WIN_IDX - t)) : 1.0 - w[t];
                        if (x > best) best = x;
                    }
                    v += op[o] * best;
                }
                uint32_t q = ids[e];
                if (fabs(v - w[q]) > delta) delta = fabs(v - w[q]);
                w[q] = v;
            }
            if (delta < 1e-11) break;
        }
        free(g.off);
        free(g.succ);
        fprintf(stderr, "layer of %d killed: %u positions, %d sweeps\n", k, m, it + 1);
    }
    State s0 = {0};
    s0.home[0] = s0.home[1] = PIECES;
    fprintf(stderr, "value of the start for the first player: %.6f\n", w[intern(encode(&s0), 0)]);
    uint32_t *order = ids;
    for (uint32_t q = 0; q < nstates; q++) order[q] = q;
    sort_base = keys;
    qsort(order, nstates, 4, by_key);
    FILE *fo = fopen(path, "wb");
    if (!fo) { perror(path); return 2; }
    fwrite(&nstates, 4, 1, fo);
    for (uint32_t q = 0; q < nstates; q++) fwrite(&keys[order[q]], 8, 1, fo);
    for (uint32_t q = 0; q < nstates; q++) {
        float x = (float)w[order[q]];
        fwrite(&x, 4, 1, fo);
    }
    return fclose(fo) ? 2 : 0;
}

/* ---- match ---------------------------------------------------------------------------------------- */

enum { BR, PERFECT, MEDIUM, EASY };
static const char *NAMES[] = {"br", "perfect", "medium", "easy"};
static int player(const char *name) {
    for (int i = 0; i < 4; i++)
        if (!strcmp(name, NAMES[i])) return i;
    fprintf(stderr, "unknown player %s\n", name);
    exit(2);
}

/* Medium's ends for every state and throw: offsets into (key, chance) lists, read from POLICY. */
static uint64_t *pol_off, *pol_key;
static float *pol_p;

static void read_policy(const char *path, int no) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); exit(2); }
    uint64_t cap = (uint64_t)nstates * no * 2 + 16, n = 0;
    pol_off = malloc(((uint64_t)nstates * no + 1) * 8);
    pol_key = malloc(cap * 8);
    pol_p = malloc(cap * 4);
    for (uint64_t r = 0; r < (uint64_t)nstates * no; r++) {
        uint8_t count;
        if (fread(&count, 1, 1, f) != 1) { fprintf(stderr, "%s: no policy for every state\n", path); exit(2); }
        pol_off[r] = n;
        for (int j = 0; j < count; j++, n++) {
            if (n == cap) { cap *= 2; pol_key = realloc(pol_key, cap * 8); pol_p = realloc(pol_p, cap * 4); }
            if (fread(&pol_key[n], 8, 1, f) != 1 || fread(&pol_p[n], 4, 1, f) != 1) { fprintf(stderr, "%s is truncated\n", path); exit(2); }
        }
    }
    pol_off[(uint64_t)nstates * no] = n;
    fclose(f);
}

/* Easy's ends with throws a (and b): every legal move equally likely at each step. */
static int easy_ends(const State *s, int a, int b, uint64_t *ends, double *p) {
    State first[MAX_MOVES], second[MAX_MOVES], all[2 * MAX_MOVES], f;
    int src[MAX_MOVES], c = 0, throws[2] = {a, b}, n = traditional ? (a == b ? 1 : 2) : 1;
    int used[2 * MAX_MOVES], total = 0;
    for (int k = 0; k < n; k++) {
        int count = moves(s, throws[k], first, src);
        for (int j = 0; j < count; j++) { all[total] = first[j]; used[total++] = k; }
    }
    if (!total) { flip(s, &f); ends[0] = encode(&f); p[0] = 1.0; return 1; }
    for (int j = 0; j < total; j++) {
        const State *t = &all[j];
        int m2 = (traditional && !finished(t)) ? moves(t, throws[a == b ? 0 : 1 - used[j]], second, src) : 0;
        for (int j2 = 0; j2 < (m2 ? m2 : 1); j2++) {
            ends[c] = end_key(m2 ? &second[j2] : t);
            p[c++] = 1.0 / total / (m2 ? m2 : 1);
        }
    }
    return c;
}

static uint32_t find(uint64_t k) { return intern(k, 0); }

/* X's chance to win after a turn's end `k`: X made it (who 0; Y throws next) or Y made it (who 1). */
static double after(uint64_t k, int who, const double *x, const double *y) {
    if (IS_OVER(k)) return who ? 1.0 - result(k) : result(k);
    uint32_t t = find(k);
    return who ? x[t] : y[t];
}

static int match(const char *table, const char *policy_path, int px, int py) {
    FILE *f = fopen(table, "rb");
    if (!f || fread(&nstates, 4, 1, f) != 1) { perror(table); return 2; }
    keys = malloc((uint64_t)nstates * 8);
    float *w = malloc((uint64_t)nstates * 4);
    if (fread(keys, 8, nstates, f) != nstates || fread(w, 4, nstates, f) != nstates) {
        fprintf(stderr, "%s is truncated\n", table);
        return 2;
    }
    fclose(f);
    kcap = nstates;
    int bits = 1;
    while ((1ULL << bits) < 2ULL * nstates) bits++;
    grow(bits + 1);
    int oa[15], ob[15];
    double op[15];
    int no = outcomes(oa, ob, op);
    if (px == MEDIUM || py == MEDIUM) read_policy(policy_path, no);
    /* x[q]: X's chance to win when X is to throw at q; y[q]: X's chance when Y is to throw at q. */
    double *x = malloc((uint64_t)nstates * 8), *y = malloc((uint64_t)nstates * 8);
    uint32_t *ids = malloc((uint64_t)nstates * 4);
    for (uint32_t q = 0; q < nstates; q++) x[q] = y[q] = 0.5;
    uint64_t ends[MAX_ENDS];
    double ep[MAX_ENDS];
    for (int k = 2 * PIECES; k >= 0; k--) {
        uint32_t m = 0;
        State s;
        for (uint32_t q = 0; q < nstates; q++) {
            decode(keys[q], &s);
            if (removed(&s) == k) ids[m++] = q;
        }
        for (int it = 0; m; it++) {
            double delta = 0;
            for (uint32_t e = 0; e < m; e++) {
                uint32_t q = ids[e];
                decode(keys[q], &s);
                double vx = 0, vy = 0;
                for (int o = 0; o < no; o++) {
                    double side[2];
                    for (int who = 0; who < 2; who++) {  /* who 0: X throws at q; 1: Y throws at q */
                        int pl = who ? py : px;
                        double sum = 0;
                        if (pl == MEDIUM) {
                            uint64_t r = (uint64_t)q * no + o, lo = pol_off[r], hi = pol_off[r + 1];
                            if (lo == hi) {  // no legal move: the throw passes
                                State fl;
                                flip(&s, &fl);
                                sum = after(encode(&fl), who, x, y);
                            }
                            for (uint64_t j = lo; j < hi; j++) sum += pol_p[j] * after(pol_key[j], who, x, y);
                        } else if (pl == EASY) {
                            int c = easy_ends(&s, oa[o], ob[o], ends, ep);
                            for (int j = 0; j < c; j++) sum += ep[j] * after(ends[j], who, x, y);
                        } else {
                            int c = turn_ends(&s, oa[o], ob[o], ends);
                            double best = -1, score[MAX_ENDS], then[MAX_ENDS];
                            for (int j = 0; j < c; j++) {
                                then[j] = after(ends[j], who, x, y);
                                score[j] = pl == BR ? then[j] : IS_OVER(ends[j]) ? result(ends[j]) : 1.0 - w[find(ends[j])];
                                if (score[j] > best) best = score[j];
                            }
                            int ties = 0;
                            for (int j = 0; j < c; j++)
                                if (score[j] >= best - 1e-7) { sum += then[j]; ties++; }
                            sum /= ties;
                        }
                        side[who] = sum;
                    }
                    vx += op[o] * side[0];
                    vy += op[o] * side[1];
                }
                double d = fabs(vx - x[q]) + fabs(vy - y[q]);
                if (d > delta) delta = d;
                x[q] = vx;
                y[q] = vy;
            }
            if (delta < 1e-11) break;
        }
    }
    State s0 = {0};
    s0.home[0] = s0.home[1] = PIECES;
    uint32_t start = find(encode(&s0));
    printf("%s %s %.6f %.6f %.6f\n", NAMES[px], NAMES[py], x[start], y[start], (x[start] + y[start]) / 2);
    return 0;
}

/* RULES: the route (army or ants), the setup (modern or traditional) and any of eagle, returns, scorpion and
 * fire, joined by commas, e.g. "ants,modern,eagle,fire". The road is 9 cells unless PULUC_ROAD says otherwise
 * (traditional setups without eagle or fire only). */
static int setup(const char *rules, const char *road) {
    char spec[128];
    snprintf(spec, sizeof spec, "%s", rules);
    int route = 0, how = 0, burn = 0;
    for (char *word = strtok(spec, ","); word; word = strtok(NULL, ",")) {
        if (!strcmp(word, "army")) { ants = 0; route = 1; }
        else if (!strcmp(word, "ants")) { ants = 1; route = 1; }
        else if (!strcmp(word, "modern")) { traditional = 0; how = 1; }
        else if (!strcmp(word, "traditional")) { traditional = 1; how = 1; }
        else if (!strcmp(word, "eagle")) eagle = 1;
        else if (!strcmp(word, "returns")) returns = 1;
        else if (!strcmp(word, "scorpion")) scorpion = 1;
        else if (!strcmp(word, "fire")) burn = 1;
        else { fprintf(stderr, "unknown rule %s\n", word); return 0; }
    }
    if (!route || !how || (returns && !eagle)) {
        fprintf(stderr, "rules need a route (army, ants) and a setup (modern, traditional); returns needs eagle\n");
        return 0;
    }
    L = road ? atoi(road) : 9;
    scored = eagle || burn;
    if (L < 5 || L > MAXL || L % 2 == 0 || (L != 9 && (!traditional || scored))) {
        fprintf(stderr, "the road must be odd, 5 to %d cells, and 9 unless traditional without eagle or fire\n", MAXL);
        return 0;
    }
    fire = burn ? (L - 1) / 2 : -1;
    return 1;
}

int main(int argc, char **argv) {
    const char *road = getenv("PULUC_ROAD");
    if (argc == 3 && !strcmp(argv[1], "count") && setup(argv[2], road)) { explore(); return 0; }
    if (argc == 4 && !strcmp(argv[1], "solve") && setup(argv[2], road)) return solve(argv[3]);
    if (argc == 7 && !strcmp(argv[1], "match") && setup(argv[2], road)) {
        int py = player(argv[6]);
        if (py == BR) { fprintf(stderr, "the second player must be a fixed player\n"); return 2; }
        return match(argv[3], argv[4], player(argv[5]), py);
    }
    fprintf(stderr, "usage: exact_1v1 count RULES | solve RULES TABLE | match RULES TABLE POLICY X Y\n");
    return 2;
}
