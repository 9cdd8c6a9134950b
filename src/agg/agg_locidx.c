/*
 * agg_locidx.c — the per-location index of a summary's lanes (locidx): a
 * location's cumulative busy / sync time at any t without visiting every
 * lane (a location of a task runtime holds thousands of short lanes).
 *
 * Owns: Summary.locidx (built lazily, once per summary).
 * Invariants: see LocIdx in agg_int.h; per location, the short lanes
 * (span at most w[l]) sorted by start with prefix sums of their busy and
 * sync totals, the long ones (at most LOC_LONG) apart.
 */
#include "agg_int.h"

#include <stdlib.h>
#include <string.h>

/* ---- the per-location index -------------------------------------------------------- */

typedef struct {
    int64_t t0, t1, span;
    uint32_t lane, rank;
} LEnt;

static int cmp_lent_start(const void *a, const void *b)
{
    const LEnt *x = a, *y = b;
    if (x->t0 != y->t0) return x->t0 < y->t0 ? -1 : 1;
    return x->rank < y->rank ? -1 : x->rank > y->rank;
}

static int cmp_span_desc(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x > y ? -1 : x < y;
}

typedef struct {
    Summary *S;
    uint32_t *nshort; /* per location, counted by the first pass */
    JobQueue q;
    int pass;
} LocIdxCtx;

/* pass 0: each location's long lanes and window; pass 1: its sorted short entries */
static void locidx_worker(void *ctx, int wk, int nw)
{
    (void)wk;
    (void)nw;
    LocIdxCtx *c = ctx;
    Summary *S = c->S;
    LocIdx *X = &S->locidx;
    VEC(LEnt) ent = {0};
    VEC(int64_t) spans = {0};
    size_t l;
    while ((l = jobq_next(&c->q)) != (size_t)-1) {
        uint32_t nl;
        const uint32_t *ls = row_lanes(S, ROWS_LOC, (uint32_t)l, &nl);
        ent.len = spans.len = 0;
        for (uint32_t q = 0; q < nl; q++) {
            const Lane *L = &S->lanes[ls[q]];
            if (!L->n) continue;
            LEnt e;
            lane_span(S, L, &e.t0, &e.t1);
            e.span = e.t1 == INT64_MAX ? INT64_MAX : e.t1 - e.t0;
            e.lane = ls[q];
            e.rank = q;
            VEC_PUSH(ent, e);
            VEC_PUSH(spans, e.span);
        }
        /* the window: the longest span but the LOC_LONG longest (which go apart) */
        int64_t w = 0;
        if (spans.len > LOC_LONG) {
            qsort(spans.v, spans.len, sizeof(int64_t), cmp_span_desc);
            w = spans.v[LOC_LONG];
        }
        if (w == INT64_MAX) w = INT64_MAX / 4;
        if (c->pass == 0) {
            X->w[l] = w;
            uint32_t nlong = 0;
            for (size_t k = 0; k < ent.len; k++) nlong += ent.v[k].span > w;
            c->nshort[l] = (uint32_t)ent.len - nlong;
            X->loff[l + 1] = nlong;
            continue;
        }
        /* short entries sorted by start (usually in order already) */
        size_t ns = 0, nlg = X->loff[l];
        for (size_t k = 0; k < ent.len; k++) {
            if (ent.v[k].span > w) X->llane[nlg++] = ent.v[k].lane;
            else ent.v[ns++] = ent.v[k];
        }
        for (size_t k = 1; k < ns; k++)
            if (cmp_lent_start(&ent.v[k - 1], &ent.v[k]) > 0) {
                qsort(ent.v, ns, sizeof(LEnt), cmp_lent_start);
                break;
            }
        size_t at = X->off[l];
        for (size_t k = 0; k < ns; k++, at++) {
            const Lane *L = &S->lanes[ent.v[k].lane];
            X->t0[at] = ent.v[k].t0;
            X->t1[at] = ent.v[k].t1;
            X->lane[at] = ent.v[k].lane;
            X->rank[at] = ent.v[k].rank;
            /* (totals for now; prefix sums below) */
            X->pre[0][at + 1] = lane_cum(S, L, CAT_BUSY, ent.v[k].t1, NULL);
            X->pre[1][at + 1] = lane_cum(S, L, CAT_SYNC, ent.v[k].t1, NULL);
        }
    }
    VEC_FREE(ent);
    VEC_FREE(spans);
}

static void locidx_build_now(Summary *S);

void locidx_build(Summary *S)
{
    part_use(S, PART_LOCIDX);
    if (S->locidx.built) return;
    part_reserve(S, PART_LOCIDX, 0);
    locidx_build_now(S);
    part_built(S, PART_LOCIDX);
}

