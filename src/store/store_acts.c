/*
 * store_acts.c — step 7 of the build: activities.
 *
 * Owns: the (location, act label) pairs and their union-find (a move joins
 * the pair at its destination; a spawn creates one), the activities' order
 * (home location; those with an explicit place first, by it; first time,
 * label, pair), the act column, the
 * per-activity index act_ev (a parallel counting sort), depths (the open
 * interval ends per activity as a sorted stack, a min-heap when deep; in
 * parallel), moves, parents; it
 * runs the sync groups (store_msgs.c) on a second worker while the first
 * does moves and parents, both then joining the others on the depths
 * (disjoint fields/arrays).
 * Invariants: see store.h (act_ev sorted per activity, depth = nesting
 * level); the result does not depend on the number of workers.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "store_build_int.h"
#include "base/par.h"
#include "base/timeparse.h"
#include "base/util.h"

uint32_t gp_get(Build *B, uint32_t loc, uint32_t act, bool create)
{
    bool created = false;
    uint32_t id = km_get(&B->pairs, loc, act, 0, create, &created);
    if (id == NONE32) return NONE32;
    if (created) {
        /* (grown with the map's capacity, not on every new pair) */
        uint32_t cap = B->pairs.cap;
        if (cap != B->gp_cap) {
            B->gp_loc = xrealloc(B->gp_loc, cap * sizeof(uint32_t));
            B->gp_act = xrealloc(B->gp_act, cap * sizeof(uint32_t));
            B->uf = xrealloc(B->uf, cap * sizeof(uint32_t));
            B->gp_cap = cap;
        }
        B->gp_loc[id] = loc;
        B->gp_act[id] = act;
        B->uf[id] = id;
    }
    return id;
}

uint32_t uf_find(uint32_t *uf, uint32_t x)
{
    while (uf[x] != x) {
        uf[x] = uf[uf[x]];
        x = uf[x];
    }
    return x;
}

void uf_union(uint32_t *uf, uint32_t a, uint32_t b)
{
    a = uf_find(uf, a);
    b = uf_find(uf, b);
    if (a == b) return;
    if (a < b) uf[b] = a; /* the older pair stays the root */
    else uf[a] = b;
}

static void fmt_double(char *buf, size_t sz, double v)
{
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, sz, "%.*g", prec, v);
        if (strtod(buf, NULL) == v) return;
    }
}

/* ---- 7. activities ------------------------------------------------------- */

/* The string id at event e of a column (as col_get_s gives it), read
 * through a cursor: events come in increasing order. */
static bool cur_s(ColCur *cc, size_t e, uint32_t *out)
{
    size_t k;
    const Column *c = cc->c;
    if (!c || (c->type != VT_STR && c->type != VT_LOC && c->type != VT_MIXED) || !colcur_slot(cc, e, &k)) return false;
    if (c->type == VT_MIXED) {
        if (c->vtype[k] != VT_STR) return false;
        *out = (uint32_t)c->v.i[k];
        return true;
    }
    *out = col_sid_at(c, k);
    return true;
}

/* The label string id a spawn's `id` names (an integer or a float as
 * text, a string as it is), read through a cursor. */
static uint32_t id_label_sid(Store *s, ColCur *cc, size_t e)
{
    size_t k;
    const Column *c = cc->c;
    char buf[64];
    if (!c || !colcur_slot(cc, e, &k)) return NONE32;
    uint64_t p;
    uint8_t t = col_slot_value(c, k, &p);
    if (t == VT_INT) {
        size_t bl = fmt_i64(buf, (int64_t)p);
        return strtab_intern(&s->strs, buf, bl);
    }
    if (t == VT_FLT) {
        double dv;
        memcpy(&dv, &p, sizeof dv);
        fmt_double(buf, sizeof buf, dv);
        return strtab_intern(&s->strs, buf, strlen(buf));
    }
    if (t == VT_STR || t == VT_LOC) return (uint32_t)p;
    return NONE32;
}

