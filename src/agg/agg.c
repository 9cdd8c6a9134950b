/*
 * agg.c — the summary of a store under a selection and the evaluation of
 * frames from it; see agg.h for the model and its invariants.
 */
#include "agg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "filters/filter.h"
#include "base/par.h"
#include "base/util.h"

const char *const METRIC_NAMES[M__N] = {"busy", "sync", "bytes", "events", "counter", "expr"};
const char *const REDUCER_NAMES[RED__N] = {"sum", "mean", "max", "min-nonzero", "mode"};

bool metric_is_total(Metric m) { return m == M_BYTES || m == M_EVENTS || m == M_EXPR; }

/* segment categories */
enum { CAT_IDLE = 0, CAT_BUSY = 1, CAT_SYNC = 2, CAT_OTHER = 3 };
#define CP_SHIFT 3 /* a checkpoint every 8 segments */

typedef struct {
    uint32_t act, loc;
    uint32_t off, n; /* seg_*[off .. off + n) */
    /* a time index: bins[k] = the last segment starting at or before
     * seg_t[off] + (k << shift), so a lookup searches one bin of about 32
     * segments instead of the whole lane */
    uint32_t *bins;
    uint32_t nbins;
    uint8_t shift;
} Lane;

/* sorted points per row, with prefix sums of their weights */
typedef struct {
    bool built;
    uint32_t nrows;
    uint32_t *off; /* nrows + 1 */
    int64_t *t;
    double *cum;   /* cum[k] = the weights of points [row start, k) ... as a global prefix */
    uint32_t *id;  /* message or event */
    uint32_t *ev;  /* the event whose selection keeps the point */
    size_t cap;    /* the arrays' size */
} Points;

/* step functions per row: value v[k] on [t[k], t[k+1]) */
typedef struct {
    bool built;
    uint32_t nrows;
    uint32_t *off;
    int64_t *t;
    double *v;
    double *cum;   /* integral from the row's first step to t[k] */
    double *dcum;  /* time with a value, from the row's first step to t[k] */
    uint8_t *defd; /* whether v[k] is defined */
} Steps;

struct Summary {
    const Store *s;
    const uint64_t *sel;
    Summary *base;      /* unfiltered, or NULL (summary_set_base) */
    int threads;
    uint64_t nsel;
    /* lanes and their segments */
    Lane *lanes;
    uint32_t nlanes;
    uint32_t *loc_off, *loc_lanes, *act_off, *act_lanes;
    int64_t *seg_t;
    uint32_t *seg_ev;
    uint8_t *seg_cat;
    uint16_t *seg_depth; /* open intervals of the activity (saturated) while the segment lasts */
    size_t nseg;
    size_t seg_cap;  /* the arrays' size: lanes live in regions with gaps between them */
    int64_t *cp[2];  /* per 8-segment block: busy / sync time within its lane before it */
    /* selection rank per 64-event word */
    uint32_t *rank;
    uint32_t *act_rank; /* lazily: selected events of act_ev before each position */
    /* pairs of locations with messages */
    bool pairs_built;
    uint32_t npairs;
    uint32_t *pair_src, *pair_dst;
    uint32_t *msg_pair; /* unfiltered: each message's pair, or NONE32 */
    /* lazily built series */
    Points msg[2][3];   /* [recv][row kind]: message arrival/send times, bytes */
    Steps counter[2];   /* [row kind] */
    Steps xsteps[2];    /* expr: intervals */
    Points xpts[2];     /* expr: instants */
    double *xval;       /* expr: per event */
    char *xtext;
    Points glyphs[2];   /* instants with a glyph */
    /* names by innermost time */
    bool names_built;
    int8_t *name_rank;  /* per name key: rank among the top names, or -1 */
    uint32_t *top;      /* representative events of the top names */
    int64_t *top_ns;
    int ntop;
};

static inline bool selected(const Summary *S, size_t e) { return !S->sel || ((S->sel[e >> 6] >> (e & 63)) & 1); }

const Store *summary_store(const Summary *S) { return S->s; }
uint64_t summary_selected(const Summary *S) { return S->nsel; }
size_t summary_nsegments(const Summary *S) { return S->nseg; }

int summary_big_sizes(const Summary *S, size_t *sizes, int max)
{
    size_t v[6] = {S->seg_cap * sizeof(int64_t), S->seg_cap * sizeof(uint32_t), S->seg_cap,
                   ((S->seg_cap >> CP_SHIFT) + 1) * sizeof(int64_t), ((S->seg_cap >> CP_SHIFT) + 1) * sizeof(int64_t),
                   S->seg_cap * sizeof(uint16_t)};
    int n = max < 6 ? max : 6;
    for (int i = 0; i < n; i++) sizes[i] = v[i];
    return n;
}

/* ---- lanes: the innermost interval of each activity, per location --------------- */

/* Each activity is swept in time order with a stack of its open intervals;
 * whenever the innermost one changes, an entry (time, event or NONE32)
 * goes to the *stream* of its worker, tagged with the lane (the location
 * of the event) it belongs to. The stream is then split into the lanes,
 * written straight into the activity's region of the global arrays (sized
 * from a count of its intervals: at most 2 entries per interval, 4 when it
 * spans locations), dropping
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
    VEC(uint32_t) stack;
} Stream;

typedef struct {
    uint32_t nl;
    SLane *ln;      /* its lanes: location and number of segments */
    uint32_t *loff; /* segment offset of each lane */
    uint32_t **bins; /* each lane's time index */
    uint32_t *nbins;
    uint8_t *shift;
} ActOut;

typedef struct {
    Summary *S;
    size_t *cnt;    /* per activity: room for its segments, then (prefix) its region */
    ActOut *out;
    JobQueue q;
} LaneCtx;

static bool candidate(const Summary *S, uint32_t e)
{
    const Store *s = S->s;
    return selected(S, e) && (s->flags[e] & EVF_DUR) && s->dur[e] > 0 && s->kind[e] != K_MSG;
}

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

static inline void stream_put(Stream *w, uint32_t lane, int64_t t, uint32_t ev)
{
    w->t[w->n] = t;
    w->ev[w->n] = ev;
    w->lane[w->n] = (uint8_t)lane;
    w->depth[w->n] = ev == NONE32 ? 0 : w->stack.len < 65535 ? (uint16_t)w->stack.len : 65535;
    w->n++;
}

/* the innermost interval becomes ev (NONE32: none) at time x */
static void stream_set(Stream *w, const Store *s, int64_t x, uint32_t ev)
{
    if (ev == w->cur) return;
    uint32_t nl = ev == NONE32 ? NONE32 : stream_lane(w, s->loc[ev]);
    if (w->cur != NONE32 && nl != w->cur_lane) stream_put(w, w->cur_lane, x, NONE32);
    if (ev != NONE32) stream_put(w, nl, x, ev);
    w->cur = ev;
    w->cur_lane = nl;
}

static inline int64_t ev_end_s(const Store *s, uint32_t e) { return s->ts[e] + s->dur[e]; }

