/*
 * agg_int.h — the summary's internals, shared by the files of src/agg/
 * (not part of the public API, agg.h).
 *
 * Owns: the Summary structure and the layouts of its parts (lanes and
 * segments, sorted points, step functions), and the helpers the files
 * share.
 * Invariants: see agg.h and each file's opening comment; a part that is
 * built lazily is marked by its `built` flag (or a non-NULL array) and
 * never changes afterwards, but for the parts kept for a row set (group
 * summaries, RowLanes), replaced when a frame asks for another row set,
 * and for the parts a memory budget drops (PART_*, agg_budget.c), freed
 * and built again, equal, when next asked for: code that reads one calls
 * part_use first (its accessor does), and keeps no pointer into it past
 * the current frame.
 */
#ifndef TNAV_AGG_INT_H
#define TNAV_AGG_INT_H

#include "agg.h"

#include <stdatomic.h>
#include <stddef.h>

#include "base/par.h"
#include "base/util.h"

/* segment categories */
enum { CAT_IDLE = 0, CAT_BUSY = 1, CAT_SYNC = 2, CAT_OTHER = 3 };
#define CP_SHIFT 4 /* a checkpoint every 16 segments */

/* A segment's start time: per block of SEG_BLK segments (a lane's
 * segments start a block, so a block holds one lane's, increasing), the
 * block's first start and each one's offset from it, or SEG_FAR when the
 * offset does not fit in 32 bits (the time is then in Summary.far_t);
 * 5 bytes a segment instead of 8, and a lookup reads one cache line. */
#define SEG_BSHIFT 3
#define SEG_BLK (1u << SEG_BSHIFT)
#define SEG_FAR UINT32_MAX
typedef struct {
    int64_t base;
    uint32_t lo[SEG_BLK];
} SegBlk;
static inline size_t seg_blocks(size_t cap) { return (cap + SEG_BLK - 1) >> SEG_BSHIFT; }
/* what does not fit in a segment's encoding: (segment, value), sorted */
typedef struct {
    size_t z;
    int64_t v;
} SegFar;
typedef VEC(SegFar) SegFarVec;
/* a segment's depth at most SEG_DEEP - 1 is in its byte; from SEG_DEEP,
 * in Summary.far_d */
#define SEG_DEEP 63

typedef struct {
    uint32_t act, loc;
    uint32_t off, n; /* seg_*[off .. off + n) */
    int64_t t0, t1;  /* its span (lane_span), kept here so that a frame
                      * skips a lane without touching its segments */
    /* a time index: bins[k] = the last segment starting at or before
     * seg_t[off] + (k << shift), so a lookup searches one bin of about 8
     * segments (32 in a lane of fewer than 4,096) instead of the whole
     * lane */
    uint32_t *bins;
    uint32_t nbins;
    uint8_t shift;
} Lane;

/* sorted points per row, with prefix sums of their weights; or, in a
 * series of instants (prio non-NULL: the instants with a glyph), each
 * point's small weight in a byte instead of the prefix sums, and id == ev
 * (one array): 13 bytes a point instead of 24 */
typedef struct {
    bool built;
    uint32_t nrows;
    uint32_t *off; /* nrows + 1 */
    int64_t *t;
    double *cum;   /* cum[k] = the weights of points [row start, k) ... as a global prefix (NULL with prio) */
    uint32_t *id;  /* message or event */
    uint32_t *ev;  /* the event whose selection keeps the point (with prio: id) */
    uint8_t *prio; /* (a series of instants) each point's weight, 0..255 */
    size_t cap;    /* the arrays' size */
} Points;
/* point k's weight */
static inline double pt_weight(const Points *P, size_t k) { return P->prio ? (double)P->prio[k] : P->cum[k + 1] - P->cum[k]; }
/* the bytes of P's block of points (t, cum or prio, id, ev) */
size_t points_block_bytes(const Points *P);

