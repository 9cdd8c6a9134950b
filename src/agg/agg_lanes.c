/*
 * agg_lanes.c — lanes: per activity and location, the timeline of the
 * innermost open interval (segments), their categories, busy/sync
 * checkpoints and the per-lane time index; lookups in them.
 *
 * Owns: Summary.lanes, seg_*, cp, the loc/act → lane maps.
 * Invariants: a lane's segments are in one region of the global arrays,
 * starting a block of SEG_BLK (seg_tb: a block holds one lane's), their
 * start times strictly increase, the last segment is idle; each segment's
 * time, category and depth are exactly what seg_time, seg_cat and
 * seg_depth give (escapes in far_t, far_d); cp[c][k]
 * is the time of category c within its lane before segment k << CP_SHIFT;
 * bins[k] is the last segment starting at or before start + (k << shift).
 */
#include "agg_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *arena_alloc(Arena *A, size_t n)
{
    n = (n + 7) & ~(size_t)7;
    if (n > A->left) {
        size_t sz = n > (1u << 17) ? n : (1u << 17); /* (below the mmap threshold: chunks are recycled by malloc) */
        if (A->nchunk == A->capchunk) {
            A->capchunk = A->capchunk ? A->capchunk * 2 : 8;
            A->chunk = xrealloc(A->chunk, A->capchunk * sizeof(char *));
        }
        A->cur = A->chunk[A->nchunk++] = xmalloc(sz);
        A->left = sz;
    }
    void *p = A->cur;
    A->cur += n;
    A->left -= n;
    return p;
}

void arena_free(Arena *A)
{
    for (size_t i = 0; i < A->nchunk; i++) free(A->chunk[i]);
    free(A->chunk);
    memset(A, 0, sizeof *A);
}

/* ---- lanes: the innermost interval of each activity, per location --------------- */

/* Each activity is swept in time order with a stack of its open intervals
 * (its candidates: the selected intervals, from a bitmap made in event
 * order first); whenever the innermost one changes, an entry (time, event
 * or NONE32, depth, category) goes to the *stream* of its worker, tagged
 * with the lane (the location of the event) it belongs to. The stream is
 * then split into the lanes, written straight into the activity's region
 * of the global arrays (sized from a count of its intervals: at most 2
 * entries per interval, 4 when the activity spans locations), dropping
 * zero-length segments and repeats. */

typedef struct {
    uint32_t loc, n;
} SLane;

typedef struct {
    int64_t *t;
    uint32_t *ev;
    uint8_t *lane;
    uint16_t *depth;
    size_t n, cap;
    SLane *ln;
    uint32_t nl, capl;
    uint32_t cur, cur_lane; /* the innermost event, or NONE32 */
    /* the open intervals, innermost last, with their ends; the
     * activity's candidates (all three sized capc) */
    uint32_t *stack, slen;
    int64_t *send;
    uint32_t *cand, capc;
    bool one_loc;              /* the activity is at one location: lane 0 */
    uint8_t *cat;              /* per stream entry: its category */
    const uint8_t *cat_of_kind; /* (LaneCtx's) */
    Arena *tmp, *keep; /* the worker's: outputs until the lanes are made; time indexes */
    /* the activity's segments before they are encoded (relative to its
     * region; sized like the stream): times, depths, categories */
    int64_t *st;
    uint16_t *sd;
    uint8_t *sc;
    size_t caps;
    SegFarVec *far_t, *far_d; /* (LaneCtx's, this worker's) */
} Stream;

typedef struct {
    uint32_t nl;
    SLane *ln;      /* its lanes: location and number of segments */
    uint32_t *loff; /* segment offset of each lane */
    uint32_t **bins; /* each lane's time index */
    uint32_t *nbins;
    uint8_t *shift;
    int64_t *span;   /* each lane's t0 and t1 (Lane), taken while its segments are at hand */
} ActOut;

