/*
 * agg_dominant.c — the Gantt's dominant interval per cell: each lane's
 * innermost event sampled at a few points per cell, counted by name; in a
 * cell the samples leave empty, the first interval of the first lane (in
 * the row's order) that has one there; when asked, each cell's name and
 * kind, read by the worker of its row.
 *
 * Owns: Summary.rowlanes (each display row's lanes, their spans and first
 * segments, for the last row set drawn: rebuilt, before the workers
 * start, when the rows or their grouping change; the first segments'
 * events and each row's lanes by time, agg_lanetime.c, filled in by the
 * frames that need them, each row's by the worker drawing it).
 * Invariants: at most about 120,000 samples a frame (fewer per lane when a
 * frame holds many lanes); a sample's segment is the lane's last starting
 * at or before it, however it is found (a walk forward, or lookups 16 at a
 * time), so the samples found do not depend on the method; an empty
 * cell's lane is the first whose span meets it, however it is found (the
 * lanes by time, or every lane's cells), and the next ones meeting it
 * only when that one has no interval there; display rows are independent
 * (2 workers, which read the lanes and write only their rows' parts of
 * rowlanes).
 */
#include "agg_int.h"

#include <stdlib.h>
#include <string.h>

/* ---- the dominant interval of cells ------------------------------------------------------ */

/* Per key, how many samples and the first one (open addressing, reset
 * after each cell through the list of slots used). */
typedef struct {
    uint64_t key;
    uint32_t n, first;
} ModeSlot;
typedef struct {
    ModeSlot *slot;
    uint32_t *used;
    size_t cap, nused;
} ModeHash;

/* The event of the dominant name among the samples hit[0..n) (NONE32: no
 * event) of keys key[]: the key with the most samples, ties to the key
 * sampled first; the event of its first sample. (The same answer as
 * counting samples per event, then per key over the events in the order
 * they were first sampled, keeping the first strictly better.) */
static uint32_t cell_mode(const uint32_t *hit, const uint64_t *key, size_t n, ModeHash *H)
{
    uint32_t best = NONE32, bn = 0;
    if (n <= 24) {
        /* the distinct keys in the order first sampled (a cell holds few),
         * with their counts and first samples */
        uint64_t dk[24];
        uint32_t dn[24], df[24], nd = 0, last = 0;
        for (size_t p = 0; p < n; p++) {
            if (hit[p] == NONE32) continue;
            if (nd && dk[last] == key[p]) { /* (mostly the key of the sample before) */
                dn[last]++;
                continue;
            }
            uint32_t d = 0;
            while (d < nd && dk[d] != key[p]) d++;
            if (d == nd) dk[nd] = key[p], dn[nd] = 0, df[nd++] = (uint32_t)p;
            dn[d]++;
            last = d;
        }
        for (uint32_t d = 0; d < nd; d++)
            if (dn[d] > bn) bn = dn[d], best = hit[df[d]];
        return best;
    }
    if (H->cap < 2 * n) {
        free(H->slot);
        free(H->used);
        H->cap = 64;
        while (H->cap < 2 * n) H->cap *= 2;
        H->slot = xmalloc(H->cap * sizeof(ModeSlot));
        H->used = xmalloc(H->cap * sizeof(uint32_t));
        for (size_t z = 0; z < H->cap; z++) H->slot[z].n = 0;
    }
    size_t mask = H->cap - 1;
    H->nused = 0;
    for (size_t p = 0; p < n; p++) {
        if (hit[p] == NONE32) continue;
        uint64_t k = key[p];
        size_t z = (size_t)((k * 0x9E3779B97F4A7C15ULL) >> 32) & mask;
        while (H->slot[z].n && H->slot[z].key != k) z = (z + 1) & mask;
        if (!H->slot[z].n) {
            H->slot[z] = (ModeSlot){k, 0, (uint32_t)p};
            H->used[H->nused++] = (uint32_t)z;
        }
        H->slot[z].n++;
    }
    uint32_t bfirst = 0;
    for (size_t u = 0; u < H->nused; u++) {
        ModeSlot *m = &H->slot[H->used[u]];
        if (m->n > bn || (m->n == bn && m->first < bfirst)) bn = m->n, bfirst = m->first, best = hit[m->first];
        m->n = 0;
    }
    return best;
}

