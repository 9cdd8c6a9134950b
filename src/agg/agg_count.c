/*
 * agg_count.c — the status line's count: the selected events starting in
 * a window (summary_events_in) and those visible in it
 * (summary_events_visible: also the intervals still open at its start).
 *
 * Owns: Summary.tord (the selection's times by bucket) and Summary.open
 * (the lanes by the time of their start).
 * Invariants: both are built lazily, once per summary. tord holds the time
 * of each selected event of a location once, in the bucket of 2^shift ns
 * from t0 that holds it, as its offset from the bucket's start (below
 * 2^32: a bucket is at most 2^32 ns wide; in 16 bits, dt16, when buckets
 * are at most 2^16 ns wide); a bucket of more than TORD_SCAN
 * events has them sorted, a smaller one in no order (it is scanned), so
 * that the events before t are those of the buckets before t's and a
 * part of t's. A trace of fewer than tord_min_locs locations, or whose
 * span needs buckets wider than 2^32 ns (or too many of them), has no
 * tord: its count goes location by location.
 */
#include "agg_int.h"

#include <stdlib.h>
#include <string.h>

#include "base/par.h"

/* ---- the selection's times by bucket -------------------------------------------------------- */

/* a bucket of at most this many events is left unsorted (a scan of its
 * offsets costs about as much as a few cache misses) */
#define TORD_SCAN 4096
/* at most this many buckets (else no tord) */
#define TORD_MAXB ((uint64_t)1 << 26)
/* with fewer locations than this the count goes location by location: two
 * searches per location cost less than the index's 4 bytes per selected
 * event and its pass over the selection at each summary's first frame
 * (mpi's 128 locations: ~80 ms CPU at 10M events) */
static uint32_t tord_min_locs = 2048;

void summary_count_index_min_locs(uint32_t n) { tord_min_locs = n; }

void tord_free(Summary *S)
{
    free(S->tord.off);
    xfree_big(S->tord.dt, (S->tord.n + 1) * sizeof(uint32_t));
    xfree_big(S->tord.dt16, (S->tord.n + 1) * sizeof(uint16_t));
    memset(&S->tord, 0, sizeof S->tord);
}

void open_free(Summary *S)
{
    free(S->open.off);
    free(S->open.lane);
    free(S->open.t1max);
    memset(&S->open, 0, sizeof S->open);
}

size_t open_bytes(const Summary *S)
{
    if (!S->open.built) return 0;
    return ((size_t)S->open.nb + 2) * (sizeof(uint32_t) + sizeof(int64_t)) + (size_t)S->open.off[S->open.nb] * sizeof(uint32_t);
}

size_t tord_bytes(const Summary *S)
{
    if (!S->tord.built || !S->tord.off) return 0;
    return ((size_t)S->tord.nb + 2) * sizeof(uint32_t) + (S->tord.n + 1) * (S->tord.dt16 ? sizeof(uint16_t) : sizeof(uint32_t));
}

static inline uint64_t tord_rel(const Summary *S, int64_t t) { return (uint64_t)t - (uint64_t)S->tord.t0; }

typedef struct {
    Summary *S;
    uint32_t *pos[2]; /* per worker and bucket: its count, then where its next event goes */
    const uint32_t *off;
    int phase;        /* 0: count, 1: place, 2: sort the crowded buckets */
    JobQueue q;       /* (phase 2: the buckets) */
} TordBuild;

/* radix_u32, radix_u16: sort v[0..n) (values below 2^bits) by 8 bits at a
 * time, through tmp (one body for the two widths of the offsets) */
#define RADIX_SORT(name, T)                                                                     \
    static void name(T *v, T *tmp, size_t n, unsigned bits)                                    \
    {                                                                                           \
        T *from = v, *to = tmp;                                                                 \
        for (unsigned d = 0; d < bits; d += 8) {                                                \
            size_t cnt[257] = {0};                                                              \
            for (size_t i = 0; i < n; i++) cnt[((from[i] >> d) & 255) + 1]++;                   \
            for (int k = 0; k < 256; k++) cnt[k + 1] += cnt[k];                                 \
            for (size_t i = 0; i < n; i++) to[cnt[(from[i] >> d) & 255]++] = from[i];           \
            T *t = from;                                                                        \
            from = to;                                                                          \
            to = t;                                                                             \
        }                                                                                       \
        if (from != v) memcpy(v, from, n * sizeof(T));                                          \
    }
