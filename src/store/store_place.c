/*
 * store_place.c — steps 4 and 5 of the store's build (store_build.c
 * drives them): every row placed at its event number, the dense columns
 * scattered into location order, then each location's events put in time
 * order; and the build's warm memory (the batches' arrays no longer read,
 * handed to arrays the build writes whole; those left over go to the
 * build's page pool when pages can be moved, see base/pages.h).
 *
 * Owns: nothing beyond one store_build call; works on its Build.
 * Invariants: a row's event number is the start of its (batch, location)
 * run plus its rank within it, so the result does not depend on the
 * number of workers; a location's events end in time order with ties in
 * input order; newpos / moved record exactly the events that moved.
 */
#include <stdlib.h>
#include <string.h>

#include "store_build_int.h"
#include "base/pages.h"
#include "base/par.h"
#include "base/util.h"

/* ---- 4. placing rows ---------------------------------------------------- */

/* Placement runs in passes, each one batch a worker: first every row's
 * event number (dest) and global pair from its key, then one column at a
 * time, so that only one batch column is held twice; the pages of a batch
 * column already read go back to the system as the scatter advances (the
 * store's column grows by as much as the batch's shrinks). Where pages
 * can be moved (pages.h), a batch column read whole is instead kept, given
 * to the build's page pool after the pass (store_build.c), and the next
 * passes' store columns (name, kind, ts) take its pages: no fresh memory
 * for them, and the peak is the same (the dur pass ends holding as much).
 * The batches' ts arrays, placed last, are kept whole either way: warm
 * memory for the build's next arrays of 4 bytes an event (see take_warm). */

/* Give back the pages of p[0..done bytes) not yet given back (*rel). */
static void release_read(void *p, size_t done, size_t *rel)
{
    if (done < *rel + ((size_t)4 << 20)) return;
    mem_release((char *)p + *rel, done - *rel);
    *rel = done & ~(size_t)4095;
}

#define PLACE_STEP ((size_t)1 << 18) /* rows between two release_read */

void place_worker(void *ctx, int w, int nw)
{
    (void)w;
    (void)nw;
    Build *B = ctx;
    Store *s = B->s;
    size_t b;
    while ((b = jobq_next(&B->q)) != (size_t)-1) {
        Batch *bt = B->bs[b];
        size_t m = bt->n, rel = 0;
        uint32_t *d = B->dest[b];
        switch (B->place_pass) {
        case PLACE_DEST: {
            uint32_t *cur = xmalloc(((size_t)s->nloc + 1) * sizeof(uint32_t));
            memcpy(cur, B->start[b], (size_t)s->nloc * sizeof(uint32_t));
            /* each row's event number written over its akey, which is
             * not read again: the batch's akey array becomes its dest
             * (no fresh pages for it) */
            d = bt->akey;
            const uint32_t *pl = B->ploc[b], *pm = B->premap[b];
            for (size_t r = 0; r < m; r++) {
                uint32_t ak = d[r];
                uint32_t pos = cur[pl[ak]]++;
                d[r] = pos;
                B->pair[pos] = pm[ak];
            }
            B->dest[b] = d;
            B->dest_bytes[b] = bt->cap * sizeof *bt->akey;
            free(cur);
            bt->akey = NULL;
            break;
        }
        case PLACE_TS:
            for (size_t r = 0; r < m; r++) s->ts[d[r]] = bt->ts[r];
            B->warm[b].p = bt->ts;
            B->warm[b].bytes = bt->cap * sizeof *bt->ts;
            bt->ts = NULL;
            break;
        case PLACE_DUR:
            for (size_t r0 = 0; r0 < m; r0 += PLACE_STEP) {
                size_t r1 = m - r0 < PLACE_STEP ? m : r0 + PLACE_STEP;
                for (size_t r = r0; r < r1; r++) {
                    uint32_t pos = d[r];
                    int64_t du = bt->dur[r];
                    s->dur[pos] = du < 0 ? 0 : du;
                    s->flags[pos] = du >= 0 ? EVF_DUR : 0;
                }
                if (r1 - r0 == PLACE_STEP && !B->move) release_read(bt->dur, (r1 - 1) * sizeof *bt->dur, &rel);
            }
            if (B->move) break; /* (given to the page pool after the pass) */
            mem_release(bt->dur, bt->cap * sizeof *bt->dur);
            xfree_big(bt->dur, bt->cap * sizeof *bt->dur);
            bt->dur = NULL;
            break;
        case PLACE_NAME: {
            const uint32_t *rm = B->nremap[b];
            for (size_t r0 = 0; r0 < m; r0 += PLACE_STEP) {
                size_t r1 = m - r0 < PLACE_STEP ? m : r0 + PLACE_STEP;
                for (size_t r = r0; r < r1; r++) {
                    uint32_t nm = bt->name[r];
                    s->name[d[r]] = nm == NONE32 ? NONE32 : rm[nm];
                }
                if (r1 - r0 == PLACE_STEP && !B->move) release_read(bt->name, (r1 - 1) * sizeof *bt->name, &rel);
            }
            if (B->move) break; /* (given to the page pool after the pass) */
            mem_release(bt->name, bt->cap * sizeof *bt->name);
            xfree_big(bt->name, bt->cap * sizeof *bt->name);
            bt->name = NULL;
            break;
        }
        case PLACE_KIND: {
            const uint16_t *km = B->kremap[b];
            size_t nc = 0; /* (communication events: for the page pool's trim) */
            for (size_t r = 0; r < m; r++) {
                uint16_t k = bt->kind[r];
                s->kind[d[r]] = k < K_USER ? k : km[k - K_USER];
                nc += k == K_SEND || k == K_RECV || k == K_MSG;
            }
            atomic_fetch_add(&B->ncomm, nc);
            if (B->move) break; /* (given to the page pool after the pass) */
            mem_release(bt->kind, bt->cap * sizeof *bt->kind);
            xfree_big(bt->kind, bt->cap * sizeof *bt->kind);
            bt->kind = NULL;
            break;
        }
        }
    }
}