/* a walk forward gives way to the lane's time index (a bin of about 8
 * segments) this many segments ahead */
#define WALK_FAR 32

/* the last j in [lo, end) with T[j] <= t, for T[lo] <= t: galloping
 * forward from lo (reads the times in order); SIZE_MAX when it would
 * step `far` segments or more at once (0: never) */
static inline size_t seg_gallop(const Summary *S, size_t lo, size_t end, int64_t t, size_t far)
{
    size_t step = 1, hi = lo + 1;
    while (hi < end && seg_time(S, hi) <= t) {
        if (step == far) return SIZE_MAX;
        lo = hi;
        step *= 2;
        hi = lo + step;
    }
    if (hi > end) hi = end;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (seg_time(S, mid) <= t) lo = mid;
        else hi = mid;
    }
    return lo;
}

/* the segment of lane L at t (its index, or SIZE_MAX before the lane),
 * for t that do not decrease from call to call (*k: the previous answer,
 * SIZE_MAX at first): a galloping search forward from the previous
 * answer, which reads the lane's times in order */
static inline size_t seg_walk(const Summary *S, const Lane *L, int64_t t, size_t *k, bool *far)
{
    size_t end = (size_t)L->off + L->n;
    if (!L->n || L->t0 > t) return SIZE_MAX;
    if (*k == SIZE_MAX || *far) {
        /* (after a far jump, the next one is likely far too: the index
         * at once, without reading the segments on the way) */
        size_t f = (size_t)seg_find(S, L, t, NULL);
        *far = *k == SIZE_MAX || f > *k + 64;
        return *k = f;
    }
    size_t j = seg_gallop(S, *k, end, t, WALK_FAR); /* (T[*k] <= t) */
    if (j == SIZE_MAX) { /* far ahead: the lane's time index */
        *far = true;
        j = (size_t)seg_find(S, L, t, NULL);
    }
    return *k = j;
}

/* For each lane of a group of n lanes (spans sp), the cells of g its
 * span [t0, t1) meets (b[i] < t1 and b[i + 1] > t0; zero-width cells
 * included): rng[2q] .. rng[2q + 1] (none: rng[2q] > rng[2q + 1]). A lane
 * has no segment but its idle ones in the other cells. */
static void lane_cells(const TimeGrid *g, const int64_t *sp, size_t n, uint32_t *rng)
{
    size_t nc = (size_t)g->ncell, nb = nc + 1;
    for (size_t q = 0; q < n; q++) {
        rng[2 * q] = 1, rng[2 * q + 1] = 0; /* (empty) */
        int64_t t0 = sp[2 * q], t1 = sp[2 * q + 1]; /* (the lane's span; none: t0 > t1) */
        if (t0 >= g->b[nc] || t1 <= g->b[0]) continue; /* (outside the window, or no segment) */
        size_t u = grid_upper(g, t0), w = t1 == INT64_MAX ? nb : grid_lower(g, t1);
        size_t c0 = u ? u - 1 : 0;
        if (!w) continue;
        size_t c1 = w - 1 < nc - 1 ? w - 1 : nc - 1;
        if (u >= nb || c0 > c1) continue;
        rng[2 * q] = (uint32_t)c0, rng[2 * q + 1] = (uint32_t)c1;
    }
}

/* first[i]: the first lane (in the group's order) whose cells rng hold
 * cell i, or NONE32; each cell is set once (nxt: the next cell not set
 * yet, with paths halved), so that a row costs its lanes and cells, not
 * their product */
static void first_lanes(const uint32_t *rng, size_t n, size_t nc, uint32_t *first, uint32_t *nxt)
{
    for (size_t c = 0; c <= nc; c++) nxt[c] = (uint32_t)c;
    for (size_t c = 0; c < nc; c++) first[c] = NONE32;
    size_t left = nc;
    for (size_t q = 0; q < n && left; q++) {
        uint32_t c0 = rng[2 * q], c1 = rng[2 * q + 1];
        if (c0 > c1) continue;
        for (uint32_t c = c0;;) {
            while (nxt[c] != c) {
                nxt[c] = nxt[nxt[c]];
                c = nxt[c];
            }
            if (c > c1) break;
            first[c] = (uint32_t)q;
            left--;
            nxt[c] = c + 1;
        }
    }
}