static void stream_close_until(Stream *w, const Store *s, int64_t t)
{
    while (w->stack.len) {
        int64_t end = ev_end_s(s, w->stack.v[w->stack.len - 1]);
        if (end > t) break;
        w->stack.len--;
        /* (intervals that are not properly nested end lazily) */
        while (w->stack.len && ev_end_s(s, w->stack.v[w->stack.len - 1]) <= end) w->stack.len--;
        stream_set(w, s, end, w->stack.len ? w->stack.v[w->stack.len - 1] : NONE32);
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
    }
    w->n = 0;
    w->nl = 0;
    w->cur = w->cur_lane = NONE32;
    w->stack.len = 0;
    for (uint32_t p = s->act_off[a]; p < s->act_off[a + 1]; p++) {
        uint32_t e = s->act_ev[p];
        if (!candidate(S, e)) continue;
        stream_close_until(w, s, s->ts[e]);
        VEC_PUSH(w->stack, e);
        stream_set(w, s, s->ts[e], e);
    }
    stream_close_until(w, s, INT64_MAX);
    if (w->nl > 255) die_oom(); /* (an activity at more than 255 locations) */
    /* split into lanes, in the activity's region: zero-length segments and
     * repeats dropped */
    ActOut *o = &c->out[a];
    o->nl = w->nl;
    o->ln = xmalloc(((size_t)w->nl + 1) * sizeof(SLane));
    o->loff = xmalloc(((size_t)w->nl + 1) * sizeof(uint32_t));
    for (uint32_t i = 0; i < w->nl; i++) w->ln[i].n = 0;
    for (size_t k = 0; k < w->n; k++) w->ln[w->lane[k]].n++;
    size_t off = c->cnt[a];
    for (uint32_t i = 0; i < w->nl; i++) {
        o->ln[i] = (SLane){w->ln[i].loc, 0};
        o->loff[i] = (uint32_t)off;
        off += w->ln[i].n;
    }
    int64_t *T = S->seg_t;
    uint32_t *E = S->seg_ev;
    uint16_t *D = S->seg_depth;
    for (size_t k = 0; k < w->n; k++) {
        uint32_t L = w->lane[k];
        size_t at = o->loff[L] + o->ln[L].n;
        if (o->ln[L].n && T[at - 1] == w->t[k]) {
            /* a zero-length segment: the later entry replaces it */
            E[at - 1] = w->ev[k];
            D[at - 1] = w->depth[k];
            if (o->ln[L].n >= 2 && E[at - 2] == w->ev[k] && D[at - 2] == w->depth[k]) o->ln[L].n--;
            continue;
        }
        if (o->ln[L].n && E[at - 1] == w->ev[k] && D[at - 1] == w->depth[k]) continue;
        T[at] = w->t[k];
        E[at] = w->ev[k];
        D[at] = w->depth[k];
        o->ln[L].n++;
    }
    /* the time index of each lane */
    o->bins = xmalloc(((size_t)o->nl + 1) * sizeof(uint32_t *));
    o->nbins = xmalloc(((size_t)o->nl + 1) * sizeof(uint32_t));
    o->shift = xmalloc((size_t)o->nl + 1);
    for (uint32_t i = 0; i < o->nl; i++) {
        size_t g0 = o->loff[i], n = o->ln[i].n;
        uint64_t span = n ? (uint64_t)(T[g0 + n - 1] - T[g0]) : 0;
        uint8_t sh = 0;
        while ((span >> sh) >= n / 32 + 1) sh++;
        uint32_t nb = n ? (uint32_t)(span >> sh) + 1 : 0;
        uint32_t *bins = xmalloc(((size_t)nb + 1) * sizeof(uint32_t));
        size_t k = g0;
        for (uint32_t b = 0; b < nb; b++) {
            int64_t at = T[g0] + (int64_t)((uint64_t)b << sh);
            while (k + 1 < g0 + n && T[k + 1] <= at) k++;
            bins[b] = (uint32_t)k;
        }
        o->bins[i] = bins;
        o->nbins[i] = nb;
        o->shift[i] = sh;
    }
    /* categories and checkpoints */
    for (uint32_t i = 0; i < o->nl; i++) {
        int64_t acc[2] = {0, 0};
        size_t g0 = o->loff[i], g1 = g0 + o->ln[i].n;
        for (size_t g = g0; g < g1; g++) {
            uint32_t ev = E[g];
            uint8_t cat = ev == NONE32                ? CAT_IDLE
                          : s->kind[ev] == K_STATE ? CAT_BUSY
                          : s->kind[ev] == K_SYNC  ? CAT_SYNC
                                                   : CAT_OTHER;
            S->seg_cat[g] = cat;
            if (!(g & ((1u << CP_SHIFT) - 1))) {
                S->cp[0][g >> CP_SHIFT] = acc[0];
                S->cp[1][g >> CP_SHIFT] = acc[1];
            }
            if ((cat == CAT_BUSY || cat == CAT_SYNC) && g + 1 < g1) acc[cat - 1] += T[g + 1] - T[g];
        }
    }
}

static void count_worker(void *ctx, int wk, int nw)
{
    (void)wk;
    (void)nw;
    LaneCtx *c = ctx;
    const Store *s = c->S->s;
    size_t a;
    while ((a = jobq_next(&c->q)) != (size_t)-1) {
        /* room for the stream of the activity: each change of the
         * innermost interval (at most one per start and one per end) puts
         * one entry, or two when it changes the location too */
        size_t n = 0;
        uint32_t loc0 = NONE32;
        bool one_loc = true;
        for (uint32_t p = s->act_off[a]; p < s->act_off[a + 1]; p++) {
            uint32_t e = s->act_ev[p];
            if (!candidate(c->S, e)) continue;
            n++;
            if (loc0 == NONE32) loc0 = s->loc[e];
            else if (s->loc[e] != loc0) one_loc = false;
        }
        c->cnt[a + 1] = n ? (one_loc ? 2 : 4) * n + 2 : 0;
    }
}

static void sweep_worker(void *ctx, int wk, int nw)
{
    (void)wk;
    (void)nw;
    LaneCtx *c = ctx;
    Stream w;
    memset(&w, 0, sizeof w);
    size_t a;
    while ((a = jobq_next(&c->q)) != (size_t)-1)
        if (c->cnt[a + 1] > c->cnt[a]) sweep_activity(c->S, c, &w, (uint32_t)a);
    free(w.t);
    free(w.ev);
    free(w.lane);
    free(w.depth);
    free(w.ln);
    VEC_FREE(w.stack);
}

