/*
 * agg_lanefind.c — lookups in the lanes (agg_lanes.c builds them): the
 * segment of a lane at a time (one, or many increasing times at once),
 * a lane's time in a category before a time (one lane, a lane at
 * increasing times, a row's lanes at increasing times, or many lanes
 * each at its own time, the lookups of a batch in step so that their
 * cache misses overlap), a row's lanes.
 *
 * Owns: nothing (reads Summary.lanes, seg_*, cp, the loc/act -> lane maps).
 * Invariants: the answers are those of a walk over the lane's segments
 * (seg_time, seg_cat): the time index and the checkpoints only shorten
 * it; hints never change an answer.
 */
#include "agg_int.h"

#include <stdlib.h>
#include <string.h>

/* the last segment of lane L starting at or before t, or -1; hint (a
 * segment index, or SIZE_MAX) makes increasing queries cheap */
ptrdiff_t seg_find(const Summary *S, const Lane *L, int64_t t, size_t *hint)
{
    if (!L->n) return -1;
    size_t end = (size_t)L->off + L->n;
    if (L->t0 > t) return -1;
    if (hint && *hint >= L->off && *hint < end && seg_time(S, *hint) <= t && (*hint + 1 == end || seg_time(S, *hint + 1) > t))
        return (ptrdiff_t)*hint; /* the same segment as the previous query */
    /* the bin of t, then a binary search in it */
    size_t lo, hi;
    lane_bin(L, L->t0, t, &lo, &hi);
    /* largest j in [lo, hi) with T[j] <= t (T[lo] <= t) */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (seg_time(S, mid) <= t) lo = mid;
        else hi = mid;
    }
    if (hint) *hint = lo;
    return (ptrdiff_t)lo;
}

/* For each j < m but those with lo[j] == SIZE_MAX (none), the largest
 * segment in [lo[j], hi[j]) starting at or before t[j] (the one at lo[j]
 * does), into lo[j]: the binary searches (as seg_find's) a step of each
 * in turn, the middle of the next step read ahead (the middles of the
 * first read ahead by the caller) */
static void seg_search_steps(const Summary *S, size_t *lo, size_t *hi, const int64_t *t, size_t m)
{
    for (bool more = true; more;) {
        more = false;
        for (size_t j = 0; j < m; j++) {
            if (lo[j] == SIZE_MAX || hi[j] - lo[j] <= 1) continue;
            size_t mid = lo[j] + (hi[j] - lo[j]) / 2;
            if (seg_time(S, mid) <= t[j]) lo[j] = mid;
            else hi[j] = mid;
            if (hi[j] - lo[j] > 1) {
                __builtin_prefetch(&S->seg_tb[(lo[j] + (hi[j] - lo[j]) / 2) >> SEG_BSHIFT]);
                more = true;
            }
        }
    }
}

/* seg_find for the increasing times t[0..n), into k[] (SIZE_MAX before
 * the lane): 16 searches at a time, step by step together, so that their
 * cache misses overlap instead of following one another; the time index
 * of the next 16 read ahead meanwhile, and the events of the segments
 * found (the caller reads them next) */
#define SFM_B 16
void seg_find_many(const Summary *S, const Lane *L, const int64_t *t, size_t n, size_t *k)
{
    if (!L->n) {
        for (size_t i = 0; i < n; i++) k[i] = SIZE_MAX;
        return;
    }
    int64_t l0 = L->t0;
    for (size_t i = 0; i < n && i < SFM_B; i++)
        if (t[i] >= l0) {
            uint64_t b = (uint64_t)(t[i] - l0) >> L->shift;
            __builtin_prefetch(&L->bins[b < L->nbins ? b : L->nbins - 1]);
        }
    for (size_t i0 = 0; i0 < n; i0 += SFM_B) {
        size_t m = n - i0 < SFM_B ? n - i0 : SFM_B, lo[SFM_B], hi[SFM_B];
        for (size_t i = i0 + SFM_B; i < n && i < i0 + 2 * SFM_B; i++)
            if (t[i] >= l0) {
                uint64_t b = (uint64_t)(t[i] - l0) >> L->shift;
                __builtin_prefetch(&L->bins[b < L->nbins ? b : L->nbins - 1]);
            }
        for (size_t j = 0; j < m; j++) {
            int64_t x = t[i0 + j];
            if (l0 > x) {
                lo[j] = SIZE_MAX, hi[j] = 0;
                continue;
            }
            lane_bin(L, l0, x, &lo[j], &hi[j]);
            __builtin_prefetch(&S->seg_tb[(lo[j] + (hi[j] - lo[j]) / 2) >> SEG_BSHIFT]);
        }
        seg_search_steps(S, lo, hi, t + i0, m);
        for (size_t j = 0; j < m; j++) {
            k[i0 + j] = lo[j];
            if (lo[j] != SIZE_MAX) __builtin_prefetch(&S->seg_ev[lo[j]]);
        }
    }
}