typedef struct {
    Summary *S;
    size_t *cnt;    /* per activity: room for its segments, then (prefix) its region */
    ActOut *out;
    uint64_t *cand; /* per event: a selected interval (see cand_worker) */
    uint8_t *cat_of_kind; /* the category of an interval of each kind */
    JobQueue q;     /* jobs of `blk` activities in a row */
    size_t blk;
    Arena tmp[SWEEP_WORKERS];
    SegFarVec far_t[SWEEP_WORKERS], far_d[SWEEP_WORKERS]; /* the escapes each worker wrote */
} LaneCtx;

/* the candidates of the sweep, 64 events a word: the selected intervals
 * (a duration > 0, not a message), read in event order here once instead
 * of column by column at each activity's events */
static void cand_worker(void *ctx, int wk, int nw)
{
    LaneCtx *c = ctx;
    const Store *s = c->S->s;
    const uint64_t *sel = c->S->sel;
    size_t nwords = (s->n + 63) / 64, w0 = nwords * (size_t)wk / (size_t)nw, w1 = nwords * (size_t)(wk + 1) / (size_t)nw;
    for (size_t w = w0; w < w1; w++) {
        size_t e0 = w * 64, e1 = e0 + 64 < s->n ? e0 + 64 : s->n;
        uint64_t m = 0;
        for (size_t e = e0; e < e1; e++) /* (without a branch) */
            m |= (uint64_t)(((s->flags[e] & EVF_DUR) != 0) & (s->dur[e] > 0) & (s->kind[e] != K_MSG)) << (e - e0);
        c->cand[w] = sel ? m & sel[w] : m;
    }
}

static inline bool candidate(const LaneCtx *c, uint32_t e) { return (c->cand[e >> 6] >> (e & 63)) & 1; }

static uint32_t stream_lane(Stream *w, uint32_t loc)
{
    for (uint32_t i = 0; i < w->nl; i++)
        if (w->ln[i].loc == loc) return i;
    if (w->nl == w->capl) {
        w->capl = w->capl ? w->capl * 2 : 4;
        w->ln = xrealloc(w->ln, w->capl * sizeof(SLane));
    }
    w->ln[w->nl] = (SLane){loc, 0};
    return w->nl++;
}

static inline void stream_put(Stream *w, const Store *s, uint32_t lane, int64_t t, uint32_t ev)
{
    w->t[w->n] = t;
    w->ev[w->n] = ev;
    w->lane[w->n] = (uint8_t)lane;
    w->depth[w->n] = ev == NONE32 ? 0 : w->slen < 65535 ? (uint16_t)w->slen : 65535;
    w->cat[w->n] = ev == NONE32 ? CAT_IDLE : w->cat_of_kind[s->kind[ev]];
    w->n++;
}

/* the innermost interval becomes ev (NONE32: none) at time x */
static inline void stream_set(Stream *w, const Store *s, int64_t x, uint32_t ev)
{
    if (ev == w->cur) return;
    uint32_t nl = ev == NONE32 ? NONE32 : w->one_loc ? 0 : stream_lane(w, s->loc[ev]);
    if (w->cur != NONE32 && nl != w->cur_lane) stream_put(w, s, w->cur_lane, x, NONE32);
    if (ev != NONE32) stream_put(w, s, nl, x, ev);
    w->cur = ev;
    w->cur_lane = nl;
}

static inline void stream_close_until(Stream *w, const Store *s, int64_t t)
{
    while (w->slen) {
        int64_t end = w->send[w->slen - 1];
        if (end > t) break;
        w->slen--;
        /* (intervals that are not properly nested end lazily) */
        while (w->slen && w->send[w->slen - 1] <= end) w->slen--;
        stream_set(w, s, end, w->slen ? w->stack[w->slen - 1] : NONE32);
    }
}