static void build_lanes(Summary *S)
{
    const Store *s = S->s;
    LaneCtx c = {S, xcalloc((size_t)s->nact + 2, sizeof(size_t)), xcalloc((size_t)s->nact + 1, sizeof(ActOut)), {0}};
    jobq_init(&c.q, s->nact);
    par_run(S->threads, count_worker, &c);
    for (uint32_t a = 0; a < s->nact; a++) c.cnt[a + 1] += c.cnt[a];
    /* regions: activity a writes into [cnt[a], cnt[a + 1]) (it may use less) */
    size_t cap = c.cnt[s->nact] + 1;
    S->seg_cap = cap;
    S->seg_t = xmalloc_big_keep(cap * sizeof(int64_t));
    S->seg_ev = xmalloc_big_keep(cap * sizeof(uint32_t));
    S->seg_cat = xmalloc_big_keep(cap);
    S->seg_depth = xmalloc_big_keep(cap * sizeof(uint16_t));
    size_t nblk = (cap >> CP_SHIFT) + 1;
    for (int k = 0; k < 2; k++) S->cp[k] = xmalloc_big_keep(nblk * sizeof(int64_t));
    jobq_init(&c.q, s->nact);
    par_run(S->threads, sweep_worker, &c);
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
            nseg += L->n;
            S->loc_off[L->loc + 1]++;
        }
        free(o->ln);
        free(o->loff);
        free(o->bins);
        free(o->nbins);
        free(o->shift);
    }
    S->act_off[s->nact] = li;
    S->nseg = nseg;
    free(c.out);
    free(c.cnt);
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
static inline ptrdiff_t seg_find(const Summary *S, const Lane *L, int64_t t, size_t *hint)
{
    if (!L->n) return -1;
    const int64_t *T = S->seg_t;
    size_t end = (size_t)L->off + L->n;
    if (T[L->off] > t) return -1;
    if (hint && *hint >= L->off && *hint < end && T[*hint] <= t && (*hint + 1 == end || T[*hint + 1] > t))
        return (ptrdiff_t)*hint; /* the same segment as the previous query */
    /* the bin of t, then a binary search in it */
    uint64_t k = (uint64_t)(t - T[L->off]) >> L->shift;
    size_t lo, hi;
    if (k >= L->nbins) {
        lo = L->bins[L->nbins - 1];
        hi = end;
    } else {
        lo = L->bins[k];
        hi = k + 1 < L->nbins ? (size_t)L->bins[k + 1] + 1 : end;
    }
    /* largest j in [lo, hi) with T[j] <= t (T[lo] <= t) */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (T[mid] <= t) lo = mid;
        else hi = mid;
    }
    if (hint) *hint = lo;
    return (ptrdiff_t)lo;
}

/* time of lane L in category cat over (-inf, t) */
static int64_t lane_cum(const Summary *S, const Lane *L, int cat, int64_t t, size_t *hint)
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
    for (size_t i = j0; i < (size_t)k; i++)
        if (S->seg_cat[i] == cat) acc += S->seg_t[i + 1] - S->seg_t[i];
    if (S->seg_cat[k] == cat) acc += t - S->seg_t[k];
    return acc;
}

/* ---- the selection ------------------------------------------------------------- */

static void build_rank(Summary *S)
{
    size_t n = S->s->n, nw = (n + 63) / 64;
    if (!S->sel) {
        S->nsel = n;
        return;
    }
    S->rank = xmalloc((nw + 1) * sizeof(uint32_t));
    uint32_t acc = 0;
    for (size_t w = 0; w < nw; w++) {
        S->rank[w] = acc;
        acc += (uint32_t)popcount64(S->sel[w]);
    }
    S->rank[nw] = acc;
    S->nsel = acc;
}

/* selected events among 0..x-1 */
static inline uint64_t sel_prefix(const Summary *S, size_t x)
{
    if (!S->sel) return x;
    size_t w = x >> 6;
    uint64_t r = S->rank[w];
    if (x & 63) r += (uint64_t)popcount64(S->sel[w] & ((1ULL << (x & 63)) - 1));
    return r;
}

Summary *summary_build(const Store *s, const uint64_t *sel, int threads)
{
    Summary *S = xcalloc(1, sizeof *S);
    S->s = s;
    S->sel = sel;
    S->threads = threads > 0 ? threads : cpu_count();
    build_rank(S);
    build_lanes(S);
    return S;
}

void summary_set_base(Summary *S, Summary *base)
{
    if (base && (base->sel || base->s != S->s)) base = NULL;
    S->base = base;
}

static void points_free(Points *p)
{
    free(p->off);
    xfree_big(p->t, p->cap * sizeof(int64_t));
    xfree_big(p->cum, p->cap * sizeof(double));
    xfree_big(p->id, p->cap * sizeof(uint32_t));
    xfree_big(p->ev, p->cap * sizeof(uint32_t));
    memset(p, 0, sizeof *p);
}

static void steps_free(Steps *p)
{
    free(p->off);
    xfree_big(p->t, 0);
    xfree_big(p->v, 0);
    xfree_big(p->cum, 0);
    xfree_big(p->dcum, 0);
    xfree_big(p->defd, 0);
    memset(p, 0, sizeof *p);
}

void summary_free(Summary *S)
{
    if (!S) return;
    for (uint32_t i = 0; i < S->nlanes; i++) free(S->lanes[i].bins);
    free(S->lanes);
    free(S->loc_off);
    free(S->loc_lanes);
    free(S->act_off);
    free(S->act_lanes);
    xfree_big(S->seg_t, S->seg_cap * sizeof(int64_t));
    xfree_big(S->seg_ev, S->seg_cap * sizeof(uint32_t));
    xfree_big(S->seg_cat, S->seg_cap);
    xfree_big(S->seg_depth, S->seg_cap * sizeof(uint16_t));
    for (int k = 0; k < 2; k++) xfree_big(S->cp[k], ((S->seg_cap >> CP_SHIFT) + 1) * sizeof(int64_t));
    free(S->rank);
    xfree_big(S->act_rank, 0);
    free(S->pair_src);
    free(S->pair_dst);
    xfree_big(S->msg_pair, ((size_t)S->s->nmsg + 1) * sizeof(uint32_t));
    for (int d = 0; d < 2; d++)
        for (int r = 0; r < 3; r++) points_free(&S->msg[d][r]);
    for (int r = 0; r < 2; r++) {
        steps_free(&S->counter[r]);
        steps_free(&S->xsteps[r]);
        points_free(&S->xpts[r]);
        points_free(&S->glyphs[r]);
    }
    xfree_big(S->xval, 0);
    free(S->xtext);
    free(S->name_rank);
    free(S->top);
    free(S->top_ns);
    free(S);
}

/* ---- pairs and message points ------------------------------------------------------ */

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

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

static void build_pairs(Summary *S)
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
    uint64_t *keys = xmalloc(((size_t)s->nmsg + 1) * sizeof(uint64_t));
    size_t nk = 0;
    for (uint32_t m = 0; m < s->nmsg; m++) {
        const Message *M = &s->msgs[m];
        uint32_t src, dst;
        msg_ends(s, M, &src, &dst);
        if (src == NONE32 || dst == NONE32) continue;
        bool any = (M->send_ev != NONE32 && selected(S, M->send_ev)) || (M->recv_ev != NONE32 && selected(S, M->recv_ev));
        if (any) keys[nk++] = (uint64_t)src << 32 | dst;
    }
    qsort(keys, nk, sizeof(uint64_t), cmp_u64);
    size_t u = 0;
    for (size_t i = 0; i < nk; i++)
        if (!u || keys[i] != keys[u - 1]) keys[u++] = keys[i];
    S->npairs = (uint32_t)u;
    S->pair_src = xmalloc((u + 1) * sizeof(uint32_t));
    S->pair_dst = xmalloc((u + 1) * sizeof(uint32_t));
    for (size_t i = 0; i < u; i++) {
        S->pair_src[i] = (uint32_t)(keys[i] >> 32);
        S->pair_dst[i] = (uint32_t)keys[i];
    }
    free(keys);
    S->pairs_built = true;
    if (!S->sel) {
        /* (for the summaries derived from this one) */
        S->msg_pair = xmalloc_big(((size_t)s->nmsg + 1) * sizeof(uint32_t));
        for (uint32_t m = 0; m < s->nmsg; m++) {
            const Message *M = &s->msgs[m];
            uint32_t src, dst;
            msg_ends(s, M, &src, &dst);
            S->msg_pair[m] = src == NONE32 || dst == NONE32 ? NONE32 : pair_index(S, src, dst);
        }
    }
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


