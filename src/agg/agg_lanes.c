/*
 * agg_lanes.c — lanes: per activity and location, the timeline of the
 * innermost open interval (segments), their categories, busy/sync
 * checkpoints and the per-lane time index (lookups in them:
 * agg_lanefind.c).
 *
 * Owns: Summary.ivl (the store's intervals, a bit per event, handed from
 * summary to summary), Summary.cand (the candidates: the selected
 * intervals, ivl & the selection), lanes, seg_*, cp, the loc/act → lane maps; the names' per-key
 * tables (innermost time, smallest event) filled from the final segments
 * as each lane is finished, ranked by agg_rows.c. All of it is a function
 * of the store and cand: lanes_take hands it to a summary of the same
 * candidates as it is (the interface's filter on instants).
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
 * zero-length segments and repeats. An activity at one location (most)
 * has no stream: its sweep writes its one lane's segments as it goes
 * (sweep_one). Each lane is then finished in one pass over its segments
 * (time index, checkpoints, encoded times), and the workers copy the
 * lanes into Summary.lanes and place them by location. */

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
    uint8_t *scd; /* (sweep_one's) */
    uint32_t *cand, capc;
    bool one_loc;              /* the activity is at one location: lane 0 */
    uint8_t *cat;              /* per stream entry: its category and depth, as seg_cd encodes them */
    const uint8_t *cat_of_kind; /* (LaneCtx's) */
    Arena *keep; /* the worker's: the lanes' time indexes */
    /* the activity's segments before they are encoded (relative to its
     * region; sized like the stream): times, depths (their events and
     * category-and-depth bytes go straight into seg_ev and seg_cd) */
    int64_t *st;
    uint16_t *sd;
    size_t caps;
    SegFarVec *far_t, *far_d; /* (LaneCtx's, this worker's) */
    /* the activity's lanes while they are made: location and number of
     * segments, first segment (relative to its region); sized capo */
    SLane *oln;
    uint32_t *ooff, capo;
    /* (LaneCtx's, this worker's: per name key, the innermost time and the
     * smallest event of the segments written; NULL: not made here) */
    int64_t *nm_ns;
    uint32_t *nm_ev;
} Stream;

typedef struct {
    Summary *S;
    size_t *cnt;    /* per activity: room for its segments, then (prefix) its region */
    uint32_t *lres; /* per activity: room for its lanes (1 at one location, else its locations), then (prefix) where they start */
    uint32_t *lnl;  /* per activity: its lanes */
    uint64_t *cand; /* per event: a selected interval (lanes_candidates) */
    uint8_t *cat_of_kind; /* the category of an interval of each kind */
    JobQueue q;     /* jobs of `blk` activities in a row */
    size_t blk;
    uint32_t *loc_cnt[SWEEP_WORKERS]; /* per worker of the lanes' placing: its lanes per location, then where they go */
    size_t nseg[SWEEP_WORKERS];
    SegFarVec far_t[SWEEP_WORKERS], far_d[SWEEP_WORKERS]; /* the escapes each worker wrote */
    size_t nm_keys; /* the names' tables (names_sweep_keys; 0: none), per worker */
    int64_t *nm_ns[SWEEP_WORKERS];
    uint32_t *nm_ev[SWEEP_WORKERS];
} LaneCtx;

/* the store's intervals (a duration > 0, not a message), 64 events a word:
 * the candidates without a selection, read in event order once per store
 * (summaries hand them on) instead of column by column at each activity's
 * events */