/* step functions per row: value v[k] on [t[k], t[k+1]) */
typedef struct {
    bool built;
    uint32_t nrows;
    uint32_t *off;
    int64_t *t;
    double *v;
    double *cum;   /* integral from the row's first step to t[k] */
    double *dcum;  /* time with a value, from the row's first step to t[k] */
    double tscale; /* cum and dcum count time in units of tscale ns (a power
                    * of two: 1, or 2^-66 for counters of values so large
                    * that value x time would overflow a double; the mean,
                    * cum / dcum, is the same either way) */
    uint8_t *defd; /* whether v[k] is defined */
} Steps;

/* Per location, its lanes as an index for the location's cumulative
 * busy / sync time at any t without visiting every lane (a location of a
 * task runtime holds thousands of short lanes): the *short* lanes (span at
 * most w[l]) sorted by start, with prefix sums of their totals, and the
 * few *long* ones (at most LOC_LONG) apart. At t, the short lanes that
 * started before t - w[l] have ended (their totals are a prefix sum), those
 * that start at or after t add nothing, so only the ones starting in
 * [t - w[l], t) and the long ones are looked up. */
#define LOC_LONG 8
typedef struct {
    bool built;
    uint32_t *off;    /* per location: short entries [off[l], off[l + 1]) */
    int64_t *t0, *t1; /* entry: the lane's span */
    uint32_t *lane;   /* entry: the lane */
    uint32_t *rank;   /* entry: the lane's position among its location's lanes (row_lanes order) */
    int64_t *pre[2];  /* busy / sync totals of the entries before k (global prefix) */
    int64_t *w;       /* per location: the longest short lane's span */
    uint32_t *loff, *llane; /* per location: its long lanes [loff[l], loff[l + 1]) */
} LocIdx;

/* A bump allocator: many small blocks from big chunks, freed at once
 * (per-activity outputs of the lane sweep, the lanes' time indexes). */
typedef struct {
    char **chunk;
    size_t nchunk, capchunk;
    char *cur;
    size_t left;
} Arena;
void *arena_alloc(Arena *A, size_t n);
void arena_free(Arena *A);

#define SWEEP_WORKERS 64

/* The lazily built parts a budget may drop (agg_budget.c): each one's
 * bytes, the frame that last used it (epoch) and that frame's view */
enum {
    PART_GRP,                  /* grp[0], grp[1] */
    PART_MSG,                  /* msg[recv][rk]: PART_MSG + recv * 3 + rk */
    PART_GLYPH = PART_MSG + 6, /* glyphs[rk] */
    PART_ROWARR = PART_GLYPH + 2,
    PART_MXCELLS,
    PART_TORD,
    PART_OPEN,
    PART_LOCIDX,
    PART_ROWLANES,
    PART__N
};
typedef struct {
    _Atomic uint64_t epoch;
    int view;           /* (of the frame that last used it) */
    uint32_t views;     /* the views that ever used it (bit v & 31) */
    size_t bytes;       /* counted now */
    size_t at_reserve;  /* (when its build began) */
    size_t last;        /* what its last build added */
} PartRec;

/* A row set's rows and grouping, kept to recognise it (agg_groups.c) */
typedef struct {
    RowKind kind;
    uint32_t n, ng, gsize;
    uint32_t *ids, *gstart; /* copies (ids NULL: no key) */
} RowKey;
bool rowkey_matches(const RowKey *K, const RowSet *rs);
void rowkey_set(RowKey *K, const RowSet *rs);
void rowkey_free(RowKey *K);
size_t rowkey_bytes(const RowKey *K);

/* A `true` answer of summary_rows_dense and what it was asked (key.ids
 * NULL: none) */
typedef struct {
    RowKey key;
    int64_t w0, w1;
    uint32_t nc, nr, need;
} DenseMemo;

/* A display row's lanes by time (agg_dominant.c), for the first lane in
 * the row's order whose span [t0, t1) meets a cell [a, b) (t0 < b and
 * t1 > a): the distinct ends of the spans X[0..m) cut time into units
 * [X[j], X[j + 1]); U[j] is the first lane (its place in the row) whose
 * span holds unit j (NONE32: none), B[k] the least U of units 16k ..
 * 16k + 15. A cell with a < b meets exactly the units j with X[j] < b and
 * X[j + 1] > a, a range: its first lane is their least U. */
