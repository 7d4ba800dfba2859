/* Exact solutions of Puluc 1 v 1 on the army (Bell) and ants routes, stack capture, bell sticks, with one throw
 * a turn (modern, road of 9) or two throws and one active piece (traditional, road of 9, or any length given
 * in the environment variable PULUC_ROAD). Built and driven by
 * benchmarks/exact_1v1.py; a research tool run by hand, not part of the product (the AI is pure Python).
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
static int L = 9; /* the road's length */
typedef struct {
    uint8_t len[MAXL];
    uint8_t dir[MAXL]; /* the top piece's direction in its owner's frame: 0 outbound (+), 1 inbound (-) */
    uint16_t bits[MAXL];
    uint8_t home[2];
} State;

static const double PROB[6] = {0, 4 / 16.0, 6 / 16.0, 4 / 16.0, 1 / 16.0, 1 / 16.0};
static int ants;        /* the ants route (else army) */
static int traditional; /* two throws a turn and one active piece (else one throw a turn) */
#define WIN_KEY UINT64_MAX
#define WIN_IDX UINT32_MAX

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
}

static int mine(const State *s, int i) { return s->len[i] && !(s->bits[i] & 1); }

static int enemy_out(const State *s) {
    if (s->home[1]) return 0;
    for (int i = 0; i < L; i++)
        if (s->len[i] && (s->bits[i] & 1)) return 0;
    return 1;
}

static int killed(const State *s) {
    int on = 0;
    for (int i = 0; i < L; i++) on += s->len[i];
    return 2 * PIECES - s->home[0] - s->home[1] - on;
}

/* Every legal move of mine with a throw of n: the states after it (not flipped) and their sources (0 = enter,
 * i + 1 = the stack on index i). */
static int moves(const State *s, int n, State *out, int *src) {
    int c = 0, tops = 0;
    for (int i = 0; i < L; i++) tops += mine(s, i);
    if (s->home[0] && !(traditional && tops)) {
        int d = n - 1;
        if (!mine(s, d)) {
            State *t = &out[c];
            *t = *s;
            t->home[0]--;
            t->bits[d] = (uint16_t)(t->bits[d] << 1);
            t->dir[d] = (uint8_t)(t->len[d] ? (ants ? 1 : 0) : (ants && n >= L));
            t->len[d]++;
            src[c++] = 0;
        }
    }
    for (int i = 0; i < L; i++) {
        if (!mine(s, i)) continue;
        int size = s->len[i], dest, dir, arrive;
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
        State *t = &out[c];
        uint16_t bits = s->bits[i];
        *t = *s;
        t->len[i] = 0;
        t->bits[i] = 0;
        t->dir[i] = 0;
        if (arrive) {  // enemy pieces are killed, own pieces go home
            t->home[0] += (uint8_t)(size - __builtin_popcount(bits));
        } else if (t->len[dest]) {
            if (!(t->bits[dest] & 1)) continue;  // never onto an own stack
            t->bits[dest] = (uint16_t)(bits | (t->bits[dest] << size));
            t->len[dest] = (uint8_t)(size + t->len[dest]);
            t->dir[dest] = (uint8_t)(ants ? 1 : 0);  // a capture turns the ants inbound
        } else {
            t->bits[dest] = bits;
            t->len[dest] = (uint8_t)size;
            t->dir[dest] = (uint8_t)dir;
        }
        src[c++] = i + 1;
    }
    return c;
}

/* The ends of my turn with throws a (and b, traditional): keys of the positions the enemy then faces (WIN_KEY
 * when the enemy is out), distinct. With no legal move at all the only end is the unchanged board (a pass). */
