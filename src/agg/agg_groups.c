/*
 * agg_groups.c — per display row, the busy / sync time of all its members
 * at once: a summary of a grouped row, so that a frame of a row that
 * groups hundreds of locations costs per cell, not per member and segment.
 *
 * Owns: Summary.grp (the group summaries, built lazily for a row set's
 * grouping and a category, kept for the last two groupings).
 *
 * A group's cumulative time G(t) = sum over its members' lanes of the
 * time spent innermost in the category over (-inf, t) is piecewise linear:
 * its slope (the number of the group's lanes in the category) changes by
 * +1 where a lane enters the category and -1 where it leaves. The group
 * summary holds those changes, merged in time order, in buckets of a
 * uniform time grid (about 16 changes per bucket): per bucket G and the
 * slope at its start, and per change its offset from the bucket's start
 * (31 bits) and its sign (changes at one time are netted, and a net change
 * of k is k changes of 1). G(t) is then one bucket's changes away: a frame
 * costs a short scan per boundary, whatever the zoom, and G is exact
 * (integers), so a cell's value (G(b) - G(a)) / (b - a) is the members'
 * values added up (to the rounding of the last bit, which the old
 * member-by-member sum had too).
 *
 * Invariants: a group summary depends only on the summary's lanes, the
 * row set's members and grouping, and the category; it never changes once
 * built (a new grouping builds a new one, the oldest of two is dropped).
 * About 5 bytes per change, built only for rows of many members.
 */
#include "agg_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define GRP_PER_BUCKET 8

static size_t g_min_segments = AGG_GROUP_MIN_SEGMENTS;
void agg_set_group_threshold(size_t min_segments) { g_min_segments = min_segments; }

/* one display row's changes */
typedef struct {
    int64_t t0;      /* the grid's start: bucket j is [t0 + (j << sh), t0 + ((j + 1) << sh)) */
    uint8_t sh;
    uint32_t nb;     /* buckets; header nb is the state at t0 + (nb << sh) */
    int64_t *G;      /* nb + 1: G at each bucket's start */
    uint32_t *slope; /* nb + 1: lanes in the category at each bucket's start */
    uint32_t *off;   /* nb + 1: changes [off[j], off[j + 1]) */
    uint32_t *ch;    /* change: offset from its bucket's start << 1 | (1: +1, 0: -1) */
} GrpRow;

struct GrpSum {
    int cat;
    RowKey key;
    GrpRow *rows;
    size_t bytes;
};

bool rowkey_matches(const RowKey *K, const RowSet *rs)
{
    if (!K->ids || K->kind != rs->kind || K->n != rs->n || K->ng != rs->ng || K->gsize != rs->gsize) return false;
    if ((K->gstart != NULL) != (rs->gstart != NULL)) return false;
    if (memcmp(K->ids, rs->ids, (size_t)rs->n * sizeof(uint32_t))) return false;
    return !rs->gstart || !memcmp(K->gstart, rs->gstart, ((size_t)rs->ng + 1) * sizeof(uint32_t));
}

void rowkey_set(RowKey *K, const RowSet *rs)
{
    K->kind = rs->kind;
    K->n = rs->n;
    K->ng = rs->ng;
    K->gsize = rs->gsize;
    K->ids = xmalloc(((size_t)rs->n + 1) * sizeof(uint32_t));
    memcpy(K->ids, rs->ids, (size_t)rs->n * sizeof(uint32_t));
    K->gstart = NULL;
    if (rs->gstart) {
        K->gstart = xmalloc(((size_t)rs->ng + 1) * sizeof(uint32_t));
        memcpy(K->gstart, rs->gstart, ((size_t)rs->ng + 1) * sizeof(uint32_t));
    }
}

void rowkey_free(RowKey *K)
{
    free(K->ids);
    free(K->gstart);
    memset(K, 0, sizeof *K);
}

size_t rowkey_bytes(const RowKey *K) { return K->ids ? ((size_t)K->n + 1 + (K->gstart ? (size_t)K->ng + 1 : 0)) * sizeof(uint32_t) : 0; }

static bool grp_matches(const GrpSum *G, int cat, const RowSet *rs) { return G->cat == cat && rowkey_matches(&G->key, rs); }

void grpsum_free(GrpSum *G)
{
    if (!G) return;
    for (uint32_t g = 0; g < G->key.ng; g++) {
        free(G->rows[g].G);
        free(G->rows[g].slope);
        free(G->rows[g].off);
        free(G->rows[g].ch);
    }
    free(G->rows);
    rowkey_free(&G->key);
    free(G);
}

size_t grpsum_bytes(const GrpSum *G) { return G ? G->bytes : 0; }

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

typedef struct {
    VEC(int64_t) t;
    VEC(uint8_t) up;
    uint32_t *cnt;
    size_t cntcap;
} GrpBuf;