typedef struct {
    bool usable;  /* (false: a span this cannot hold, t0 >= t1) */
    uint32_t m;
    int64_t *X;
    uint32_t *U, *B;
} LaneTime;
/* (agg_lanetime.c) the index of the spans span[2q], span[2q + 1] of n
 * lanes (INT64_MAX, INT64_MIN: a lane without segments) */
LaneTime *lanetime_build(const int64_t *span, size_t n);
void lanetime_free(LaneTime *T);
size_t lanetime_bytes(const LaneTime *T);
/* the first lane meeting [a, b) (a < b), or NONE32; *cur: a cursor, 0
 * at first, for queries whose a does not decrease */
uint32_t lanetime_first(const LaneTime *T, int64_t a, int64_t b, size_t *cur);

/* The lanes of each display row of a row set, and their spans, in the
 * rows' order (agg_dominant.c: the Gantt reads them every frame) */
typedef struct {
    RowKey key;
    uint32_t *goff;  /* ng + 1: display row g's lanes [goff[g], goff[g + 1]) */
    uint32_t *lane;
    int64_t *span;   /* per lane: t0, t1 (INT64_MAX, INT64_MIN: no segment) */
    uint32_t *off0;  /* per lane: its first segment (Lane.off; 0: none) */
    uint32_t *ev0;   /* per lane: its first segment's event, read when a frame
                      * first needs it (EV0_UNREAD before; the worker of the
                      * lane's display row writes it, no other reads it) */
    size_t bytes;    /* (the block of span, lane, off0 and ev0) */
    LaneTime **lt;   /* per display row: its lanes by time, built by the first
                      * frame that needs it (NULL before; likewise its row's
                      * worker's) */
} RowLanes;
#define EV0_UNREAD (NONE32 - 1) /* (never an event: at most UINT32_MAX - 2 of them) */
void rowlanes_free(RowLanes *R);
size_t rowlanes_bytes(const RowLanes *R);

/* agg_groups.c: the busy / sync time of a grouped display row's members
 * at once (built lazily per grouping and category, the last two kept) */
typedef struct GrpSum GrpSum;
void grpsum_free(GrpSum *G);
size_t grpsum_bytes(const GrpSum *G);
/* A frame of busy / sync (cat), reducer sum or mean, without finer bins,
 * from the group summaries of rs (built if rs's rows group many members
 * with many segments in all); false (nothing written) when not worth it. */
bool grp_frame(Summary *S, int cat, Reducer r, const RowSet *rs, const int64_t *bb, int nb, double *values);