/* time of lane L in category cat over (-inf, t), k = seg_find(S, L, t) */
static inline int64_t lane_cum_at(const Summary *S, const Lane *L, int cat, int64_t t, ptrdiff_t k)
{
    if (k < 0) return 0;
    size_t j0 = (size_t)k & ~(size_t)((1u << CP_SHIFT) - 1);
    int64_t acc;
    if (j0 < L->off) {
        j0 = L->off;
        acc = 0;
    } else {
        acc = S->cp[cat - 1][(size_t)k >> CP_SHIFT];
    }
    int64_t ti = seg_time(S, j0);
    for (size_t i = j0; i < (size_t)k; i++) {
        int64_t tn = seg_time(S, i + 1);
        if (seg_cat(S, i) == (unsigned)cat) acc += tn - ti;
        ti = tn;
    }
    if (seg_cat(S, (size_t)k) == (unsigned)cat) acc += t - ti;
    return acc;
}

/* time of lane L in category cat over (-inf, t) */
int64_t lane_cum(const Summary *S, const Lane *L, int cat, int64_t t, size_t *hint)
{
    return lane_cum_at(S, L, cat, t, seg_find(S, L, t, hint));
}

/* a lane this many times longer than its lookups is searched several at
 * a time (a hint rarely saves a search there) */
#define CUM_MANY 8
#define CUM_B 64

void lane_cum_add(const Summary *S, const Lane *L, int cat, const int64_t *t, size_t n, int64_t *acc)
{
    if (n < 4 || L->n < CUM_MANY * n) {
        size_t hint = SIZE_MAX;
        for (size_t i = 0; i < n; i++) acc[i] += lane_cum(S, L, cat, t[i], &hint);
        return;
    }
    /* the segments at CUM_B times found together; then what each walk
     * reads first (its checkpoint, its first block of times and its
     * categories) read ahead for all of them; then the walks */
    size_t k[CUM_B], mask = ((size_t)1 << CP_SHIFT) - 1;
    for (size_t i0 = 0; i0 < n; i0 += CUM_B) {
        size_t m = n - i0 < CUM_B ? n - i0 : CUM_B;
        seg_find_many(S, L, t + i0, m, k);
        for (size_t j = 0; j < m; j++) {
            if (k[j] == SIZE_MAX) continue;
            size_t j0 = k[j] & ~mask;
            if (j0 < L->off) j0 = L->off;
            else __builtin_prefetch(&S->cp[cat - 1][k[j] >> CP_SHIFT]);
            __builtin_prefetch(&S->seg_tb[j0 >> SEG_BSHIFT]);
            __builtin_prefetch(&S->seg_cd[j0]);
        }
        for (size_t j = 0; j < m; j++) acc[i0 + j] += lane_cum_at(S, L, cat, t[i0 + j], k[j] == SIZE_MAX ? -1 : (ptrdiff_t)k[j]);
    }
}

#define MULTI_B 16

