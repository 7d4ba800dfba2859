/* The exact solution of Puluc Bell 1 v 1 (RULES.md: army route, stack capture, L = 9, one throw a turn,
 * bell sticks), and exact match values between players. Built and driven by benchmarks/bell_exact.py;
 * a research tool run by hand, not part of the product (the product's AI is pure Python in puluc/ai).
 *
 *   bell_exact solve TABLE                 every reachable position and its value -> TABLE
 *   bell_exact match TABLE POLICY X Y      X's exact chance to beat Y, each side starting half the games
 *
 * A state is seen from the seat about to throw ("me", team 0, moving from index 0 towards L - 1; the enemy
 * moves the other way): the stack on each cell top first (bit j of `bits` set = piece j is the enemy's),
 * and both homes. Kills need no place: in Bell the team that is not out wins (RULES.md section 7), so they
 * never change the result. Values: W(s) = P(me wins | s, before my throw), the maximin value when both
 * sides play perfectly, computed by value iteration. The total of killed pieces never falls, so the
 * states are solved in layers from the most killed down, each to a change below 1e-12.
 *
 * Players for `match`: br (the best response to Y: the most any player can win against Y), perfect
 * (maximises W, ties shared equally), medium (choices read from POLICY, written by bell_exact.py from
 * puluc.ai's own medium player, ties shared equally), easy (every legal move equally), greedy (the
 * largest capture, else any move).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define L 9
#define PIECES 5
typedef struct {
    uint8_t len[L];
    uint16_t bits[L];
    uint8_t home[2];
} State;

static const double PROB[6] = {0, 4 / 16.0, 6 / 16.0, 4 / 16.0, 1 / 16.0, 1 / 16.0};
#define WIN_KEY UINT64_MAX
#define WIN_IDX UINT32_MAX

/* Key: for each cell its pieces top first (1 mine, 2 enemy), then 3; homes at bits 40 and 44. Never 0.
 * benchmarks/bell_exact.py computes the same key from a puluc Position. */
static uint64_t encode(const State *s) {
    uint64_t k = 0;
    int sh = 0;
    for (int i = 0; i < L; i++) {
        for (int j = 0; j < s->len[i]; j++, sh += 2) k |= (uint64_t)(1 + ((s->bits[i] >> j) & 1)) << sh;
        k |= (uint64_t)3 << sh;
        sh += 2;
    }
    return k | (uint64_t)s->home[0] << 40 | (uint64_t)s->home[1] << 44;
}