/* What lane_first_in(q, a, b) will read, read ahead (nothing waits for
 * it): stage 0 the lane and its first segment's event, 1 its time index
 * at a (the lane read at stage 0), 2 the segments there (the index read at
 * stage 1). Only the reads; lane_first_in decides. */
static inline void lane_first_ahead(const Summary *S, const uint32_t *glv, const int64_t *gspv, const uint32_t *goff0,
                                    const uint32_t *gev0, size_t q, int64_t a, int64_t b, int stage)
{
    int64_t t0 = gspv[2 * q];
    bool inside = t0 > a && t0 < b;
    if (stage == 0) {
        if (inside && gev0[q] == EV0_UNREAD) __builtin_prefetch(&S->seg_ev[goff0[q]]);
        if (!inside) __builtin_prefetch(&S->lanes[glv[q]]);
        return;
    }
    if (inside) return; /* (mostly its first segment: no search) */
    const Lane *L = &S->lanes[glv[q]];
    if (!L->n || a < L->t0) return;
    uint64_t k = (uint64_t)(a - L->t0) >> L->shift;
    if (k >= L->nbins) k = L->nbins - 1;
    if (stage == 1) {
        __builtin_prefetch(&L->bins[k]);
        return;
    }
    size_t lo = L->bins[k];
    __builtin_prefetch(&S->seg_tb[lo >> SEG_BSHIFT]);
    __builtin_prefetch(&S->seg_tb[(lo >> SEG_BSHIFT) + 1]);
    __builtin_prefetch(&S->seg_ev[lo]);
}

/* For each cell i of g, the lanes of the group whose cells rng hold it,
 * as their places in the group, in its order: cl[coff[i] .. coff[i + 1]). */
typedef VEC(uint32_t) U32Vec;

static void cells_of_lanes(const TimeGrid *g, const uint32_t *rng, size_t n, U32Vec *coff, U32Vec *cl)
{
    size_t nc = (size_t)g->ncell;
    coff->len = cl->len = 0;
    VEC_RESERVE(*coff, nc + 2);
    memset(coff->v, 0, (nc + 2) * sizeof(uint32_t));
    coff->len = nc + 2;
    for (size_t q = 0; q < n; q++)
        for (size_t c = rng[2 * q]; c <= rng[2 * q + 1]; c++) coff->v[c + 1]++;
    for (size_t i = 0; i < nc; i++) coff->v[i + 1] += coff->v[i];
    size_t tot = coff->v[nc];
    VEC_RESERVE(*cl, tot + 1);
    cl->len = tot;
    uint32_t *pos = xmalloc((nc + 1) * sizeof(uint32_t));
    memcpy(pos, coff->v, nc * sizeof(uint32_t));
    for (size_t q = 0; q < n; q++)
        for (size_t c = rng[2 * q]; c <= rng[2 * q + 1]; c++) cl->v[pos[c]++] = (uint32_t)q;
    free(pos);
}

/* The first interval of lane q of a group (lanes glv, spans gspv, first
 * segments goff0) that meets the cell [a, b): the segment at a, or one
 * starting in the cell; its event, or NONE32 */
static inline uint32_t lane_first_in(const Summary *S, const uint32_t *glv, const int64_t *gspv, const uint32_t *goff0,
                                     uint32_t *gev0, size_t q, int64_t a, int64_t b, size_t *hq, size_t *hk)
{
    int64_t t0 = gspv[2 * q];
    if (t0 > a && t0 < b) {
        /* the lane starts inside the cell: its first segment, as the
         * search below would find it, without reading the lane (its event
         * kept for the row set's next frames) */
        uint32_t e0 = gev0[q];
        if (e0 == EV0_UNREAD) gev0[q] = e0 = S->seg_ev[goff0[q]];
        if (e0 != NONE32) return e0;
    }
    const Lane *L = &S->lanes[glv[q]];
    if (!L->n) return NONE32;
    size_t end = (size_t)L->off + L->n;
    ptrdiff_t sk;
    if (*hq == q && seg_time(S, *hk) <= a) {
        /* the lane searched for a previous cell (cells increase): forward
         * from its segment there, which is mostly in the same cache line,
         * instead of through the lane's time index */
        sk = (ptrdiff_t)seg_gallop(S, *hk, end, a, 0);
    } else {
        sk = seg_find(S, L, a, NULL);
    }
    if (sk >= 0) *hq = q, *hk = (size_t)sk;
    size_t from = sk < 0 ? L->off : (size_t)sk;
    for (size_t z = from; z < (size_t)L->off + L->n; z++) {
        int64_t tz = seg_time(S, z);
        if (tz >= b) break;
        if (S->seg_ev[z] != NONE32 && (tz >= a || z == from)) return S->seg_ev[z];
    }
    return NONE32;
}