/* Warm memory: big arrays of the batches that the build no longer reads,
 * whose pages are touched (on this VM a fresh page costs as much as
 * writing it several times over); an array the build writes whole takes
 * one of them rather than fresh memory. */

/* The smallest warm block of at least bytes, its pages past them given
 * back; else fresh memory (xmalloc_big). Freed with free(). */
void *take_warm(Build *B, size_t bytes)
{
    size_t best = (size_t)-1;
    for (size_t i = 0; i < 2 * B->nb; i++)
        if (B->warm[i].p && B->warm[i].bytes >= bytes && (best == (size_t)-1 || B->warm[i].bytes < B->warm[best].bytes))
            best = i;
    if (best == (size_t)-1) return xmalloc_big(bytes);
    void *p = B->warm[best].p;
    mem_release((char *)p + bytes, B->warm[best].bytes - bytes);
    B->warm[best].p = NULL;
    return p;
}

/* Hand a block from take_warm back, for a later take_warm. */
void give_warm(Build *B, void *p, size_t bytes)
{
    for (size_t i = 0; i < 2 * B->nb; i++)
        if (!B->warm[i].p) {
            B->warm[i].p = p;
            B->warm[i].bytes = bytes;
            return;
        }
    free(p); /* (not reached: take_warm emptied a slot or had none to give) */
}

/* Keep the k largest warm blocks of at least bytes; give the others back. */
void warm_keep(Build *B, int k, size_t bytes)
{
    for (size_t i = 0; i < 2 * B->nb; i++) {
        if (!B->warm[i].p) continue;
        int larger = 0;
        for (size_t j = 0; j < 2 * B->nb; j++)
            if (j != i && B->warm[j].p &&
                (B->warm[j].bytes > B->warm[i].bytes || (B->warm[j].bytes == B->warm[i].bytes && j < i)))
                larger++;
        if (larger < k && B->warm[i].bytes >= bytes) continue;
        if (B->move) {
            pages_give(&B->pool, B->warm[i].p, B->warm[i].bytes, B->warm[i].bytes);
        } else {
            mem_release(B->warm[i].p, B->warm[i].bytes);
            xfree_big(B->warm[i].p, B->warm[i].bytes);
        }
        B->warm[i].p = NULL;
    }
}

/* ---- 5. time order inside locations ------------------------------------ */

/* Put the events of a location in time order when they are not. Input in
 * time order leaves only ties out of place (an inner interval written before
 * the outer one that starts with it), so a bounded insertion sort on the
 * arrays themselves usually finishes in one pass; when it does not, the
 * segment is merge-sorted. Moved positions are recorded in newpos and
 * marked in the moved bitmap. */
/* The first event of each pair at a location in time order (a pair's
 * events are all on its location: the location's worker owns it). */
static void pair_firsts(Build *B, size_t a, size_t m)
{
    uint32_t *pf = B->pair_first;
    const uint32_t *pr = B->pair;
    for (size_t i = a; i < a + m; i++)
        if (pf[pr[i]] == NONE32) pf[pr[i]] = (uint32_t)i;
}