typedef struct ActEv ActEv;

typedef struct {
    Build *B;
    uint32_t *act_of_root;
    uint32_t **cnt; /* per worker: per activity count, then start */
    int nw;
    /* for the serial rest (moves, parents, then sync groups) */
    ActEv *moves;
    size_t nmoves;
    bool groups;
    /* per activity: whether it joins several pairs (NULL: none does); one
     * pair's events are on one location, in time order already */
    uint8_t *multi;
} ActCtx;

static void act_assign_worker(void *ctx, int w, int nw)
{
    ActCtx *A = ctx;
    Store *s = A->B->s;
    size_t n = s->n, a0 = n * (size_t)w / (size_t)nw, a1 = n * (size_t)(w + 1) / (size_t)nw;
    uint32_t *cnt = A->cnt[w];
    for (size_t e = a0; e < a1; e++) {
        uint32_t a = A->act_of_root[A->B->pair[e]];
        s->act[e] = a;
        cnt[a]++;
    }
}

static void act_scatter_worker(void *ctx, int w, int nw)
{
    ActCtx *A = ctx;
    Store *s = A->B->s;
    size_t n = s->n, a0 = n * (size_t)w / (size_t)nw, a1 = n * (size_t)(w + 1) / (size_t)nw;
    uint32_t *cur = A->cnt[w];
    for (size_t e = a0; e < a1; e++) s->act_ev[cur[s->act[e]]++] = (uint32_t)e;
}