struct Summary {
    const Store *s;
    const uint64_t *sel;
    Summary *base;      /* unfiltered, or NULL (summary_set_base) */
    int threads;
    uint64_t nsel;
    /* lanes and their segments */
    Lane *lanes;
    uint32_t nlanes;
    size_t lanes_bytes; /* (lanes' block, from xmalloc_big: it may have room for more) */
    uint32_t *loc_off, *loc_lanes, *act_off, *act_lanes;
    LocIdx locidx;      /* built lazily (locidx_build) */
    RowLanes rowlanes;  /* lazily: the last row set of a Gantt frame (agg_dominant.c) */
    /* lazily (summary_events_visible): the lanes with a span by the time
     * bucket of their start, and per bucket the latest end, so that the
     * lanes open at a time are found without looking at the others */
    struct {
        bool built;
        uint32_t nb, *off, *lane; /* bucket b: lane[off[b] .. off[b + 1]) */
        int64_t *t1max, t0;
        uint64_t width;
    } open;
    /* lazily (agg_rowpts.c): the points of a series (src) of each display
     * row of the last row set asked about, merged (Points of ng rows) */
    struct {
        RowKey key;
        const Points *src;
        Points P;
    } rowarr;
    /* lazily (agg_rowpts.c): the messages of the location pairs merged per
     * cell of the matrix grouped rg x cg (row q of P: cell cell[q]) */
    struct {
        uint32_t rg, cg, *cell;
        Points P;
    } mxcells;
    /* lazily (summary_events_in, agg_count.c): the times of the selected
     * events of the locations by bucket of 2^shift ns from t0 (bucket q:
     * dt[off[q] .. off[q + 1]), offsets from its start), so that a
     * window's count is a scan of two buckets instead of a search per
     * location; off NULL: none (a span too wide) */
    struct {
        bool built;
        uint32_t nb, *off, *dt;
        uint16_t *dt16; /* (instead of dt when buckets are at most 2^16 ns wide) */
        size_t n;
        int64_t t0, tmax;
        uint8_t shift;
    } tord;
    /* (summary_rows_dense, agg_instants.c) per overlay (0 instants, 1
     * arrivals), its last `true` answer and what it was asked about, for
     * the frames that ask again: each overlay's only written by the call
     * for it (the two may run at once, on a first frame's workers) */
    DenseMemo dense[2];
    Arena bins_arena[SWEEP_WORKERS]; /* the lanes' time indexes, per sweep worker */
    uint8_t *label_shared; /* lazily: per string id, activities with that label (saturated at 2) */
    SegBlk *seg_tb;      /* start times (seg_time) */
    uint32_t *seg_ev;
    uint8_t *seg_cd;     /* category (2 bits) | depth << 2: the open intervals of the activity
                          * (saturated at 65535) while the segment lasts (seg_cat, seg_depth);
                          * 0 exactly in a segment without an event (NONE32: idle) */
    SegFar *far_t, *far_d; /* the escapes of seg_tb and seg_cd, sorted by segment */
    size_t nfar_t, nfar_d;
    size_t nseg;
    size_t seg_cap;  /* the arrays' size: lanes live in regions with gaps between them */
    int64_t *cp[2];  /* per 16-segment block: busy / sync time within its lane before it */
    /* selection rank per 64-event word */
    uint32_t *rank;
    uint32_t *act_rank; /* lazily: selected events of act_ev before each position */
    int8_t msgs_sized;  /* summary_msgs_sized: -1 not yet known */
    int loc_label_w;    /* summary_loc_label_width: -1 not yet measured */
    uint64_t *cand;     /* the sweep's candidates, a bit per event (lanes_candidates) */
    uint64_t *ivl;      /* the store's intervals (a duration > 0, not a message), a bit per event:
                           the candidates without a selection; handed from summary to summary */
    bool lanes_kept;    /* the lanes came from the summary replaced (summary_build_from) */
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
    /* group summaries: [0] the last used, [1] the one before (agg_groups.c) */
    GrpSum *grp[2];
    /* the memory budget its lazily built parts count against (agg_budget.c;
     * NULL: none, nothing is dropped), and their records */
    AggBudget *budget;
    const _Atomic uint64_t *budget_epoch;
    PartRec part[PART__N];
};

/* (agg_budget.c) Part p of S is used by the current frame: not dropped
 * before the next one. Call before reading whether it is built. */
void part_use_slow(Summary *S, int p);
static inline void part_use(Summary *S, int p)
{
    if (S->budget && atomic_load_explicit(&S->part[p].epoch, memory_order_relaxed) !=
                         atomic_load_explicit(S->budget_epoch, memory_order_relaxed))
        part_use_slow(S, p);
}
/* Part p of S is about to be built, adding about est bytes to what it
 * holds now (0: what its last build added; what it replaces freed
 * before): other parts are dropped to make room. */
void part_reserve(Summary *S, int p, size_t est);
/* Part p of S was built (or freed by its owner): its bytes counted, other
 * parts dropped if the total passes the limit. */
void part_built(Summary *S, int p);
/* Free part p of S through its owner's free, leaving it unbuilt (the
 * budget's drop; the caller then counts it with part_built) */
void summary_part_free(Summary *S, int p);
/* S leaves its budget (summary_free) */
void summary_leave_budget(Summary *S);