static void ivl_worker(void *ctx, int wk, int nw)
{
    LaneCtx *c = ctx;
    const Store *s = c->S->s;
    size_t nwords = (s->n + 63) / 64, w0 = nwords * (size_t)wk / (size_t)nw, w1 = nwords * (size_t)(wk + 1) / (size_t)nw;
    for (size_t w = w0; w < w1; w++) {
        size_t e0 = w * 64, e1 = e0 + 64 < s->n ? e0 + 64 : s->n;
        uint64_t m = 0;
        for (size_t e = e0; e < e1; e++) /* (without a branch) */
            m |= (uint64_t)(((s->flags[e] & EVF_DUR) != 0) & (s->dur[e] > 0) & (s->kind[e] != K_MSG)) << (e - e0);
        c->S->ivl[w] = m;
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
    uint16_t d = ev == NONE32 ? 0 : w->slen < 65535 ? (uint16_t)w->slen : 65535;
    w->depth[w->n] = d;
    w->cat[w->n] = (uint8_t)((ev == NONE32 ? CAT_IDLE : w->cat_of_kind[s->kind[ev]]) | (d < SEG_DEEP ? d : SEG_DEEP) << 2);
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

/* the sweep of an activity at one location: as stream_set and the split
 * into lanes below, with its one lane's entries written straight into its
 * segments (T, E, D, C from the region's start), a zero-length segment
 * replaced by the later entry and a repeat dropped as they come. The
 * innermost interval is always the top of the stack (none when it is
 * empty), and its depth the stack's: the category and depth byte of each
 * open interval is made once, when it is pushed. */
typedef struct {
    int64_t *T;
    uint32_t *E;
    uint16_t *D;
    uint8_t *C;
    size_t n;
    int64_t lt;            /* the last segment's time, event, depth */
    uint32_t le, le2, cur; /* (le2, ld2: the segment before it) */
    uint16_t ld, ld2;
    uint32_t *stack, slen, maxd;
    int64_t *send;
    uint8_t *scd; /* per open interval: its segments' byte of C */
} OneLane;

/* the innermost interval may have changed at time t */
static inline __attribute__((always_inline)) void one_set(OneLane *q, int64_t t)
{
    uint32_t k = q->slen, ev = k ? q->stack[k - 1] : NONE32;
    if (ev == q->cur) return;
    q->cur = ev;
    uint16_t d = k < 65535 ? (uint16_t)k : 65535;
    uint8_t cd = k ? q->scd[k - 1] : CAT_IDLE;
    size_t n = q->n;
    if (n && q->lt == t) {
        q->E[n - 1] = q->le = ev;
        q->D[n - 1] = q->ld = d;
        q->C[n - 1] = cd;
        if (n >= 2 && q->le2 == ev && q->ld2 == d) {
            /* (the entry before stands: it is the lane's last again) */
            n = --q->n;
            q->lt = q->T[n - 1];
            q->le = q->le2;
            q->ld = q->ld2;
            q->le2 = n >= 2 ? q->E[n - 2] : 0;
            q->ld2 = n >= 2 ? q->D[n - 2] : 0;
        }
        return;
    }
    if (n && q->le == ev && q->ld == d) return;
    q->T[n] = t;
    q->E[n] = ev;
    q->D[n] = d;
    q->C[n] = cd;
    q->le2 = q->le;
    q->ld2 = q->ld;
    q->lt = t;
    q->le = ev;
    q->ld = d;
    q->n = n + 1;
}

static inline __attribute__((always_inline)) void one_close_until(OneLane *q, int64_t t)
{
    while (q->slen) {
        int64_t end = q->send[q->slen - 1];
        if (end > t) break;
        q->slen--;
        /* (intervals that are not properly nested end lazily) */
        while (q->slen && q->send[q->slen - 1] <= end) q->slen--;
        one_set(q, end);
    }
}

/* returns the number of segments; *maxd: the deepest the stack went */
static size_t sweep_one(Stream *w, const Store *s, uint32_t m, int64_t *T, uint32_t *E, uint16_t *D, uint8_t *C, uint32_t *maxd)
{
    OneLane q = {.T = T, .E = E, .D = D, .C = C, .cur = NONE32, .stack = w->stack, .send = w->send, .scd = w->scd};
    const uint8_t *cok = w->cat_of_kind;
    for (uint32_t i = 0; i < m; i++) {
        uint32_t e = w->cand[i];
        int64_t t = s->ts[e];
        one_close_until(&q, t);
        uint32_t k = q.slen;
        q.stack[k] = e;
        q.send[k] = t + s->dur[e];
        q.scd[k] = (uint8_t)(cok[s->kind[e]] | (k + 1 < SEG_DEEP ? k + 1 : SEG_DEEP) << 2);
        q.slen = k + 1;
        q.maxd = q.maxd > k + 1 ? q.maxd : k + 1;
        one_set(&q, t);
    }
    one_close_until(&q, INT64_MAX);
    *maxd = q.maxd;
    return q.n;
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
        w->scd = xrealloc(w->scd, w->capc);
    }
    for (uint32_t p = p0; p < p1; p++) {
        uint32_t e = s->act_ev[p];
        w->cand[m] = e;
        m += candidate(c, e);
    }
    /* (an activity at one location, most are: its one lane's segments
     * written as the sweep finds them) */
    w->one_loc = s->acts[a].nlocs <= 1 && m;
    if (need > w->caps) {
        w->caps = need;
        w->st = xrealloc(w->st, need * sizeof(int64_t));
        w->sd = xrealloc(w->sd, need * sizeof(uint16_t));
    }
    size_t r0 = c->cnt[a];
    int64_t *T = w->st;
    uint32_t *E = S->seg_ev + r0;
    uint16_t *D = w->sd;
    uint8_t *C = S->seg_cd + r0; /* (category and depth as encoded: a function of the entry, written with it) */
    uint32_t nl = 1, maxd = SEG_DEEP; /* (the deepest interval, when it is known) */
    if (w->capo < 2) {
        w->capo = 4;
        w->oln = xrealloc(w->oln, w->capo * sizeof(SLane));
        w->ooff = xrealloc(w->ooff, w->capo * sizeof(uint32_t));
    }
    SLane *oln = w->oln;
    uint32_t *ooff = w->ooff;
    if (w->one_loc) {
        oln[0] = (SLane){s->loc[w->cand[0]], (uint32_t)sweep_one(w, s, m, T, E, D, C, &maxd)};
        ooff[0] = 0;
    } else {
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
        /* split into lanes, in the activity's region: zero-length segments
         * and repeats dropped */
        nl = w->nl;
        if (nl + 1 > w->capo) {
            w->capo = nl + 1;
            w->oln = oln = xrealloc(w->oln, w->capo * sizeof(SLane));
            w->ooff = ooff = xrealloc(w->ooff, w->capo * sizeof(uint32_t));
        }
        for (uint32_t i = 0; i < w->nl; i++) w->ln[i].n = 0;
        for (size_t k = 0; w->nl > 1 && k < w->n; k++) w->ln[w->lane[k]].n++;
        /* (offsets relative to the region [r0, ...) until the segments are
         * encoded; each lane's starts a block of SEG_BLK) */
        size_t off = 0;
        for (uint32_t i = 0; i < w->nl; i++) {
            oln[i] = (SLane){w->ln[i].loc, 0};
            ooff[i] = (uint32_t)off;
            off += (w->ln[i].n + SEG_BLK - 1) & ~(size_t)(SEG_BLK - 1);
        }
        for (size_t k = 0; k < w->n; k++) {
            uint32_t L = w->lane[k];
            size_t at = ooff[L] + oln[L].n;
            if (oln[L].n && T[at - 1] == w->t[k]) {
                /* a zero-length segment: the later entry replaces it */
                E[at - 1] = w->ev[k];
                D[at - 1] = w->depth[k];
                C[at - 1] = w->cat[k];
                if (oln[L].n >= 2 && E[at - 2] == w->ev[k] && D[at - 2] == w->depth[k]) oln[L].n--;
                continue;
            }
            if (oln[L].n && E[at - 1] == w->ev[k] && D[at - 1] == w->depth[k]) continue;
            T[at] = w->t[k];
            E[at] = w->ev[k];
            D[at] = w->depth[k];
            C[at] = w->cat[k];
            oln[L].n++;
        }
    }
    /* each lane in one pass over its segments: its time index, span,
     * busy/sync checkpoints (at the segments whose global index is a
     * multiple of 1 << CP_SHIFT), and the segments' start times encoded:
     * per block of SEG_BLK (one lane's: the lanes start blocks) its first
     * time, and each one's offset from it; what does not fit (times,
     * depths), escaped */
    /* (the lanes go to the activity's room in Summary.lanes: the
     * locations of its intervals are among its locations) */
    if (nl > c->lres[a + 1] - c->lres[a]) die_oom();
    Lane *ln = &S->lanes[c->lres[a]];
    c->lnl[a] = nl;
    int64_t *nm_ns = w->nm_ns;
    uint32_t *nm_ev = w->nm_ev;
    for (uint32_t i = 0; i < nl; i++) {
        size_t g0 = ooff[i], n = oln[i].n;
        uint64_t span = n ? (uint64_t)(T[g0 + n - 1] - T[g0]) : 0;
        /* (about 8 segments a bin in a long lane, whose lookups are the
         * Gantt's cache misses; 32 in a short one, which a frame reads
         * little and which are many: a task runtime's) */
        uint8_t sh = 0;
        size_t per = n >= 4096 ? 8 : 32;
        while ((span >> sh) >= n / per + 1) sh++;
        uint32_t nb = n ? (uint32_t)(span >> sh) + 1 : 0;
        uint32_t *bins = arena_alloc(w->keep, ((size_t)nb + 1) * sizeof(uint32_t));
        ln[i] = (Lane){.act = a,
                          .loc = oln[i].loc,
                          .off = (uint32_t)(r0 + g0),
                          .n = (uint32_t)n,
                          .t0 = n ? T[g0] : 0,
                          .t1 = n ? (E[g0 + n - 1] == NONE32 ? T[g0 + n - 1] : INT64_MAX) : 0,
                          .bins = bins,
                          .nbins = nb,
                          .shift = sh};
        if (!n) continue;
        /* (per block: busy and sync in registers, added without a branch;
         * bins[b] is the last segment starting at or before bt = T[g0] +
         * (b << sh): the bins before the next segment's start get this one) */
        int64_t acc_busy = 0, acc_sync = 0, t0 = T[g0], bt = t0;
        uint32_t b = 0;
        size_t g1 = g0 + n;
        for (size_t g = g0; g < g1; g += SEG_BLK) {
            size_t z0 = r0 + g, ge = g + SEG_BLK < g1 ? g + SEG_BLK : g1;
            if (!(z0 & ((1u << CP_SHIFT) - 1))) {
                S->cp[0][z0 >> CP_SHIFT] = acc_busy;
                S->cp[1][z0 >> CP_SHIFT] = acc_sync;
            }
            SegBlk *B = &S->seg_tb[z0 >> SEG_BSHIFT];
            int64_t base = T[g];
            B->base = base;
            for (size_t j = g; j < ge; j++) {
                int64_t t = T[j];
                uint64_t dt = (uint64_t)t - (uint64_t)base;
                if (dt < SEG_FAR) {
                    B->lo[j - g] = (uint32_t)dt;
                } else {
                    B->lo[j - g] = SEG_FAR;
                    VEC_PUSH(*w->far_t, ((SegFar){r0 + j, t}));
                }
                if (j + 1 == g1) break;
                int64_t tn = T[j + 1], d = tn - t;
                uint8_t cat = C[j] & 3;
                acc_busy += cat == CAT_BUSY ? d : 0;
                acc_sync += cat == CAT_SYNC ? d : 0;
                while (b < nb && bt < tn) {
                    bins[b++] = (uint32_t)(r0 + j);
                    bt = (int64_t)((uint64_t)t0 + ((uint64_t)b << sh));
                }
            }
        }
        while (b < nb) bins[b++] = (uint32_t)(r0 + g1 - 1);
        if (nm_ns) {
            /* the names' innermost time: each final segment's length (the
             * last's none), as a walk over the lane would find it */
            int64_t tj = T[g0];
            for (size_t j = g0; j + 1 < g1; j++) {
                int64_t tn = T[j + 1];
                uint32_t e = E[j];
                if (e != NONE32) {
                    size_t key = name_key(s, e);
                    nm_ns[key] += tn - tj;
                    if (e < nm_ev[key]) nm_ev[key] = e;
                }
                tj = tn;
            }
        }
        if (maxd >= SEG_DEEP)
            for (size_t j = g0; j < g1; j++)
                if (C[j] >> 2 == SEG_DEEP) VEC_PUSH(*w->far_d, ((SegFar){r0 + j, D[j]}));
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
            c->lres[a + 1] = n ? (uint32_t)nl : 0;
            c->lnl[a] = 0;
        }
    }
}

