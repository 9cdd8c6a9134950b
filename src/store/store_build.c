/*
 * store_build.c — building the store from the loader's batches: the
 * driver, and the steps before the placement (dictionaries, prefix+number
 * ids, locations, pairs).
 *
 * Owns: the merge of batches into one store, in these steps:
 *  1. merge the batches' dictionaries, extra-field names and user kinds;
 *  2. order the locations (every label used as loc or peer);
 *  3. merge the (location, act label) pairs;
 *  4. place every row: event number = start of its (batch, location) run +
 *     rank within it (a counting sort by location that keeps input order),
 *     and scatter the dense columns — in parallel, one batch per worker;
 *  5. sort any location whose events are not already in time order;
 *  6. scatter the field buffers into typed columns (dense, or sparse with
 *     rows found by rank in a presence bitmap) — in parallel by batch;
 *  7. activities: pairs joined by `move`, plus activities made by `spawn`;
 *     the per-activity index (a parallel counting sort), depths, details;
 *  8. messages: sends matched with receives by id, then first-in first-out
 *     per (source, destination, tag);
 *  9. sync groups.
 * Steps 4-5 live in store_place.c, 6-9 in store_cols.c, store_acts.c and
 * store_msgs.c (their shared state: store_build_int.h). The memory: the
 * arrays steps 4-6 no longer read go to a page pool (base/pages.h) whose
 * pages the next arrays take instead of fresh ones (placement: name, kind,
 * ts; then, the pool served, every fresh xmalloc_big until the end of
 * step 9, the pool trimmed before 7-9 to what their big arrays take).
 * Invariants: the result depends only on the batches' contents and order,
 * never on the number of workers; see store.h for what holds afterwards.
 */
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "store_build_int.h"
#include "base/par.h"
#include "base/timeparse.h"
#include "base/util.h"

static double g_tlast;
static void phase(const char *what)
{
    static int on = -1;
    if (on < 0) on = getenv("TNAV_TIMING") != NULL;
    double t = now_sec();
    if (on && what) timing_note("  %-18s %.3f s", what, t - g_tlast);
    g_tlast = t;
}

static const Store *g_sort_store; /* qsort has no context argument */
static int loc_qsort_cmp(const void *a, const void *b) { return store_loc_cmp(g_sort_store, a, b); }

/* ---- fresh memory touched ahead ---------------------------------------- */

/* While this thread merges the dictionaries and orders the locations
 * (serial work), another one takes the fresh memory of the placement's
 * first arrays (pair, dur, flags) and touches it: on this VM a fresh page
 * costs more than writing it several times over, and the placement would
 * otherwise pay for it. These are the pages the placement's first passes
 * touch at once anyway (the pages of every location's run), so the
 * peak does not rise. The thread stops as soon as it is told to. */
typedef struct {
    struct {
        void **pp;
        size_t bytes;
    } a[3];
    int na;
    atomic_bool stop;
} Ahead;

static void *ahead_main(void *arg)
{
    Ahead *A = arg;
    for (int i = 0; i < A->na; i++) {
        char *p = *A->a[i].pp;
        for (size_t o = 0; o < A->a[i].bytes; o += 4096) {
            if ((o & ((1u << 21) - 1)) == 0 && atomic_load_explicit(&A->stop, memory_order_relaxed)) return NULL;
            p[o] = 0;
        }
    }
    return NULL;
}

/* ---- 1. dictionaries ------------------------------------------------------ */

typedef struct {
    const StrTab *t;
    uint32_t b, i;
} LabRef;

static int labref_cmp(const void *x, const void *y)
{
    const LabRef *a = x, *c = y;
    size_t la = strtab_len(a->t, a->i), lc = strtab_len(c->t, c->i);
    int r = memcmp(strtab_str(a->t, a->i), strtab_str(c->t, c->i), la < lc ? la : lc);
    if (r) return r;
    if (la != lc) return la < lc ? -1 : 1;
    if (a->b != c->b) return a->b < c->b ? -1 : 1;
    return a->i < c->i ? -1 : a->i > c->i;
}

/* Intern a batch's strings into the store's dictionary: the map of its ids. */
static uint32_t *merge_strs(Store *s, const StrTab *t)
{
    uint32_t *rm = xmalloc(((size_t)t->count + 1) * sizeof(uint32_t));
    for (uint32_t i = 0; i < t->count; i++) rm[i] = strtab_intern_from(&s->strs, t, i);
    return rm;
}

/* ---- 1b. prefix+number ids ------------------------------------------------ */

