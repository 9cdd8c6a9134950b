/*
 * agg_rowpts.c — a display row's point series merged: the points (message
 * arrivals, sends, bytes) of all its members in one series sorted by time,
 * with prefix sums of their weights, so that a grouped row's count or
 * total per cell costs per cell, not per member (the Gantt's arrivals,
 * the sum and mean of bytes and messages per row).
 *
 * Also the communication matrix (summary_matrix): the pairs' messages
 * merged per cell of its grouping, so that a cell costs two searches
 * however many pairs it holds.
 *
 * Owns: Summary.rowarr (built for a row set and a series, the last kept)
 * and Summary.mxcells (for a grouping of the matrix, the last kept).
 * Invariants: row g of rowarr.P holds exactly the points of the series
 * rowarr.src of g's members (rowset_first .. rowset_end), sorted by time
 * (the order among equal times is left open: a cell's count and total,
 * and the point of a cell holding one, do not depend on it); its weights
 * are the source's (integers: the totals are exact in any order); it is
 * rebuilt whenever the row set or the series differs. The arrivals by
 * activity may be merged from the series by location instead (the same
 * events, each in its activity's row: rowpts_get_via), rowarr.src then
 * naming the series by activity, which need not be built.
 */
#include "agg_int.h"

#include <stdlib.h>
#include <string.h>

static void merged_free(Points *P);
static size_t merged_bytes(const Points *P);

void rowarr_only_free(Summary *S)
{
    rowkey_free(&S->rowarr.key);
    merged_free(&S->rowarr.P);
    S->rowarr.src = NULL;
}

void mxcells_free(Summary *S)
{
    merged_free(&S->mxcells.P);
    free(S->mxcells.cell);
    S->mxcells.cell = NULL;
}

void rowarr_free(Summary *S)
{
    rowarr_only_free(S);
    mxcells_free(S);
}

size_t rowarr_bytes(const Summary *S) { return rowkey_bytes(&S->rowarr.key) + merged_bytes(&S->rowarr.P); }

