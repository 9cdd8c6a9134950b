/*
 * agg_points.c — sorted point series and step functions per row: message
 * ends (bytes, events of pairs), location pairs, counters, expressions;
 * the series' layout, building, regrouping by the other row kind and
 * deriving from a base summary's (the instants with glyphs and the
 * per-cell walks are agg_instants.c's, the communication matrix
 * agg_rowpts.c's).
 *
 * Owns: Summary.msg, pairs, counter, xsteps, xpts, xval.
 * Invariants: each series is built lazily on first use, per row kind; a
 * row's points are sorted by (time, id) and cum is a global prefix sum of
 * their weights (the instants': each weight in prio instead, id == ev); a filtered summary with a base derives its series from
 * the base's in one pass (a subset of sorted points is sorted).
 */
#include "agg_int.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filters/filter.h"

/* a point's bytes in its Points: t, cum, id and ev; in a series of
 * instants t, id (which is ev) and its weight */
#define PT_BYTES (sizeof(int64_t) + sizeof(double) + 2 * sizeof(uint32_t))
#define PT_BYTES_PRIO (sizeof(int64_t) + sizeof(uint32_t) + 1)

size_t points_block_bytes(const Points *P) { return P->cap * (P->prio ? PT_BYTES_PRIO : PT_BYTES); }

void points_free(Points *p)
{
    free(p->off);
    xfree_big(p->t, points_block_bytes(p)); /* (t, cum, id and ev: one block) */
    memset(p, 0, sizeof *p);
}

void steps_free(Steps *p)
{
    free(p->off);
    xfree_big(p->t, 0);
    xfree_big(p->v, 0);
    xfree_big(p->cum, 0);
    xfree_big(p->dcum, 0);
    xfree_big(p->defd, 0);
    memset(p, 0, sizeof *p);
}

/* ---- pairs and message points ------------------------------------------------------ */

/* locations of a message's ends (falling back on its events' locations) */
static void msg_ends(const Store *s, const Message *M, uint32_t *src, uint32_t *dst)
{
    *src = M->src != NONE32 ? M->src : M->send_ev != NONE32 ? s->loc[M->send_ev] : NONE32;
    *dst = M->dst;
}

static uint32_t pair_index(const Summary *S, uint32_t src, uint32_t dst)
{
    uint32_t lo = 0, hi = S->npairs;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        uint64_t k = (uint64_t)S->pair_src[mid] << 32 | S->pair_dst[mid], want = (uint64_t)src << 32 | dst;
        if (k < want) lo = mid + 1;
        else if (k > want) hi = mid;
        else return mid;
    }
    return NONE32;
}

