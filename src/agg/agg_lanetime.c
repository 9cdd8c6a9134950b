/*
 * agg_lanetime.c — a display row's lanes by time (LaneTime, agg_int.h):
 * for a cell, the first lane in the row's order whose span meets it,
 * without visiting the row's lanes (the Gantt's cells that its samples
 * leave empty; a row of a task runtime holds thousands of short lanes).
 *
 * Owns: the LaneTime structure (built by agg_dominant.c, kept in its
 * RowLanes for the row set).
 * Invariants: X strictly increases; U[j] is the least place of a lane whose
 * span [t0, t1) holds the unit [X[j], X[j + 1]), B[k] the least of U over
 * units 16k .. 16k + 15; a row holding a span with t0 >= t1 (which no unit
 * can stand for) is marked not usable and answers nothing; tests/agg_check.c
 * checks every answer against all the lanes.
 */
#include "agg_int.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    int64_t t;
    uint32_t q;
} TimeLane;

/* v (in q order) sorted by (t, q): left as it is when it is (the lanes
 * of a row mostly come in time order), else a stable radix sort of t
 * (11 bits a pass, over the bits the range of t needs), which keeps q
 * order among equal times: (t, q) packed in 8 bytes when they fit, else
 * the pairs; tmp: room for n pairs */
static void sort_timelane(TimeLane *v, TimeLane *tmp, size_t n)
{
    bool sorted = true;
    uint64_t lo = UINT64_MAX, hi = 0;
    for (size_t k = 0; k < n; k++) {
        uint64_t u = (uint64_t)v[k].t ^ (1ULL << 63); /* (order-preserving) */
        if (u < lo) lo = u;
        if (u > hi) hi = u;
        if (k && (v[k - 1].t > v[k].t || (v[k - 1].t == v[k].t && v[k - 1].q > v[k].q))) sorted = false;
    }
    if (sorted) return;
    uint64_t range = hi - lo;
    int rbits = 0, qbits = 0;
    while (rbits < 64 && (range >> rbits)) rbits++;
    uint32_t qmax = 0;
    for (size_t k = 0; k < n; k++)
        if (v[k].q > qmax) qmax = v[k].q;
    while (qbits < 32 && ((uint64_t)qmax >> qbits)) qbits++;
    if (rbits + qbits <= 64) {
        /* (t - lo, q) packed in 8 bytes, sorted on the bits of t, two
         * buffers in turn */
        uint64_t *k0 = (uint64_t *)tmp, *k1 = k0 + n, mask = qbits ? (1ULL << qbits) - 1 : 0;
        for (size_t k = 0; k < n; k++) k0[k] = ((((uint64_t)v[k].t ^ (1ULL << 63)) - lo) << qbits) | v[k].q;
        size_t cnt2[2048];
        for (int sh = qbits; sh < qbits + rbits; sh += 11) {
            memset(cnt2, 0, sizeof cnt2);
            for (size_t k = 0; k < n; k++) cnt2[(k0[k] >> sh) & 2047]++;
            size_t acc = 0;
            for (size_t d = 0; d < 2048; d++) {
                size_t c = cnt2[d];
                cnt2[d] = acc;
                acc += c;
            }
            for (size_t k = 0; k < n; k++) k1[cnt2[(k0[k] >> sh) & 2047]++] = k0[k];
            uint64_t *x = k0;
            k0 = k1;
            k1 = x;
        }
        for (size_t k = 0; k < n; k++) v[k] = (TimeLane){(int64_t)(((k0[k] >> qbits) + lo) ^ (1ULL << 63)), (uint32_t)(k0[k] & mask)};
        return;
    }
    size_t cnt[2048];
    for (int sh = 0; sh < 64 && (sh == 0 || (range >> sh)); sh += 11) {
        memset(cnt, 0, sizeof cnt);
        for (size_t k = 0; k < n; k++) cnt[((((uint64_t)v[k].t ^ (1ULL << 63)) - lo) >> sh) & 2047]++;
        size_t acc = 0;
        for (size_t d = 0; d < 2048; d++) {
            size_t c = cnt[d];
            cnt[d] = acc;
            acc += c;
        }
        for (size_t k = 0; k < n; k++) tmp[cnt[((((uint64_t)v[k].t ^ (1ULL << 63)) - lo) >> sh) & 2047]++] = v[k];
        memcpy(v, tmp, n * sizeof(TimeLane));
    }
}