/* build row g's changes from its members' lanes */
static bool grp_build_row(const Summary *S, int cat, const RowSet *rs, uint32_t g, GrpRow *R, GrpBuf *B)
{
    B->t.len = B->up.len = 0;
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (uint32_t k = rowset_first(rs, g); k < rowset_end(rs, g); k++) {
        uint32_t nl;
        const uint32_t *ls = row_lanes(S, rs->kind, rs->ids[k], &nl);
        for (uint32_t q = 0; q < nl; q++) {
            const Lane *L = &S->lanes[ls[q]];
            size_t end = (size_t)L->off + L->n;
            bool in = false;
            for (size_t z = L->off; z < end; z++) {
                bool c = seg_cat(S, z) == (unsigned)cat;
                if (c == in) continue;
                int64_t t = seg_time(S, z);
                VEC_PUSH(B->t, t);
                VEC_PUSH(B->up, (uint8_t)c);
                if (t < lo) lo = t;
                if (t > hi) hi = t;
                in = c;
            }
        }
    }
    size_t n = B->t.len;
    memset(R, 0, sizeof *R);
    if (!n) {
        R->nb = 0;
        R->G = xcalloc(1, sizeof(int64_t));
        R->slope = xcalloc(1, sizeof(uint32_t));
        R->off = xcalloc(1, sizeof(uint32_t));
        return true;
    }
    /* the grid: buckets of 2^sh ns (at most 2^30), about GRP_PER_BUCKET
     * changes each on average */
    uint64_t span = (uint64_t)hi - (uint64_t)lo + 1;
    int sh = 0;
    while (sh < 30 && (span >> sh) > n / GRP_PER_BUCKET + 1) sh++;
    uint64_t nb = (span >> sh) + 1, w = (uint64_t)1 << sh;
    if (nb > 2 * (uint64_t)n + ((uint64_t)1 << 20) || n > UINT32_MAX / 2) return false; /* (times spread over centuries) */
    R->t0 = lo;
    R->sh = (uint8_t)sh;
    R->nb = (uint32_t)nb;
    /* bucket the changes (a counting sort), then sort each bucket */
    if (B->cntcap < nb + 1) {
        free(B->cnt);
        B->cntcap = nb + 1;
        B->cnt = xmalloc(B->cntcap * sizeof(uint32_t));
    }
    uint32_t *cnt = B->cnt;
    memset(cnt, 0, (nb + 1) * sizeof(uint32_t));
    for (size_t i = 0; i < n; i++) cnt[((uint64_t)(B->t.v[i] - lo) >> sh) + 1]++;
    for (uint64_t j = 0; j < nb; j++) cnt[j + 1] += cnt[j];
    uint32_t *ch = xmalloc(n * sizeof(uint32_t));
    for (size_t i = 0; i < n; i++) {
        uint64_t d = (uint64_t)(B->t.v[i] - lo), j = d >> sh;
        ch[cnt[j]++] = (uint32_t)((d & (w - 1)) << 1) | B->up.v[i];
    }
    /* (cnt[j] is now the end of bucket j) */
    R->G = xmalloc((nb + 1) * sizeof(int64_t));
    R->slope = xmalloc((nb + 1) * sizeof(uint32_t));
    R->off = xmalloc((nb + 1) * sizeof(uint32_t));
    size_t o = 0, start = 0;
    int64_t Gv = 0;
    int64_t sl = 0;
    for (uint64_t j = 0; j < nb; j++) {
        size_t end = cnt[j];
        uint32_t *c = ch + start;
        size_t m = end - start;
        if (m > 1) {
            if (m <= 32) {
                for (size_t a = 1; a < m; a++) {
                    uint32_t x = c[a];
                    size_t b = a;
                    while (b > 0 && c[b - 1] > x) c[b] = c[b - 1], b--;
                    c[b] = x;
                }
            } else {
                qsort(c, m, sizeof(uint32_t), cmp_u32);
            }
        }
        R->G[j] = Gv;
        R->slope[j] = (uint32_t)sl;
        R->off[j] = (uint32_t)o;
        int64_t tp = 0;
        for (size_t a = 0; a < m;) {
            uint32_t dt = c[a] >> 1;
            int64_t net = 0;
            size_t b = a;
            while (b < m && (c[b] >> 1) == dt) net += (c[b] & 1) ? 1 : -1, b++;
            Gv += sl * ((int64_t)dt - tp);
            tp = dt;
            sl += net;
            for (int64_t k = net < 0 ? -net : net; k > 0; k--) ch[o++] = (dt << 1) | (net > 0);
            a = b;
        }
        Gv += sl * ((int64_t)w - tp);
        start = end;
    }
    R->G[nb] = Gv;
    R->slope[nb] = (uint32_t)sl;
    R->off[nb] = (uint32_t)o;
    R->ch = o ? xrealloc(ch, o * sizeof(uint32_t)) : (free(ch), NULL);
    return true;
}