static void sweep_activity(Summary *S, LaneCtx *c, Stream *w, uint32_t a)
{
    const Store *s = S->s;
    size_t need = c->cnt[a + 1] - c->cnt[a];
    if (need > w->cap) {
        w->cap = need;
        w->t = xrealloc(w->t, need * sizeof(int64_t));
        w->ev = xrealloc(w->ev, need * sizeof(uint32_t));
        w->lane = xrealloc(w->lane, need);
        w->depth = xrealloc(w->depth, need * sizeof(uint16_t));
        w->cat = xrealloc(w->cat, need);
    }
    w->n = 0;
    w->nl = 0;
    w->cur = w->cur_lane = NONE32;
    w->slen = 0;
    /* the candidates first, without a branch (a filter's selection makes
     * it unpredictable) */
    uint32_t p0 = s->act_off[a], p1 = s->act_off[a + 1], m = 0;
    /* (the next activity's location read ahead: below, an activity at one
     * location reads it first, a cache miss per activity otherwise) */
    if (a + 1 < s->nact && s->act_off[a + 2] > p1) __builtin_prefetch(&s->loc[s->act_ev[p1]]);
    if (p1 - p0 > w->capc) {
        w->capc = p1 - p0;
        w->cand = xrealloc(w->cand, (size_t)w->capc * sizeof(uint32_t));
        w->stack = xrealloc(w->stack, (size_t)w->capc * sizeof(uint32_t));
        w->send = xrealloc(w->send, (size_t)w->capc * sizeof(int64_t));
    }
    for (uint32_t p = p0; p < p1; p++) {
        uint32_t e = s->act_ev[p];
        w->cand[m] = e;
        m += candidate(c, e);
    }
    /* (an activity at one location: its one lane, without looking up
     * each interval's location) */
    w->one_loc = s->acts[a].nlocs <= 1 && m;
    if (w->one_loc) {
        stream_lane(w, s->loc[w->cand[0]]);
    }
    for (uint32_t i = 0; i < m; i++) {
        uint32_t e = w->cand[i];
        int64_t t = s->ts[e];
        stream_close_until(w, s, t);
        w->stack[w->slen] = e;
        w->send[w->slen++] = t + s->dur[e];
        stream_set(w, s, t, e);
    }
    stream_close_until(w, s, INT64_MAX);
    if (w->nl > 255) die_oom(); /* (an activity at more than 255 locations) */
    /* split into lanes, in the activity's region: zero-length segments and
     * repeats dropped */
    ActOut *o = &c->out[a];
    o->nl = w->nl;
    o->ln = arena_alloc(w->tmp, ((size_t)w->nl + 1) * sizeof(SLane));
    o->loff = arena_alloc(w->tmp, ((size_t)w->nl + 1) * sizeof(uint32_t));
    for (uint32_t i = 0; i < w->nl; i++) w->ln[i].n = 0;
    for (size_t k = 0; w->nl > 1 && k < w->n; k++) w->ln[w->lane[k]].n++;
    /* (offsets relative to the region [r0, ...) until the segments are
     * encoded; each lane's starts a block of SEG_BLK) */
    size_t r0 = c->cnt[a], off = 0;
    for (uint32_t i = 0; i < w->nl; i++) {
        o->ln[i] = (SLane){w->ln[i].loc, 0};
        o->loff[i] = (uint32_t)off;
        off += (w->ln[i].n + SEG_BLK - 1) & ~(size_t)(SEG_BLK - 1);
    }
    if (need > w->caps) {
        w->caps = need;
        w->st = xrealloc(w->st, need * sizeof(int64_t));
        w->sd = xrealloc(w->sd, need * sizeof(uint16_t));
        w->sc = xrealloc(w->sc, need);
    }
    int64_t *T = w->st;
    uint32_t *E = S->seg_ev + r0;
    uint16_t *D = w->sd;
    uint8_t *C = w->sc; /* (a function of the event: written with it) */
    if (w->nl == 1) {
        /* (the same, with the lane's last two entries in registers: most
         * activities stay at one location) */
        size_t at = o->loff[0], n = 0;
        int64_t lt = 0;
        uint32_t le = 0, le2 = 0;
        uint16_t ld = 0, ld2 = 0;
        for (size_t k = 0; k < w->n; k++) {
            int64_t t = w->t[k];
            uint32_t ev = w->ev[k];
            uint16_t d = w->depth[k];
            if (n && lt == t) {
                E[at + n - 1] = le = ev;
                D[at + n - 1] = ld = d;
                C[at + n - 1] = w->cat[k];
                if (n >= 2 && le2 == ev && ld2 == d) {
                    /* (the entry before stands: it is the lane's last again) */
                    n--;
                    lt = T[at + n - 1];
                    le = le2;
                    ld = ld2;
                    le2 = n >= 2 ? E[at + n - 2] : 0;
                    ld2 = n >= 2 ? D[at + n - 2] : 0;
                }
                continue;
            }
            if (n && le == ev && ld == d) continue;
            T[at + n] = t;
            E[at + n] = ev;
            D[at + n] = d;
            C[at + n] = w->cat[k];
            le2 = le;
            ld2 = ld;
            lt = t;
            le = ev;
            ld = d;
            n++;
        }
        o->ln[0].n = (uint32_t)n;
    }
    for (size_t k = 0; w->nl != 1 && k < w->n; k++) {
        uint32_t L = w->lane[k];
        size_t at = o->loff[L] + o->ln[L].n;
        if (o->ln[L].n && T[at - 1] == w->t[k]) {
            /* a zero-length segment: the later entry replaces it */
            E[at - 1] = w->ev[k];
            D[at - 1] = w->depth[k];
            C[at - 1] = w->cat[k];
            if (o->ln[L].n >= 2 && E[at - 2] == w->ev[k] && D[at - 2] == w->depth[k]) o->ln[L].n--;
            continue;
        }
        if (o->ln[L].n && E[at - 1] == w->ev[k] && D[at - 1] == w->depth[k]) continue;
        T[at] = w->t[k];
        E[at] = w->ev[k];
        D[at] = w->depth[k];
        C[at] = w->cat[k];
        o->ln[L].n++;
    }
    /* the time index of each lane */
    o->bins = arena_alloc(w->tmp, ((size_t)o->nl + 1) * sizeof(uint32_t *));
    o->nbins = arena_alloc(w->tmp, ((size_t)o->nl + 1) * sizeof(uint32_t));
    o->shift = arena_alloc(w->tmp, (size_t)o->nl + 1);
    for (uint32_t i = 0; i < o->nl; i++) {
        size_t g0 = o->loff[i], n = o->ln[i].n;
        uint64_t span = n ? (uint64_t)(T[g0 + n - 1] - T[g0]) : 0;
        /* (about 8 segments a bin in a long lane, whose lookups are the
         * Gantt's cache misses; 32 in a short one, which a frame reads
         * little and which are many: a task runtime's) */
        uint8_t sh = 0;
        size_t per = n >= 4096 ? 8 : 32;
        while ((span >> sh) >= n / per + 1) sh++;
        uint32_t nb = n ? (uint32_t)(span >> sh) + 1 : 0;
        uint32_t *bins = arena_alloc(w->keep, ((size_t)nb + 1) * sizeof(uint32_t));
        size_t k = g0;
        for (uint32_t b = 0; b < nb; b++) {
            int64_t at = T[g0] + (int64_t)((uint64_t)b << sh);
            while (k + 1 < g0 + n && T[k + 1] <= at) k++;
            bins[b] = (uint32_t)(r0 + k);
        }
        o->bins[i] = bins;
        o->nbins[i] = nb;
        o->shift[i] = sh;
    }
    o->span = arena_alloc(w->tmp, (2 * (size_t)o->nl + 1) * sizeof(int64_t));
    for (uint32_t i = 0; i < o->nl; i++) {
        size_t g0 = o->loff[i], n = o->ln[i].n;
        o->span[2 * i] = n ? T[g0] : 0;
        o->span[2 * i + 1] = n ? (E[g0 + n - 1] == NONE32 ? T[g0 + n - 1] : INT64_MAX) : 0;
    }
    /* checkpoints (at the segments whose global index is a multiple of
     * 1 << CP_SHIFT) */
    for (uint32_t i = 0; i < o->nl; i++) {
        /* (busy and sync in registers, added without a branch) */
        int64_t acc_busy = 0, acc_sync = 0;
        size_t g0 = o->loff[i], g1 = g0 + o->ln[i].n, g = g0;
        for (; g + 1 < g1; g++) {
            if (!((r0 + g) & ((1u << CP_SHIFT) - 1))) {
                S->cp[0][(r0 + g) >> CP_SHIFT] = acc_busy;
                S->cp[1][(r0 + g) >> CP_SHIFT] = acc_sync;
            }
            int64_t d = T[g + 1] - T[g];
            uint8_t cat = C[g];
            acc_busy += cat == CAT_BUSY ? d : 0;
            acc_sync += cat == CAT_SYNC ? d : 0;
        }
        if (g < g1 && !((r0 + g) & ((1u << CP_SHIFT) - 1))) {
            S->cp[0][(r0 + g) >> CP_SHIFT] = acc_busy;
            S->cp[1][(r0 + g) >> CP_SHIFT] = acc_sync;
        }
    }
    /* the segments encoded: per block of SEG_BLK (one lane's: the lanes
     * start blocks) its first time, and each one's offset from it; the
     * category and depth in a byte; what does not fit, escaped */
    for (uint32_t i = 0; i < o->nl; i++) {
        size_t g0 = o->loff[i], n = o->ln[i].n;
        for (size_t g = g0; g < g0 + n; g++) {
            size_t z = r0 + g;
            SegBlk *B = &S->seg_tb[z >> SEG_BSHIFT];
            if (!(g & (SEG_BLK - 1))) B->base = T[g];
            uint64_t dt = (uint64_t)T[g] - (uint64_t)B->base;
            if (dt < SEG_FAR) {
                B->lo[z & (SEG_BLK - 1)] = (uint32_t)dt;
            } else {
                B->lo[z & (SEG_BLK - 1)] = SEG_FAR;
                VEC_PUSH(*w->far_t, ((SegFar){z, T[g]}));
            }
            uint16_t d = D[g];
            S->seg_cd[z] = (uint8_t)(C[g] | (d < SEG_DEEP ? d : SEG_DEEP) << 2);
            if (d >= SEG_DEEP) VEC_PUSH(*w->far_d, ((SegFar){z, d}));
        }
        o->loff[i] = (uint32_t)(r0 + g0);
    }
}