/* the first k in [from, end) with X[k] >= x (end if none), X sorted,
 * galloping from `from`: for queries that increase, the next answer is
 * mostly near the last one */
static inline size_t gallop_lower(const int64_t *X, size_t from, size_t end, int64_t x)
{
    size_t lo = from, hi = from, step = 1;
    while (hi < end && X[hi] < x) {
        lo = hi + 1;
        hi = lo + step;
        step *= 2;
    }
    if (hi > end) hi = end;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (X[mid] < x) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static inline bool selected(const Summary *S, size_t e) { return !S->sel || ((S->sel[e >> 6] >> (e & 63)) & 1); }

/* selected events among 0..x-1 */
static inline uint64_t sel_prefix(const Summary *S, size_t x)
{
    if (!S->sel) return x;
    size_t w = x >> 6;
    uint64_t r = S->rank[w];
    if (x & 63) r += (uint64_t)popcount64(S->sel[w] & ((1ULL << (x & 63)) - 1));
    return r;
}

/* names are counted in a dense table: a name's string id, or past the
 * dictionary, its kind (an event without a name) */
static inline size_t name_nkeys(const Store *s) { return (size_t)s->nnames + K_USER + s->nukind; }

static inline size_t name_key(const Store *s, uint32_t e)
{
    return s->name[e] != NONE32 ? (size_t)s->name[e] : (size_t)s->nnames + s->kind[e];
}

/* agg_rows.c: the ranking of names, from tables that build_lanes' sweep
 * fills as it writes the lanes' segments (per key, the innermost time —
 * each segment's duration within its lane, the last one's none — and the
 * smallest event; the key count names_sweep_keys gives, 0: none, the
 * lanes are walked again when the names are first asked for) */
size_t names_sweep_keys(const Summary *S);
/* a worker's tables: times 0, events NONE32 */
void names_table_init(size_t nkeys, int64_t **ns, uint32_t **ev);
/* the nw workers' tables (NULL: none) merged, ranked, freed */
void names_from_tables(Summary *S, size_t nkeys, int64_t **ns, uint32_t **ev, int nw);

/* agg_lanes.c */
/* the lanes of S->cand's intervals */
void build_lanes(Summary *S);
/* the sweep's candidates under S's selection (the selected intervals: a
 * duration > 0, not a message), a bit per event, in a new array: all the
 * lanes depend on; from S->ivl, made first when S has none (old, when it
 * is a summary of the same store, hands S its own) */
uint64_t *lanes_candidates(Summary *S, Summary *old);
/* when old is a summary of the same store whose candidates are S's, its
 * lanes (segments, time indexes, checkpoints, the names' ranking) become
 * S's, the same as build_lanes would make them, and old is left without;
 * false otherwise */
bool lanes_take(Summary *S, Summary *old);
/* the value of segment z in the escapes f[0..n) */
int64_t seg_far(const SegFar *f, size_t n, size_t z);
/* segment z's start time, category and depth */
static inline int64_t seg_time(const Summary *S, size_t z)
{
    const SegBlk *B = &S->seg_tb[z >> SEG_BSHIFT];
    uint32_t o = B->lo[z & (SEG_BLK - 1)];
    if (LIKELY(o != SEG_FAR)) return B->base + (int64_t)o;
    return seg_far(S->far_t, S->nfar_t, z);
}
static inline unsigned seg_cat(const Summary *S, size_t z) { return S->seg_cd[z] & 3u; }
static inline unsigned seg_depth(const Summary *S, size_t z)
{
    unsigned d = S->seg_cd[z] >> 2;
    return d < SEG_DEEP ? d : (unsigned)seg_far(S->far_d, S->nfar_d, z);
}
/* The segments [*lo, *hi) of lane L (n > 0) that its time index leaves
 * for t >= the lane's first start: the last segment starting at or before
 * t is among them, and seg_t[*lo] <= t. */
static inline void lane_bin(const Lane *L, int64_t l0, int64_t t, size_t *lo, size_t *hi)
{
    size_t end = (size_t)L->off + L->n;
    uint64_t k = (uint64_t)(t - l0) >> L->shift;
    if (k >= L->nbins) {
        *lo = L->bins[L->nbins - 1];
        *hi = end;
    } else {
        *lo = L->bins[k];
        *hi = k + 1 < L->nbins ? (size_t)L->bins[k + 1] + 1 : end;
    }
}
/* agg_lanefind.c */
ptrdiff_t seg_find(const Summary *S, const Lane *L, int64_t t, size_t *hint);
void seg_find_many(const Summary *S, const Lane *L, const int64_t *t, size_t n, size_t *k);
int64_t lane_cum(const Summary *S, const Lane *L, int cat, int64_t t, size_t *hint);
/* acc[i] += lane_cum(S, L, cat, t[i]) for the increasing times t[0..n),
 * the lookups of a lane far longer than n several at a time (their cache
 * misses overlapping), else one after the other with a hint */
void lane_cum_add(const Summary *S, const Lane *L, int cat, const int64_t *t, size_t n, int64_t *acc);
/* out[j] = lane_cum(S, &S->lanes[lane[j]], cat, t[j]) for n independent
 * queries, several at a time (each one's chain of reads — lane, time
 * index, segments, checkpoint — in step with the others') */
void lane_cum_multi(const Summary *S, const uint32_t *lane, const int64_t *t, size_t n, int cat, int64_t *out);
const uint32_t *row_lanes(const Summary *S, RowKind rk, uint32_t row, uint32_t *n);

/* The span of lane L (which has segments): before *t0 (its first
 * segment's start) its cumulative functions are 0; from *t1 (the start of
 * its last segment, which is idle) they are constant; *t1 is INT64_MAX if
 * the last segment is not idle. */
static inline void lane_span(const Summary *S, const Lane *L, int64_t *t0, int64_t *t1)
{
    (void)S;
    *t0 = L->t0;
    *t1 = L->t1;
}

/* the first index i of the increasing t[0..n) with t[i] > x (upper) or
 * t[i] >= x (lower); n if none */
static inline size_t times_upper(const int64_t *t, size_t n, int64_t x)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t[mid] <= x) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}
static inline size_t times_lower(const int64_t *t, size_t n, int64_t x)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t[mid] < x) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* times_upper / times_lower over the boundaries of a time grid
 * (g->b[0..ncell]), from an arithmetic guess (the boundaries are evenly
 * spaced) corrected by a step or two: no branchy binary search */