typedef struct {
    uint32_t row, ev;
    int64_t t;
    double w;
    uint32_t id;
} RawPt;

static int cmp_rawpt(const void *a, const void *b)
{
    const RawPt *x = a, *y = b;
    if (x->row != y->row) return x->row < y->row ? -1 : 1;
    if (x->t != y->t) return x->t < y->t ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

static void points_alloc(Points *P, size_t n)
{
    P->cap = n + 1;
    P->t = xmalloc_big(P->cap * sizeof(int64_t));
    P->cum = xmalloc_big(P->cap * sizeof(double));
    P->id = xmalloc_big(P->cap * sizeof(uint32_t));
    P->ev = xmalloc_big(P->cap * sizeof(uint32_t));
}

/* sort raw points into a Points structure of nrows rows */
static void points_from_raw(Points *P, RawPt *raw, size_t n, uint32_t nrows)
{
    P->nrows = nrows;
    P->off = xcalloc((size_t)nrows + 2, sizeof(uint32_t));
    for (size_t i = 0; i < n; i++) P->off[raw[i].row + 1]++;
    for (uint32_t r = 0; r < nrows; r++) P->off[r + 1] += P->off[r];
    /* a stable counting sort by row; then each row by time, unless it is
     * in order already (as the store's orders mostly leave it) */
    uint32_t *pos = xmalloc(((size_t)nrows + 1) * sizeof(uint32_t));
    memcpy(pos, P->off, (size_t)nrows * sizeof(uint32_t));
    RawPt *by = xmalloc_big((n + 1) * sizeof(RawPt));
    for (size_t i = 0; i < n; i++) by[pos[raw[i].row]++] = raw[i];
    free(pos);
    for (uint32_t r = 0; r < nrows; r++) {
        size_t a = P->off[r], b = P->off[r + 1];
        for (size_t k = a; k + 1 < b; k++)
            if (cmp_rawpt(&by[k], &by[k + 1]) > 0) {
                qsort(by + a, b - a, sizeof(RawPt), cmp_rawpt);
                break;
            }
    }
    points_alloc(P, n);
    double acc = 0;
    for (size_t i = 0; i < n; i++) {
        P->t[i] = by[i].t;
        P->cum[i] = acc;
        P->id[i] = by[i].id;
        P->ev[i] = by[i].ev;
        acc += by[i].w;
    }
    P->cum[n] = acc;
    xfree_big(by, (n + 1) * sizeof(RawPt));
    P->built = true;
}

static uint32_t nrows_of(const Summary *S, RowKind rk)
{
    return rk == ROWS_LOC ? S->s->nloc : rk == ROWS_ACT ? S->s->nact : S->npairs;
}

/* P: the points of B (base's) whose event S selects, in B's order;
 * rowmap renumbers base's rows */
static void points_derive(Summary *S, Points *P, const Points *B, const uint32_t *rowmap, uint32_t nrows)
{
    size_t nb = B->off[B->nrows], n = 0;
    for (size_t k = 0; k < nb; k++) n += selected(S, B->ev[k]);
    P->nrows = nrows;
    P->off = xcalloc((size_t)nrows + 2, sizeof(uint32_t));
    points_alloc(P, n);
    n = 0;
    double acc = 0;
    for (uint32_t r = 0; r < B->nrows; r++) {
        uint32_t to = rowmap ? rowmap[r] : r;
        for (size_t k = B->off[r]; k < B->off[r + 1]; k++) {
            if (!selected(S, B->ev[k])) continue;
            P->t[n] = B->t[k];
            P->id[n] = B->id[k];
            P->ev[n] = B->ev[k];
            P->cum[n] = acc;
            acc += B->cum[k + 1] - B->cum[k]; /* (exact: integer weights) */
            n++;
            P->off[to + 1]++;
        }
    }
    P->cum[n] = acc;
    for (uint32_t r = 0; r < nrows; r++) P->off[r + 1] += P->off[r];
    P->built = true;
}

static Points *msg_points(Summary *S, bool recv, RowKind rk)
{
    Points *P = &S->msg[recv][rk];
    if (P->built) return P;
    build_pairs(S);
    const Store *s = S->s;
    if (S->base && S->sel) {
        const Points *B = msg_points(S->base, recv, rk);
        uint32_t *map = NULL;
        if (rk == ROWS_PAIR) {
            /* base's pairs include S's */
            map = xmalloc(((size_t)S->base->npairs + 1) * sizeof(uint32_t));
            for (uint32_t q = 0; q < S->base->npairs; q++)
                map[q] = pair_index(S, S->base->pair_src[q], S->base->pair_dst[q]);
        }
        points_derive(S, P, B, map, nrows_of(S, rk));
        free(map);
        return P;
    }
    RawPt *raw = xmalloc_big(((size_t)s->nmsg + 1) * sizeof(RawPt));
    size_t n = 0;
    for (uint32_t m = 0; m < s->nmsg; m++) {
        const Message *M = &s->msgs[m];
        uint32_t ev = recv ? M->recv_ev : M->send_ev;
        if (ev == NONE32 || !selected(S, ev)) continue;
        uint32_t src, dst;
        msg_ends(s, M, &src, &dst);
        uint32_t row;
        if (rk == ROWS_LOC) row = recv ? (dst != NONE32 ? dst : s->loc[ev]) : src;
        else if (rk == ROWS_ACT) row = s->act[ev];
        else row = (src == NONE32 || dst == NONE32) ? NONE32 : pair_index(S, src, dst);
        if (row == NONE32) continue;
        int64_t t = recv ? msg_t_recv(s, M) : s->ts[ev];
        if (t == INT64_MIN) continue;
        int64_t b = msg_bytes(s, M);
        raw[n++] = (RawPt){row, ev, t, b > 0 ? (double)b : 0.0, m};
    }
    points_from_raw(P, raw, n, nrows_of(S, rk));
    xfree_big(raw, ((size_t)s->nmsg + 1) * sizeof(RawPt));
    return P;
}

/* index of the first point of row r at or after t */
static size_t pts_lower(const Points *P, uint32_t r, int64_t t)
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
            } else if (fabs(rate) < 1e-9 * scale) {
                rate = 0; /* what is left of rates that started and ended */
            }
            if (k > P->off[r]) {
                int64_t dt = t - P->t[k - 1];
                if (P->defd[k - 1]) {
                    cum += P->v[k - 1] * (double)dt;
                    dcum += (double)dt;
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
            int64_t dt = until - P->t[k - 1];
            cum += P->v[k - 1] * (double)dt;
            dcum += (double)dt;
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
static void steps_at(const Steps *P, uint32_t r, int64_t t, double *cum, double *def)
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
    double dt = (double)(t - P->t[lo]);
    *cum = P->cum[lo] + (P->defd[lo] ? P->v[lo] * dt : 0);
    *def = P->dcum[lo] + (P->defd[lo] ? dt : 0);
}

static Steps *counter_steps(Summary *S, RowKind rk)
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
        filter_values(f, S->xval);
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
    points_from_raw(&S->xpts[rk], pts.v, pts.len, nrows_of(S, rk));
    VEC_FREE(raw);
    VEC_FREE(pts);
    return true;
}

