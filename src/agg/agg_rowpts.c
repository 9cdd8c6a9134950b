/*
 * agg_rowpts.c — a display row's point series merged: the points (message
 * arrivals, sends, bytes) of all its members in one series sorted by time,
 * with prefix sums of their weights, so that a grouped row's count or
 * total per cell costs per cell, not per member (the Gantt's arrivals,
 * the sum and mean of bytes and messages per row).
 *
 * Owns: Summary.rowarr (built for a row set and a series, the last kept).
 * Invariants: row g of rowarr.P holds exactly the points of the series
 * rowarr.src of g's members (rowset_first .. rowset_end), sorted by time
 * (the order among equal times is left open: a cell's count and total,
 * and the point of a cell holding one, do not depend on it); its weights
 * are the source's (integers: the totals are exact in any order); it is
 * rebuilt whenever the row set or the series differs.
 */
#include "agg_int.h"

#include <stdlib.h>
#include <string.h>

void rowarr_free(Summary *S)
{
    rowkey_free(&S->rowarr.key);
    free(S->rowarr.P.off);
    free(S->rowarr.P.t);
    free(S->rowarr.P.id);
    free(S->rowarr.P.cum);
    S->rowarr.src = NULL;
    memset(&S->rowarr.P, 0, sizeof S->rowarr.P);
}

size_t rowarr_bytes(const Summary *S)
{
    const Points *P = &S->rowarr.P;
    if (!P->built) return 0;
    return rowkey_bytes(&S->rowarr.key) + ((size_t)P->nrows + 2) * sizeof(uint32_t) +
           (size_t)P->off[P->nrows] * (sizeof(int64_t) + sizeof(uint32_t) + sizeof(double)) + sizeof(double);
}

/* sort n (time, payload) pairs by time: 8 bits of the time above lo at a
 * time (bits: how many the times span), through tt / tp */
static void sort_pairs(int64_t *t, uint32_t *pl, int64_t *tt, uint32_t *tp, size_t n, int64_t lo, unsigned bits)
{
    int64_t *ft = t, *t2 = tt;
    uint32_t *fp = pl, *p2 = tp;
    for (unsigned d = 0; d < bits; d += 8) {
        size_t cnt[257] = {0};
        for (size_t i = 0; i < n; i++) cnt[((((uint64_t)ft[i] - (uint64_t)lo) >> d) & 255) + 1]++;
        for (int k = 0; k < 256; k++) cnt[k + 1] += cnt[k];
        for (size_t i = 0; i < n; i++) {
            size_t p = cnt[(((uint64_t)ft[i] - (uint64_t)lo) >> d) & 255]++;
            t2[p] = ft[i];
            p2[p] = fp[i];
        }
        int64_t *x = ft;
        ft = t2;
        t2 = x;
        uint32_t *y = fp;
        fp = p2;
        p2 = y;
    }
    if (ft != t) {
        memcpy(t, ft, n * sizeof(int64_t));
        memcpy(pl, fp, n * sizeof(uint32_t));
    }
}

const Points *rowpts_get(Summary *S, const RowSet *rs, const Points *A)
{
    Points *P = &S->rowarr.P;
    if (P->built && S->rowarr.src == A && rowkey_matches(&S->rowarr.key, rs)) return P;
    rowarr_free(S);
    rowkey_set(&S->rowarr.key, rs);
    S->rowarr.src = A;
    P->nrows = rs->ng;
    P->off = xcalloc((size_t)rs->ng + 2, sizeof(uint32_t));
    size_t n = 0, most = 0;
    for (uint32_t g = 0; g < rs->ng; g++) {
        size_t m = 0;
        for (uint32_t k = rowset_first(rs, g); k < rowset_end(rs, g); k++) m += A->off[rs->ids[k] + 1] - A->off[rs->ids[k]];
        n += m;
        if (m > most) most = m;
        P->off[g + 1] = (uint32_t)n;
    }
    P->t = xmalloc((n + 1) * sizeof(int64_t));
    P->id = xmalloc((n + 1) * sizeof(uint32_t));
    P->cum = xmalloc((n + 1) * sizeof(double));
    /* (per row: its points' times and places in A, sorted by time unless
     * its members' series follow each other in time already) */
    uint32_t *pl = xmalloc((most + 1) * sizeof(uint32_t)), *tp = xmalloc((most + 1) * sizeof(uint32_t));
    int64_t *tt = xmalloc((most + 1) * sizeof(int64_t));
    double acc = 0;
    for (uint32_t g = 0; g < rs->ng; g++) {
        size_t a = P->off[g], m = 0;
        bool sorted = true;
        for (uint32_t k = rowset_first(rs, g); k < rowset_end(rs, g); k++) {
            uint32_t r = rs->ids[k];
            for (size_t j = A->off[r]; j < A->off[r + 1]; j++) {
                if (m && A->t[j] < P->t[a + m - 1]) sorted = false;
                P->t[a + m] = A->t[j];
                pl[m++] = (uint32_t)j;
            }
        }
        if (!sorted) {
            int64_t lo = P->t[a], hi = P->t[a];
            for (size_t i = a; i < a + m; i++) {
                if (P->t[i] < lo) lo = P->t[i];
                if (P->t[i] > hi) hi = P->t[i];
            }
            unsigned bits = 0;
            while (bits < 64 && (((uint64_t)hi - (uint64_t)lo) >> bits)) bits++;
            sort_pairs(P->t + a, pl, tt, tp, m, lo, bits);
        }
        for (size_t i = 0; i < m; i++) {
            uint32_t j = pl[i];
            P->id[a + i] = A->id[j];
            P->cum[a + i] = acc;
            acc += A->cum[j + 1] - A->cum[j]; /* (exact: integer weights) */
        }
    }
    P->cum[n] = acc;
    free(pl);
    free(tp);
    free(tt);
    P->built = true;
    return P;
}

int summary_row_arrival_cells(Summary *S, const RowSet *rs, uint32_t r, const TimeGrid *g, int *cell, uint32_t *n,
                              uint32_t *one)
{
    return points_cells(rowpts_get(S, rs, msg_points(S, true, rs->kind)), r, g, cell, n, one);
}