static inline size_t grid_upper(const TimeGrid *g, int64_t t)
{
    size_t nc = (size_t)g->ncell;
    if (t < g->b[0]) return 0;
    if (t >= g->b[nc]) return nc + 1;
    /* (a guess in floating point: no 128-bit division; the steps below
     * make it exact) */
    size_t i = (size_t)((double)(t - g->b[0]) * ((double)nc / (double)(g->b[nc] - g->b[0])));
    if (i > nc) i = nc;
    while (i > 0 && g->b[i] > t) i--;
    while (i <= nc && g->b[i] <= t) i++;
    return i;
}
static inline size_t grid_lower(const TimeGrid *g, int64_t t) { return t == INT64_MIN ? 0 : grid_upper(g, t - 1); }

/* The time in category cat of the lanes ls[0..nl) over (-inf, t[i]) for
 * the increasing times t[0..nt), added to acc[0..nt) (integers: exact).
 * A lane costs one lookup per time inside its span, and two binary
 * searches in t: a row of many short lanes (a location of a task runtime)
 * costs per lane, not per lane and time. */
/* Build S->locidx (once); free it; its bytes. */
void locidx_build(Summary *S);
void locidx_free(LocIdx *X);
size_t locidx_bytes(const LocIdx *X, uint32_t nloc);
/* The time in category cat of location l's lanes over (-inf, t[i]) for
 * the increasing t[0..nt), into acc (integers: exact). */