/* ---- cumulative values -------------------------------------------------------------- */

static const uint32_t *row_lanes(const Summary *S, RowKind rk, uint32_t row, uint32_t *n)
{
    if (rk == ROWS_LOC) {
        *n = S->loc_off[row + 1] - S->loc_off[row];
        return S->loc_lanes + S->loc_off[row];
    }
    *n = S->act_off[row + 1] - S->act_off[row];
    return S->act_lanes + S->act_off[row];
}

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

/* selected events of a row starting before t */
static uint64_t events_before(Summary *S, RowKind rk, uint32_t row, int64_t t)
{
    const Store *s = S->s;
    if (rk == ROWS_LOC) {
        size_t lo = s->locs[row].first, hi = lo + s->locs[row].count, first = lo;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (s->ts[mid] < t) lo = mid + 1;
            else hi = mid;
        }
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
        for (uint32_t k = 0; k < nl; k++) {
            const Lane *L = &S->lanes[ls[k]];
            size_t hint = SIZE_MAX;
            for (int i = 0; i < nt; i++) cum[i] += (double)lane_cum(S, L, cat, t[i], &hint);
        }
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
    case M_COUNTER: return d1 - d0 > 0 ? (c1 - c0) / (d1 - d0) : NAN;
    default: return c1 - c0;
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
    int lo = 0, hi = g->ncell; /* the last i with b[i] <= t */
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (g->b[mid] <= t) lo = mid;
        else hi = mid;
    }
    return lo;
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
        for (int i = 0; i < nc; i++) values[(size_t)gi * (size_t)nc + (size_t)i] = reduce_parts(r, parts + (size_t)i * maxparts, np);
    }
    free(parts);
    free(cum);
    free(def);
    free(bb);
}

/* ---- rows ------------------------------------------------------------------------------ */

void rowset_init(RowSet *rs, Summary *S, RowKind kind, bool tree)
{
    const Store *s = S->s;
    memset(rs, 0, sizeof *rs);
    rs->kind = kind;
    rs->n = kind == ROWS_LOC ? s->nloc : kind == ROWS_ACT ? s->nact : summary_npairs(S);
    rs->ids = xmalloc(((size_t)rs->n + 1) * sizeof(uint32_t));
    rs->depth = xcalloc((size_t)rs->n + 1, sizeof(uint16_t));
    rs->owned = true;
    for (uint32_t i = 0; i < rs->n; i++) rs->ids[i] = i;
    if (kind == ROWS_ACT && tree && s->nact) {
        /* depth-first over the spawn tree; children in activity order */
        uint32_t n = s->nact;
        uint32_t *coff = xcalloc((size_t)n + 2, sizeof(uint32_t)), *kids = xmalloc(((size_t)n + 1) * sizeof(uint32_t));
        for (uint32_t a = 0; a < n; a++)
            if (s->acts[a].parent != NONE32 && s->acts[a].parent != a) coff[s->acts[a].parent + 1]++;
        for (uint32_t a = 0; a < n; a++) coff[a + 1] += coff[a];
        uint32_t *pos = xmalloc(((size_t)n + 1) * sizeof(uint32_t));
        memcpy(pos, coff, (size_t)n * sizeof(uint32_t));
        for (uint32_t a = 0; a < n; a++)
            if (s->acts[a].parent != NONE32 && s->acts[a].parent != a) kids[pos[s->acts[a].parent]++] = a;
        uint8_t *seen = xcalloc((size_t)n + 1, 1);
        uint32_t *stk = xmalloc(((size_t)n + 1) * sizeof(uint32_t));
        uint16_t *sd = xmalloc(((size_t)n + 1) * sizeof(uint16_t));
        uint32_t k = 0;
        for (int pass = 0; pass < 2; pass++)
            for (uint32_t root = 0; root < n; root++) {
                /* roots first; then anything a cycle left unvisited */
                bool is_root = s->acts[root].parent == NONE32 || s->acts[root].parent == root;
                if (seen[root] || (pass == 0 && !is_root)) continue;
                size_t sp = 0;
                stk[sp] = root;
                sd[sp++] = 0;
                seen[root] = 1;
                while (sp) {
                    uint32_t a = stk[--sp];
                    uint16_t d = sd[sp];
                    rs->ids[k] = a;
                    rs->depth[k++] = d;
                    for (uint32_t c = coff[a + 1]; c > coff[a]; c--) { /* pushed in reverse: popped in order */
                        uint32_t kid = kids[c - 1];
                        if (seen[kid]) continue;
                        seen[kid] = 1;
                        stk[sp] = kid;
                        sd[sp++] = d < 60000 ? (uint16_t)(d + 1) : d;
                    }
                }
            }
        free(coff);
        free(kids);
        free(pos);
        free(seen);
        free(stk);
        free(sd);
    }
    rs->gsize = 1;
    rs->ng = rs->n;
}

void rowset_fit(RowSet *rs, int lines)
{
    if (rs->owned) free(rs->gstart);
    rs->gstart = NULL;
    if (lines < 1) lines = 1;
    rs->gsize = rs->n > (uint32_t)lines ? (rs->n + (uint32_t)lines - 1) / (uint32_t)lines : 1;
    rs->ng = rs->gsize ? (rs->n + rs->gsize - 1) / rs->gsize : 0;
}

void rowset_free(RowSet *rs)
{
    if (rs->owned) {
        free(rs->ids);
        free(rs->depth);
        free(rs->gstart);
    }
    memset(rs, 0, sizeof *rs);
}

void rowset_window(const RowSet *rs, uint32_t off, uint32_t count, RowSet *out)
{
    *out = *rs;
    out->owned = false;
    if (off > rs->ng) off = rs->ng;
    if (count > rs->ng - off) count = rs->ng - off;
    out->ng = count;
    if (rs->gstart) {
        out->gstart = rs->gstart + off;
        return;
    }
    uint32_t first = off * rs->gsize;
    out->ids = rs->ids + first;
    out->depth = rs->depth + first;
    out->n = rs->n - first;
}