RADIX_SORT(radix_u32, uint32_t)
RADIX_SORT(radix_u16, uint16_t)
#undef RADIX_SORT

static void tord_worker(void *ctx, int wk, int nw)
{
    TordBuild *tb = ctx;
    Summary *S = tb->S;
    const Store *s = S->s;
    unsigned sh = S->tord.shift;
    uint64_t mask = ((uint64_t)1 << sh) - 1; /* (sh <= 32) */
    uint32_t l0 = (uint32_t)((uint64_t)s->nloc * (uint64_t)wk / (uint64_t)nw);
    uint32_t l1 = (uint32_t)((uint64_t)s->nloc * (uint64_t)(wk + 1) / (uint64_t)nw);
    uint32_t *pos = tb->pos[wk];
    if (tb->phase == 0) {
        for (uint32_t l = l0; l < l1; l++)
            for (size_t e = s->locs[l].first, end = e + s->locs[l].count; e < end; e++)
                if (selected(S, e)) pos[tord_rel(S, s->ts[e]) >> sh]++;
    } else if (tb->phase == 1) {
        uint32_t *dt = S->tord.dt;
        uint16_t *dt16 = S->tord.dt16;
        for (uint32_t l = l0; l < l1; l++)
            for (size_t e = s->locs[l].first, end = e + s->locs[l].count; e < end; e++)
                if (selected(S, e)) {
                    uint64_t r = tord_rel(S, s->ts[e]);
                    if (dt16) dt16[pos[r >> sh]++] = (uint16_t)(r & mask);
                    else dt[pos[r >> sh]++] = (uint32_t)(r & mask);
                }
    } else {
        size_t q, cap = 0;
        uint32_t *tmp = NULL;
        while ((q = jobq_next(&tb->q)) != (size_t)-1) {
            size_t m = tb->off[q + 1] - tb->off[q];
            if (m <= TORD_SCAN) continue;
            if (m > cap) {
                free(tmp);
                cap = m;
                tmp = xmalloc(cap * sizeof(uint32_t));
            }
            if (S->tord.dt16) radix_u16(S->tord.dt16 + tb->off[q], (uint16_t *)tmp, m, sh);
            else radix_u32(S->tord.dt + tb->off[q], tmp, m, sh);
        }
        free(tmp);
    }
}

static void tord_build(Summary *S)
{
    const Store *s = S->s;
    S->tord.built = true;
    if (s->nloc < tord_min_locs) return; /* (no tord: off stays NULL) */
    /* the time range of the selected events (each location's are sorted) */
    int64_t mn = INT64_MAX, mx = INT64_MIN;
    size_t n = 0;
    for (uint32_t l = 0; l < s->nloc; l++) {
        size_t first = s->locs[l].first, end = first + s->locs[l].count;
        uint64_t c = sel_prefix(S, end) - sel_prefix(S, first);
        if (!c) continue;
        n += c;
        if (s->ts[first] < mn) mn = s->ts[first];
        if (s->ts[end - 1] > mx) mx = s->ts[end - 1];
    }
    /* buckets of about 1024 events if they were evenly spaced in time,
     * at most 2^32 ns wide */
    uint64_t span = n ? (uint64_t)mx - (uint64_t)mn : 0; /* (unsigned: may be the whole int64 range) */
    uint64_t want = n / 1024 + 1;
    unsigned sh = 0;
    while (sh < 32 && (span >> sh) + 1 > want) sh++;
    uint64_t nb = (span >> sh) + 1;
    if (nb > TORD_MAXB || n > UINT32_MAX) return; /* (no tord: off stays NULL) */
    S->tord.n = n;
    S->tord.t0 = mn;
    S->tord.tmax = mx;
    S->tord.shift = (uint8_t)sh;
    S->tord.nb = (uint32_t)nb;
    /* (buckets of at most 2^16 ns when that does not take more than a
     * bucket per 16 events: offsets in 2 bytes instead of 4) */
    if (sh > 16 && (span >> 16) + 1 <= n / 16 + 1) {
        sh = 16;
        nb = (span >> sh) + 1;
        S->tord.shift = (uint8_t)sh;
        S->tord.nb = (uint32_t)nb;
    }
    if (sh <= 16) S->tord.dt16 = xmalloc_big((n + 1) * sizeof(uint16_t));
    else S->tord.dt = xmalloc_big((n + 1) * sizeof(uint32_t));
    /* counted, then placed, on 2 workers (each the events of half the
     * locations); then the crowded buckets sorted, handed out */
    TordBuild tb = {S, {NULL, NULL}, NULL, 0, {0}};
    int nw = n >= 100000 && cpu_count() > 1 ? 2 : 1;
    for (int w = 0; w < nw; w++) tb.pos[w] = xcalloc((size_t)nb + 1, sizeof(uint32_t));
    par_run(nw, tord_worker, &tb);
    uint32_t *off = xcalloc((size_t)nb + 2, sizeof(uint32_t));
    for (uint64_t q = 0; q < nb; q++) {
        uint32_t at = off[q];
        for (int w = 0; w < nw; w++) {
            uint32_t c = tb.pos[w][q];
            tb.pos[w][q] = at;
            at += c;
        }
        off[q + 1] = at;
    }
    tb.off = off;
    tb.phase = 1;
    par_run(nw, tord_worker, &tb);
    tb.phase = 2;
    jobq_init(&tb.q, nb);
    par_run(nw, tord_worker, &tb);
    for (int w = 0; w < nw; w++) free(tb.pos[w]);
    S->tord.off = off;
}