/* probes farther apart than this many segments (on average) are looked
 * up independently (seg_find_many), nearer ones by a walk forward */
#define SPARSE_GAP 64

typedef struct {
    Summary *S;
    const RowSet *rs;
    const TimeGrid *g;
    int samples;
    size_t cell_budget;
    uint32_t *out;
    uint64_t *nk; /* (NULL: not asked for) */
    const RowLanes *RL;
    JobQueue q;
} DomCtx;

/* the display rows of a frame, one job each (2 workers: a frame's rows
 * are independent) */
static void dom_worker(void *ctx, int wk, int nw)
{
    (void)wk;
    (void)nw;
    DomCtx *c = ctx;
    Summary *S = c->S;
    const Store *s = S->s;
    const TimeGrid *g = c->g;
    int nc = g->ncell, samples = c->samples;
    size_t cell_budget = c->cell_budget;
    uint32_t *out = c->out;
    uint64_t *nk = c->nk;
    ModeHash mh = {0};
    VEC(int64_t) pt = {0};       /* a lane's probes' times, in order */
    VEC(size_t) pk = {0};        /* and the segments found */
    VEC(uint32_t) pl = {0};  /* the probes: lane (its place in the group), */
    VEC(double) pf = {0};    /* and where in each cell */
    VEC(uint32_t) hit = {0}; /* [cell][probe]: the event found */
    U32Vec coff = {0}, cl = {0}; /* per cell, the lanes whose span meets it */
    U32Vec rng = {0}, first = {0}, nxt = {0}; /* per lane its cells; per cell its first lane */
    U32Vec fbc = {0}, fbq = {0};                /* the cells the samples left empty, and their first lanes */
    VEC(size_t) segk = {0};      /* [cell][probe]: the segment found */
    VEC(uint32_t) ord = {0};     /* a lane's probes by place in the cell */
    VEC(uint64_t) hkey = {0};    /* [cell][probe]: the name key of the event found */
    size_t gj;
    while ((gj = jobq_next(&c->q)) != (size_t)-1) {
        uint32_t gi = (uint32_t)gj;
        /* the group's lanes and their spans (built for the row set) */
        const uint32_t *glv = c->RL->lane + c->RL->goff[gi];
        const int64_t *gspv = c->RL->span + 2 * (size_t)c->RL->goff[gi];
        const uint32_t *goff0 = c->RL->off0 + c->RL->goff[gi];
        uint32_t *gev0 = c->RL->ev0 + c->RL->goff[gi];
        size_t gln = c->RL->goff[gi + 1] - c->RL->goff[gi];
        pl.len = pf.len = 0;
        if (gln * (size_t)samples <= cell_budget) {
            for (size_t q = 0; q < gln; q++)
                for (int j = 0; j < samples; j++) {
                    VEC_PUSH(pl, (uint32_t)q);
                    VEC_PUSH(pf, (2.0 * j + 1) / (2.0 * samples));
                }
        } else {
            /* probe j: lane j / n of the group, at the j-th point of a
             * golden-ratio sequence over the cell (so that lanes and times
             * do not line up) */
            for (size_t j = 0; j < cell_budget; j++) {
                double f = (double)(j + 1) * 0.6180339887498949;
                VEC_PUSH(pl, (uint32_t)(j * gln / cell_budget));
                VEC_PUSH(pf, f - (double)(int64_t)f);
            }
        }
        size_t np = pl.len;
        bool cl_built = false, fl_built = false, rng_built = false;
        size_t ltcur = 0; /* (the cursor of the row's lanes by time) */
        if (gln > 8) VEC_RESERVE(rng, 2 * gln + 1);
        size_t hq = SIZE_MAX, hk = 0; /* the last lane searched in the fallback, and its segment found */
        hit.len = 0;
        VEC_RESERVE(hit, (size_t)nc * np + 1); /* (every entry set below) */
        /* the probes of a lane (consecutive in pl) walk forward through it
         * together, cell after cell and in each cell by their place in it,
         * so that the lane is read once, in order; the segments found
         * first, then their events (loads that do not wait for one
         * another) */
        segk.len = 0;
        VEC_RESERVE(segk, (size_t)nc * np + 1);
        for (size_t z = 0; z < (size_t)nc * np; z++) segk.v[z] = SIZE_MAX;
        for (size_t p0 = 0, p1; p0 < np; p0 = p1) {
            p1 = p0 + 1;
            while (p1 < np && pl.v[p1] == pl.v[p0]) p1++;
            ord.len = 0;
            for (size_t p = p0; p < p1; p++) { /* (by place in the cell: few) */
                VEC_PUSH(ord, (uint32_t)p);
                for (size_t u = ord.len - 1; u > 0 && pf.v[ord.v[u - 1]] > pf.v[ord.v[u]]; u--) {
                    uint32_t x = ord.v[u];
                    ord.v[u] = ord.v[u - 1];
                    ord.v[u - 1] = x;
                }
            }
            /* only the probes inside the lane's span [t0, t1) are looked
             * up: before it the lane has no segment, from t1 on only its
             * last, idle one (no event either way); so only the cells
             * [i0, i1] that can hold such probes get their times: the
             * first whose last probe time, max(a, b - 1), reaches t0 (b >
             * t0, or a zero-width cell at or after t0), the last with a <
             * t1 */
            size_t q = pl.v[p0];
            int64_t st0 = gspv[2 * q], st1 = gspv[2 * q + 1];
            size_t i0 = 0, i1 = 0; /* [i0, i1) */
            if (st0 <= st1) {
                size_t lo = 0, hi = (size_t)nc;
                while (lo < hi) {
                    size_t mid = lo + (hi - lo) / 2;
                    if (g->b[mid + 1] > st0 || g->b[mid] >= st0) hi = mid;
                    else lo = mid + 1;
                }
                i0 = lo;
                hi = (size_t)nc;
                while (lo < hi) {
                    size_t mid = lo + (hi - lo) / 2;
                    if (g->b[mid] < st1) lo = mid + 1;
                    else hi = mid;
                }
                i1 = lo;
            }
            if (i0 >= i1) continue; /* (segk stays SIZE_MAX) */
            const Lane *L = &S->lanes[glv[q]];
            /* the probes' times, in order */
            pt.len = 0;
            for (size_t i = i0; i < i1; i++) {
                int64_t a = g->b[i], b = g->b[i + 1];
                for (size_t u = 0; u < ord.len; u++) {
                    int64_t t = a + (int64_t)((double)(b - a) * pf.v[ord.v[u]]);
                    if (t >= b) t = b - 1;
                    if (t < a) t = a;
                    VEC_PUSH(pt, t);
                }
            }
            size_t npt = pt.len;
            if (pk.cap < npt) {
                free(pk.v);
                pk.cap = npt;
                pk.v = xmalloc(npt * sizeof(size_t));
            }
            size_t zlo = 0, zhi = 0;
            if (L->n) {
                while (zlo < npt && pt.v[zlo] < L->t0) zlo++;
                zhi = npt;
                while (zhi > zlo && pt.v[zhi - 1] >= L->t1) zhi--;
            }
            for (size_t z = 0; z < zlo; z++) pk.v[z] = SIZE_MAX;
            for (size_t z = zhi; z < npt; z++) pk.v[z] = SIZE_MAX;
            size_t nin = zhi - zlo;
            const int64_t *pin = pt.v + zlo;
            /* far apart (many segments between probes): independent
             * lookups, several at a time; else a walk forward */
            bool sparse = false;
            if (nin && L->n > SPARSE_GAP * nin) { /* (an estimate: the lane's segments spread evenly) */
                int64_t l0 = L->t0, l1 = seg_time(S, (size_t)L->off + L->n - 1);
                int64_t x0 = pin[0] > l0 ? pin[0] : l0, x1 = pin[nin - 1] < l1 ? pin[nin - 1] : l1;
                sparse = x1 > x0 && (double)L->n * (double)(x1 - x0) > (double)SPARSE_GAP * (double)nin * (double)(l1 - l0);
            }
            if (sparse) {
                seg_find_many(S, L, pin, nin, pk.v + zlo);
            } else {
                size_t k = SIZE_MAX;
                bool far = false;
                for (size_t z = 0; z < nin; z++) pk.v[zlo + z] = seg_walk(S, L, pin[z], &k, &far);
            }
            for (size_t i = i0, z = 0; i < i1; i++)
                for (size_t u = 0; u < ord.len; u++) segk.v[i * np + ord.v[u]] = pk.v[z++];
        }
        size_t nz = (size_t)nc * np;
        for (size_t z = 0; z < nz; z++) {
            if (z + 16 < nz && segk.v[z + 16] != SIZE_MAX) __builtin_prefetch(&S->seg_ev[segk.v[z + 16]]);
            hit.v[z] = segk.v[z] == SIZE_MAX ? NONE32 : S->seg_ev[segk.v[z]];
        }
        hkey.len = 0; /* (and their names' keys, the same way) */
        VEC_RESERVE(hkey, nz + 1);
        for (size_t z = 0; z < nz; z++) {
            if (z + 16 < nz && hit.v[z + 16] != NONE32) {
                __builtin_prefetch(&s->name[hit.v[z + 16]]);
                __builtin_prefetch(&s->kind[hit.v[z + 16]]);
            }
            hkey.v[z] = hit.v[z] == NONE32 ? 0 : (uint64_t)name_key(s, hit.v[z]);
        }
        uint32_t *orow = out + (size_t)gi * (size_t)nc;
        fbc.len = 0;
        for (int i = 0; i < nc; i++) {
            /* the samples by name: the name with the most samples, and
             * of it the event of its first sample (a name's first event in
             * the probes' order; ties: the name sampled first) */
            orow[i] = cell_mode(hit.v + (size_t)i * np, hkey.v + (size_t)i * np, np, &mh);
            if (orow[i] == NONE32) VEC_PUSH(fbc, (uint32_t)i);
        }
        /* nothing at the samples: an interval shorter than the sampling,
         * the first one that starts in the cell, in the first lane (in the
         * group's order) that has one; only the lanes whose span meets the
         * cell can */
        if (gln <= 8) {
            for (size_t f = 0; f < fbc.len; f++) {
                size_t i = fbc.v[f];
                int64_t a = g->b[i], b = g->b[i + 1];
                uint32_t best = NONE32;
                for (size_t q = 0; q < gln && best == NONE32; q++) best = lane_first_in(S, glv, gspv, goff0, gev0, q, a, b, &hq, &hk);
                orow[i] = best;
            }
        } else if (fbc.len) {
            /* the first lane meeting each cell, which mostly has one (from
             * the row's lanes by time, built once for the row set; for a
             * zero-width cell, from every lane's cells); the lanes' data
             * read ahead in stages for all the cells, so that their cache
             * misses overlap; then, where that lane has none, the next
             * ones meeting the cell, in order */
            if (!c->RL->lt[gi]) c->RL->lt[gi] = lanetime_build(gspv, gln);
            const LaneTime *LT = c->RL->lt[gi];
            VEC_RESERVE(fbq, fbc.len + 1);
            for (size_t f = 0; f < fbc.len; f++) {
                size_t i = fbc.v[f];
                int64_t a = g->b[i], b = g->b[i + 1];
                uint32_t q1;
                if (LT->usable && a < b) {
                    q1 = lanetime_first(LT, a, b, &ltcur);
                } else {
                    if (!fl_built) {
                        VEC_RESERVE(first, (size_t)nc + 1);
                        VEC_RESERVE(nxt, (size_t)nc + 1);
                        if (!rng_built) lane_cells(g, gspv, gln, rng.v);
                        rng_built = true;
                        first_lanes(rng.v, gln, (size_t)nc, first.v, nxt.v);
                        fl_built = true;
                    }
                    q1 = first.v[i];
                }
                fbq.v[f] = q1;
                if (q1 != NONE32) lane_first_ahead(S, glv, gspv, goff0, gev0, q1, a, b, 0);
            }
            for (int stage = 1; stage <= 2; stage++)
                for (size_t f = 0; f < fbc.len; f++)
                    if (fbq.v[f] != NONE32)
                        lane_first_ahead(S, glv, gspv, goff0, gev0, fbq.v[f], g->b[fbc.v[f]], g->b[fbc.v[f] + 1], stage);
            for (size_t f = 0; f < fbc.len; f++) {
                size_t i = fbc.v[f];
                int64_t a = g->b[i], b = g->b[i + 1];
                uint32_t q1 = fbq.v[f], best = NONE32;
                if (q1 != NONE32) best = lane_first_in(S, glv, gspv, goff0, gev0, q1, a, b, &hq, &hk);
                if (best == NONE32 && q1 != NONE32) {
                    if (!cl_built) {
                        if (!rng_built) lane_cells(g, gspv, gln, rng.v);
                        rng_built = true;
                        cells_of_lanes(g, rng.v, gln, &coff, &cl);
                        cl_built = true;
                    }
                    /* (the cell's first lane is q1, tried above) */
                    for (size_t qq = coff.v[i] + 1; qq < coff.v[i + 1] && best == NONE32; qq++)
                        best = lane_first_in(S, glv, gspv, goff0, gev0, cl.v[qq], a, b, &hq, &hk);
                }
                orow[i] = best;
            }
        }
        if (nk) {
            /* the cells' names and kinds, read here, on the row's worker
             * (the events are all over the trace: cache misses, which
             * overlap when read ahead) */
            uint64_t *krow = nk + (size_t)gi * (size_t)nc;
            for (int i = 0; i < nc; i++) {
                if (i + 16 < nc && orow[i + 16] != NONE32) {
                    __builtin_prefetch(&s->name[orow[i + 16]]);
                    __builtin_prefetch(&s->kind[orow[i + 16]]);
                }
                uint32_t e = orow[i];
                krow[i] = e == NONE32 ? UINT64_MAX : (uint64_t)s->name[e] << 16 | s->kind[e];
            }
        }
    }
    VEC_FREE(pl);
    VEC_FREE(pf);
    VEC_FREE(hit);
    VEC_FREE(coff);
    VEC_FREE(cl);
    VEC_FREE(rng);
    VEC_FREE(fbc);
    VEC_FREE(fbq);
    VEC_FREE(first);
    VEC_FREE(nxt);
    VEC_FREE(segk);
    VEC_FREE(ord);
    VEC_FREE(hkey);
    VEC_FREE(pt);
    free(pk.v);
    free(mh.slot);
    free(mh.used);
}

