/*
 * agg_frame.c — the values of a frame: cumulative functions of a row at
 * increasing times, metric values, time grids, reducers over the members
 * of a grouped row (the Gantt's dominant interval is in agg_dominant.c).
 *
 * Owns: Summary.act_rank (built lazily), nothing else.
 * Invariants: evaluating a frame only builds lazily built parts; a cell's
 * value is F(b) - F(a) of the row's cumulative function (exact at every
 * zoom); grouped rows are combined by the reducer.
 */
#include "agg_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void build_act_rank(Summary *S)
{
    if (S->act_rank || !S->sel) return;
    const Store *s = S->s;
    S->act_rank = xmalloc_big(((size_t)s->n + 1) * sizeof(uint32_t));
    for (uint32_t a = 0; a < s->nact; a++) {
        uint32_t acc = 0;
        for (uint32_t p = s->act_off[a]; p < s->act_off[a + 1]; p++) {
            S->act_rank[p] = acc;
            acc += selected(S, s->act_ev[p]);
        }
    }
    S->act_rank[s->n] = 0;
}

/* the first k in [lo, hi) with ts[k] >= t (hi if none), ts increasing:
 * a guess by interpolation between the ends (a location's events are
 * spread over its time), a galloping search from it, then a binary
 * search in the bracket: a few cache lines instead of log2(n) */
size_t ts_lower_interp(const int64_t *ts, size_t lo, size_t hi, int64_t t)
{
    if (hi - lo > 16) {
        int64_t t0 = ts[lo], t1 = ts[hi - 1];
        if (t <= t0) return lo;
        if (t > t1) return hi;
        size_t g = lo + (size_t)((__int128)(t - t0) * (__int128)(hi - 1 - lo) / (__int128)(t1 - t0));
        /* bracket: ts[a] < t <= ts[b] with lo <= a < b <= hi - 1 */
        size_t a, b, step = 1;
        if (ts[g] < t) {
            a = g;
            b = g + 1;
            while (b < hi - 1 && ts[b] < t) {
                a = b;
                b += step;
                step *= 2;
            }
            if (b > hi - 1) b = hi - 1;
        } else {
            if (g == lo) return lo;
            b = g;
            a = g - 1;
            while (a > lo && ts[a] >= t) {
                b = a;
                a = a > lo + step ? a - step : lo;
                step *= 2;
            }
            if (ts[a] >= t) return a; /* (a == lo) */
        }
        lo = a + 1;
        hi = b + 1;
    }
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ts[mid] < t) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* selected events of a row starting before t */
uint64_t events_before(Summary *S, RowKind rk, uint32_t row, int64_t t)
{
    const Store *s = S->s;
    if (rk == ROWS_LOC) {
        size_t first = s->locs[row].first, lo = ts_lower_interp(s->ts, first, first + s->locs[row].count, t);
        return sel_prefix(S, lo) - sel_prefix(S, first);
    }
    size_t lo = s->act_off[row], hi = s->act_off[row + 1], first = lo;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->ts[s->act_ev[mid]] < t) lo = mid + 1;
        else hi = mid;
    }
    if (!S->sel) return lo - first;
    build_act_rank(S);
    if (lo == s->act_off[row + 1]) {
        if (lo == first) return 0;
        return S->act_rank[lo - 1] + selected(S, s->act_ev[lo - 1]);
    }
    return S->act_rank[lo];
}