void row_label(Summary *S, RowKind kind, uint32_t id, char *buf, size_t sz)
{
    const Store *s = S->s;
    if (kind == ROWS_LOC) {
        snprintf(buf, sz, "%s", loc_label(s, id));
    } else if (kind == ROWS_ACT) {
        char b[160];
        snprintf(buf, sz, "%s", act_label(s, id, b, sizeof b));
    } else {
        uint32_t a, b;
        summary_pair(S, id, &a, &b);
        snprintf(buf, sz, "%s->%s", loc_label(s, a), loc_label(s, b));
    }
}

void rowset_label(const RowSet *rs, Summary *S, uint32_t g, char *buf, size_t sz)
{
    uint32_t m0 = rowset_first(rs, g), m1 = rowset_end(rs, g);
    if (m1 - m0 <= 1) {
        row_label(S, rs->kind, rs->ids[m0], buf, sz);
        return;
    }
    char a[128], b[128];
    row_label(S, rs->kind, rs->ids[m0], a, sizeof a);
    row_label(S, rs->kind, rs->ids[m1 - 1], b, sizeof b);
    snprintf(buf, sz, "%s..%s", a, b);
}

/* ---- names ------------------------------------------------------------------------------- */

const char *event_name(const Store *s, uint32_t e)
{
    return s->name[e] != NONE32 ? store_str(s, s->name[e]) : kind_name(s, s->kind[e]);
}

/* names are counted in a dense table: a name's string id, or past the
 * dictionary, its kind (an event without a name) */
static size_t name_nkeys(const Store *s) { return (size_t)s->nnames + K_USER + s->nukind; }

static inline size_t name_key(const Store *s, uint32_t e)
{
    return s->name[e] != NONE32 ? (size_t)s->name[e] : (size_t)s->nnames + s->kind[e];
}

#define TOP_NAMES 26

#define NAMES_WORKERS 8

typedef struct {
    Summary *S;
    size_t nkeys;
    int64_t *ns[NAMES_WORKERS];  /* per worker: innermost time per key */
    uint32_t *ev[NAMES_WORKERS]; /* per worker: the first event of each key */
    JobQueue q;
} NamesCtx;

static void names_worker(void *ctx, int wk, int nw)
{
    (void)nw;
    NamesCtx *c = ctx;
    Summary *S = c->S;
    const Store *s = S->s;
    int64_t *ns = c->ns[wk] = xcalloc(c->nkeys, sizeof(int64_t));
    uint32_t *ev = c->ev[wk] = xmalloc(c->nkeys * sizeof(uint32_t));
    memset(ev, 0xff, c->nkeys * sizeof(uint32_t));
    size_t li;
    while ((li = jobq_next(&c->q)) != (size_t)-1) {
        const Lane *L = &S->lanes[li];
        for (size_t k = L->off; k + 1 < (size_t)L->off + L->n; k++) {
            uint32_t e = S->seg_ev[k];
            if (e == NONE32) continue;
            size_t key = name_key(s, e);
            if (e < ev[key]) ev[key] = e;
            ns[key] += S->seg_t[k + 1] - S->seg_t[k];
        }
        /* (a lane ends with an idle segment) */
    }
}

static void build_names(Summary *S)
{
    if (S->names_built) return;
    const Store *s = S->s;
    NamesCtx c;
    memset(&c, 0, sizeof c);
    c.S = S;
    c.nkeys = name_nkeys(s);
    int nw = S->threads < NAMES_WORKERS ? S->threads : NAMES_WORKERS;
    if (S->nseg < 200000) nw = 1;
    jobq_init(&c.q, S->nlanes);
    par_run(nw, names_worker, &c);
    /* merge into worker 0's tables; the top names by time, then by key */
    int64_t *ns = c.ns[0];
    uint32_t *ev = c.ev[0];
    for (int w = 1; w < nw; w++) {
        for (size_t k = 0; k < c.nkeys; k++) {
            if (c.ev[w][k] == NONE32) continue;
            if (c.ev[w][k] < ev[k]) ev[k] = c.ev[w][k];
            ns[k] += c.ns[w][k];
        }
        free(c.ns[w]);
        free(c.ev[w]);
    }
    size_t top[TOP_NAMES];
    int ntop = 0;
    for (size_t k = 0; k < c.nkeys; k++) {
        if (ev[k] == NONE32) continue;
        /* insertion into the sorted top list */
        int at = ntop;
        while (at > 0 && ns[top[at - 1]] < ns[k]) at--;
        if (at >= TOP_NAMES) continue;
        int last = ntop < TOP_NAMES ? ntop : TOP_NAMES - 1;
        for (int i = last; i > at; i--) top[i] = top[i - 1];
        top[at] = k;
        if (ntop < TOP_NAMES) ntop++;
    }
    S->name_rank = xmalloc(c.nkeys + 1);
    memset(S->name_rank, -1, c.nkeys + 1);
    S->ntop = ntop;
    S->top = xmalloc(((size_t)ntop + 1) * sizeof(uint32_t));
    S->top_ns = xmalloc(((size_t)ntop + 1) * sizeof(int64_t));
    for (int i = 0; i < ntop; i++) {
        S->name_rank[top[i]] = (int8_t)i;
        S->top[i] = ev[top[i]];
        S->top_ns[i] = ns[top[i]];
    }
    free(ns);
    free(ev);
    S->names_built = true;
}

int summary_name_rank(Summary *S, uint32_t e)
{
    build_names(S);
    return S->name_rank[name_key(S->s, e)];
}

int summary_top_names(Summary *S, uint32_t *ev, int64_t *ns, int max)
{
    build_names(S);
    int k = S->ntop < max ? S->ntop : max;
    for (int i = 0; i < k; i++) {
        ev[i] = S->top[i];
        if (ns) ns[i] = S->top_ns[i];
    }
    return k;
}

/* ---- the dominant interval of cells ------------------------------------------------------ */

typedef struct {
    uint64_t key;
    uint32_t ev, n;
} Tally;

static inline void tally_add(Tally **tal, size_t *ntal, size_t *cap, uint32_t e)
{
    size_t z = 0;
    while (z < *ntal && (*tal)[z].ev != e) z++;
    if (z == *ntal) {
        if (*ntal == *cap) *tal = xrealloc(*tal, (*cap *= 2) * sizeof(Tally));
        (*tal)[(*ntal)++] = (Tally){0, e, 0};
    }
    (*tal)[z].n++;
}

/* the segment of lane L at t, for t that do not decrease from call to call
 * (*k: the previous answer, SIZE_MAX at first): a galloping search forward
 * from the previous answer, which reads the lane's times in order */
static inline uint32_t seg_walk(const Summary *S, const Lane *L, int64_t t, size_t *k)
{
    const int64_t *T = S->seg_t;
    size_t end = (size_t)L->off + L->n;
    if (!L->n || T[L->off] > t) return NONE32;
    if (*k == SIZE_MAX) {
        ptrdiff_t f = seg_find(S, L, t, NULL);
        *k = (size_t)f;
        return S->seg_ev[f];
    }
    size_t lo = *k; /* T[lo] <= t */
    size_t step = 1, hi = lo + 1;
    while (hi < end && T[hi] <= t) {
        if (step == 8) {
            /* far ahead: the lane's time index */
            ptrdiff_t f = seg_find(S, L, t, NULL);
            *k = (size_t)f;
            return S->seg_ev[f];
        }
        lo = hi;
        step *= 2;
        hi = lo + step;
    }
    if (hi > end) hi = end;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (T[mid] <= t) lo = mid;
        else hi = mid;
    }
    *k = lo;
    return S->seg_ev[lo];
}