void rowlanes_free(RowLanes *R)
{
    if (R->lt)
        for (uint32_t g = 0; g < R->key.ng; g++) lanetime_free(R->lt[g]);
    rowkey_free(&R->key);
    free(R->goff);
    xfree_big(R->span, R->bytes); /* (span, lane, off0 and ev0: one block) */
    free(R->lt);
    memset(R, 0, sizeof *R);
}

size_t rowlanes_bytes(const RowLanes *R)
{
    if (!R->goff) return 0;
    size_t b = rowkey_bytes(&R->key) + ((size_t)R->key.ng + 1) * (4 + sizeof(LaneTime *)) + (size_t)R->goff[R->key.ng] * (4 + 16 + 4 + 4);
    for (uint32_t g = 0; g < R->key.ng; g++) b += lanetime_bytes(R->lt[g]);
    return b;
}

/* What row_lanes(S, rk, row) reads, read ahead in stages (its offset,
 * then its first lane's number, then that lane): the rows of a row set in
 * spawn-tree order are far apart */
static inline void row_lanes_ahead(const Summary *S, RowKind rk, uint32_t row, int stage)
{
    const uint32_t *off = rk == ROWS_LOC ? S->loc_off : S->act_off, *ls = rk == ROWS_LOC ? S->loc_lanes : S->act_lanes;
    if (stage == 0) __builtin_prefetch(&off[row]);
    else if (stage == 1) __builtin_prefetch(&ls[off[row]]);
    else if (off[row] < off[row + 1]) __builtin_prefetch(&S->lanes[ls[off[row]]]);
}