/* In a bucket's sorted offsets dt[lo .. hi): the first at or past x (a
 * short bucket counted in one pass, a long one searched), for both widths */
#define BELOW(name, T)                                                      \
    static size_t name(const T *dt, size_t lo, size_t hi, uint32_t x)       \
    {                                                                       \
        if (hi - lo <= TORD_SCAN) {                                         \
            size_t c = 0;                                                   \
            for (size_t k = lo; k < hi; k++) c += dt[k] < x;                \
            return lo + c;                                                  \
        }                                                                   \
        while (lo < hi) {                                                   \
            size_t mid = lo + (hi - lo) / 2;                                \
            if (dt[mid] < x) lo = mid + 1;                                  \
            else hi = mid;                                                  \
        }                                                                   \
        return lo;                                                          \
    }
BELOW(below_u32, uint32_t)
BELOW(below_u16, uint16_t)
#undef BELOW

/* the selected events of the locations with a time before t */
static uint64_t tord_before(const Summary *S, int64_t t)
{
    if (!S->tord.n || t <= S->tord.t0) return 0;
    if (t > S->tord.tmax) return S->tord.n;
    uint64_t r = tord_rel(S, t);
    uint32_t q = (uint32_t)(r >> S->tord.shift), x = (uint32_t)(r & (((uint64_t)1 << S->tord.shift) - 1));
    size_t lo = S->tord.off[q], hi = S->tord.off[q + 1];
    return S->tord.dt16 ? below_u16(S->tord.dt16, lo, hi, x) : below_u32(S->tord.dt, lo, hi, x);
}

/* the same, location by location (a trace without a tord) */
static uint64_t events_in_by_loc(Summary *S, int64_t a, int64_t b)
{
    /* per location, the events from a, then those from b searched from
     * there (close in a narrow window: the same cache lines) */
    const Store *s = S->s;
    uint64_t n = 0;
    if (b <= a) return 0;
    for (uint32_t l = 0; l < s->nloc; l++) {
        size_t first = s->locs[l].first, end = first + s->locs[l].count;
        if (first == end || s->ts[first] >= b || s->ts[end - 1] < a) continue;
        size_t ia = s->ts[first] >= a ? first : ts_lower_interp(s->ts, first, end, a), ib = ia, step = 1;
        if (s->ts[end - 1] < b) { /* (all of it from ia: a wide window needs no search) */
            n += sel_prefix(S, end) - sel_prefix(S, ia);
            continue;
        }
        while (ib + step < end && s->ts[ib + step] < b) {
            ib += step;
            step *= 2;
        }
        ib = ts_lower_interp(s->ts, ib, ib + step < end ? ib + step : end, b);
        n += sel_prefix(S, ib) - sel_prefix(S, ia);
    }
    return n;
}


static void tord_ready(Summary *S)
{
    part_use(S, PART_TORD);
    if (!S->tord.built) {
        part_reserve(S, PART_TORD, 0);
        tord_build(S);
        part_built(S, PART_TORD);
    }
}