void summary_cum(Summary *S, const MetricSpec *m, RowKind rk, uint32_t row, const int64_t *t, int nt, double *cum,
                 double *def)
{
    for (int i = 0; i < nt; i++) {
        cum[i] = 0;
        if (def) def[i] = 0;
    }
    switch (m->m) {
    case M_BUSY:
    case M_SYNC: {
        if (rk == ROWS_PAIR) return;
        uint32_t nl;
        const uint32_t *ls = row_lanes(S, rk, row, &nl);
        int cat = m->m == M_BUSY ? CAT_BUSY : CAT_SYNC;
        int64_t *acc = xcalloc((size_t)nt + 1, sizeof(int64_t));
        if (rk == ROWS_LOC) {
            locidx_build(S);
            loc_cum(S, row, cat, t, (size_t)nt, acc);
        } else {
            lanes_cum(S, ls, nl, cat, t, (size_t)nt, acc);
        }
        for (int i = 0; i < nt; i++) cum[i] = (double)acc[i];
        free(acc);
        return;
    }
    case M_EVENTS:
        if (rk == ROWS_PAIR) {
            Points *P = msg_points(S, m->recv, rk);
            for (int i = 0; i < nt; i++) cum[i] = (double)(pts_lower(P, row, t[i]) - P->off[row]);
            return;
        }
        for (int i = 0; i < nt; i++) cum[i] = (double)events_before(S, rk, row, t[i]);
        return;
    case M_BYTES: {
        Points *P = msg_points(S, m->recv, rk);
        for (int i = 0; i < nt; i++) cum[i] = P->cum[pts_lower(P, row, t[i])] - P->cum[P->off[row]];
        return;
    }
    case M_COUNTER: {
        if (rk == ROWS_PAIR) return;
        Steps *P = counter_steps(S, rk);
        for (int i = 0; i < nt; i++) {
            double d;
            steps_at(P, row, t[i], &cum[i], &d);
            if (def) def[i] = d;
        }
        return;
    }
    case M_EXPR: {
        if (rk == ROWS_PAIR || !S->xsteps[rk].built) return;
        const Steps *P = &S->xsteps[rk];
        const Points *Q = &S->xpts[rk];
        for (int i = 0; i < nt; i++) {
            double c, d;
            steps_at(P, row, t[i], &c, &d);
            cum[i] = c + (Q->cum[pts_lower(Q, row, t[i])] - Q->cum[Q->off[row]]);
        }
        return;
    }
    default: return;
    }
}

double metric_value(Metric m, double c0, double c1, double d0, double d1, int64_t a, int64_t b)
{
    if (b <= a) return NAN;
    switch (m) {
    case M_BUSY:
    case M_SYNC: return (c1 - c0) / (double)(b - a);
    case M_COUNTER: return d1 - d0 > 0 ? sat_dbl((c1 - c0) / (d1 - d0)) : NAN;
    default: return sat_dbl(c1 - c0);
    }
}

/* ---- frames -------------------------------------------------------------------------- */

void grid_init(TimeGrid *g, int64_t t0, int64_t t1, int ncell)
{
    if (ncell < 1) ncell = 1;
    if (t1 <= t0) t1 = t0 + 1;
    g->t0 = t0;
    g->t1 = t1;
    g->ncell = ncell;
    g->b = xmalloc(((size_t)ncell + 1) * sizeof(int64_t));
    for (int i = 0; i <= ncell; i++) g->b[i] = t0 + (int64_t)((__int128)(t1 - t0) * i / ncell);
}

void grid_free(TimeGrid *g)
{
    free(g->b);
    g->b = NULL;
}

int grid_cell(const TimeGrid *g, int64_t t)
{
    if (t < g->t0 || t >= g->t1) return -1;
    /* the last i with b[i] <= t: before the first boundary past t (found
     * from a guess, the boundaries being evenly spaced) */
    return (int)grid_upper(g, t) - 1;
}