/* S->rowlanes for rs (rebuilt when the row set or its grouping changes):
 * a frame then reads each group's lanes and spans in order, instead of
 * each member's lanes and each lane wherever they are */
static const RowLanes *rowlanes_get(Summary *S, const RowSet *rs)
{
    RowLanes *R = &S->rowlanes;
    part_use(S, PART_ROWLANES);
    if (R->goff && rowkey_matches(&R->key, rs)) return R;
    rowlanes_free(R);
    part_reserve(S, PART_ROWLANES, 0);
    rowkey_set(&R->key, rs);
    R->goff = xmalloc(((size_t)rs->ng + 1) * sizeof(uint32_t));
    R->lt = xcalloc((size_t)rs->ng + 1, sizeof(LaneTime *));
    size_t n = 0;
    for (uint32_t k = 0; k < rs->n; k++) {
        if (k + 16 < rs->n) row_lanes_ahead(S, rs->kind, rs->ids[k + 16], 0);
        uint32_t nl;
        row_lanes(S, rs->kind, rs->ids[k], &nl);
        n += nl;
    }
    /* (one big block: the big-block recycler's pages for the
     * 200,000 lanes of a task runtime, instead of four arrays faulted in
     * page by page at the first frame) */
    R->bytes = (2 * n + 1) * sizeof(int64_t) + 3 * (n + 1) * sizeof(uint32_t);
    R->span = xmalloc_big(R->bytes);
    R->lane = (uint32_t *)(R->span + 2 * n + 1);
    R->off0 = R->lane + n + 1;
    R->ev0 = R->off0 + n + 1;
    for (size_t k = 0; k <= n; k++) R->ev0[k] = EV0_UNREAD;
    size_t o = 0;
    for (uint32_t gi = 0; gi < rs->ng; gi++) {
        R->goff[gi] = (uint32_t)o;
        for (uint32_t k = rowset_first(rs, gi); k < rowset_end(rs, gi); k++) {
            for (int st = 0; st < 3; st++)
                if (k + 24 - 8 * st < rs->n) row_lanes_ahead(S, rs->kind, rs->ids[k + 24 - 8 * st], st);
            uint32_t nl;
            const uint32_t *ls = row_lanes(S, rs->kind, rs->ids[k], &nl);
            for (uint32_t q = 0; q < nl; q++, o++) {
                const Lane *L = &S->lanes[ls[q]];
                R->lane[o] = ls[q];
                R->span[2 * o] = L->n ? L->t0 : INT64_MAX;
                R->span[2 * o + 1] = L->n ? L->t1 : INT64_MIN;
                R->off0[o] = L->n ? L->off : 0;
            }
        }
    }
    R->goff[rs->ng] = (uint32_t)o;
    part_built(S, PART_ROWLANES);
    return R;
}