static void decode(uint64_t k, State *s) {
    memset(s, 0, sizeof *s);
    int sh = 0;
    for (int i = 0; i < L; i++) {
        for (;;) {
            int sym = (k >> sh) & 3;
            sh += 2;
            if (sym == 3) break;
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
        b->bits[L - 1 - i] = n ? (uint16_t)(a->bits[i] ^ ((1u << n) - 1)) : 0;
    }
    b->home[0] = a->home[1];
    b->home[1] = a->home[0];
}

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

/* The legal moves of a throw of n: the key of each result seen by the next player (WIN_KEY when the
 * enemy is out), its source (0 = enter, i + 1 = the stack on index i) and the pieces it captures. */
static int moves(const State *s, int n, uint64_t *out, int *src, int *gain) {
    int c = 0;
    State t, f;
    if (s->home[0]) {
        int d = n - 1;
        if (!(s->len[d] && !(s->bits[d] & 1))) {
            t = *s;
            t.home[0]--;
            gain[c] = t.len[d];
            t.bits[d] = (uint16_t)(t.bits[d] << 1);
            t.len[d]++;
            if (enemy_out(&t)) out[c] = WIN_KEY;
            else { flip(&t, &f); out[c] = encode(&f); }
            src[c++] = 0;
        }
    }
    for (int i = 0; i < L; i++) {
        if (!s->len[i] || (s->bits[i] & 1)) continue;
        int d = i + n, size = s->len[i];
        uint16_t bits = s->bits[i];
        t = *s;
        t.len[i] = 0;
        t.bits[i] = 0;
        if (d >= L) {  // arrival: enemy pieces are killed, own pieces go home
            t.home[0] += (uint8_t)(size - __builtin_popcount(bits));
            gain[c] = 0;
        } else {
            if (s->len[d] && !(s->bits[d] & 1)) continue;  // never onto an own stack
            gain[c] = s->len[d];
            t.bits[d] = (uint16_t)(bits | (s->bits[d] << size));
            t.len[d] = (uint8_t)(size + s->len[d]);
        }
        if (enemy_out(&t)) out[c] = WIN_KEY;
        else { flip(&t, &f); out[c] = encode(&f); }
        src[c++] = i + 1;
    }
    return c;
}

/* ---- solve ---------------------------------------------------------------------------------------- */

static uint64_t *hkeys, hmask, *keys, kcap;
static uint32_t *hvals, nstates;

static uint64_t mix(uint64_t k) {
    k ^= k >> 33; k *= 0xff51afd7ed558ccdULL; k ^= k >> 33; k *= 0xc4ceb9fe1a85ec53ULL;
    return k ^ (k >> 33);
}

static uint32_t intern(uint64_t k, int insert) {
    for (uint64_t h = mix(k) & hmask;; h = (h + 1) & hmask) {
        if (hkeys[h] == k) return hvals[h];
        if (hkeys[h] == 0) {
            if (!insert) return WIN_IDX;
            if (nstates == kcap) keys = realloc(keys, (kcap *= 2) * 8);
            hkeys[h] = k;
            keys[nstates] = k;
            return hvals[h] = nstates++;
        }
    }
}

static uint64_t *sort_base;
static int by_key(const void *a, const void *b) {
    uint64_t x = sort_base[*(const uint32_t *)a], y = sort_base[*(const uint32_t *)b];
    return x < y ? -1 : x > y;
}

typedef struct {  // successor lists: for state q and throw n, entries off[5q + n - 1] .. off[5q + n]
    uint64_t *off;
    uint32_t *succ;  // a state index, WIN_IDX, or PASS then the index of the same board for the next player
    int *src, *gain;
    uint8_t *layer;
} Graph;
#define PASS (UINT32_MAX - 1)

typedef uint32_t (*Finder)(uint64_t);
static uint32_t find_hash(uint64_t k) { return intern(k, 0); }
static uint64_t *sorted_keys;
static uint32_t find_sorted(uint64_t k) {
    uint32_t lo = 0, hi = nstates;
    while (lo < hi) {
        uint32_t m = lo + (hi - lo) / 2;
        if (sorted_keys[m] < k) lo = m + 1; else hi = m;
    }
    if (lo == nstates || sorted_keys[lo] != k) { fprintf(stderr, "unknown state %llx\n", (unsigned long long)k); exit(2); }
    return lo;
}

static Graph build(const uint64_t *ks, Finder find) {
    Graph g;
    uint64_t cap = (uint64_t)nstates * 12, ns = 0, out[8];
    int src[8], gain[8];
    g.off = malloc(((uint64_t)nstates * 5 + 1) * 8);
    g.succ = malloc(cap * 4);
    g.src = malloc(cap * sizeof(int));
    g.gain = malloc(cap * sizeof(int));
    g.layer = malloc(nstates);
    for (uint32_t q = 0; q < nstates; q++) {
        State s, f;
        decode(ks[q], &s);
        g.layer[q] = (uint8_t)killed(&s);
        for (int n = 1; n <= 5; n++) {
            g.off[(uint64_t)q * 5 + n - 1] = ns;
            if (ns + 10 > cap) {
                cap *= 2;
                g.succ = realloc(g.succ, cap * 4);
                g.src = realloc(g.src, cap * sizeof(int));
                g.gain = realloc(g.gain, cap * sizeof(int));
            }
            int c = moves(&s, n, out, src, gain);
            if (!c) {
                flip(&s, &f);
                g.succ[ns] = PASS;
                g.succ[ns + 1] = find(encode(&f));
                ns += 2;
            }
            for (int j = 0; j < c; j++, ns++) {
                g.succ[ns] = out[j] == WIN_KEY ? WIN_IDX : find(out[j]);
                g.src[ns] = src[j];
                g.gain[ns] = gain[j];
            }
        }
    }
    g.off[(uint64_t)nstates * 5] = ns;
    return g;
}

static int solve(const char *path) {
    hmask = (1ULL << 25) - 1;  // 33M slots for about 9.8M states
    hkeys = calloc(hmask + 1, 8);
    hvals = malloc((hmask + 1) * 4);
    keys = malloc((kcap = 1 << 20) * 8);
    State s0 = {0}, s, f;
    s0.home[0] = s0.home[1] = PIECES;
    intern(encode(&s0), 1);
    uint64_t out[8];
    int src[8], gain[8];
    for (uint32_t q = 0; q < nstates; q++) {  // breadth first over every move of either side
        decode(keys[q], &s);
        flip(&s, &f);
        intern(encode(&f), 1);
        for (int n = 1; n <= 5; n++) {
            int c = moves(&s, n, out, src, gain);
            for (int j = 0; j < c; j++)
                if (out[j] != WIN_KEY) intern(out[j], 1);
        }
    }
    fprintf(stderr, "reachable positions (seen by the player to throw): %u\n", nstates);
    Graph g = build(keys, find_hash);
    double *w = malloc((uint64_t)nstates * 8);
    uint32_t *ids = malloc((uint64_t)nstates * 4);
    for (uint32_t q = 0; q < nstates; q++) w[q] = 0.5;
    for (int k = 2 * PIECES; k >= 0; k--) {
        uint32_t m = 0;
        for (uint32_t q = 0; q < nstates; q++)
            if (g.layer[q] == k) ids[m++] = q;
        int it;
        for (it = 0; m; it++) {  // Gauss-Seidel sweeps over the layer
            double delta = 0;
            for (uint32_t e = 0; e < m; e++) {
                uint32_t q = ids[e];
                double v = 0;
                for (int n = 0; n < 5; n++) {
                    uint64_t a = g.off[(uint64_t)q * 5 + n], b = g.off[(uint64_t)q * 5 + n + 1];
                    double best = 0;
                    if (g.succ[a] == PASS) best = 1 - w[g.succ[a + 1]];
                    else
                        for (uint64_t j = a; j < b; j++) {
                            double x = g.succ[j] == WIN_IDX ? 1.0 : 1 - w[g.succ[j]];
                            if (x > best) best = x;
                        }
                    v += PROB[n + 1] * best;
                }
                if (fabs(v - w[q]) > delta) delta = fabs(v - w[q]);
                w[q] = v;
            }
            if (delta < 1e-12) break;
        }
        if (m) fprintf(stderr, "layer of %d killed: %u positions, %d sweeps\n", k, m, it + 1);
    }
    fprintf(stderr, "value of the start for the first player: %.6f\n", w[0]);
    uint32_t *order = malloc((uint64_t)nstates * 4);
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

enum { BR, PERFECT, MEDIUM, EASY, GREEDY };
static const char *NAMES[] = {"br", "perfect", "medium", "easy", "greedy"};
static int player(const char *name) {
    for (int i = 0; i < 5; i++)
        if (!strcmp(name, NAMES[i])) return i;
    fprintf(stderr, "unknown player %s\n", name);
    exit(2);
}

static float *table_w;
static uint16_t *policy;

/* Which of the moves a..b (state q, throw n) a fixed player may choose: a bitmask over j - a. */
static uint32_t chosen(int who, const Graph *g, uint32_t q, int n, uint64_t a, uint64_t b) {
    uint32_t m = 0;
    int c = (int)(b - a);
    if (who == EASY) return (1u << c) - 1;
    if (who == MEDIUM) {
        uint16_t mask = policy[(uint64_t)q * 5 + n];
        for (int j = 0; j < c; j++)
            if (mask >> g->src[a + j] & 1) m |= 1u << j;
        if (!m) { fprintf(stderr, "medium's policy names no legal move (state %u, throw %d)\n", q, n + 1); exit(2); }
        return m;
    }
    double best = -1, v[8];
    for (int j = 0; j < c; j++) {
        uint32_t t = g->succ[a + j];
        v[j] = who == GREEDY ? g->gain[a + j] : t == WIN_IDX ? 1.0 : 1.0 - table_w[t];
        if (v[j] > best) best = v[j];
    }
    for (int j = 0; j < c; j++)
        if (v[j] >= best - 1e-7) m |= 1u << j;
    return m;
}

static int match(const char *table, const char *policy_path, int px, int py) {
    FILE *f = fopen(table, "rb");
    if (!f || fread(&nstates, 4, 1, f) != 1) { perror(table); return 2; }
    sorted_keys = malloc((uint64_t)nstates * 8);
    table_w = malloc((uint64_t)nstates * 4);
    if (fread(sorted_keys, 8, nstates, f) != nstates || fread(table_w, 4, nstates, f) != nstates) {
        fprintf(stderr, "%s is truncated\n", table);
        return 2;
    }
    fclose(f);
    if (px == MEDIUM || py == MEDIUM) {
        policy = malloc((uint64_t)nstates * 10);
        f = fopen(policy_path, "rb");
        if (!f || fread(policy, 2, (uint64_t)nstates * 5, f) != (uint64_t)nstates * 5) {
            fprintf(stderr, "%s: no policy for every state\n", policy_path);
            return 2;
        }
        fclose(f);
    }
    Graph g = build(sorted_keys, find_sorted);
    uint64_t total = g.off[(uint64_t)nstates * 5];
    uint8_t *cx = malloc(total), *cy = malloc(total);
    for (uint32_t q = 0; q < nstates; q++)
        for (int n = 0; n < 5; n++) {
            uint64_t a = g.off[(uint64_t)q * 5 + n], b = g.off[(uint64_t)q * 5 + n + 1];
            if (g.succ[a] == PASS) continue;
            uint32_t mx = px == BR ? (1u << (b - a)) - 1 : chosen(px, &g, q, n, a, b), my = chosen(py, &g, q, n, a, b);
            for (uint64_t j = a; j < b; j++) { cx[j] = mx >> (j - a) & 1; cy[j] = my >> (j - a) & 1; }
        }
    /* x[q]: X's chance to win when X is to throw at q; y[q]: X's chance when Y is to throw at q. */
    double *x = malloc((uint64_t)nstates * 8), *y = malloc((uint64_t)nstates * 8);
    uint32_t *ids = malloc((uint64_t)nstates * 4);
    for (uint32_t q = 0; q < nstates; q++) x[q] = y[q] = 0.5;
    for (int k = 2 * PIECES; k >= 0; k--) {
        uint32_t m = 0;
        for (uint32_t q = 0; q < nstates; q++)
            if (g.layer[q] == k) ids[m++] = q;
        for (int it = 0; m; it++) {
            double delta = 0;
            for (uint32_t e = 0; e < m; e++) {
                uint32_t q = ids[e];
                double vx = 0, vy = 0;
                for (int n = 0; n < 5; n++) {
                    uint64_t a = g.off[(uint64_t)q * 5 + n], b = g.off[(uint64_t)q * 5 + n + 1];
                    double bx, by;
                    if (g.succ[a] == PASS) {
                        bx = y[g.succ[a + 1]];
                        by = x[g.succ[a + 1]];
                    } else {
                        double best = -1, sx = 0, sy = 0;
                        int nx = 0, ny = 0;
                        for (uint64_t j = a; j < b; j++) {
                            uint32_t t = g.succ[j];
                            double after_x = t == WIN_IDX ? 1.0 : y[t], after_y = t == WIN_IDX ? 0.0 : x[t];
                            if (px == BR) { if (after_x > best) best = after_x; }
                            else if (cx[j]) { sx += after_x; nx++; }
                            if (cy[j]) { sy += after_y; ny++; }
                        }
                        bx = px == BR ? best : sx / nx;
                        by = sy / ny;
                    }
                    vx += PROB[n + 1] * bx;
                    vy += PROB[n + 1] * by;
                }
                double d = fabs(vx - x[q]) + fabs(vy - y[q]);
                if (d > delta) delta = d;
                x[q] = vx;
                y[q] = vy;
            }
            if (delta < 1e-12) break;
        }
    }
    State s0 = {0};
    s0.home[0] = s0.home[1] = PIECES;
    uint32_t start = find_sorted(encode(&s0));
    printf("%s %s %.6f %.6f %.6f\n", NAMES[px], NAMES[py], x[start], y[start], (x[start] + y[start]) / 2);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 3 && !strcmp(argv[1], "solve")) return solve(argv[2]);
    if (argc == 6 && !strcmp(argv[1], "match")) {
        int py = player(argv[5]);
        if (py == BR) { fprintf(stderr, "the second player must be a fixed player\n"); return 2; }
        return match(argv[2], argv[3], player(argv[4]), py);
    }
    fprintf(stderr, "usage: bell_exact solve TABLE | bell_exact match TABLE POLICY X Y\n");
    return 2;
}