/* LSD radix sort of 64-bit keys by their bits lo..63 (stable: keys equal
 * there keep their order). Only the bits that differ between keys are
 * sorted by (the others order nothing), in passes of equal digits of at
 * most 16 bits (8 for a few thousand keys, where 65,536 counters would
 * cost more than the keys): 20 varying bits are two passes of 10, with
 * 1,024 counters in cache, where 16-bit digits cleared and summed 65,536
 * counters a pass. */
void sort_u64_from(uint64_t *v, size_t m, int lo) { sort_u64_buf(v, m, lo, NULL); }

void sort_u64_buf(uint64_t *v, size_t m, int lo, uint64_t *buf)
{
    if (m < 2) return;
    uint64_t orv = 0, andv = ~(uint64_t)0;
    for (size_t i = 0; i < m; i++) {
        orv |= v[i];
        andv &= v[i];
    }
    uint64_t diff = (orv ^ andv) >> lo;
    if (!diff) return; /* (equal in bits lo..63: in order) */
    int bot = lo + __builtin_ctzll(diff), top = 64 - __builtin_clzll(diff << lo);
    int maxb = m < 4096 ? 8 : 16, passes = (top - bot + maxb - 1) / maxb, bits = (top - bot + passes - 1) / passes;
    size_t nb = (size_t)1 << bits, mask = nb - 1;
    uint64_t *tmp = buf ? buf : xmalloc_big(m * sizeof *tmp), *src = v, *dst = tmp;
    size_t *cnt = xmalloc((nb + 1) * sizeof(size_t));
    for (int sh = bot; sh < top; sh += bits) {
        memset(cnt, 0, (nb + 1) * sizeof(size_t));
        for (size_t i = 0; i < m; i++) cnt[((src[i] >> sh) & mask) + 1]++;
        if (cnt[((src[0] >> sh) & mask) + 1] == m) continue;
        for (size_t k = 0; k < nb; k++) cnt[k + 1] += cnt[k];
        for (size_t i = 0; i < m; i++) dst[cnt[(src[i] >> sh) & mask]++] = src[i];
        uint64_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != v) memcpy(v, src, m * sizeof *v);
    if (!buf) xfree_big(tmp, m * sizeof *tmp);
    free(cnt);
}

void sort_u64(uint64_t *v, size_t m) { sort_u64_from(v, m, 0); }

/* Give the prefix+number ids of the batches their global values (the
 * prefix remapped to the store's dictionary), collect them distinct and
 * sorted into s->xids, and find those whose text the dictionary also holds
 * (a name "m7" and an id "m7": the id takes the dictionary's string id). */
static void build_xids(Build *B, uint64_t **allp, size_t *mp, size_t *totalp)
{
    Store *s = B->s;
    static const int fields[] = {F_ID, F_TAG, F_GROUP};
    size_t total = 0;
    for (size_t b = 0; b < B->nb; b++)
        for (int k = 0; k < 3; k++)
            if ((size_t)fields[k] < B->bs[b]->nfb && (B->bs[b]->fb[fields[k]].tmask & (1u << VT_XSTR)))
                total += B->bs[b]->fb[fields[k]].rows.len;
    *allp = NULL;
    *mp = 0;
    *totalp = total;
    if (!total) return;
    uint64_t *all = xmalloc_big(total * sizeof(uint64_t));
    size_t m = 0;
    char buf[XID_PFX_MAX + 24];
    for (size_t b = 0; b < B->nb; b++) {
        Batch *bt = B->bs[b];
        for (int k = 0; k < 3; k++) {
            if ((size_t)fields[k] >= bt->nfb) continue;
            FieldBuf *fb = &bt->fb[fields[k]];
            if (!(fb->tmask & (1u << VT_XSTR))) continue;
            for (size_t i = 0; i < fb->rows.len; i++) {
                if (fb->types.v[i] != VT_XSTR) continue;
                uint64_t v = fb->vals.v[i];
                uint32_t gp = B->sremap[b][XID_PFX(v)];
                if (gp >= (1u << 24)) { /* a prefix beyond the encodable ids: the whole text */
                    size_t len = xid_format(buf, strtab_str(&s->strs, gp), strtab_len(&s->strs, gp), v);
                    fb->types.v[i] = VT_GSTR;
                    fb->vals.v[i] = strtab_intern(&s->strs, buf, len);
                    fb->tmask |= 1u << VT_GSTR;
                    continue;
                }
                v = XID_VAL(gp, XID_NDIG(v), XID_NUM(v));
                fb->vals.v[i] = v;
                all[m++] = v;
            }
        }
    }
    *allp = all;
    *mp = m;
}

/* After the labels are merged: the ids distinct and sorted into s->xids,
 * and those whose text is also in the dictionary. */
/* The index of v in the sorted xids, searched from a hint (ids mostly
 * come in increasing order within a batch: usually one or two steps). */