static void sweep_worker(void *ctx, int wk, int nw)
{
    (void)nw;
    LaneCtx *c = ctx;
    Stream w;
    memset(&w, 0, sizeof w);
    w.keep = &c->S->bins_arena[wk];
    w.cat_of_kind = c->cat_of_kind;
    w.far_t = &c->far_t[wk];
    w.far_d = &c->far_d[wk];
    if (c->nm_keys) {
        names_table_init(c->nm_keys, &c->nm_ns[wk], &c->nm_ev[wk]);
        w.nm_ns = c->nm_ns[wk];
        w.nm_ev = c->nm_ev[wk];
    }
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
    free(w.ln);
    free(w.oln);
    free(w.ooff);
    free(w.cand);
    free(w.stack);
    free(w.send);
    free(w.scd);
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

/* the activities [a0, a1) of worker wk of nw (the lanes' counting and placing) */
static void lanes_range(const LaneCtx *c, int wk, int nw, size_t *a0, size_t *a1)
{
    size_t nact = c->S->s->nact;
    *a0 = nact * (size_t)wk / (size_t)nw;
    *a1 = nact * (size_t)(wk + 1) / (size_t)nw;
}

static void lanes_count_worker(void *ctx, int wk, int nw)
{
    LaneCtx *c = ctx;
    Summary *S = c->S;
    size_t a0, a1, nseg = 0;
    lanes_range(c, wk, nw, &a0, &a1);
    uint32_t *cnt = c->loc_cnt[wk], i0 = S->act_off[a0], i1 = S->act_off[a1];
    for (uint32_t i = i0; i < i1; i++) {
        cnt[S->lanes[i].loc]++;
        nseg += S->lanes[i].n;
    }
    c->nseg[wk] = nseg;
}

static void lanes_place_worker(void *ctx, int wk, int nw)
{
    LaneCtx *c = ctx;
    Summary *S = c->S;
    size_t a0, a1;
    lanes_range(c, wk, nw, &a0, &a1);
    uint32_t *pos = c->loc_cnt[wk], i0 = S->act_off[a0], i1 = S->act_off[a1];
    for (uint32_t i = i0; i < i1; i++) {
        S->act_lanes[i] = i;
        S->loc_lanes[pos[S->lanes[i].loc]++] = i;
    }
}

uint64_t *lanes_candidates(Summary *S, Summary *old)
{
    const Store *s = S->s;
    if (S->threads > SWEEP_WORKERS) S->threads = SWEEP_WORKERS;
    size_t nw = (s->n + 63) / 64;
    if (!S->ivl && old && old->s == s && old->ivl) {
        S->ivl = old->ivl;
        old->ivl = NULL;
    }
    if (!S->ivl) {
        LaneCtx c;
        memset(&c, 0, sizeof c);
        c.S = S;
        S->ivl = xmalloc((nw + 1) * sizeof(uint64_t));
        S->ivl[nw] = 0;
        par_run(S->threads, ivl_worker, &c);
    }
    uint64_t *cand = xmalloc((nw + 1) * sizeof(uint64_t));
    const uint64_t *sel = S->sel, *ivl = S->ivl;
    if (sel)
        for (size_t w = 0; w < nw; w++) cand[w] = ivl[w] & sel[w];
    else
        memcpy(cand, ivl, nw * sizeof(uint64_t));
    cand[nw] = 0;
    return cand;
}

/* (what build_lanes makes, moved from one summary to another) */
#define TAKE(f, none)       \
    do {                    \
        S->f = old->f;      \
        old->f = none;      \
    } while (0)

bool lanes_take(Summary *S, Summary *old)
{
    const Store *s = S->s;
    if (!old || old->s != s || !old->cand || !old->lanes || !S->cand ||
        memcmp(old->cand, S->cand, (s->n + 63) / 64 * sizeof(uint64_t)))
        return false;
    TAKE(lanes, NULL);
    TAKE(lanes_bytes, 0);
    TAKE(nlanes, 0);
    TAKE(loc_off, NULL);
    TAKE(loc_lanes, NULL);
    TAKE(act_off, NULL);
    TAKE(act_lanes, NULL);
    for (int k = 0; k < SWEEP_WORKERS; k++) {
        S->bins_arena[k] = old->bins_arena[k];
        memset(&old->bins_arena[k], 0, sizeof(Arena));
    }
    TAKE(seg_tb, NULL);
    TAKE(seg_ev, NULL);
    TAKE(seg_cd, NULL);
    TAKE(seg_cap, 0);
    TAKE(nseg, 0);
    TAKE(far_t, NULL);
    TAKE(far_d, NULL);
    TAKE(nfar_t, 0);
    TAKE(nfar_d, 0);
    TAKE(cp[0], NULL);
    TAKE(cp[1], NULL);
    TAKE(name_rank, NULL);
    TAKE(top, NULL);
    TAKE(top_ns, NULL);
    TAKE(ntop, 0);
    TAKE(names_built, false);
    return true;
}
#undef TAKE

void build_lanes(Summary *S)
{
    const Store *s = S->s;
    if (S->threads > SWEEP_WORKERS) S->threads = SWEEP_WORKERS;
    LaneCtx c;
    memset(&c, 0, sizeof c);
    c.S = S;
    /* (the scratch arrays in one block, which the next summary reuses warm:
     * the activities' rooms; the candidates are the summary's,
     * lanes_candidates') */
    size_t scratch = ((size_t)s->nact + 2) * (sizeof(size_t) + 2 * sizeof(uint32_t));
    char *scr = xmalloc_big(scratch);
    c.cand = S->cand;
    c.cnt = (size_t *)scr;
    c.lres = (uint32_t *)(c.cnt + s->nact + 2);
    c.lnl = c.lres + s->nact + 2;
    c.cnt[0] = 0;
    c.lres[0] = 0;
    /* (an interval of a user kind — compile, task, GC — is work: busy, as
     * state is; one of kind idle is idle) */
    c.cat_of_kind = xmalloc((size_t)K_USER + s->nukind + 1);
    for (uint32_t k = 0; k < (uint32_t)K_USER + s->nukind; k++)
        c.cat_of_kind[k] = kind_is_busy(s, (uint16_t)k) ? CAT_BUSY
                           : k == K_SYNC               ? CAT_SYNC
                           : k >= K_USER               ? CAT_IDLE
                                                       : CAT_OTHER;
    /* activities are handed out in blocks (a few hundred jobs per worker:
     * one shared counter per activity costs as much as a short one's sweep) */
    c.blk = s->nact / ((size_t)S->threads * 256) + 1;
    size_t njobs = (s->nact + c.blk - 1) / c.blk;
    jobq_init(&c.q, njobs);
    par_run(S->threads, count_worker, &c);
    for (uint32_t a = 0; a < s->nact; a++) {
        c.cnt[a + 1] += c.cnt[a];
        c.lres[a + 1] += c.lres[a];
    }
    /* regions: activity a writes into [cnt[a], cnt[a + 1]) (it may use less) */
    size_t cap = c.cnt[s->nact] + 1;
    S->seg_cap = cap;
    S->seg_tb = xmalloc_big_keep(seg_blocks(cap) * sizeof(SegBlk));
    S->seg_ev = xmalloc_big_keep(cap * sizeof(uint32_t));
    S->seg_cd = xmalloc_big_keep(cap);
    size_t nblk = (cap >> CP_SHIFT) + 1;
    for (int k = 0; k < 2; k++) S->cp[k] = xmalloc_big_keep(nblk * sizeof(int64_t));
    S->lanes_bytes = ((size_t)c.lres[s->nact] + 1) * sizeof(Lane);
    S->lanes = xmalloc_big(S->lanes_bytes);
    jobq_init(&c.q, njobs);
    c.nm_keys = names_sweep_keys(S);
    par_run(S->threads, sweep_worker, &c);
    far_merge(c.far_t, &S->far_t, &S->nfar_t);
    far_merge(c.far_d, &S->far_d, &S->nfar_d);
    /* (the names' ranking: the workers' tables merged) */
    if (c.nm_keys) names_from_tables(S, c.nm_keys, c.nm_ns, c.nm_ev, S->threads);
    /* the lanes, in activity order: where an activity had room for more
     * (locations without an interval), the later ones move down; then
     * counted per location by the workers, each a range of activities, and
     * the lanes of each location placed in order, each worker its own */
    uint32_t nl = 0;
    S->act_off = xmalloc(((size_t)s->nact + 1) * sizeof(uint32_t));
    for (uint32_t a = 0; a < s->nact; a++) {
        S->act_off[a] = nl;
        if (c.lres[a] != nl && c.lnl[a]) memmove(&S->lanes[nl], &S->lanes[c.lres[a]], (size_t)c.lnl[a] * sizeof(Lane));
        nl += c.lnl[a];
    }
    S->act_off[s->nact] = nl;
    S->nlanes = nl;
    memset(&S->lanes[nl], 0, sizeof(Lane));
    S->act_lanes = xmalloc(((size_t)nl + 1) * sizeof(uint32_t));
    S->loc_lanes = xmalloc(((size_t)nl + 1) * sizeof(uint32_t));
    S->loc_off = xcalloc((size_t)s->nloc + 2, sizeof(uint32_t));
    for (int k = 0; k < S->threads; k++) c.loc_cnt[k] = xcalloc((size_t)s->nloc + 1, sizeof(uint32_t));
    par_run(S->threads, lanes_count_worker, &c);
    /* (where each worker's lanes of location l go: after the earlier
     * workers') */
    size_t nseg = 0;
    for (int k = 0; k < S->threads; k++) nseg += c.nseg[k];
    for (uint32_t l = 0; l < s->nloc; l++) {
        uint32_t at = S->loc_off[l];
        for (int k = 0; k < S->threads; k++) {
            uint32_t n = c.loc_cnt[k][l];
            c.loc_cnt[k][l] = at;
            at += n;
        }
        S->loc_off[l + 1] = at;
    }
    par_run(S->threads, lanes_place_worker, &c);
    for (int k = 0; k < S->threads; k++) free(c.loc_cnt[k]);
    S->nseg = nseg;
    free(c.cat_of_kind);
    xfree_big(scr, scratch);
}