size_t mxcells_bytes(const Summary *S)
{
    return merged_bytes(&S->mxcells.P) + (S->mxcells.P.built ? ((size_t)S->mxcells.P.nrows + 1) * sizeof(uint32_t) : 0);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* sort n (time, payload) pairs by time, stably (so the order is the same
 * whatever the method): a few pairs by insertion; else an LSD radix sort
 * of the time above lo (bits: how many the times span), 12 bits at a time
 * for a long row (3 passes for a span of 2^36), else 8, through tt / tp,
 * every digit's histogram from one read */
static void sort_pairs(int64_t *t, uint32_t *pl, int64_t *tt, uint32_t *tp, size_t n, int64_t lo, unsigned bits)
{
    if (n <= 32) {
        for (size_t i = 1; i < n; i++) {
            int64_t x = t[i];
            uint32_t y = pl[i];
            size_t j = i;
            while (j > 0 && t[j - 1] > x) t[j] = t[j - 1], pl[j] = pl[j - 1], j--;
            t[j] = x, pl[j] = y;
        }
        return;
    }
    unsigned w = n >= 4096 && bits > 16 ? 12 : 8, nd = (bits + w - 1) / w;
    size_t nb = (size_t)1 << w, mask = nb - 1;
    if (!nd) return;
    size_t *cnt = xcalloc((size_t)nd * (nb + 1), sizeof(size_t));
    for (size_t i = 0; i < n; i++) {
        uint64_t k = (uint64_t)t[i] - (uint64_t)lo;
        for (unsigned d = 0; d < nd; d++) cnt[d * (nb + 1) + ((k >> (d * w)) & mask) + 1]++;
    }
    int64_t *ft = t, *t2 = tt;
    uint32_t *fp = pl, *p2 = tp;
    for (unsigned d = 0; d < nd; d++) {
        size_t *c = cnt + (size_t)d * (nb + 1);
        if (c[((((uint64_t)ft[0] - (uint64_t)lo) >> (d * w)) & mask) + 1] == n) continue; /* (one digit for all) */
        for (size_t k = 0; k < nb; k++) c[k + 1] += c[k];
        for (size_t i = 0; i < n; i++) {
            size_t p = c[(((uint64_t)ft[i] - (uint64_t)lo) >> (d * w)) & mask]++;
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
    free(cnt);
    if (ft != t) {
        memcpy(t, ft, n * sizeof(int64_t));
        memcpy(pl, fp, n * sizeof(uint32_t));
    }
}

/* a merged series' three arrays (t, cum, id: 20 bytes a point) in one
 * block from the big-block recycler: a row set's series replacing the
 * last one (its size, much the same) reuses its pages, already touched,
 * instead of fresh ones */
static void merged_alloc(Points *P, size_t n)
{
    P->cap = n + 1;
    P->t = xmalloc_big(P->cap * (sizeof(int64_t) + sizeof(double) + sizeof(uint32_t)));
    P->cum = (double *)(P->t + P->cap);
    P->id = (uint32_t *)(P->cum + P->cap);
}

/* P: row g holds the points of A's rows mem[goff[g] .. goff[g + 1]),
 * merged by time, with prefix sums of their weights */
static void points_merge(Points *P, const Points *A, uint32_t ng, const uint32_t *goff, const uint32_t *mem)
{
    P->nrows = ng;
    P->off = xcalloc((size_t)ng + 2, sizeof(uint32_t));
    size_t n = 0, most = 0;
    for (uint32_t g = 0; g < ng; g++) {
        size_t m = 0;
        for (uint32_t k = goff[g]; k < goff[g + 1]; k++) m += A->off[mem[k] + 1] - A->off[mem[k]];
        n += m;
        if (m > most) most = m;
        P->off[g + 1] = (uint32_t)n;
    }
    merged_alloc(P, n);
    /* (per row: its points' times and places in A, sorted by time unless
     * its members' series follow each other in time already) */
    uint32_t *pl = xmalloc((most + 1) * sizeof(uint32_t)), *tp = xmalloc((most + 1) * sizeof(uint32_t));
    int64_t *tt = xmalloc((most + 1) * sizeof(int64_t));
    double acc = 0;
    for (uint32_t g = 0; g < ng; g++) {
        size_t a = P->off[g], m = 0;
        bool sorted = true;
        for (uint32_t k = goff[g]; k < goff[g + 1]; k++) {
            uint32_t r = mem[k];
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
}

/* P: row g holds the points of O (another row kind's series of the same
 * events) whose event's row (row_of) is a member of display row g (grp:
 * each row's display row, NONE32: none), merged by time, with prefix sums
 * of their weights: the same points and weights as points_merge over that
 * row kind's series (points_regroup of O), without building it (24 bytes
 * a point of fresh memory and a pass over O, at a first frame) */
static void points_merge_via(Points *P, const Points *O, const uint32_t *row_of, const uint32_t *grp, uint32_t ng)
{
    size_t no = O->off[O->nrows], n = 0;
    const uint32_t *oev = O->ev;
    uint32_t *gk = xmalloc_big((no + 1) * sizeof(uint32_t));
    P->nrows = ng;
    uint32_t *off = P->off = xcalloc((size_t)ng + 2, sizeof(uint32_t));
    /* (as points_regroup: row g's count in off[g + 2], then its write
     * position in off[g + 1]) */
    for (size_t k = 0; k < no; k++) {
        if (k + 32 < no) __builtin_prefetch(&row_of[oev[k + 32]]);
        uint32_t r = row_of[oev[k]], g = r != NONE32 ? grp[r] : NONE32;
        gk[k] = g;
        if (g != NONE32) off[g + 2]++, n++;
    }
    size_t most = 0;
    for (uint32_t g = 0; g < ng; g++) {
        if (off[g + 2] > most) most = off[g + 2];
        off[g + 2] += off[g + 1];
    }
    merged_alloc(P, n);
    /* each point's time, id and weight (in cum for now), O read in order */
    for (size_t k = 0; k < no; k++) {
        uint32_t g = gk[k];
        if (g == NONE32) continue;
        size_t j = off[g + 1]++;
        P->t[j] = O->t[k];
        P->id[j] = O->id[k];
        P->cum[j] = O->cum[k + 1] - O->cum[k];
    }
    off[ng + 1] = 0;
    xfree_big(gk, (no + 1) * sizeof(uint32_t));
    /* each row by time: its times with their places in the row sorted,
     * its ids and weights then put in that order (from copies: a row's
     * arrays, not O's, read out of order) */
    uint32_t *pl = xmalloc((most + 1) * sizeof(uint32_t)), *tp = xmalloc((most + 1) * sizeof(uint32_t));
    uint32_t *id0 = xmalloc((most + 1) * sizeof(uint32_t));
    int64_t *tt = xmalloc((most + 1) * sizeof(int64_t));
    double *w0 = xmalloc((most + 1) * sizeof(double));
    double acc = 0;
    for (uint32_t g = 0; g < ng; g++) {
        size_t a = off[g], m = off[g + 1] - a;
        bool sorted = true;
        int64_t lo = m ? P->t[a] : 0, hi = lo;
        for (size_t i = a + 1; i < a + m; i++) {
            if (P->t[i] < P->t[i - 1]) sorted = false;
            if (P->t[i] < lo) lo = P->t[i];
            if (P->t[i] > hi) hi = P->t[i];
        }
        if (!sorted) {
            unsigned bits = 0;
            while (bits < 64 && (((uint64_t)hi - (uint64_t)lo) >> bits)) bits++;
            for (size_t i = 0; i < m; i++) pl[i] = (uint32_t)i;
            sort_pairs(P->t + a, pl, tt, tp, m, lo, bits);
            memcpy(id0, P->id + a, m * sizeof(uint32_t));
            memcpy(w0, P->cum + a, m * sizeof(double));
            for (size_t i = 0; i < m; i++) {
                P->id[a + i] = id0[pl[i]];
                P->cum[a + i] = acc;
                acc += w0[pl[i]]; /* (exact: integer weights) */
            }
        } else {
            for (size_t i = a; i < a + m; i++) {
                double x = P->cum[i];
                P->cum[i] = acc;
                acc += x;
            }
        }
    }
    P->cum[n] = acc;
    free(pl);
    free(tp);
    free(id0);
    free(tt);
    free(w0);
    P->built = true;
}

static void merged_free(Points *P)
{
    free(P->off);
    if (P->t) xfree_big(P->t, P->cap * (sizeof(int64_t) + sizeof(double) + sizeof(uint32_t)));
    memset(P, 0, sizeof *P);
}

static size_t merged_bytes(const Points *P)
{
    if (!P->built) return 0;
    return ((size_t)P->nrows + 2) * sizeof(uint32_t) + P->cap * (sizeof(int64_t) + sizeof(uint32_t) + sizeof(double));
}

bool rowpts_ready(const Summary *S, const RowSet *rs, const Points *src)
{
    return S->rowarr.P.built && S->rowarr.src == src && rowkey_matches(&S->rowarr.key, rs);
}

const Points *rowpts_get(Summary *S, const RowSet *rs, const Points *A)
{
    Points *P = &S->rowarr.P;
    part_use(S, PART_ROWARR);
    if (rowpts_ready(S, rs, A)) return P;
    /* (A, which the caller has just asked for, is this frame's: kept) */
    part_reserve(S, PART_ROWARR, ((size_t)A->off[A->nrows] + rs->ng + 1) * 32); /* (20 bytes a point, 12 more while sorted) */
    rowkey_free(&S->rowarr.key);
    merged_free(P);
    rowkey_set(&S->rowarr.key, rs);
    S->rowarr.src = A;
    uint32_t *goff = xmalloc(((size_t)rs->ng + 1) * sizeof(uint32_t));
    for (uint32_t g = 0; g < rs->ng; g++) goff[g] = rowset_first(rs, g);
    goff[rs->ng] = rs->ng ? rowset_end(rs, rs->ng - 1) : 0;
    points_merge(P, A, rs->ng, goff, rs->ids);
    free(goff);
    part_built(S, PART_ROWARR);
    return P;
}

/* rowpts_get for src, a series of rs's row kind not built (and not to be
 * built for this), from O, the same events' series by another row kind,
 * each event's row of src's kind being row_of[event]; false (nothing
 * done) when a base row is in two display rows */
bool rowpts_get_via(Summary *S, const RowSet *rs, const Points *src, const Points *O, const uint32_t *row_of, uint32_t nbase)
{
    Points *P = &S->rowarr.P;
    part_use(S, PART_ROWARR);
    if (rowpts_ready(S, rs, src)) return true;
    uint32_t *grp = xmalloc(((size_t)nbase + 1) * sizeof(uint32_t));
    memset(grp, 0xff, ((size_t)nbase + 1) * sizeof(uint32_t));
    for (uint32_t g = 0; g < rs->ng; g++)
        for (uint32_t q = rowset_first(rs, g), e = rowset_end(rs, g); q < e; q++) {
            uint32_t b = rs->ids[q];
            if (b >= nbase || grp[b] != NONE32) {
                free(grp);
                return false;
            }
            grp[b] = g;
        }
    /* (20 bytes a point, 4 more while built; at most O's points) */
    part_reserve(S, PART_ROWARR, ((size_t)O->off[O->nrows] + rs->ng + 1) * 32);
    rowkey_free(&S->rowarr.key);
    merged_free(P);
    rowkey_set(&S->rowarr.key, rs);
    S->rowarr.src = src;
    points_merge_via(P, O, row_of, grp, rs->ng);
    free(grp);
    part_built(S, PART_ROWARR);
    return true;
}

/* the pairs' messages by cell of the matrix grouped rg x cg (the cells
 * with messages, in order; built for a grouping, the last one kept) */
static const Points *matrix_cells(Summary *S, uint32_t rg, uint32_t cg, const uint32_t **cellid)
{
    part_use(S, PART_MXCELLS);
    if (S->mxcells.P.built && S->mxcells.rg == rg && S->mxcells.cg == cg) {
        *cellid = S->mxcells.cell;
        return &S->mxcells.P;
    }
    mxcells_free(S);
    const Points *A = msg_points(S, false, ROWS_PAIR);
    part_reserve(S, PART_MXCELLS, 0);
    const Store *s = S->s;
    size_t nc = ((size_t)s->nloc + cg - 1) / cg;
    /* the pairs with messages by cell: sorted by cell (pairs come by
     * source, then destination) */
    uint32_t np = 0;
    uint64_t *key = xmalloc(((size_t)S->npairs + 1) * sizeof(uint64_t));
    for (uint32_t p = 0; p < S->npairs; p++)
        if (A->off[p] != A->off[p + 1]) key[np++] = (uint64_t)((size_t)(S->pair_src[p] / rg) * nc + S->pair_dst[p] / cg) << 32 | p;
    qsort(key, np, sizeof(uint64_t), cmp_u64);
    uint32_t *mem = xmalloc(((size_t)np + 1) * sizeof(uint32_t)), *goff = xmalloc(((size_t)np + 2) * sizeof(uint32_t));
    uint32_t *cell = xmalloc(((size_t)np + 1) * sizeof(uint32_t)), ncell = 0;
    for (uint32_t i = 0; i < np; i++) {
        uint32_t c = (uint32_t)(key[i] >> 32);
        if (!ncell || cell[ncell - 1] != c) {
            goff[ncell] = i;
            cell[ncell++] = c;
        }
        mem[i] = (uint32_t)key[i];
    }
    goff[ncell] = np;
    free(key);
    points_merge(&S->mxcells.P, A, ncell, goff, mem);
    free(mem);
    free(goff);
    S->mxcells.rg = rg;
    S->mxcells.cg = cg;
    S->mxcells.cell = cell;
    part_built(S, PART_MXCELLS);
    *cellid = cell;
    return &S->mxcells.P;
}

void summary_matrix(Summary *S, int64_t a, int64_t b, uint32_t rg, uint32_t cg, double *bytes, double *count)
{
    const Store *s = S->s;
    if (!rg) rg = 1;
    if (!cg) cg = 1;
    size_t nr = ((size_t)s->nloc + rg - 1) / rg, nc = ((size_t)s->nloc + cg - 1) / cg, nn = nr * nc;
    if (bytes) memset(bytes, 0, nn * sizeof(double));
    if (count) memset(count, 0, nn * sizeof(double));
    build_pairs(S);
    /* (each cell's pairs merged: a cell costs two searches, whatever
     * the number of its pairs; totals of integer weights, exact in any
     * order) */
    const uint32_t *cell;
    const Points *P = matrix_cells(S, rg, cg, &cell);
    for (uint32_t q = 0; q < P->nrows; q++) {
        size_t i = pts_lower(P, q, a), j = pts_lower(P, q, b);
        if (i == j) continue;
        if (bytes) bytes[cell[q]] += P->cum[j] - P->cum[i];
        if (count) count[cell[q]] += (double)(j - i);
    }
}

/* (a RowArrivals is the Points of S->rowarr) */
const RowArrivals *summary_row_arrivals(Summary *S, const RowSet *rs)
{
    Points *A = &S->msg[1][rs->kind];
    part_use(S, PART_ROWARR);
    if (rowpts_ready(S, rs, A)) return (const RowArrivals *)&S->rowarr.P; /* (perhaps built without A) */
    /* by activity, the series by location at hand: merged from it, the
     * series by activity (only what the rows merge) left unbuilt */
    if (rs->kind == ROWS_ACT && !A->built && S->msg[1][ROWS_LOC].built &&
        rowpts_get_via(S, rs, A, msg_points(S, true, ROWS_LOC), S->s->act, S->s->nact))
        return (const RowArrivals *)&S->rowarr.P;
    return (const RowArrivals *)rowpts_get(S, rs, msg_points(S, true, rs->kind));
}

int summary_row_arrivals_cells(const RowArrivals *A, uint32_t r, const TimeGrid *g, int from, int stop, int *cell,
                               uint32_t *n, uint32_t *one)
{
    return points_cells((const Points *)A, r, g, from, stop, cell, n, one);
}

int summary_row_arrival_cells(Summary *S, const RowSet *rs, uint32_t r, const TimeGrid *g, int *cell, uint32_t *n,
                              uint32_t *one)
{
    return summary_row_arrivals_cells(summary_row_arrivals(S, rs), r, g, 0, 0, cell, n, one);
}