static size_t xid_search(const uint64_t *x, size_t n, uint64_t v, size_t hint)
{
    size_t lo, hi;
    if (hint >= n) hint = n ? n - 1 : 0;
    if (!n || x[hint] == v) return hint;
    if (x[hint] < v) {
        size_t step = 1;
        lo = hint + 1;
        while (hint + step < n && x[hint + step] < v) {
            lo = hint + step + 1;
            step *= 2;
        }
        hi = hint + step < n ? hint + step + 1 : n;
    } else {
        lo = 0;
        hi = hint;
    }
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (x[mid] < v) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* Each batch's prefix+number values become string ids (VT_GSTR): an index
 * into xids, or the dictionary's id of the same text. One batch a worker. */
static void xid_resolve_worker(void *ctx, int w, int nw)
{
    (void)w;
    (void)nw;
    Build *B = ctx;
    static const int fields[] = {F_ID, F_TAG, F_GROUP};
    size_t b;
    while ((b = jobq_next(&B->q)) != (size_t)-1) {
        Batch *bt = B->bs[b];
        for (int k = 0; k < 3; k++) {
            if ((size_t)fields[k] >= bt->nfb) continue;
            FieldBuf *fb = &bt->fb[fields[k]];
            if (!(fb->tmask & (1u << VT_XSTR))) continue;
            size_t hint = 0;
            for (size_t i = 0; i < fb->rows.len; i++) {
                if (fb->types.v[i] != VT_XSTR) continue;
                uint64_t v = fb->vals.v[i];
                size_t r = xid_search(B->xfull, B->nxfull, v, hint);
                uint32_t sid = NONE32; /* (every value is among them) */
                if (r < B->nxfull && B->xfull[r] == v) {
                    sid = B->xsid ? B->xsid[r] : SID_XID + (uint32_t)r;
                    hint = r + 1;
                }
                fb->types.v[i] = VT_GSTR;
                fb->vals.v[i] = sid;
            }
            fb->tmask |= 1u << VT_GSTR; /* (VT_XSTR stays: the column has such ids) */
        }
    }
}

static void finish_xids(Build *B, uint64_t *all, size_t m, size_t total)
{
    Store *s = B->s;
    if (!all) return;
    sort_u64(all, m);
    size_t u = 0;
    for (size_t i = 0; i < m; i++)
        if (!u || all[i] != all[u - 1]) all[u++] = all[i];
    if (u >= SID_XID - 1) {
        fprintf(stderr, "tnav: too many distinct ids (%zu)\n", u);
        exit(3);
    }
    s->xids = xmalloc((u ? u : 1) * sizeof(uint64_t));
    memcpy(s->xids, all, u * sizeof(uint64_t));
    s->nxid = (uint32_t)u;
    xfree_big(all, total * sizeof(uint64_t));
    /* texts in both: the dictionary's id wins, and the id leaves xids.
     * Each id's string id is kept by its place among all the ids (xfull,
     * xsid): one search resolves a value, and the ids in both come out in
     * order, with no sort (the first text of an id wins) */
    uint32_t *asid = NULL; /* per id: the dictionary's string id of its text, or NONE32 */
    for (uint32_t i = 0; i < s->strs.count; i++) {
        size_t pl;
        unsigned nd;
        uint64_t num;
        const char *t = strtab_str(&s->strs, i);
        if (!xid_split(t, strtab_len(&s->strs, i), &pl, &nd, &num)) continue;
        uint32_t ps = strtab_find(&s->strs, t, pl);
        if (ps == NONE32 || ps >= (1u << 24)) continue;
        uint64_t v = XID_VAL(ps, nd, num);
        size_t lo = 0, hi = s->nxid;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (s->xids[mid] < v) lo = mid + 1;
            else hi = mid;
        }
        if (lo < s->nxid && s->xids[lo] == v) {
            if (!asid) {
                asid = xmalloc(((size_t)s->nxid + 1) * sizeof *asid);
                for (uint32_t k = 0; k < s->nxid; k++) asid[k] = NONE32;
            }
            if (asid[lo] == NONE32) asid[lo] = i;
        }
    }
    B->xfull = s->xids;
    B->nxfull = s->nxid;
    if (asid) {
        /* the store keeps the ids not in the dictionary */
        uint64_t *kept = xmalloc(((size_t)s->nxid + 1) * sizeof(uint64_t));
        uint32_t o = 0;
        for (uint32_t k = 0; k < s->nxid; k++) {
            if (asid[k] != NONE32) continue;
            asid[k] = SID_XID + o;
            kept[o++] = s->xids[k];
        }
        s->xids = kept;
        s->nxid = o;
        B->xsid = asid;
    }
    jobq_init(&B->q, B->nb);
    par_run(B->threads < (int)B->nb ? B->threads : (int)B->nb, xid_resolve_worker, B);
}