/* G(t) of row R */
static inline int64_t grp_at(const GrpRow *R, int64_t t)
{
    if (!R->nb || t <= R->t0) return 0;
    uint64_t d = (uint64_t)(t - R->t0), j = d >> R->sh;
    if (j >= R->nb) return R->G[R->nb] + (int64_t)R->slope[R->nb] * (t - (R->t0 + ((int64_t)R->nb << R->sh)));
    int64_t rel = (int64_t)(d & (((uint64_t)1 << R->sh) - 1)), Gv = R->G[j], sl = R->slope[j], tp = 0;
    for (uint32_t k = R->off[j], e = R->off[j + 1]; k < e; k++) {
        int64_t dt = R->ch[k] >> 1;
        if (dt >= rel) break;
        Gv += sl * (dt - tp);
        tp = dt;
        sl += (R->ch[k] & 1) ? 1 : -1;
    }
    return Gv + sl * (rel - tp);
}

typedef struct {
    const Summary *S;
    int cat;
    const RowSet *rs;
    GrpRow *rows;
    JobQueue q;
    size_t bytes[2];
    bool fail[2];
} GrpCtx;

static void grp_worker(void *ctx, int wk, int nw)
{
    (void)nw;
    GrpCtx *c = ctx;
    GrpBuf B = {0};
    size_t g;
    while ((g = jobq_next(&c->q)) != (size_t)-1) {
        GrpRow *R = &c->rows[g];
        if (!grp_build_row(c->S, c->cat, c->rs, (uint32_t)g, R, &B)) {
            c->fail[wk] = true;
            continue;
        }
        c->bytes[wk] += ((size_t)R->nb + 1) * 16 + (size_t)R->off[R->nb] * 4;
    }
    VEC_FREE(B.t);
    VEC_FREE(B.up);
    free(B.cnt);
}

/* whether a frame of rs is better served by group summaries: rows of many
 * members with many segments in all */
static bool grp_worth(const Summary *S, const RowSet *rs)
{
    if (rs->kind == ROWS_PAIR || !rs->ng || rs->n < 8 * (size_t)rs->ng) return false;
    size_t nseg = 0;
    for (uint32_t k = 0; k < rs->n; k++) {
        uint32_t nl;
        const uint32_t *ls = row_lanes(S, rs->kind, rs->ids[k], &nl);
        for (uint32_t q = 0; q < nl; q++) nseg += S->lanes[ls[q]].n;
    }
    return nseg >= g_min_segments;
}

static GrpSum *grp_get(Summary *S, int cat, const RowSet *rs)
{
    part_use(S, PART_GRP);
    for (int i = 0; i < 2; i++)
        if (S->grp[i] && grp_matches(S->grp[i], cat, rs)) {
            if (i) {
                GrpSum *x = S->grp[0];
                S->grp[0] = S->grp[1];
                S->grp[1] = x;
            }
            return S->grp[0];
        }
    if (!grp_worth(S, rs)) return NULL;
    /* (the older of the two goes before the new one is built: its memory
     * is the new one's; the budget makes room for about as much as the
     * last one built added) */
    grpsum_free(S->grp[1]);
    S->grp[1] = NULL;
    part_reserve(S, PART_GRP, 0);
    GrpSum *G = xcalloc(1, sizeof *G);
    G->cat = cat;
    rowkey_set(&G->key, rs);
    G->rows = xcalloc(rs->ng, sizeof(GrpRow));
    GrpCtx c = {S, cat, rs, G->rows, {0}, {0, 0}, {false, false}};
    jobq_init(&c.q, rs->ng);
    par_run(S->threads > 1 && rs->ng >= 2 ? 2 : 1, grp_worker, &c);
    if (c.fail[0] || c.fail[1]) {
        grpsum_free(G);
        part_built(S, PART_GRP);
        return NULL;
    }
    G->bytes = sizeof *G + rowkey_bytes(&G->key) + (size_t)rs->ng * sizeof(GrpRow) + c.bytes[0] + c.bytes[1];
    S->grp[1] = S->grp[0];
    S->grp[0] = G;
    part_built(S, PART_GRP);
    return G;
}

void summary_drop_groups(Summary *S)
{
    if (!S) return;
    summary_part_free(S, PART_GRP); /* (the budget's drop of the part) */
    part_built(S, PART_GRP);        /* (counted as none) */
}

bool grp_frame(Summary *S, int cat, Reducer r, const RowSet *rs, const int64_t *bb, int nb, double *values)
{
    if (r != RED_SUM && r != RED_MEAN) return false;
    GrpSum *G = grp_get(S, cat, rs);
    if (!G) return false;
    int nc = nb - 1;
    for (uint32_t g = 0; g < rs->ng; g++) {
        const GrpRow *R = &G->rows[g];
        uint32_t nmem = rowset_end(rs, g) - rowset_first(rs, g);
        int64_t prev = grp_at(R, bb[0]);
        for (int i = 0; i < nc; i++) {
            int64_t cur = grp_at(R, bb[i + 1]);
            double v;
            if (!nmem || bb[i + 1] <= bb[i]) v = NAN;
            else {
                v = cur == prev ? 0 : (double)(cur - prev) / (double)(bb[i + 1] - bb[i]);
                if (r == RED_MEAN) v /= (double)nmem;
            }
            values[(size_t)g * (size_t)nc + (size_t)i] = v;
            prev = cur;
        }
    }
    return true;
}