uint64_t summary_events_in(Summary *S, int64_t a, int64_t b)
{
    if (b <= a) return 0;
    /* (a window over the whole trace holds every selected event: no index
     * needed, as for the interface's first frame) */
    if (S->s->n && a <= S->s->t_min && b > S->s->t_max) return S->nsel;
    tord_ready(S);
    if (!S->tord.off) return events_in_by_loc(S, a, b);
    return tord_before(S, b) - tord_before(S, a);
}

/* ---- the intervals open at a time ------------------------------------------------------------ */

/* the lanes by the bucket of their start (S->open), built once */
static void open_index(Summary *S)
{
    const Store *s = S->s;
    S->open.built = true;
    uint32_t nb = S->nlanes / 16 + 1;
    if (nb > 65536) nb = 65536;
    /* (unsigned: a trace may span the whole int64 range) */
    uint64_t span = (uint64_t)s->t_max - (uint64_t)s->t_min;
    S->open.nb = nb;
    S->open.t0 = s->t_min;
    S->open.width = span / nb + 1;
    S->open.off = xcalloc((size_t)nb + 2, sizeof(uint32_t));
    S->open.t1max = xmalloc(((size_t)nb + 1) * sizeof(int64_t));
    for (uint32_t b = 0; b < nb; b++) S->open.t1max[b] = INT64_MIN;
    /* (a lane without a segment, or only an idle one, is never open) */
#define OPEN_BUCKET(L) ((uint32_t)(((uint64_t)(L)->t0 - (uint64_t)S->open.t0) / S->open.width))
    uint32_t n = 0;
    for (uint32_t i = 0; i < S->nlanes; i++) {
        const Lane *L = &S->lanes[i];
        if (!L->n || L->t1 <= L->t0) continue;
        uint32_t b = OPEN_BUCKET(L);
        S->open.off[b + 1]++;
        if (L->t1 > S->open.t1max[b]) S->open.t1max[b] = L->t1;
        n++;
    }
    for (uint32_t b = 0; b < nb; b++) S->open.off[b + 1] += S->open.off[b];
    S->open.lane = xmalloc(((size_t)n + 1) * sizeof(uint32_t));
    uint32_t *pos = xmalloc(((size_t)nb + 1) * sizeof(uint32_t));
    memcpy(pos, S->open.off, (size_t)nb * sizeof(uint32_t));
    for (uint32_t i = 0; i < S->nlanes; i++) {
        const Lane *L = &S->lanes[i];
        if (L->n && L->t1 > L->t0) S->open.lane[pos[OPEN_BUCKET(L)]++] = i;
    }
#undef OPEN_BUCKET
    free(pos);
}

/* the depths at x of the lanes ls[0..m) (m <= OPEN_CHUNK; each lane's
 * span holds x), summed: each lookup as seg_find's, in a pipeline whose
 * stages run OPEN_AHEAD lanes apart, each prefetching what the next
 * needs (the lane's bin; the blocks of segment times the bin leaves; the
 * segment's byte), so that the cache misses of many lanes
 * overlap instead of each lookup's waiting for its own three or four in
 * turn (20,000 lanes are open at any time on a trace of 10,000 ranks) */
#define OPEN_CHUNK 256
#define OPEN_AHEAD 8
static uint64_t open_depth(const Summary *S, const uint32_t *ls, uint32_t m, int64_t x)
{
    size_t lo[OPEN_CHUNK], hi[OPEN_CHUNK];
    uint64_t n = 0;
    for (uint32_t i = 0; i < m + 3 * OPEN_AHEAD; i++) {
        if (i < m) {
            const Lane *L = &S->lanes[ls[i]];
            uint64_t k = ((uint64_t)x - (uint64_t)L->t0) >> L->shift; /* (t0 <= x: no overflow unsigned) */
            __builtin_prefetch(&L->bins[k < L->nbins ? k : L->nbins - 1]);
        }
        uint32_t j = i - OPEN_AHEAD;
        if (i >= OPEN_AHEAD && j < m) {
            /* the bin: the blocks of its segments' times, a few lines */
            const Lane *L = &S->lanes[ls[j]];
            lane_bin(L, L->t0, x, &lo[j], &hi[j]);
            const char *p = (const char *)&S->seg_tb[lo[j] >> SEG_BSHIFT], *e = (const char *)&S->seg_tb[((hi[j] - 1) >> SEG_BSHIFT) + 1];
            if (e - p > 6 * 64) e = p + 6 * 64;
            for (; p < e; p += 64) __builtin_prefetch(p);
            __builtin_prefetch(e - 1);
        }
        j -= OPEN_AHEAD;
        if (i >= 2 * OPEN_AHEAD && j < m) {
            /* the largest z in [lo, hi) with T[z] <= x (T[lo] <= x) */
            size_t a = lo[j], b = hi[j];
            while (b - a > 1) {
                size_t mid = a + (b - a) / 2;
                if (seg_time(S, mid) <= x) a = mid;
                else b = mid;
            }
            lo[j] = a;
            __builtin_prefetch(&S->seg_cd[a]);
        }
        /* (an idle segment's depth is 0: its event need not be read) */
        j -= OPEN_AHEAD;
        if (i >= 3 * OPEN_AHEAD && j < m) n += seg_depth(S, lo[j]);
    }
    return n;
}

