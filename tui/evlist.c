/*
 * evlist.c — the selected events in time order, walked without a list;
 * see evlist.h.
 *
 * Each location's events are sorted by time, so the order across
 * locations is a merge of nloc sorted runs: a walk places a cut in every
 * run (a binary search), takes each run's nearest selected event beyond
 * the cut (a bitmap scan), and merges them through a heap.
 */
#include "evlist.h"

#include <stdlib.h>

#include "base/util.h"

static inline bool is_sel(const uint64_t *sel, size_t e) { return !sel || ((sel[e >> 6] >> (e & 63)) & 1); }

/* the first selected event in [i, end), else end */
static size_t next_sel(const uint64_t *sel, size_t i, size_t end)
{
    if (!sel) return i;
    while (i < end) {
        uint64_t w = sel[i >> 6] >> (i & 63);
        if (w) {
            i += (size_t)__builtin_ctzll(w);
            return i < end ? i : end;
        }
        i = (i | 63) + 1;
    }
    return end;
}

/* the last selected event in [lo, i), else SIZE_MAX */
static size_t prev_sel(const uint64_t *sel, size_t i, size_t lo)
{
    if (i <= lo) return SIZE_MAX;
    if (!sel) return i - 1;
    size_t j = i - 1;
    for (;;) {
        uint64_t w = sel[j >> 6] & (~(uint64_t)0 >> (63 - (j & 63)));
        if (w) {
            size_t k = (j & ~(size_t)63) + 63 - (size_t)__builtin_clzll(w);
            return k >= lo ? k : SIZE_MAX;
        }
        if ((j & ~(size_t)63) <= lo) return SIZE_MAX;
        j = (j & ~(size_t)63) - 1;
    }
}

/* the first event of [lo, hi) starting at or after t (after: after t) */
static size_t cut_ts(const Store *s, size_t lo, size_t hi, int64_t t, bool after)
{
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->ts[mid] < t || (after && s->ts[mid] == t)) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* the cut in location l's run around event e: its events before the cut
 * come before e in the order; at e's own location, fwd puts e before it */
static size_t cut_at(const Store *s, uint32_t l, uint32_t e, bool fwd)
{
    size_t lo = s->locs[l].first, hi = lo + s->locs[l].count;
    uint32_t le = s->loc[e];
    if (l == le) return (size_t)e + (fwd ? 1 : 0);
    /* (a location before e's has its ties with e before it, one after it after) */
    return cut_ts(s, lo, hi, s->ts[e], l < le);
}

/* (ts, event) order; dir > 0: earlier first */
static inline bool before(const Store *s, size_t a, size_t b)
{
    return s->ts[a] != s->ts[b] ? s->ts[a] < s->ts[b] : a < b;
}

typedef struct {
    const Store *s;
    int dir;
    size_t *h; /* heap of events: the nearest on top */
    size_t n;
} Heap;

static bool heap_lt(const Heap *H, size_t a, size_t b) { return H->dir > 0 ? before(H->s, a, b) : before(H->s, b, a); }

static void heap_push(Heap *H, size_t e)
{
    size_t i = H->n++;
    H->h[i] = e;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!heap_lt(H, H->h[i], H->h[p])) break;
        size_t t = H->h[i];
        H->h[i] = H->h[p];
        H->h[p] = t;
        i = p;
    }
}

static void heap_down(Heap *H)
{
    size_t i = 0;
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < H->n && heap_lt(H, H->h[l], H->h[m])) m = l;
        if (r < H->n && heap_lt(H, H->h[r], H->h[m])) m = r;
        if (m == i) return;
        size_t t = H->h[i];
        H->h[i] = H->h[m];
        H->h[m] = t;
        i = m;
    }
}

size_t evorder_walk(const Store *s, const uint64_t *sel, uint32_t e, int dir, uint32_t *out, size_t n)
{
    if (!n || e == NONE32 || (size_t)e >= s->n) return 0;
    Heap H = {s, dir, xmalloc(((size_t)s->nloc + 1) * sizeof(size_t)), 0};
    for (uint32_t l = 0; l < s->nloc; l++) {
        size_t lo = s->locs[l].first, hi = lo + s->locs[l].count;
        if (lo == hi) continue;
        size_t c = cut_at(s, l, e, dir > 0);
        size_t k = dir > 0 ? next_sel(sel, c, hi) : prev_sel(sel, c, lo);
        if (dir > 0 ? k < hi : k != SIZE_MAX) heap_push(&H, k);
    }
    size_t got = 0;
    while (got < n && H.n) {
        size_t k = H.h[0];
        out[got++] = (uint32_t)k;
        uint32_t l = s->loc[k];
        size_t lo = s->locs[l].first, hi = lo + s->locs[l].count;
        size_t nx = dir > 0 ? next_sel(sel, k + 1, hi) : prev_sel(sel, k, lo);
        if (dir > 0 ? nx < hi : nx != SIZE_MAX) {
            H.h[0] = nx;
        } else {
            H.h[0] = H.h[--H.n];
        }
        heap_down(&H);
    }
    free(H.h);
    return got;
}

/* the nearest selected event of all the runs from a cut per run */
static uint32_t extreme(const Store *s, const uint64_t *sel, int dir, bool use_t, int64_t t)
{
    size_t best = SIZE_MAX;
    for (uint32_t l = 0; l < s->nloc; l++) {
        size_t lo = s->locs[l].first, hi = lo + s->locs[l].count;
        if (lo == hi) continue;
        size_t k;
        if (dir > 0) {
            k = next_sel(sel, use_t ? cut_ts(s, lo, hi, t, false) : lo, hi);
            if (k >= hi) continue;
            if (best == SIZE_MAX || before(s, k, best)) best = k;
        } else {
            k = prev_sel(sel, hi, lo);
            if (k == SIZE_MAX) continue;
            if (best == SIZE_MAX || before(s, best, k)) best = k;
        }
    }
    return best == SIZE_MAX ? NONE32 : (uint32_t)best;
}

uint32_t evorder_first(const Store *s, const uint64_t *sel) { return extreme(s, sel, +1, false, 0); }
uint32_t evorder_last(const Store *s, const uint64_t *sel) { return extreme(s, sel, -1, false, 0); }

uint32_t evorder_at(const Store *s, const uint64_t *sel, int64_t t)
{
    uint32_t e = extreme(s, sel, +1, true, t);
    return e != NONE32 ? e : evorder_last(s, sel);
}

/* selected events in [a, b) */
static uint64_t count_sel(const uint64_t *sel, size_t a, size_t b)
{
    if (b <= a) return 0;
    if (!sel) return b - a;
    uint64_t n = 0;
    size_t wa = a >> 6, wb = (b - 1) >> 6;
    for (size_t w = wa; w <= wb; w++) {
        uint64_t x = sel[w];
        if (w == wa) x &= ~(uint64_t)0 << (a & 63);
        if (w == wb && ((b & 63) != 0)) x &= ~(uint64_t)0 >> (64 - (b & 63));
        n += (uint64_t)__builtin_popcountll(x);
    }
    return n;
}

uint64_t evorder_rank(const Store *s, const uint64_t *sel, uint32_t e)
{
    if (e == NONE32) return 0;
    uint64_t r = 0;
    for (uint32_t l = 0; l < s->nloc; l++) {
        size_t lo = s->locs[l].first;
        if (!s->locs[l].count) continue;
        r += count_sel(sel, lo, cut_at(s, l, e, false));
    }
    return r;
}