void agg_dominant(Summary *S, const RowSet *rs, const TimeGrid *g, int samples, uint32_t *out)
{
    const Store *s = S->s;
    int nc = g->ncell;
    if (nc <= 0) return;
    /* at most about 120,000 lookups, so that a frame's cost stays bounded
     * by its cells: fewer samples per lane when the frame has many lanes,
     * and when a group has more lanes than a cell's share of the budget,
     * that many samples spread over its lanes and the cell's time */
    size_t lanes = 0;
    for (uint32_t gi = 0; gi < rs->ng; gi++)
        for (uint32_t k = rowset_first(rs, gi); k < rowset_end(rs, gi); k++) {
            uint32_t nl;
            row_lanes(S, rs->kind, rs->ids[k], &nl);
            lanes += nl;
        }
    size_t budget = 120000 / ((lanes ? lanes : 1) * (size_t)nc);
    if ((size_t)samples > budget) samples = (int)budget;
    if (samples < 2) samples = 2;
    size_t cell_budget = 120000 / ((size_t)(rs->ng ? rs->ng : 1) * (size_t)nc);
    if (cell_budget < 4) cell_budget = 4;
    size_t ntal = 0, captal = 16;
    Tally *tal = xmalloc(captal * sizeof(Tally));
    VEC(uint32_t) gl = {0};  /* the lanes of a group */
    VEC(uint32_t) pl = {0};  /* the probes: lane, */
    VEC(double) pf = {0};    /* and where in each cell */
    VEC(uint32_t) hit = {0}; /* [cell][probe]: the event found */
    for (uint32_t gi = 0; gi < rs->ng; gi++) {
        uint32_t m0 = rowset_first(rs, gi), m1 = rowset_end(rs, gi);
        gl.len = 0;
        for (uint32_t k = m0; k < m1; k++) {
            uint32_t nl;
            const uint32_t *ls = row_lanes(S, rs->kind, rs->ids[k], &nl);
            for (uint32_t q = 0; q < nl; q++) VEC_PUSH(gl, ls[q]);
        }
        pl.len = pf.len = 0;
        if (gl.len * (size_t)samples <= cell_budget) {
            for (size_t q = 0; q < gl.len; q++)
                for (int j = 0; j < samples; j++) {
                    VEC_PUSH(pl, gl.v[q]);
                    VEC_PUSH(pf, (2.0 * j + 1) / (2.0 * samples));
                }
        } else {
            /* probe j: lane j / n of the group, at the j-th point of a
             * golden-ratio sequence over the cell (so that lanes and times
             * do not line up) */
            for (size_t j = 0; j < cell_budget; j++) {
                double f = (double)(j + 1) * 0.6180339887498949;
                VEC_PUSH(pl, gl.v[j * gl.len / cell_budget]);
                VEC_PUSH(pf, f - (double)(int64_t)f);
            }
        }
        size_t np = pl.len;
        hit.len = 0;
        for (size_t z = 0; z < (size_t)nc * np; z++) VEC_PUSH(hit, NONE32);
        /* each probe walks forward through its lane, cell after cell */
        for (size_t p = 0; p < np; p++) {
            const Lane *L = &S->lanes[pl.v[p]];
            size_t k = SIZE_MAX;
            for (int i = 0; i < nc; i++) {
                int64_t a = g->b[i], b = g->b[i + 1];
                int64_t t = a + (int64_t)((double)(b - a) * pf.v[p]);
                if (t >= b) t = b - 1;
                if (t < a) t = a;
                hit.v[(size_t)i * np + p] = seg_walk(S, L, t, &k);
            }
        }
        for (int i = 0; i < nc; i++) {
            int64_t a = g->b[i], b = g->b[i + 1];
            /* the samples, counted by event (a long interval is one) */
            ntal = 0;
            for (size_t p = 0; p < np; p++) {
                uint32_t e = hit.v[(size_t)i * np + p];
                if (e != NONE32) tally_add(&tal, &ntal, &captal, e);
            }
            /* then by name: the name with the most samples */
            uint32_t best = NONE32, bn = 0;
            for (size_t z = 0; z < ntal; z++) tal[z].key = name_key(s, tal[z].ev);
            for (size_t z = 0; z < ntal; z++) {
                uint32_t n = 0;
                for (size_t y = 0; y < ntal; y++)
                    if (tal[y].key == tal[z].key) n += tal[y].n;
                if (n > bn) bn = n, best = tal[z].ev;
            }
            if (best == NONE32) {
                /* nothing at the samples: an interval shorter than the
                 * sampling, the first one that starts in the cell */
                for (size_t q = 0; q < gl.len && best == NONE32; q++) {
                    const Lane *L = &S->lanes[gl.v[q]];
                    ptrdiff_t sk = seg_find(S, L, a, NULL);
                    size_t from = sk < 0 ? L->off : (size_t)sk;
                    for (size_t z = from; z < (size_t)L->off + L->n && S->seg_t[z] < b; z++)
                        if (S->seg_ev[z] != NONE32 && (S->seg_t[z] >= a || z == from)) {
                            best = S->seg_ev[z];
                            break;
                        }
                }
            }
            out[(size_t)gi * (size_t)nc + (size_t)i] = best;
        }
    }
    VEC_FREE(gl);
    VEC_FREE(pl);
    VEC_FREE(pf);
    VEC_FREE(hit);
    free(tal);
}

/* ---- glyphs, arrivals, counts -------------------------------------------------------------- */

/* importance of an instant's glyph (0: none) */
static int glyph_prio(const Store *s, uint32_t e)
{
    switch (s->kind[e]) {
    case K_END: return 6;
    case K_SPAWN: return 5;
    case K_MOVE: return 4;
    case K_SYNC: return (s->flags[e] & EVF_DUR) && s->dur[e] > 0 ? 0 : 3;
    case K_ATOMIC: return 2;
    default: break;
    }
    if (s->kind[e] >= K_USER && !strcmp(kind_name(s, s->kind[e]), "clock")) return 1;
    return 0;
}

static Points *glyph_points(Summary *S, RowKind rk)
{
    Points *P = &S->glyphs[rk];
    if (P->built) return P;
    const Store *s = S->s;
    if (S->base && S->sel) {
        points_derive(S, P, glyph_points(S->base, rk), NULL, nrows_of(S, rk));
        return P;
    }
    VEC(RawPt) raw = {0};
    for (size_t e = 0; e < s->n; e++) {
        if (!selected(S, e) || !glyph_prio(s, (uint32_t)e)) continue;
        RawPt p = {rk == ROWS_LOC ? s->loc[e] : s->act[e], (uint32_t)e, s->ts[e], 1, (uint32_t)e};
        VEC_PUSH(raw, p);
    }
    points_from_raw(P, raw.v, raw.len, nrows_of(S, rk));
    VEC_FREE(raw);
    return P;
}