static void locidx_build_now(Summary *S)
{
    LocIdx *X = &S->locidx;
    uint32_t nloc = S->s->nloc;
    X->w = xcalloc((size_t)nloc + 1, sizeof(int64_t));
    X->off = xcalloc((size_t)nloc + 2, sizeof(uint32_t));
    X->loff = xcalloc((size_t)nloc + 2, sizeof(uint32_t));
    LocIdxCtx c = {S, xcalloc((size_t)nloc + 1, sizeof(uint32_t)), {0}, 0};
    int nw = S->nlanes > 20000 ? S->threads : 1;
    jobq_init(&c.q, nloc);
    par_run(nw, locidx_worker, &c);
    for (uint32_t l = 0; l < nloc; l++) {
        X->off[l + 1] = X->off[l] + c.nshort[l];
        X->loff[l + 1] += X->loff[l];
    }
    size_t n = X->off[nloc];
    X->t0 = xmalloc((n + 1) * sizeof(int64_t));
    X->t1 = xmalloc((n + 1) * sizeof(int64_t));
    X->lane = xmalloc((n + 1) * sizeof(uint32_t));
    X->rank = xmalloc((n + 1) * sizeof(uint32_t));
    for (int k = 0; k < 2; k++) {
        X->pre[k] = xmalloc((n + 1) * sizeof(int64_t));
        X->pre[k][0] = 0;
    }
    X->llane = xmalloc(((size_t)X->loff[nloc] + 1) * sizeof(uint32_t));
    c.pass = 1;
    jobq_init(&c.q, nloc);
    par_run(nw, locidx_worker, &c);
    /* (in unsigned arithmetic: a sum past int64 wraps, defined, and the
     * difference of two prefixes is still exact when it fits) */
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < n; i++) X->pre[k][i + 1] = (int64_t)((uint64_t)X->pre[k][i + 1] + (uint64_t)X->pre[k][i]);
    free(c.nshort);
    X->built = true;
}

void locidx_free(LocIdx *X)
{
    free(X->off);
    free(X->t0);
    free(X->t1);
    free(X->lane);
    free(X->rank);
    free(X->pre[0]);
    free(X->pre[1]);
    free(X->w);
    free(X->loff);
    free(X->llane);
    memset(X, 0, sizeof *X);
}

size_t locidx_bytes(const LocIdx *X, uint32_t nloc)
{
    if (!X->built) return 0;
    size_t n = X->off[nloc];
    return (n + 1) * (8 + 8 + 4 + 4 + 16) + ((size_t)nloc + 2) * (4 + 4 + 8) + ((size_t)X->loff[nloc] + 1) * 4;
}

void locidx_range(const Summary *S, uint32_t l, int64_t x, int64_t y, size_t *k0, size_t *k1)
{
    const LocIdx *X = &S->locidx;
    size_t a = X->off[l], e = X->off[l + 1];
    *k0 = gallop_lower(X->t0, a, e, x);
    *k1 = gallop_lower(X->t0, *k0, e, y);
}

void loc_cum(const Summary *S, uint32_t l, int cat, const int64_t *t, size_t nt, int64_t *acc)
{
    const LocIdx *X = &S->locidx;
    size_t a = X->off[l], e = X->off[l + 1], klo = a, khi = a;
    const int64_t *pre = X->pre[cat - 1], w = X->w[l];
    /* the lanes open at a time (a lookup each) gathered for all the times,
     * then looked up together, their cache misses overlapping: at t[i],
     * lane ql[j] for j in [qoff[i], qoff[i + 1]) (the sums are of times,
     * never negative: saturated in any order, the same) */
    VEC(uint32_t) ql = {0};
    VEC(int64_t) qt = {0};
    uint32_t *qoff = NULL;
    int64_t *v = xmalloc((nt + 1) * sizeof(int64_t));
    for (size_t i = 0; i < nt; i++) {
        int64_t ti = t[i], from = ti >= INT64_MIN + w ? ti - w : INT64_MIN;
        klo = gallop_lower(X->t0, klo, e, from);
        if (khi < klo) khi = klo;
        khi = gallop_lower(X->t0, khi, e, ti);
        int64_t vi = (int64_t)((uint64_t)pre[klo] - (uint64_t)pre[a]);
        for (size_t k = klo; k < khi; k++) {
            if (X->t1[k] <= ti) {
                vi = sat_add64(vi, (int64_t)((uint64_t)pre[k + 1] - (uint64_t)pre[k]));
                continue;
            }
            if (!qoff) {
                qoff = xmalloc((nt + 1) * sizeof(uint32_t));
                for (size_t z = 0; z <= i; z++) qoff[z] = 0;
            }
            VEC_PUSH(ql, X->lane[k]);
            VEC_PUSH(qt, ti);
        }
        if (qoff) qoff[i + 1] = (uint32_t)ql.len;
        v[i] = vi;
    }
    if (ql.len) {
        int64_t *qv = xmalloc(ql.len * sizeof(int64_t));
        lane_cum_multi(S, ql.v, qt.v, ql.len, cat, qv);
        for (size_t i = 0; i < nt; i++)
            for (uint32_t j = qoff[i]; j < qoff[i + 1]; j++) v[i] = sat_add64(v[i], qv[j]);
        free(qv);
    }
    for (size_t i = 0; i < nt; i++) acc[i] = sat_add64(acc[i], v[i]);
    VEC_FREE(ql);
    VEC_FREE(qt);
    free(qoff);
    free(v);
    /* the long lanes */
    lanes_cum(S, X->llane + X->loff[l], X->loff[l + 1] - X->loff[l], cat, t, nt, acc);
}