void build_pairs(Summary *S)
{
    if (S->pairs_built) return;
    const Store *s = S->s;
    if (S->base && S->sel) {
        /* base's pairs that have a message with a selected end */
        build_pairs(S->base);
        const Summary *B = S->base;
        uint8_t *used = xcalloc((size_t)B->npairs + 1, 1);
        for (uint32_t m = 0; m < s->nmsg; m++) {
            uint32_t q = B->msg_pair[m];
            if (q == NONE32 || used[q]) continue;
            const Message *M = &s->msgs[m];
            used[q] = (M->send_ev != NONE32 && selected(S, M->send_ev)) ||
                      (M->recv_ev != NONE32 && selected(S, M->recv_ev));
        }
        uint32_t u = 0;
        for (uint32_t q = 0; q < B->npairs; q++) u += used[q];
        S->npairs = u;
        S->pair_src = xmalloc(((size_t)u + 1) * sizeof(uint32_t));
        S->pair_dst = xmalloc(((size_t)u + 1) * sizeof(uint32_t));
        u = 0;
        for (uint32_t q = 0; q < B->npairs; q++)
            if (used[q]) {
                S->pair_src[u] = B->pair_src[q];
                S->pair_dst[u] = B->pair_dst[q];
                u++;
            }
        free(used);
        S->pairs_built = true;
        return;
    }
    /* the messages' (source, destination) keys radix-sorted (11 bits a
     * pass over the bits a location needs, twice), then the distinct ones */
    typedef struct {
        uint64_t k;
        uint32_t m;
    } KeyMsg;
    KeyMsg *a = xmalloc_big(((size_t)s->nmsg + 1) * sizeof(KeyMsg)), *b = xmalloc_big(((size_t)s->nmsg + 1) * sizeof(KeyMsg));
    size_t nk = 0;
    for (uint32_t m = 0; m < s->nmsg; m++) {
        const Message *M = &s->msgs[m];
        uint32_t src, dst;
        msg_ends(s, M, &src, &dst);
        if (src == NONE32 || dst == NONE32) continue;
        bool any = (M->send_ev != NONE32 && selected(S, M->send_ev)) || (M->recv_ev != NONE32 && selected(S, M->recv_ev));
        if (any) a[nk++] = (KeyMsg){(uint64_t)src << 32 | dst, m};
    }
    uint32_t maxl = 0;
    for (size_t i = 0; i < nk; i++) {
        uint32_t x = (uint32_t)(a[i].k >> 32) | (uint32_t)a[i].k;
        maxl |= x;
    }
    int bits = 1;
    while (bits < 32 && (maxl >> bits)) bits++;
    size_t *cnt = xmalloc(2048 * sizeof(size_t));
    for (int sh = 0; sh < 2 * bits; sh += 11) {
        /* digit sh..sh+10 of (src << bits | dst) */
        memset(cnt, 0, 2048 * sizeof(size_t));
#define PAIR_DIGIT(k) ((size_t)((((k) >> 32) << bits | ((k) & 0xffffffffu)) >> sh) & 2047)
        for (size_t i = 0; i < nk; i++) cnt[PAIR_DIGIT(a[i].k)]++;
        size_t acc = 0;
        for (size_t d = 0; d < 2048; d++) {
            size_t c = cnt[d];
            cnt[d] = acc;
            acc += c;
        }
        for (size_t i = 0; i < nk; i++) b[cnt[PAIR_DIGIT(a[i].k)]++] = a[i];
#undef PAIR_DIGIT
        KeyMsg *t = a;
        a = b;
        b = t;
    }
    free(cnt);
    size_t u = 0;
    for (size_t i = 0; i < nk; i++) u += !i || a[i].k != a[i - 1].k;
    S->npairs = (uint32_t)u;
    S->pair_src = xmalloc((u + 1) * sizeof(uint32_t));
    S->pair_dst = xmalloc((u + 1) * sizeof(uint32_t));
    if (!S->sel) {
        /* (for the summaries derived from this one) each message's pair */
        S->msg_pair = xmalloc_big(((size_t)s->nmsg + 1) * sizeof(uint32_t));
        memset(S->msg_pair, 0xff, ((size_t)s->nmsg + 1) * sizeof(uint32_t));
    }
    u = 0;
    for (size_t i = 0; i < nk; i++) {
        if (!i || a[i].k != a[i - 1].k) {
            S->pair_src[u] = (uint32_t)(a[i].k >> 32);
            S->pair_dst[u] = (uint32_t)a[i].k;
            u++;
        }
        if (S->msg_pair) S->msg_pair[a[i].m] = (uint32_t)(u - 1);
    }
    /* (released, not kept for reuse: the next steps of a frame that needs
     * the pairs, the pairs' points, would not fit in them, and they would
     * add to its peak) */
    free(a);
    free(b);
    S->pairs_built = true;
}

uint32_t summary_npairs(Summary *S)
{
    build_pairs(S);
    return S->npairs;
}

void summary_pair(Summary *S, uint32_t p, uint32_t *src, uint32_t *dst)
{
    build_pairs(S);
    *src = S->pair_src[p];
    *dst = S->pair_dst[p];
}