uint32_t summary_glyph_in(Summary *S, RowKind rk, uint32_t row, int64_t a, int64_t b, uint32_t *count)
{
    *count = 0;
    if (rk == ROWS_PAIR) return NONE32;
    Points *P = glyph_points(S, rk);
    size_t i = pts_lower(P, row, a), j = pts_lower(P, row, b);
    *count = (uint32_t)(j - i);
    uint32_t best = NONE32;
    int bp = 0;
    for (size_t k = i; k < j && k < i + 64; k++) {
        int p = glyph_prio(S->s, P->id[k]);
        if (p > bp) bp = p, best = P->id[k];
    }
    return best;
}

bool summary_active_in(Summary *S, RowKind rk, uint32_t row, int64_t a, int64_t b)
{
    if (rk == ROWS_PAIR) return false;
    if (events_before(S, rk, row, b) > events_before(S, rk, row, a)) return true;
    uint32_t nl;
    const uint32_t *ls = row_lanes(S, rk, row, &nl);
    for (uint32_t q = 0; q < nl; q++) {
        const Lane *L = &S->lanes[ls[q]];
        ptrdiff_t k = seg_find(S, L, a, NULL);
        size_t from = k < 0 ? L->off : (size_t)k;
        for (size_t z = from; z < (size_t)L->off + L->n && S->seg_t[z] < b; z++)
            if (S->seg_ev[z] != NONE32 && (z + 1 == (size_t)L->off + L->n || S->seg_t[z + 1] > a)) return true;
    }
    return false;
}

static bool push_unique(uint32_t *out, int *n, int max, uint32_t e)
{
    for (int i = 0; i < *n; i++)
        if (out[i] == e) return true;
    if (*n >= max) return false;
    out[(*n)++] = e;
    return true;
}

int summary_events_in_cell(Summary *S, RowKind rk, uint32_t row, int64_t a, int64_t b, uint32_t *out, int max)
{
    const Store *s = S->s;
    int n = 0;
    if (rk == ROWS_PAIR) return 0;
    /* intervals: what is innermost somewhere in the cell, then the
     * intervals of its activity that contain it */
    uint32_t nl;
    const uint32_t *ls = row_lanes(S, rk, row, &nl);
    for (uint32_t q = 0; q < nl; q++) {
        const Lane *L = &S->lanes[ls[q]];
        ptrdiff_t k = seg_find(S, L, a, NULL);
        size_t from = k < 0 ? L->off : (size_t)k;
        for (size_t z = from; z < (size_t)L->off + L->n && S->seg_t[z] < b; z++) {
            uint32_t e = S->seg_ev[z];
            if (e == NONE32) continue;
            if (!push_unique(out, &n, max, e)) return n;
        }
    }
    int ninner = n;
    for (int i = 0; i < ninner; i++) {
        /* the enclosing intervals: same activity, open at e's start */
        uint32_t e = out[i], act = s->act[e];
        for (uint32_t p = s->act_off[act]; p < s->act_off[act + 1]; p++) {
            uint32_t x = s->act_ev[p];
            if (s->ts[x] > s->ts[e]) break;
            if (x != e && (s->flags[x] & EVF_DUR) && ev_end(s, x) > s->ts[e] && s->kind[x] != K_MSG && selected(S, x) &&
                !push_unique(out, &n, max, x))
                return n;
        }
    }
    /* events starting in the cell */
    if (rk == ROWS_LOC) {
        size_t lo = s->locs[row].first, hi = lo + s->locs[row].count;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (s->ts[mid] < a) lo = mid + 1;
            else hi = mid;
        }
        for (size_t e = lo; e < (size_t)s->locs[row].first + s->locs[row].count && s->ts[e] < b; e++)
            if (selected(S, e) && !push_unique(out, &n, max, (uint32_t)e)) return n;
    } else {
        size_t lo = s->act_off[row], hi = s->act_off[row + 1];
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (s->ts[s->act_ev[mid]] < a) lo = mid + 1;
            else hi = mid;
        }
        for (size_t p = lo; p < s->act_off[row + 1] && s->ts[s->act_ev[p]] < b; p++)
            if (selected(S, s->act_ev[p]) && !push_unique(out, &n, max, s->act_ev[p])) return n;
    }
    return n;
}

uint32_t summary_next_event(Summary *S, int64_t t, int dir)
{
    const Store *s = S->s;
    uint32_t best = NONE32;
    for (uint32_t l = 0; l < s->nloc; l++) {
        size_t first = s->locs[l].first, end = first + s->locs[l].count, lo = first, hi = end;
        /* dir > 0: the first event with ts > t; else the last with ts < t */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (dir > 0 ? s->ts[mid] <= t : s->ts[mid] < t) lo = mid + 1;
            else hi = mid;
        }
        if (dir > 0) {
            for (size_t e = lo; e < end; e++)
                if (selected(S, e)) {
                    if (best == NONE32 || s->ts[e] < s->ts[best]) best = (uint32_t)e;
                    break;
                }
        } else {
            for (size_t e = lo; e-- > first;)
                if (selected(S, e)) {
                    if (best == NONE32 || s->ts[e] > s->ts[best]) best = (uint32_t)e;
                    break;
                }
        }
    }
    return best;
}

uint32_t summary_arrivals(Summary *S, RowKind rk, uint32_t row, int64_t a, int64_t b, uint32_t *first)
{
    Points *P = msg_points(S, true, rk);
    size_t i = pts_lower(P, row, a), j = pts_lower(P, row, b);
    if (first) *first = i < j ? P->id[i] : NONE32;
    return (uint32_t)(j - i);
}

uint64_t summary_events_in(Summary *S, int64_t a, int64_t b)
{
    uint64_t n = 0;
    for (uint32_t l = 0; l < S->s->nloc; l++) n += events_before(S, ROWS_LOC, l, b) - events_before(S, ROWS_LOC, l, a);
    return n;
}

uint64_t summary_events_visible(Summary *S, int64_t a, int64_t b)
{
    /* those that start in it, and the intervals still open just before
     * it (each lane's segment there knows how many of its activity's
     * intervals are open) */
    uint64_t n = summary_events_in(S, a, b);
    for (uint32_t i = 0; i < S->nlanes; i++) {
        ptrdiff_t k = seg_find(S, &S->lanes[i], a - 1, NULL);
        if (k >= 0 && S->seg_ev[k] != NONE32) n += S->seg_depth[k];
    }
    return n;
}

void summary_matrix(Summary *S, int64_t a, int64_t b, double *bytes, double *count)
{
    const Store *s = S->s;
    size_t nn = (size_t)s->nloc * s->nloc;
    if (bytes) memset(bytes, 0, nn * sizeof(double));
    if (count) memset(count, 0, nn * sizeof(double));
    Points *P = msg_points(S, false, ROWS_PAIR);
    for (uint32_t p = 0; p < S->npairs; p++) {
        size_t i = pts_lower(P, p, a), j = pts_lower(P, p, b);
        size_t cell = (size_t)S->pair_src[p] * s->nloc + S->pair_dst[p];
        if (bytes) bytes[cell] += P->cum[j] - P->cum[i];
        if (count) count[cell] += (double)(j - i);
    }
}