static void count_worker(void *ctx, int wk, int nw)
{
    (void)wk;
    (void)nw;
    LaneCtx *c = ctx;
    const Store *s = c->S->s;
    size_t j;
    while ((j = jobq_next(&c->q)) != (size_t)-1) {
        size_t a1 = (j + 1) * c->blk < s->nact ? (j + 1) * c->blk : s->nact;
        for (size_t a = j * c->blk; a < a1; a++) {
            /* room for the stream of the activity: each change of the
             * innermost interval (at most one per start and one per end)
             * puts one entry, or two when it changes the location too
             * (an activity at one location has its candidates there) */
            size_t n = 0;
            for (uint32_t p = s->act_off[a]; p < s->act_off[a + 1]; p++) n += candidate(c, s->act_ev[p]);
            /* (and room to start each lane at a block of SEG_BLK) */
            size_t nl = s->acts[a].nlocs <= 1 ? 1 : s->acts[a].nlocs < 256 ? s->acts[a].nlocs : 256;
            size_t room = (s->acts[a].nlocs <= 1 ? 2 : 4) * n + 2 + (nl > 1 ? SEG_BLK * nl : 0);
            c->cnt[a + 1] = n ? (room + SEG_BLK - 1) & ~(size_t)(SEG_BLK - 1) : 0;
        }
    }
}