void loc_cum(const Summary *S, uint32_t l, int cat, const int64_t *t, size_t nt, int64_t *acc);
/* The short entries of location l starting in [x, y): [*k0, *k1). */
void locidx_range(const Summary *S, uint32_t l, int64_t x, int64_t y, size_t *k0, size_t *k1);

/* agg_lanefind.c: the time in category cat of the lanes ls[0..nl) over
 * (-inf, t[i]) for the increasing t[0..nt), added into acc */
void lanes_cum(const Summary *S, const uint32_t *ls, uint32_t nl, int cat, const int64_t *t, size_t nt, int64_t *acc);

/* agg_points.c */
typedef struct {
    uint32_t row, ev;
    int64_t t;
    double w;
    uint32_t id;
} RawPt;
void points_free(Points *p);
void steps_free(Steps *p);
/* (prio: a series of instants, weights 0..255 and id == ev) */
void points_from_raw(Points *P, RawPt *raw, size_t n, uint32_t nrows, bool prio);
/* P's arrays for n points in one block (prio: a series of instants), and,
 * once its rows are filled in (P->off their starts), each row sorted by
 * (time, id) and the weights made prefix sums: for a series written
 * straight into its rows' places instead of through points_from_raw */
void points_alloc(Points *P, size_t n, bool prio);
void points_finish(Points *P, size_t n);
/* P: the points of O (the other row kind's series of the same events), each
 * in the row row_of[its event] (NONE32: left out) */
void points_regroup(Points *P, const Points *O, const uint32_t *row_of, uint32_t nrows);
/* P: the points of B (base's) whose event S selects, in B's order; rowmap
 * (or NULL) renumbers base's rows */
void points_derive(Summary *S, Points *P, const Points *B, const uint32_t *rowmap, uint32_t nrows);
static inline uint32_t nrows_of(const Summary *S, RowKind rk)
{
    return rk == ROWS_LOC ? S->s->nloc : rk == ROWS_ACT ? S->s->nact : S->npairs;
}
void build_pairs(Summary *S);
Points *msg_points(Summary *S, bool recv, RowKind rk);
size_t pts_lower(const Points *P, uint32_t r, int64_t t);
Steps *counter_steps(Summary *S, RowKind rk);
void steps_at(const Steps *P, uint32_t r, int64_t t, double *cum, double *def);

/* agg_frame.c */
uint64_t events_before(Summary *S, RowKind rk, uint32_t row, int64_t t);
/* agg_instants.c: the cells of g from `from` on where row r of P has
 * points (stop > 0: at most that many), their count and first point's id
 * (summary_arrival_cells on any Points) */
int points_cells(const Points *P, uint32_t r, const TimeGrid *g, int from, int stop, int *cell, uint32_t *n,
                 uint32_t *first);
/* agg_rowpts.c: the merged series of a row set (S->rowarr): the points
 * of src of each display row of rs (a row of P per display row) */
const Points *rowpts_get(Summary *S, const RowSet *rs, const Points *src);
/* whether S->rowarr holds src's points for rs already */
bool rowpts_ready(const Summary *S, const RowSet *rs, const Points *src);
bool rowpts_get_via(Summary *S, const RowSet *rs, const Points *src, const Points *O, const uint32_t *row_of, uint32_t nbase);
void rowarr_free(Summary *S);   /* (rowarr and mxcells) */
void rowarr_only_free(Summary *S);
void mxcells_free(Summary *S);
size_t rowarr_bytes(const Summary *S); /* (rowarr only) */
size_t mxcells_bytes(const Summary *S);
/* agg_count.c: the lanes by start (S->open) */
void open_free(Summary *S);
size_t open_bytes(const Summary *S);
/* agg.c: a built series' bytes (0: not built) */
size_t points_bytes(const Points *P);
/* agg_count.c: the time order of the selection (S->tord) */
void tord_free(Summary *S);
size_t tord_bytes(const Summary *S);
/* the first k in [lo, hi) with ts[k] >= t (hi if none), ts increasing */
size_t ts_lower_interp(const int64_t *ts, size_t lo, size_t hi, int64_t t);

#endif