/* a value rounded to 3 significant digits (the classes of `mode`) */
static double round3(double v)
{
    if (v == 0 || v != v || isinf(v)) return v;
    double q = pow(10, floor(log10(fabs(v))) - 2);
    return rint(v / q) * q;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double reduce_parts(Reducer r, double *v, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (v[i] == v[i]) v[k++] = v[i];
    if (!k) return NAN;
    switch (r) {
    case RED_SUM: {
        double s = 0;
        for (size_t i = 0; i < k; i++) s += v[i];
        return s;
    }
    case RED_MEAN: {
        double s = 0;
        for (size_t i = 0; i < k; i++) s += v[i];
        return s / (double)k;
    }
    case RED_MAX: {
        double m = v[0];
        for (size_t i = 1; i < k; i++)
            if (v[i] > m) m = v[i];
        return m;
    }
    case RED_MINNZ: {
        double m = 0;
        bool any = false;
        for (size_t i = 0; i < k; i++)
            if (v[i] != 0 && (!any || v[i] < m)) m = v[i], any = true;
        return any ? m : 0;
    }
    default: { /* mode: the most frequent 3-digit class; ties: the larger */
        for (size_t i = 0; i < k; i++) v[i] = round3(v[i]);
        qsort(v, k, sizeof(double), cmp_double);
        double best = v[0];
        size_t bn = 0;
        for (size_t i = 0; i < k;) {
            size_t j = i;
            while (j < k && v[j] == v[i]) j++;
            if (j - i >= bn) bn = j - i, best = v[i];
            i = j;
        }
        return best;
    }
    }
}

/* ---- grouped rows of busy / sync, sparsely ------------------------------------------------------ */

/* A member's value in a finer bin is 0 outside the span of its lanes, so a
 * group is computed from the bins each lane's span covers: the lane's
 * cumulative function is looked up only at the boundaries inside its span
 * (from then on it adds its total), and the group keeps, per cell, the
 * sum, count, maximum and minimum of its members' non-zero values (and
 * for mode the values themselves); the zeros are counted, not stored. The
 * result equals reduce_parts over all members' values (the cumulative
 * values are integers, so they are exact in any order, and the non-zero
 * values of a cell are combined in the same member order). */

typedef struct {
    uint32_t cell;
    double v;
} CellVal;

static int cmp_cellval(const void *a, const void *b)
{
    const CellVal *x = a, *y = b;
    return x->cell < y->cell ? -1 : x->cell > y->cell;
}

/* mode over the rounded non-zero values v[0..n) (sorted here) and z zeros */
static double mode_of(double *v, size_t n, size_t z)
{
    for (size_t i = 0; i < n; i++) v[i] = round3(v[i]);
    if (n > 1) qsort(v, n, sizeof(double), cmp_double); /* (v may be NULL when n == 0) */
    double best = NAN;
    size_t bn = 0;
    bool zdone = z == 0;
    for (size_t i = 0; i < n;) {
        if (!zdone && v[i] > 0) {
            if (z >= bn) bn = z, best = 0;
            zdone = true;
        }
        size_t j = i;
        while (j < n && v[j] == v[i]) j++;
        if (j - i >= bn) bn = j - i, best = v[i];
        i = j;
    }
    if (!zdone && z >= bn) best = 0;
    return best;
}

typedef struct {
    double *sum, *mx, *mn;
    uint32_t *nz;
    Reducer r;
    void *list; /* VEC(CellVal) for mode */
} GroupAcc;

typedef VEC(CellVal) CellVals;

/* a member's non-zero value v in cell i */
static inline void acc_add(GroupAcc *A, uint32_t i, double v)
{
    A->sum[i] += v;
    A->nz[i]++;
    if (v > A->mx[i]) A->mx[i] = v;
    if (v < A->mn[i]) A->mn[i] = v;
    if (A->r == RED_MODE) VEC_PUSH(*(CellVals *)A->list, ((CellVal){i, v}));
}

/* the bins of member row `row` of the point series P: the weights of its
 * points in each finer bin (exact: integer weights), scaled for sub-bins */
static void member_points(const Points *P, bool count, uint32_t row, const int64_t *bb, size_t nbz, int sb, GroupAcc *A)
{
    size_t k = pts_lower(P, row, bb[0]), end = pts_lower(P, row, bb[nbz - 1]);
    size_t q = 0;
    while (k < end) {
        int64_t t = P->t[k];
        /* the bin of t: the last q with bb[q] <= t (galloping forward) */
        if (bb[q + 1] <= t) {
            size_t step = 1, lo = q + 1, hi = q + 1;
            while (hi < nbz - 1 && bb[hi + 1] <= t) {
                lo = hi;
                hi += step;
                step *= 2;
            }
            if (hi > nbz - 2) hi = nbz - 2;
            while (lo < hi) { /* the last q in [lo, hi] with bb[q] <= t */
                size_t mid = lo + (hi - lo + 1) / 2;
                if (bb[mid] <= t) lo = mid;
                else hi = mid - 1;
            }
            q = lo;
        }
        double w = 0;
        size_t j = k;
        while (j < end && P->t[j] < bb[q + 1]) j++;
        w = count ? (double)(j - k) : P->cum[j] - P->cum[k];
        if (sb > 1) w *= sb;
        if (w != 0) acc_add(A, (uint32_t)(q / (size_t)sb), w);
        k = j;
    }
}

/* the display rows that q hands out (each worker with its own buffers) */
static void frame_lanes_rows(Summary *S, int cat, const Points *P, const Points *Pm, bool count, Reducer r, const RowSet *rs,
                             const TimeGrid *g, int sb, const int64_t *bb, int nb, double *values, JobQueue *jq)
{
    int nc = g->ncell;
    size_t nbz = (size_t)nb;
    double *sum = xmalloc(((size_t)nc + 1) * sizeof(double)), *mx = xmalloc(((size_t)nc + 1) * sizeof(double)),
           *mn = xmalloc(((size_t)nc + 1) * sizeof(double));
    uint32_t *nz = xmalloc(((size_t)nc + 1) * sizeof(uint32_t)), *vs = xcalloc((size_t)nc + 1, sizeof(uint32_t));
    for (int i = 0; i < nc; i++)
        for (int j = 0; j < sb; j++) vs[i] += bb[i * sb + j + 1] > bb[i * sb + j];
    int64_t *mc = xmalloc((nbz + 1) * sizeof(int64_t)), *diff = xmalloc((nbz + 2) * sizeof(int64_t));
    VEC(uint32_t) span = {0}; /* per lane of a member: i0, i1 */
    CellVals list = {0};
    VEC(double) tmp = {0};
    bool by_loc = rs->kind == ROWS_LOC && !P;
    if (by_loc) locidx_build(S);
    GroupAcc A = {sum, mx, mn, nz, r, &list};
    if (P) by_loc = false;
    /* sum and mean of a member with few segments in all (many locations
     * of one thread each): its segments are walked, a bin a segment covers
     * whole adds 1 to the group through a difference array, the others
     * their overlap / width; so a group costs per segment, not per member
     * and cell (equal to the dense sum up to the order of additions) */
    bool walk_ok = !P && sb == 1 && (r == RED_SUM || r == RED_MEAN);
    int64_t *ov = walk_ok ? xcalloc(nbz + 1, sizeof(int64_t)) : NULL, *fullc = walk_ok ? xcalloc(nbz + 1, sizeof(int64_t)) : NULL;
    size_t gj;
    while ((gj = jobq_next(jq)) != (size_t)-1) {
        uint32_t gi = (uint32_t)gj;
        uint32_t m0 = rowset_first(rs, gi), m1 = rowset_end(rs, gi);
        for (int i = 0; i < nc; i++) sum[i] = 0, nz[i] = 0, mx[i] = -INFINITY, mn[i] = INFINITY;
        list.len = 0;
        bool any_full = false;
        if (Pm) {
            /* (the row's members merged: their totals per bin at once) */
            member_points(Pm, count, gi, bb, nbz, sb, &A);
            m1 = m0; /* (no member to visit) */
        }
        for (uint32_t k = m0; k < m1; k++) {
            if (P) {
                member_points(P, count, rs->ids[k], bb, nbz, sb, &A);
                continue;
            }
            uint32_t nl;
            const uint32_t *ls = row_lanes(S, rs->kind, rs->ids[k], &nl);
            if (walk_ok && nl <= 4) {
                /* walked when its segments inside the grid cost less than
                 * looking it up at the boundaries inside its lanes' spans
                 * (a segment costs a few comparisons, a lookup a search) */
                int64_t gb0 = bb[0], gbn = bb[nbz - 1];
                size_t nseg = 0, nlook = 0;
                size_t z0[4], z1[4];
                for (uint32_t q = 0; q < nl; q++) {
                    const Lane *L = &S->lanes[ls[q]];
                    z0[q] = z1[q] = 0;
                    if (!L->n || L->t0 >= gbn || L->t1 <= gb0) continue;
                    ptrdiff_t f = seg_find(S, L, gb0, NULL), h = seg_find(S, L, gbn - 1, NULL);
                    z0[q] = f < 0 ? L->off : (size_t)f;
                    z1[q] = h < 0 ? L->off : (size_t)h + 1;
                    nseg += z1[q] - z0[q];
                    size_t i0 = grid_upper(g, L->t0), i1 = L->t1 == INT64_MAX ? nbz : grid_lower(g, L->t1);
                    nlook += i1 > i0 ? i1 - i0 : 0;
                }
                if (nseg <= 8 * nlook + 16) {
                    size_t qlo = nbz, qhi = 0;
                    for (uint32_t q = 0; q < nl; q++) {
                        const Lane *L = &S->lanes[ls[q]];
                        size_t end = (size_t)L->off + L->n, qa = 0;
                        bool first = true;
                        for (size_t z = z0[q]; z < z1[q]; z++) {
                            if (seg_cat(S, z) != (unsigned)cat) continue;
                            int64_t tz = seg_time(S, z);
                            int64_t x = tz > gb0 ? tz : gb0, y = z + 1 < end ? seg_time(S, z + 1) : INT64_MAX;
                            if (y > gbn) y = gbn;
                            if (y <= x) continue;
                            /* qa: the last bin with bb[qa] <= x; qb: the last
                             * with bb[qb] < y (forward: segments come in
                             * time order; far: the grid's arithmetic) */
                            if (first || bb[qa + 1] <= x) {
                                if (!first && bb[qa + 2 < nbz ? qa + 2 : nbz - 1] > x) qa++;
                                else qa = grid_upper(g, x) - 1;
                                first = false;
                            }
                            size_t qb = qa;
                            if (bb[qb + 1] < y) {
                                if (qb + 2 < nbz && bb[qb + 2] >= y) qb++;
                                else qb = grid_lower(g, y) - 1;
                            }
                            if (qa < qlo) qlo = qa;
                            if (qb > qhi) qhi = qb;
                            if (qa == qb) {
                                ov[qa] += y - x;
                                continue;
                            }
                            ov[qa] += bb[qa + 1] - x;
                            ov[qb] += y - bb[qb];
                            if (qa + 1 < qb) {
                                fullc[qa + 1]++;
                                fullc[qb]--;
                                any_full = true;
                            }
                        }
                    }
                    /* the member's partly covered bins, in order */
                    for (size_t q = qlo; q <= qhi && q < nbz; q++) {
                        if (ov[q] && bb[q + 1] > bb[q]) acc_add(&A, (uint32_t)q, (double)ov[q] / (double)(bb[q + 1] - bb[q]));
                        ov[q] = 0;
                    }
                    continue;
                }
            }
            size_t lo = nbz, hi = 0;
            span.len = 0;
            if (by_loc) {
                /* a location: its index, at every boundary */
                if (!nl) continue;
                for (size_t i = 0; i < nbz; i++) mc[i] = 0;
                loc_cum(S, rs->ids[k], cat, bb, nbz, mc);
                lo = 0;
                hi = nbz;
                nl = 0; /* (no lanes to visit) */
            }
            for (uint32_t q = 0; q < nl; q++) {
                const Lane *L = &S->lanes[ls[q]];
                size_t i0 = nbz, i1 = nbz;
                if (L->n) {
                    int64_t a, b;
                    lane_span(S, L, &a, &b);
                    /* (with no finer bins, bb is the grid: an arithmetic guess) */
                    i0 = sb == 1 ? grid_upper(g, a) : times_upper(bb, nbz, a);
                    i1 = b == INT64_MAX ? nbz : sb == 1 ? grid_lower(g, b) : times_lower(bb, nbz, b);
                    if (i1 < i0) i1 = i0;
                    if (i0 < lo) lo = i0;
                    if (i1 > hi) hi = i1;
                }
                VEC_PUSH(span, (uint32_t)i0);
                VEC_PUSH(span, (uint32_t)i1);
            }
            if (lo >= nbz) continue; /* (no lane changes inside the grid) */
            /* the member's cumulative values at boundaries [lo, hi), its total from hi */
            for (size_t i = lo; i <= hi && i <= nbz; i++) {
                if (!by_loc) mc[i] = 0;
                diff[i] = 0;
            }
            int64_t tot = 0;
            for (uint32_t q = 0; q < nl; q++) {
                size_t i0 = span.v[2 * q], i1 = span.v[2 * q + 1];
                if (i0 >= nbz) continue;
                const Lane *L = &S->lanes[ls[q]];
                lane_cum_add(S, L, cat, bb + i0, i1 - i0, mc + i0);
                if (i1 < nbz) {
                    int64_t a, b;
                    lane_span(S, L, &a, &b);
                    int64_t t = lane_cum(S, L, cat, b, NULL);
                    diff[i1] += t;
                    tot += t;
                }
            }
            int64_t run = 0;
            for (size_t i = lo; i < hi && i < nbz; i++) {
                run += diff[i];
                mc[i] += run;
            }
            size_t qa = lo ? lo - 1 : 0, qb = hi < nbz - 1 ? hi : nbz - 1;
            for (size_t q = qa; q < qb; q++) {
                int64_t c0 = q < lo ? 0 : q >= hi ? tot : mc[q], c1 = q + 1 < lo ? 0 : q + 1 >= hi ? tot : mc[q + 1];
                if (c1 == c0 || bb[q + 1] <= bb[q]) continue;
                double v = (double)(c1 - c0) / (double)(bb[q + 1] - bb[q]);
                acc_add(&A, (uint32_t)(q / (size_t)sb), v);
            }
        }
        if (any_full) {
            /* the bins covered whole: 1 per lane segment (exact) */
            int64_t run = 0;
            for (size_t q = 0; q + 1 < nbz; q++) {
                run += fullc[q];
                fullc[q] = 0;
                if (run && bb[q + 1] > bb[q]) {
                    sum[q] += (double)run;
                    nz[q] += (uint32_t)run;
                }
            }
            fullc[nbz - 1] = 0;
        }
        if (r == RED_MODE && list.len > 1) qsort(list.v, list.len, sizeof(CellVal), cmp_cellval); /* (stable enough: values of a cell are sorted anyway) */
        size_t li = 0;
        uint32_t nmem = rowset_end(rs, gi) - rowset_first(rs, gi);
        for (int i = 0; i < nc; i++) {
            size_t K = (size_t)nmem * vs[i], zeros = K - nz[i];
            double v;
            if (!K) v = NAN;
            else if (r == RED_SUM) v = sum[i];
            else if (r == RED_MEAN) v = sum[i] / (double)K;
            else if (r == RED_MAX) v = nz[i] ? (zeros && mx[i] < 0 ? 0 : mx[i]) : 0;
            else if (r == RED_MINNZ) v = nz[i] ? mn[i] : 0;
            else {
                tmp.len = 0;
                while (li < list.len && list.v[li].cell == (uint32_t)i) VEC_PUSH(tmp, list.v[li++].v);
                v = mode_of(tmp.v, tmp.len, zeros);
            }
            values[(size_t)gi * (size_t)nc + (size_t)i] = v;
        }
    }
    VEC_FREE(span);
    free(ov);
    free(fullc);
    VEC_FREE(list);
    VEC_FREE(tmp);
    free(mc);
    free(diff);
    free(sum);
    free(mx);
    free(mn);
    free(nz);
    free(vs);
}

typedef struct {
    Summary *S;
    int cat;
    const Points *P, *Pm;
    bool count;
    Reducer r;
    const RowSet *rs;
    const TimeGrid *g;
    int sb;
    const int64_t *bb;
    int nb;
    double *values;
    JobQueue q;
} LanesCtx;

static void lanes_worker(void *ctx, int wk, int nw)
{
    (void)wk;
    (void)nw;
    LanesCtx *c = ctx;
    frame_lanes_rows(c->S, c->cat, c->P, c->Pm, c->count, c->r, c->rs, c->g, c->sb, c->bb, c->nb, c->values, &c->q);
}

/* A frame of busy / sync (P NULL) or of a point series, sparsely; the
 * display rows are independent: a big frame (many members) runs on 2
 * workers, the same computation per row */
static void frame_lanes(Summary *S, int cat, const Points *P, bool count, Reducer r, const RowSet *rs, const TimeGrid *g,
                        int sb, const int64_t *bb, int nb, double *values)
{
    if (rs->kind == ROWS_LOC && !P) locidx_build(S); /* (before the workers: they only read) */
    /* a sum or mean of a point series over rows of many members: each
     * row's points merged (built before the workers), a row's totals per
     * bin then cost per bin, not per member (sums of integer weights:
     * exact in any order) */
    const Points *Pm = NULL;
    if (P && sb == 1 && (r == RED_SUM || r == RED_MEAN)) {
        uint64_t nmemb = 0;
        for (uint32_t gi = 0; gi < rs->ng; gi++) nmemb += rowset_end(rs, gi) - rowset_first(rs, gi);
        if (nmemb >= 1024 && nmemb >= 4 * (uint64_t)rs->ng) Pm = rowpts_get(S, rs, P);
    }
    LanesCtx c = {S, cat, P, Pm, count, r, rs, g, sb, bb, nb, values, {0}};
    jobq_init(&c.q, rs->ng);
    size_t work = (size_t)rs->n * (size_t)nb;
    par_run(rs->ng >= 8 && S->threads > 1 && work >= 1000000 ? 2 : 1, lanes_worker, &c);
}

void agg_frame(Summary *S, const MetricSpec *m, Reducer r, const RowSet *rs, const TimeGrid *g, int subbins,
               double *values)
{
    int nc = g->ncell;
    int sb = (r == RED_MAX || r == RED_MINNZ || r == RED_MODE) && subbins > 1 ? subbins : 1;
    int nb = nc * sb + 1;
    int64_t *bb = xmalloc((size_t)nb * sizeof(int64_t));
    for (int i = 0; i < nc; i++)
        for (int j = 0; j < sb; j++) bb[i * sb + j] = g->b[i] + (int64_t)((__int128)(g->b[i + 1] - g->b[i]) * j / sb);
    bb[nb - 1] = g->b[nc];
    if ((m->m == M_BUSY || m->m == M_SYNC) && rs->kind != ROWS_PAIR) {
        int cat = m->m == M_BUSY ? CAT_BUSY : CAT_SYNC;
        /* rows of many members: their group summaries, per cell */
        if (sb == 1 && grp_frame(S, cat, r, rs, bb, nb, values)) {
            free(bb);
            return;
        }
        frame_lanes(S, m->m == M_BUSY ? CAT_BUSY : CAT_SYNC, NULL, false, r, rs, g, sb, bb, nb, values);
        free(bb);
        return;
    }
    if (m->m == M_BYTES || (m->m == M_EVENTS && rs->kind == ROWS_PAIR)) {
        /* sorted points: a member costs per nonempty bin */
        const Points *P = msg_points(S, m->recv, rs->kind);
        frame_lanes(S, 0, P, m->m == M_EVENTS, r, rs, g, sb, bb, nb, values);
        free(bb);
        return;
    }
    double *cum = xmalloc((size_t)nb * sizeof(double)), *def = xmalloc((size_t)nb * sizeof(double));
    size_t maxparts = (size_t)rs->gsize * (size_t)sb;
    double *parts = xmalloc((size_t)nc * maxparts * sizeof(double) + sizeof(double));
    bool total = metric_is_total(m->m);
    for (uint32_t gi = 0; gi < rs->ng; gi++) {
        uint32_t m0 = rowset_first(rs, gi), m1 = rowset_end(rs, gi);
        size_t np = 0;
        for (uint32_t k = m0; k < m1; k++) {
            summary_cum(S, m, rs->kind, rs->ids[k], bb, nb, cum, def);
            for (int i = 0; i < nc; i++)
                for (int j = 0; j < sb; j++) {
                    int q = i * sb + j;
                    double v = metric_value(m->m, cum[q], cum[q + 1], def[q], def[q + 1], bb[q], bb[q + 1]);
                    if (sb > 1 && total) v *= sb; /* a finer bin's total, scaled to the cell */
                    parts[(size_t)i * maxparts + np + (size_t)j] = v;
                }
            np += (size_t)sb;
        }
        for (int i = 0; i < nc; i++) values[(size_t)gi * (size_t)nc + (size_t)i] = sat_dbl(reduce_parts(r, parts + (size_t)i * maxparts, np));
    }
    free(parts);
    free(cum);
    free(def);
    free(bb);
}