void locsort_worker(void *ctx, int w, int nw)
{
    (void)w;
    (void)nw;
    Build *B = ctx;
    Store *s = B->s;
    uint32_t *idx = NULL, *tmp = NULL;
    void *buf = NULL;
    size_t cap = 0;
    size_t l;
    while ((l = jobq_next(&B->q)) != (size_t)-1) {
        size_t a = s->locs[l].first, m = s->locs[l].count;
        /* (the location marked and its order checked in one pass: i0, the
         * first event out of order) */
        uint32_t *lc = s->loc;
        const int64_t *ts = s->ts, *du = s->dur;
        if (m) lc[a] = (uint32_t)l;
        size_t i0 = a + 1;
        for (; i0 < a + m; i0++) {
            lc[i0] = (uint32_t)l;
            if (ts[i0] < ts[i0 - 1] || (ts[i0] == ts[i0 - 1] && du[i0] > du[i0 - 1])) break;
        }
        for (size_t i = i0; i < a + m; i++) lc[i] = (uint32_t)l;
        if (i0 >= a + m) { /* already in order */
            pair_firsts(B, a, m);
            continue;
        }
        if (m > cap) {
            cap = m;
            idx = xrealloc(idx, cap * sizeof *idx);
            tmp = xrealloc(tmp, cap * sizeof *tmp);
            buf = xrealloc(buf, cap * 8);
        }
        for (size_t i = 0; i < m; i++) idx[i] = (uint32_t)i; /* segment offsets of the original events */
        /* bounded insertion sort on the arrays (a moving element keeps its
         * original offset in idx; ties are broken by the original order) */
        size_t moves = 0, budget = 8 * m + 1024;
        bool ok = true;
        for (size_t i = i0 - a; i < m && ok; i++) {
            size_t j = i;
            int64_t t = s->ts[a + i], d = s->dur[a + i];
            uint32_t o = idx[i];
            while (j > 0) {
                int64_t tj = s->ts[a + j - 1], dj = s->dur[a + j - 1];
                bool before = t != tj ? t < tj : d != dj ? d > dj : o < idx[j - 1];
                if (!before) break;
                j--;
            }
            if (j == i) continue;
            moves += i - j;
            if (moves > budget) {
                ok = false;
                break;
            }
            uint32_t nm = s->name[a + i], pr = B->pair[a + i];
            uint16_t kd = s->kind[a + i];
            uint8_t fl = s->flags[a + i];
            size_t cnt = i - j;
            memmove(&s->ts[a + j + 1], &s->ts[a + j], cnt * sizeof(int64_t));
            memmove(&s->dur[a + j + 1], &s->dur[a + j], cnt * sizeof(int64_t));
            memmove(&s->name[a + j + 1], &s->name[a + j], cnt * sizeof(uint32_t));
            memmove(&B->pair[a + j + 1], &B->pair[a + j], cnt * sizeof(uint32_t));
            memmove(&s->kind[a + j + 1], &s->kind[a + j], cnt * sizeof(uint16_t));
            memmove(&s->flags[a + j + 1], &s->flags[a + j], cnt);
            memmove(&idx[j + 1], &idx[j], cnt * sizeof(uint32_t));
            s->ts[a + j] = t;
            s->dur[a + j] = d;
            s->name[a + j] = nm;
            B->pair[a + j] = pr;
            s->kind[a + j] = kd;
            s->flags[a + j] = fl;
            idx[j] = o;
        }
        if (!ok) {
            /* far from sorted: restore the original order, then merge sort
             * (sort_events breaks ties by event number, i.e. original order) */
#define UNDO(arr, T)                                                           \
    do {                                                                       \
        T *t_ = buf;                                                           \
        for (size_t i = 0; i < m; i++) t_[idx[i]] = (arr)[a + i];              \
        memcpy((arr) + a, t_, m * sizeof(T));                                  \
    } while (0)
            UNDO(s->ts, int64_t);
            UNDO(s->dur, int64_t);
            UNDO(s->name, uint32_t);
            UNDO(s->kind, uint16_t);
            UNDO(s->flags, uint8_t);
            UNDO(B->pair, uint32_t);
#undef UNDO
            uint32_t *ord = tmp; /* ord[k] = position of the k-th element in time order */
            for (size_t i = 0; i < m; i++) ord[i] = (uint32_t)(a + i);
            uint32_t *t2 = xmalloc(m * sizeof(uint32_t));
            sort_events(ord, t2, m, s->ts, s->dur);
            free(t2);
#define PERMUTE(arr, T)                                                        \
    do {                                                                       \
        T *t_ = buf;                                                           \
        for (size_t i = 0; i < m; i++) t_[i] = (arr)[ord[i]];                  \
        memcpy((arr) + a, t_, m * sizeof(T));                                  \
    } while (0)
            PERMUTE(s->ts, int64_t);
            PERMUTE(s->dur, int64_t);
            PERMUTE(s->name, uint32_t);
            PERMUTE(s->kind, uint16_t);
            PERMUTE(s->flags, uint8_t);
            PERMUTE(B->pair, uint32_t);
#undef PERMUTE
            for (size_t i = 0; i < m; i++) idx[i] = ord[i] - (uint32_t)a;
        }
        for (size_t i = 0; i < m; i++) {
            if (idx[i] == i) continue;
            size_t from = a + idx[i];
            B->newpos[from] = (uint32_t)(a + i);
            __atomic_fetch_or(&B->moved[from >> 6], 1ULL << (from & 63), __ATOMIC_RELAXED);
        }
        atomic_store(&B->resorted, true);
        pair_firsts(B, a, m);
    }
    free(idx);
    free(tmp);
    free(buf);
}

void redest_worker(void *ctx, int w, int nw)
{
    (void)w;
    (void)nw;
    Build *B = ctx;
    size_t b;
    while ((b = jobq_next(&B->q)) != (size_t)-1) {
        uint32_t *d = B->dest[b];
        const uint64_t *mv = B->moved;
        for (size_t r = 0; r < B->bs[b]->n; r++) {
            uint32_t x = d[r];
            if ((mv[x >> 6] >> (x & 63)) & 1) d[r] = B->newpos[x];
        }
    }
}