static void tail_worker(void *ctx, int w, int nw)
{
    (void)nw;
    Build *B = ctx;
    if (w == 0) {
        /* (on two workers as the activities are: when they are done,
         * the messages' sort and pairing take both cores) */
        if (!B->defer_tail) build_messages(B->s, B->threads);
    } else {
        build_activities(B, !B->defer_tail);
    }
}

/* ---- the whole build ------------------------------------------------------ */

/* whether [t, t+n) is one of the comma-separated words of list */
static bool in_list(const char *list, const char *t, size_t n)
{
    for (const char *w = list; w && *w;) {
        const char *c = strchr(w, ',');
        size_t wn = c ? (size_t)(c - w) : strlen(w);
        if (wn == n && !memcmp(w, t, n)) return true;
        w = c ? c + 1 : w + wn;
    }
    return false;
}

Store *store_build(Batch **bs, size_t nb, int threads, bool keep_pages, bool defer_tail)
{
    double t0 = now_sec();
    phase(NULL);
    oom_phase("building the store");
    Store *s = store_empty();
    Build Bd;
    Build *B = &Bd;
    memset(B, 0, sizeof *B);
    B->bs = bs;
    B->nb = nb;
    B->s = s;
    B->threads = threads < 1 ? 1 : threads;
    s->state_not_busy = nb && in_list(bs[0]->not_busy, "state", 5);
    size_t n = 0;
    for (size_t b = 0; b < nb; b++) n += bs[b]->n;
    if (n >= UINT32_MAX - 1) {
        fprintf(stderr, "tnav: too many events (%zu); at most %u are supported\n", n, UINT32_MAX - 2);
        exit(3);
    }
    B->n = n;
    s->n = n;
    /* a small trace is built on this thread: starting threads would cost
     * more than the work (the result does not depend on the count) */
    if (n < 50000) B->threads = 1;
    /* the placement's first arrays, touched ahead on another thread */
    Ahead ahead = {.na = 0};
    atomic_store(&ahead.stop, false);
    size_t n1 = n ? n : 1;
    B->pair = xmalloc_big(n1 * sizeof(uint32_t));
    s->dur = xmalloc_big(n1 * sizeof(int64_t));
    s->flags = xmalloc_big(n1);
    pthread_t ahead_th;
    bool ahead_on = false;
    if (B->threads > 1) {
        ahead.a[0].pp = (void **)&B->pair;
        ahead.a[0].bytes = n1 * sizeof(uint32_t);
        ahead.a[1].pp = (void **)&s->dur;
        ahead.a[1].bytes = n1 * sizeof(int64_t);
        ahead.a[2].pp = (void **)&s->flags;
        ahead.a[2].bytes = n1;
        ahead.na = 3;
        ahead_on = pthread_create(&ahead_th, NULL, ahead_main, &ahead) == 0;
    }

    /* 1. dictionaries */
    strtab_init(&B->xnames);
    B->sremap = xcalloc(nb + 1, sizeof(uint32_t *));
    B->xremap = xcalloc(nb + 1, sizeof(uint32_t *));
    B->kremap = xcalloc(nb + 1, sizeof(uint16_t *));
    B->premap = xcalloc(nb + 1, sizeof(uint32_t *));
    B->ploc = xcalloc(nb + 1, sizeof(uint32_t *));
    B->start = xcalloc(nb + 1, sizeof(uint32_t *));
    B->dest = xcalloc(nb + 1, sizeof(uint32_t *));
    B->dest_bytes = xcalloc(nb + 1, sizeof(size_t));
    /* names first, then values, then labels: a string used by several of
     * them gets the first one's id, so that every name is below nnames and
     * every value below nvals */
    B->nremap = xcalloc(nb + 1, sizeof(uint32_t *));
    B->lremap = xcalloc(nb + 1, sizeof(uint32_t *));
    {
        /* (at most all of the batches' strings: the index never grows) */
        size_t all = s->strs.count;
        for (size_t b = 0; b < nb; b++) all += (size_t)bs[b]->names.count + bs[b]->strs.count + bs[b]->labels.count;
        strtab_reserve(&s->strs, all);
    }
    for (size_t b = 0; b < nb; b++) B->nremap[b] = merge_strs(s, &bs[b]->names);
    s->nnames = s->strs.count;
    for (size_t b = 0; b < nb; b++) B->sremap[b] = merge_strs(s, &bs[b]->strs);
    uint64_t *xall;
    size_t xm, xtotal;
    build_xids(B, &xall, &xm, &xtotal);
    s->nvals = s->strs.count;
    /* labels in order of first appearance; those a pass added after
     * parsing (lanes, names from metadata: nlab_parsed) after all parsed
     * ones, so that the order does not depend on where files were cut */
    for (size_t b = 0; b < nb; b++) {
        const StrTab *t = &bs[b]->labels;
        uint32_t *rm = xmalloc(((size_t)t->count + 1) * sizeof(uint32_t));
        uint32_t np = bs[b]->nlab_parsed < t->count ? bs[b]->nlab_parsed : t->count;
        for (uint32_t i = 0; i < np; i++) rm[i] = strtab_intern_from(&s->strs, t, i);
        B->lremap[b] = rm;
    }
    {
        /* (by their text: the passes add them in an order that depends on
         * the batches) */
        size_t m = 0;
        for (size_t b = 0; b < nb; b++)
            if (bs[b]->nlab_parsed < bs[b]->labels.count) m += bs[b]->labels.count - bs[b]->nlab_parsed;
        if (m) {
            LabRef *v = xmalloc(m * sizeof *v);
            size_t k = 0;
            for (size_t b = 0; b < nb; b++)
                for (uint32_t i = bs[b]->nlab_parsed; i < bs[b]->labels.count; i++) v[k++] = (LabRef){&bs[b]->labels, (uint32_t)b, i};
            qsort(v, m, sizeof *v, labref_cmp);
            for (size_t j = 0; j < m; j++) B->lremap[v[j].b][v[j].i] = strtab_intern_from(&s->strs, v[j].t, v[j].i);
            free(v);
        }
    }
    finish_xids(B, xall, xm, xtotal);
    /* in order of first appearance; names a pass added after parsing
     * (nx_parsed) after all of those, by their text, so that the order does
     * not depend on where the file was cut into batches */
    size_t nadded = 0;
    for (size_t b = 0; b < nb; b++) {
        Batch *bt = bs[b];
        B->xremap[b] = xmalloc(((size_t)bt->xnames.count + 1) * sizeof(uint32_t));
        for (uint32_t i = 0; i < bt->xnames.count && i < bt->nx_parsed; i++)
            B->xremap[b][i] = strtab_intern_from(&B->xnames, &bt->xnames, i);
        if (bt->nx_parsed < bt->xnames.count) nadded += bt->xnames.count - bt->nx_parsed;
    }
    if (nadded) {
        LabRef *v = xmalloc(nadded * sizeof *v);
        size_t k = 0;
        for (size_t b = 0; b < nb; b++)
            for (uint32_t i = bs[b]->nx_parsed; i < bs[b]->xnames.count; i++) v[k++] = (LabRef){&bs[b]->xnames, (uint32_t)b, i};
        qsort(v, nadded, sizeof *v, labref_cmp);
        for (size_t j = 0; j < nadded; j++) B->xremap[v[j].b][v[j].i] = strtab_intern_from(&B->xnames, v[j].t, v[j].i);
        free(v);
    }
    {
        KeyMap uk;
        km_init(&uk);
        for (size_t b = 0; b < nb; b++) {
            Batch *bt = bs[b];
            B->kremap[b] = xmalloc((bt->ukinds.len + 1) * sizeof(uint16_t));
            for (size_t k = 0; k < bt->ukinds.len; k++) {
                uint32_t gs = B->sremap[b][bt->ukinds.v[k]];
                bool created;
                uint32_t id = km_get(&uk, gs, 0, 0, true, &created);
                if (id + K_USER > 65535) {
                    fprintf(stderr, "tnav: too many distinct kinds\n");
                    exit(3);
                }
                if (created) {
                    s->ukind = xrealloc(s->ukind, ((size_t)id + 1) * sizeof(uint32_t));
                    s->ukind[id] = gs;
                    s->nukind = id + 1;
                }
                B->kremap[b][k] = (uint16_t)(K_USER + id);
            }
        }
        km_free(&uk);
        s->ukind_idle = xcalloc((size_t)s->nukind + 1, 1);
        for (uint32_t k = 0; k < s->nukind; k++)
            s->ukind_idle[k] = (strtab_len(&s->strs, s->ukind[k]) == 4 && !strncasecmp(strtab_str(&s->strs, s->ukind[k]), "idle", 4)) ||
                               (nb && in_list(bs[0]->not_busy, strtab_str(&s->strs, s->ukind[k]), strtab_len(&s->strs, s->ukind[k])));
    }
    phase("dictionaries");

    /* 2. locations: every label used as loc or as peer */
    uint32_t nstr = s->strs.count;
    uint8_t *isloc = xcalloc((size_t)nstr + 1, 1);
    for (size_t b = 0; b < nb; b++) {
        Batch *bt = bs[b];
        /* (a pair whose rows were all paired away has none: no location) */
        for (uint32_t p = 0; p < bt->npairs; p++)
            if (bt->pair_count[p]) isloc[B->lremap[b][bt->pairs[p].loc]] = 1;
        if (bt->nfb > F_PEER) {
            FieldBuf *fb = &bt->fb[F_PEER];
            for (size_t i = 0; i < fb->rows.len; i++) isloc[B->lremap[b][(uint32_t)fb->vals.v[i]]] = 1;
        }
    }
    uint32_t nl = 0;
    for (uint32_t i = 0; i < nstr; i++) nl += isloc[i];
    s->nloc = nl;
    s->locs = xcalloc((size_t)nl + 1, sizeof(Location));
    nl = 0;
    for (uint32_t i = 0; i < nstr; i++) {
        if (!isloc[i]) continue;
        Location *L = &s->locs[nl++];
        L->label = i;
        const char *t = strtab_str(&s->strs, i);
        int64_t iv;
        /* an integer label is one in canonical decimal (the batches write
         * them so); by length: "0\0" is a string label, not the integer 0 */
        size_t tl = strtab_len(&s->strs, i);
        char cb[24];
        L->is_int = parse_int64(t, tl, &iv) == TP_OK && fmt_i64(cb, iv) == tl && !memcmp(cb, t, tl);
        L->ival = L->is_int ? iv : 0;
    }
    /* explicit places (the last one given for a label wins) */
    {
        bool any = false;
        for (size_t b = 0; b < nb && !any; b++) any = bs[b]->loc_orders.len > 0;
        if (any) {
            uint32_t *at = xmalloc(((size_t)nstr + 1) * sizeof(uint32_t));
            for (uint32_t i = 0; i < nstr; i++) at[i] = NONE32;
            for (uint32_t l = 0; l < s->nloc; l++) at[s->locs[l].label] = l;
            for (size_t b = 0; b < nb; b++)
                for (size_t k = 0; k < bs[b]->loc_orders.len; k++) {
                    const LocOrder *o = &bs[b]->loc_orders.v[k];
                    if (o->loc >= bs[b]->labels.count) continue;
                    uint32_t l = at[B->lremap[b][o->loc]];
                    if (l == NONE32) continue;
                    s->locs[l].has_order = true;
                    s->locs[l].order = o->order;
                }
            free(at);
        }
    }
    free(isloc);
    {
        uint32_t *ord = xmalloc(((size_t)s->nloc + 1) * sizeof(uint32_t));
        for (uint32_t l = 0; l < s->nloc; l++) ord[l] = l;
        g_sort_store = s;
        if (s->nloc) qsort(ord, s->nloc, sizeof(uint32_t), loc_qsort_cmp);
        Location *sorted = xcalloc((size_t)s->nloc + 1, sizeof(Location));
        for (uint32_t l = 0; l < s->nloc; l++) sorted[l] = s->locs[ord[l]];
        free(s->locs);
        s->locs = sorted;
        free(ord);
    }
    B->loc_of_sid = xmalloc(((size_t)nstr + 1) * sizeof(uint32_t));
    for (uint32_t i = 0; i < nstr; i++) B->loc_of_sid[i] = NONE32;
    for (uint32_t l = 0; l < s->nloc; l++) B->loc_of_sid[s->locs[l].label] = l;
    /* explicit places of activities (the last one given for a pair wins) */
    for (size_t b = 0; b < nb; b++) B->nact_orders += bs[b]->act_orders.len;
    if (B->nact_orders) {
        B->act_orders = xcalloc(B->nact_orders, sizeof *B->act_orders);
        size_t k = 0;
        for (size_t b = 0; b < nb; b++)
            for (size_t j = 0; j < bs[b]->act_orders.len; j++) {
                const ActOrder *o = &bs[b]->act_orders.v[j];
                if (o->loc >= bs[b]->labels.count || (o->act != NONE32 && o->act >= bs[b]->labels.count)) continue;
                uint32_t l = B->loc_of_sid[B->lremap[b][o->loc]];
                if (l == NONE32) continue;
                B->act_orders[k].loc = l;
                B->act_orders[k].act = o->act == NONE32 ? NONE32 : B->lremap[b][o->act];
                B->act_orders[k].order = o->order;
                k++;
            }
        B->nact_orders = k;
    }
    phase("locations");

    /* 3. global pairs; 4. row placement */
    km_init(&B->pairs);
    {
        /* (at least as many as the largest batch's pairs: no rehash while
         * those go in, and no more room than growing would give) */
        uint32_t np = 0;
        for (size_t b = 0; b < nb; b++)
            if (bs[b]->npairs > np) np = bs[b]->npairs;
        km_reserve(&B->pairs, np);
    }
    uint32_t *loc_total = xcalloc((size_t)s->nloc + 1, sizeof(uint32_t));
    for (size_t b = 0; b < nb; b++) {
        Batch *bt = bs[b];
        B->premap[b] = xmalloc(((size_t)bt->npairs + 1) * sizeof(uint32_t));
        B->ploc[b] = xmalloc(((size_t)bt->npairs + 1) * sizeof(uint32_t));
        B->start[b] = xcalloc((size_t)s->nloc + 1, sizeof(uint32_t));
        for (uint32_t p = 0; p < bt->npairs; p++) {
            if (!bt->pair_count[p]) {
                B->premap[b][p] = B->ploc[b][p] = NONE32;
                continue;
            }
            uint32_t loc = B->loc_of_sid[B->lremap[b][bt->pairs[p].loc]];
            uint32_t act = bt->pairs[p].act == NONE32 ? NONE32 : B->lremap[b][bt->pairs[p].act];
            B->premap[b][p] = gp_get(B, loc, act, true);
            B->ploc[b][p] = loc;
            B->start[b][loc] += bt->pair_count[p]; /* rows of this batch at loc (for now) */
        }
    }
    {
        uint32_t acc = 0;
        for (uint32_t l = 0; l < s->nloc; l++) {
            s->locs[l].first = acc;
            for (size_t b = 0; b < nb; b++) {
                uint32_t c = B->start[b][l];
                B->start[b][l] = acc;
                acc += c;
            }
            s->locs[l].count = acc - s->locs[l].first;
        }
    }
    free(loc_total);
    if (ahead_on) {
        atomic_store(&ahead.stop, true);
        pthread_join(ahead_th, NULL);
    }
    B->warm = xcalloc(2 * nb + 1, sizeof *B->warm);
    /* where pages can be moved, the batches' dur, name and kind columns,
     * once read, become the pages of the store's name, kind and ts (the
     * page pool: see store_place.c); else they are given back as read and
     * those columns are fresh memory */
    B->move = pages_can_move();
    pages_init(&B->pool);
    /* (keep_pages: the trims below give nothing back, and what the pool
     * has left at the end goes to pages_keep) */
    B->pool.keep = keep_pages;
    for (int pass = PLACE_DEST; pass <= PLACE_TS; pass++) {
        size_t bytes = pass == PLACE_TS ? sizeof(int64_t) : pass == PLACE_NAME ? sizeof(uint32_t) : sizeof(uint16_t);
        void *col = NULL;
        if (pass == PLACE_TS || pass == PLACE_NAME || pass == PLACE_KIND)
            col = B->move ? pages_alloc(&B->pool, (n ? n : 1) * bytes) : xmalloc_big((n ? n : 1) * bytes);
        if (pass == PLACE_TS) s->ts = col;
        if (pass == PLACE_NAME) s->name = col;
        if (pass == PLACE_KIND) s->kind = col;
        B->place_pass = pass;
        jobq_init(&B->q, nb);
        par_run(B->threads < (int)nb ? B->threads : (int)nb, place_worker, B);
        for (size_t b = 0; B->move && b < nb; b++) {
            Batch *bt = bs[b];
            if (pass == PLACE_DUR) pages_give(&B->pool, bt->dur, bt->cap * sizeof *bt->dur, bt->n * sizeof *bt->dur);
            if (pass == PLACE_NAME) pages_give(&B->pool, bt->name, bt->cap * sizeof *bt->name, bt->n * sizeof *bt->name);
            if (pass == PLACE_KIND) pages_give(&B->pool, bt->kind, bt->cap * sizeof *bt->kind, bt->n * sizeof *bt->kind);
            if (pass == PLACE_DUR) bt->dur = NULL;
            if (pass == PLACE_NAME) bt->name = NULL;
            if (pass == PLACE_KIND) bt->kind = NULL;
        }
    }
    if (B->move) timing_note("  pages moved %zu MiB, %zu MiB left", B->pool.moved >> 20, pages_held(&B->pool) >> 20);
    pages_trim(&B->pool, 0); /* (what is left: not held through the time order) */
    /* (the batches' ts arrays: two of them are enough for loc and act;
     * the time order borrows act's for its moved positions) */
    warm_keep(B, 2, (n ? n : 1) * sizeof(uint32_t));
    s->loc = take_warm(B, (n ? n : 1) * sizeof(uint32_t));
    phase("placement");

    /* 5. time order inside each location (and each location's events
     * marked with it in s->loc), the locations in parallel: newpos is
     * touched only where an event moved */
    {
        /* (in the warm block kept for act, which is written whole later:
         * no fresh pages for the moved positions) */
        B->newpos = take_warm(B, (n ? n : 1) * sizeof(uint32_t));
        B->moved = xcalloc_big(n / 64 + 1, sizeof(uint64_t));
        B->npair_first = B->pairs.n;
        B->pair_first = xmalloc(((size_t)B->npair_first + 1) * sizeof(uint32_t));
        for (uint32_t p = 0; p < B->npair_first; p++) B->pair_first[p] = NONE32;
        atomic_store(&B->resorted, false);
        jobq_init(&B->q, s->nloc);
        par_run(B->threads, locsort_worker, B);
        if (atomic_load(&B->resorted)) {
            jobq_init(&B->q, nb);
            par_run(B->threads < (int)nb ? B->threads : (int)nb, redest_worker, B);
        }
        give_warm(B, B->newpos, (n ? n : 1) * sizeof(uint32_t));
        xfree_big(B->moved, (n / 64 + 1) * sizeof(uint64_t));
        B->newpos = NULL;
        B->moved = NULL;
    }
    phase("time order");

    /* 6. optional and extra fields */
    /* (from here on the pool serves every fresh xmalloc_big: the field
     * buffers and warm blocks given to it become the pages of the later
     * columns, the activities' and the messages' arrays) */
    if (B->move) pages_serve(&B->pool);
    build_columns(B);
    /* the batches' dest arrays, no longer read, are warm memory too: the
     * activities' act (from a ts array) and depth come from them, and the
     * rest goes back now, before the messages' arrays */
    for (size_t b = 0; b < nb; b++) {
        B->warm[nb + b].p = B->dest[b];
        B->warm[nb + b].bytes = B->dest_bytes[b];
        B->dest[b] = NULL;
    }
    B->act_mem = take_warm(B, (n ? n : 1) * sizeof(uint32_t));
    B->depth_mem = take_warm(B, (n ? n : 1) * sizeof(uint16_t));
    warm_keep(B, 0, 0);
    /* the pool keeps what the next steps' big arrays take fresh (act_ev:
     * 4 bytes an event; the messages' keys and tables: about 60 bytes a
     * communication event, see build_messages), no more: pages held for
     * nothing through those steps would raise the peak */
    pages_trim(&B->pool, n * sizeof(uint32_t) + (defer_tail ? 0 : atomic_load(&B->ncomm) * 60));
    phase("columns");

    /* 7. activities, 8. messages, 9. sync groups (8 and 9 left for
     * store_finish_tail when deferred) */
    /* messages need no activities: they are matched while the activities
     * and then the sync groups are built */
    B->defer_tail = defer_tail;
    s->tail_pending = defer_tail;
    if (B->threads > 1 && !defer_tail) {
        par_run(2, tail_worker, B);
    } else {
        tail_worker(B, 0, 2);
        tail_worker(B, 1, 2);
    }
    if (B->move) timing_note("  pages moved %zu MiB, %zu MiB left", B->pool.moved >> 20, pages_held(&B->pool) >> 20);
    if (keep_pages) pages_keep(&B->pool);
    else pages_drop(&B->pool);
    phase("activities, messages, groups");

    if (n) {
        s->t_min = INT64_MAX;
        s->t_max = INT64_MIN;
        for (uint32_t l = 0; l < s->nloc; l++)
            if (s->locs[l].count && s->ts[s->locs[l].first] < s->t_min) s->t_min = s->ts[s->locs[l].first];
        for (uint32_t a = 0; a < s->nact; a++)
            if (s->acts[a].nev && s->acts[a].last_end > s->t_max) s->t_max = s->acts[a].last_end;
    }

    for (size_t b = 0; b < nb; b++) {
        free(B->nremap[b]);
        free(B->lremap[b]);
        free(B->sremap[b]);
        free(B->xremap[b]);
        free(B->kremap[b]);
        free(B->premap[b]);
        free(B->ploc[b]);
        free(B->start[b]);
        free(B->dest[b]);
    }
    free(B->sremap);
    free(B->nremap);
    free(B->lremap);
    free(B->xremap);
    free(B->kremap);
    free(B->premap);
    free(B->ploc);
    free(B->start);
    free(B->dest);
    free(B->dest_bytes);
    free(B->warm);
    free(B->pair_first);
    if (B->act_mem) free(B->act_mem);
    if (B->depth_mem) free(B->depth_mem);
    xfree_big(B->pair, (n ? n : 1) * sizeof(uint32_t));
    free(B->gp_loc);
    free(B->gp_act);
    free(B->uf);
    free(B->loc_of_sid);
    free(B->act_orders);
    km_free(&B->pairs);
    strtab_free(&B->xnames);
    if (B->xfull != s->xids) free(B->xfull);
    free(B->xsid);
    s->t_build = now_sec() - t0;
    return s;
}