LaneTime *lanetime_build(const int64_t *span, size_t n)
{
    LaneTime *T = xcalloc(1, sizeof(LaneTime));
    TimeLane *st = xmalloc((n + 1) * sizeof(TimeLane)), *en = xmalloc((n + 1) * sizeof(TimeLane));
    size_t ns = 0;
    T->usable = true;
    for (size_t q = 0; q < n; q++) {
        int64_t t0 = span[2 * q], t1 = span[2 * q + 1];
        if (t0 == INT64_MAX && t1 == INT64_MIN) continue; /* (no segment) */
        if (t0 >= t1) T->usable = false;
        st[ns] = (TimeLane){t0, (uint32_t)q};
        en[ns++] = (TimeLane){t1, (uint32_t)q};
    }
    if (!T->usable || !ns) {
        free(st);
        free(en);
        T->m = 0;
        return T;
    }
    TimeLane *tmp = xmalloc((ns + 1) * sizeof(TimeLane));
    sort_timelane(st, tmp, ns);
    sort_timelane(en, tmp, ns);
    free(tmp);
    /* the distinct ends, merged; each lane's first and last unit */
    uint32_t *j0 = xmalloc((n + 1) * sizeof(uint32_t)), *j1 = xmalloc((n + 1) * sizeof(uint32_t));
    T->X = xmalloc((2 * ns + 1) * sizeof(int64_t));
    size_t m = 0, a = 0, b = 0;
    while (a < ns || b < ns) {
        bool from_st = b >= ns || (a < ns && st[a].t <= en[b].t);
        TimeLane e = from_st ? st[a++] : en[b++];
        if (!m || T->X[m - 1] != e.t) T->X[m++] = e.t;
        (from_st ? j0 : j1)[e.q] = (uint32_t)(m - 1);
    }
    T->m = (uint32_t)m;
    /* units [j0, j1) of each lane, in the row's order: a unit takes the
     * first lane that holds it (nxt: the next unit not taken yet) */
    size_t nu = m - 1;
    T->U = xmalloc((nu + 1) * sizeof(uint32_t));
    uint32_t *nxt = xmalloc((nu + 1) * sizeof(uint32_t));
    for (size_t j = 0; j <= nu; j++) nxt[j] = (uint32_t)j;
    for (size_t j = 0; j < nu; j++) T->U[j] = NONE32;
    for (size_t q = 0; q < n; q++) {
        int64_t t0 = span[2 * q], t1 = span[2 * q + 1];
        if (t0 == INT64_MAX && t1 == INT64_MIN) continue;
        uint32_t u1 = j1[q];
        for (uint32_t u = j0[q];;) {
            while (nxt[u] != u) {
                nxt[u] = nxt[nxt[u]];
                u = nxt[u];
            }
            if (u >= u1) break;
            T->U[u] = (uint32_t)q;
            nxt[u] = u + 1;
        }
    }
    free(nxt);
    free(j0);
    free(j1);
    free(st);
    free(en);
    size_t nbk = (nu + 15) / 16;
    T->B = xmalloc((nbk + 1) * sizeof(uint32_t));
    for (size_t k = 0; k < nbk; k++) {
        uint32_t v = NONE32;
        for (size_t j = 16 * k; j < nu && j < 16 * k + 16; j++)
            if (T->U[j] < v) v = T->U[j];
        T->B[k] = v;
    }
    return T;
}

void lanetime_free(LaneTime *T)
{
    if (!T) return;
    free(T->X);
    free(T->U);
    free(T->B);
    free(T);
}

size_t lanetime_bytes(const LaneTime *T) { return T ? sizeof *T + (size_t)T->m * (8 + 4) + ((size_t)T->m / 16 + 1) * 4 : 0; }

uint32_t lanetime_first(const LaneTime *T, int64_t a, int64_t b, size_t *cur)
{
    size_t m = T->m;
    if (m < 2 || a >= b) return NONE32;
    /* the units j with X[j + 1] > a and X[j] < b: [ja, jb) (all X before
     * the cursor are <= a: it is a previous query's first X after a) */
    /* (the first X after a, then the first X >= b: a < b, so a + 1 does
     * not overflow) */
    size_t ka = gallop_lower(T->X, *cur, m, a + 1);
    *cur = ka;
    size_t ja = ka ? ka - 1 : 0, jb = gallop_lower(T->X, ka, m, b);
    if (jb > m - 1) jb = m - 1;
    uint32_t best = NONE32;
    size_t j = ja;
    for (; j < jb && (j & 15); j++)
        if (T->U[j] < best) best = T->U[j];
    for (; j + 16 <= jb; j += 16)
        if (T->B[j >> 4] < best) best = T->B[j >> 4];
    for (; j < jb; j++)
        if (T->U[j] < best) best = T->U[j];
    return best;
}