static int cmp_rawpt(const void *a, const void *b)
{
    const RawPt *x = a, *y = b;
    if (x->row != y->row) return x->row < y->row ? -1 : 1;
    if (x->t != y->t) return x->t < y->t ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* the four arrays in one block: one big allocation (the big-block
 * recycler from 4 MiB on) instead of four; prio: a series of instants
 * (t, id == ev, prio: 13 bytes a point, the memory a first draw writes) */
void points_alloc(Points *P, size_t n, bool prio)
{
    P->cap = n + 1;
    P->t = xmalloc_big(P->cap * (prio ? PT_BYTES_PRIO : PT_BYTES));
    if (prio) {
        P->cum = NULL;
        P->id = P->ev = (uint32_t *)(P->t + P->cap);
        P->prio = (uint8_t *)(P->id + P->cap);
        return;
    }
    P->prio = NULL;
    P->cum = (double *)(P->t + P->cap);
    P->id = (uint32_t *)(P->cum + P->cap);
    P->ev = P->id + P->cap;
}

/* a row's points (time, id) sorted: insertion sort while it moves few
 * points (the rows come nearly sorted), else qsort; the order is total
 * (ids are distinct within a row), so either gives the same result */
static void sort_row(RawPt *v, size_t n)
{
    size_t moves = 0, budget = 8 * n + 64;
    for (size_t i = 1; i < n; i++) {
        RawPt x = v[i];
        size_t j = i;
        while (j > 0 && cmp_rawpt(&v[j - 1], &x) > 0) {
            v[j] = v[j - 1];
            j--;
            if (++moves > budget) {
                v[j] = x;
                qsort(v, n, sizeof(RawPt), cmp_rawpt);
                return;
            }
        }
        v[j] = x;
    }
}

/* (points_from_raw, points_regroup) P's rows, counted and filled in, each
 * sorted by (time, id) unless it is in order already (as the store's
 * orders mostly leave it); then the weights in cum made a prefix sum
 * (with prio, they stay where they are) */
void points_finish(Points *P, size_t n)
{
    uint32_t nrows = P->nrows;
    VEC(RawPt) tmp = {0};
    for (uint32_t r = 0; r < nrows; r++) {
        size_t a = P->off[r], b = P->off[r + 1], k = a;
        while (k + 1 < b && (P->t[k] < P->t[k + 1] || (P->t[k] == P->t[k + 1] && P->id[k] < P->id[k + 1]))) k++;
        if (k + 1 >= b) continue;
        tmp.len = 0;
        for (size_t i = a; i < b; i++) VEC_PUSH(tmp, ((RawPt){r, P->ev[i], P->t[i], P->prio ? P->prio[i] : P->cum[i], P->id[i]}));
        sort_row(tmp.v, tmp.len);
        for (size_t i = a; i < b; i++) {
            const RawPt *x = &tmp.v[i - a];
            P->t[i] = x->t;
            if (P->prio) P->prio[i] = (uint8_t)x->w;
            else P->cum[i] = x->w;
            P->ev[i] = x->ev; /* (with prio the same array as id, and the same value) */
            P->id[i] = x->id;
        }
    }
    VEC_FREE(tmp);
    P->built = true;
    if (P->prio) return;
    double acc = 0;
    for (size_t i = 0; i < n; i++) {
        double w = P->cum[i];
        P->cum[i] = acc;
        acc += w;
    }
    P->cum[n] = acc;
}

/* sort raw points into a Points structure of nrows rows (prio: a series
 * of instants, each weight 0..255, each id its event) */
void points_from_raw(Points *P, RawPt *raw, size_t n, uint32_t nrows, bool prio)
{
    P->nrows = nrows;
    P->off = xcalloc((size_t)nrows + 2, sizeof(uint32_t));
    for (size_t i = 0; i < n; i++) P->off[raw[i].row + 1]++;
    for (uint32_t r = 0; r < nrows; r++) P->off[r + 1] += P->off[r];
    /* a stable counting sort by row straight into the arrays (cum holding
     * the weights for now); then each row by time (points_finish) */
    points_alloc(P, n, prio);
    uint32_t *pos = xmalloc(((size_t)nrows + 1) * sizeof(uint32_t));
    memcpy(pos, P->off, (size_t)nrows * sizeof(uint32_t));
    for (size_t i = 0; i < n; i++) {
        size_t k = pos[raw[i].row]++;
        P->t[k] = raw[i].t;
        if (prio) P->prio[k] = (uint8_t)raw[i].w;
        else P->cum[k] = raw[i].w;
        P->ev[k] = raw[i].ev;
        P->id[k] = raw[i].id;
    }
    free(pos);
    points_finish(P, n);
}

/* P: the points of O (another row kind's series of the same events), each
 * in the row row_of[its event] (NONE32: left out), straight from O's
 * arrays: the same as points_from_raw over O's points in O's order (a
 * stable counting sort by row, then each row by time), without the raw
 * copy (32 bytes a point, fresh memory); the rows are looked up once,
 * read ahead (O's events are far apart in row_of), and P->off serves as
 * the rows' write positions */
void points_regroup(Points *P, const Points *O, const uint32_t *row_of, uint32_t nrows)
{
    size_t no = O->off[O->nrows], n = 0;
    const uint32_t *oev = O->ev;
    uint32_t *rowk = xmalloc_big((no + 1) * sizeof(uint32_t));
    P->nrows = nrows;
    uint32_t *off = P->off = xcalloc((size_t)nrows + 2, sizeof(uint32_t));
    /* row r's count in off[r + 2]; summed, off[r + 1] is where row r
     * starts, and each point placed moves it on: at the end, where row r
     * ends, which is where row r + 1 starts */
    for (size_t k = 0; k < no; k++) {
        if (k + 32 < no) __builtin_prefetch(&row_of[oev[k + 32]]);
        uint32_t r = row_of[oev[k]];
        rowk[k] = r;
        if (r != NONE32) off[r + 2]++, n++;
    }
    for (uint32_t r = 0; r < nrows; r++) off[r + 2] += off[r + 1];
    points_alloc(P, n, O->prio != NULL);
    if (O->prio) {
        /* (instants: t, the event and its weight) */
        for (size_t k = 0; k < no; k++) {
            uint32_t r = rowk[k];
            if (r == NONE32) continue;
            size_t j = off[r + 1]++;
            P->t[j] = O->t[k];
            P->prio[j] = O->prio[k];
            P->id[j] = oev[k];
        }
    } else {
        for (size_t k = 0; k < no; k++) {
            uint32_t r = rowk[k];
            if (r == NONE32) continue;
            size_t j = off[r + 1]++;
            P->t[j] = O->t[k];
            P->cum[j] = O->cum[k + 1] - O->cum[k];
            P->id[j] = O->id[k];
            P->ev[j] = oev[k];
        }
    }
    off[nrows + 1] = 0; /* (as points_from_raw leaves it) */
    xfree_big(rowk, (no + 1) * sizeof(uint32_t));
    points_finish(P, n);
}

/* P: the points of B (base's) whose event S selects, in B's order;
 * rowmap renumbers base's rows */
void points_derive(Summary *S, Points *P, const Points *B, const uint32_t *rowmap, uint32_t nrows)
{
    size_t nb = B->off[B->nrows], n = 0;
    for (size_t k = 0; k < nb; k++) n += selected(S, B->ev[k]);
    P->nrows = nrows;
    P->off = xcalloc((size_t)nrows + 2, sizeof(uint32_t));
    points_alloc(P, n, B->prio != NULL);
    n = 0;
    double acc = 0;
    for (uint32_t r = 0; r < B->nrows; r++) {
        uint32_t to = rowmap ? rowmap[r] : r;
        for (size_t k = B->off[r]; k < B->off[r + 1]; k++) {
            if (!selected(S, B->ev[k])) continue;
            P->t[n] = B->t[k];
            P->ev[n] = B->ev[k];
            P->id[n] = B->id[k];
            if (B->prio) {
                P->prio[n] = B->prio[k];
            } else {
                P->cum[n] = acc;
                acc += B->cum[k + 1] - B->cum[k]; /* (exact: integer weights) */
            }
            n++;
            P->off[to + 1]++;
        }
    }
    if (!B->prio) P->cum[n] = acc;
    for (uint32_t r = 0; r < nrows; r++) P->off[r + 1] += P->off[r];
    P->built = true;
}

/* col_get_i through a cursor (increasing events) */
static bool cur_get_i(ColCur *cc, size_t e, int64_t *out)
{
    const Column *c = cc->c;
    size_t k;
    if (!c || (c->type != VT_INT && c->type != VT_MIXED) || !colcur_slot(cc, e, &k)) return false;
    if (c->type == VT_MIXED) {
        if (c->vtype[k] != VT_INT) return false;
        *out = c->v.i[k];
        return true;
    }
    *out = col_int_at(c, k);
    return true;
}

static Points *msg_points_build(Summary *S, bool recv, RowKind rk);

Points *msg_points(Summary *S, bool recv, RowKind rk)
{
    int p = PART_MSG + recv * 3 + (int)rk;
    part_use(S, p);
    if (rk == ROWS_ACT) part_use(S, PART_MSG + recv * 3 + ROWS_LOC); /* (it may be regrouped from it) */
    Points *P = &S->msg[recv][rk];
    if (P->built) return P;
    /* (unfiltered: up to a point per message, with the build's transients
     * — each message's size, each end's row — and, the first time rows of
     * pairs are asked for, the pairs' sort buffers; filtered, derived from
     * the base's: as much as last time) */
    size_t est = 0;
    if (!S->sel)
        est = ((size_t)S->s->nmsg + 1) * (PT_BYTES + sizeof(double) + 2 * sizeof(uint32_t)) +
              (rk == ROWS_PAIR && !S->pairs_built ? ((size_t)S->s->nmsg + 1) * 32 : 0);
    part_reserve(S, p, est);
    msg_points_build(S, recv, rk);
    part_built(S, p);
    return P;
}

static Points *msg_points_build(Summary *S, bool recv, RowKind rk)
{
    Points *P = &S->msg[recv][rk];
    if (rk == ROWS_PAIR) build_pairs(S); /* (rows of pairs only) */
    const Store *s = S->s;
    if (rk == ROWS_ACT && S->msg[recv][ROWS_LOC].built) {
        /* the same points as by location (every end has a location), by
         * activity: the location's series read in order (this summary's
         * own, a filtered one's being small) */
        points_regroup(P, &S->msg[recv][ROWS_LOC], s->act, nrows_of(S, rk));
        return P;
    }
    if (S->base && S->sel) {
        const Points *B = msg_points(S->base, recv, rk);
        uint32_t *map = NULL;
        if (rk == ROWS_PAIR) {
            /* base's pairs include S's */
            map = xmalloc(((size_t)S->base->npairs + 1) * sizeof(uint32_t));
            uint32_t u = 0; /* (both sorted: a merge) */
            for (uint32_t q = 0; q < S->base->npairs; q++) {
                bool same = u < S->npairs && S->pair_src[u] == S->base->pair_src[q] && S->pair_dst[u] == S->base->pair_dst[q];
                map[q] = same ? u++ : NONE32;
            }
        }
        points_derive(S, P, B, map, nrows_of(S, rk));
        free(map);
        return P;
    }
    /* each message's size: its send's bytes (a cursor over the column:
     * messages are in the order of their sends), else its receive's */
    double *wt = xmalloc_big(((size_t)s->nmsg + 1) * sizeof(double));
    ColCur bc = {store_canon_col(s, F_BYTES), 0};
    uint32_t last = 0;
    for (uint32_t m = 0; m < s->nmsg; m++) {
        const Message *M = &s->msgs[m];
        int64_t b;
        bool have = false;
        if (M->send_ev != NONE32 && M->send_ev >= last) {
            have = cur_get_i(&bc, M->send_ev, &b);
            last = M->send_ev;
        } else if (M->send_ev != NONE32) {
            have = col_get_i(bc.c, M->send_ev, &b); /* (out of order: looked up) */
        }
        if (!have) b = msg_bytes(s, M); /* (its receive's, or none) */
        wt[m] = b > 0 ? (double)b : 0.0;
    }
    /* the ends in the order of their events (ev_msg), so that the columns
     * are read forward and each row's points come nearly sorted: their
     * rows first (NONE32: left out), counted; then the points straight
     * into their rows' places, as points_from_raw would put them, without
     * its raw copy (32 bytes a point, at the comm view's first frame) */
    uint32_t nrows = nrows_of(S, rk);
    uint32_t *rowk = xmalloc_big(((size_t)s->nev_msg + 1) * sizeof(uint32_t));
    P->nrows = nrows;
    P->off = xcalloc((size_t)nrows + 2, sizeof(uint32_t));
    size_t n = 0;
    for (uint32_t k = 0; k < s->nev_msg; k++) {
        uint32_t ev = s->ev_msg[k].ev, m = s->ev_msg[k].idx;
        if (k + 16 < s->nev_msg) __builtin_prefetch(&s->msgs[s->ev_msg[k + 16].idx]); /* (read out of order) */
        const Message *M = &s->msgs[m];
        uint32_t row = NONE32;
        rowk[k] = NONE32;
        if ((recv ? M->recv_ev : M->send_ev) != ev || !selected(S, ev)) continue;
        uint32_t src, dst;
        msg_ends(s, M, &src, &dst);
        if (rk == ROWS_LOC) row = recv ? (dst != NONE32 ? dst : s->loc[ev]) : src;
        else if (rk == ROWS_ACT) row = s->act[ev];
        else row = (src == NONE32 || dst == NONE32) ? NONE32 : S->msg_pair ? S->msg_pair[m] : pair_index(S, src, dst);
        if (row == NONE32 || (recv ? msg_t_recv(s, M) : s->ts[ev]) == INT64_MIN) continue;
        rowk[k] = row;
        P->off[row + 1]++;
        n++;
    }
    for (uint32_t r = 0; r < nrows; r++) P->off[r + 1] += P->off[r];
    points_alloc(P, n, false);
    uint32_t *pos = xmalloc(((size_t)nrows + 1) * sizeof(uint32_t));
    memcpy(pos, P->off, (size_t)nrows * sizeof(uint32_t));
    for (uint32_t k = 0; k < s->nev_msg; k++) {
        if (k + 16 < s->nev_msg) {
            __builtin_prefetch(&s->msgs[s->ev_msg[k + 16].idx]);
            __builtin_prefetch(&wt[s->ev_msg[k + 16].idx]);
        }
        uint32_t row = rowk[k];
        if (row == NONE32) continue;
        uint32_t ev = s->ev_msg[k].ev, m = s->ev_msg[k].idx;
        const Message *M = &s->msgs[m];
        size_t j = pos[row]++;
        P->t[j] = recv ? msg_t_recv(s, M) : s->ts[ev];
        P->cum[j] = wt[m];
        P->id[j] = m;
        P->ev[j] = ev;
    }
    free(pos);
    free(rowk); /* (released: see build_pairs) */
    free(wt);
    points_finish(P, n);
    return P;
}

/* index of the first point of row r at or after t */
size_t pts_lower(const Points *P, uint32_t r, int64_t t)
{
    size_t lo = P->off[r], hi = P->off[r + 1];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (P->t[mid] < t) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* ---- counters and expressions: step functions ---------------------------------------- */

typedef struct {
    uint32_t row;
    int64_t t;
    double d;      /* counter: the new value of a series; expr: a change of the rate */
    uint64_t series;
    size_t ord;    /* input order: equal times keep it */
} RawStep;

static int cmp_rawstep(const void *a, const void *b)
{
    const RawStep *x = a, *y = b;
    if (x->row != y->row) return x->row < y->row ? -1 : 1;
    if (x->t != y->t) return x->t < y->t ? -1 : 1;
    return x->ord < y->ord ? -1 : x->ord > y->ord;
}

/* the steps of row-sorted changes; counter: d is a series' new value (the
 * row's value is the sum over its series); else d is a change of the rate.
 * Defined from a row's first change until `until` (counters) or always. */
static void steps_from_raw(Steps *P, RawStep *raw, size_t n, uint32_t nrows, bool counter, int64_t until)
{
    for (size_t i = 0; i < n; i++) raw[i].ord = i;
    if (n) qsort(raw, n, sizeof(RawStep), cmp_rawstep);
    P->nrows = nrows;
    P->off = xcalloc((size_t)nrows + 2, sizeof(uint32_t));
    size_t cap = n + (size_t)nrows + 1;
    P->t = xmalloc_big(cap * sizeof(int64_t));
    P->v = xmalloc_big(cap * sizeof(double));
    P->cum = xmalloc_big(cap * sizeof(double));
    P->dcum = xmalloc_big(cap * sizeof(double));
    P->defd = xmalloc_big(cap);
    /* counters: a value near DBL_MAX held for 2^63 ns overflows the
     * integral; time is then counted in units of 2^66 ns (exact: a power of
     * two), and a row's sum of series is held within +-DBL_MAX */
    P->tscale = 1;
    for (size_t q = 0; counter && q < n; q++)
        if (!(fabs(raw[q].d) <= 0x1p900)) P->tscale = 0x1p-66;
    size_t k = 0, i = 0;
    VEC(uint64_t) skey = {0};
    VEC(double) sval = {0};
    for (uint32_t r = 0; r < nrows; r++) {
        P->off[r] = (uint32_t)k;
        skey.len = sval.len = 0;
        double rate = 0, cum = 0, dcum = 0, scale = 0;
        while (i < n && raw[i].row == r) {
            int64_t t = raw[i].t;
            for (; i < n && raw[i].row == r && raw[i].t == t; i++) {
                if (counter) {
                    size_t q = 0;
                    while (q < skey.len && skey.v[q] != raw[i].series) q++;
                    if (q == skey.len) {
                        VEC_PUSH(skey, raw[i].series);
                        VEC_PUSH(sval, 0.0);
                    }
                    sval.v[q] = raw[i].d;
                } else {
                    rate += raw[i].d;
                    if (fabs(raw[i].d) > scale) scale = fabs(raw[i].d);
                }
            }
            if (counter) {
                rate = 0;
                for (size_t q = 0; q < sval.len; q++) rate += sval.v[q];
                if (rate > DBL_MAX) rate = DBL_MAX;
                if (rate < -DBL_MAX) rate = -DBL_MAX;
            } else if (fabs(rate) < 1e-9 * scale) {
                rate = 0; /* what is left of rates that started and ended */
            }
            if (k > P->off[r]) {
                double dt = (double)(t - P->t[k - 1]) * P->tscale;
                if (P->defd[k - 1]) {
                    cum += P->v[k - 1] * dt;
                    dcum += dt;
                }
            }
            P->t[k] = t;
            P->v[k] = rate;
            P->cum[k] = cum;
            P->dcum[k] = dcum;
            P->defd[k] = 1;
            k++;
        }
        if (counter && k > P->off[r] && until > P->t[k - 1]) {
            /* a counter holds its value until the end of the trace */
            double dt = (double)(until - P->t[k - 1]) * P->tscale;
            cum += P->v[k - 1] * dt;
            dcum += dt;
            P->t[k] = until;
            P->v[k] = 0;
            P->cum[k] = cum;
            P->dcum[k] = dcum;
            P->defd[k] = 0;
            k++;
        } else if (counter && k > P->off[r]) {
            P->defd[k - 1] = 0;
        }
    }
    P->off[nrows] = (uint32_t)k;
    VEC_FREE(skey);
    VEC_FREE(sval);
    P->built = true;
}

/* cumulative value and defined time of row r at t */
void steps_at(const Steps *P, uint32_t r, int64_t t, double *cum, double *def)
{
    size_t lo = P->off[r], hi = P->off[r + 1];
    if (lo == hi || P->t[lo] > t) {
        *cum = 0;
        *def = 0;
        return;
    }
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (P->t[mid] <= t) lo = mid;
        else hi = mid;
    }
    double dt = (double)(t - P->t[lo]) * P->tscale;
    *cum = P->cum[lo] + (P->defd[lo] ? P->v[lo] * dt : 0);
    *def = P->dcum[lo] + (P->defd[lo] ? dt : 0);
}

Steps *counter_steps(Summary *S, RowKind rk)
{
    Steps *P = &S->counter[rk];
    if (P->built) return P;
    const Store *s = S->s;
    const Column *vc = store_canon_col(s, F_VALUE);
    VEC(RawStep) raw = {0};
    for (size_t e = 0; e < s->n; e++) {
        if (s->kind[e] != K_COUNTER || !selected(S, e)) continue;
        double v;
        if (!col_get_num(vc, e, &v)) continue;
        uint32_t row = rk == ROWS_LOC ? s->loc[e] : s->act[e];
        RawStep r = {row, s->ts[e], v, (uint64_t)s->act[e] << 32 | s->name[e], 0};
        VEC_PUSH(raw, r);
    }
    /* (a stable sort keeps samples of equal time in event order) */
    steps_from_raw(P, raw.v, raw.len, nrows_of(S, rk), true, s->t_max);
    VEC_FREE(raw);
    return P;
}

bool summary_prepare(Summary *S, const MetricSpec *m, RowKind rk, char *err, size_t errsz)
{
    if (m->m != M_EXPR) return true;
    const Store *s = S->s;
    if (!S->xval || !S->xtext || strcmp(S->xtext, m->expr ? m->expr : "") != 0) {
        FilterError fe;
        Filter *f = filter_compile_value(s, m->expr ? m->expr : "", &fe);
        if (!f) {
            snprintf(err, errsz, "expr:%d: %s", fe.col, fe.msg);
            return false;
        }
        xfree_big(S->xval, 0);
        S->xval = xmalloc_big((s->n + 1) * sizeof(double));
        if (filter_values(f, S->xval) != FILTER_OK) {
            snprintf(err, errsz, "expr: %s", filter_run_error(f));
            filter_free(f);
            xfree_big(S->xval, 0);
            S->xval = NULL;
            free(S->xtext);
            S->xtext = NULL;
            return false;
        }
        filter_free(f);
        free(S->xtext);
        S->xtext = xstrdup(m->expr ? m->expr : "");
        for (int r = 0; r < 2; r++) {
            steps_free(&S->xsteps[r]);
            points_free(&S->xpts[r]);
        }
    }
    if (rk == ROWS_PAIR || S->xsteps[rk].built) return true;
    VEC(RawStep) raw = {0};
    VEC(RawPt) pts = {0};
    for (size_t e = 0; e < s->n; e++) {
        double v = S->xval[e];
        if (v != v || !selected(S, e)) continue;
        uint32_t row = rk == ROWS_LOC ? s->loc[e] : s->act[e];
        if ((s->flags[e] & EVF_DUR) && s->dur[e] > 0) {
            double rate = v / (double)s->dur[e];
            RawStep a = {row, s->ts[e], rate, 0, 0}, b = {row, ev_end(s, e), -rate, 0, 0};
            VEC_PUSH(raw, a);
            VEC_PUSH(raw, b);
        } else {
            RawPt p = {row, (uint32_t)e, s->ts[e], v, (uint32_t)e};
            VEC_PUSH(pts, p);
        }
    }
    steps_from_raw(&S->xsteps[rk], raw.v, raw.len, nrows_of(S, rk), false, 0);
    points_from_raw(&S->xpts[rk], pts.v, pts.len, nrows_of(S, rk), false);
    VEC_FREE(raw);
    VEC_FREE(pts);
    return true;
}