static int turn_ends(const State *s, int a, int b, uint64_t *ends) {
    State first[8], second[8], f;
    int src[8], c = 0;
    int throws[2] = {a, b}, count = traditional ? 2 : 1;
    for (int k = 0; k < count; k++) {
        if (k == 1 && a == b) break;
        int m = moves(s, throws[k], first, src);
        for (int j = 0; j < m; j++) {
            const State *t = &first[j];
            uint64_t key;
            int m2 = (count == 2 && !enemy_out(t)) ? moves(t, throws[1 - k], second, src) : 0;
            if (m2 == 0) {
                key = enemy_out(t) ? WIN_KEY : (flip(t, &f), encode(&f));
                int seen = 0;
                for (int e = 0; e < c; e++) seen |= ends[e] == key;
                if (!seen) ends[c++] = key;
            }
            for (int j2 = 0; j2 < m2; j2++) {
                key = enemy_out(&second[j2]) ? WIN_KEY : (flip(&second[j2], &f), encode(&f));
                int seen = 0;
                for (int e = 0; e < c; e++) seen |= ends[e] == key;
                if (!seen) ends[c++] = key;
            }
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
                if (ends[e] != WIN_KEY) intern(ends[e], 1);
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
 * off[e * no + o] .. off[e * no + o + 1] of succ, each a state index or WIN_IDX. */
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
            for (int j = 0; j < c; j++) g.succ[n++] = ends[j] == WIN_KEY ? WIN_IDX : intern(ends[j], 0);
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
        layer[q] = (uint8_t)killed(&s);
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
                        double x = g.succ[j] == WIN_IDX ? 1.0 : 1.0 - w[g.succ[j]];
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
    State first[8], second[8], f;
    int src[8], c = 0, counts[2], throws[2] = {a, b}, n = traditional ? (a == b ? 1 : 2) : 1;
    State all[16];
    int used[16], total = 0;
    for (int k = 0; k < n; k++) {
        counts[k] = moves(s, throws[k], first, src);
        for (int j = 0; j < counts[k]; j++) { all[total] = first[j]; used[total++] = k; }
    }
    if (!total) { flip(s, &f); ends[0] = encode(&f); p[0] = 1.0; return 1; }
    for (int j = 0; j < total; j++) {
        const State *t = &all[j];
        int m2 = (traditional && !enemy_out(t)) ? moves(t, throws[a == b ? 0 : 1 - used[j]], second, src) : 0;
        for (int j2 = 0; j2 < (m2 ? m2 : 1); j2++) {
            const State *e = m2 ? &second[j2] : t;
            ends[c] = enemy_out(e) ? WIN_KEY : (flip(e, &f), encode(&f));
            p[c++] = 1.0 / total / (m2 ? m2 : 1);
        }
    }
    return c;
}

static uint32_t find(uint64_t k) { return intern(k, 0); }

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
            if (killed(&s) == k) ids[m++] = q;
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
                            if (lo == hi) {
                                State fl;
                                flip(&s, &fl);
                                uint32_t t = find(encode(&fl));
                                sum = who ? x[t] : y[t];
                            }
                            for (uint64_t j = lo; j < hi; j++) {
                                double after = pol_key[j] == WIN_KEY ? (who ? 0.0 : 1.0)
                                                                     : (who ? x[find(pol_key[j])] : y[find(pol_key[j])]);
                                sum += pol_p[j] * after;
                            }
                        } else if (pl == EASY) {
                            int c = easy_ends(&s, oa[o], ob[o], ends, ep);
                            for (int j = 0; j < c; j++)
                                sum += ep[j] * (ends[j] == WIN_KEY ? (who ? 0.0 : 1.0) : (who ? x[find(ends[j])] : y[find(ends[j])]));
                        } else {
                            int c = turn_ends(&s, oa[o], ob[o], ends);
                            double best = -1, score[MAX_ENDS], after[MAX_ENDS];
                            for (int j = 0; j < c; j++) {
                                int win = ends[j] == WIN_KEY;
                                uint32_t t = win ? 0 : find(ends[j]);
                                after[j] = win ? (who ? 0.0 : 1.0) : (who ? x[t] : y[t]);
                                score[j] = pl == BR ? after[j] : (win ? 1.0 : 1.0 - w[t]);
                                if (score[j] > best) best = score[j];
                            }
                            int ties = 0;
                            for (int j = 0; j < c; j++)
                                if (score[j] >= best - 1e-7) { sum += after[j]; ties++; }
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

static int setup(const char *route, const char *how, const char *road) {
    L = road ? atoi(road) : 9;
    if (L < 5 || L > MAXL || (L != 9 && !strcmp(how, "modern"))) {
        fprintf(stderr, "the road must be 5 to %d cells, and 9 in the modern setup\n", MAXL);
        return 0;
    }
    if (!strcmp(route, "army")) ants = 0;
    else if (!strcmp(route, "ants")) ants = 1;
    else { fprintf(stderr, "route must be army or ants\n"); return 0; }
    if (!strcmp(how, "modern")) traditional = 0;
    else if (!strcmp(how, "traditional")) traditional = 1;
    else { fprintf(stderr, "setup must be modern or traditional\n"); return 0; }
    return 1;
}

int main(int argc, char **argv) {
    const char *road = getenv("PULUC_ROAD");  /* the road's length, 9 unless given */
    if (argc == 4 && !strcmp(argv[1], "count") && setup(argv[2], argv[3], road)) { explore(); return 0; }
    if (argc == 5 && !strcmp(argv[1], "solve") && setup(argv[2], argv[3], road)) return solve(argv[4]);
    if (argc == 8 && !strcmp(argv[1], "match") && setup(argv[2], argv[3], road)) {
        int py = player(argv[7]);
        if (py == BR) { fprintf(stderr, "the second player must be a fixed player\n"); return 2; }
        return match(argv[4], argv[5], player(argv[6]), py);
    }
    fprintf(stderr, "usage: exact_1v1 count|solve|match ROUTE SETUP [TABLE [POLICY X Y]]\n");
    return 2;
}