void agg_dominant(Summary *S, const RowSet *rs, const TimeGrid *g, int samples, uint32_t *out, uint64_t *nk)
{
    int nc = g->ncell;
    if (nc <= 0) return;
    /* at most about 120,000 lookups, so that a frame's cost stays bounded
     * by its cells: fewer samples per lane when the frame has many lanes,
     * and when a group has more lanes than a cell's share of the budget,
     * that many samples spread over its lanes and the cell's time */
    const RowLanes *RL = rowlanes_get(S, rs);
    size_t lanes = RL->goff[rs->ng];
    size_t budget = 120000 / ((lanes ? lanes : 1) * (size_t)nc);
    if ((size_t)samples > budget) samples = (int)budget;
    if (samples < 2) samples = 2;
    size_t cell_budget = 120000 / ((size_t)(rs->ng ? rs->ng : 1) * (size_t)nc);
    if (cell_budget < 4) cell_budget = 4;
    /* (the workers only read the lanes and RL, built above) */
    DomCtx c = {S, rs, g, samples, cell_budget, out, nk, RL, {0}};
    jobq_init(&c.q, rs->ng);
    par_run(rs->ng >= 8 && S->threads > 1 ? 2 : 1, dom_worker, &c);
    part_built(S, PART_ROWLANES); /* (the rows' lanes by time the workers built) */
}

