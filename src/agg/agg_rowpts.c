/*
 * agg_rowpts.c — a display row's message arrivals merged: the arrivals of
 * all its members in one series sorted by time, so that the Gantt counts
 * a grouped row's arrivals per cell without walking member by member.
 *
 * Owns: Summary.rowarr (built for a row set, the last one kept).
 * Invariants: row g of rowarr.P holds exactly the points of the arrival
 * series of g's members (rowset_first .. rowset_end), sorted by time (the
 * order among equal times is left open: a cell's count and, when it holds
 * one point, that point do not depend on it); it is rebuilt whenever the
 * row set differs (rowkey_matches).
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
    memset(&S->rowarr.P, 0, sizeof S->rowarr.P);
}

size_t rowarr_bytes(const Summary *S)
{
    const Points *P = &S->rowarr.P;
    if (!P->built) return 0;
    return rowkey_bytes(&S->rowarr.key) + ((size_t)P->nrows + 2) * sizeof(uint32_t) +
           (size_t)P->off[P->nrows] * (sizeof(int64_t) + sizeof(uint32_t));
}

/* sort n (time, id) pairs by time: 8 bits of the time above lo at a time
 * (bits: how many the times span), through tt / ti */
static void sort_pairs(int64_t *t, uint32_t *id, int64_t *tt, uint32_t *ti, size_t n, int64_t lo, unsigned bits)
{
    int64_t *ft = t, *tt2 = tt;
    uint32_t *fi = id, *ti2 = ti;
    for (unsigned d = 0; d < bits; d += 8) {
        size_t cnt[257] = {0};
        for (size_t i = 0; i < n; i++) cnt[((((uint64_t)ft[i] - (uint64_t)lo) >> d) & 255) + 1]++;
        for (int k = 0; k < 256; k++) cnt[k + 1] += cnt[k];
        for (size_t i = 0; i < n; i++) {
            size_t p = cnt[(((uint64_t)ft[i] - (uint64_t)lo) >> d) & 255]++;
            tt2[p] = ft[i];
            ti2[p] = fi[i];
        }
        int64_t *x = ft;
        ft = tt2;
        tt2 = x;
        uint32_t *y = fi;
        fi = ti2;
        ti2 = y;
    }
    if (ft != t) {
        memcpy(t, ft, n * sizeof(int64_t));
        memcpy(id, fi, n * sizeof(uint32_t));
    }
}

static const Points *rowarr_get(Summary *S, const RowSet *rs)
{
    Points *P = &S->rowarr.P;
    if (P->built && rowkey_matches(&S->rowarr.key, rs)) return P;
    rowarr_free(S);
    rowkey_set(&S->rowarr.key, rs);
    const Points *A = msg_points(S, true, rs->kind);
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
    int64_t *tt = xmalloc((most + 1) * sizeof(int64_t));
    uint32_t *ti = xmalloc((most + 1) * sizeof(uint32_t));
    for (uint32_t g = 0; g < rs->ng; g++) {
        size_t at = P->off[g];
        bool sorted = true;
        for (uint32_t k = rowset_first(rs, g); k < rowset_end(rs, g); k++) {
            uint32_t r = rs->ids[k];
            size_t m = A->off[r + 1] - A->off[r];
            if (!m) continue;
            if (at > P->off[g] && A->t[A->off[r]] < P->t[at - 1]) sorted = false;
            memcpy(P->t + at, A->t + A->off[r], m * sizeof(int64_t));
            memcpy(P->id + at, A->id + A->off[r], m * sizeof(uint32_t));
            at += m;
        }
        size_t a = P->off[g], m = at - a;
        if (sorted || m < 2) continue;
        int64_t lo = P->t[a], hi = P->t[a];
        for (size_t i = a; i < at; i++) {
            if (P->t[i] < lo) lo = P->t[i];
            if (P->t[i] > hi) hi = P->t[i];
        }
        unsigned bits = 0;
        while (bits < 64 && (((uint64_t)hi - (uint64_t)lo) >> bits)) bits++;
        sort_pairs(P->t + a, P->id + a, tt, ti, m, lo, bits);
    }
    free(tt);
    free(ti);
    P->built = true;
    return P;
}

int summary_row_arrival_cells(Summary *S, const RowSet *rs, uint32_t r, const TimeGrid *g, int *cell, uint32_t *n,
                              uint32_t *one)
{
    return points_cells(rowarr_get(S, rs), r, g, cell, n, one);
}