/* the lanes open at x among the open index's entries [j0, j1) of its
 * buckets before nb, their depths at x summed */
static uint64_t open_count(const Summary *S, int64_t x, uint32_t nb, uint32_t j0, uint32_t j1)
{
    uint32_t batch[OPEN_CHUNK], nbatch = 0;
    uint64_t n = 0;
    for (uint32_t q = 0; q < nb; q++) {
        uint32_t e0 = S->open.off[q] > j0 ? S->open.off[q] : j0, e1 = S->open.off[q + 1] < j1 ? S->open.off[q + 1] : j1;
        if (e0 >= e1 || S->open.t1max[q] <= x) continue;
        for (uint32_t j = e0; j < e1; j++) {
            const Lane *L = &S->lanes[S->open.lane[j]];
            if (L->t0 > x || L->t1 <= x) continue;
            batch[nbatch++] = S->open.lane[j];
            if (nbatch == OPEN_CHUNK) {
                n += open_depth(S, batch, nbatch, x);
                nbatch = 0;
            }
        }
    }
    return n + open_depth(S, batch, nbatch, x);
}

/* from this many entries to look at, the count is split between two
 * workers (a thread's start is worth a few thousand lookups) */
#define OPEN_PAR_MIN 8192
static uint32_t open_par_min = OPEN_PAR_MIN;

void summary_count_par_min(uint32_t n) { open_par_min = n ? n : OPEN_PAR_MIN; }

typedef struct {
    const Summary *S;
    int64_t x;
    uint32_t nb;
    int nw;
    uint64_t n[2];
} OpenCtx;

static void open_worker(void *ctx, int wk, int nw)
{
    OpenCtx *c = ctx;
    uint64_t m = c->S->open.off[c->nb];
    c->n[wk] = open_count(c->S, c->x, c->nb, (uint32_t)(m * (uint64_t)wk / (uint64_t)nw), (uint32_t)(m * (uint64_t)(wk + 1) / (uint64_t)nw));
}

static void open_ready(Summary *S)
{
    part_use(S, PART_OPEN);
    if (!S->open.built) {
        part_reserve(S, PART_OPEN, 0);
        open_index(S);
        part_built(S, PART_OPEN);
    }
}

void summary_count_prepare(Summary *S)
{
    tord_ready(S);
    open_ready(S);
}

uint64_t summary_events_visible(Summary *S, int64_t a, int64_t b)
{
    /* those that start in it, and the intervals still open just before
     * it (each lane's segment there knows how many of its activity's
     * intervals are open) */
    uint64_t n = summary_events_in(S, a, b);
    /* only lanes whose span holds x = a - 1 have an interval open there
     * (before its span a lane has no segment, from its end on only its
     * idle one): those starting in a bucket up to x's whose latest end is
     * past x */
    int64_t x = a - 1;
    if (x < S->s->t_min) return n; /* (nothing starts before the first event) */
    open_ready(S);
    if (x < S->open.t0) return n;
    uint64_t bx = ((uint64_t)x - (uint64_t)S->open.t0) / S->open.width;
    uint32_t nb = bx < S->open.nb ? (uint32_t)bx + 1 : S->open.nb;
    OpenCtx c = {.S = S, .x = x, .nb = nb, .nw = 1};
    /* (many lanes to look up: two workers, each a half of the entries;
     * the sum is the same however they are split) */
    if (S->threads >= 2 && S->open.off[nb] >= open_par_min) c.nw = 2;
    if (c.nw > 1) par_run(c.nw, open_worker, &c);
    else open_worker(&c, 0, 1);
    for (int k = 0; k < c.nw; k++) n += c.n[k];
    return n;
}