static void act_detail_worker(void *ctx, int w, int nw)
{
    (void)w;
    (void)nw;
    ActCtx *A = ctx;
    Build *B = A->B;
    Store *s = B->s;
    uint32_t *seen_loc = xmalloc(((size_t)s->nloc + 1) * sizeof(uint32_t));
    for (uint32_t l = 0; l < s->nloc; l++) seen_loc[l] = NONE32;
    int64_t *heap = NULL;
    size_t hcap = 0;
    uint32_t *tmp = NULL;
    size_t tcap = 0;
    unsigned maxd = 0;
    /* (the store's arrays read once: the loop's stores could alias them) */
    const int64_t *ts = s->ts, *dur = s->dur;
    const uint16_t *kind = s->kind;
    const uint8_t *flags = s->flags;
    const uint32_t *locs = s->loc;
    uint16_t *depth = s->depth;
    size_t a;
    while ((a = jobq_next(&B->q)) != (size_t)-1) {
        Activity *Ac = &s->acts[a];
        uint32_t *v = s->act_ev + s->act_off[a];
        size_t m = s->act_off[a + 1] - s->act_off[a];
        bool multi = A->multi && A->multi[a];
        if (multi && !events_sorted(v, m, ts, dur)) {
            if (m > tcap) {
                tcap = m;
                tmp = xrealloc(tmp, tcap * sizeof *tmp);
            }
            sort_events(v, tmp, m, ts, dur);
        }
        Ac->nev = (uint32_t)m;
        /* the ends of the open intervals: a stack sorted by end, the
         * smallest on top (nested intervals, the usual case, push on top
         * and pop from it), made a min-heap for the rest of the activity
         * when an end would go deeper than a few places; either holds the
         * same ends, so the depth (their count) is the same */
        size_t hn = 0;
        bool isheap = false;
        int64_t last_end = Ac->last_end;
        uint32_t end_ev = Ac->end_ev;
        for (size_t i = 0; i < m; i++) {
            uint32_t e = v[i];
            int64_t t = ts[e];
            if (LIKELY(!isheap)) {
                while (hn && heap[hn - 1] <= t) hn--;
            } else {
                /* pop the intervals that ended at or before t (a min-heap of ends) */
                while (hn && heap[0] <= t) {
                    heap[0] = heap[--hn];
                    size_t j = 0;
                    for (;;) {
                        size_t l = 2 * j + 1, r = l + 1, sm = j;
                        if (l < hn && heap[l] < heap[sm]) sm = l;
                        if (r < hn && heap[r] < heap[sm]) sm = r;
                        if (sm == j) break;
                        int64_t x = heap[j];
                        heap[j] = heap[sm];
                        heap[sm] = x;
                        j = sm;
                    }
                }
            }
            uint16_t d = hn > 65535 ? 65535 : (uint16_t)hn;
            depth[e] = d;
            if (d > maxd) maxd = d;
            uint16_t k = kind[e];
            if ((flags[e] & EVF_DUR) && k != K_MSG) {
                if (hn == hcap) {
                    hcap = hcap ? hcap * 2 : 64;
                    heap = xrealloc(heap, hcap * sizeof *heap);
                }
                int64_t x = t + dur[e];
                if (LIKELY(!isheap)) {
                    size_t j = hn;
                    while (j && heap[j - 1] < x && hn - j < 8) j--;
                    if (!j || heap[j - 1] >= x) {
                        for (size_t q = hn; q > j; q--) heap[q] = heap[q - 1];
                        heap[j] = x;
                        hn++;
                        goto pushed;
                    }
                    /* (ascending: a min-heap) */
                    for (size_t lo = 0, hi = hn; lo + 1 < hi; lo++, hi--) {
                        int64_t y = heap[lo];
                        heap[lo] = heap[hi - 1];
                        heap[hi - 1] = y;
                    }
                    isheap = true;
                }
                size_t j = hn++;
                heap[j] = x;
                while (j > 0 && heap[(j - 1) / 2] > heap[j]) {
                    int64_t y = heap[j];
                    heap[j] = heap[(j - 1) / 2];
                    heap[(j - 1) / 2] = y;
                    j = (j - 1) / 2;
                }
            pushed:;
            }
            int64_t en = t + dur[e];
            if (en > last_end) last_end = en;
            if (k == K_END) end_ev = e;
            if (multi && seen_loc[locs[e]] != a) {
                seen_loc[locs[e]] = (uint32_t)a;
                Ac->nlocs++;
            }
        }
        Ac->last_end = last_end;
        Ac->end_ev = end_ev;
        if (!multi && m) Ac->nlocs = 1; /* (one pair: one location) */
        if (m) Ac->first_ts = ts[v[0]];
    }
    unsigned cur = atomic_load(&B->max_depth);
    while (maxd > cur && !atomic_compare_exchange_weak(&B->max_depth, &cur, maxd)) {
    }
    free(seen_loc);
    free(heap);
    free(tmp);
}

struct ActEv {
    uint32_t act, ev;
};

static const Store *g_mv_store;
static int move_cmp(const void *x, const void *y)
{
    const ActEv *a = x, *b = y;
    if (a->act != b->act) return a->act < b->act ? -1 : 1;
    if (a->ev == b->ev) return 0;
    return ev_before_raw(g_mv_store->ts, g_mv_store->dur, a->ev, b->ev) ? -1 : 1;
}