static void sweep_worker(void *ctx, int wk, int nw)
{
    (void)nw;
    LaneCtx *c = ctx;
    Stream w;
    memset(&w, 0, sizeof w);
    w.tmp = &c->tmp[wk];
    w.keep = &c->S->bins_arena[wk];
    w.cat_of_kind = c->cat_of_kind;
    w.far_t = &c->far_t[wk];
    w.far_d = &c->far_d[wk];
    size_t j, nact = c->S->s->nact;
    while ((j = jobq_next(&c->q)) != (size_t)-1)
        for (size_t a = j * c->blk, a1 = a + c->blk < nact ? a + c->blk : nact; a < a1; a++)
            if (c->cnt[a + 1] > c->cnt[a]) sweep_activity(c->S, c, &w, (uint32_t)a);
    free(w.t);
    free(w.ev);
    free(w.lane);
    free(w.depth);
    free(w.cat);
    free(w.st);
    free(w.sd);
    free(w.sc);
    free(w.ln);
    free(w.cand);
    free(w.stack);
    free(w.send);
}

static int far_cmp(const void *a, const void *b)
{
    const SegFar *x = a, *y = b;
    return x->z < y->z ? -1 : x->z > y->z;
}

/* the workers' escapes in one array sorted by segment (each segment is
 * encoded once: no duplicates) */