void lane_cum_multi(const Summary *S, const uint32_t *lane, const int64_t *t, size_t n, int cat, int64_t *out)
{
    size_t mask = ((size_t)1 << CP_SHIFT) - 1;
    for (size_t j = 0; j < n && j < MULTI_B; j++) __builtin_prefetch(&S->lanes[lane[j]]);
    for (size_t i0 = 0; i0 < n; i0 += MULTI_B) {
        size_t m = n - i0 < MULTI_B ? n - i0 : MULTI_B, lo[MULTI_B], hi[MULTI_B];
        const Lane *Ls[MULTI_B];
        /* (the next group's lanes meanwhile) */
        for (size_t j = i0 + MULTI_B; j < n && j < i0 + 2 * MULTI_B; j++) __builtin_prefetch(&S->lanes[lane[j]]);
        /* each query's bin of the time index, read ahead; then its range
         * of segments, and the middle one read ahead */
        for (size_t j = 0; j < m; j++) {
            const Lane *L = Ls[j] = &S->lanes[lane[i0 + j]];
            int64_t x = t[i0 + j];
            if (!L->n || L->t0 > x) continue;
            uint64_t b = (uint64_t)(x - L->t0) >> L->shift;
            __builtin_prefetch(&L->bins[b < L->nbins ? b : L->nbins - 1]);
        }
        for (size_t j = 0; j < m; j++) {
            const Lane *L = Ls[j];
            int64_t x = t[i0 + j];
            if (!L->n || L->t0 > x) {
                lo[j] = SIZE_MAX, hi[j] = 0;
                continue;
            }
            lane_bin(L, L->t0, x, &lo[j], &hi[j]);
            __builtin_prefetch(&S->seg_tb[(lo[j] + (hi[j] - lo[j]) / 2) >> SEG_BSHIFT]);
        }
        seg_search_steps(S, lo, hi, t + i0, m);
        /* what each walk reads first, read ahead; then the walks */
        for (size_t j = 0; j < m; j++) {
            if (lo[j] == SIZE_MAX) continue;
            size_t j0 = lo[j] & ~mask;
            if (j0 < Ls[j]->off) j0 = Ls[j]->off;
            else __builtin_prefetch(&S->cp[cat - 1][lo[j] >> CP_SHIFT]);
            __builtin_prefetch(&S->seg_tb[j0 >> SEG_BSHIFT]);
            __builtin_prefetch(&S->seg_cd[j0]);
        }
        for (size_t j = 0; j < m; j++)
            out[i0 + j] = lane_cum_at(S, Ls[j], cat, t[i0 + j], lo[j] == SIZE_MAX ? -1 : (ptrdiff_t)lo[j]);
    }
}

const uint32_t *row_lanes(const Summary *S, RowKind rk, uint32_t row, uint32_t *n)
{
    if (rk == ROWS_LOC) {
        *n = S->loc_off[row + 1] - S->loc_off[row];
        return S->loc_lanes + S->loc_off[row];
    }
    *n = S->act_off[row + 1] - S->act_off[row];
    return S->act_lanes + S->act_off[row];
}


void lanes_cum(const Summary *S, const uint32_t *ls, uint32_t nl, int cat, const int64_t *t, size_t nt, int64_t *acc)
{
    int64_t tail = 0; /* totals of the lanes that ended before t[k], added from k on */
    int64_t *diff = NULL;
    for (uint32_t q = 0; q < nl; q++) {
        const Lane *L = &S->lanes[ls[q]];
        if (!L->n) continue;
        int64_t a, b;
        lane_span(S, L, &a, &b);
        size_t i0 = times_upper(t, nt, a), i1 = b == INT64_MAX ? nt : times_lower(t, nt, b);
        if (i1 < i0) i1 = i0;
        lane_cum_add(S, L, cat, t + i0, i1 - i0, acc + i0);
        if (i1 < nt) {
            int64_t tot = lane_cum(S, L, cat, b, NULL);
            if (!tot) continue;
            if (i1 == 0) {
                tail += tot;
                continue;
            }
            if (!diff) diff = xcalloc(nt + 1, sizeof(int64_t));
            diff[i1] += tot;
        }
    }
    int64_t run = tail;
    for (size_t i = 0; i < nt; i++) {
        if (diff) run += diff[i];
        acc[i] += run;
    }
    free(diff);
}