/* The serial rest of the activities: moves, parents. */
static void act_moves_parents(ActCtx *A)
{
    Build *B = A->B;
    Store *s = B->s;
    size_t n = s->n;
    uint32_t nr = s->nact;
    uint32_t *act_of_root = A->act_of_root;
    ActEv *mv = A->moves;
    size_t nmv = A->nmoves;
    const Column *parc = store_canon_col(s, F_PARENT);
    /* moves of each activity, in its time order */
    for (size_t i = 0; i < nmv; i++) mv[i].act = s->act[mv[i].ev];
    g_mv_store = s;
    if (nmv) qsort(mv, nmv, sizeof(ActEv), move_cmp);
    s->moves = xmalloc((nmv + 1) * sizeof(uint32_t));
    s->nmoves = (uint32_t)nmv;
    for (size_t i = 0; i < nmv; i++) {
        s->moves[i] = mv[i].ev;
        Activity *Ac = &s->acts[mv[i].act];
        if (!Ac->nmoves) Ac->moves_off = (uint32_t)i;
        Ac->nmoves++;
    }

    /* parents: an explicit `parent` label (the activity with that label at
     * the event's location, else the only activity with that label), else
     * the activity of the spawn event that created it */
    /* per label string id: the activity with that label (0: none, else
     * the activity + 1; UINT32_MAX once two have it). Labels are interned
     * last, a range of the dictionary: calloc's pages past them untouched */
    uint32_t nls = s->strs.count;
    uint32_t *label_act = xcalloc((size_t)nls + 1, sizeof(uint32_t));
    for (uint32_t a = 0; a < nr; a++) {
        uint32_t lab = s->acts[a].label;
        if (lab == NONE32 || lab >= nls) continue;
        label_act[lab] = label_act[lab] ? UINT32_MAX : a + 1;
    }
    if (parc) {
        /* each activity's first event (in its order) that names a parent */
        uint32_t *pev = xmalloc(((size_t)nr + 1) * sizeof(uint32_t));
        uint32_t *pslot = xmalloc(((size_t)nr + 1) * sizeof(uint32_t)); /* its slot in parc */
        for (uint32_t a = 0; a < nr; a++) pev[a] = NONE32;
        size_t np2 = parc->sparse ? parc->npresent : n;
        for (size_t i = 0; i < np2; i++) {
            uint32_t e = parc->sparse ? parc->rows[i] : (uint32_t)i;
            if (!parc->sparse && parc->bits && !((parc->bits[e >> 6] >> (e & 63)) & 1)) continue;
            uint32_t a = s->act[e];
            if (pev[a] == NONE32 || ev_before_raw(s->ts, s->dur, e, pev[a])) {
                pev[a] = e;
                pslot[a] = (uint32_t)i;
            }
        }
        bool pstr = parc->type == VT_STR || parc->type == VT_LOC || parc->type == VT_MIXED;
        for (uint32_t a = 0; a < nr; a++) {
            if (pev[a] == NONE32 || !pstr) continue;
            Activity *Ac = &s->acts[a];
            /* (as col_get_s, at the slot found above) */
            uint32_t lab, k = pslot[a];
            if (parc->type == VT_MIXED) {
                if (parc->vtype[k] != VT_STR) continue;
                lab = (uint32_t)parc->v.i[k];
            } else {
                lab = col_sid_at(parc, k);
            }
            uint32_t pa = NONE32;
            uint32_t p = gp_get(B, s->loc[pev[a]], lab, false);
            if (p != NONE32) pa = act_of_root[uf_find(B->uf, p)];
            if (pa == NONE32 && lab < nls && label_act[lab] && label_act[lab] != UINT32_MAX) pa = label_act[lab] - 1;
            if (pa == NONE32) Ac->parent_label = lab;
            Ac->parent = pa;
        }
        free(pev);
        free(pslot);
    }
    for (uint32_t a = 0; a < nr; a++) {
        Activity *Ac = &s->acts[a];
        if (Ac->parent == NONE32 && Ac->parent_label == NONE32 && Ac->spawn_ev != NONE32)
            Ac->parent = s->act[Ac->spawn_ev];
        if (Ac->parent == a) Ac->parent = NONE32;
    }
    free(label_act);
}

/* Worker 0 first does the serial rest (moves, parents), worker 1 the sync
 * groups (worker 0 both when alone), then they join the others on the
 * details. */
static void act_rest_worker(void *ctx, int w, int nw)
{
    ActCtx *A = ctx;
    if (w == 0) {
        act_moves_parents(A);
        if (A->groups && nw < 2) build_groups(A->B->s, 1);
    } else if (w == 1 && A->groups) {
        /* (beside the serial rest and the messages, on as many workers:
         * a few big groups, 10,000 locations at each barrier, are still
         * being sorted when the rest is done) */
        build_groups(A->B->s, A->B->threads);
    }
    act_detail_worker(ctx, w, nw);
}