static void far_merge(SegFarVec *v, SegFar **out, size_t *n)
{
    size_t m = 0;
    for (int k = 0; k < SWEEP_WORKERS; k++) m += v[k].len;
    *n = m;
    *out = NULL;
    if (!m) return;
    SegFar *f = xmalloc(m * sizeof(SegFar));
    m = 0;
    for (int k = 0; k < SWEEP_WORKERS; k++) {
        if (v[k].len) memcpy(f + m, v[k].v, v[k].len * sizeof(SegFar));
        m += v[k].len;
        free(v[k].v);
    }
    qsort(f, m, sizeof(SegFar), far_cmp);
    *out = f;
}

int64_t seg_far(const SegFar *f, size_t n, size_t z)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (f[mid].z < z) lo = mid + 1;
        else hi = mid;
    }
    return lo < n && f[lo].z == z ? f[lo].v : 0;
}

void build_lanes(Summary *S)
{
    const Store *s = S->s;
    if (S->threads > SWEEP_WORKERS) S->threads = SWEEP_WORKERS;
    LaneCtx c;
    memset(&c, 0, sizeof c);
    c.S = S;
    c.cnt = xcalloc((size_t)s->nact + 2, sizeof(size_t));
    c.out = xcalloc((size_t)s->nact + 1, sizeof(ActOut));
    /* (an interval of a user kind — compile, task, GC — is work: busy, as
     * state is; one of kind idle is idle) */
    c.cat_of_kind = xmalloc((size_t)K_USER + s->nukind + 1);
    for (uint32_t k = 0; k < (uint32_t)K_USER + s->nukind; k++)
        c.cat_of_kind[k] = kind_is_busy(s, (uint16_t)k) ? CAT_BUSY
                           : k == K_SYNC               ? CAT_SYNC
                           : k >= K_USER               ? CAT_IDLE
                                                       : CAT_OTHER;
    c.cand = xmalloc_big(((s->n + 63) / 64 + 1) * sizeof(uint64_t));
    par_run(S->threads, cand_worker, &c);
    /* activities are handed out in blocks (a few hundred jobs per worker:
     * one shared counter per activity costs as much as a short one's sweep) */
    c.blk = s->nact / ((size_t)S->threads * 256) + 1;
    size_t njobs = (s->nact + c.blk - 1) / c.blk;
    jobq_init(&c.q, njobs);
    par_run(S->threads, count_worker, &c);
    for (uint32_t a = 0; a < s->nact; a++) c.cnt[a + 1] += c.cnt[a];
    /* regions: activity a writes into [cnt[a], cnt[a + 1]) (it may use less) */
    size_t cap = c.cnt[s->nact] + 1;
    S->seg_cap = cap;
    S->seg_tb = xmalloc_big_keep(seg_blocks(cap) * sizeof(SegBlk));
    S->seg_ev = xmalloc_big_keep(cap * sizeof(uint32_t));
    S->seg_cd = xmalloc_big_keep(cap);
    size_t nblk = (cap >> CP_SHIFT) + 1;
    for (int k = 0; k < 2; k++) S->cp[k] = xmalloc_big_keep(nblk * sizeof(int64_t));
    jobq_init(&c.q, njobs);
    par_run(S->threads, sweep_worker, &c);
    far_merge(c.far_t, &S->far_t, &S->nfar_t);
    far_merge(c.far_d, &S->far_d, &S->nfar_d);
    /* the lanes, in activity order */
    uint32_t nl = 0;
    size_t nseg = 0;
    for (uint32_t a = 0; a < s->nact; a++) nl += c.out[a].nl;
    S->nlanes = nl;
    S->lanes = xcalloc((size_t)nl + 1, sizeof(Lane));
    S->act_off = xcalloc((size_t)s->nact + 1, sizeof(uint32_t));
    S->loc_off = xcalloc((size_t)s->nloc + 2, sizeof(uint32_t));
    uint32_t li = 0;
    for (uint32_t a = 0; a < s->nact; a++) {
        S->act_off[a] = li;
        ActOut *o = &c.out[a];
        for (uint32_t i = 0; i < o->nl; i++) {
            Lane *L = &S->lanes[li++];
            L->act = a;
            L->loc = o->ln[i].loc;
            L->off = o->loff[i];
            L->n = o->ln[i].n;
            L->bins = o->bins[i];
            L->nbins = o->nbins[i];
            L->shift = o->shift[i];
            if (L->n) {
                L->t0 = o->span[2 * i];
                L->t1 = o->span[2 * i + 1];
            }
            nseg += L->n;
            S->loc_off[L->loc + 1]++;
        }
    }
    for (int k = 0; k < SWEEP_WORKERS; k++) arena_free(&c.tmp[k]);
    S->act_off[s->nact] = li;
    S->nseg = nseg;
    free(c.out);
    free(c.cnt);
    free(c.cat_of_kind);
    xfree_big(c.cand, ((s->n + 63) / 64 + 1) * sizeof(uint64_t));
    S->act_lanes = xmalloc(((size_t)nl + 1) * sizeof(uint32_t));
    for (uint32_t i = 0; i < nl; i++) S->act_lanes[i] = i;
    for (uint32_t l = 0; l < s->nloc; l++) S->loc_off[l + 1] += S->loc_off[l];
    S->loc_lanes = xmalloc(((size_t)nl + 1) * sizeof(uint32_t));
    uint32_t *pos = xmalloc(((size_t)s->nloc + 1) * sizeof(uint32_t));
    memcpy(pos, S->loc_off, (size_t)s->nloc * sizeof(uint32_t));
    for (uint32_t i = 0; i < nl; i++) S->loc_lanes[pos[S->lanes[i].loc]++] = i;
    free(pos);
}

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
        for (bool more = true; more;) {
            more = false;
            for (size_t j = 0; j < m; j++) {
                if (lo[j] == SIZE_MAX || hi[j] - lo[j] <= 1) continue;
                size_t mid = lo[j] + (hi[j] - lo[j]) / 2;
                if (seg_time(S, mid) <= t[i0 + j]) lo[j] = mid;
                else hi[j] = mid;
                if (hi[j] - lo[j] > 1) {
                    __builtin_prefetch(&S->seg_tb[(lo[j] + (hi[j] - lo[j]) / 2) >> SEG_BSHIFT]);
                    more = true;
                }
            }
        }
        for (size_t j = 0; j < m; j++) {
            k[i0 + j] = lo[j];
            if (lo[j] != SIZE_MAX) __builtin_prefetch(&S->seg_ev[lo[j]]);
        }
    }
}

/* time of lane L in category cat over (-inf, t) */
int64_t lane_cum(const Summary *S, const Lane *L, int cat, int64_t t, size_t *hint)
{
    ptrdiff_t k = seg_find(S, L, t, hint);
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
        size_t hint = SIZE_MAX;
        for (size_t i = i0; i < i1; i++) acc[i] += lane_cum(S, L, cat, t[i], &hint);
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