void build_activities(Build *B, bool groups)
{
    Store *s = B->s;
    size_t n = s->n;
    const Column *peer = store_canon_col(s, F_PEER), *idc = store_canon_col(s, F_ID);
    /* moves join pairs; spawns create pairs */
    VEC(uint32_t) spawned_pair = {0};
    VEC(uint32_t) spawned_by = {0};
    VEC(ActEv) moves = {0};
    bool unions = false;
    /* (the columns read through cursors: no search per event) */
    ColCur cpeer = {peer, 0}, cid = {idc, 0};
    for (size_t e = 0; e < n; e++) {
        uint16_t k = s->kind[e];
        if (LIKELY(k != K_MOVE && k != K_SPAWN)) continue;
        if (k == K_MOVE) {
            uint32_t p, lab = B->gp_act[B->pair[e]];
            ActEv me = {0, (uint32_t)e};
            VEC_PUSH(moves, me);
            if (lab != NONE32 && cur_s(&cpeer, e, &p)) {
                uint32_t tp = gp_get(B, p, lab, true);
                uf_union(B->uf, B->pair[e], tp);
                unions = true;
            }
        } else {
            uint32_t lab = id_label_sid(s, &cid, e);
            if (lab == NONE32) continue;
            uint32_t p;
            if (!cur_s(&cpeer, e, &p)) p = s->loc[e];
            uint32_t cp = gp_get(B, p, lab, true);
            VEC_PUSH(spawned_pair, cp);
            VEC_PUSH(spawned_by, (uint32_t)e);
        }
    }
    uint32_t np = B->pairs.n;
    if (unions) {
        for (uint32_t p = 0; p < np; p++) B->uf[p] = uf_find(B->uf, p);
        for (size_t e = 0; e < n; e++) B->pair[e] = B->uf[B->pair[e]];
    }
    int64_t *first_ts = xmalloc((size_t)np * sizeof(int64_t));
    uint32_t *home = xmalloc((size_t)np * sizeof(uint32_t));
    uint32_t *spawn_ev = xmalloc((size_t)np * sizeof(uint32_t));
    uint8_t *live = xcalloc(np, 1);
    for (uint32_t p = 0; p < np; p++) {
        first_ts[p] = INT64_MAX;
        home[p] = NONE32;
        spawn_ev[p] = NONE32;
    }
    /* each activity's first event (the earliest, the first in event order
     * among equal times): the earliest of its pairs' first events, which
     * the time order step found (pair_first; a pair's events are all on
     * its location, in time order) */
    {
        uint32_t *fe = xmalloc(((size_t)np + 1) * sizeof(uint32_t));
        for (uint32_t p = 0; p < np; p++) fe[p] = NONE32;
        for (uint32_t p = 0; p < B->npair_first; p++) {
            uint32_t e = B->pair_first[p];
            if (e == NONE32) continue;
            uint32_t r = B->uf[p];
            live[r] = 1;
            int64_t t = s->ts[e];
            if (t < first_ts[r] || (t == first_ts[r] && fe[r] != NONE32 && e < fe[r])) {
                first_ts[r] = t;
                home[r] = s->loc[e];
                fe[r] = e;
            }
        }
        free(fe);
    }
    for (size_t i = 0; i < spawned_pair.len; i++) {
        uint32_t r = uf_find(B->uf, spawned_pair.v[i]);
        uint32_t e = spawned_by.v[i];
        if (spawn_ev[r] == NONE32 || ev_before_raw(s->ts, s->dur, e, spawn_ev[r])) spawn_ev[r] = e;
        if (!live[r]) {
            live[r] = 2; /* spawned, no events */
            uint32_t p;
            if (!col_get_s(peer, e, &p)) p = s->loc[e];
            if (s->ts[e] < first_ts[r]) {
                first_ts[r] = s->ts[e];
                home[r] = p;
            }
        }
    }
    /* order activities by (home location, explicit place, first time, label, pair) */
    uint32_t nr = 0;
    for (uint32_t p = 0; p < np; p++)
        if (live[p] && uf_find(B->uf, p) == p) nr++;
    typedef struct {
        uint32_t home;
        bool placed; /* an explicit place (thread_sort_index): first, by it */
        int64_t order;
        int64_t first;
        uint32_t label, root;
    } RK;
    uint8_t *placed = NULL;
    int64_t *porder = NULL;
    if (B->nact_orders) {
        placed = xcalloc(np, 1);
        porder = xcalloc(np, sizeof(int64_t));
        for (size_t k = 0; k < B->nact_orders; k++) {
            uint32_t p = gp_get(B, B->act_orders[k].loc, B->act_orders[k].act, false);
            if (p == NONE32 || p >= np) continue;
            p = uf_find(B->uf, p);
            placed[p] = 1;
            porder[p] = B->act_orders[k].order;
        }
    }
    RK *rk = xmalloc(((size_t)nr + 1) * sizeof(RK));
    nr = 0;
    for (uint32_t p = 0; p < np; p++)
        if (live[p] && uf_find(B->uf, p) == p)
            rk[nr++] = (RK){home[p], placed && placed[p], placed ? porder[p] : 0, first_ts[p], B->gp_act[p], p};
    free(placed);
    free(porder);
    /* (first a stable counting sort by home location, then a merge sort
     * of each location's keys, in cache: of the keys themselves, read in
     * order, not through an index; the order is total, root last, so any
     * correct sort gives this one) */
    RK *rtmp = xmalloc(((size_t)nr + 1) * sizeof(RK));
    uint32_t nhb = s->nloc + 1; /* (a home past the locations: the last bucket) */
    uint32_t *hb = xcalloc((size_t)nhb + 1, sizeof(uint32_t));
    for (uint32_t i = 0; i < nr; i++) hb[(rk[i].home < s->nloc ? rk[i].home : s->nloc) + 1]++;
    for (uint32_t h = 0; h < nhb; h++) hb[h + 1] += hb[h];
    {
        uint32_t *at = xmalloc(((size_t)nhb + 1) * sizeof(uint32_t));
        memcpy(at, hb, ((size_t)nhb + 1) * sizeof(uint32_t));
        for (uint32_t i = 0; i < nr; i++) rtmp[at[rk[i].home < s->nloc ? rk[i].home : s->nloc]++] = rk[i];
        free(at);
        RK *t = rk;
        rk = rtmp;
        rtmp = t;
    }
    for (uint32_t h = 0; h < nhb; h++) {
        uint32_t lo = hb[h], hi = hb[h + 1];
        RK *src = rk, *dst = rtmp;
        for (uint32_t wdt = 1; wdt < hi - lo; wdt *= 2) {
            for (uint32_t a = lo; a < hi; a += 2 * wdt) {
                uint32_t mid = a + wdt < hi ? a + wdt : hi, b = a + 2 * wdt < hi ? a + 2 * wdt : hi;
                uint32_t i = a, j = mid, o = a;
                while (i < mid && j < b) {
                    const RK *x = &src[i], *y = &src[j];
                    bool ylt = y->home != x->home     ? y->home < x->home
                               : y->placed != x->placed ? y->placed
                               : y->order != x->order ? y->order < x->order
                               : y->first != x->first ? y->first < x->first
                               : y->label != x->label ? y->label < x->label
                                                      : y->root < x->root;
                    dst[o++] = ylt ? src[j++] : src[i++];
                }
                while (i < mid) dst[o++] = src[i++];
                while (j < b) dst[o++] = src[j++];
            }
            RK *t = src;
            src = dst;
            dst = t;
        }
        if (src != rk) memcpy(rk + lo, src + lo, (size_t)(hi - lo) * sizeof(RK));
    }
    free(hb);
    free(rtmp);
    uint32_t *act_of_root = xmalloc(((size_t)np + 1) * sizeof(uint32_t));
    for (uint32_t p = 0; p < np; p++) act_of_root[p] = NONE32;
    s->nact = nr;
    s->acts = xcalloc((size_t)nr + 1, sizeof(Activity));
    for (uint32_t i = 0; i < nr; i++) {
        uint32_t r = rk[i].root;
        act_of_root[r] = i;
        Activity *Ac = &s->acts[i];
        Ac->label = B->gp_act[r];
        Ac->home = home[r];
        Ac->first_ts = first_ts[r];
        Ac->last_end = first_ts[r];
        Ac->parent = NONE32;
        Ac->spawn_ev = spawn_ev[r];
        Ac->end_ev = NONE32;
        Ac->parent_label = NONE32;
    }
    free(rk);
    free(first_ts);
    free(home);
    free(spawn_ev);
    free(live);

    /* act column and per-activity index (parallel counting sort) */
    ActCtx ac = {.B = B, .act_of_root = act_of_root, .nw = B->threads};
    int nw = B->threads;
    if ((size_t)nw > n / 65536 + 1) nw = (int)(n / 65536 + 1);
    ac.nw = nw;
    ac.cnt = xcalloc((size_t)nw, sizeof(uint32_t *));
    for (int w = 0; w < nw; w++) ac.cnt[w] = xcalloc((size_t)nr + 1, sizeof(uint32_t));
    s->act = B->act_mem ? B->act_mem : xmalloc_big((n ? n : 1) * sizeof(uint32_t));
    B->act_mem = NULL;
    par_run(nw, act_assign_worker, &ac);
    s->act_off = xrealloc(s->act_off, ((size_t)nr + 2) * sizeof(uint32_t));
    uint32_t acc = 0;
    for (uint32_t a = 0; a < nr; a++) {
        s->act_off[a] = acc;
        for (int w = 0; w < nw; w++) {
            uint32_t c = ac.cnt[w][a];
            ac.cnt[w][a] = acc;
            acc += c;
        }
    }
    s->act_off[nr] = acc;
    s->act_ev = xmalloc_big((n ? n : 1) * sizeof(uint32_t));
    par_run(nw, act_scatter_worker, &ac);
    for (int w = 0; w < nw; w++) free(ac.cnt[w]);
    free(ac.cnt);

    /* (every event is in one activity: all written) */
    s->depth = B->depth_mem ? B->depth_mem : xmalloc_big((n ? n : 1) * sizeof(uint16_t));
    B->depth_mem = NULL;
    /* the details (per activity, in parallel) and, alongside them, the
     * serial rest on one worker (moves, parents) and the sync groups, which
     * need only the act column, on another. They write different fields of the
     * activities (details: nev, first_ts, last_end, end_ev, nlocs; rest:
     * moves_off, nmoves, parent, parent_label) and different arrays. */
    atomic_store(&B->max_depth, 0);
    jobq_init(&B->q, nr);
    ac.moves = moves.v;
    ac.nmoves = moves.len;
    ac.groups = groups;
    if (unions) {
        ac.multi = xcalloc((size_t)nr + 1, 1);
        for (uint32_t p = 0; p < np; p++)
            if (B->uf[p] != p && act_of_root[B->uf[p]] != NONE32) ac.multi[act_of_root[B->uf[p]]] = 1;
    }
    par_run(B->threads, act_rest_worker, &ac);
    free(ac.multi);
    s->max_depth = (uint16_t)atomic_load(&B->max_depth);
    VEC_FREE(moves);
    free(act_of_root);
    VEC_FREE(spawned_pair);
    VEC_FREE(spawned_by);
}

